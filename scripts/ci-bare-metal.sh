#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# ci-bare-metal.sh - the cyclebench CI gate for a bare-metal runner: check the
# machine, build and load the module, run the fragments, save the results,
# unload, compare against a committed baseline, print TAP.
#
# Usage: scripts/ci-bare-metal.sh [OPTIONS]
#
#   --strict             fail (exit 2) when `cyclestat doctor` finds problems;
#                        without it the check is printed and the run goes on
#   --ko PATH            load this prebuilt cyclebench.ko instead of building
#   --no-build           do not build; load ./cyclebench.ko from the repo top
#   --cyclestat PATH     the cyclestat binary (default: cyclestat in PATH,
#                        else userspace/cyclestat/cyclestat)
#   --fragments SPEC     what to run: all, a group, group:name, or a
#                        comma-separated list (default: all)
#   --params "K=V ..."   module parameters, e.g. "samples=1000 ensembles=10
#                        warmup=100 method=paoloni cpu=2"; they are given to
#                        insmod and, for samples/ensembles/warmup/method/cpu,
#                        repeated in the run request
#   --baseline DIR       a `cyclestat save` directory to compare against
#                        (default: bench/baseline in the repo)
#   --update-baseline    replace the baseline with this run's results, no compare
#   --ab BASE_KO         no saved baseline: BASE_KO (the module built from the
#                        base commit) and this run's module are loaded in turn,
#                        run k of each side by side (BASE, NEW, BASE, NEW, ...),
#                        and compared pair by pair (cyclestat compare --paired):
#                        a clock that drifts over the session moves both sides
#                        of a pair alike. Default --runs 14 (the fewest pairs
#                        that can reach p < 0.01 over 64 rows, Holm's
#                        correction); the baseline's runs go to --out as
#                        baseline/run-1 ... run-N
#   --runs N             runs of the selection, each saved as one repetition
#                        (default 8; the gate compares runs, not samples, and
#                        a row must reach p < 0.01 over all the rows: 5 a
#                        side decide one row, 8 up to 64; 14 with --ab)
#   --threshold PCT      smallest relative change that counts (cyclestat's
#                        default when not given)
#   --allow-missing      a fragment in the baseline but not in this run (or
#                        aborted, failed, skipped here) does not fail the gate
#   --alpha A            significance level (cyclestat's default when not given)
#   --prepare-host       apply scripts/prepare-host.sh for the run and restore
#                        the host afterwards (also on failure or Ctrl-C)
#   --out DIR            artifacts directory (default: build/ci in the repo,
#                        which git ignores)
#   --debugfs DIR        the module's debugfs directory (default
#                        /sys/kernel/debug/cyclebench; tests use a fake one)
#   -h, --help           this text
#
# Artifacts in --out: results/run-1 ... run-N (the `cyclestat save` copy of
# each run), results.json (cyclestat --format json of them all), gbench.json
# (--format gbench, for google/benchmark's compare.py and dashboards),
# compare.json (cyclestat compare --format json), doctor.txt, tap.txt (what
# went to stdout). A baseline is such a results/ directory (an older single
# saved tree works too, as one repetition).
#
# Output: TAP on stdout (cyclestat compare --format tap), one line per
# fragment verdict with the change, its 95% interval, the p-value and the
# repetitions per side, "not ok" where compare fails the fragment, e.g.
#   1..3
#   ok 1 - alu:add_dep same (+0.3% [-0.4%, +1.0%], p=0.55, n=8/8, sees 3.4%)
#   not ok 2 - alu:imul_dep slower (+31.0% [+30.2%, +31.8%], p=0.0079, n=8/8, sees 2.1%)
#   not ok 3 - mem:chase/4096 missing (in the baseline, not in this run)
# Everything else (doctor, build, hints) goes to stderr. A setup failure also
# prints "Bail out! <reason>" on stdout.
#
# Exit status: 0 nothing slower, 1 a significant regression, 2 a usage or
# setup error (not root, module already loaded, no headers, ...), 3 no
# baseline yet: this runner's first run, nothing loaded, TAP "1..0 # SKIP";
# the message says how to record one (docs/ci.md, the runner's setup).
#
# The module is loaded with run_on_load=0 and the run is started by writing
# the selection to debugfs `run` (docs/debugfs-contract.md). Whatever happens
# after insmod - a failure, Ctrl-C, SIGTERM - the module is unloaded before
# the script exits. A cyclebench that was loaded before the script started is
# someone else's: the script refuses to run rather than unload it.
#
# Examples:
#   # on a runner with headers installed: build, run, gate
#   sudo scripts/ci-bare-metal.sh --params "cpu=2"
#   # first run on a new runner: record the baseline, then commit it
#   sudo scripts/ci-bare-metal.sh --update-baseline --baseline bench/baseline
#   # a QEMU guest as the runner: busybox, cyclestat in PATH, a prebuilt
#   # module, a baseline directory copied in (or recorded in the same boot
#   # with --update-baseline); no headers, no build:
#   sh /ci-bare-metal.sh --ko /cyclebench.ko --baseline /baseline \
#      --out /out/ci --fragments base,alu --params "samples=200 ensembles=5"
#   # tests/host/ci-gate-guest.sh is that proof, ready to boot:
#   scripts/qemu-run.sh --icount --out build/e2e/ci-gate \
#      --add scripts/ci-bare-metal.sh tests/host/ci-gate-guest.sh
#
# POSIX sh only: it runs under busybox ash as well as bash and dash. It loads
# and unloads with side.sh, the native side make run and make ab use too:
# keep the two side by side (a copy elsewhere takes both).
#
# For tests only: CB_SYSROOT prefixes /sys/module (the "already loaded"
# check), CB_DEBUGFS is --debugfs, CB_ALLOW_NONROOT=1 skips the root check,
# CB_INSMOD and CB_RMMOD replace insmod and rmmod (busybox sh runs its own
# applets before anything in PATH, so fakes in PATH are not enough).
set -eu

prog=ci-bare-metal.sh
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
sysroot=${CB_SYSROOT:-}
sysroot=${sysroot%/}

usage() {
	sed -n '3,/^set -eu/{/^set -eu/d;s/^# \{0,1\}//;p;}' "$0"
}

die_usage() {
	echo "$prog: $1 (see $prog --help)" >&2
	exit 2
}

# die MESSAGE [HINT]: a setup error. The EXIT trap unloads the module.
die() {
	echo "$prog: $1" >&2
	[ $# -lt 2 ] || echo "$prog: $2" >&2
	echo "Bail out! $1"
	exit 2
}

note() {
	echo "$prog: $*" >&2
}

# --- options -------------------------------------------------------------

strict=0
ko=
build=1
cyclestat=
fragments=all
params=
baseline=$top/bench/baseline
update=0
threshold=
alpha=
runs=
ab=
allow_missing=
prepare=0
out=$top/build/ci
debugfs=${CB_DEBUGFS:-$sysroot/sys/kernel/debug/cyclebench}

# need_arg OPTION COUNT: OPTION takes a value.
need_arg() {
	[ "$2" -ge 2 ] || die_usage "$1 needs a value"
}

while [ $# -gt 0 ]; do
	# --opt=value is the same as --opt value.
	case $1 in
	--*=*)
		o=${1%%=*}
		v=${1#*=}
		shift
		set -- "$o" "$v" "$@"
		;;
	esac
	case $1 in
	--strict) strict=1 ;;
	--ko) need_arg "$1" $#; ko=$2; shift ;;
	--no-build) build=0 ;;
	--cyclestat) need_arg "$1" $#; cyclestat=$2; shift ;;
	--fragments) need_arg "$1" $#; fragments=$2; shift ;;
	--params) need_arg "$1" $#; params=$2; shift ;;
	--baseline) need_arg "$1" $#; baseline=$2; shift ;;
	--update-baseline) update=1 ;;
	--ab) need_arg "$1" $#; ab=$2; shift ;;
	--threshold) need_arg "$1" $#; threshold=$2; shift ;;
	--runs) need_arg "$1" $#; runs=$2; shift ;;
	--allow-missing) allow_missing=--allow-missing ;;
	--alpha) need_arg "$1" $#; alpha=$2; shift ;;
	--prepare-host) prepare=1 ;;
	--out) need_arg "$1" $#; out=$2; shift ;;
	--debugfs) need_arg "$1" $#; debugfs=$2; shift ;;
	-h | --help)
		usage
		exit 0
		;;
	*) die_usage "unknown argument '$1'" ;;
	esac
	shift
done

case $fragments in
'' | *[!A-Za-z0-9_:,.-]*)
	die_usage "--fragments '$fragments': expected all, a group, group:name or a comma-separated list"
	;;
esac

# Module parameters: key=value words. The run-time subset is repeated in the
# run request so that the run uses them whatever the module's defaults are.
run_keys=
cpu=
for p in $params; do
	case $p in
	run_on_load=*) die_usage "--params: run_on_load is set by this script (to 0)" ;;
	[a-z]*=*) ;;
	*) die_usage "--params: '$p' is not key=value" ;;
	esac
	case ${p%%=*} in
	*[!a-z0-9_]*) die_usage "--params: '${p%%=*}' is not a parameter name" ;;
	samples | ensembles | warmup | method) run_keys="$run_keys $p" ;;
	cpu)
		run_keys="$run_keys $p"
		cpu=${p#cpu=}
		;;
	esac
done

isnum() {
	case $1 in
	'' | *[!0-9.]* | *.*.*) return 1 ;;
	esac
}
[ -z "$threshold" ] || isnum "$threshold" || die_usage "--threshold '$threshold' is not a number (a percentage, e.g. 5)"
[ -z "$alpha" ] || isnum "$alpha" || die_usage "--alpha '$alpha' is not a number (e.g. 0.01)"
[ -n "$runs" ] || { [ -n "$ab" ] && runs=14 || runs=8; }
case $runs in
'' | *[!0-9]* | 0) die_usage "--runs '$runs' is not a positive integer (8 or more to decide a catalogue's rows at alpha 0.01)" ;;
esac
[ -z "$ab" ] || [ "$update" = 0 ] ||
	die_usage "--ab and --update-baseline: an A/B session has no baseline to update"
[ "$build" = 1 ] || [ -n "$ko" ] || ko=$top/cyclebench.ko

# --- preflight: everything that can be checked before touching the machine --

if [ -z "$cyclestat" ]; then
	cyclestat=$(command -v cyclestat 2>/dev/null || true)
	[ -n "$cyclestat" ] || cyclestat=$top/userspace/cyclestat/cyclestat
fi
[ -x "$cyclestat" ] ||
	die "no cyclestat at $cyclestat" \
		"build it with 'make -C $top/userspace/cyclestat', or pass --cyclestat PATH"

if [ ! -f "$here/side.sh" ]; then
	echo "$prog: no $here/side.sh, which loads and unloads the module: copy scripts/side.sh beside this script" >&2
	echo "Bail out! no side.sh beside $prog"
	exit 2
fi
side_who=$prog
# shellcheck source=scripts/side.sh
. "$here/side.sh"

if [ "$(id -u)" != 0 ] && [ "${CB_ALLOW_NONROOT:-0}" != 1 ]; then
	die "must run as root (insmod, debugfs)" "try: sudo $0 ..."
fi

if [ "$prepare" = 1 ] && [ ! -x "$here/prepare-host.sh" ]; then
	die "--prepare-host needs $here/prepare-host.sh" \
		"copy scripts/prepare-host.sh next to this script, or drop --prepare-host"
fi

if [ -n "$ab" ] && [ ! -f "$ab" ]; then
	die "no base module at $ab" \
		"build the base commit's module (make -C /lib/modules/\$(uname -r)/build M=\$PWD) and pass its .ko to --ab"
fi
# No baseline: a first run, not a failure of the change (exit 3, TAP's
# skip-all), and what to do next.
if [ "$update" = 0 ] && [ -z "$ab" ] && [ ! -d "$baseline" ]; then
	echo "$prog: no baseline at $baseline: this runner's first run, nothing compared." >&2
	echo "$prog: record it on a known-good commit: run this same command with --update-baseline added, then commit $baseline (docs/ci.md); or pass --baseline DIR, or --ab BASE.ko" >&2
	echo "1..0 # SKIP no baseline at $baseline yet: record one with --update-baseline"
	exit 3
fi

if ! side_refuse_loaded; then
	die "cyclebench is already loaded, by someone else: this script loads and unloads its own copy" \
		"if nothing is using it, unload it with 'rmmod cyclebench' and run again"
fi

mkdir -p "$out" || die "cannot create the artifacts directory $out" "pass a writable --out DIR"
out=$(cd "$out" && pwd)
rm -rf "$out/results" "$out/baseline"
rm -f "$out/results.json" "$out/gbench.json" "$out/compare.json" "$out/tap.txt" "$out/doctor.txt"

# --- cleanup: whatever happens from here on --------------------------------

runner=
prepared=0

# shellcheck disable=SC2317 # reached through the traps below
cleanup() {
	rc=$?
	set +e
	trap - EXIT INT TERM HUP
	# A run still in its write(2) is abandoned by the module on a fatal
	# signal (-EINTR); SIGTERM is one: the writer is a background child,
	# which does not see the terminal's Ctrl-C.
	if [ -n "$runner" ]; then
		kill "$runner" 2>/dev/null
		wait "$runner" 2>/dev/null
		runner=
	fi
	if [ "$side_loaded" = 1 ]; then
		note "unloading cyclebench"
		side_unload || rc=2
	fi
	if [ "$prepared" = 1 ]; then
		"$here/prepare-host.sh" --restore --state "$out/host.state" >&2 || rc=2
	fi
	exit "$rc"
}
trap cleanup EXIT
trap 'note "interrupted"; exit 130' INT
trap 'note "terminated"; exit 143' TERM
trap 'note "hangup"; exit 129' HUP

# --- 1. the machine --------------------------------------------------------

if [ "$prepare" = 1 ]; then
	prepared=1
	"$here/prepare-host.sh" --state "$out/host.state" >&2 ||
		die "prepare-host.sh failed (see above)" "fix what it names, or drop --prepare-host"
fi

# doctor exits 1 on a problem only with --strict; without, a failure means
# the check itself could not run, which is worth a note but not a stop.
strict_opt=
[ "$strict" = 0 ] || strict_opt=--strict
note "checking the machine: cyclestat${strict_opt:+ $strict_opt}${cpu:+ --cpu $cpu} doctor"
if "$cyclestat" $strict_opt ${cpu:+--cpu "$cpu"} doctor >"$out/doctor.txt" 2>&1; then
	doctor=0
else
	doctor=$?
fi
cat "$out/doctor.txt" >&2
if [ "$doctor" != 0 ]; then
	if [ "$strict" = 1 ]; then
		die "the machine check found problems (--strict)" \
			"fix them (scripts/prepare-host.sh applies the safe ones; --table lists them) or drop --strict"
	fi
	note "the machine check failed (exit $doctor, see above); going on, as --strict was not given"
fi

# --- 2. build, load, run, save, unload ------------------------------------

if [ -z "$ko" ]; then
	kver=$(uname -r)
	kdir=${KDIR:-/lib/modules/$kver/build}
	[ -d "$kdir" ] ||
		die "no kernel headers for $kver at $kdir" \
			"install them: apt-get install linux-headers-$kver (or set KDIR=, or pass --ko PATH)"
	note "building against $kdir"
	make -C "$kdir" M="$top" modules >&2 ||
		die "the module build failed (see above)" "make -C $kdir M=$top modules"
	ko=$top/cyclebench.ko
fi
[ -f "$ko" ] || die "no module at $ko" "build it (make) or pass --ko PATH"

# load KO: insmod with the parameters; from here the EXIT trap unloads.
load() {
	note "loading: insmod $1 run_on_load=0${params:+ $params}"
	# shellcheck disable=SC2086 # $params is a list of words
	if ! side_load "$1" run_on_load=0 $params; then
		die "insmod $1 failed" \
			"see 'dmesg | tail' (a wrong parameter? a module built for another kernel than $(uname -r)?)"
	fi
	[ -e "$debugfs/run" ] ||
		die "no $debugfs/run after loading the module" \
			"is debugfs mounted? mount -t debugfs none /sys/kernel/debug"
}

# interleave=1: ensemble by ensemble across the fragments, so that a clock
# that drifts during a run (turbo, a neighbour's load) moves every fragment
# and calib:add_chain alike instead of passing for a change.
request="$fragments$run_keys interleave=1"

# run_save WHAT DIR: one run of the request, saved to DIR.
run_save() {
	note "$1: echo '$request' > $debugfs/run"
	# The write returns when the run is over. It runs in a child so that a
	# signal to this script is handled at once (by the trap), not after it.
	(printf '%s\n' "$request" >"$debugfs/run") &
	runner=$!
	if wait "$runner"; then
		runner=
	else
		runner=
		die "the run failed: writing '$request' to $debugfs/run" \
			"see 'dmesg | tail'; EINVAL: an unknown fragment or key, E2BIG: raise max_mb or lower samples/ensembles"
	fi
	note "saving it to $2"
	"$cyclestat" --tree "$debugfs" save "$2" >&2 ||
		die "cyclestat save failed (see above)"
}

k=1
[ -n "$ab" ] || load "$ko"
while [ "$k" -le "$runs" ]; do
	if [ -n "$ab" ]; then
		load "$ab"
		run_save "base run $k of $runs" "$out/baseline/run-$k"
		side_unload || die "could not unload the base module" "rmmod cyclebench"
		load "$ko"
	fi
	run_save "run $k of $runs" "$out/results/run-$k"
	[ -z "$ab" ] || side_unload || die "could not unload the module" "rmmod cyclebench"
	k=$((k + 1))
done
[ -n "$ab" ] || side_unload || die "could not unload the module" "rmmod cyclebench"

# shellcheck disable=SC2046 # the run directories, in order
set -- $(k=1; while [ "$k" -le "$runs" ]; do echo "$out/results/run-$k"; k=$((k + 1)); done)
"$cyclestat" --format json "$@" >"$out/results.json" ||
	die "cyclestat --format json failed (see above)"
"$cyclestat" --format gbench "$@" >"$out/gbench.json" ||
	die "cyclestat --format gbench failed (see above)"

# --- 3. the baseline ------------------------------------------------------

if [ "$update" = 1 ]; then
	rm -rf "$baseline"
	mkdir -p "$(dirname "$baseline")"
	cp -R "$out/results" "$baseline" || die "cannot write the baseline $baseline"
	# One line per fragment this run measured (an unmeasured one has an
	# empty cycles file).
	n=0
	tap=
	while read -r f _; do
		[ -s "$out/results/run-1/${f%%:*}/${f#*:}/cycles" ] || continue
		n=$((n + 1))
		tap="${tap}ok $n - $f baseline updated ($runs runs)
"
	done <"$out/results/run-1/fragments"
	printf '1..%d\n%s' "$n" "$tap" >"$out/tap.txt"
	cat "$out/tap.txt"
	note "baseline $baseline updated from this run; commit it"
	exit 0
fi

# --- 4. compare, TAP ------------------------------------------------------

# The baseline's runs (an older baseline is one saved tree), then this run's;
# with --ab, the base module's runs of this session, paired with this run's.
paired=
if [ -n "$ab" ]; then
	baseline=$out/baseline
	paired=--paired
fi
if [ -d "$baseline/run-1" ]; then
	base_runs=$(k=1; while [ -d "$baseline/run-$k" ]; do echo "$baseline/run-$k"; k=$((k + 1)); done)
else
	base_runs=$baseline
fi
# compare.json is the artifact, compare --format tap the verdicts (one line
# each, "not ok" where compare fails); the same inputs give the same
# verdicts, and the second run is -q: its warnings would repeat the first's.
# shellcheck disable=SC2086 # lists of directories without blanks
if "$cyclestat" --format json ${threshold:+--threshold "$threshold"} \
	${alpha:+--alpha "$alpha"} $allow_missing $paired compare $base_runs -- "$@" >"$out/compare.json"; then
	verdict=0
else
	verdict=$?
fi
[ "$verdict" -le 1 ] || die "cyclestat compare failed (exit $verdict, see above)"
# shellcheck disable=SC2086 # as above
if tap=$("$cyclestat" -q --format tap ${threshold:+--threshold "$threshold"} \
	${alpha:+--alpha "$alpha"} $allow_missing $paired compare $base_runs -- "$@"); then
	tap_rc=0
else
	tap_rc=$?
fi
[ "$tap_rc" -le 1 ] ||
	die "cyclestat compare --format tap failed (exit $tap_rc, see above)" \
		"is $cyclestat the version this script expects? (one whose compare has --format tap)"
[ "$tap_rc" = "$verdict" ] ||
	die "cyclestat compare exited $verdict with --format json but $tap_rc with --format tap, on the same runs" \
		"see $out/compare.json; is $cyclestat the version this script expects?"
n=$(printf '%s\n' "$tap" | grep -c '^\(not \)\{0,1\}ok' || true)
n=$((n + 0))
[ "$(printf '%s\n' "$tap" | head -n 1)" = "1..$n" ] ||
	die "cyclestat compare --format tap printed no plan for its $n verdicts" \
		"is $cyclestat the version this script expects?"
[ "$n" -gt 0 ] || die "cyclestat compare reported no fragments" \
	"do the baseline and this run share fragments? (--fragments, cyclestat compare $baseline $out/results)"
printf '%s\n' "$tap" >"$out/tap.txt"
cat "$out/tap.txt"

slower=$(printf '%s\n' "$tap" | grep -c '^not ok' || true)
if [ "$verdict" = 1 ] || [ "$slower" != 0 ]; then
	if [ "$slower" = 0 ]; then
		note "cyclestat compare exited 1 (something slower) but its TAP has no 'not ok': see $out/compare.json"
	fi
	note "regression: $slower fragment(s) slower than the baseline $baseline, or missing from this run"
	exit 1
fi
exit 0

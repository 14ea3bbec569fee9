#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# test-ci-bare-metal.sh - scripts/ci-bare-metal.sh with fake insmod, rmmod,
# make and cyclestat (tests/host/stubs/) and a fake debugfs tree, under bash
# and busybox sh: TAP shape, exit codes, the module unloaded on every path
# (failure, SIGINT, SIGTERM), refusing a module loaded by someone else.
# Nothing is loaded and nothing outside a temp dir is written.
set -eu
. "$(dirname "$0")/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ci=$top/scripts/ci-bare-metal.sh
stubs=$top/tests/host/stubs

# mk_tree DIR [IMUL]: a debugfs tree as the module leaves it after a run of
# three fragments, 2 ensembles x 8 samples, and one fragment not measured;
# IMUL is alu:imul_dep's level.
mk_tree() {
	mkdir -p "$1"
	printf 'version: 0.1.0\ntsc_khz: 2500000\nsamples: 8\nensembles: 2\n' >"$1/info"
	printf '%s\n' "base:empty 1 nothing" "alu:add_dep 4 4 dependent adds" \
		"alu:imul_dep 4 4 dependent imuls" "mem:load_l1 8 8 loads" >"$1/fragments"
	echo idle >"$1/status"
	: >"$1/run"
	while read -r f ops _; do
		d=$1/${f%%:*}/${f#*:}
		mkdir -p "$d"
		if [ "$f" = mem:load_l1 ]; then
			printf 'name: %s\nstate: none\n' "$f" >"$d/info"
			: >"$d/cycles"
			continue
		fi
		case $f in
		base:empty) lvl=30 ;;
		alu:add_dep) lvl=34 ;;
		*) lvl=${2:-42} ;;
		esac
		printf 'name: %s\nops: %s\nstate: ok\nensembles: 2\nsamples: 8\n' "$f" "$ops" >"$d/info"
		i=0
		while [ $i -lt 16 ]; do
			echo $((lvl + i % 5))
			i=$((i + 1))
		done >"$d/cycles"
	done <"$1/fragments"
}

mk_tree "$tmp/fixture"
mkdir -p "$tmp/baseline"
cp -R "$tmp/fixture"/. "$tmp/baseline"/

# The compare JSON (schema 2) the stub prints: add_dep the same, imul_dep
# 31% slower (or whatever verdict $1 says), $3 a fragment missing from NEW.
compare_json() {
	fails=false
	[ "$1" != slower ] || fails=true
	cat <<JSON
{"cyclestat": "0.1.0", "schema": 2, "base": ["b"], "new": ["n"], "threshold": 0.05, "alpha": 0.01,
  "fragments": [
    {"name": "alu:add_dep", "verdict": "same", "reason": "", "fails": false, "basis": "net", "repetitions": "runs", "base_n": 5, "new_n": 5, "base_median": 100, "new_median": 100.3, "change": 0.003, "change_lo": -0.004, "change_hi": 0.01, "p_value": 0.55, "p_text": "0.55", "test": "exact", "smi": false},
    {"name": "alu:imul_dep", "verdict": "$1", "reason": "", "fails": $fails, "basis": "net", "repetitions": "runs", "base_n": 5, "new_n": 5, "base_median": 100, "new_median": 131, "change": 0.31, "change_lo": 0.302, "change_hi": 0.318, "p_value": 0.0079, "p_text": "0.0079", "test": "exact", "smi": $2}$3
  ],
  "slower": 0, "faster": 0, "same": 2}
JSON
}
compare_json same false "" >"$tmp/same.json"
compare_json slower false "" >"$tmp/slower.json"
compare_json same true ',
    {"name": "mem:gone", "verdict": "missing", "reason": "", "fails": false, "basis": null, "repetitions": null, "base_n": 0, "new_n": 0, "base_median": null, "new_median": null, "change": null, "change_lo": null, "change_hi": null, "p_value": null, "p_text": "", "test": "", "smi": false},
    {"name": "x:y\"z", "verdict": "missing", "reason": "", "fails": true, "basis": null, "repetitions": null, "base_n": 0, "new_n": 0, "base_median": null, "new_median": null, "change": null, "change_lo": null, "change_hi": null, "p_value": null, "p_text": "", "test": "", "smi": false}' >"$tmp/smi.json"
# ... and the same verdicts as compare --format tap prints them, which the
# stub answers with FILE.tap beside FILE.json (the real cyclestat's wording
# is pinned below and in userspace/cyclestat/tests/golden.cmds).
tap_add='ok 1 - alu:add_dep same (+0.3% [-0.4%, +1.0%], p=0.55, n=5/5)'
tap_imul='alu:imul_dep same (+31.0% [+30.2%, +31.8%], p=0.0079, n=5/5)'
printf '1..2\n%s\nok 2 - %s\n' "$tap_add" "$tap_imul" >"$tmp/same.tap"
printf '1..2\n%s\nnot ok 2 - %s\n' "$tap_add" "$(echo "$tap_imul" | sed 's/ same / slower /')" >"$tmp/slower.tap"
cat >"$tmp/smi.tap" <<TAP
1..4
$tap_add
ok 2 - $tap_imul [SMIs during a run: rerun before trusting this]
ok 3 - mem:gone missing (in the baseline, not in this run; allowed by --allow-missing)
not ok 4 - x:y"z missing (in the baseline, not in this run)
TAP

# new_case NAME: a fresh fake machine; sets $c, $dbg and the environment.
new_case() {
	c=$tmp/$sh/$1
	mkdir -p "$c/root/sys/module" "$c/state"
	dbg=$c/root/sys/kernel/debug/cyclebench
	: >"$c/log"
	FAKE_LOG=$c/log FAKE_STATE=$c/state FAKE_TREE=$tmp/fixture CB_SYSROOT=$c/root \
		CB_DEBUGFS=$dbg FAKE_COMPARE_JSON=$tmp/same.json CB_ALLOW_NONROOT=1 \
		CB_INSMOD=$stubs/insmod CB_RMMOD=$stubs/rmmod
	export FAKE_LOG FAKE_STATE FAKE_TREE CB_SYSROOT CB_DEBUGFS FAKE_COMPARE_JSON CB_ALLOW_NONROOT \
		CB_INSMOD CB_RMMOD
	unset FAKE_INSMOD_RC FAKE_INSMOD_SIGNAL FAKE_RUN_FIFO FAKE_SAVE_RC FAKE_COMPARE_RC \
		FAKE_COMPARE_TAP FAKE_COMPARE_TAP_RC FAKE_DOCTOR_BAD FAKE_MAKE_RC FAKE_NO_DEBUGFS KDIR
}

# ci ARGS...: run the script; sets $rc, $out (stdout), $err (stderr).
# ci ARGS...: the script under test, with SIGINT at its default as from a
# terminal: a shell started in the background (nohup ... &, some CI
# runners) passes SIGINT on ignored, and an ignored signal cannot be
# trapped, so the Ctrl-C case would hang.
ci() {
	rc=0
	PATH=$stubs:$PATH env --default-signal=INT "$(command -v "${sh%% *}")" \
		$([ "$sh" = busybox ] && echo sh) "$ci" --out "$c/out" "$@" \
		>"$c/stdout" 2>"$c/stderr" || rc=$?
	out=$(cat "$c/stdout")
	err=$(cat "$c/stderr")
}

# unloaded WHAT: the fake module is gone and rmmod was called once.
unloaded() {
	[ -e "$c/root/sys/module/cyclebench" ] && v=loaded || v=unloaded
	expect_eq "[$sh] $1: module unloaded, by one rmmod" "unloaded 1" \
		"$v $(grep -c '^rmmod cyclebench$' "$c/log")"
}

ko=$tmp/cyclebench.ko
: >"$ko"

for sh in $(test_shells); do
	new_case pass
	ci --ko "$ko" --baseline "$tmp/baseline" --params "samples=1000 ensembles=10 warmup=100 method=paoloni cpu=3 max_mb=64"
	expect_eq "[$sh] no regression: exit 0" 0 "$rc"
	expect_eq "[$sh] no regression: TAP plan and one line per fragment" \
		"1..2
ok 1 - alu:add_dep same (+0.3% [-0.4%, +1.0%], p=0.55, n=5/5)
ok 2 - alu:imul_dep same (+31.0% [+30.2%, +31.8%], p=0.0079, n=5/5)" "$out"
	unloaded "no regression"
	expect_eq "[$sh] insmod gets run_on_load=0 and every --params word" \
		"insmod $ko run_on_load=0 samples=1000 ensembles=10 warmup=100 method=paoloni cpu=3 max_mb=64" \
		"$(grep '^insmod' "$c/log")"
	expect_file "[$sh] the run request is the selection plus the run-time keys" "$c/state/run-request" \
		"all samples=1000 ensembles=10 warmup=100 method=paoloni cpu=3 interleave=1"
	expect_match "[$sh] doctor is asked about the chosen CPU" "^cyclestat --cpu 3 doctor$" "$(cat "$c/log")"
	expect_match "[$sh] save reads the module's debugfs tree, once per run" "^cyclestat --tree $dbg save $c/out/results/run-8$" "$(cat "$c/log")"
	expect_eq "[$sh] --runs defaults to 8 runs (Holm over 64 rows), 8 saves" 8 "$(grep -c ' save ' "$c/log")"
	for a in results/run-1/info results/run-8/alu/imul_dep/cycles results.json gbench.json compare.json tap.txt doctor.txt; do
		[ -e "$c/out/$a" ] && v=present || v=missing
		expect_eq "[$sh] artifact $a" present "$v"
	done
	expect_eq "[$sh] tap.txt is what went to stdout" "$out" "$(cat "$c/out/tap.txt")"
	expect_match "[$sh] gbench.json comes from --format gbench on the saved copy" \
		"^cyclestat --format gbench $c/out/results/run-1 .* $c/out/results/run-8$" "$(cat "$c/log")"
	expect_match "[$sh] compare gets the baseline (an older single tree), then this run's runs" \
		"^cyclestat --format json compare $tmp/baseline -- $c/out/results/run-1 $c/out/results/run-2 .*run-8$" "$(cat "$c/log")"
	expect_match "[$sh] the verdicts are compare --format tap of the same runs, quiet (its warnings were said)" \
		"^cyclestat -q --format tap compare $tmp/baseline -- $c/out/results/run-1 $c/out/results/run-2 .*run-8$" "$(cat "$c/log")"

	new_case regression
	FAKE_COMPARE_JSON=$tmp/slower.json FAKE_COMPARE_RC=1 ci --ko "$ko" --baseline "$tmp/baseline" \
		--threshold 5 --alpha 0.01 --fragments alu --allow-missing --runs 2
	expect_eq "[$sh] --runs 2: two saves" 2 "$(grep -c ' save ' "$c/log")"
	expect_eq "[$sh] a regression: exit 1" 1 "$rc"
	expect_eq "[$sh] a regression: not ok names the slower fragment" \
		"1..2
ok 1 - alu:add_dep same (+0.3% [-0.4%, +1.0%], p=0.55, n=5/5)
not ok 2 - alu:imul_dep slower (+31.0% [+30.2%, +31.8%], p=0.0079, n=5/5)" "$out"
	expect_match "[$sh] a regression: --threshold, --alpha and --allow-missing reach compare" \
		"^cyclestat --format json --threshold 5 --alpha 0.01 --allow-missing compare " "$(cat "$c/log")"
	expect_match "[$sh] a regression: ... and compare --format tap" \
		"^cyclestat -q --format tap --threshold 5 --alpha 0.01 --allow-missing compare " "$(cat "$c/log")"
	expect_file "[$sh] --fragments is the run's selection, interleaved" "$c/state/run-request" "alu interleave=1"
	expect_match "[$sh] a regression: says so on stderr" "regression: 1 fragment\(s\) slower" "$err"
	unloaded "a regression"

	# --ab: the base module and this one in turn, compared pair by pair
	new_case ab
	: >"$tmp/base.ko"
	ci --ko "$ko" --ab "$tmp/base.ko" --fragments alu
	expect_eq "[$sh] --ab: exit 0" 0 "$rc"
	expect_eq "[$sh] --ab: 14 runs a side by default (Holm over 64 rows), loaded in turn (base, new, ...)" \
		"$(k=0; while [ $k -lt 14 ]; do echo "insmod $tmp/base.ko run_on_load=0"; echo "insmod $ko run_on_load=0"; k=$((k + 1)); done)" \
		"$(grep '^insmod' "$c/log")"
	expect_eq "[$sh] --ab: one rmmod per insmod" 28 "$(grep -c '^rmmod cyclebench$' "$c/log")"
	expect_match "[$sh] --ab: compare --paired, the base's runs of this session first" \
		"^cyclestat --format json --paired compare $c/out/baseline/run-1 .* $c/out/baseline/run-14 -- $c/out/results/run-1 .* $c/out/results/run-14$" \
		"$(cat "$c/log")"
	expect_match "[$sh] --ab: the TAP is paired too" \
		"^cyclestat -q --format tap --paired compare $c/out/baseline/run-1 .* -- $c/out/results/run-1 .* $c/out/results/run-14$" \
		"$(cat "$c/log")"
	expect_eq "[$sh] --ab: the base's runs are kept" 14 "$(ls -d "$c/out/baseline"/run-* | wc -l | tr -d ' ')"
	[ -e "$c/root/sys/module/cyclebench" ] && v=loaded || v=unloaded
	expect_eq "[$sh] --ab: nothing left loaded" unloaded "$v"
	new_case ab-runs
	ci --ko "$ko" --ab "$tmp/base.ko" --runs 2
	expect_eq "[$sh] --ab --runs 2: two of each" 4 "$(grep -c '^insmod' "$c/log")"
	new_case ab-missing
	ci --ko "$ko" --ab "$tmp/nothere.ko"
	expect_eq "[$sh] --ab without the base module: exit 2, nothing loaded" "2 0" \
		"$rc $(grep -c '^insmod' "$c/log")"
	expect_match "[$sh] --ab without the base module: says how to build it" "pass its .ko to --ab" "$err"
	new_case ab-update
	ci --ko "$ko" --ab "$tmp/base.ko" --update-baseline
	expect_eq "[$sh] --ab with --update-baseline: a usage error" 2 "$rc"

	new_case smi-and-gone
	FAKE_COMPARE_JSON=$tmp/smi.json FAKE_COMPARE_RC=1 ci --ko "$ko" --baseline "$tmp/baseline"
	expect_eq "[$sh] SMIs flagged on the verdict; a missing fragment fails unless allowed" \
		"1 1..4
ok 1 - alu:add_dep same (+0.3% [-0.4%, +1.0%], p=0.55, n=5/5)
ok 2 - alu:imul_dep same (+31.0% [+30.2%, +31.8%], p=0.0079, n=5/5) [SMIs during a run: rerun before trusting this]
ok 3 - mem:gone missing (in the baseline, not in this run; allowed by --allow-missing)
not ok 4 - x:y\"z missing (in the baseline, not in this run)" "$rc $out"

	new_case compare-says-slower
	FAKE_COMPARE_RC=1 ci --ko "$ko" --baseline "$tmp/baseline"
	expect_eq "[$sh] compare exit 1 is a regression even if the TAP says no 'not ok'" 1 "$rc"
	expect_match "[$sh] ... and says where to look" "no 'not ok': see $c/out/compare.json" "$err"

	new_case compare-error
	FAKE_COMPARE_RC=2 ci --ko "$ko" --baseline "$tmp/baseline"
	expect_eq "[$sh] compare failing: exit 2" 2 "$rc"
	expect_match "[$sh] compare failing: Bail out! on stdout" "^Bail out! cyclestat compare failed" "$out"
	unloaded "compare failing"

	# a cyclestat whose compare has no --format tap: JSON, then a usage error
	new_case no-tap
	FAKE_COMPARE_TAP_RC=2 ci --ko "$ko" --baseline "$tmp/baseline"
	expect_eq "[$sh] compare --format tap failing: exit 2" 2 "$rc"
	expect_eq "[$sh] compare --format tap failing: Bail out! on stdout, no verdict" \
		"Bail out! cyclestat compare --format tap failed (exit 2, see above)" "$out"
	expect_match "[$sh] compare --format tap failing: asks for a cyclestat that has it" \
		"is .*cyclestat the version this script expects\? \(one whose compare has --format tap\)" "$err"
	[ -s "$c/out/compare.json" ] && v=present || v=missing
	expect_eq "[$sh] compare --format tap failing: compare.json is still there" present "$v"
	unloaded "compare --format tap failing"

	new_case tap-disagrees
	FAKE_COMPARE_TAP_RC=1 ci --ko "$ko" --baseline "$tmp/baseline"
	expect_eq "[$sh] JSON and TAP runs of compare disagreeing: exit 2" 2 "$rc"
	expect_match "[$sh] JSON and TAP runs of compare disagreeing: says both" \
		"^Bail out! cyclestat compare exited 0 with --format json but 1 with --format tap" "$out"

	new_case not-tap
	echo "alu:add_dep same" >"$c/not.tap"
	FAKE_COMPARE_TAP=$c/not.tap ci --ko "$ko" --baseline "$tmp/baseline"
	expect_eq "[$sh] compare --format tap printing no TAP: exit 2" 2 "$rc"
	expect_match "[$sh] compare --format tap printing no TAP: says so" "^Bail out! .* printed no plan" "$out"

	new_case no-fragments
	echo "1..0" >"$c/none.tap"
	FAKE_COMPARE_TAP=$c/none.tap ci --ko "$ko" --baseline "$tmp/baseline"
	expect_eq "[$sh] compare with no verdict: exit 2" 2 "$rc"
	expect_match "[$sh] compare with no verdict: asks whether the fragments overlap" \
		"^Bail out! cyclestat compare reported no fragments" "$out"

	for how in pass INT; do
		new_case "prepare-host-$how"
		mkdir -p "$c/root/proc/sys/kernel"
		echo 1 >"$c/root/proc/sys/kernel/nmi_watchdog"
		[ "$how" = pass ] || FAKE_INSMOD_SIGNAL=INT
		export FAKE_INSMOD_SIGNAL
		ci --ko "$ko" --baseline "$tmp/baseline" --prepare-host
		expect_eq "[$sh] --prepare-host ($how): the host is prepared during the run" 0 "$(cat "$c/state/nmi-at-load")"
		expect_eq "[$sh] --prepare-host ($how): and restored afterwards" 1 "$(cat "$c/root/proc/sys/kernel/nmi_watchdog")"
		unset FAKE_INSMOD_SIGNAL
	done

	new_case side-missing
	mkdir -p "$c/solo"
	cp "$ci" "$c/solo/"
	rc=0
	PATH=$stubs:$PATH run_sh "$sh" "$c/solo/ci-bare-metal.sh" --ko "$ko" --baseline "$tmp/baseline" \
		--out "$c/out" >"$c/stdout" 2>"$c/stderr" || rc=$?
	expect_eq "[$sh] without side.sh beside the script: exit 2, nothing loaded" \
		"2 0" "$rc $(grep -c '^insmod' "$c/log" 2>/dev/null || true)"
	expect_match "[$sh] ... says where it looked and what to copy" \
		"no $c/solo/side.sh.*copy scripts/side.sh beside" "$(cat "$c/stderr")"
	expect_match "[$sh] ... and bails out in TAP" "^Bail out! no side.sh" "$(cat "$c/stdout")"

	new_case prepare-host-missing
	mkdir -p "$c/solo"
	cp "$ci" "$top/scripts/side.sh" "$c/solo/"
	rc=0
	PATH=$stubs:$PATH run_sh "$sh" "$c/solo/ci-bare-metal.sh" --ko "$ko" --baseline "$tmp/baseline" \
		--out "$c/out" --prepare-host >/dev/null 2>"$c/stderr" || rc=$?
	expect_eq "[$sh] --prepare-host without prepare-host.sh beside the script: exit 2, nothing loaded" \
		"2 0" "$rc $(grep -c '^insmod' "$c/log" || true)"
	expect_match "[$sh] ... and says where it looked" "needs $c/solo/prepare-host.sh" "$(cat "$c/stderr")"

	new_case already-loaded
	mkdir -p "$c/root/sys/module/cyclebench"
	ci --ko "$ko" --baseline "$tmp/baseline"
	expect_eq "[$sh] a module loaded before: exit 2" 2 "$rc"
	expect_match "[$sh] a module loaded before: says so and how to fix it" \
		"already loaded.*|.*rmmod cyclebench" "$err"
	[ -e "$c/root/sys/module/cyclebench" ] && v=loaded || v=unloaded
	expect_eq "[$sh] a module loaded before: left loaded, no insmod, no rmmod" "loaded " \
		"$v $(grep -E '^(insmod|rmmod)' "$c/log" || true)"

	new_case insmod-fails
	FAKE_INSMOD_RC=1 ci --ko "$ko" --baseline "$tmp/baseline"
	expect_eq "[$sh] insmod failing: exit 2, no rmmod" "2 0" "$rc $(grep -c '^rmmod' "$c/log" || true)"
	expect_match "[$sh] insmod failing: points at dmesg" "dmesg" "$err"

	new_case save-fails
	FAKE_SAVE_RC=2 ci --ko "$ko" --baseline "$tmp/baseline"
	expect_eq "[$sh] save failing after the load: exit 2" 2 "$rc"
	unloaded "save failing after the load"

	new_case sigint-after-load
	FAKE_INSMOD_SIGNAL=INT ci --ko "$ko" --baseline "$tmp/baseline"
	expect_eq "[$sh] SIGINT after insmod: exit 130" 130 "$rc"
	unloaded "SIGINT after insmod"
	expect_no_match "[$sh] SIGINT after insmod: no TAP verdicts" "^(not )?ok" "$out"

	new_case sigterm-after-load
	FAKE_INSMOD_SIGNAL=TERM ci --ko "$ko" --baseline "$tmp/baseline"
	expect_eq "[$sh] SIGTERM after insmod: exit 143" 143 "$rc"
	unloaded "SIGTERM after insmod"

	# Ctrl-C while the run request blocks (here: a FIFO nobody reads).
	new_case sigint-during-run
	FAKE_RUN_FIFO=1
	export FAKE_RUN_FIFO
	# (60 s for a busy host; should the script never get there, the
	# FIFO is read, so the test fails rather than hangs)
	(
		i=0
		while { [ ! -p "$dbg/run" ] || [ ! -s "$c/state/pid" ]; } && [ $i -lt 600 ]; do
			sleep 0.1
			i=$((i + 1))
		done
		sleep 0.3
		kill -s INT "$(cat "$c/state/pid" 2>/dev/null)" 2>/dev/null ||
			{ [ ! -p "$dbg/run" ] || cat "$dbg/run" >/dev/null; }
	) &
	killer=$!
	ci --ko "$ko" --baseline "$tmp/baseline"
	wait "$killer" || true
	expect_eq "[$sh] SIGINT during the run: exit 130" 130 "$rc"
	unloaded "SIGINT during the run"
	expect_match "[$sh] SIGINT during the run: says interrupted" "interrupted" "$err"
	unset FAKE_RUN_FIFO

	new_case doctor-problem
	FAKE_DOCTOR_BAD=1 ci --ko "$ko" --baseline "$tmp/baseline"
	expect_eq "[$sh] doctor problems without --strict: still runs, exit 0" 0 "$rc"
	expect_match "[$sh] doctor problems without --strict: shown on stderr" "^SMT is on" "$err"

	new_case strict
	FAKE_DOCTOR_BAD=1 ci --ko "$ko" --baseline "$tmp/baseline" --strict
	expect_eq "[$sh] doctor problems with --strict: exit 2, nothing loaded" "2 0" \
		"$rc $(grep -c '^insmod' "$c/log" || true)"
	expect_match "[$sh] --strict failure points at prepare-host.sh" "prepare-host.sh" "$err"
	expect_match "[$sh] --strict asks doctor for --strict" "^cyclestat --strict doctor$" "$(cat "$c/log")"

	new_case no-baseline
	ci --ko "$ko" --baseline "$c/nothing"
	expect_eq "[$sh] no baseline: exit 3 (a first run, not a setup error) before loading anything" "3 0" \
		"$rc $(grep -c '^insmod' "$c/log" || true)"
	expect_match "[$sh] no baseline: suggests --update-baseline" "--update-baseline" "$err"
	expect_match "[$sh] no baseline: points at the runner's setup" "docs/ci.md" "$err"
	expect_eq "[$sh] no baseline: TAP skips all, no Bail out" "1..0 # SKIP no baseline at $c/nothing yet: record one with --update-baseline" "$out"

	new_case update-baseline
	ci --ko "$ko" --baseline "$c/new/baseline" --update-baseline
	expect_eq "[$sh] --update-baseline: exit 0" 0 "$rc"
	expect_eq "[$sh] --update-baseline: the baseline is this run's saved results" \
		"$(cat "$tmp/fixture/alu/imul_dep/cycles")" "$(cat "$c/new/baseline/run-5/alu/imul_dep/cycles" 2>&1)"
	expect_eq "[$sh] --update-baseline: TAP, one line per fragment" \
		"1..3
ok 1 - base:empty baseline updated (8 runs)
ok 2 - alu:add_dep baseline updated (8 runs)
ok 3 - alu:imul_dep baseline updated (8 runs)" "$out"
	expect_no_match "[$sh] --update-baseline: no compare" "^cyclestat compare" "$(cat "$c/log")"
	unloaded "--update-baseline"

	new_case no-headers
	KDIR=$c/no-such-kdir
	export KDIR
	ci --baseline "$tmp/baseline"
	expect_eq "[$sh] no kernel headers: exit 2" 2 "$rc"
	expect_match "[$sh] no kernel headers: names the package" "apt-get install linux-headers-$(uname -r)" "$err"

	new_case build-fails
	mkdir -p "$c/kdir"
	KDIR=$c/kdir FAKE_MAKE_RC=2
	export KDIR FAKE_MAKE_RC
	ci --baseline "$tmp/baseline"
	expect_eq "[$sh] build failing: exit 2, nothing loaded" "2 0" "$rc $(grep -c '^insmod' "$c/log" || true)"
	expect_match "[$sh] the build is kbuild's M= build of the repo" "^make -C $c/kdir M=$top modules$" "$(cat "$c/log")"

	new_case no-build
	ci --no-build --baseline "$tmp/baseline"
	if [ -f "$top/cyclebench.ko" ]; then
		expect_match "[$sh] --no-build loads the repo's cyclebench.ko" "^insmod $top/cyclebench.ko " "$(cat "$c/log")"
	else
		expect_match "[$sh] --no-build without a built module says how to build it" "no module at $top/cyclebench.ko" "$err"
	fi
	expect_no_match "[$sh] --no-build does not build" "^make" "$(cat "$c/log")"

	new_case no-cyclestat
	ci --ko "$ko" --baseline "$tmp/baseline" --cyclestat "$c/nope"
	expect_eq "[$sh] no cyclestat: exit 2" 2 "$rc"
	expect_match "[$sh] no cyclestat: says how to build it" "make -C .*userspace" "$err"

	new_case no-debugfs
	FAKE_NO_DEBUGFS=1 ci --ko "$ko" --baseline "$tmp/baseline"
	expect_eq "[$sh] no debugfs run file after insmod: exit 2" 2 "$rc"
	expect_match "[$sh] no debugfs: says how to mount it" "mount -t debugfs none /sys/kernel/debug" "$err"
	unloaded "no debugfs"

	for bad in "--frobnicate" "--params foo" "--params run_on_load=1" "--threshold five" \
		"--alpha" "--fragments a;b" "--runs 0" "--runs x"; do
		new_case usage
		# shellcheck disable=SC2086
		ci $bad
		expect_eq "[$sh] usage error '$bad': exit 2, nothing loaded" "2 0" \
			"$rc $(grep -c '^insmod' "$c/log" || true)"
	done
	new_case help
	ci --help
	expect_eq "[$sh] --help: exit 0" 0 "$rc"
	for o in --strict --ko --no-build --cyclestat --fragments --params --baseline \
		--update-baseline --threshold --alpha --out --debugfs --prepare-host --runs \
		--allow-missing; do
		expect_match "[$sh] --help documents $o" "^  $o( |$)" "$out"
	done

	new_case stdout-is-tap
	FAKE_COMPARE_JSON=$tmp/slower.json FAKE_COMPARE_RC=1 FAKE_DOCTOR_BAD=1 ci --ko "$ko" --baseline "$tmp/baseline"
	expect_eq "[$sh] stdout is only TAP, even with doctor problems" "" \
		"$(printf '%s\n' "$out" | grep -Ev '^(1\.\.[0-9]+|(not )?ok [0-9]+ - .*|#.*|Bail out!.*)$' || true)"
done

# The same script with the real cyclestat (userspace/cyclestat/cyclestat, when built):
# the QEMU proof in miniature. Against a baseline from the same data it
# passes; against one doctored 30% faster for alu:imul_dep it fails and
# names exactly that fragment; a fragment gone from this run fails it unless
# --allow-missing.
# python3, where there is one, checks that the JSON artifacts parse.
json_ok() {
	python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$1"
}
real=${CB_CYCLESTAT:-$top/userspace/cyclestat/cyclestat}
# A private copy: userspace/cyclestat/ may be rebuilt while this runs.
[ ! -x "$real" ] || cp "$real" "$tmp/cyclestat.real"
real=$tmp/cyclestat.real
for sh in $(test_shells); do
	if [ ! -x "$real" ]; then
		skip "[$sh] with the real cyclestat (not built: make -C userspace/cyclestat)"
		continue
	fi
	new_case real-update
	CYCLESTAT_SYSROOT=$c/root
	export CYCLESTAT_SYSROOT
	ci --ko "$ko" --cyclestat "$real" --baseline "$c/baseline" --update-baseline
	expect_eq "[$sh] real cyclestat: --update-baseline exits 0" 0 "$rc"
	[ "$rc" = 0 ] || printf '%s\n' "$err" | tail -n 5 | sed 's/^/# /'
	base=$c/baseline

	new_case real-same
	ci --ko "$ko" --cyclestat "$real" --baseline "$base"
	expect_eq "[$sh] real cyclestat: the same build against its own baseline passes" \
		"0 1..3
ok 1 - base:empty same (+0.0% [+0.0%, +0.0%], p=1, n=8/8, sees 2.0%)
ok 2 - alu:add_dep same (+0.0% [+0.0%, +0.0%], p=1, n=8/8, sees 2.0%)
ok 3 - alu:imul_dep same (+0.0% [+0.0%, +0.0%], p=1, n=8/8, sees 2.0%)" "$rc $out"
	[ "$rc" = 0 ] || printf '%s\n' "$err" | tail -n 5 | sed 's/^/# /'
	for j in results.json gbench.json compare.json; do
		if ! command -v python3 >/dev/null; then
			skip "[$sh] real cyclestat: $j is JSON (no python3 to read it)"
		elif json_ok "$c/out/$j"; then
			expect_match "[$sh] real cyclestat: $j is JSON with fragments in it" "alu:imul_dep" "$(cat "$c/out/$j")"
		else
			fail "[$sh] real cyclestat: $j is JSON: expected it to parse, got: $(head -c 200 "$c/out/$j")"
		fi
	done

	new_case real-doctored
	doctored=$c/doctored
	cp -R "$base" "$doctored"
	for r in "$base"/run-*; do
		awk '{ printf "%d\n", $1 * 0.7 + 0.5 }' "$r/alu/imul_dep/cycles" \
			>"$doctored/${r##*/}/alu/imul_dep/cycles"
	done
	ci --ko "$ko" --cyclestat "$real" --baseline "$doctored" --threshold 5 --alpha 0.01
	expect_eq "[$sh] real cyclestat: a baseline 30% faster for one fragment fails (exit 1)" 1 "$rc"
	expect_eq "[$sh] real cyclestat: ... and exactly that fragment is not ok" \
		"not ok 3 - alu:imul_dep slower" \
		"$(printf '%s\n' "$out" | grep '^not ok' | sed 's/ (.*//')"
	unloaded "real cyclestat, doctored baseline"

	# a fragment of the baseline that this run lacks: not ok, unless allowed
	new_case real-missing
	gone=$c/gone
	cp -R "$base" "$gone"
	for r in "$gone"/run-*; do
		cp -R "$r/alu/imul_dep" "$r/alu/gone"
		sed 's/^name: .*/name: alu:gone/' "$r/alu/imul_dep/info" >"$r/alu/gone/info"
		echo "alu:gone 4 gone from this run" >>"$r/fragments"
	done
	ci --ko "$ko" --cyclestat "$real" --baseline "$gone"
	expect_eq "[$sh] real cyclestat: a fragment missing from this run fails (exit 1), named" \
		"1 not ok 4 - alu:gone missing (in the baseline, not in this run)" \
		"$rc $(printf '%s\n' "$out" | grep '^not ok')"
	ci --ko "$ko" --cyclestat "$real" --baseline "$gone" --allow-missing
	expect_eq "[$sh] real cyclestat: ... with --allow-missing it passes, and says why" \
		"0 ok 4 - alu:gone missing (in the baseline, not in this run; allowed by --allow-missing)" \
		"$rc $(printf '%s\n' "$out" | grep '^ok 4 ')"

	# The QEMU guest script, run here on the fake machine.
	new_case guest-script
	res=$(CB_GUEST_INTERRUPT=0 CB_CI=$ci CB_KO=$ko CB_OUT=$c/out CB_CYCLESTAT=$real CB_FRAGMENTS=all \
		PATH=$stubs:$PATH run_sh "$sh" "$top/tests/host/ci-gate-guest.sh" 2>&1) && rc=0 || rc=$?
	expect_eq "[$sh] ci-gate-guest.sh passes on a fake machine: exit 0, no not ok" "0 0" \
		"$rc $(grep -c '^not ok' "$c/out/results.txt" 2>/dev/null || true)"
	[ "$rc" = 0 ] || printf '%s\n' "$res" | grep -v '^ok' | head -n 8 | sed 's/^/# /'
	expect_eq "[$sh] ci-gate-guest.sh: twelve checks" 12 "$(grep -c '^ok' "$c/out/results.txt" 2>/dev/null)"
	unset CYCLESTAT_SYSROOT
done

summary

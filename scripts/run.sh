#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# 'make run': measure every fragment and print cyclestat's short table
# (cyclestat --brief: per-op cost, interval, median, far outliers); the
# full summary is 'userspace/cyclestat/cyclestat build/results'.
#
# Natively when this host can load modules and we are root: build against
# the running kernel, insmod, save the results, rmmod (also on failure or
# Ctrl-C).  Otherwise in QEMU on Debian's cloud kernel, with KVM when
# /dev/kvm is usable, else plain emulation - and then the figures are
# emulated TSC ticks, which the output says above the table.
#
#   PARAMS="samples=10000 ensembles=10 method=lfence" make run
#   CB_QEMU=1 make run        force the QEMU path
#   MEM=1 make run            in QEMU, under -icount: also loads, stores and
#                             cache misses per op, exact, from the TCG plugin
#                             (docs/memcount.md); CACHE=l1d=32K:8:64,l1i=...,l2=...
#                             names the model (default: this host's caches)
#   KERNEL=6.12 make run      in QEMU on that kernel series (6.1, 6.12,
#                             6.12-rt, 6.1-debug; scripts/deps.sh --kernel K)
#   scripts/run.sh -q         no progress lines (make -s run; also CI=true)
#
# While it works it says where it is, on stderr, kselftest- and
# perf-bench-like: a line a step, and in QEMU one at each tenth of the
# samples taken ("run: [  42 s]  31% of 700000 samples, about 90 s left
# (now alu:add_dep)"); from userspace the runner's bar where stderr is a
# terminal, else a line every 30 s.
#
# Results are kept in build/results (a 'cyclestat save' directory).  On
# the QEMU path it then also runs cyclebench-user natively (the portable
# fragments on this host's real CPU, from userspace, interrupts on) into
# build/results-user; CB_USER=0 skips that.
. "$(dirname "$0")/help.sh"
. "$(dirname "$0")/console.sh"
# shellcheck disable=SC2034 # side.sh names us in its messages
side_who=run
. "$(dirname "$0")/side.sh"
# shellcheck disable=SC2034 # memcount.sh names us in its messages
mem_who=run
# shellcheck source=scripts/memcount.sh
. "$(dirname "$0")/memcount.sh"
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
PARAMS=${PARAMS:-}
MEM=${MEM:-0}
KERNEL=${KERNEL:-}
quiet=0
case ${1:-} in
-q|--quiet) quiet=1 ;;
'') ;;
*) echo "run: unknown argument '$1' (-q, or none; PARAMS=, CB_QEMU=, CB_USER= choose what runs)" >&2; exit 2 ;;
esac
[ "${CI:-}" = true ] && quiet=1
# the selection only= names (all: every fragment)
sel=all
# shellcheck disable=SC2086 # PARAMS is a list of key=value words
for w in $PARAMS; do
	case $w in only=*) sel=${w#only=} ;; esac
done

# say WORDS: a progress line on stderr, with the seconds since the start
say() {
	[ "$quiet" = 1 ] || printf 'run: [%4d s] %s\n' "$SECONDS" "$*" >&2
}
results=$top/build/results
CB_CACHE=${CB_CACHE:-/var/cache/cyclebench}

# make, showing its output only when it fails (kbuild's "Skipping BTF
# generation" note is no news to someone who wants figures)
quiet_make() {
	mkdir -p "$top/build"
	if ! make -s "$@" > "$top/build/make.log" 2>&1; then
		cat "$top/build/make.log" >&2
		exit 1
	fi
}

# PARAMS are module parameters: a word whose key the module does not know
# (a typo: sample=100) is refused here, before anything is loaded or
# booted, where insmod would ignore it with a line in dmesg.
check_params() {
	local known w
	# (the tests' fault-injection hooks, fault_*, last)
	known=$(modinfo -F parm "$1" | sed 's/:.*//' | awk '/^fault_/ { f = f $0 " "; next }
		{ printf "%s ", $0 } END { printf "%s", f }')
	# shellcheck disable=SC2086 # PARAMS is a list of key=value words
	for w in $PARAMS; do
		case " $known " in
		*" ${w%%=*} "*) ;;
		*) echo "run: PARAMS: unknown parameter '${w%%=*}' (the module's: ${known% })" >&2
		   exit 2 ;;
		esac
	done
}

# only= names fragments the module holds: a mistyped name is refused here,
# with the closest names, before anything is loaded or booted.
check_selection() {
	local w
	# shellcheck disable=SC2086 # PARAMS is a list of key=value words
	for w in $PARAMS; do
		case $w in
		only=*) scripts/fragments.sh "$1" "${w#only=}" 2>&1 |
				sed 's/^/run: PARAMS: only=: /' >&2
			[ "${PIPESTATUS[0]}" = 0 ] || exit 2 ;;
		esac
	done
}

# The module's own words on a refused load or run, from a kernel log.
kernel_says() {
	grep -E '(^|\] )cyclebench: ' "$1" | grep -v -e 'taints kernel' -e 'tainting kernel' |
		sed 's/^\[[^]]*\] //' | awk '!seen[$0]++' | head -n 10 >&2
}

case $MEM in
0 | 1) ;;
*) echo "run: MEM=$MEM: want 1 (loads, stores and cache misses per op, in QEMU) or 0" >&2; exit 2 ;;
esac

native_ok() {
	local why
	[ "${CB_QEMU:-0}" = 1 ] && return 1
	if [ "$MEM" = 1 ]; then
		echo "run: MEM=1 counts in QEMU's emulator (a TCG plugin); using QEMU" >&2
		return 1
	fi
	if [ -n "$KERNEL" ]; then
		echo "run: KERNEL=$KERNEL names a kernel to boot in QEMU; using QEMU" >&2
		return 1
	fi
	why=$(side_native_why_not)
	[ -z "$why" ] || { echo "run: $why; using QEMU" >&2; return 1; }
}

if native_ok; then
	say "building the module against $(uname -r)"
	quiet_make KDIR="/lib/modules/$(uname -r)/build" all
	check_params cyclebench.ko
	check_selection cyclebench.ko
	if ! side_refuse_loaded; then
		echo "run: cyclebench is already loaded; unload it first: sudo rmmod cyclebench" >&2
		exit 2
	fi
	trap side_cleanup EXIT
	trap 'exit 130' INT
	trap 'exit 143' TERM
	say "measuring only=$sel (insmod returns when the run has ended)"
	# shellcheck disable=SC2086 # PARAMS is a list of key=value words
	if ! side_load ./cyclebench.ko $PARAMS; then
		dmesg | tail -n 50 > "$top/build/dmesg-insmod.txt" 2>/dev/null
		kernel_says "$top/build/dmesg-insmod.txt"
		exit 1
	fi
	rm -rf "$results"
	userspace/cyclestat/cyclestat -q save "$results"
	side_unload
	trap - EXIT INT TERM
	echo "Hardware TSC cycles measured on $(uname -n), kernel $(uname -r)."
	exec userspace/cyclestat/cyclestat --brief "$results"
fi

# This host's kernel loads no module, but its CPU is real: the portable
# fragments (the portable groups of kmod/fragments/groups.mk) measure it
# from userspace with cyclebench-user, mem:chase's size sweep included.
# PARAMS words it knows are passed on (only= becomes the selection);
# CB_USER=0 skips it.  Results in build/results-user.  It runs even when
# the QEMU run failed: the host's figures do not depend on the guest.
user_run() {
	local usel="all,mem:chase" w rc item groups mine='' theirs=''
	local -a keys=() q=(-q)
	[ "${CB_USER:-1}" = 0 ] && return 0
	# shellcheck disable=SC2086 # PARAMS is a list of key=value words
	for w in $PARAMS; do
		case $w in
		samples=* | ensembles=* | warmup=* | method=* | cpu=*) keys+=("$w") ;;
		esac
	done
	say "building cyclebench-user"
	quiet_make -C userspace/runner cyclebench-user
	# the items of only= whose group is portable; the others need the module
	if [ "$sel" != all ]; then
		groups=$(userspace/runner/cyclebench-user --list | sed -n 's/^\([a-z0-9_]*\):.*/\1/p' | sort -u)
		for item in ${sel//,/ }; do
			if [ "$item" = all ] || grep -qx "${item%%:*}" <<< "$groups"; then
				mine=${mine:+$mine,}$item
			else
				theirs=${theirs:+$theirs,}$item
			fi
		done
		if [ -z "$mine" ]; then
			echo
			echo "(no userspace section: only=$sel names kernel-only fragments, which need the module)"
			return 0
		fi
		usel=$mine
	fi
	echo
	echo "REAL CPU, USERSPACE, INTERRUPTS ON: cyclebench-user on this host ($(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1))."
	echo "Real TSC ticks of this CPU; per-op figures in core cycles, calibrated by"
	echo "calib:add_chain. Interrupts stay on: the medians and minimums carry them."
	if [ -n "$theirs" ]; then
		# once: what the selection measured where
		echo "only=$sel: $usel measured here as well; $theirs in the module only (kernel-only groups)."
	fi
	echo
	rc=0
	say "measuring $usel on this CPU from userspace (cyclebench-user)"
	# the runner's own progress bar where stderr is a terminal
	if [ "$quiet" = 0 ] && [ -t 2 ]; then q=(); fi
	# interleaved: calib:add_chain sees the core clocks every result saw;
	# where stderr is no terminal (no bar), a line every 30 s
	local tk=''
	if [ "$quiet" = 0 ] && [ ! -t 2 ]; then
		( while sleep 30 > /dev/null 2>&1; do say "still measuring on this CPU from userspace"; done ) &
		tk=$!
	fi
	userspace/runner/cyclebench-user "${q[@]}" --force -o "$top/build/results-user" "$usel" interleave=1 \
		"${keys[@]}" || rc=$?
	[ -z "$tk" ] || kill "$tk" 2> /dev/null || true
	case $rc in
	0) userspace/cyclestat/cyclestat --brief "$top/build/results-user" ;;
	2) echo "run: cyclebench-user refused PARAMS (above): no userspace figures" >&2 ;;
	*) echo "run: cyclebench-user failed: no userspace figures" >&2; return 1 ;;
	esac
	if [ $rc = 0 ]; then
		user_plots
	fi
}

# in_sel GROUP: whether the selection measures GROUP (all of it or a part)
in_sel() {
	local item
	[ "$sel" = all ] && return 0
	for item in ${sel//,/ }; do
		case $item in all | "$1" | "$1":*) return 0 ;; esac
	done
	return 1
}

# The curves drawn (cyclestat plot), each only where the selection
# measured it: the memory staircase from the run above (mem:chase's sweep);
# where this host has two CPUs, the contention curve (contend on CPU 0
# alone, then on CPUs 0 and 1 at once: sweep=cpus) when the selection
# holds contend, and the core-to-core matrix on a run of everything.  The
# plots of an earlier run go: build/plots shows this run's.
user_plots() {
	local p=$top/build/plots u=userspace/runner/cyclebench-user
	mkdir -p "$p"
	rm -f "$p"/*.svg
	if [ -d "$top/build/results-user/mem/chase" ]; then
		userspace/cyclestat/cyclestat -q -o "$p/staircase.svg" plot "$top/build/results-user" 'mem:chase' ||
			rm -f "$p/staircase.svg"
	fi
	if [ "$(getconf _NPROCESSORS_ONLN)" -ge 2 ]; then
		if in_sel contend; then
			say "contend on CPU 0, then on CPUs 0 and 1 at once, for the contention plot"
			$u -q --force -o "$top/build/results-contend" contend cpus=0-1 sweep=cpus &&
				userspace/cyclestat/cyclestat -q -o "$p/contention.svg" plot "$top/build/results-contend" contend
		fi
		if [ "$sel" = all ]; then
			say "core to core: a cache line's round trips between CPUs 0 and 1"
			$u -q --force -o "$top/build/results-c2c" --c2c cpus=0-1 > /dev/null &&
				userspace/cyclestat/cyclestat -q -o "$p/c2c.svg" plot "$top/build/results-c2c"
		fi
	fi
	if ls "$p"/*.svg > /dev/null 2>&1; then
		echo
		echo "plots (open in a browser): $(cd "$p" && ls ./*.svg | sed "s,^\./,$p/," | tr '\n' ' ')"
	fi
}

# watch_guest LOG PID: until PID (the boot) ends, the progress lines of
# the guest's console (guest-run.sh's): the share of the run's samples
# taken, at each tenth and at least every 30 s, with the fragment then
# measured (the run goes ensemble by ensemble across them all) and, once
# it has a rate, about how long is left
watch_guest() {
	local next=0 last=$SECONDS t0='' d0=0
	cb_follow "$1" "$2" run_progress
}
# run_progress started | done | NAME DONE/TOTAL: one line of the console
run_progress() {
	local name d t p left
	case $1 in
	started) say "the guest has booted; loading the module" ;;
	done) say "measured; saving the results in the guest" ;;
	*)
		name=$1 d=${2%/*} t=${2#*/}
		p=$((t > 0 ? d * 100 / t : 0))
		[ -n "$t0" ] || t0=$SECONDS d0=$d
		if [ "$p" -ge "$next" ] || [ $((SECONDS - last)) -ge 30 ]; then
			next=$((p / 10 * 10 + 10)) last=$SECONDS left=''
			if [ $((SECONDS - t0)) -ge 5 ] && [ "$d" -gt "$d0" ]; then
				left=", about $(((SECONDS - t0) * (t - d) / (d - d0))) s left"
			fi
			say "$(printf '%3d%%' "$p") of $t samples$left (now $name)"
		fi
		;;
	esac
}

# the kernel to boot: KERNEL's series (qemu-run.sh finds its image, and
# kdir.sh its headers), else the default, 6.1's cloud kernel by its ABI
if [ -n "$KERNEL" ]; then
	kdir=$(scripts/kdir.sh --kernel "$KERNEL") || exit 2
	abi=$KERNEL
else
	abi=$(cat "$CB_CACHE/abi")
	kdir=/usr/src/linux-headers-$abi-cloud-amd64
fi
say "building the module against Debian's $abi kernel, and cyclestat"
quiet_make KDIR="$kdir" all cyclestat-static
check_params cyclebench.ko
check_selection cyclebench.ko
run=$top/build/run
rm -rf "$run"
mkdir -p "$run"
# the boot's qemu-run.sh options: more memory for a debug kernel (its
# KASAN shadow takes an eighth of the guest's); under MEM=1 the TCG
# plugin and its guest side, the module's regions, the model (CACHE=,
# else this host's caches from sysfs, else the plugin's own), and each
# ensemble's warm-up runs left out as the module leaves them out (skip=)
boot_opt=()
case $KERNEL in *-debug) boot_opt=(--mem 1024) ;; esac
if [ "$MEM" = 1 ]; then
	say "building cbcount.so, the TCG plugin that counts loads, stores and cache misses"
	mem_setup
	mem_regions cyclebench.ko "$run/regions.txt"
	mem_opts "$run/counts.txt" "$(mem_warmup cyclebench.ko "$PARAMS")" "$run/regions.txt"
	boot_opt+=("${mem_opt[@]}")
fi
# boot ACCEL [qemu-run.sh options]: the run; its console goes to
# build/run/console.log (console-kvm.log under KVM), and its progress
# lines from there to stderr
boot() {
	local a=$1 log=$run/console.log watch=watch_guest
	shift
	[ "$a" = tcg ] || log=$run/console-$a.log
	[ "$quiet" = 0 ] || watch=''
	say "booting Debian's $abi kernel in QEMU ($a) to measure only=$sel"
	# shellcheck disable=SC2086 # PARAMS is a list of key=value words
	cb_boot run "$watch" "$log" scripts/qemu-run.sh --quiet --kernel "$abi" --accel "$a" "${boot_opt[@]}" "$@" --out "$run" \
		scripts/guest-run.sh $PARAMS
}
# KVM when /dev/kvm is usable, but a nested one (a cloud VM's /dev/kvm)
# often cannot boot Debian's kernel: QEMU aborts on "failed to set MSR
# 0x10a", or stops at an emulation failure and sits until its timeout.  So
# first a probe: the kernel boots under KVM and powers off, or 60 s pass.
# CB_KVM_DEV (default /dev/kvm) lets the tests play such a host.
kvm_dev=${CB_KVM_DEV:-/dev/kvm}
kvm_unusable() {
	echo "run: $kvm_dev is here but cannot boot Debian's kernel (nested virtualisation?); using TCG, plain emulation (KVM's console: build/run/console-kvm.log)" >&2
}
accel=tcg
# (MEM=1: a TCG plugin, so TCG)
if [ "$MEM" = 0 ] && [ -r "$kvm_dev" ] && [ -w "$kvm_dev" ]; then
	say "probing KVM: does Debian's kernel boot under it? (at most 60 s)"
	if scripts/qemu-run.sh --quiet --kernel "$abi" --accel kvm --timeout 60 --out "$run/kvm-probe" \
		/dev/null 2> /dev/null; then
		accel=kvm
	else
		kvm_unusable
	fi
	mv "$run/kvm-probe/console-kvm.log" "$run/console-kvm.log" 2>/dev/null || true
	rm -rf "$run/kvm-probe"
fi
if [ $accel = kvm ] && ! boot kvm --timeout 300 2> /dev/null; then
	# the probe booted, the run did not: keep its console, use TCG
	kvm_unusable
	accel=tcg
fi
# (TCG slows down with the host's load: the bound stops a hang, not a slow
# run beside another job)
if [ $accel = tcg ]; then boot tcg --timeout 900 || true; fi
if [ ! -e "$top/build/run/rc" ]; then
	# (qemu-run.sh has said why: the crash the console shows, the fragment
	# it killed the guest in, or that nothing came back)
	user_run || true
	exit 1
fi
if [ "$(cat "$top/build/run/rc")" != 0 ]; then
	cat "$top/build/run/log.txt" >&2
	kernel_says "$top/build/run/dmesg.txt"
	echo "run: the run in QEMU failed; its kernel log is in build/run/dmesg.txt" >&2
	user_run || true
	exit 1
fi
rm -rf "$results"
cp -r "$top/build/run/results" "$results"
# a fragment that stopped alone (a body over max_sample_us) fails no run,
# as at load: the module's words on it, once
stopped=$(grep -E '(^|\] )cyclebench: [a-z0-9_]+:[^ ]+: ' "$top/build/run/dmesg.txt" 2> /dev/null |
	sed 's/^\[[^]]*\] //' | awk '!seen[$0]++' | head -n 10) || true
if [ -n "$stopped" ]; then
	printf '%s\n' "$stopped" "run: the fragments above stopped alone, left out of the table (their state says failed); the others' results stand" >&2
fi
say "done in QEMU: $(grep -rlx --include=info 'state: ok' "$results" | wc -l) results in build/results"
if [ $accel = kvm ]; then
	echo "Measured in a KVM guest (Debian $abi kernel): real TSC cycles, but CPUID"
	echo "is a VM exit there; PARAMS=method=lfence avoids it."
elif [ "$MEM" = 1 ]; then
	echo "ICOUNT: QEMU with -icount shift=0 (MEM=1). A TSC tick is one instruction,"
	echo "the same in every run: per-op figures are exact instruction counts."
else
	echo "EMULATED: QEMU without KVM. These are emulated TSC ticks that follow host"
	echo "time, not the cycles of any CPU: compare fragments with each other only."
	echo "For cycle figures run 'sudo make run' on a machine that can load modules."
fi
echo
# MEM=1: the plugin's sums into the tree, a memory file a result, for
# cyclestat's MEMORY table (and the saved tree's)
if [ "$MEM" = 1 ]; then
	python3 userspace/qemu-plugin/perop.py --save "$results" --source "$mem_from" \
		"$run/counts.txt" || exit
fi
userspace/cyclestat/cyclestat --brief "$results" || exit
user_run

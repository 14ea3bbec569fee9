#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Boot Debian's cloud kernel under QEMU with cyclebench.ko, cyclestat and a
# guest script in an initramfs, and bring the guest's /out back to the host.
# This is how cyclebench is tested (and run, by 'make run') on a machine
# that cannot load modules.
#
#   scripts/qemu-run.sh --out DIR [options] GUEST_SCRIPT [ARG...]
#
# The guest script runs as root under busybox sh with debugfs mounted, the
# module at /cyclebench.ko, cyclestat in PATH, scripts/console.sh and
# scripts/side.sh (the module's load and unload) at /, and writes whatever it wants
# the host to see under /out.  After it ends, /init adds /out/rc (its exit
# status), /out/dmesg.txt and /out/tainted, and sends /out back as a tar
# stream over the second serial port.  The console goes to DIR/console.log
# (DIR/console-kvm.log under --accel kvm, so a KVM try and a TCG retry into
# the same DIR keep both), QEMU's own messages and any crash of it included.
#
# Options:
#   --icount        exact counts: -icount shift=0, one CPU (the guest TSC
#                   then advances one tick per guest instruction)
#   --cpu MODEL     QEMU CPU model (default max; qemu64 has no RDTSCP)
#   --smp N         guest CPUs (default 2, or 1 with --icount; --icount on
#                   6.1 forces 1: it hangs bringing up a second CPU there)
#   --mem MB        guest memory (default 512)
#   --timeout S     wall-clock limit for the whole boot (default 600)
#   --boot-timeout S  the kernel must reach /init within S s (default
#                   300, some ten times the slowest boot seen, the debug
#                   kernel's beside another guest): a kernel that hangs
#                   while booting counts as one that died there (exit 3)
#   --ko FILE       the module (default ./cyclebench.ko)
#   --cyclestat F   a static cyclestat (default userspace/cyclestat/cyclestat.static)
#   --add FILE      copy FILE into the guest's / (repeatable)
#   --kernel K      the kernel: a series deps.sh set up (6.1, 6.12,
#                   6.12-rt), a directory under $CB_CACHE (6.12.117+deb12,
#                   6.12.117+deb12-rt), or the path of an image of your own
#                   (a bzImage; the module must be built against its tree);
#                   default: the 6.1 one (scripts/deps.sh --kernel K
#                   fetches others)
#   --accel A       tcg (default) or kvm
#   --monitor P     QEMU's monitor on the FIFOs P.in and P.out (the caller
#                   makes them; tests/e2e/run.sh nmi writes "nmi" there)
#   --append ARGS   more kernel command-line words (make ab's CMDLINE_A/B)
#   --plugin SPEC   a TCG plugin, QEMU's -plugin SPEC (FILE.so,ARG=...):
#                   userspace/qemu-plugin/cbcount.so counts inside the
#                   timed regions (tests/e2e/run.sh memcount)
#   --quiet         do not echo the guest console
#
# Exit status: 0 when results came back (whatever they say), 1 when none
# did (look at the console log), 2 on a usage error, 3 when the kernel
# died or hung while booting, before /init ran (nothing of the test had
# started: no module loaded; worth one more boot).  QEMU's own status means
# nothing: it is 0 after a panic too.
set -euo pipefail

CB_CACHE=${CB_CACHE:-/var/cache/cyclebench}
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/console.sh"

out= append= icount=0 cpu=max smp='' mem=512 timeout=600 boot_timeout=300 accel=tcg quiet=0 monitor= plugin=
ko=$top/cyclebench.ko
cyclestat=$top/userspace/cyclestat/cyclestat.static
abi=
adds=()

# usage [WHY]: the header comment; to stdout (exit 0) when asked for,
# to stderr (exit 2) after a mistake
usage() {
	if [ -z "${1:-}" ]; then
		sed -n '3,/^set -euo/p' "$0" | sed -e '/^set -euo/d' -e 's/^# \{0,1\}//'
		exit 0
	fi
	echo "qemu-run.sh: $1" >&2
	sed -n '3,/^set -euo/p' "$0" | sed -e '/^set -euo/d' -e 's/^# \{0,1\}//' >&2
	exit 2
}

while [ $# -gt 0 ]; do
	case $1 in
	--out) out=$2; shift 2 ;;
	--icount) icount=1; shift ;;
	--cpu) cpu=$2; shift 2 ;;
	--smp) smp=$2; shift 2 ;;
	--mem) mem=$2; shift 2 ;;
	--timeout) timeout=$2; shift 2 ;;
	--boot-timeout) boot_timeout=$2; shift 2 ;;
	--ko) ko=$2; shift 2 ;;
	--cyclestat) cyclestat=$2; shift 2 ;;
	--add) adds+=("$2"); shift 2 ;;
	--kernel) abi=$2; shift 2 ;;
	--accel) accel=$2; shift 2 ;;
	--monitor) monitor=$2; shift 2 ;;
	--append) append=$2; shift 2 ;;
	--plugin) plugin=$2; shift 2 ;;
	--quiet) quiet=1; shift ;;
	-h|--help) usage ;;
	--) shift; break ;;
	-*) usage "unknown option '$1'" ;;
	*) break ;;
	esac
done
[ $# -ge 1 ] || usage "no guest script given"
[ -n "$out" ] || usage "--out DIR is required"
script=$1
shift

[ -n "$abi" ] || abi=$(cat "$CB_CACHE/abi" 2>/dev/null || true)
# a series (6.12) names the ABI deps.sh recorded for it
if [ -n "$abi" ] && [ -r "$CB_CACHE/kernel-$abi" ]; then
	abi=$(cat "$CB_CACHE/kernel-$abi")
fi
kernel=$CB_CACHE/$abi/vmlinuz
# a path: an image of the user's own
case $abi in */*) kernel=$abi abi=own ;; esac
for f in "$script" "$ko" /bin/busybox; do
	[ -r "$f" ] || { echo "qemu-run.sh: missing $f; try: make (and sudo scripts/deps.sh)" >&2; exit 2; }
done
if [ "$abi" = own ] && [ ! -r "$kernel" ]; then
	echo "qemu-run.sh: cannot read the kernel image $kernel; give the path of a bzImage (arch/x86/boot/bzImage in its build tree)" >&2
	exit 2
fi
if [ -z "$abi" ] || [ ! -r "$kernel" ]; then
	echo "qemu-run.sh: no kernel image ${abi:+for $abi }under $CB_CACHE; try: sudo scripts/deps.sh --kernel SERIES (6.1, 6.12, 6.12-rt)" >&2
	exit 2
fi
if [ $icount = 1 ]; then
	case $abi in
	6.1.*|own) smp=1 ;;	# 6.1 hangs bringing up a second CPU under icount
	*) smp=${smp:-1} ;;
	esac
fi
smp=${smp:-2}

mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
root=$work/root
mkdir -p "$root"/{bin,sbin,proc,sys,dev,tmp,out,etc}
cp /bin/busybox "$root/bin/busybox"
cp "$ko" "$root/cyclebench.ko"
if [ -r "$cyclestat" ]; then
	cp "$cyclestat" "$root/bin/cyclestat"
else
	echo "qemu-run.sh: no $cyclestat; the guest has no cyclestat (make -C userspace/cyclestat static)" >&2
fi
cp "$script" "$root/test.sh"
cp "$top/tests/e2e/lib.sh" "$root/lib.sh"
cp "$top/tests/e2e/splat.sh" "$root/splat.sh"
cp "$top/tests/tap/tap.sh" "$root/tap.sh"
cp "$top/scripts/console.sh" "$root/console.sh"
cp "$top/scripts/side.sh" "$root/side.sh"
[ -x "$top/build/cbpoke" ] && cp "$top/build/cbpoke" "$root/bin/cbpoke"
for f in "${adds[@]}"; do
	cp -r "$f" "$root/"
done
: > "$root/args"
[ $# -gt 0 ] && printf '%s\n' "$@" > "$root/args"
echo "root:x:0:0:root:/root:/bin/sh" > "$root/etc/passwd"
echo "root:x:0:" > "$root/etc/group"

# (unquoted: $cb_started, console.sh's, is filled in here, the guest's own
# \$ are escaped)
cat > "$root/init" <<INIT
#!/bin/busybox sh
/bin/busybox --install -s /bin
export PATH=/bin:/sbin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mount -t debugfs debugfs /sys/kernel/debug
echo "$cb_started"
dmesg -n 1
cd /
set --
while read -r a; do set -- "\$@" "\$a"; done < /args
sh /test.sh "\$@" > /out/log.txt 2>&1
echo \$? > /out/rc
cat /out/log.txt
dmesg > /out/dmesg.txt
cat /proc/sys/kernel/tainted > /out/tainted
stty -F /dev/ttyS1 raw -echo
# (gzip's exit is the port's last close, which waits until the UART has
# sent every byte: nothing is lost to the poweroff)
tar -cf - -C /out . | gzip -c > /dev/ttyS1
poweroff -f
INIT
chmod +x "$root/init"
(cd "$root" && find . | cpio -o -H newc --quiet | gzip -1) > "$work/initrd.gz"

# (pty.legacy_count=0: the debug kernel, from tinyconfig, has legacy PTYs,
# 256 pairs made at boot, over a second of each of its boots under TCG)
qemu=(qemu-system-x86_64 -accel "$accel" -cpu "$cpu" -smp "$smp" -m "$mem"
	-nographic -no-reboot -nic none
	-kernel "$kernel" -initrd "$work/initrd.gz"
	-serial mon:stdio -serial "file:$work/out.tar.gz"
	-append "console=ttyS0 panic=-1 oops=panic panic_on_warn=1 quiet pty.legacy_count=0${append:+ $append}")
[ $icount = 1 ] && qemu+=(-icount shift=0)
[ -n "$monitor" ] && qemu+=(-monitor "pipe:$monitor")
[ -n "$plugin" ] && qemu+=(-plugin "$plugin")

log=$out/console.log
[ "$accel" = tcg ] || log=$out/console-$accel.log
rm -f "$log" "$out/rc"
# reached_init: whether the console shows $cb_started (unanchored, \r
# stripped: kernel lines may share the console's line; silent before QEMU
# has made the log)
reached_init() { tr -d '\r' 2>/dev/null < "$log" | grep -q "$cb_started"; }
# The boot's watchdog: no "/init started" on the console within
# boot_timeout seconds, and QEMU (the one whose -initrd is this boot's) is
# stopped.  (Once in some 40 full runs the debug kernel printed nothing
# after SeaBIOS and sat idle until the suite's 1800 s timeout.)
: > "$work/booting"
(
	end=$((SECONDS + boot_timeout))
	while [ -e "$work/booting" ]; do
		if reached_init; then exit 0; fi
		if [ $SECONDS -ge $end ]; then
			: > "$work/boot-hang"
			pkill -f -- "-initrd $work/initrd.gz" || true
			exit 0
		fi
		sleep 1
	done
) &
watchdog=$!
# In a subshell whose stderr is the log: when QEMU dies of a signal (nested
# KVM: an assertion, SIGABRT), timeout dies of it too, and the shell that
# waited reports "Aborted (core dumped) timeout ..." on its stderr.  That
# report belongs with QEMU's own messages, not on the user's terminal.  The
# "|| true" inside keeps the subshell from exec'ing timeout itself: it
# must be the one that waits, and reports, and exits normally.
if [ $quiet = 1 ]; then
	( timeout "$timeout" "${qemu[@]}" < /dev/null > "$log" 2>&1 || true ) 2>> "$log"
else
	( timeout "$timeout" "${qemu[@]}" < /dev/null 2>&1 | tr -d '\r' | tee "$log" || true ) 2>> "$log"
fi
rm -f "$work/booting"
wait "$watchdog" || true
# crash_says: what the console says killed the guest, and in which
# fragment: the kernel's first BUG/WARNING/panic line, and the fragment whose
# sampler (cb_sample_NAME) or region (cb_short_M_NAME, cb_long_M_NAME) is in
# the trace, named group:name from the sources.  Fails when the console
# names nothing.
crash_says() {
	local why body frag src
	# (|| true: under pipefail, grep -m1 closing the pipe early is no error)
	why=$(tr -d '\r' < "$log" | grep -m1 -oE '(BUG: [^:]*|WARNING: .*|Kernel panic - not syncing: .*|general protection fault.*|kernel NULL pointer.*|BUG: unable to handle .*)' |
		sed 's/[[:space:]]*$//') || true
	body=$(tr -d '\r' < "$log" | grep -m1 -oE 'cb_(sample|short_[lp]n?|long_[lp]n?)_[a-z0-9_]+' |
		sed -E 's/^cb_(sample|short_[lp]n?|long_[lp]n?)_//') || true
	[ -n "$why" ] || return 1
	if [ -n "$body" ]; then
		src=$(grep -lE "^CB_BODY(_STATE)?\($body[,)]" "$top"/kmod/fragments/*.c \
			"$top"/tests/kmod/*.c 2>/dev/null | head -n1) || true
		frag=$(sed -nE 's/^CB_(PORTABLE_)?GROUP\(([a-z0-9_]+),.*/\2/p' "$src" 2>/dev/null |
			head -n1) || true
		echo "qemu-run.sh: fragment ${frag:-?}:$body killed the guest: $why (a body runs with interrupts off: it must not sleep, fault or warn); see $log" >&2
	else
		echo "qemu-run.sh: the guest's kernel died: $why; see $log" >&2
	fi
}

if [ -e "$work/boot-hang" ]; then
	echo "qemu-run.sh: the kernel did not reach /init in $boot_timeout s: it hung while booting (nothing loaded yet); see $log" >&2
	exit 3
fi
if ! tar -xzf "$work/out.tar.gz" -C "$out" 2>/dev/null || [ ! -e "$out/rc" ]; then
	if ! reached_init &&
		grep -q 'Kernel panic' "$log"; then
		echo "qemu-run.sh: the kernel died while booting, before /init ran (nothing loaded yet); see $log" >&2
		exit 3
	fi
	if crash_says; then
		:
	elif grep -q 'terminating on signal 15 .*(timeout)' "$log"; then
		echo "qemu-run.sh: the guest was still running after --timeout $timeout s and was stopped (an emulator slowed by a busy host, or a body that never ends); see $log" >&2
	else
		echo "qemu-run.sh: the guest sent no results back; see $log" >&2
	fi
	exit 1
fi
exit 0

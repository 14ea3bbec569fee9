# SPDX-License-Identifier: GPL-2.0
# A module whose only fragment but base:empty sleeps with interrupts off
# (tests/kmod/sleepy.c).
#
#   sleepy.sh            as the tests boot (panic_on_warn=1): the run kills
#                        the guest; the host names the fragment.
#   sleepy.sh survive    as production kernels run (panic_on_warn=0): the
#                        module stops the run at the first sample, and
#                        cyclestat run names the fragment.
. /lib.sh

if [ "${1:-}" = survive ]; then
	echo 0 > /proc/sys/kernel/panic_on_warn
	echo 7 > /proc/sys/kernel/printk	# the console shows what the kernel says
	expect_ok "insmod run_on_load=0" insmod /cyclebench.ko run_on_load=0
	expect_eq "a sound run first" ok "$(run_write "base:empty samples=100 ensembles=1")"
	out=$(cyclestat run sleepy:msleep_1 samples=10 ensembles=1 warmup=0 references=0 2>&1)
	rc=$?
	echo "$out" > /out/cyclestat-run.txt
	expect_eq "cyclestat run: exit 2" 2 "$rc"
	expect_eq "cyclestat run names the fragment and what it did" 1 \
		"$(echo "$out" | grep -c '^cyclestat: fragment sleepy:msleep_1 slept, turned interrupts on or left preemption disabled in a sample')"
	expect_eq "its info: state failed, error -71 (EPROTO)" "failed -71" \
		"$(info_get $CB/sleepy/msleep_1/info state) $(info_get $CB/sleepy/msleep_1/info error)"
	expect_eq "the log names the fragment and what it did" 1 \
		"$(dmesg | grep -c 'sleepy:msleep_1: the body slept with preemption off: a body must not sleep')"
	expect_eq "the kernel's own report is in the log" yes \
		"$(dmesg | grep -qE 'scheduling while atomic|sleeping function called from invalid context' && echo yes)"
	expect_eq "the run stopped at once: at most 2 such reports" yes \
		"$([ "$(dmesg | grep -cE 'BUG: (scheduling while atomic|sleeping function)')" -le 2 ] && echo yes)"
	expect_eq "a sound body runs after it" ok "$(run_write "base:empty samples=100 ensembles=1")"
	check_unload
	exit 0
fi
expect_ok "insmod run_on_load=0" insmod /cyclebench.ko run_on_load=0
echo "cb-sleepy: running sleepy:msleep_1"
run_write "sleepy samples=10 ensembles=1 warmup=0"
fail "the guest survived a body that sleeps with interrupts off"

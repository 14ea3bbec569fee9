# SPDX-License-Identifier: GPL-2.0
# The probe before a fragment's first sample runs the body as every
# sample does, with interrupts off (tests/kmod/irqs.c counts the runs
# with them on, in the module's parameters): a body that takes a lock a
# hard-interrupt handler takes, or asserts lockdep_assert_irqs_disabled(),
# is safe there too (issue 40, item 3).
. /lib.sh

P=/sys/module/cyclebench/parameters
expect_ok "insmod run_on_load=0" insmod /cyclebench.ko run_on_load=0
expect_eq "run irqs:irqs_off samples=10 ensembles=1 warmup=0" ok \
	"$(run_write "irqs:irqs_off samples=10 ensembles=1 warmup=0")"
r=$(info_get $CB/irqs/irqs_off/info long_repeat)
runs=$(cat $P/test_runs)
# the samples' runs: 10 short regions and 10 long ones of r copies; the
# rest is the probe's, 1 to 3 runs (a retake of an over-long sample adds
# its own, which an idle guest does not need: more than 3 fails here)
probe=$((runs - 10 * (1 + r)))
if [ "$probe" -ge 1 ] && [ "$probe" -le 3 ]; then
	pass "the probe ran the body 1 to 3 times ($probe; $runs runs in all, long_repeat $r)"
else
	fail "the probe ran the body 1 to 3 times: $runs runs in all, long_repeat $r, leaves $probe"
fi
expect_eq "the body never ran with interrupts on, the probe's runs included" 0 \
	"$(cat $P/test_irqs_on)"
expect_eq "a second run: still never" ok \
	"$(run_write "irqs:irqs_off samples=100 ensembles=2")"
expect_eq "the body never ran with interrupts on, after the second run" 0 \
	"$(cat $P/test_irqs_on)"
check_unload

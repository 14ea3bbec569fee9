# SPDX-License-Identifier: GPL-2.0
# gate.sh - the runs behind the regression gate's error rates, measured in
# a TCG guest (issue 12), where the emulated clock follows host time: a
# harsh test bed.  RUNS (default 10) runs of the same selection, each saved
# to /out/runs/rK; the host counts the rates on them with
# userspace/cyclestat/tests/gate-rates.sh and checks the issue's bounds
# (tests/e2e/run.sh gate; on the host, natively: the 200-odd compares are
# slow under TCG), and across boots with CB_GATE_BOOTS (gate-boots.sh).
# /110 (10 % more work) is the A/B within a boot, /150 (50 % more work)
# the one across boots; calib:add_chain makes compare work in the
# emulator's speed (each run's clock divided out), and interleave=1 makes
# calib:add_chain, /100 and /110 see the same clocks within a run.
# Short ensembles (25 samples, 200 of them): TCG's clock switches between
# speeds some 50 % apart every few hundred samples (seen: 250-sample
# ensembles of /100 and /110 side by side differed by x0.73 or x1.6 in a
# third of the pairs of some runs), so the closer two paired ensembles
# are in time, the fewer pairs straddle a switch.
. /lib.sh
# progress on the console as it goes (the log comes back only at the end)
exec > /dev/ttyS0 2>&1

RUNS=${1:-10}
SEL=${2:-"base,calib,loop:dec_jnz args=100,110,150 samples=25 ensembles=200 warmup=10 interleave=1"}
mkdir -p /out/runs

expect_ok "insmod (gate)" insmod /cyclebench.ko run_on_load=0
k=1
good=0
while [ "$k" -le "$RUNS" ]; do
	[ "$(run_write "$SEL")" = ok ] && good=$((good + 1))
	cyclestat --tree "$CB" -q save "/out/runs/r$k"
	k=$((k + 1))
done
expect_eq "gate: $RUNS runs of '$SEL'" "$RUNS" "$good"
expect_eq "gate: loop:dec_jnz/110 has cycles_long" yes \
	"$([ -s /out/runs/r1/loop/dec_jnz/110/cycles_long ] && echo yes || echo no)"
check_unload

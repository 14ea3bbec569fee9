# SPDX-License-Identifier: GPL-2.0
# What disturbed each sample (issue 9): NMIs inside a sample, interrupts
# and context switches since the previous one, TSC_AUX naming another CPU.
#
# The host (tests/e2e/run.sh nmi) injects NMIS NMIs through QEMU's monitor
# once this script says "cb-nmi-ready" on the console, while a long run is
# sampling on cpu 0.  QEMU delivers them through LINT1, which Linux wires
# to NMI on the boot CPU only: cpu 0.  TCG has no other source of NMIs (no
# PMU, so no NMI watchdog), so every NMI cpu 0 counts is one of them, and
# each must be accounted for: inside a kept sample, whose flag says so, or
# elsewhere.  Then the PMU counters' absence: TCG has none, and a run
# that asks for them must go on with the TSC alone and say why.
. /lib.sh

NMIS=${1:-8}
SEL="loop:dec_jnz_1m samples=4000 ensembles=1 warmup=2 cpu=0"
R=$CB/loop/dec_jnz_1m

# nmi_of CPU: NMIs CPU handled; irqs_of CPU: every interrupt it handled
nmi_of() { awk -v f=$(($1 + 2)) '$1 == "NMI:" { print $f }' /proc/interrupts; }
irqs_of() {
	awk -v f=$(($1 + 2)) 'NR > 1 && $1 != "NMI:" && $1 != "ERR:" && $1 != "MIS:" &&
		$f ~ /^[0-9]+$/ { s += $f } END { print s + 0 }' /proc/interrupts
}

expect_ok "insmod" insmod /cyclebench.ko run_on_load=0
n0=$(nmi_of 0)
i0=$(irqs_of 0)
cbpoke write "$CB/run" "$SEL" > /tmp/run.rc &
writer=$!
t=0
until grep -q '^running loop:dec_jnz_1m' "$CB/status" || [ $t -ge 100 ]; do
	sleep 0.1
	t=$((t + 1))
done
echo "cb-nmi-ready" > /dev/ttyS0
t=0
until [ "$(nmi_of 0)" -ge $((n0 + NMIS)) ] || [ $t -ge 600 ]; do
	sleep 0.1
	t=$((t + 1))
done
# All of them landed while the run was sampling: none can hide before
# its first sample or after its last.
expect_eq "the $NMIS NMIs arrived while the run was sampling" running \
	"$(cut -d' ' -f1 "$CB/status")"
wait $writer
expect_eq "run: $SEL" ok "$(cat /tmp/run.rc)"
d=$(($(nmi_of 0) - n0))
di=$(($(irqs_of 0) - i0))
expect_eq "cpu 0 counted exactly the injected NMIs" "$NMIS" "$d"

nin=$(info_get $R/info nmis_in_samples)
nout=$(info_get $R/info nmis_elsewhere)
fn=$(info_get $R/info flagged_nmi)
fi_=$(info_get $R/info flagged_irq)
expect_eq "every NMI accounted for: in samples + elsewhere = cpu 0's count" "$d" "$((nin + nout))"
expect_eq "one flagged sample per NMI inside a sample (they came 500 ms apart)" "$nin" "$fn"
# A sample holds irqs off for ~3 ms of the ~3 ms between samples: most
# NMIs land inside one.  All eight between samples would be a bug.
expect_ge "NMIs inside samples" 1 "$nin"
expect_eq "flags: one line per sample" 4000 "$(lines $R/flags)"
expect_eq "flags with the NMI bit = flagged_nmi" "$fn" \
	"$(awk 'and($1, 1)' $R/flags | wc -l | tr -d ' ')"
expect_eq "flags with the IRQ bit = flagged_irq" "$fi_" \
	"$(awk 'and($1, 2)' $R/flags | wc -l | tr -d ' ')"
# Seconds of sampling on a CPU with a timer tick: some samples follow an
# interrupt; never more of them than cpu 0 handled.
expect_ge "samples flagged 'after an interrupt'" 1 "$fi_"
expect_le "flagged_irq <= interrupts cpu 0 handled" "$di" "$fi_"
# Bit 8 (TSC_AUX naming another CPU) is retired: with interrupts and
# preemption off the thread cannot move, so it could never be set.
expect_eq "no sample has the retired bit 8" 0 "$(awk 'and($1, 8)' $R/flags | wc -l | tr -d ' ')"
expect_eq "info: no tsc_aux, no flagged_cpu" 0 "$(grep -c '^tsc_aux:\|^flagged_cpu:' $R/info)"
expect_eq "flags hold no unknown bit" 0 "$(awk '$1 > 15' $R/flags | wc -l | tr -d ' ')"
expect_eq "cyclestat --undisturbed leaves out exactly the flagged samples" "$fn of 4000" \
	"$(cyclestat --undisturbed loop:dec_jnz_1m | sed -n 's/.*dec_jnz_1m: \([0-9]* of [0-9]*\) samples left out.*/\1/p')"
echo "NMIs injected $NMIS: in samples $nin (flagged $fn), elsewhere $nout; samples after an interrupt $fi_ of 4000 (cpu 0 interrupts $di), after a switch $(info_get $R/info flagged_switch)" >> /out/figures.txt

# PMU counters: TCG has no PMU, so a run that asks for them (pmu=on, the
# default) goes on with the TSC alone and says why; nothing is left open.
expect_eq "run alu (pmu=on, the default)" ok "$(run_write "alu samples=50 ensembles=2")"
case $(info_get $CB/alu/add_dep/info pmu) in
"none (no such hardware counter"*) pass "info: pmu says none, and why" ;;
*) fail "info: pmu says none, and why: got '$(info_get $CB/alu/add_dep/info pmu)'" ;;
esac
expect_ge "info: pmu_error is the kernel's (negative errno)" 1 "$((-$(info_get $CB/alu/add_dep/info pmu_error)))"
expect_eq "alu:add_dep: 100 samples all the same" 100 "$(lines $CB/alu/add_dep/cycles)"
for c in core_cycles instructions ref_cycles; do
	expect_eq "alu:add_dep/$c and ${c}_long are empty without counters" "0 0" \
		"$(lines $CB/alu/add_dep/$c) $(lines $CB/alu/add_dep/${c}_long)"
	expect_eq "info: pmu_missing names $c" 1 \
		"$(info_get $CB/alu/add_dep/info pmu_missing | grep -c "$c: no such hardware counter")"
done
expect_eq "base:empty (no long region) has no _long counter files" "missing" "$(lines $CB/base/empty/core_cycles_long)"
expect_eq "cyclestat reads the tree with empty counter files" 0 \
	"$(cyclestat alu > /dev/null 2>&1; echo $?)"
expect_eq "run alu pmu=off" ok "$(run_write "alu samples=50 pmu=off")"
expect_eq "info: pmu=off says so" "none (pmu=off)" "$(info_get $CB/alu/add_dep/info pmu)"
expect_eq "pmu=maybe is EINVAL" EINVAL "$(run_write "alu samples=50 pmu=maybe")"
expect_eq "the EINVAL run changed nothing" "none (pmu=off)" "$(info_get $CB/alu/add_dep/info pmu)"
i=0
while [ $i -lt 20 ]; do
	run_write "base samples=10 ensembles=1 pmu=on" > /dev/null
	i=$((i + 1))
done
check_unload

# SPDX-License-Identifier: GPL-2.0
# Under -icount shift=0 -smp 1 the TSC counts guest instructions, so every
# sample of a fixed region is the same number, boot after boot.
. /lib.sh

expect_ok "insmod (icount)" insmod /cyclebench.ko samples=100 ensembles=5 warmup=10 only=base,loop
expect_eq "info: rdtscp under -cpu max" yes "$(info_get $CB/info rdtscp)"
# the TSC counts instructions here: it steps by 1 (include/cyclebench/timing.h's
# cb_tsc_step_of() over reads a varying number of instructions apart)
expect_eq "info: tsc_step 1 under icount" 1 "$(info_get $CB/info tsc_step)"

# measure METHOD: checks one method's exact figures, saves them for the host
measure() {
	m=$1
	[ "$m" = paoloni ] || expect_eq "run method=$m" ok "$(run_write "base,loop method=$m")"
	for f in base/empty loop/dec_jnz_100; do
		tag=$m-$(echo $f | tr / _)
		cp $CB/$f/cycles /out/$tag.cycles
		expect_eq "$m $f: lines = 5 ensembles x 100 samples" 500 "$(lines $CB/$f/cycles)"
		expect_eq "$m $f: every sample identical" 1 "$(distinct $CB/$f/cycles)"
		expect_eq "$m $f: info method" "$m" "$(info_get $CB/$f/info method)"
	done
	empty=$(head -n1 /out/$m-base_empty.cycles)
	loop=$(head -n1 /out/$m-loop_dec_jnz_100.cycles)
	echo "$m empty=$empty loop=$loop delta=$((loop - empty))" >> /out/figures.txt
	expect_le "$m base:empty only the protocol's instructions" 4 "$empty"
	# mov $100 + 100 x (dec, jnz)
	expect_eq "$m loop:dec_jnz_100 - base:empty = 201 instructions" 201 "$((loop - empty))"
}
measure paoloni
measure lfence

# loop:dec_jnz/ARG: each iteration is one dec and one jnz.
z=$(head -n1 $CB/loop/dec_jnz/0/cycles)
bad=
for a in 1 2 4 8 16 32 64 100 110 128 256 512 1024; do
	v=$(head -n1 $CB/loop/dec_jnz/$a/cycles)
	[ "$((v - z))" = "$((2 * a))" ] || bad="$bad $a:$((v - z))"
	[ "$(distinct $CB/loop/dec_jnz/$a/cycles)" = 1 ] || bad="$bad $a:varies"
	echo "loop:dec_jnz/$a - loop:dec_jnz/0 = $((v - z))" >> /out/figures.txt
done
expect_eq "loop:dec_jnz/ARG - loop:dec_jnz/0 = 2 ARG instructions, every ARG, every sample" "" "$bad"

# The long region: CB_LONG_REPEAT (16) copies of the short region's
# instructions, so long - short = 15 x a copy's instructions in every sample,
# and the per-op figure is a copy's instructions / ops, exactly.  A copy's
# instructions, as tests/kmod/regions.py reads them from the object code:
# the body's own, plus the cursor's load and store for the pointer chases.
expect_eq "run alu,mem:load_l1,calib" ok "$(run_write "alu,mem:load_l1,calib samples=100 ensembles=5 warmup=10")"
for fi in alu/add_dep:4 alu/add_indep:4 alu/imul_dep:4 mem/load_l1:258 calib/add_chain:64; do
	f=${fi%:*} insns=${fi#*:}
	d=$(long_minus_short $CB/$f)
	expect_eq "$f: long - short = 15 x $insns instructions in every sample" "$((15 * insns)) " "$d"
	expect_eq "$f: cycles_long has as many lines as cycles" "$(lines $CB/$f/cycles)" "$(lines $CB/$f/cycles_long)"
done
expect_eq "info: long_repeat" 16 "$(info_get $CB/info long_repeat)"

# Every shipped fragment whose body is straight-line code (no jump, call or
# alternative: tests/kmod/regions.py's table, read from this module): its
# per-op figure is exactly its instructions / ops, that is long - short =
# 15 x the short region's instructions, in every sample.
expect_eq "run all,mem:chase/4096 (for the straight-line bodies)" ok \
	"$(run_write "all,mem:chase/4096,mem:chase_huge/4096 samples=20 ensembles=1 warmup=2")"
check_straight /regions.txt 10
# Every body whose table line declares its instructions (.insns): the
# loops too, which the object code cannot count (a jump's trip count).
# Here: alu (3), calib:add_chain, loop:dec_jnz_100, loop:dec_jnz at its 14
# default arguments.
check_declared 19

# args= replaces the argument list; new arguments get their directories.
old=$(info_get $CB/loop/dec_jnz/4/info run_id)
expect_eq "run loop:dec_jnz args=3,5" ok "$(run_write "loop:dec_jnz args=3,5 samples=10 ensembles=1")"
expect_eq "args=3,5: 10 lines each" "10 10" "$(lines $CB/loop/dec_jnz/3/cycles) $(lines $CB/loop/dec_jnz/5/cycles)"
expect_eq "args=3,5: arg in info" "3 5" "$(info_get $CB/loop/dec_jnz/3/info arg) $(info_get $CB/loop/dec_jnz/5/info arg)"
expect_eq "args=3,5: loop:dec_jnz/4 not run again" "$old" "$(info_get $CB/loop/dec_jnz/4/info run_id)"
expect_eq "fragments lists loop:dec_jnz/3" 1 "$(grep -c '^loop:dec_jnz/3 3 ' $CB/fragments)"
expect_eq "dec_jnz/5 - dec_jnz/3 = 4" 4 "$(($(head -n1 $CB/loop/dec_jnz/5/cycles) - $(head -n1 $CB/loop/dec_jnz/3/cycles)))"
for w in "loop:dec_jnz args=" "loop:dec_jnz args=1,x" "alu args=4" "loop:dec_jnz/x" \
	 "loop:dec_jnz_100/4" "mem:chase/64" "loop:dec_jnz/100000001"; do
	expect_eq "write '$w': EINVAL" EINVAL "$(run_write "$w")"
done

# Setup runs once per run, or before every ensemble when asked.
s0=$(info_get $CB/info setup_calls)
t0=$(info_get $CB/info teardown_calls)
expect_eq "run loop:dec_jnz/4 ensembles=3" ok "$(run_write "loop:dec_jnz/4 samples=10 ensembles=3")"
expect_eq "loop:dec_jnz: setup once per run" $((s0 + 1)) "$(info_get $CB/info setup_calls)"
expect_eq "run mem:chase/4096 ensembles=3" ok "$(run_write "mem:chase/4096 samples=10 ensembles=3")"
expect_eq "mem:chase: setup before every ensemble" $((s0 + 4)) "$(info_get $CB/info setup_calls)"
# (loop:dec_jnz has no teardown; mem:chase tears down each of its three)
expect_eq "mem:chase: a teardown after every setup" $((t0 + 3)) "$(info_get $CB/info teardown_calls)"
expect_eq "mem:chase/4096 info: setup ensemble" ensemble "$(info_get $CB/mem/chase/4096/info setup)"
expect_eq "mem:chase/4096: long - short = 15 x 258 in every sample" "3870 " \
	"$(long_minus_short $CB/mem/chase/4096)"

# A setup that fails: a clear error, the previous results kept, nothing
# left set up, and the next run works.
cp $CB/loop/dec_jnz/4/cycles /tmp/before
s0=$(info_get $CB/info setup_calls)
t0=$(info_get $CB/info teardown_calls)
echo 1 > /sys/module/cyclebench/parameters/fault_setup
expect_eq "a failing setup: ENOMEM" ENOMEM "$(run_write "base,loop:dec_jnz/4 samples=10 ensembles=2")"
expect_eq "a failing setup: state failed, error -12" "failed -12" \
	"$(info_get $CB/loop/dec_jnz/4/info state) $(info_get $CB/loop/dec_jnz/4/info error)"
expect_ok "a failing setup: the previous results stay" cmp -s /tmp/before $CB/loop/dec_jnz/4/cycles
expect_eq "a failing setup: nothing set up, nothing torn down" "$s0 $t0" \
	"$(info_get $CB/info setup_calls) $(info_get $CB/info teardown_calls)"
expect_eq "after a failing setup: a run works" ok "$(run_write "loop:dec_jnz/4 samples=10 ensembles=2")"
expect_eq "after a failing setup: state ok" ok "$(info_get $CB/loop/dec_jnz/4/info state)"
expect_eq "a run without interleave= is interleaved (the default)" yes \
	"$(info_get $CB/loop/dec_jnz/4/info interleave)"

# interleave=1: ensemble by ensemble across the results. Under icount the
# counts are the same as in order, sample for sample; the order shows in
# which setup a fault lands (mem:chase sets up before every ensemble: the
# 2nd setup is /4096's second in order, /8192's first interleaved).
C=$CB/mem/chase
expect_eq "run mem:chase args=4096,8192 in order" ok \
	"$(run_write "mem:chase args=4096,8192 samples=10 ensembles=3 interleave=0")"
cp $C/4096/cycles /tmp/seq4096
cp $C/8192/cycles_long /tmp/seq8192
expect_eq "info in order: interleave no" no "$(info_get $C/8192/info interleave)"
s0=$(info_get $CB/info setup_calls)
t0=$(info_get $CB/info teardown_calls)
expect_eq "run mem:chase args=4096,8192 interleave=1" ok \
	"$(run_write "mem:chase args=4096,8192 samples=10 ensembles=3 interleave=1")"
expect_eq "info interleaved: interleave yes" "yes yes" \
	"$(info_get $C/4096/info interleave) $(info_get $C/8192/info interleave)"
expect_eq "interleaved: a setup and a teardown per ensemble" "$((s0 + 6)) $((t0 + 6))" \
	"$(info_get $CB/info setup_calls) $(info_get $CB/info teardown_calls)"
expect_ok "interleaved: /4096 cycles as in order, sample for sample" cmp /tmp/seq4096 $C/4096/cycles
expect_ok "interleaved: /8192 cycles_long as in order" cmp /tmp/seq8192 $C/8192/cycles_long
echo 2 > /sys/module/cyclebench/parameters/fault_setup
expect_eq "in order, the 2nd setup fails: ENOMEM" ENOMEM \
	"$(run_write "mem:chase args=4096,8192 samples=10 ensembles=3 interleave=0")"
expect_eq "in order, the 2nd setup is /4096's" "failed aborted" \
	"$(info_get $C/4096/info state) $(info_get $C/8192/info state)"
echo 2 > /sys/module/cyclebench/parameters/fault_setup
expect_eq "interleaved, the 2nd setup fails: ENOMEM" ENOMEM \
	"$(run_write "mem:chase args=4096,8192 samples=10 ensembles=3 interleave=1")"
expect_eq "interleaved, the 2nd setup is /8192's" "aborted failed" \
	"$(info_get $C/4096/info state) $(info_get $C/8192/info state)"
expect_eq "after the faults: setups and teardowns match" \
	"$(($(info_get $CB/info setup_calls) - $(info_get $CB/info teardown_calls)))" "$((s0 - t0))"
expect_ok "aborted: the interleaved results stay" cmp /tmp/seq4096 $C/4096/cycles
# setup once per run, interleaved too: alive across the others' ensembles
s0=$(info_get $CB/info setup_calls)
expect_eq "run loop:dec_jnz args=100,110 ensembles=4 interleave=1" ok \
	"$(run_write "loop:dec_jnz args=100,110 samples=10 ensembles=4 interleave=1")"
expect_eq "interleaved: setup once per result" $((s0 + 2)) "$(info_get $CB/info setup_calls)"
expect_eq "loop:dec_jnz/110 - /100 interleaved: 10 x 2 in every sample" "20 " \
	"$(paste $CB/loop/dec_jnz/110/cycles $CB/loop/dec_jnz/100/cycles | awk '{ print $1 - $2 }' | sort -u | tr '\n' ' ')"
for w in "loop:dec_jnz interleave=2" "loop:dec_jnz interleave=yes" "loop:dec_jnz interleave="; do
	expect_eq "write '$w': EINVAL" EINVAL "$(run_write "$w")"
done

# Counters read around each region, without a PMU: fault_pmu_tsc reads the
# TSC where RDPMC would be, and under icount the TSC counts instructions.
# So a counter's long - short is the TSC's, to the instruction, in every
# sample (each region's reads sit at its own timestamps), and a counter
# minus cycles is one constant (the instructions between a read and its
# timestamp).  fault_pmu_fail=4 leaves ref_cycles out; the others count.
P=/sys/module/cyclebench/parameters
echo 1 > $P/fault_pmu_tsc
echo 4 > $P/fault_pmu_fail
R=$CB/alu/imul_dep
expect_eq "run alu:imul_dep with counters on the TSC" ok "$(run_write "alu:imul_dep samples=20 ensembles=2 warmup=2")"
expect_eq "info: pmu lists the counters that counted" "core_cycles instructions" "$(info_get $R/info pmu)"
expect_eq "info: pmu_missing says which did not, and why" "ref_cycles: fault_pmu_fail (-2)" \
	"$(info_get $R/info pmu_missing)"
expect_eq "ref_cycles, ref_cycles_long: empty" "0 0" "$(lines $R/ref_cycles) $(lines $R/ref_cycles_long)"
for c in core_cycles instructions; do
	expect_eq "$c, ${c}_long: a line per sample" "40 40" "$(lines $R/$c) $(lines $R/${c}_long)"
	expect_eq "$c: long - short = cycles_long - cycles in every sample" "0 " \
		"$(paste $R/${c}_long $R/$c $R/cycles_long $R/cycles | awk '{ print $1 - $2 - ($3 - $4) }' | sort -u | tr '\n' ' ')"
	expect_eq "$c - cycles: one constant, short and long" "1 1" \
		"$(paste $R/$c $R/cycles | awk '{ print $1 - $2 }' | sort -u | wc -l | tr -d ' ') $(paste $R/${c}_long $R/cycles_long | awk '{ print $1 - $2 }' | sort -u | wc -l | tr -d ' ')"
done
echo "pmu (fault_pmu_tsc) alu:imul_dep: core_cycles - cycles = $(paste $R/core_cycles $R/cycles | awk 'NR == 1 { print $1 - $2 }'), long: $(paste $R/core_cycles_long $R/cycles_long | awk 'NR == 1 { print $1 - $2 }')" >> /out/figures.txt
# 4 imuls, ops 4: one instruction an op, and (the TSC counting them) one
# "cycle" an op
expect_eq "cyclestat: per-op counters by the two lengths" 1 \
	"$(cyclestat alu:imul_dep | grep -c '^alu:imul_dep  *1\.000/op  *1\.000/op  *-  *1\.000$')"
expect_eq "info: flagged_pmcreset 0: a counter that only counts is never called rewritten" 0 \
	"$(info_get $R/info flagged_pmcreset)"
# a counter that went back across a region (perf's overflow interrupt
# rewrites it so): every sample flagged 64, its counter values 0
echo 1 > $P/fault_pmu_rewind
expect_eq "run alu:imul_dep with counters that go back: ok" ok "$(run_write "alu:imul_dep samples=20 ensembles=2 warmup=2")"
expect_eq "flagged_pmcreset: every sample" 40 "$(info_get $R/info flagged_pmcreset)"
expect_eq "flags: bit 64 in every sample" 40 "$(awk 'int($1 / 64) % 2' $R/flags | wc -l | tr -d ' ')"
expect_eq "their counter values: 0, short and long, 40 each" "0 |160" \
	"$(cat $R/core_cycles $R/core_cycles_long $R/instructions $R/instructions_long | sort -u | tr '\n' ' ')|$(cat $R/core_cycles $R/core_cycles_long $R/instructions $R/instructions_long | wc -l | tr -d ' ')"
echo 0 > $P/fault_pmu_rewind
echo 7 > $P/fault_pmu_fail
expect_eq "run with every counter failed: ok" ok "$(run_write "alu:imul_dep samples=20 ensembles=1")"
expect_eq "info: pmu none, and why" "none (fault_pmu_fail)" "$(info_get $R/info pmu)"
expect_eq "info: pmu_error" -2 "$(info_get $R/info pmu_error)"
expect_eq "no counter data" "0 0" "$(lines $R/core_cycles) $(lines $R/instructions_long)"
echo 0 > $P/fault_pmu_fail
echo 0 > $P/fault_pmu_tsc

# A buffer over max_mb (256): E2BIG before anything is allocated.
expect_eq "mem:chase/268435456 with max_mb=256: E2BIG" E2BIG "$(run_write "mem:chase/268435456 samples=10 ensembles=1")"
check_unload

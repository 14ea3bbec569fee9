#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# ab.sh CYCLESTAT - cyclestat ab, make ab's table, on fake runs: under
# --clock icount (every sample of a fragment one instruction count, as
# QEMU's -icount shift=0 gives) A/A is zero on every row, one instruction
# more in a copy is +1/ops exactly and exit 1, a fragment of one side is
# new or gone, runs of a side that disagree are "varies" and exit 2; under
# --clock time the rows are compare's.  ab and compare read a run alike
# (an aborted result is no figure) and exit alike (gate.c); an interval
# says its own level; a body whose ops change is compared a copy, on both
# clocks alike; and make ab's order (ABBA) leaves a 2 % drift no change,
# where A, B, A, B ... read one.  One TAP point per behaviour.
set -u
CS=$1
here=$(cd "$(dirname "$0")" && pwd)
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
. "$here/../../../tests/tap/tap.sh"
TAP_TMP=$T

# frag TREE GROUP NAME OPS SHORT [INSNS]: a result of 2 ensembles of 5
# samples, every cycles line SHORT; with INSNS (a copy's instructions) a
# long region of 16 copies, every cycles_long line SHORT + 15 x INSNS
frag() {
	d=$1/$2/$3
	mkdir -p "$d"
	echo "$2:$3 $4 ok" >> "$1/fragments"
	awk -v v="$5" 'BEGIN { for (i = 0; i < 10; i++) print v }' > "$d/cycles"
	{
		printf 'name: %s:%s\ndescription: test\nops: %s\nslow: no\nstate: ok\n' "$2" "$3" "$4"
		printf 'run_id: 1\nensembles: 2\nsamples: 5\nwarmup: 2\nmethod: paoloni\ncpu: 0\n'
		printf 'tsc_khz: 2000000\nsetup: none\ntsc_step: 1\n'
		[ $# -ge 6 ] && printf 'long_repeat: 16\n'
	} > "$d/info"
	if [ $# -ge 6 ]; then
		awk -v v="$(($5 + 15 * $6))" 'BEGIN { for (i = 0; i < 10; i++) print v }' > "$d/cycles_long"
	fi
}

# tree DIR ADDS_INSNS [EXTRA]: an icount run: base:empty, ab:adds (4 ops,
# ADDS_INSNS instructions a copy), ab:same (2 ops, 2 instructions);
# EXTRA=only_b adds ab:only_b, EXTRA=only_a ab:only_a
tree() {
	mkdir -p "$1"
	printf 'version: 0.2.0\nkernel: 6.1.0-test\nmodel_name: QEMU TCG CPU version 2.5+\ntsc_khz: 2000000\nhypervisor: yes\nhypervisor_vendor: TCGTCGTCGTCG\nmethod_requested: paoloni\nmethod_used: paoloni\nmode: kernel\npmu: none (test tree)\nsamples: 5\nensembles: 2\ncpu: 0\ntsc_step: 1\n' > "$1/info"
	: > "$1/fragments"
	frag "$1" base empty 1 25
	frag "$1" ab adds 4 30 "$2"
	frag "$1" ab same 2 30 2
	case ${3:-} in
	only_b) frag "$1" ab only_b 1 30 1 ;;
	only_a) frag "$1" ab only_a 1 30 1 ;;
	esac
}

for k in 1 2; do
	tree "$T/a$k" 4 only_a
	tree "$T/b$k" 5 only_b
	tree "$T/s$k" 4 only_a
done

expect_exit ab_icount_a_a_exit_0 0 '^ab:adds  *icount  *insns/op  *1\.000  *1\.000  *+0\.000  *+0  *+0\.00%  *same$' -- \
	"$CS" ab --clock icount "$T/a1" "$T/a2" -- "$T/s1" "$T/s2"
expect_ok ab_icount_a_a_every_row_same sh -c "[ \$(grep -cE ' same\$' '$T/out') = 4 ] && [ \$(grep -cE '^(base|ab):' '$T/out') = 4 ]"
expect_ok ab_icount_a_a_every_difference_zero sh -c "! grep -E '^(base|ab):' '$T/out' | grep -vq ' +0\\.000 '"
expect_ok ab_icount_says_the_clock grep -q '^A: 2 runs, B: 2 runs; clock icount: instructions, exact' "$T/out"
expect_ok ab_icount_raw_row_of_a_fragment_timed_once grep -qE '^base:empty  *icount  *insns  *25\.000  *25\.000  *\+0\.000' "$T/out"

# one add more a copy of ab:adds (4 ops): +1/4 instruction an op, exactly
expect_exit ab_icount_one_instruction_more_exit_1 1 '^ab:adds  *icount  *insns/op  *1\.000  *1\.250  *+0\.250  *+1  *+25\.00%  *slower$' -- \
	"$CS" ab --clock icount "$T/a1" "$T/a2" -- "$T/b1" "$T/b2"
expect_ok ab_icount_one_instruction_only_that_row_slower sh -c "[ \$(grep -c ' slower\$' '$T/out') = 1 ] && grep -qE '^ab:same .* \+0\\.000 .* same\$' '$T/out'"
expect_ok ab_fragment_only_in_b_is_new grep -qE '^ab:only_b  *-  *-  .* new$' "$T/out"
expect_ok ab_fragment_only_in_a_is_gone grep -qE '^ab:only_a  *-  *-  .* gone$' "$T/out"

# the other way round: one fewer, faster, exit 0 (ab:only_b gone from B, allowed)
expect_exit ab_icount_one_instruction_fewer_exit_0 0 '^ab:adds .* 1\.250  *1\.000  *-0\.250  *-1  *-20\.00%  *faster$' -- \
	"$CS" ab --allow-missing --clock icount "$T/b1" "$T/b2" -- "$T/a1" "$T/a2"

# a fragment gone from B fails as compare's "missing" does, unless allowed
expect_exit ab_fragment_gone_from_b_fails_as_compare_missing 1 '^ab:only_a  *-  *-  .* gone$' -- \
	"$CS" ab --clock icount "$T/a1" "$T/a2" -- "$T/b1" "$T/b2" ab:same ab:only_a
expect_exit compare_fails_the_same_fragment_as_missing 1 '^ab:only_a .* missing$' -- \
	"$CS" compare "$T/a1" "$T/a2" -- "$T/b1" "$T/b2" ab:same ab:only_a
expect_exit ab_allow_missing_lets_a_gone_fragment_pass 0 '^ab:only_a .* gone$' -- \
	"$CS" ab --allow-missing --clock icount "$T/a1" "$T/a2" -- "$T/b1" "$T/b2" ab:same ab:only_a

# a run of B without a row: under icount that row decides nothing, and says which run
tree "$T/m2" 4 only_a
rm -r "$T/m2/ab/same"
expect_exit ab_icount_row_missing_in_a_run_exit_2 2 '^ab:same .* missing in a run$' -- \
	"$CS" ab --clock icount "$T/a1" "$T/a2" -- "$T/s1" "$T/m2"
expect_ok ab_icount_row_missing_in_a_run_names_the_run grep -q "^cyclestat: error: $T/m2: no result for ab:same (missing)" "$T/err"

# one instruction more in a copy of 4096 ops: +0.000 an op to three
# decimals, but +1 a copy, and slower
mkdir -p "$T/c1" "$T/c2"
for c in c1 c2; do cp "$T/a1/info" "$T/$c/"; : > "$T/$c/fragments"; done
frag "$T/c1" misc crc 4096 40 14360
frag "$T/c2" misc crc 4096 40 14361
expect_exit ab_icount_one_instruction_in_4096_ops 1 '^misc:crc  *icount  *insns/op  *3\.506  *3\.506  *+0\.000  *+1  *+0\.01%  *slower$' -- \
	"$CS" ab --clock icount "$T/c1" -- "$T/c2"

# a side whose two runs disagree is no exact count: varies, exit 2
tree "$T/v2" 5
expect_exit ab_icount_runs_that_disagree_vary_exit_2 2 '^ab:adds .* 1\.000\.\.1\.250  *1\.000  .* varies$' -- \
	"$CS" ab --clock icount "$T/a1" "$T/v2" -- "$T/s1" "$T/s2"
expect_ok ab_icount_varies_says_why grep -q 'differ between the runs of one side' "$T/err"

# a filter picks rows
expect_exit ab_filter_picks_rows 1 '^ab:adds ' -- "$CS" ab --clock icount "$T/a1" -- "$T/b1" ab:adds
expect_ok ab_filter_leaves_the_others sh -c "! grep -q '^ab:same' '$T/out'"
# a filter word that selects nothing is refused; with --strict, so is an
# input that leaves out what it lists (as compare's)
expect_exit ab_filter_word_that_selects_nothing_is_refused 2 'no fragment matches ab:nosuch' -- \
	"$CS" ab --clock icount "$T/a1" -- "$T/b1" ab:nosuch
rm -rf "$T/a1l"; cp -r "$T/a1" "$T/a1l"; echo 'ab:listed 4 listed, no result' >> "$T/a1l/fragments"
expect_exit ab_says_what_an_input_leaves_out 1 '' -- "$CS" ab --clock icount "$T/a1l" -- "$T/b1"
expect_ok ab_said_it_as_a_warning grep -q "warning: .*lists ab:listed" "$T/err"
expect_exit ab_strict_refuses_what_an_input_leaves_out 2 "error: .*lists ab:listed" -- \
	"$CS" ab --strict --clock icount "$T/a1l" -- "$T/b1"

# usage
expect_exit ab_needs_two_sides 2 'ab: expected A\.\.\. -- B\.\.\.' -- "$CS" ab "$T/a1" "$T/b1"
expect_exit ab_clock_is_icount_or_time 2 "\-\-clock: 'tsc' is not icount or time" -- "$CS" ab --clock tsc "$T/a1" -- "$T/b1"
expect_exit ab_clock_is_for_ab_only 2 '\-\-clock is for ab only' -- "$CS" --clock icount compare "$T/a1" "$T/b1"
expect_exit ab_prints_a_table_only 2 'ab prints a table' -- "$CS" ab --format json "$T/a1" -- "$T/b1"

# --clock time: compare's rows, runs as repetitions (tree2.py's
# sync:broken failed in every run: left out where a test is of the others)
for k in 1 2 3 4 5 6 7 8; do
	python3 "$here/tree2.py" gen "$T/ta$k" --seed "$k"
	python3 "$here/tree2.py" gen "$T/tb$k" --seed $((k + 10)) --scale 1.1
	[ "$k" -gt 5 ] || python3 "$here/tree2.py" gen "$T/tc$k" --seed $((k + 20))
done
# (eight runs a side: across ten rows, five do not reach p < 0.01, as compare says)
expect_exit ab_time_finds_a_10pct_slowdown 1 '^loop:dec_jnz/110  *time  .* slower$' -- \
	"$CS" ab -q "$T"/ta[1-8] -- "$T"/tb[1-8] base calib alu loop mem
expect_ok ab_time_nothing_else_slower sh -c "[ \$(grep -c ' slower\$' '$T/out') = 1 ]"
expect_ok ab_time_says_the_clock grep -q 'clock time: medians of the runs' "$T/out"
expect_exit ab_time_a_a_no_alarm 0 '^alu:add_dep  *time  ' -- \
	"$CS" ab -q "$T/ta1" "$T/ta2" "$T/ta3" "$T/ta4" "$T/ta5" -- "$T/tc1" "$T/tc2" "$T/tc3" "$T/tc4" "$T/tc5" base calib alu loop mem
expect_ok ab_time_a_a_nothing_slower_or_faster sh -c "! grep -qE ' (slower|faster)\$' '$T/out'"
# too few runs ever to decide is the design chosen, not a defect of the
# data: undecided, as inconclusive is, exit 0 in ab as in compare (gate.c)
expect_exit ab_time_too_few_runs_is_undecided_exit_0 0 '^alu:add_dep  *time  .* not enough runs$' -- \
	"$CS" ab -q "$T/ta1" -- "$T/tc1" base calib alu loop mem
expect_exit compare_too_few_runs_exit_0_as_ab 0 '^alu:add_dep .* need 5 runs$' -- \
	"$CS" compare -q "$T/ta1" -- "$T/tc1" base calib alu loop mem

# --clock time: a run of B without the row leaves 5 v 4, too few: incomplete, exit 2
rm -rf "$T/tl5"; cp -r "$T/tb5" "$T/tl5"; rm -r "$T/tl5/loop/dec_jnz/110"
expect_exit ab_time_one_b_run_without_the_row_is_incomplete_exit_2 2 '^loop:dec_jnz/110  *time  .* incomplete' -- \
	"$CS" ab "$T/ta1" "$T/ta2" "$T/ta3" "$T/ta4" "$T/ta5" -- "$T/tb1" "$T/tb2" "$T/tb3" "$T/tb4" "$T/tl5" loop:dec_jnz/110
expect_ok ab_time_incomplete_row_names_the_run grep -q "^cyclestat: error: $T/tl5: no result for loop:dec_jnz/110 (missing)" "$T/err"

# ab and compare read a run alike and exit alike (gate.c).  A run of B
# whose result aborted holds an earlier run's figures: the row says so and
# fails, as compare's does; a run of A with one is a run without the row
for k in 1 2 3 4 5; do
	rm -rf "$T/tx$k"; cp -r "$T/tc$k" "$T/tx$k"
done
sed 's/^state: ok/state: aborted/' "$T/tc3/alu/add_dep/info" > "$T/tx3/alu/add_dep/info"
expect_exit ab_time_aborted_run_of_b_fails_as_compare 1 '^alu:add_dep  *-  *-  .* aborted$' -- \
	"$CS" ab -q "$T"/ta[1-5] -- "$T"/tx[1-5] alu
expect_exit compare_aborted_run_of_b_fails_as_ab 1 '^alu:add_dep .* aborted' -- \
	"$CS" compare -q "$T"/ta[1-5] -- "$T"/tx[1-5] alu
expect_exit ab_time_aborted_run_of_a_is_a_run_without_the_row 2 '^alu:add_dep  *time  .* incomplete$' -- \
	"$CS" ab "$T"/tx[1-5] -- "$T"/ta[1-5] alu
expect_ok ab_time_aborted_run_of_a_is_named grep -q "^cyclestat: error: $T/tx3: no clean result for alu:add_dep (aborted)" "$T/err"
expect_exit compare_aborted_run_of_base_is_incomplete_as_ab 2 '^alu:add_dep  *4/5 .* incomplete' -- \
	"$CS" compare "$T"/tx[1-5] -- "$T"/ta[1-5] alu

# one exit policy: a slower row wins over one that could not be compared
for k in 5 6 7 8; do
	rm -rf "$T/tm$k"; cp -r "$T/tb$k" "$T/tm$k"; rm -r "$T/tm$k/loop/dec_jnz/100"
done
expect_exit ab_time_slower_wins_over_incomplete_exit_1 1 '^loop:dec_jnz/100  *time  .* incomplete$' -- \
	"$CS" ab -q "$T"/ta[1-8] -- "$T"/tb[1-4] "$T"/tm[5-8] loop:dec_jnz/100 loop:dec_jnz/110
expect_ok ab_time_slower_wins_the_slower_row grep -qE '^loop:dec_jnz/110  *time  .* slower$' "$T/out"
expect_exit compare_slower_wins_over_incomplete_exit_1_as_ab 1 '^loop:dec_jnz/110 .* slower' -- \
	"$CS" compare -q "$T"/ta[1-8] -- "$T"/tb[1-4] "$T"/tm[5-8] loop:dec_jnz/100 loop:dec_jnz/110

# an interval says the level it has: 3 v 3 runs give 90 %, not 95 %
expect_exit ab_time_3_v_3_interval_says_90pct 0 '^loop:dec_jnz/110  *time  .*\] 90%  *not enough runs$' -- \
	"$CS" ab -q "$T"/ta[1-3] -- "$T"/tb[1-3] loop:dec_jnz/110

# a body whose ops change (4 shifts, ops 4, made 5, ops 5): per op each
# side's own, a copy and the verdict the cost of one copy, on both clocks
shl() {
	mkdir -p "$1"
	cp "$T/a1/info" "$1/"
	: > "$1/fragments"
	frag "$1" base empty 1 25
	frag "$1" ab shl "$2" 30 "$2"
}
for k in 1 2 3 4 5 6 7 8; do
	shl "$T/sa$k" 4
	shl "$T/sb$k" 5
done
expect_exit ab_icount_ops_4_to_5_a_copy_plus_1_slower 1 '^ab:shl  *icount  *insns/op  *1\.000  *1\.000  *+0\.000  *+1  *+25\.00%  *slower (ops 4 → 5)$' -- \
	"$CS" ab --clock icount "$T/sa1" "$T/sa2" -- "$T/sb1" "$T/sb2"
expect_ok ab_icount_ops_differ_says_what_is_compared grep -q '^ops A → B: the body counts other ops in B' "$T/out"
expect_exit ab_time_ops_4_to_5_per_op_own_ops_slower 1 '^ab:shl  *time  *ticks/op  *1\.000  *1\.000  *+0\.000  *+1  *+25\.00% .* slower (ops 4 → 5)$' -- \
	"$CS" ab -q "$T"/sa[1-8] -- "$T"/sb[1-8]
expect_exit compare_ops_4_to_5_slower_as_ab 1 '^ab:shl .* slower' -- \
	"$CS" compare -q "$T"/sa[1-8] -- "$T"/sb[1-8]
expect_exit ab_icount_same_ops_no_ops_note 0 '^ab:shl  *icount .* same$' -- \
	"$CS" ab --clock icount "$T/sa1" -- "$T/sa2"
expect_ok ab_icount_same_ops_no_ops_note_line sh -c "! grep -q 'ops A →' '$T/out'"

# make ab's order (scripts/ab-order.sh, ABBA) against a linear drift: 8
# rounds, one fragment whose cost rises 2 % from the first run to the
# last (A/A: the same code both sides; 10000 ticks a copy, + 200 x
# place / 15).  Run A, B, A, B ..., every B a place later than its A:
# the pairs read +0.13 % in all 8, p = 0.0078, a false "slower" at
# --threshold 0.1; turned round every round, the drift moves both sides
# alike: +0.00 %, no alarm, paired or not.
drift() {	# drift DIR ORDER: the runs of ORDER's rounds, DIR/{A,B}/runK
	rm -rf "$1"
	k=0 place=0
	for round in $2; do
		k=$((k + 1))
		for s in $(echo "$round" | sed 's/./& /g'); do
			d=$1/$s/run$k
			mkdir -p "$d"
			cp "$T/a1/info" "$d/"
			: > "$d/fragments"
			frag "$d" dr ift 1 30 $((10000 + (200 * place + 7) / 15))
			place=$((place + 1))
		done
	done
}
drift "$T/abab" "AB AB AB AB AB AB AB AB"
drift "$T/abba" "$(sh "$here/../../../scripts/ab-order.sh" 8)"
expect_ok ab_order_is_abba_turned_round_every_round \
	test "$(sh "$here/../../../scripts/ab-order.sh" 8)" = "AB BA AB BA AB BA AB BA"
expect_exit ab_drift_2pct_abab_reads_b_a_step_dearer 0 '^dr:ift  *time  .* +0\.13% \[' -- \
	"$CS" ab -q "$T"/abab/A/run* -- "$T"/abab/B/run*
expect_exit ab_drift_2pct_abba_reads_no_change 0 '^dr:ift  *time  .* +0\.00% \[.* same$' -- \
	"$CS" ab -q "$T"/abba/A/run* -- "$T"/abba/B/run*
expect_exit ab_drift_2pct_abab_paired_is_a_false_alarm 1 '^dr:ift .* slower' -- \
	"$CS" compare -q --paired --threshold 0.1 "$T"/abab/A/run* -- "$T"/abab/B/run*
expect_exit ab_drift_2pct_abba_paired_no_alarm 0 '^dr:ift ' -- \
	"$CS" compare -q --paired --threshold 0.1 "$T"/abba/A/run* -- "$T"/abba/B/run*
expect_ok ab_drift_2pct_abba_paired_neither_slower_nor_faster sh -c "! grep -qE '^dr:ift .*(slower|faster)' '$T/out'"
expect_exit ab_drift_2pct_abba_paired_p_0_95 0 '"p_value": 0\.945' -- \
	"$CS" --format json compare -q --paired --threshold 0.1 "$T"/abba/A/run* -- "$T"/abba/B/run*

tap_end

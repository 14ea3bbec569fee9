#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# cli.sh CYCLESTAT - what a user sees: exit codes, error lines, every output
# format, save/compare/run against fake trees, doctor against a fake sysroot.
# One TAP point per behaviour (tests/tap/tap.sh). Needs python3 (any: only
# json and csv).
set -u
CS=$1
PY=${PYTHON:-python3}
here=$(cd "$(dirname "$0")" && pwd)
DATA=$here/data
T=$(mktemp -d)
trap 'kill $fake 2>/dev/null; rm -rf "$T"' EXIT
fake=
. "$here/../../../tests/tap/tap.sh"
TAP_TMP=$T


# ---- units: a tree measured under QEMU's emulator is never "core cycles" ----
cp -r "$DATA/tree2" "$T/tcg"
sed -i 's/^hypervisor: .*/hypervisor: yes\nhypervisor_vendor: TCGTCGTCGTCG/' "$T/tcg/info"
expect_exit calibrated_tree_says_core_cycles 0 'core cyc\.' -- "$CS" "$DATA/tree2"
expect_exit emulated_tree_says_emulated_ticks 0 'emul\. ticks: measured under an emulator' -- "$CS" "$T/tcg"
expect_ok emulated_tree_never_says_core_cycles sh -c "! '$CS' '$T/tcg' | grep -q 'core cyc\.'"
expect_exit emulated_tree_json_unit 0 '"emulated ticks"' -- "$CS" --format json "$T/tcg"
expect_ok emulated_result_dir_never_calibrated sh -c "! '$CS' '$T/tcg/alu/add_dep' | grep -q 'core cyc\.'"

# ---- usage ----
expect_exit help_exits_0 0 'usage: cyclestat' -- "$CS" --help
expect_exit version_exits_0 0 '^cyclestat [0-9]' -- "$CS" --version
expect_exit unknown_format_is_a_usage_error 2 "'xml' is not table, json, csv, gbench, svg or markdown" -- "$CS" --format xml "$DATA/odd.cycles"
expect_exit bad_threshold_is_a_usage_error 2 "--threshold: 'abc' is not a number" -- "$CS" --threshold abc compare "$DATA/odd.cycles" "$DATA/odd.cycles"
expect_exit unknown_option_is_a_usage_error 2 'usage:' -- "$CS" --frobnicate
expect_ok usage_error_is_short_with_a_hint sh -c "[ \$(wc -l < '$T/err') -le 4 ] && grep -q 'cyclestat --help' '$T/err' && grep -q frobnicate '$T/err'"
expect_exit mistyped_path_is_named_as_such 2 "no file or directory 'results-usr' here" -- "$CS" -d "$T/no-such-tree" results-usr
expect_exit compare_needs_two_inputs 2 'expected BASE and NEW' -- "$CS" compare "$DATA/odd.cycles"

# ---- input errors: FILE:LINE, exit 2, nothing half-printed ----
printf '10\n11\n-3\n' > "$T/neg"
expect_exit negative_value_names_file_and_line 2 "$T/neg:3: '-3' is negative" -- "$CS" "$T/neg"
printf '10\nabc\n' > "$T/word"
expect_exit non_number_names_file_and_line 2 "$T/word:2: 'abc' is not an unsigned integer" -- "$CS" "$T/word"
printf '1\n99999999999999999999\n' > "$T/big"
expect_exit overflow_names_file_and_line 2 "$T/big:2: value exceeds 2^64 - 1" -- "$CS" "$T/big"
: > "$T/empty"
expect_exit empty_file_is_an_error 2 "$T/empty: no samples" -- "$CS" "$T/empty"
expect_exit missing_file_is_an_error 2 "$T/nope: No such file" -- "$CS" "$T/nope"
"$CS" "$DATA/odd.cycles" "$T/word" > "$T/half" 2>/dev/null
expect_ok error_prints_nothing_of_the_good_inputs test ! -s "$T/half"
if [ "$(id -u)" != 0 ]; then
	printf '1\n' > "$T/unreadable"; chmod 000 "$T/unreadable"
	expect_exit unreadable_file_is_an_error 2 'Permission denied' -- "$CS" "$T/unreadable"
fi
expect_exit missing_debugfs_tree_says_how_to_fix_it 2 'insmod\|mount -t debugfs\|run as root' -- \
	"$CS" /sys/kernel/debug/cyclebench-not-here
awk 'BEGIN { printf "1\n"; for (i = 0; i < 200000; i++) printf "9"; printf "\n" }' > "$T/longline"
expect_exit enormous_number_is_an_overflow 2 "$T/longline:2: value exceeds" -- "$CS" "$T/longline"
head -c 3000000 /dev/zero | tr '\0' 'k' | sed 's/^/k: /' > "$T/bigtree-info"
mkdir -p "$T/bigtree/g/f"; printf '1\n' > "$T/bigtree/g/f/cycles"; cp "$T/bigtree-info" "$T/bigtree/g/f/info"
expect_exit enormous_info_file_is_refused 2 'larger than' -- "$CS" "$T/bigtree"
case $CS in
*-san) ;;	# ASan reserves terabytes of address space: no ulimit -v there
*)
	seq 1 3000000 > "$T/huge"
	expect_exit input_larger_than_memory_says_so 2 "$T/huge:2097153: out of memory after 2097152 samples" -- \
		sh -c "ulimit -v 30000; exec '$CS' '$T/huge'"
	;;
esac
printf '\0\0\0\n' > "$T/nul"
expect_exit binary_input_is_refused 2 'NUL byte' -- "$CS" "$T/nul"

# a tree whose cycles file lost lines (truncated copy)
cp -r "$DATA/tree" "$T/trunc"
head -n 150 "$DATA/tree/alu/add_dep/cycles" > "$T/trunc/alu/add_dep/cycles"
expect_exit truncated_cycles_file_is_caught 2 'truncated' -- "$CS" "$T/trunc"
cp -r "$DATA/tree" "$T/none"
printf 'name: alu:add_dep\nops: 4\nstate: none\n' > "$T/none/alu/add_dep/info"
: > "$T/none/alu/add_dep/cycles"
cp -r "$DATA/tree" "$T/aborted"
printf 'name: base:empty\nstate: aborted\n' > "$T/aborted/base/empty/info"
: > "$T/aborted/base/empty/cycles"
printf 'name: loop:dec_jnz_100\nops: 100\nstate: aborted\nensembles: 5\nsamples: 40\n' > "$T/aborted/loop/dec_jnz_100/info"
expect_exit aborted_fragment_without_data_is_skipped 0 'alu:add_dep' -- "$CS" "$T/aborted"
expect_ok aborted_fragment_with_old_data_is_flagged_stale grep -q '^loop:dec_jnz_100 ~' "$T/out"
expect_ok aborted_fragment_stale_flag_is_explained grep -q 'previous complete run' "$T/out"
expect_exit never_measured_fragment_is_skipped 0 'loop:dec_jnz_100' -- "$CS" "$T/none"
expect_ok never_measured_fragment_is_not_shown sh -c "! grep -q add_dep '$T/out'"

# a crafted fragments file must not lead outside the tree
mkdir -p "$T/evil/t" "$T/evil/x"; printf '1\n' > "$T/evil/x/cycles"
printf '..:x 1 outside\n' > "$T/evil/t/fragments"
expect_exit fragments_file_cannot_leave_the_tree 2 'no fragments here' -- "$CS" "$T/evil/t"

# ---- summary: table, stdin, -o ----
expect_exit table_has_one_row_per_fragment 0 '^alu:add_dep' -- "$CS" "$DATA/tree"
expect_ok table_fits_in_80_columns sh -c "awk 'length > 80 { exit 1 }' '$T/out'"
expect_ok table_shows_the_overhead_in_ticks grep -q 'overhead (base:empty median): 30.0 ticks' "$T/out"
expect_ok table_shows_per_op_cost_with_interval grep -q '^alu:add_dep \{1,\}net \{1,\}1.250  1.250..1.250 \{1,\}4  ticks' "$T/out"
# help fits a terminal of 80 columns, both programs
expect_ok help_fits_80_columns sh -c "'$CS' --help | awk 'length > 80 { exit 1 }'"
# a name too long for 80 columns: whole, and columns give way, said
mkdir -p "$T/a_directory_with_a_rather_long_name_here"
seq 100 200 > "$T/a_directory_with_a_rather_long_name_here/samples_of_one_run.cycles"
cs_abs=$(cd "$(dirname "$CS")" && pwd)/$(basename "$CS")
(cd "$T" && "$cs_abs" a_directory_with_a_rather_long_name_here/samples_of_one_run.cycles) > "$T/long" 2>&1
expect_ok long_name_is_never_shortened sh -c "[ \$(grep -c '^a_directory_with_a_rather_long_name_here/samples_of_one_run.cycles ' '$T/long') = 2 ]"
expect_ok long_name_drops_columns_and_says_which grep -q '^(left out to fit 80 columns: mean sd p99; --format csv has every column)$' "$T/long"
expect_ok table_never_says_cycles_for_ticks sh -c "! grep -qiw 'cycles' '$T/out'"
expect_ok table_flags_smi_runs grep -q '^alu:add_dep \*' "$T/out"
expect_ok table_explains_the_smi_flag grep -q 'SMIs occurred during this run' "$T/out"
expect_ok table_shows_paoloni_metrics grep -q '^ensembles .*total var' "$T/out"
expect_exit stdin_is_read 0 'median' -- sh -c "printf '3\n1\n2\n' | '$CS' -"
"$CS" -o "$T/o.txt" "$DATA/odd.cycles"
expect_ok output_option_writes_the_file grep -q 'odd.cycles' "$T/o.txt"
expect_exit hist_prints_bins 0 '|#' -- "$CS" --hist "$DATA/lognormal.cycles"
expect_ok hist_folds_the_tail grep -q '^  >= ' "$T/out"

# ---- version 2 trees: arguments, cycles_long, counters, skipped and failed ----
"$CS" --format json "$DATA/tree2" > "$T/v2.json"
expect_ok v2_json_reads_arguments_per_op_and_counters "$PY" -c "
import json, sys
d = json.load(open(sys.argv[1]))
fr = {f['name']: f for f in d['inputs'][0]['fragments']}
assert [n for n in fr if n.startswith('loop:')] == ['loop:dec_jnz/%d' % a for a in (0, 1, 2, 4, 100, 110)]
assert fr['loop:dec_jnz/100']['arg'] == 100 and fr['mem:chase/4096']['setup'] == 'ensemble'
c = fr['alu:add_dep']['cost']
assert c['basis'] == 'two-length' and c['unit'] == 'core cycles (calibrated)', c
# four ensembles: a median, but no 95 % interval (that needs six)
assert c['per_op']['lo'] is None and abs(c['per_op']['value'] - 1) < 0.01, c
assert c['per_op']['n'] == 4 and fr['alu:add_dep']['long_repeat'] == 8
assert abs(fr['alu:add_dep']['ticks_per_core_cycle'] - 0.75) < 0.01
assert fr['alu:add_dep']['counters']['instructions']['median'] == 7
assert 'misc:gone' not in fr and fr['sync:broken']['stale'] is True
" "$T/v2.json"
# flags: what disturbed each sample; --undisturbed leaves those out
mkdir -p "$T/dist/alu/add_dep"
printf 'version: 0.2.0\nmode: kernel\ntsc_khz: 2000000\nmethod_used: paoloni\n' > "$T/dist/info"
printf 'alu:add_dep 1 test\n' > "$T/dist/fragments"
printf 'name: alu:add_dep\nops: 1\nstate: ok\nrun_id: 1\nensembles: 2\nsamples: 5\nmethod: paoloni\n' \
	> "$T/dist/alu/add_dep/info"
printf '10\n11\n12\n13\n900\n14\n15\n16\n800\n17\n' > "$T/dist/alu/add_dep/cycles"
printf '0\n2\n0\n0\n1\n0\n0\n0\n8\n0\n' > "$T/dist/alu/add_dep/flags"
"$CS" -f json "$T/dist" > "$T/dist-all.json"
"$CS" -f json --undisturbed "$T/dist" > "$T/dist-u.json"
"$CS" -f json --undisturbed=all "$T/dist" > "$T/dist-ua.json"
expect_ok undisturbed_leaves_out_exactly_the_nmi_and_cpu_flagged_samples "$PY" -c "
import json, sys
raw = [json.load(open(f))['inputs'][0]['fragments'][0]['raw'] for f in sys.argv[1:]]
assert raw[0]['n'] == 10 and raw[0]['max'] == 900, raw[0]
# NMI (1) in ensemble 1, wrong CPU (8) in ensemble 2: 4 kept of each
assert raw[1]['n'] == 8 and raw[1]['max'] == 17 and raw[1]['min'] == 10, raw[1]
# =all: also the sample after an interrupt (2): 3 kept of each, equal ensembles
assert raw[2]['n'] == 6 and raw[2]['min'] == 10 and raw[2]['max'] == 16, raw[2]
" "$T/dist-all.json" "$T/dist-u.json" "$T/dist-ua.json"
expect_exit undisturbed_says_what_it_left_out 0 'alu:add_dep: 2 of 10 samples left out (--undisturbed; flags file), 1 with an NMI inside, 1 on another CPU$' -- \
	"$CS" --undisturbed "$T/dist"
expect_exit undisturbed_rejects_an_unknown_set 2 "--undisturbed: 'some' is not 'all'" -- \
	"$CS" --undisturbed=some "$T/dist"
# a body's wait that timed out (32) timed the give-up, not the work: left out
cp -r "$T/dist" "$T/tmo"
printf '0\n0\n0\n0\n32\n0\n0\n0\n0\n0\n' > "$T/tmo/alu/add_dep/flags"
printf 'flagged_timeout: 1\n' >> "$T/tmo/alu/add_dep/info"
"$CS" -f json --undisturbed "$T/tmo" > "$T/tmo-u.json"
expect_ok undisturbed_leaves_out_timed_out_samples "$PY" -c "
import json, sys
raw = json.load(open(sys.argv[1]))['inputs'][0]['fragments'][0]['raw']
# the time-out (900) in ensemble 1: 4 kept of each, so 17 goes from ensemble 2
assert raw['n'] == 8 and raw['max'] == 800 and raw['min'] == 10, raw
" "$T/tmo-u.json"
expect_exit undisturbed_names_each_kind_it_left_out 0 \
	'alu:add_dep: 2 of 10 samples left out (--undisturbed; flags file), 1 timed out, and 1 unflagged to keep the ensembles equal' -- \
	"$CS" --undisturbed "$T/tmo"
expect_exit timed_out_samples_are_said_without_undisturbed 0 \
	'alu:add_dep: 1 of 10 samples timed out (flags 32): they time a wait given up, not the body' -- "$CS" "$T/tmo"
printf '0\n0\n' > "$T/dist/alu/add_dep/flags"
expect_exit undisturbed_needs_a_paired_flags_file 2 "flags: 2 lines, but cycles has 10" -- \
	"$CS" --undisturbed "$T/dist"
printf '1\n1\n1\n1\n1\n0\n0\n0\n0\n0\n' > "$T/dist/alu/add_dep/flags"
expect_exit undisturbed_refuses_an_empty_ensemble 2 "every sample of an ensemble is flagged" -- \
	"$CS" --undisturbed "$T/dist"

# counters read around each region (NAME, NAME_long): per op by the same
# two-length difference as cycles; a counter info leaves out has no data
P=$T/pmc/alu/imul
mkdir -p "$P"
printf 'version: 0.2.0\nmode: kernel\ntsc_khz: 2000000\nmethod_used: paoloni\n' > "$T/pmc/info"
printf 'alu:imul 1 test\n' > "$T/pmc/fragments"
printf 'name: alu:imul\nops: 2\nstate: ok\nrun_id: 1\nensembles: 2\nsamples: 3\nmethod: paoloni\nlong_repeat: 16\npmu: core_cycles instructions\npmu_missing: ref_cycles: fault_pmu_fail (-2)\n' > "$P/info"
printf '100\n101\n100\n102\n100\n101\n' > "$P/cycles"
printf '280\n281\n280\n282\n280\n281\n' > "$P/cycles_long"
printf '130\n131\n130\n130\n131\n130\n' > "$P/core_cycles"
printf '220\n221\n220\n220\n221\n220\n' > "$P/core_cycles_long"
printf '40\n40\n40\n40\n40\n40\n' > "$P/instructions"
printf '70\n70\n70\n70\n70\n70\n' > "$P/instructions_long"
: > "$P/ref_cycles"
: > "$P/ref_cycles_long"
expect_exit counters_per_op_by_two_lengths 0 '^alu:imul  *3.000/op  *1.000/op  *-  *0.333$' -- "$CS" "$T/pmc"
expect_ok counters_per_op_says_how sh -c "grep -q '^/op: (median around the long region' '$T/out'"
"$CS" -f json "$T/pmc" > "$T/pmc.json"
expect_ok counters_per_op_in_json "$PY" -c "
import json, sys
c = json.load(open(sys.argv[1]))['inputs'][0]['fragments'][0]['counters']
assert c['core_cycles'] == {'median': 130, 'median_long': 220, 'per_op': 3}, c
assert c['instructions']['per_op'] == 1 and c['ref_cycles'] is None, c
assert abs(c['ipc_per_op'] - 1 / 3) < 1e-9, c
" "$T/pmc.json"
# the QEMU plugin's sums beside a result (memory, perop.py --save): per op
# by the two lengths, each region's sum over its own runs; R 16, ops 2
cp -r "$T/pmc" "$T/mem"
M=$T/mem/alu/imul/memory
mem_file() {
	printf 'model: l1d 32K:8:64, test\nsource: CACHE=\nruns: 10 20\n' > "$M"
	for k in insns loads stores l1d_acc l1d_miss l1i_acc l1i_miss l2_acc l2_miss; do
		case $k in
		loads) echo "loads: 20 1240" ;;	# (62 - 2) / 30 = 2
		l1d_miss) echo "l1d_miss: 0 300" ;;	# 15 / 30 = 0.5
		*) echo "$k: 10 20" ;;			# 0
		esac
	done >> "$M"
}
mem_file
echo 'l3_miss: 1 2' >> "$M"
expect_exit memory_per_op_by_two_lengths 0 '^alu:imul  *0.000  *2.000  *0.000  *0.000  *0.500  *0.000  *0.000$' -- \
	"$CS" "$T/mem"
expect_ok memory_names_its_model sh -c "grep -q '^the model: CACHE=: l1d 32K:8:64, test$' '$T/out'"
"$CS" -f json "$T/mem" > "$T/mem.json"
expect_ok memory_in_json "$PY" -c "
import json, sys
m = json.load(open(sys.argv[1]))['inputs'][0]['fragments'][0]['memory']
assert m['per_op']['loads'] == 2 and m['per_op']['l1d_miss'] == 0.5 and m['per_op']['insns'] == 0, m
assert m['runs'] == [10, 20] and m['sums']['loads'] == [20, 1240] and m['source'] == 'CACHE=', m
" "$T/mem.json"
expect_exit memory_in_csv 0 ',2,0,0,0.5,0,0,0,0$' -- "$CS" -f csv "$T/mem"
expect_exit memory_without_a_file_is_no_column 0 'cost_basis$' -- "$CS" -f csv "$T/pmc"
sed -i 's/^loads: .*/loads: 20 x/' "$M"
expect_exit memory_bad_count_names_file_and_line 2 'memory:5:.*two unsigned decimals' -- "$CS" "$T/mem"
mem_file
sed -i '/^l2_miss:/d' "$M"
expect_exit memory_missing_count_is_refused 2 "memory: no 'l2_miss:' line" -- "$CS" "$T/mem"
mem_file
sed -i 's/^runs: .*/runs: 0 20/' "$M"
expect_exit memory_no_runs_is_refused 2 'counted in no run' -- "$CS" "$T/mem"
printf 'no colon here\n' > "$M"
expect_exit memory_garbage_names_file_and_line 2 'memory:1:' -- "$CS" "$T/mem"
# perf rewrote a counter (64): the module writes 0 for its counts, the TSC
# figure stands; --undisturbed leaves it out of the counter figures alone
cp -r "$T/pmc" "$T/pmcr"
R=$T/pmcr/alu/imul
printf '0\n64\n64\n0\n64\n0\n' > "$R/flags"
printf 'flagged_pmcreset: 3\n' >> "$R/info"
printf '130\n0\n0\n130\n0\n130\n' > "$R/core_cycles"
printf '220\n0\n0\n220\n0\n220\n' > "$R/core_cycles_long"
printf '40\n0\n0\n40\n0\n40\n' > "$R/instructions"
printf '70\n0\n0\n70\n0\n70\n' > "$R/instructions_long"
expect_exit undisturbed_leaves_rewritten_counters_out_of_the_counter_figures 0 \
	'^alu:imul  *3.000/op  *1.000/op  *-  *0.333$' -- "$CS" --undisturbed "$T/pmcr"
expect_ok undisturbed_says_what_the_counter_figures_are_over \
	grep -q '^- alu:imul: counter figures over 3 of 6 samples (--undisturbed; flags file), 3 with counters perf rewrote$' "$T/out"
"$CS" -f json --undisturbed "$T/pmcr" > "$T/pmcr.json"
expect_ok undisturbed_keeps_the_tsc_figure_of_a_rewritten_counter "$PY" -c "
import json, sys
fr = json.load(open(sys.argv[1]))['inputs'][0]['fragments'][0]
assert fr['raw']['n'] == 6, fr['raw']
assert fr['counters']['core_cycles']['median'] == 130, fr['counters']
" "$T/pmcr.json"
expect_exit rewritten_counters_are_said_without_undisturbed 0 \
	'alu:imul: the counter figures take as 0 the counters of 3 samples perf rewrote (flags 64)' -- "$CS" "$T/pmcr"
printf '64\n64\n64\n64\n64\n64\n' > "$R/flags"
expect_exit undisturbed_with_no_counted_sample_has_no_counter_figure 0 \
	'alu:imul: no counter figures: every sample.s counters are left out' -- "$CS" --undisturbed "$T/pmcr"
printf '70\n70\n' > "$P/instructions_long"
expect_exit counters_long_file_is_paired_with_cycles 2 'instructions_long: 2 lines, but cycles has 6' -- "$CS" "$T/pmc"

expect_exit v2_table_filters_by_glob 0 '^loop:dec_jnz/110 ' -- "$CS" "$DATA/tree2" 'loop:*'
expect_ok v2_filter_leaves_out_the_rest sh -c "! grep -q '^alu:' '$T/out' && grep -c '^loop:dec_jnz/' '$T/out' | grep -qx 18"
expect_exit v2_filter_by_group 0 '^mem:chase/4096 ' -- "$CS" "$DATA/tree2" mem
expect_exit v2_filter_matching_nothing_is_an_error 2 'no fragment matches nope:x' -- "$CS" "$DATA/tree2" nope:x
expect_exit v2_calibrated_units_are_said 0 'core cyc.: core cycles (calibrated)' -- "$CS" "$DATA/tree2" alu:add_dep
expect_exit v2_failed_fragment_is_flagged 0 '^sync:broken ~' -- "$CS" "$DATA/tree2"
"$CS" --tree "$DATA/tree2" -q save "$T/saved2"
expect_ok v2_save_copies_long_and_counter_files sh -c "cmp '$DATA/tree2/alu/add_dep/cycles_long' '$T/saved2/alu/add_dep/cycles_long' && cmp '$DATA/tree2/alu/add_dep/instructions' '$T/saved2/alu/add_dep/instructions' && cmp '$DATA/tree2/loop/dec_jnz/4/cycles' '$T/saved2/loop/dec_jnz/4/cycles' && test -f '$T/saved2/misc/gone/info'"
rm "$T/saved2/fragments"
"$CS" --format csv "$DATA/tree2" | cut -d, -f2- > "$T/v2a.csv"
"$CS" --format csv "$T/saved2" | cut -d, -f2- | sort > "$T/v2b.csv"
expect_ok v2_tree_without_fragments_file_is_walked_to_depth_3 sh -c "sort '$T/v2a.csv' | cmp - '$T/v2b.csv'"
cp -r "$DATA/tree2" "$T/short2"
head -n 50 "$DATA/tree2/alu/add_dep/cycles_long" > "$T/short2/alu/add_dep/cycles_long"
expect_exit v2_cycles_long_must_pair_with_cycles 2 'cycles_long: 50 lines, but cycles has 100' -- "$CS" "$T/short2"
expect_exit v2_resolution_table 0 '^ *4  *33  *40.0  .*  1$' -- "$CS" --sweep "$DATA/tree2" loop:dec_jnz
expect_ok v2_resolution_table_counts_spurious_minimums grep -q '^loop:dec_jnz: 1 spurious minimum in 20 ensemble steps' "$T/out"

# ---- compare: missing, aborted, mismatched ----
rm -rf "$T/gone2"; cp -r "$DATA/tree2" "$T/gone2"
rm -r "$T/gone2/mem"
sed -i '/^mem:chase/d' "$T/gone2/fragments"
expect_exit compare_missing_fragment_fails 1 '^mem:chase/4096 .* missing' -- "$CS" compare "$DATA/tree2" "$T/gone2"
expect_exit compare_allow_missing_passes 0 'missing' -- "$CS" compare --allow-missing "$DATA/tree2" "$T/gone2"
rm -rf "$T/ab2"; cp -r "$DATA/tree2" "$T/ab2"
sed -i 's/^state: ok/state: aborted/' "$T/ab2/alu/add_dep/info"
expect_exit compare_aborted_in_new_fails 1 '^alu:add_dep .* aborted' -- "$CS" compare "$DATA/tree2" "$T/ab2"
rm -rf "$T/lf2"; cp -r "$DATA/tree2" "$T/lf2"
sed -i 's/^method_used: paoloni/method_used: lfence/; s/^kernel: .*/kernel: 6.12.0-test/' "$T/lf2/info"
expect_exit compare_warns_about_a_different_method 0 "warning: method_used 'paoloni' in .* but 'lfence' in" -- "$CS" compare --allow-missing "$DATA/tree2" "$T/lf2"
expect_ok compare_warns_about_a_different_kernel grep -q "warning: kernel '6.1.0-test'" "$T/err"
expect_ok compare_mismatch_warning_names_both_trees grep -q "in $DATA/tree2 but 'lfence' in $T/lf2" "$T/err"
expect_exit compare_strict_refuses_mismatched_runs 2 "error: method_used .* (--strict)" -- "$CS" compare --strict "$DATA/tree2" "$T/lf2"
# the TSC is calibrated at each boot: 1 kHz apart is one clock, 1 % is not
rm -rf "$T/khz2"; cp -r "$DATA/tree2" "$T/khz2"
sed -i 's/^tsc_khz: 2000000/tsc_khz: 2000001/' "$T/khz2/info"
"$CS" compare --strict "$DATA/tree2" "$T/khz2" > "$T/out" 2> "$T/err"
expect_ok compare_tsc_khz_within_0.01pct_is_one_clock sh -c "! grep -q tsc_khz '$T/err'"
sed -i 's/^tsc_khz: 2000001/tsc_khz: 2020000/' "$T/khz2/info"
# (exit 1 as for the tree against itself: sync:broken failed in both)
expect_exit compare_tsc_khz_1pct_apart_is_not 1 "warning: tsc_khz '2000000' in .* but '2020000' in" -- "$CS" compare "$DATA/tree2" "$T/khz2"
rm -rf "$T/args2"; cp -r "$DATA/tree2" "$T/args2"
rm -r "$T/args2/loop/dec_jnz/4"
expect_exit compare_warns_about_a_different_argument_list 1 'argument list of loop:dec_jnz differs: 6 arguments in .*, 5 in' -- "$CS" compare "$DATA/tree2" "$T/args2"
expect_exit compare_typo_says_did_you_mean 2 "unknown command 'comapre' (did you mean compare?)" -- "$CS" comapre a b
expect_exit help_command_works 0 'usage: cyclestat' -- "$CS" help
expect_exit hist_with_gbench_is_an_error 2 'no histograms' -- "$CS" --hist --format gbench "$DATA/tree"
expect_exit threshold_outside_compare_is_an_error 2 '\-\-threshold is for compare only' -- "$CS" --threshold 5 "$DATA/tree"
for k in 1 2 3 4 5 6 7 8 9; do
	python3 "$here/tree2.py" gen "$T/rb$k" --seed $k
	python3 "$here/tree2.py" gen "$T/rn$k" --seed $((k + 10)) --scale 1.1
done
# eight runs a side: over the tree's eleven rows (Holm, issue 50) the
# smallest p of 6 v 6 runs, 2/924, does not pass 0.01/11; that of 8 v 8 does
expect_exit compare_runs_per_side_detects_a_10pct_slowdown 1 '^loop:de.*/110  *8/8 .* slower$' -- \
	"$CS" compare "$T"/rb[1-8] -- "$T"/rn[1-8]
expect_ok compare_runs_per_side_nothing_else_slower_or_faster sh -c "[ \$(grep -c ' slower\$' '$T/out') = 1 ] && ! grep -q ' faster\$' '$T/out'"
# several runs a side: the runs are the unit, even for setup: ensemble
expect_ok compare_several_runs_count_runs_not_ensembles grep -q '^mem:.*/4096  *8/8 ' "$T/out"
expect_ok compare_several_runs_say_nothing_of_ensembles sh -c "! grep -q 'cannot show the spread between runs' '$T/out'"
# one run a side: a fresh setup's ensembles stand in for runs, and it says so
"$CS" compare "$T/rb1" -- "$T/rn1" > "$T/out" 2>&1
expect_ok compare_one_run_setup_ensemble_counts_each_ensemble grep -q '^mem:.*/4096  *4/4 ' "$T/out"
expect_ok compare_says_ensembles_cannot_show_between_run_spread grep -q 'cannot show the spread between runs' "$T/out"

# ---- a run without a row: the runs that have it decide it, if they can; else incomplete, exit 2 ----
rm -rf "$T/rl5" "$T/bl5" "$T/ru5"
cp -r "$T/rn5" "$T/rl5"; rm -r "$T/rl5/loop/dec_jnz/110"
cp -r "$T/rb5" "$T/bl5"; rm -r "$T/bl5/loop/dec_jnz/110"
cp -r "$T/rn5" "$T/ru5"; sed -i '/^loop:dec_jnz\/110 /d' "$T/ru5/fragments"
expect_exit compare_one_new_run_without_the_row_is_incomplete_exit_2 2 '^loop:de.*/110  *5/4 .* incomplete' -- \
	"$CS" compare "$T"/rb[1-5] -- "$T"/rn[1-4] "$T/rl5" loop
expect_ok compare_incomplete_row_names_the_run_that_lacks_it grep -q "^cyclestat: error: $T/rl5: no result for loop:dec_jnz/110 (missing)" "$T/err"
expect_ok compare_incomplete_row_alone_is_incomplete sh -c "[ \$(grep -c ' incomplete (' '$T/out') = 1 ] && grep -q ', 1 incomplete\$' '$T/out'"
expect_exit compare_one_base_run_without_the_row_is_incomplete_too 2 '^loop:de.*/110  *4/5 .* incomplete' -- \
	"$CS" compare "$T"/rb[1-4] "$T/bl5" -- "$T"/rn[1-4] "$T/rn5" loop
expect_exit compare_tap_incomplete_row_is_not_ok 2 '^not ok [0-9]* - loop:dec_jnz/110 incomplete (NEW: 4 of 5 runs; need 5)' -- \
	"$CS" --format tap compare "$T"/rb[1-5] -- "$T"/rn[1-4] "$T/rl5" loop
expect_exit compare_json_counts_the_incomplete_row 2 '"incomplete": 1}' -- \
	"$CS" --format json compare "$T"/rb[1-5] -- "$T"/rn[1-4] "$T/rl5" loop
expect_exit compare_runs_that_have_the_row_decide_it 1 '^loop:de.*/110  *6/5 .* slower$' -- \
	"$CS" compare "$T"/rb[1-5] "$T/rb6" -- "$T"/rn[1-4] "$T/rl5" "$T/rn6" loop:dec_jnz/110
expect_ok compare_decided_row_names_the_run_that_lacks_it grep -q "^cyclestat: warning: $T/rl5: no result for loop:dec_jnz/110 (missing): its row compares the other runs, 6 v 5" "$T/err"
# a result directory the fragments file does not list: said, and not read
"$CS" "$T/ru5" > "$T/out" 2> "$T/err"
expect_ok unlisted_result_directory_is_said grep -q "^cyclestat: warning: $T/ru5/fragments does not list loop:dec_jnz/110, but it has a result directory there" "$T/err"
expect_exit strict_refuses_an_unlisted_result_directory 2 'error: .*fragments does not list loop:dec_jnz/110' -- "$CS" --strict "$T/ru5"
expect_exit compare_new_run_with_the_row_unlisted_is_incomplete 2 '^loop:de.*/110  *5/4 .* incomplete' -- \
	"$CS" compare "$T"/rb[1-5] -- "$T"/rn[1-4] "$T/ru5" loop
expect_ok compare_unlisted_row_names_the_run grep -q "^cyclestat: error: $T/ru5: no result for loop:dec_jnz/110 (unlisted)" "$T/err"
# --paired: a run without the row takes its pair out, never shifts the others
rm -rf "$T/bl2"; cp -r "$T/rb2" "$T/bl2"; rm -r "$T/bl2/loop/dec_jnz/110"
expect_exit compare_paired_drops_the_pair_of_a_run_without_the_row 1 '^loop:de.*/110  *8/8 .* slower$' -- \
	"$CS" --paired compare "$T"/rb[1-9] -- "$T"/rn[1-4] "$T/rl5" "$T/rn6" "$T/rn7" "$T/rn8" "$T/rn9" loop:dec_jnz/110
expect_exit compare_paired_too_few_whole_pairs_are_incomplete 2 '^loop:de.*/110  *7/7 .* incomplete' -- \
	"$CS" --paired compare "$T/rb1" "$T/bl2" "$T/rb3" "$T/rb4" "$T/rb5" "$T/rb6" "$T/rb7" "$T/rb8" "$T/rb9" -- "$T"/rn[1-4] "$T/rl5" "$T/rn6" "$T/rn7" "$T/rn8" "$T/rn9" loop:dec_jnz/110

# ---- from a BASE median of 0: the test and one clock step decide, not the 0 ----
# ztree DIR STEP NET: one run of base:empty (54 ticks) and g:zero (54 + NET
# ticks), ten samples each, on a clock that moves in steps of STEP
ztree() {
	mkdir -p "$1/base/empty" "$1/g/zero"
	printf 'version: 0.2.0\nkernel: 6.1.0-test\nmodel_name: Test CPU\ntsc_khz: 2000000\nhypervisor: no\nmethod_used: paoloni\nmode: kernel\nsamples: 10\nensembles: 1\ncpu: 0\ntsc_step: %s\n' "$2" > "$1/info"
	printf 'base:empty 1 test\ng:zero 1 test\n' > "$1/fragments"
	for f in base:empty:54 g:zero:$((54 + $3)); do
		d=$1/$(echo "$f" | cut -d: -f1)/$(echo "$f" | cut -d: -f2)
		awk -v v="${f##*:}" 'BEGIN { for (i = 0; i < 10; i++) print v }' > "$d/cycles"
		printf 'name: %s\nops: 1\nstate: ok\nrun_id: 1\nmethod: paoloni\nensembles: 1\nsamples: 10\ntsc_step: %s\n' "${f%:*}" "$2" > "$d/info"
	done
}
k=0
for net in 0 0 0 0 0; do k=$((k + 1)); ztree "$T/z0_$k" 27 $net; done
k=0
for net in 27 0 27 27 0; do k=$((k + 1)); ztree "$T/zn_$k" 27 $net; done
k=0
for net in 54 54 54 54 54; do k=$((k + 1)); ztree "$T/z2_$k" 27 $net; done
k=0
for net in 0 0 0 0 0; do k=$((k + 1)); ztree "$T/e0_$k" 1 $net; done
k=0
for net in 5 5 5 5 5; do k=$((k + 1)); ztree "$T/e5_$k" 1 $net; done
expect_exit compare_from_0_noise_within_one_step_is_not_slower 0 '^g:zero  *5/5 ' -- \
	"$CS" compare "$T"/z0_[1-5] -- "$T"/zn_[1-5]
expect_ok compare_from_0_noise_within_one_step_is_same grep -qE '^g:zero .* same$' "$T/out"
# (g:zero alone: two rows at 5 v 5 cannot reach p < 0.01 over both, the
# smallest p being 2/252; see compare_two_rows_at_five_runs_need_six)
expect_exit compare_from_0_two_steps_in_every_run_is_slower 1 '^g:zero  *5/5 .* slower$' -- \
	"$CS" compare "$T"/z0_[1-5] -- "$T"/z2_[1-5] g:zero
expect_exit compare_from_0_to_5_ticks_in_every_run_is_slower 1 '^g:zero  *5/5 .* slower$' -- \
	"$CS" compare "$T"/e0_[1-5] -- "$T"/e5_[1-5] g:zero
expect_exit compare_from_0_says_the_change_and_the_step 1 '"reason": "from 0: [+]5 [[][+]5, [+]5] ticks; a step is 1"' -- \
	"$CS" --format json compare "$T"/e0_[1-5] -- "$T"/e5_[1-5] g:zero
# Holm over the rows (issue 50): with base:empty beside it, g:zero's p of
# 2/252 is 0.016 over two rows; 5 v 5 runs never pass, 6 v 6 do (too few
# runs exits as gate.c says: 0, the row saying what it could not see)
expect_exit compare_two_rows_at_five_runs_need_six 0 '^g:zero  *5/5 .* need 6 runs$' -- \
	"$CS" compare "$T"/e0_[1-5] -- "$T"/e5_[1-5]
ztree "$T/e0_6" 1 0
ztree "$T/e5_6" 1 5
expect_exit compare_two_rows_at_six_runs_find_it 1 '^g:zero  *6/6 .* slower$' -- \
	"$CS" compare "$T"/e0_[1-6] -- "$T"/e5_[1-6]
expect_exit compare_from_0_one_run_a_side_is_not_enough 0 '^g:zero  *1/1 .* need 5 runs$' -- \
	"$CS" compare "$T/e0_1" -- "$T/e5_1"

# ---- inputs are never dropped in silence: said, or refused with --strict ----
expect_exit compare_new_path_that_does_not_exist_is_named 2 "'results-new' is no file or directory" -- \
	"$CS" compare "$DATA/tree2" results-new
expect_exit filter_word_that_selects_nothing_beside_one_that_does_is_an_error 2 'no fragment matches results-new, and no file or directory is named so' -- \
	"$CS" compare "$DATA/tree2" -- "$DATA/tree2" results-new alu
expect_exit summary_filter_word_that_selects_nothing_is_an_error 2 'no fragment matches results-new' -- \
	"$CS" "$DATA/tree2" results-new alu
expect_exit single_fragment_inputs_of_other_names_are_said 0 'holds alu:add_dep, but .*/loop/dec_jnz/4 holds loop:dec_jnz/4' -- \
	"$CS" compare "$DATA/tree2/alu/add_dep" "$DATA/tree2/loop/dec_jnz/4"
expect_exit strict_refuses_single_fragment_inputs_of_other_names 2 'error: .* holds loop:dec_jnz/4.*(--strict)' -- \
	"$CS" --strict compare "$DATA/tree2/alu/add_dep" "$DATA/tree2/loop/dec_jnz/4"
expect_ok two_cycles_files_are_paired_without_a_word sh -c "test -z \"\$('$CS' compare '$DATA/odd.cycles' '$DATA/even.cycles' 2>&1 >/dev/null)\""
rm -rf "$T/listed"; cp -r "$DATA/tree2" "$T/listed"; rm -r "$T/listed/mem"
expect_exit fragment_listed_but_missing_is_said 0 "warning: $T/listed/fragments lists mem:chase/4096, but it has no result directory" -- \
	"$CS" "$T/listed"
expect_exit strict_refuses_a_fragment_listed_but_missing 2 'error: .*lists mem:chase/4096' -- "$CS" --strict "$T/listed"
expect_exit compare_fragment_listed_but_missing_in_new_is_missing 1 '^mem:chase/4096 .* missing' -- \
	"$CS" compare "$DATA/tree2" "$T/listed"
expect_exit undisturbed_without_flags_is_said 0 'tree2: --undisturbed, but 11 of 11 results (base:empty, ...) have no flags file' -- \
	"$CS" --undisturbed "$DATA/tree2"
expect_exit strict_refuses_undisturbed_without_flags 2 'error: .*no flags file' -- "$CS" --strict --undisturbed "$DATA/tree2"
expect_exit alpha_0_is_refused 2 "--alpha: '0' must lie strictly between 0 and 1" -- \
	"$CS" -a 0 compare "$DATA/odd.cycles" "$DATA/odd.cycles"
for a in --frobnicate -x --format --hist=3; do
	expect_exit "getopt_error_starts_with_cyclestat ($a)" 2 '^cyclestat: ' -- "$CS" $a
	expect_ok "getopt_error_is_ours_alone ($a)" sh -c "! grep -v '^cyclestat: \|^usage: \|^       (cyclestat --help' '$T/err'"
done

# ---- a long region promised is a long region read; net figures say so ----
cp -r "$DATA/tree2" "$T/nolong"; rm "$T/nolong/alu/add_dep/cycles_long"
expect_exit missing_cycles_long_where_info_promises_it_is_an_error 2 \
	"$T/nolong/alu/add_dep/cycles_long: missing, but .*info says 'long_repeat: 8'" -- "$CS" "$T/nolong"
expect_exit brief_labels_a_net_figure_net 0 '^loop:dec_jnz_100  *2.024  2.019..2.029 net ' -- "$CS" --brief "$DATA/tree"
expect_ok brief_says_what_net_is grep -q '^net: no long region, (median - base:empty' "$T/out"
expect_ok brief_leaves_two_length_unmarked sh -c "! '$CS' --brief '$DATA/tree2' | grep -q '^alu:add_dep .* net '"

# ---- every interval says the level it has: 3 v 3 is min..max of 9 differences, 90 % ----
for v in 100 110 120 105 115 125; do printf '%s\n' $v > "$T/r$v.cycles"; done
expect_exit compare_3_v_3_table_labels_its_interval_90pct 0 'r100.cycles  *3/3 .*..+25.0% (90%) ' -- \
	"$CS" compare "$T/r100.cycles" "$T/r110.cycles" "$T/r120.cycles" -- "$T/r105.cycles" "$T/r115.cycles" "$T/r125.cycles"
expect_ok compare_says_what_a_lower_level_means grep -q "^(N%): that interval's level" "$T/out"
expect_exit compare_3_v_3_tap_labels_its_interval_90pct 0 '\] 90%, p=' -- \
	"$CS" --format tap compare "$T/r100.cycles" "$T/r110.cycles" "$T/r120.cycles" -- "$T/r105.cycles" "$T/r115.cycles" "$T/r125.cycles"
expect_exit compare_3_v_3_csv_has_the_level 0 ',0.9,,none$' -- \
	"$CS" --format csv compare "$T/r100.cycles" "$T/r110.cycles" "$T/r120.cycles" -- "$T/r105.cycles" "$T/r115.cycles" "$T/r125.cycles"

# ---- compare --ensembles: the per-op cost, as the table shows it, with its interval ----
# each sample: 1000 + noise in the short region, 1000 + 7 x 4 ops x cost in
# the long one (R 8); NEW's body costs 10 % more, its short region the same
persample() {
	mkdir -p "$1/alu/x"
	printf 'name: alu:x\nops: 4\nstate: ok\nensembles: 10\nsamples: 100\nrun_id: 1\nmethod: paoloni\nlong_repeat: 8\n' > "$1/alu/x/info"
	awk -v s="$2" 'BEGIN { srand(s); for (i = 0; i < 1000; i++) printf "%d\n", 1000 + int(rand() * 20) }' > "$1/alu/x/cycles"
	awk -v s="$2" -v c="$3" 'BEGIN { srand(s + 7); for (i = 0; i < 1000; i++) printf "%d\n", 1000 + 28 * c + int(rand() * 20) }' > "$1/alu/x/cycles_long"
}
persample "$T/ps-base" 1 10
persample "$T/ps-new" 2 11
expect_exit compare_ensembles_sees_a_10pct_per_op_change 1 '^alu:x  *10/10 .* slower$' -- \
	"$CS" compare --ensembles "$T/ps-base" "$T/ps-new"
expect_ok compare_prints_the_ratio_with_its_interval \
	grep -q '^alu:x: new is 1\.1[01]× slower than base (95% interval 1\.[01][0-9]×\.\.1\.1[0-9]×)$' "$T/out"
"$CS" --format json compare --ensembles "$T/ps-base" "$T/ps-new" > "$T/ps.json"
expect_ok compare_ensembles_compares_per_op_with_an_interval "$PY" -c "
import json, sys
f = json.load(open(sys.argv[1]))['fragments'][0]
assert f['basis'] == 'two-length' and f['repetitions'] == 'ensembles', f
assert 0.09 < f['change_lo'] < f['change'] < f['change_hi'] < 0.11, f
assert f['confidence'] >= 0.95 and abs(f['base_median'] - 40) < 0.2, f
" "$T/ps.json"
expect_exit compare_markdown_is_a_table_for_a_pull_request 1 '^| fragment | n | base | new | change | 95% interval | p | sees | verdict |$' -- \
	"$CS" --format markdown compare --ensembles "$T/ps-base" "$T/ps-new"
expect_ok compare_markdown_has_the_ratio grep -q '^- `alu:x`: new is \*\*1\.1[01]× slower\*\* than base' "$T/out"

# ---- JSON ----
"$CS" --format json --hist "$DATA/tree" > "$T/j.json"
expect_ok json_parses "$PY" -c "import json,sys; json.load(open(sys.argv[1]))" "$T/j.json"
expect_ok json_has_every_figure_and_the_info "$PY" -c "
import json, sys
d = json.load(open(sys.argv[1]))
fr = {f['name']: f for f in d['inputs'][0]['fragments']}
a = fr['alu:add_dep']
need = 'n min max mean median sd p1 p5 p25 p75 p95 p99 mad hsm far_outliers'.split()
assert all(k in a['raw'] for k in need), a['raw'].keys()
assert all(k in a['net'] for k in need) and all(k in a['net_per_op'] for k in need)
assert d['schema'] == 2
assert a['info']['ops'] == '4' and d['inputs'][0]['info']['tsc_khz'] == '2000000'
assert a['ensembles']['count'] == 4 and len(a['ensembles']['variance']) == 4
assert 'counts' in a['hist'] and d['inputs'][0]['overhead_median'] == 30.0
" "$T/j.json"
expect_ok json_flags_smi "$PY" -c "
import json, sys
fr = {f['name']: f for f in json.load(open(sys.argv[1]))['inputs'][0]['fragments']}
assert fr['alu:add_dep']['smi_occurred'] is True
assert fr['alu:add_dep']['smi'] == {'before': 5, 'after': 7}
assert fr['base:empty']['smi_occurred'] is False
assert fr['loop:dec_jnz_100']['smi'] is None
" "$T/j.json"
"$CS" --format json "$DATA/n1.cycles" > "$T/n1.json"
expect_ok json_sd_of_one_sample_is_null "$PY" -c "
import json, sys
assert json.load(open(sys.argv[1]))['inputs'][0]['fragments'][0]['raw']['sd'] is None
" "$T/n1.json"

# ---- CSV ----
"$CS" --format csv "$DATA/tree" "$DATA/odd.cycles" > "$T/c.csv"
expect_ok csv_has_the_documented_columns "$PY" -c "
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
want = ('input,fragment,ops,state,stale,smi,n,min,p1,p5,p25,median,p75,p95,p99,max,'
        'mean,sd,mad,hsm,far_outliers,overhead,net_median,net_mean,net_per_op_median,'
        'net_per_op_mean,ensembles,samples,total_variance,variance_of_variances,'
        'variance_of_mins,abs_max_dev,cost,cost_lo,cost_hi,cost_unit,cost_basis').split(',')
assert rows[0] == want, rows[0]
assert len(rows) == 5 and all(len(r) == len(want) for r in rows)
r = {x[1]: dict(zip(want, x)) for x in rows[1:]}
assert r['alu:add_dep']['smi'] == '1' and r['alu:add_dep']['overhead'] == '30'
" "$T/c.csv"

# ---- full precision for machines: a per-op cost of 0.00202 ticks ----
# base:empty 30 every sample; w:long 232 (net 202) over 100000 ops, and
# w:third 31 (net 1) over 3 ops: per-op 0.00202 and 1/3 exactly
mkdir -p "$T/prec/base/empty" "$T/prec/w/long" "$T/prec/w/third"
printf 'version: 0.1.0\ntsc_khz: 2000000\n' > "$T/prec/info"
for f in base/empty:1:30 w/long:100000:232 w/third:3:31; do
	d=${f%%:*} rest=${f#*:}
	printf 'name: %s\nops: %s\nstate: ok\nensembles: 2\nsamples: 3\nmethod: paoloni\n' \
		"$(echo "$d" | tr / :)" "${rest%%:*}" > "$T/prec/$d/info"
	printf '%s\n' "${rest#*:}" "${rest#*:}" "${rest#*:}" "${rest#*:}" "${rest#*:}" "${rest#*:}" \
		> "$T/prec/$d/cycles"
done
"$CS" --format json "$T/prec" > "$T/prec.json"
expect_ok json_per_op_reads_back_exactly "$PY" -c "
import json, sys
from fractions import Fraction
d = json.load(open(sys.argv[1]))
fr = {f['name']: f for f in d['inputs'][0]['fragments']}
lo, th = fr['w:long'], fr['w:third']
for k in ('median', 'mean', 'min', 'max', 'p1', 'p99', 'hsm'):
    assert lo['net_per_op'][k] == 0.00202, (k, lo['net_per_op'][k])
    assert th['net_per_op'][k] == float(Fraction(1, 3)), (k, th['net_per_op'][k])
assert lo['net']['median'] == 202 and lo['raw']['median'] == 232
assert lo['cost']['per_op']['value'] == 0.00202, lo['cost']
assert d['inputs'][0]['overhead_median'] == 30
" "$T/prec.json"
expect_ok json_per_op_is_the_shortest_text grep -q '"net_per_op": {[^}]*"median": 0.00202,' "$T/prec.json"
"$CS" --format csv "$T/prec" > "$T/prec.csv"
expect_ok csv_per_op_reads_back_exactly "$PY" -c "
import csv, sys
from fractions import Fraction
r = {x['fragment']: x for x in csv.DictReader(open(sys.argv[1]))}
assert float(r['w:long']['net_per_op_median']) == 0.00202, r['w:long']
assert r['w:long']['net_per_op_median'] == '0.00202', r['w:long']['net_per_op_median']
assert float(r['w:third']['net_per_op_mean']) == float(Fraction(1, 3)), r['w:third']
# the one per-op figure: the table's, with its unit and basis
assert r['w:long']['cost'] == '0.00202' and r['w:long']['cost_basis'] == 'net', r['w:long']
assert r['w:long']['cost_unit'] == 'ticks', r['w:long']
" "$T/prec.csv"
"$CS" --format gbench "$T/prec" > "$T/prec.gb.json" 2>/dev/null
expect_ok gbench_times_read_back_exactly "$PY" -c "
import json, sys
b = {x['name']: x for x in json.load(open(sys.argv[1]))['benchmarks']}
# the per-op cost net of base:empty: 0.00202 ticks at 2 GHz, 0.00101 ns
assert b['w:long']['ticks'] == 0.00202 and b['w:long']['real_time'] == 0.00101, b['w:long']
assert b['w:long']['basis'] == 'net', b['w:long']
" "$T/prec.gb.json"
"$CS" --format csv --hist "$DATA/lognormal.cycles" > "$T/h.csv"
expect_ok csv_hist_has_bins sh -c "head -1 '$T/h.csv' | grep -qx 'fragment,bin_lo,bin_hi,count' && [ \$(wc -l < '$T/h.csv') -gt 5 ]"

# ---- --brief: one short table (make run's) ----
expect_exit brief_is_one_short_table 0 '^alu:add_dep  *1\.004  - (< 6 ensembles)  ' -- "$CS" --brief "$DATA/tree2"
expect_ok brief_says_the_unit_and_where_the_rest_is sh -c \
	"grep -q 'per op in core cycles (calibrated), 95% interval' '$T/out' && grep -q 'all figures: cyclestat ' '$T/out' && ! grep -q '^ensembles' '$T/out'"
expect_ok brief_fits_in_80_columns sh -c "grep -v '$DATA' '$T/out' | awk 'length > 80 { exit 1 }'"
expect_exit brief_with_a_format_is_a_usage_error 2 'brief is the short table of a summary' -- "$CS" --brief --format json "$DATA/tree2"

# ---- the JSON schema: docs/cyclestat.schema.json, versioned, holds for every output ----
for x in tree tree2 memtree odd.cycles; do
	"$CS" --format json "$DATA/$x" > "$T/schema-$x.json" 2>/dev/null
done
"$CS" --format json --hist "$DATA/tree2" "$DATA/lognormal.cycles" > "$T/schema-hist.json" 2>/dev/null
expect_ok json_output_matches_the_versioned_schema "$PY" "$here/schema.py" "$here/../../../docs/cyclestat.schema.json" \
	"$T/schema-tree.json" "$T/schema-tree2.json" "$T/schema-memtree.json" "$T/schema-odd.cycles.json" "$T/schema-hist.json"
sed 's/"schema": 2/"schema": 1/' "$T/schema-tree.json" > "$T/schema-bad.json"
expect_ok json_schema_check_bites_on_another_version sh -c "! '$PY' '$here/schema.py' '$here/../../../docs/cyclestat.schema.json' '$T/schema-bad.json' >/dev/null"

# ---- Google Benchmark JSON ----
# a run is a repetition, and its time is the per-op cost (compare.py compares runs)
"$CS" --format gbench "$DATA/tree" > "$T/g.json"
"$CS" --format json "$DATA/tree" > "$T/g1.json"
expect_ok gbench_is_google_benchmark_json "$PY" -c "
import json, sys
d = json.load(open(sys.argv[1]))
c = d['context']
assert all(k in c for k in ('date', 'host_name', 'num_cpus', 'mhz_per_cpu', 'library_build_type'))
it = [b for b in d['benchmarks'] if b['run_type'] == 'iteration']
need = ('name', 'run_name', 'run_type', 'repetitions', 'repetition_index', 'threads',
        'iterations', 'real_time', 'cpu_time', 'time_unit')
assert all(k in b for b in it for k in need)
# one run: one repetition a fragment, no aggregates
assert len(it) == len({b['name'] for b in it}) and all(b['repetitions'] == 1 for b in it)
assert not [b for b in d['benchmarks'] if b['run_type'] == 'aggregate']
a = [b for b in it if b['name'] == 'alu:add_dep'][0]
# 2 GHz: ticks / 2 = ns
assert abs(a['real_time'] - a['ticks'] / 2) < 1e-12 * a['real_time'] and a['time_unit'] == 'ns'
" "$T/g.json"
expect_ok gbench_time_is_the_per_op_cost_not_the_raw_mean "$PY" -c "
import json, sys
g = {b['name']: b for b in json.load(open(sys.argv[1]))['benchmarks']}
j = {f['name']: f for f in json.load(open(sys.argv[2]))['inputs'][0]['fragments']}
for name, f in j.items():
    per_op = f['cost']['per_op']['value']
    assert abs(g[name]['ticks'] - per_op) <= 1e-12 * max(1, abs(per_op)), (name, g[name]['ticks'], per_op)
    assert g[name]['basis'] == f['cost']['basis'], name
" "$T/g.json" "$T/g1.json"

"$CS" --format gbench "$DATA/tree" "$DATA/tree" "$DATA/tree" "$DATA/odd.cycles" > "$T/g3.json" 2>/dev/null
expect_ok gbench_runs_are_repetitions_with_aggregates_over_them "$PY" -c "
import json, sys, statistics
d = json.load(open(sys.argv[1]))
it = [b for b in d['benchmarks'] if b['run_type'] == 'iteration']
a = [b for b in it if b['name'] == 'alu:add_dep']
assert [b['repetition_index'] for b in a] == [0, 1, 2] and all(b['repetitions'] == 3 for b in a), a
for name in {b['run_name'] for b in d['benchmarks']}:
    reps = [b['ticks'] for b in it if b['run_name'] == name]
    agg = {b['aggregate_name']: b['ticks'] for b in d['benchmarks']
           if b['run_name'] == name and b['run_type'] == 'aggregate'}
    if len(reps) < 2:
        assert not agg, name
        continue
    for k, want in (('mean', statistics.mean(reps)), ('median', statistics.median(reps)),
                    ('stddev', statistics.stdev(reps))):
        assert abs(agg[k] - want) <= 1e-6 * max(1, abs(want)), (name, k, agg[k], want)
odd = [b for b in it if b['repetitions'] == 1]
assert odd and all(b['time_unit'] == 'ticks' and b['real_time'] == b['ticks'] for b in odd), odd
" "$T/g3.json"

# ---- save ----
"$CS" --tree "$DATA/tree" -q save "$T/saved"
expect_ok save_copies_cycles_and_info sh -c "cmp '$DATA/tree/alu/add_dep/cycles' '$T/saved/alu/add_dep/cycles' && cmp '$DATA/tree/alu/add_dep/info' '$T/saved/alu/add_dep/info' && cmp '$DATA/tree/info' '$T/saved/info'"
"$CS" --format csv "$DATA/tree" | cut -d, -f2- > "$T/a.csv"
"$CS" --format csv "$T/saved" | cut -d, -f2- > "$T/b.csv"
expect_ok saved_tree_reads_like_the_original cmp "$T/a.csv" "$T/b.csv"
expect_exit save_checks_what_it_copied 2 'truncated' -- "$CS" --tree "$T/trunc" save "$T/saved-trunc"
mkdir -p "$T/bigtree2/g/f"
seq 1 3000000 > "$T/bigtree2/g/f/cycles"
printf 'name: g:f\nops: 1\nstate: ok\nensembles: 30\nsamples: 100000\n' > "$T/bigtree2/g/f/info"
case $CS in
*-san) ;;
*)	# 3 million samples would need 24 MB to load; save streams them
	expect_exit save_checks_in_constant_memory 0 'saved 1 fragment' -- \
		sh -c "ulimit -v 30000; exec '$CS' --tree '$T/bigtree2' save '$T/saved-big'"
	;;
esac
expect_exit save_from_a_missing_tree_fails 2 'cyclestat: ' -- "$CS" --tree "$T/nowhere" save "$T/s2"

# ---- compare ----
expect_exit compare_one_run_per_side_is_not_enough 0 '^alu:add_dep  *1/1 .* need 5 runs$' -- "$CS" compare "$DATA/tree" "$T/saved"
"$CS" --format json compare "$DATA/tree" "$T/saved" > "$T/one.json"
expect_ok compare_one_run_says_not_enough_runs_1_need_5 "$PY" -c "
import json, sys
f = json.load(open(sys.argv[1]))['fragments']
assert all(x['verdict'] == 'not enough runs' and x['reason'] == '1, need 5' for x in f), f
" "$T/one.json"
expect_exit compare_same_is_exit_0 0 '0 slower, 0 faster, 1 same, 0 inconclusive, 2 too few runs' -- "$CS" compare --ensembles "$DATA/tree" "$T/saved"
cp -r "$DATA/tree" "$T/slow"
awk '{ printf "%d\n", $1 * 1.3 }' "$DATA/tree/loop/dec_jnz_100/cycles" > "$T/slow/loop/dec_jnz_100/cycles"
expect_exit compare_regression_is_exit_1 1 '^loop:dec_jnz_.* 5/5 .* slower$' -- "$CS" compare --ensembles "$DATA/tree" "$T/slow"
expect_ok compare_names_only_the_slower_fragment sh -c "[ \$(grep -c 'slower\$' '$T/out') = 1 ] && grep -q '1 slower, 0 faster, 0 same, 0 inconclusive, 2 too few' '$T/out'"
expect_exit compare_improvement_is_exit_0 0 '^loop:dec_jnz_.* faster$' -- "$CS" compare --ensembles "$T/slow" "$DATA/tree"
expect_exit compare_threshold_absorbs_small_changes 0 '0 slower' -- "$CS" compare --threshold 40 "$DATA/tree" "$T/slow"
"$CS" compare --ensembles --format json "$DATA/tree" "$T/slow" > "$T/cmp.json"
expect_ok compare_json_has_per_fragment_verdicts "$PY" -c "
import json, sys
d = json.load(open(sys.argv[1]))
f = {x['name']: x for x in d['fragments']}
assert set(f) == {'base:empty', 'alu:add_dep', 'loop:dec_jnz_100'}
x = f['loop:dec_jnz_100']
assert x['verdict'] == 'slower' and x['p_value'] < 0.01 and x['change'] > 0.25
assert all(k in x for k in ('base_median', 'new_median', 'change', 'p_value', 'verdict'))
assert x['base_n'] == 5 and x['change_lo'] > 0.25 and x['test'] == 'exact' and x['repetitions'] == 'ensembles'
assert f['alu:add_dep']['verdict'] == 'not enough runs' and f['alu:add_dep']['reason'] == '4, need 5'
assert d['slower'] == 1 and d['schema'] == 2
" "$T/cmp.json"
expect_exit compare_two_files_pairs_them 0 'ties.cycles  *1/1 .*need 5 runs' -- "$CS" compare "$DATA/ties.cycles" "$DATA/ties.cycles"
expect_exit compare_bad_input_is_exit_2 2 "$T/word:2" -- "$CS" compare "$DATA/odd.cycles" "$T/word"
expect_exit compare_paired_unequal_sides_fail 1 '1 missing or unpaired' -- \
	"$CS" --paired compare "$DATA/odd.cycles" "$DATA/odd.cycles" -- "$DATA/odd.cycles"
expect_exit paired_is_for_compare_only 2 '--paired is for compare only' -- "$CS" --paired "$DATA/odd.cycles"

# ---- run, against a directory where a shell loop plays the module ----
cp -r "$DATA/tree" "$T/live"
mkfifo "$T/live/run"
echo idle > "$T/live/status"
(
	# like the module: busy while the write is pending, results, then idle
	echo "running alu:add_dep 0/200" > "$T/live/status"
	read -r req < "$T/live/run"
	echo "$req" > "$T/request"
	echo "running alu:add_dep 100/200" > "$T/live/status"
	sleep 0.3
	echo idle > "$T/live/status"
) &
fake=$!
expect_exit run_prints_the_summary_of_the_selection 0 '^alu:add_dep' -- "$CS" --tree "$T/live" run alu samples=50 ensembles=4 interleave=1 pmu=off
expect_ok run_writes_the_request_with_the_references sh -c "grep -qx 'alu,base:empty,calib:add_chain,calib:imul_chain samples=50 ensembles=4 interleave=1 pmu=off' '$T/request'"
expect_ok run_shows_only_the_selection sh -c "! grep -q '^loop:' '$T/out' && grep -q '^alu:add_dep .* net ' '$T/out'"
expect_ok run_without_a_tty_shows_no_progress sh -c "! grep -q '%' '$T/err'"
if command -v script > /dev/null; then
	(
		echo "running alu:add_dep 0/200" > "$T/live/status"
		read -r req < "$T/live/run"
		# stay running until the bar is on the terminal (at most 20 s): a
		# fixed half second was missed once by a starved cyclestat in CI.
		# mv, not >, so no read ever sees the file truncated.
		i=1
		while [ $i -le 200 ] && ! grep -q '\] *[0-9]*% alu:add_dep' "$T/out"; do
			echo "running alu:add_dep $i/200" > "$T/live/status.new"
			mv "$T/live/status.new" "$T/live/status"
			sleep 0.1
			i=$((i + 1))
		done
		echo idle > "$T/live/status"
	) &
	fake=$!
	# script(1) gives cyclestat a terminal: now the progress bar shows
	expect_exit run_on_a_tty_shows_progress 0 '\] *[0-9]*% alu:add_dep' -- \
		script -qec "'$CS' --tree '$T/live' run alu" /dev/null
fi
# NO_COLOR (no-color.org): set and non-empty turns colour off on a terminal;
# empty, it does not
if command -v script > /dev/null; then
	esc=$(printf '\033\\[1m')
	NO_COLOR=1 script -qec "'$CS' '$DATA/tree2'" /dev/null > "$T/nc1" 2>&1
	NO_COLOR= script -qec "'$CS' '$DATA/tree2'" /dev/null > "$T/nc0" 2>&1
	expect_ok no_color_set_turns_colour_off sh -c "! grep -q '$esc' '$T/nc1'"
	expect_ok no_color_empty_keeps_colour grep -q "$esc" "$T/nc0"
fi
# 'all' leaves out fragments marked slow, as the module does
printf 'slow: yes\n' >> "$T/live/loop/dec_jnz_100/info"
( read -r req < "$T/live/run"; echo idle > "$T/live/status" ) &
fake=$!
expect_exit run_all_leaves_out_slow_fragments 0 '^alu:add_dep' -- "$CS" --tree "$T/live" run all
# (the status said idle already: the fake may still hold the FIFO, and
# the next fake must not share it)
wait "$fake"
expect_ok run_all_shows_no_slow_fragment sh -c "! grep -q '^loop:' '$T/out'"
expect_exit run_rejects_unknown_keys 2 "unknown key in 'bogus=1'" -- "$CS" --tree "$T/live" run alu bogus=1
( read -r req < "$T/live/run"; echo "$req" > "$T/request"; echo idle > "$T/live/status" ) &
fake=$!
"$CS" --tree "$T/live" run alu:add_dep references=0 samples=10 > /dev/null 2>&1
# (the fake's status still says idle from the run before: cyclestat may
# return before the fake has written down the request; wait for it)
wait "$fake"
expect_ok run_references_0_writes_the_selection_alone sh -c "grep -qx 'alu:add_dep samples=10' '$T/request'"
( read -r req < "$T/live/run"; echo "$req" > "$T/request"; echo idle > "$T/live/status" ) &
fake=$!
"$CS" --tree "$T/live" run all > /dev/null 2>&1
wait "$fake"
expect_ok run_all_has_the_references_already sh -c "grep -qx 'all' '$T/request'"
expect_exit run_references_is_0_or_1 2 "references=2: 0 or 1" -- "$CS" --tree "$T/live" run alu references=2
expect_exit run_without_a_tree_fails 2 'cyclestat: ' -- "$CS" --tree "$T/nowhere" run all
expect_exit no_live_tree_says_how_to_get_one_or_read_a_saved_run 2 "/sys/kernel/debug/cyclebench-no-such-tree: .*; or read a saved run: cyclestat build/results" -- "$CS" --tree /sys/kernel/debug/cyclebench-no-such-tree

# ---- doctor, against a fake sysroot ----
mk_root() {
	r=$1
	mkdir -p "$r/proc/sys/kernel" "$r/sys/devices/system/cpu/cpufreq/policy0" "$r/sys/devices/system/cpu/cpu0" \
		"$r/sys/devices/system/cpu/cpu1" "$r/sys/devices/system/cpu/smt" \
		"$r/sys/devices/system/cpu/intel_pstate" "$r/dev/cpu/1"
	printf 'processor\t: 0\nflags\t\t: fpu tsc rdtscp constant_tsc nonstop_tsc%s\n\nprocessor\t: 1\nflags\t\t: fpu tsc rdtscp constant_tsc nonstop_tsc%s\n' "$2" "$2" > "$r/proc/cpuinfo"
	echo 0-1 > "$r/sys/devices/system/cpu/online"
}
mk_root "$T/bad" " hypervisor"
echo powersave > "$T/bad/sys/devices/system/cpu/cpufreq/policy0/scaling_governor"
echo on > "$T/bad/sys/devices/system/cpu/smt/control"
echo 0 > "$T/bad/sys/devices/system/cpu/intel_pstate/no_turbo"
echo 1 > "$T/bad/proc/sys/kernel/nmi_watchdog"
echo > "$T/bad/sys/devices/system/cpu/isolated"
expect_exit doctor_lists_problems_and_exits_0 0 '6 problems, 4 of them fixed by scripts/prepare-host.sh' -- "$CS" doctor --sysroot "$T/bad"
expect_ok doctor_problem_lines_say_the_fix sh -c "grep '^WARN' '$T/out' | grep -v -q 'fix:' && exit 1; [ \$(grep -c '^WARN' '$T/out') = 6 ]"
expect_ok doctor_recommends_lfence_under_a_hypervisor grep -q 'hypervisor.*method=lfence' "$T/out"
expect_ok doctor_sees_the_governor grep -q "governor policy0 is 'powersave'" "$T/out"
expect_ok doctor_fixes_a_knob_as_prepare_host_sets_it grep -q "fix: echo off | sudo tee /sys/devices/system/cpu/smt/control" "$T/out"
expect_ok doctor_notes_a_knob_absent grep -q "^note  no boost: the driver has no boost switch" "$T/out"
expect_exit doctor_strict_exits_1 1 'problems' -- "$CS" doctor --strict --sysroot "$T/bad"
mk_root "$T/good" ""
echo performance > "$T/good/sys/devices/system/cpu/cpufreq/policy0/scaling_governor"
echo notsupported > "$T/good/sys/devices/system/cpu/smt/control"
echo 1 > "$T/good/sys/devices/system/cpu/intel_pstate/no_turbo"
echo 0 > "$T/good/proc/sys/kernel/nmi_watchdog"
echo 1 > "$T/good/sys/devices/system/cpu/isolated"
echo 1 > "$T/good/sys/devices/system/cpu/nohz_full"
# MSR 0x34 = 17 at offset 0x34 of the fake msr device
"$PY" -c "import struct,sys; open(sys.argv[1],'wb').write(b'\0'*0x34 + struct.pack('<Q', 17))" "$T/good/dev/cpu/1/msr"
expect_exit doctor_of_a_good_machine_has_no_problems 0 'no problems' -- env CYCLESTAT_SYSROOT="$T/good" "$CS" doctor --strict --cpu 1
expect_ok doctor_reads_the_smi_count grep -q 'SMI count 17' "$T/out"
cp -r "$T/good" "$T/vm"
sed -i 's/nonstop_tsc$/nonstop_tsc hypervisor/' "$T/vm/proc/cpuinfo"
expect_exit doctor_says_when_prepare_host_fixes_none_of_them 0 \
	'^1 problem, none of them a knob scripts/prepare-host.sh sets' -- "$CS" doctor --sysroot "$T/vm" --cpu 1
# no RDTSCP: LFENCE; RDTSC where LFENCE orders RDTSC, else cpuid-nordtscp
# (AMD with DE_CFG bit 1 clear, MSR 0xc0011029, sparse in the fake msr file)
cp -r "$T/good" "$T/amd"
sed -i 's/ rdtscp//; s/^processor.*/&\nvendor_id\t: AuthenticAMD\ncpu family\t: 25/' "$T/amd/proc/cpuinfo"
de_cfg() {
	"$PY" -c "import struct,sys; f=open(sys.argv[1],'r+b'); f.seek(0xc0011029); f.write(struct.pack('<Q', int(sys.argv[2])))" \
		"$T/amd/dev/cpu/1/msr" "$1"
}
de_cfg 0
expect_exit doctor_names_cpuid_nordtscp_where_lfence_does_not_order_rdtsc 0 \
	'no RDTSCP, and LFENCE does not order RDTSC here (AMD, DE_CFG bit 1 clear): .*cpuid-nordtscp (CPUID; RDTSC ... CPUID; RDTSC; CPUID)' -- \
	"$CS" doctor --sysroot "$T/amd" --cpu 1
de_cfg 2
expect_exit doctor_names_paoloni_nordtscp_where_lfence_orders_rdtsc 0 \
	'no RDTSCP: LFENCE orders RDTSC here (AMD, DE_CFG bit 1 set), .*paoloni-nordtscp' -- \
	"$CS" doctor --sysroot "$T/amd" --cpu 1
expect_exit doctor_takes_an_unreadable_de_cfg_as_the_module_does 0 \
	'no RDTSCP: .* else with CPUID (cpuid-nordtscp.*DE_CFG bit 1 decides, which is unreadable here' -- \
	"$CS" doctor --sysroot "$T/amd" --cpu 0
expect_exit doctor_rejects_an_offline_cpu 2 'cpu 7 is not online (online: 0-1)' -- "$CS" doctor --sysroot "$T/good" --cpu 7
expect_exit doctor_runs_on_this_machine 0 'cyclestat doctor: cpu0' -- "$CS" doctor

# ---- plot: the summary drawn as SVG, each series countable ----
# svg_series FILE NAME: the number of points (or bins, or cells) of series NAME
svg_series() {
	"$PY" -c "
import sys, xml.etree.ElementTree as E
ns = '{http://www.w3.org/2000/svg}'
root = E.parse(sys.argv[1]).getroot()
assert root.tag == ns + 'svg', root.tag
g = [e for e in root.iter(ns + 'g') if e.get('data-name') == sys.argv[2]]
print(sum(1 for e in g[0] if e.get('class') in ('point', 'bin', 'cell')) if g else -1)
" "$1" "$2"
}
expect_exit plot_writes_svg 0 '' -- "$CS" plot "$DATA/tree2"
cp "$T/out" "$T/p.svg"
expect_ok plot_draws_the_sweep_as_a_staircase_of_its_six_arguments \
	test "$(svg_series "$T/p.svg" loop:dec_jnz)" = 6
expect_exit plot_draws_the_sweep_points_with_their_arguments 0 'loop:dec_jnz/110: ' -- cat "$T/p.svg"
expect_ok plot_puts_the_rest_in_one_costs_panel test "$(svg_series "$T/p.svg" costs)" -ge 3
# the costs are in the unit the axis names: core cycles where calibrated,
# as the table says (they were ticks under a core-cycles label)
svg_cost=$(sed -n 's/.*<title>alu:add_dep: \([^ ]*\) .*/\1/p' "$T/p.svg")
csv_cost=$("$CS" --format csv "$DATA/tree2" alu:add_dep | awk -F, 'NR == 2 { printf "%.4g", $33 }')
expect_ok plot_costs_are_the_tables_figures_in_core_cycles test "$svg_cost" = "$csv_cost" -a -n "$csv_cost"
expect_exit format_svg_is_plot 0 '' -- "$CS" --format svg "$DATA/tree2"
expect_ok format_svg_is_the_same_document cmp -s "$T/out" "$T/p.svg"
expect_exit plot_hist_draws_the_bins 0 '' -- "$CS" --hist plot "$DATA/tree2" alu:add_dep
cp "$T/out" "$T/h.svg"
expect_ok plot_hist_has_a_bin_series test "$(svg_series "$T/h.svg" alu:add_dep)" -ge 2
# c2c: a tree of cyclebench-user --c2c results is a heat map, a cell each way
mkdir -p "$T/c2c/c2c/cpu0_cpu1"
printf 'version: 0.2.0\ntsc_khz: 2600000\n' > "$T/c2c/info"
printf 'c2c:cpu0_cpu1 2 a round trip\n' > "$T/c2c/fragments"
printf 'name: c2c:cpu0_cpu1\nops: 2\nstate: ok\nensembles: 1\nsamples: 5\n' > "$T/c2c/c2c/cpu0_cpu1/info"
printf '500\n520\n510\n505\n515\n' > "$T/c2c/c2c/cpu0_cpu1/cycles"
expect_exit plot_c2c_writes_svg 0 '' -- "$CS" plot "$T/c2c"
cp "$T/out" "$T/c.svg"
expect_ok plot_c2c_is_a_heat_map_of_two_cells test "$(svg_series "$T/c.svg" c2c)" = 2
expect_exit plot_with_compare_is_refused 2 'draws a summary: not with compare' -- "$CS" --format svg compare "$DATA/tree2" "$DATA/tree2"
expect_exit plot_with_another_format_is_refused 2 'plot draws SVG: no --format with it' -- "$CS" --format json plot "$DATA/tree2"

# ---- a sweep=cpus directory: tests/sweep.py's known costs per op ----
# contend:shared 8 x k core cycles on every CPU; contend:private 4, but 8
# on cpu3 at k = 4 (the one to flag); 0.75 ticks per core cycle
"$PY" "$here/sweep.py" gen "$T/sweep"
# csv_cost K CPU NAME: the cost to 2 decimals, and whether it is flagged
sweep_row() {
	"$CS" --format csv "$T/sweep" "$3" | awk -F, -v k="$1" -v c="$2" '$3 == k && $4 == c { printf "%.2f %s", $5, $9 }'
}
expect_exit sweep_prints_a_row_per_k 0 '^contend:shared  *1  7\.989 \[7\.917, 8\.06\]' -- "$CS" "$T/sweep"
expect_ok sweep_has_every_k_of_every_fragment test "$(grep -cE '^ +(2|4)  ' "$T/out")" = 6
expect_ok sweep_pooled_costs_are_the_known_ones_in_core_cycles \
	test "$(sweep_row 1 all contend:shared)|$(sweep_row 2 all contend:shared)|$(sweep_row 4 all contend:shared)" = \
	"7.99 |16.01 |31.96 "
expect_ok sweep_each_cpu_has_its_own_figure \
	test "$(sweep_row 4 3 contend:private)|$(sweep_row 4 0 contend:private)" = "8.01 yes|4.02 no"
expect_ok sweep_pooled_is_the_mean_over_the_cpus test "$(sweep_row 4 all contend:private)" = "5.00 "
expect_ok sweep_flags_only_the_cpu_apart \
	test "$("$CS" --format csv "$T/sweep" | grep -c ',yes$')" = 1
expect_exit sweep_names_the_cpu_apart_and_how_many_it_is_apart_from 0 \
	"contend:private k=4: cpu3's 8.005 \\[7.924, 8.087\\] lies apart from 3 of the 3 other CPUs'" -- "$CS" "$T/sweep"
# the hint names only causes the machine has (its topology in /sys)
mk_topo() {
	for c in 0 1 2 3; do
		mkdir -p "$1/sys/devices/system/cpu/cpu$c/topology"
		echo "$2" | awk -v c=$c '{ print ($1 == "smt") ? int(c / 2) * 2 "-" int(c / 2) * 2 + 1 : c }' \
			> "$1/sys/devices/system/cpu/cpu$c/topology/thread_siblings_list"
		echo "$2" | awk -v c=$c '{ print ($2 == "2pkg") ? int(c / 2) : 0 }' \
			> "$1/sys/devices/system/cpu/cpu$c/topology/physical_package_id"
	done
}
mk_topo "$T/topo-flat" "nosmt 1pkg"
mk_topo "$T/topo-smt" "smt 2pkg"
expect_exit sweep_hint_on_a_machine_without_smt_names_no_sibling 0 'it has no SMT siblings' -- \
	env CYCLESTAT_SYSROOT="$T/topo-flat" "$CS" "$T/sweep"
expect_ok sweep_hint_without_smt_says_no_sibling_is_a_cause sh -c "! grep -q 'SMT siblings among\\|an SMT sibling' '$T/out'"
expect_exit sweep_hint_names_smt_siblings_and_packages_where_there_are 0 'SMT siblings among these CPUs, CPUs in' -- \
	env CYCLESTAT_SYSROOT="$T/topo-smt" "$CS" "$T/sweep"
expect_ok sweep_hint_names_different_packages grep -q 'different packages' "$T/out"
expect_exit sweep_a_filter_that_matches_nothing_is_an_error 2 'no fragment matches nosuch:x' -- \
	"$CS" "$T/sweep" nosuch:x
expect_exit sweep_csv_runs 0 '' -- "$CS" --format csv "$T/sweep"
expect_ok sweep_csv_rows_have_nine_fields awk -F, 'NF != 9 { exit 1 }' "$T/out"
expect_exit sweep_plot_draws_the_curve 0 '' -- "$CS" plot "$T/sweep" contend
cp "$T/out" "$T/sw.svg"
expect_ok sweep_plot_has_a_point_per_k test "$(svg_series "$T/sw.svg" contend:shared)" = 3
expect_exit sweep_plot_points_are_pooled 0 'contend:private, k=4: 5.001 \[' -- cat "$T/sw.svg"
expect_exit sweep_as_json_is_refused 2 'is a sweep=cpus directory: it prints as a table, --format csv or svg' -- \
	"$CS" --format json "$T/sweep"
expect_exit sweep_beside_a_tree_is_refused 2 'summarize it by itself' -- "$CS" "$T/sweep" "$DATA/tree2"
expect_exit sweep_one_step_reads_as_a_tree 0 'contend:shared' -- "$CS" "$T/sweep/k4"
# save: a cpus= tree's cpuN/ goes with it, for the CPUs its info names
expect_exit save_copies_each_cpus_arrays 0 '' -- "$CS" --tree "$T/sweep/k4" save "$T/saved-k4"
expect_ok save_copies_each_cpus_arrays_whole \
	cmp "$T/sweep/k4/contend/private/cpu3/cycles" "$T/saved-k4/contend/private/cpu3/cycles"
expect_ok save_copies_each_cpus_long_arrays \
	cmp "$T/sweep/k4/contend/shared/cpu1/cycles_long" "$T/saved-k4/contend/shared/cpu1/cycles_long"
# the module writes each CPU's flags as well (cpu0's are the result's own)
cp -r "$T/sweep/k4" "$T/mod-k4"
awk '{ print (NR % 7 == 0) ? 32 : 0 }' "$T/mod-k4/contend/shared/cpu2/cycles" > "$T/mod-k4/contend/shared/cpu2/flags"
for c in 0 1 3; do sed 's/.*/0/' "$T/mod-k4/contend/shared/cpu$c/cycles" > "$T/mod-k4/contend/shared/cpu$c/flags"; done
cp "$T/mod-k4/contend/shared/cpu0/flags" "$T/mod-k4/contend/shared/flags"
"$CS" --tree "$T/mod-k4" -q save "$T/saved-mod-k4" 2> /dev/null
expect_ok save_copies_each_cpus_flags \
	cmp "$T/mod-k4/contend/shared/cpu2/flags" "$T/saved-mod-k4/contend/shared/cpu2/flags"
cp -r "$T/sweep/k4" "$T/bad-k4"
sed -i 's|^cpus: .*|cpus: 0,../../x|' "$T/bad-k4/contend/shared/info"
expect_exit save_refuses_a_cpu_list_that_is_not_one 2 "cpus: '0,../../x' is not a comma-separated list of CPU numbers" -- \
	"$CS" --tree "$T/bad-k4" save "$T/saved-bad"
expect_ok save_of_a_bad_cpu_list_writes_nothing_outside test ! -e "$T/saved-bad/x"
cp "$T/sweep/k2/info" "$T/k2info"
sed -i 's/^cpus: .*/cpus: 0,,x/' "$T/sweep/k2/info"
expect_exit sweep_with_a_damaged_cpu_list_names_it 2 "sweep/k2: info's cpus: '0,,x' is not 2 distinct CPUs below 64" -- \
	"$CS" "$T/sweep"
sed -i 's/^cpus: .*/cpus: 1,1/' "$T/sweep/k2/info"
expect_exit sweep_with_a_cpu_twice_names_it 2 "cpus: '1,1' is not 2 distinct CPUs" -- "$CS" "$T/sweep"
cp "$T/k2info" "$T/sweep/k2/info"
rm -r "$T/sweep/k2"
expect_exit sweep_without_a_step_names_it 2 "sweep/k2: missing: .*sweep/info names step k=2" -- "$CS" "$T/sweep"
sed -i 's/^sweep: cpus/sweep: args/' "$T/sweep/info"
expect_exit sweep_of_another_kind_is_refused 2 "this cyclestat reads sweep=cpus" -- "$CS" "$T/sweep"

# ---- two inputs and compare, as ministat, hyperfine and compare.py print them ----
expect_exit two_inputs_print_ministats_difference 0 '^  Difference at 95% confidence$' -- \
	"$CS" "$DATA/odd.cycles" "$DATA/n2.cycles"
# n2 (10, 13) against odd (1..9): 6.5 +/- t(5) 2.571 x s 2.983 x sqrt(1/5 + 1/2)
expect_ok two_inputs_difference_is_students_t_over_the_pooled_sd grep -q '^    +6.5 +/- 6.416 ticks$' "$T/out"
expect_exit two_inputs_without_a_proven_difference_say_so 0 '^  No difference proven at 95% confidence' -- \
	"$CS" "$DATA/odd.cycles" "$DATA/even.cycles"
expect_exit one_input_prints_no_difference 0 '' -- "$CS" "$DATA/odd.cycles"
expect_ok one_input_prints_no_difference_line sh -c "! grep -q 'confidence' '$T/out'"
# a '|' in a name would end the cell: summary and compare write it alike
cp "$DATA/odd.cycles" "$T/a|b.cycles"
expect_exit summary_markdown_keeps_a_pipe_in_its_cell 0 '^| `[^|]*a¦b.cycles` | 5.000 |' -- \
	"$CS" --format markdown "$T/a|b.cycles"
expect_exit compare_markdown_keeps_a_pipe_in_its_cell 0 '^| `[^|]*a¦b.cycles` | 1/1 |' -- \
	"$CS" --format markdown compare "$T/a|b.cycles" "$T/a|b.cycles"
expect_exit summary_markdown_is_a_table 0 '^| `alu:add_dep` | 1.250 | 1.250..1.250 | net | ticks | 35.0 | 46/200 |$' -- \
	"$CS" --format markdown "$DATA/tree"
expect_exit summary_markdown_of_two_inputs_has_the_difference 0 'tree2 against .*tree: \*\*Difference at 95% confidence\*\*' -- \
	"$CS" --format markdown "$DATA/tree" "$DATA/tree2"
expect_exit markdown_with_doctor_is_refused 2 'markdown is for a summary or compare' -- "$CS" --format markdown doctor

# ---- costs that are no number of their own: never printed negative ----
# base:empty 30; w:zero 29..31 (net holds 0); w:neg 25..26 (net below 0,
# below the TSC step of 1 over 10 ops); w:big 10^9 (whole, no exponent)
mkdir -p "$T/negcost/base/empty" "$T/negcost/w/zero" "$T/negcost/w/neg" "$T/negcost/w/big"
printf 'version: 0.2.0\nmode: kernel\ntsc_khz: 2000000\nmethod_used: paoloni\n' > "$T/negcost/info"
for f in base:empty w:zero w:neg w:big; do
	printf 'name: %s\nops: 10\nstate: ok\nrun_id: 1\nensembles: 4\nsamples: 3\nmethod: paoloni\n' "$f" \
		> "$T/negcost/$(echo $f | tr : /)/info"
done
printf '30\n30\n30\n30\n30\n30\n30\n30\n30\n30\n30\n30\n' > "$T/negcost/base/empty/cycles"
printf '29\n29\n29\n31\n31\n31\n28\n28\n28\n32\n32\n32\n' > "$T/negcost/w/zero/cycles"
printf '25\n25\n25\n26\n26\n26\n25\n25\n25\n26\n26\n26\n' > "$T/negcost/w/neg/cycles"
printf '1000000030\n1000000030\n1000000030\n1000000040\n1000000040\n1000000040\n1000000030\n1000000030\n1000000030\n1000000040\n1000000040\n1000000040\n' > "$T/negcost/w/big/cycles"
expect_exit cost_whose_interval_holds_0_is_about_0 0 '^w:zero  *net  *≈0  *<' -- "$CS" "$T/negcost"
expect_ok cost_below_the_resolution_says_so grep -q '^w:neg  *net  *<0.100  *below resolution' "$T/out"
expect_ok no_per_op_cost_is_negative sh -c "! sed -n '/^fragment  *basis/,/^two-length/p' '$T/out' | grep -q ' -[0-9]'"
# (w:big's figures only: the first line names the input, whose temporary
# path may hold '1e5' itself)
expect_ok a_large_cost_is_in_every_table sh -c "[ \$(grep -c '^w:big ' '$T/out') = 3 ]"
expect_ok a_large_cost_has_no_exponent sh -c "! awk '/^w:big /{ for (i = 2; i <= NF; i++) print \$i }' '$T/out' | grep -Eq '[0-9][eE][-+]?[0-9]'"
expect_ok the_marks_are_explained grep -q '^≈0: the interval holds 0' "$T/out"
expect_exit brief_never_prints_a_negative_cost 0 '^w:neg  *<0.100  *below resolution net' -- "$CS" --brief "$T/negcost"
expect_ok brief_holds_0_as_about_0 grep -q '^w:zero  *≈0  *<' "$T/out"
expect_exit calibrated_brief_names_ticks_per_core_cycle 0 '^# per op in core cycles (calibrated), 95% interval; 1 core cycle = 0.7501 ticks$' -- \
	"$CS" --brief "$DATA/tree2"

# ---- inputs that once broke something, and the fuzz corpus: never a crash ----
for f in "$here"/crashes/* "$here"/../fuzz/corpus/*; do
	[ -f "$f" ] || continue
	"$CS" "$f" > /dev/null 2>&1
	rc=$?
	if [ $rc -le 2 ]; then pass "replay_$(basename "$f")"; else fail "replay_$(basename "$f")" "exit $rc"; fi
done
tap_end

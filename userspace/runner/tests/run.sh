#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# tests/run.sh: cyclebench-user's tests, from runner (make test).
# The unit tests, then what a user sees - exit codes, error lines, the tree
# against the contract, cyclestat reading it - with the plain build and
# again with the ASan+UBSan one, then plausibility of the figures (positive,
# ordered, a calibration of 0.2 to 5 core cycles per TSC tick: benchmarks
# are make bench's, tests must not flake on a busy machine).
# One TAP point per behaviour (tests/tap/tap.sh); each C test program a
# stream of its own, all in $TAP_DIR (default tests/out/tap), counted by
# tests/tap/count, whose last line is "N passed, N failed".
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here"
CS=${CYCLESTAT:-../cyclestat/cyclestat}
. ../../tests/tap/tap.sh
# every point keeps its temporary files in a folder whose name holds what a
# careless check would take for a figure, and a space (tap.sh)
odd_tmp=$(tap_odd_tmpdir) || { echo "make test: cannot make a folder in ${TMPDIR:-/tmp}" >&2; exit 2; }
export TMPDIR="$odd_tmp"
T=$(mktemp -d)
bg=
trap '[ -n "$bg" ] && kill $bg 2>/dev/null; rm -rf "$T" "${odd_tmp%/*}"' EXIT
TAP_TMP=$T
tap_lane runner "$here/tests/out/tap"


# ctrl_c NAME OUT CMD...: CMD, sent SIGINT once it catches SIGINT (its
# SigCgt, polled for 30 s: a sanitized build starts slowly on a busy
# host) and a second more, exits 130 within a sample, says so, and
# writes nothing to OUT
ctrl_c() {
	name=$1 out=$2
	shift 2
	"$@" > /dev/null 2>"$T/interr" &
	bg=$!
	n=0
	# (SIGINT is bit 1 of the mask: the last hex digit's value 2)
	while [ $n -lt 300 ]; do
		case $(sed -n 's/^SigCgt:[[:space:]]*//p' "/proc/$bg/status" 2>/dev/null) in
		*[2367abef]) break ;;
		esac
		sleep 0.1
		n=$((n + 1))
	done
	sleep 1
	kill -INT $bg
	wait $bg
	rc=$?
	bg=
	if [ $rc = 130 ] && [ ! -e "$out" ] && [ -z "$(ls -d "$out".* 2>/dev/null)" ] &&
	   grep -q 'interrupted; nothing written' "$T/interr"; then
		pass "$name"
	else
		fail "$name" "exit $rc, $(ls -d "$out" 2>/dev/null), $(cat "$T/interr")"
	fi
}

# ---- unit tests ----
for u in unit unit-san grammar grammar-san; do
	tap_run "$u" "./tests/$u"
done

# the request parser under libFuzzer (lib/tests/fuzz_request.c): no crash, and
# every answer well-formed, for ${FUZZ_SECONDS:-10} s from the request corpus
rm -f tests/crash-* tests/leak-* tests/timeout-*
mkdir -p tests/fuzz-work
if ${MAKE:-make} -s tests/fuzz_request > "$T/fuzz" 2>&1 &&
   ./tests/fuzz_request -max_total_time="${FUZZ_SECONDS:-10}" -max_len=600 -timeout=5 \
	-artifact_prefix=tests/ -print_final_stats=1 tests/fuzz-work ../../lib/tests/fuzz-corpus >> "$T/fuzz" 2>&1; then
	pass "fuzz_request_${FUZZ_SECONDS:-10}s: $(sed -n 's/^stat::number_of_executed_units: *//p' "$T/fuzz") requests, every answer well-formed"
else
	fail "fuzz_request_${FUZZ_SECONDS:-10}s" "$(grep -E 'ERROR|error|SUMMARY|crash-' "$T/fuzz" | head -n 5 | tr '\n' '|')"
fi

# a copy of a good tree, then one change
broken() {
	rm -rf "$T/broken"
	cp -R "$1" "$T/broken"
}

kernel_group=$(./cyclebench-user --list | sed -n 's/^kernel-only (need the module): \([a-z0-9_]*\).*/\1/p')
portable=$(./cyclebench-user --list | grep -c '^[a-z0-9_]*:')
hyp=no
grep -q '^flags.* hypervisor' /proc/cpuinfo && hyp=yes
rdtscp=no
grep -q '^flags.* rdtscp' /proc/cpuinfo && rdtscp=yes
# 2 MiB pages to be had: transparent ones, or reserved hugetlb ones
huge=no
grep -q '\[always\]\|\[madvise\]' /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null && huge=yes
[ "$(cat /proc/sys/vm/nr_hugepages 2>/dev/null || echo 0)" = 0 ] || huge=yes
ev_rc=0 ev_not=
[ $huge = yes ] || ev_rc=1 ev_not=chase_huge	# mem:chase_huge fails there, tested below
# every portable group, small: the runs that check each fragment runs
every_groups=$(./cyclebench-user --list | awk -F: '/^[a-z0-9_]+:/ && !seen[$1]++ { printf "%s%s", n++ ? "," : "", $1 }')
every_args="samples=20 ensembles=2 warmup=2 max_mb=64"
# all_ok DIR: every result in DIR is ok (but mem:chase_huge where it fails)
all_ok() {
	! grep '^state: ' "$1"/*/*/info "$1"/*/*/*/info 2>/dev/null | grep -v "${ev_not:-^$}" | grep -v -q 'state: ok'
}

for B in ./cyclebench-user ./cyclebench-user-san; do
	s=${B#./cyclebench-user}
	s=${s:+[san] }
	o=$T/out$$

	# ---- every portable fragment runs, and the tree is the module's ----
	expect_exit "${s}every_portable_fragment_runs" $ev_rc '' -- \
		$B -q --force -o "$T/every" "$every_groups" $every_args
	expect_ok "${s}every_listed_fragment_has_a_result" sh -c \
		"[ \$(cut -d' ' -f1 '$T/every/fragments' | sed 's,/.*,,' | sort -u | wc -l) = $portable ]"
	expect_ok "${s}every_result_is_ok" all_ok "$T/every"
	expect_ok "${s}the_tree_passes_the_contract" sh ../../tests/contract/contract.sh "$T/every"
	expect_exit "${s}cyclestat_reads_the_tree" 0 'alu:add_dep' -- "$CS" "$T/every"
	# --list: a fragment whose ops are its argument says ARG, and the tree
	# holds the argument's count (loop:dec_jnz/2: 2 ops)
	expect_ok "${s}list_says_ARG_where_the_ops_are_the_argument" sh -c \
		"$B --list | grep -q '^loop:dec_jnz/ARG ([0-9,]*) ARG ' && grep -qx 'loop:dec_jnz/2 2 .*' '$T/every/fragments'"
	rm -rf "$T/saved"
	expect_exit "${s}cyclestat_saves_the_tree" 0 'saved' -- "$CS" -d "$T/every" save "$T/saved"
	expect_ok "${s}the_saved_copy_passes_the_contract" sh ../../tests/contract/contract.sh "$T/saved"
	expect_ok "${s}cyclestat_compares_two_runs" sh -c "'$CS' -q compare '$T/every' '$T/saved' > /dev/null; [ \$? -le 1 ]"
	expect_ok "${s}info_says_mode_user_interrupts_on" sh -c \
		"grep -q '^mode: user$' '$T/every/info' && grep -q '^interrupts: on$' '$T/every/info'"
	expect_ok "${s}an_argument_result_lives_in_its_own_directory" sh -c \
		"grep -q '^arg: 4096$' '$T/every/mem/chase/4096/info' && [ -s '$T/every/mem/chase/4096/cycles_long' ]"
	expect_ok "${s}a_body_without_a_long_region_has_no_cycles_long" sh -c \
		"[ ! -e '$T/every/base/empty/cycles_long' ] && ! grep -q long_repeat '$T/every/base/empty/info'"
	expect_ok "${s}setup_is_said_per_result" sh -c \
		"grep -q '^setup: ensemble$' '$T/every/mem/chase/4096/info' && grep -q '^setup: none$' '$T/every/alu/add_dep/info'"

	# the ASan build's sanitized fragment objects are those of the lengths
	# in SAN_REPEATS (the Makefile's, which make test passes): every
	# fragment runs at each, so each setup, body and teardown runs sanitized
	if [ -n "$s" ]; then
		for r in ${SAN_REPEATS:?make test sets it: run tests/run.sh by make test}; do
			expect_exit "${s}every_portable_fragment_runs_at_${r}_copies" $ev_rc '' -- \
				$B -q --force -o "$T/every$r" "$every_groups" long_repeat=$r $every_args
			expect_ok "${s}at_${r}_copies_every_result_is_ok" all_ok "$T/every$r"
			expect_ok "${s}at_${r}_copies_info_says_${r}" grep -q "^long_repeat: $r$" "$T/every$r/alu/add_dep/info"
		done
	fi

	# ---- mem:chase_huge: the same ring on 2 MiB pages, and it says so ----
	if [ $huge = yes ]; then
		expect_exit "${s}chase_huge_runs" 0 '' -- \
			$B -q --force -o "$T/huge" mem:chase,mem:chase_huge args=4096,4194304 samples=20 ensembles=2
		expect_ok "${s}chase_huge_says_it_got_2MiB_pages" sh -c \
			"for a in 4096 4194304; do grep -q '^page_size: 2097152$' '$T/huge/mem/chase_huge/'\$a/info &&
			   grep -q '^huge_pages: \\(thp\\|hugetlb\\)$' '$T/huge/mem/chase_huge/'\$a/info || exit 1; done"
		expect_ok "${s}chase_on_4KiB_pages_names_no_huge_pages" sh -c \
			"! grep -q '^page_size\\|^huge_pages' '$T/huge/mem/chase/4194304/info'"
		expect_ok "${s}a_chase_huge_tree_passes_the_contract" sh ../../tests/contract/contract.sh "$T/huge"
	else
		expect_exit "${s}chase_huge_without_huge_pages_fails_and_says_how_to_enable_them" 1 \
			'echo madvise > /sys/kernel/mm/transparent_hugepage/enabled' -- \
			$B -q --force -o "$T/huge" mem:chase_huge/4096 samples=20 ensembles=2
	fi

	# ---- defaults, methods, selection ----
	expect_exit "${s}all_leaves_out_slow_fragments" 0 '' -- $B -q --force -o "$T/all" samples=10 ensembles=2
	expect_ok "${s}all_has_no_slow_result" sh -c "! grep -q -e dec_jnz_1m -e 'mem:chase' '$T/all/fragments' && grep -q 'alu:add_dep' '$T/all/fragments'"
	if [ $hyp = yes ]; then
		expect_ok "${s}lfence_is_the_default_under_a_hypervisor" grep -q '^method_requested: lfence$' "$T/all/info"
	else
		expect_ok "${s}paoloni_is_the_default_on_bare_metal" grep -q '^method_requested: paoloni$' "$T/all/info"
	fi
	expect_exit "${s}method_paoloni_runs" 0 '' -- $B -q --force -o "$T/pao" base,alu:add_dep method=paoloni samples=10 ensembles=2
	if [ $rdtscp = no ]; then
		expect_ok "${s}no_rdtscp_falls_back_to_nordtscp" grep -q '^method_used: paoloni-nordtscp$' "$T/pao/info"
	else
		expect_ok "${s}rdtscp_runs_paoloni" grep -q '^method_used: paoloni$' "$T/pao/info"
	fi
	expect_exit "${s}args_pick_the_arguments" 0 '' -- $B -q --force -o "$T/args" mem:chase args=8192,4096 samples=10 ensembles=2
	expect_ok "${s}args_results_in_table_order" sh -c \
		"[ \"\$(cut -d' ' -f1 '$T/args/fragments' | tr '\n' ' ')\" = 'base:empty calib:add_chain calib:imul_chain mem:chase/4096 mem:chase/8192 ' ]"
	expect_exit "${s}long_repeat_can_be_fixed" 0 '' -- $B -q --force -o "$T/r16" alu long_repeat=16 samples=10 ensembles=2
	expect_ok "${s}long_repeat_fixed_is_in_every_info" sh -c \
		"[ \$(grep -l '^long_repeat: 16$' '$T/r16'/alu/*/info | wc -l) = 3 ] && grep -q '^long_repeat: 16$' '$T/r16/info'"
	expect_exit "${s}interleave_runs_ensembles_across_results" 0 '' -- $B -q --force -o "$T/il" alu,calib,loop:dec_jnz/8,mem:chase/4096 interleave=1 samples=10 ensembles=3
	expect_ok "${s}an_interleaved_tree_passes_the_contract" sh ../../tests/contract/contract.sh "$T/il"
	expect_ok "${s}info_says_interleave_the_default" sh -c "grep -q '^interleave: yes$' '$T/il/info' && grep -q '^interleave: yes$' '$T/all/info'"
	expect_exit "${s}interleave_0_runs_results_in_a_row" 0 '' -- $B -q --force -o "$T/il0" alu:add_dep interleave=0 samples=10 ensembles=2
	expect_ok "${s}info_says_interleave_no" grep -q '^interleave: no$' "$T/il0/info"
	expect_exit "${s}a_bad_interleave_is_refused" 2 'interleave=2: not a number in 0..1' -- $B -o "$o" interleave=2
	cp -r "$T/args" "$T/args.kept"
	expect_exit "${s}a_named_tree_is_kept_without_force" 2 "holds results already; replace them with --force" -- \
		$B -q -o "$T/args" alu:add_dep samples=10 ensembles=2
	expect_ok "${s}the_kept_tree_is_unchanged" diff -r "$T/args" "$T/args.kept"
	rm -rf "$T/args.kept"
	expect_exit "${s}a_second_run_with_force_replaces_the_tree" 0 '' -- $B -q --force -o "$T/args" alu:add_dep samples=10 ensembles=2
	expect_ok "${s}nothing_of_the_first_run_stays" sh -c \
		"[ ! -e '$T/args/mem' ] && [ \$(wc -l < '$T/args/fragments') = 4 ] && ! ls -d '$T'/args.* 2>/dev/null"
	# the references run whatever the selection, unless turned off
	expect_ok "${s}references_run_whatever_the_selection" sh -c \
		"[ -s '$T/args/base/empty/cycles' ] && [ -s '$T/args/calib/add_chain/cycles_long' ] && [ -s '$T/args/calib/imul_chain/cycles_long' ]"
	expect_exit "${s}references_0_runs_the_selection_alone" 0 '' -- \
		$B -q --force -o "$T/noref" alu:add_dep references=0 samples=10 ensembles=2
	expect_ok "${s}references_0_leaves_them_out" sh -c "[ \$(wc -l < '$T/noref/fragments') = 1 ]"
	expect_exit "${s}a_bad_references_is_refused" 2 'references=2: not a number in 0..1' -- $B -o "$o" references=2

	# ---- usage errors: exit 2, a message that says what, nothing written ----
	expect_exit "${s}zero_samples_is_refused" 2 'samples=0: not a number in 1..100000000' -- $B -o "$o" samples=0
	expect_exit "${s}a_word_for_a_number_is_refused" 2 'ensembles=ten: not a number' -- $B -o "$o" ensembles=ten
	expect_exit "${s}a_number_with_junk_is_refused" 2 'warmup=5x: not a number' -- $B -o "$o" warmup=5x
	expect_exit "${s}a_negative_cpu_is_refused" 2 'cpu=-1: not a valid value (an online CPU)' -- $B -o "$o" cpu=-1
	expect_exit "${s}too_many_ensembles_are_refused" 2 'ensembles=100001' -- $B -o "$o" ensembles=100001
	expect_exit "${s}an_unknown_method_is_refused" 2 'method=rdtsc: not a valid value (paoloni or lfence)' -- $B -o "$o" method=rdtsc
	expect_exit "${s}an_offline_cpu_is_refused" 2 'cpu 4000 is not online' -- $B -o "$o" cpu=4000
	expect_exit "${s}an_unknown_key_is_refused" 2 "unknown key 'frobnicate'" -- $B -o "$o" frobnicate=1
	expect_exit "${s}a_repeated_key_is_refused" 2 'samples= given twice' -- $B -o "$o" samples=1 samples=2
	expect_exit "${s}keys_before_the_selection_are_taken" 0 '' -- $B -q --force -o "$T/order" samples=5 ensembles=1 alu:add_dep references=0
	expect_ok "${s}and_the_selection_is_what_ran" sh -c "[ \"\$(cut -d' ' -f1 '$T/order/fragments')\" = alu:add_dep ]"
	expect_exit "${s}two_selections_are_refused" 2 "'base' after the selection is not key=value" -- $B -o "$o" alu base
	expect_exit "${s}an_empty_item_is_refused" 2 'an empty item' -- $B -o "$o" alu,,base
	expect_exit "${s}an_unknown_group_is_refused" 2 "no fragment 'nosuch' (cyclebench-user --list shows them; kernel-only groups need the module)" -- $B -o "$o" nosuch
	expect_exit "${s}an_unknown_fragment_is_refused" 2 "no fragment 'alu:nosuch' (.*kernel-only groups need the module)" -- $B -o "$o" alu:nosuch
	if [ -n "$kernel_group" ]; then
		expect_exit "${s}a_kernel_only_group_is_refused" 2 "$kernel_group: a kernel-only group: .*need the module" -- $B -o "$o" "$kernel_group"
		expect_exit "${s}a_kernel_only_fragment_is_refused" 2 "$kernel_group: a kernel-only group" -- $B -o "$o" "$kernel_group:anything"
	fi
	expect_exit "${s}an_argument_to_a_plain_fragment_is_refused" 2 'alu:add_dep takes no ARG (drop /4)' -- $B -o "$o" alu:add_dep/4
	expect_exit "${s}an_argument_below_the_minimum_is_refused" 2 'mem:chase/64: ARG out of its range (at least 128)' -- $B -o "$o" mem:chase/64
	expect_exit "${s}an_argument_above_the_maximum_is_refused" 2 'mem:memcpy/2000000: ARG out of its range 1\.\.' -- $B -o "$o" mem:memcpy/2000000
	expect_exit "${s}a_word_for_an_argument_is_refused" 2 "loop:dec_jnz/x: ARG is not a decimal number" -- $B -o "$o" loop:dec_jnz/x
	expect_exit "${s}args_nobody_takes_are_refused" 2 'no selected fragment takes an argument' -- $B -o "$o" alu args=4
	expect_exit "${s}a_bad_args_value_is_refused" 2 "args=: 'abc' is not a decimal number" -- $B -o "$o" mem:chase args=4096,abc
	expect_exit "${s}a_bad_long_repeat_is_refused" 2 'long_repeat=7: not a valid value (auto or one of { 16, 64, 256, 1024 })' -- $B -o "$o" long_repeat=7
	expect_exit "${s}a_run_over_max_mb_is_refused" 2 'over max_mb=1' -- $B -o "$o" mem:chase/4194304 max_mb=1
	# what engine.c allocates: 10^6 samples of 8 bytes (one region); on
	# two CPUs, each CPU's 8, its release time's 8 and its round's 4
	expect_exit "${s}the_refusal_counts_each_array" 2 'the run needs 8 MiB, over max_mb=1' -- $B -o "$o" base:empty samples=1000000 ensembles=1 references=0 max_mb=1
	if [ "$(nproc)" -ge 2 ]; then
		expect_exit "${s}the_refusal_counts_each_cpus_array" 2 'the run needs 39 MiB, over max_mb=1' -- $B -o "$o" base:empty cpus=0-1 samples=1000000 ensembles=1 references=0 max_mb=1
	fi
	expect_exit "${s}an_empty_output_name_is_refused" 2 'usage:' -- $B -o '' alu
	expect_exit "${s}an_unknown_option_is_refused" 2 'usage:' -- $B --frobnicate
	expect_exit "${s}an_unknown_option_is_named" 2 "unknown option '--frobnicate'" -- $B --frobnicate
	expect_ok "${s}help_goes_to_stdout_with_exit_0" sh -c "$B --help 2>/dev/null | grep -q 'long_repeat=auto'"
	expect_exit "${s}version_is_printed" 0 '^cyclebench-user [0-9]' -- $B --version
	expect_ok "${s}one_version_with_cyclestat" sh -c "[ \"\$($B --version | cut -d' ' -f2)\" = \"\$($CS --version | cut -d' ' -f2)\" ]"
	expect_ok "${s}no_usage_error_wrote_anything" sh -c "! ls -d '$o'* 2>/dev/null"

	# ---- the request corpus the module answers too (tests/e2e/max.sh) ----
	n=0 bad=
	while IFS='	' read -r want line; do
		case $want in '#'* | '') continue ;; esac
		n=$((n + 1))
		# shellcheck disable=SC2086 # the request's words
		$B -q --force -o "$T/corpus" $line > /dev/null 2> "$T/corpus.err"
		rc=$?
		case $rc in 0) got=ok ;; 2) got=refused ;; *) got="exit $rc" ;; esac
		[ "$got" = "$want" ] || bad="$bad|'$line': $want expected, $got: $(head -c 200 "$T/corpus.err")"
	done < ../../tests/contract/requests.txt
	if [ -z "$bad" ] && [ "$n" -gt 30 ]; then pass "${s}the_request_corpus_is_answered_as_the_module_answers_it ($n requests)"
	else fail "${s}the_request_corpus_is_answered_as_the_module_answers_it ($n requests)" "$bad"; fi
	: > "$T/afile"
	expect_exit "${s}a_file_in_the_way_is_not_overwritten" 1 'is not a results tree' -- $B -q --force -o "$T/afile" base samples=5 ensembles=1
	expect_ok "${s}the_file_in_the_way_is_untouched" test -f "$T/afile"

	# ---- Ctrl-C: exit 130 within a sample, nothing written ----
	ctrl_c "${s}ctrl_c_stops_the_run_and_writes_nothing" "$T/int" \
		$B -q --force -o "$T/int" loop:dec_jnz_1m samples=100000

	# ---- cpus=: the same fragments on several CPUs at once ----
	expect_exit "${s}cpus_with_an_offline_cpu_is_refused" 2 'cpus=: cpu 63 is not online' -- $B -o "$o" alu cpus=0,63
	expect_exit "${s}cpu_and_cpus_together_are_refused" 2 'cpu= and cpus= both given' -- $B -o "$o" alu cpu=0 cpus=0
	expect_exit "${s}c2c_needs_two_cpus" 2 '^cyclebench-user: --c2c: name two CPUs or more with cpus=' -- $B -o "$o" --c2c cpus=0
	expect_exit "${s}c2c_times_no_fragment" 2 "--c2c times no fragment: drop 'alu'" -- $B -o "$o" --c2c alu cpus=0-1
	if [ "$(getconf _NPROCESSORS_ONLN)" -ge 2 ]; then
		expect_exit "${s}cpus_0-1_runs" 0 '' -- $B -q --force -o "$T/cpus" contend samples=200 ensembles=2 \
			cpus=0-1 references=0 long_repeat=16
		d=$T/cpus/contend/atomic_inc_shared
		expect_ok "${s}cpus_every_cpu_has_all_its_samples" sh -c "[ \$(wc -l < '$d/cpu0/cycles') = 400 ] &&
			[ \$(wc -l < '$d/cpu1/cycles') = 400 ] && [ \$(wc -l < '$d/cpu1/cycles_long') = 400 ]"
		expect_ok "${s}cpus_the_first_cpu_is_the_result_itself" cmp -s "$d/cycles" "$d/cpu0/cycles"
		expect_ok "${s}cpus_info_names_the_cpus_and_the_barrier" sh -c "grep -qx 'cpus: 0,1' '$d/info' &&
			grep -qx 'barrier: sample' '$d/info' && grep -qE '^start_spread: [0-9]+\$' '$d/info' &&
			grep -qE '^samples_in_step: [0-9]+\$' '$d/info' &&
			grep -qx 'cpus: 0,1' '$T/cpus/info'"
		expect_ok "${s}cpus_a_private_fragment_says_so" grep -qx 'state_per_cpu: yes' \
			"$T/cpus/contend/atomic_inc_private/info"
		expect_ok "${s}cpus_the_tree_passes_the_contract" sh ../../tests/contract/contract.sh "$T/cpus"
		expect_ok "${s}cpus_cyclestat_reads_the_tree" "$CS" "$T/cpus"
		# Ctrl-C on two CPUs: both stop within a sample, nothing written
		ctrl_c "${s}cpus_ctrl_c_stops_every_cpu_and_writes_nothing" "$T/int2" \
			$B -q --force -o "$T/int2" loop:dec_jnz_1m samples=100000 cpus=0-1
		# sweep=cpus: a tree per step, k = 1 then 2
		expect_exit "${s}sweep_needs_two_cpus" 2 'sweep=cpus: name two CPUs or more with cpus=' -- \
			$B -o "$o" contend cpus=0 sweep=cpus
		expect_exit "${s}sweep_takes_cpus_only" 2 "sweep=args: not a valid value (cpus: " -- \
			$B -o "$o" contend cpus=0-1 sweep=args
		expect_exit "${s}sweep_with_c2c_is_refused" 2 'drop sweep=cpus' -- $B -o "$o" --c2c cpus=0-1 sweep=cpus
		expect_exit "${s}sweep_runs" 0 '' -- $B -q --force -o "$T/sweep" contend:atomic_inc_shared,contend:atomic_inc_private \
			samples=100 ensembles=3 cpus=0-1 sweep=cpus long_repeat=16
		check_sweep() {
			grep -qx 'sweep: cpus' "$T/sweep/info" && grep -qx 'steps: 1,2' "$T/sweep/info" &&
			! grep -q '^cpus:' "$T/sweep/k1/contend/atomic_inc_shared/info" &&
			grep -qx 'cpus: 0,1' "$T/sweep/k2/contend/atomic_inc_shared/info" &&
			[ "$(wc -l < "$T/sweep/k2/contend/atomic_inc_shared/cpu1/cycles_long")" = 300 ] &&
			[ ! -e "$T/sweep/fragments" ] && [ "$(ls -d "$T"/sweep.* 2>/dev/null)" = "" ]
		}
		expect_ok "${s}sweep_writes_a_tree_per_step_and_names_them" check_sweep
		expect_ok "${s}sweep_k1_passes_the_contract" sh ../../tests/contract/contract.sh "$T/sweep/k1"
		expect_ok "${s}sweep_k2_passes_the_contract" sh ../../tests/contract/contract.sh "$T/sweep/k2"
		expect_exit "${s}sweep_cyclestat_prints_each_k" 0 '^ *2  [0-9.]* \[' -- "$CS" "$T/sweep" contend:atomic_inc_private
		expect_exit "${s}sweep_a_tree_is_kept_unasked" 2 'holds results already' -- \
			$B -q -o "$T/sweep" contend cpus=0-1 sweep=cpus
		ctrl_c "${s}sweep_ctrl_c_writes_nothing" "$T/int3" \
			$B -q --force -o "$T/int3" loop:dec_jnz_1m samples=100000 cpus=0-1 sweep=cpus
		# --c2c: the pair's round trips kept, the matrix printed and kept
		expect_exit "${s}c2c_runs_and_prints_the_matrix" 0 '^cpu1 .*[0-9]\.[0-9] \[' -- \
			$B -q --force -o "$T/c2c" --c2c cpus=0-1 samples=200 ensembles=2
		check_c2c() {
			[ "$(cut -d' ' -f1 "$T/c2c/fragments")" = c2c:cpu0_cpu1 ] &&
			[ "$(wc -l < "$T/c2c/c2c/cpu0_cpu1/cycles")" = 400 ] &&
			! grep -qvE '^[1-9][0-9]*$' "$T/c2c/c2c/cpu0_cpu1/cycles" &&
			grep -qx 'ops: 2' "$T/c2c/c2c/cpu0_cpu1/info" &&
			grep -q "c2clat's method [0-9.]* ns" "$T/c2c/c2c.txt"
		}
		expect_ok "${s}c2c_keeps_every_round_trip_and_the_matrix" check_c2c
		expect_ok "${s}c2c_the_tree_passes_the_contract" sh ../../tests/contract/contract.sh "$T/c2c"
		expect_exit "${s}c2c_cyclestat_reads_the_tree" 0 'c2c:cpu0_cpu1' -- "$CS" "$T/c2c"
		# the map (cyclestat plot) and the matrix show the same ns a pair
		c2c_same_ns() {
			txt=$(awk '$1 == "cpu0" && $2 == "-" { print $3 }' "$T/c2c/c2c.txt")
			svg=$("$CS" plot "$T/c2c" | sed -n 's/.*<title>cpu0 to cpu1: \([0-9.]*\) ns.*/\1/p')
			grep -q '^c2c_timestamps: [0-9]*$' "$T/c2c/c2c/cpu0_cpu1/info" &&
			[ -n "$txt" ] && [ "$txt" = "$svg" ] || { echo "matrix '$txt', map '$svg'"; return 1; }
		}
		expect_ok "${s}c2c_map_and_matrix_show_the_same_ns" c2c_same_ns
	else
		tap_skip "${s}cpus_0-1_runs" "one CPU online"
	fi
done

# ---- without root: no CAP_IPC_LOCK, an 8 MiB lock limit; still runs ----
nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
if [ "$(id -u)" = 0 ] && command -v setpriv > /dev/null && nobody test -x ./cyclebench-user; then
	mkdir -p "$T/nobody"
	chmod 777 "$T" "$T/nobody"
	expect_exit runs_without_root_and_says_what_it_could_not_lock 0 'note: cannot lock' -- \
		nobody ./cyclebench-user -o "$T/nobody/out" \
		alu,mem:chase/33554432 samples=20 ensembles=2
	expect_ok the_tree_without_root_passes_the_contract sh ../../tests/contract/contract.sh "$T/nobody/out"
fi

# ---- THP off (a private mount namespace shows "never"): a clear failure ----
if [ "$(id -u)" = 0 ] && [ "$(cat /proc/sys/vm/nr_hugepages 2>/dev/null)" = 0 ] &&
   [ -e /sys/kernel/mm/transparent_hugepage/enabled ] && command -v unshare > /dev/null &&
   unshare -m true 2> /dev/null; then
	echo 'always madvise [never]' > "$T/thp-never"
	expect_exit chase_huge_with_thp_off_fails_and_says_how_to_enable_it 1 \
		'transparent huge pages are set to never.*echo madvise > /sys/kernel/mm/transparent_hugepage/enabled' -- \
		unshare -m sh -c "mount --bind '$T/thp-never' /sys/kernel/mm/transparent_hugepage/enabled &&
			exec ./cyclebench-user -q -o '$T/nothp' mem:chase_huge/4096,mem:chase/4096 samples=20 ensembles=2"
	expect_ok chase_huge_with_thp_off_is_failed_and_the_rest_ran sh -c \
		"grep -q '^state: failed$' '$T/nothp/mem/chase_huge/4096/info' && grep -q '^state: ok$' '$T/nothp/mem/chase/4096/info'"
fi

# ---- the contract checker itself: it finds what is wrong ----
broken "$T/every"
sed -i '1d' "$T/broken/alu/add_dep/cycles"
expect_exit contract_finds_a_short_cycles_file 1 'alu/add_dep/cycles: 39 lines, ensembles x samples is 40' -- sh ../../tests/contract/contract.sh "$T/broken"
broken "$T/every"
sed -i 's/^ops: 4$/ops: 5/' "$T/broken/alu/add_dep/info"
expect_exit contract_finds_ops_that_disagree 1 "ops '5', fragments says 4" -- sh ../../tests/contract/contract.sh "$T/broken"
broken "$T/every"
sed -i 's/^rdtscp: .*/rdtscp: maybe/' "$T/broken/info"
expect_exit contract_finds_a_bad_boolean 1 "'rdtscp' must be yes or no" -- sh ../../tests/contract/contract.sh "$T/broken"
broken "$T/every"
echo 'bogus: 1' >> "$T/broken/alu/add_dep/info"
expect_exit contract_finds_a_key_the_table_has_not 1 "alu/add_dep/info:[0-9]*: 'bogus' is no info key" -- sh ../../tests/contract/contract.sh "$T/broken"
broken "$T/every"
echo 'lfence: LFENCE orders RDTSC (Intel)' >> "$T/broken/info"
expect_exit contract_finds_the_module_s_key_in_the_runner_s_tree 1 "'lfence' is the module's key, and this is the runner's tree" -- sh ../../tests/contract/contract.sh "$T/broken"
broken "$T/every"
sed -i 's/^ops: 4$/ops: 4\nbarrier: sample/' "$T/broken/alu/add_dep/info"
expect_exit contract_finds_a_cpus_key_without_cpus 1 "alu/add_dep/info: barrier: a cpus= result's keys, without cpus" -- sh ../../tests/contract/contract.sh "$T/broken"
# the docs' and the checker's lists of info keys are contract.h's table
expect_ok info_keys_in_the_docs_and_the_checker_are_contract_h_s sh ../../tests/contract/infokeys.sh --check tests/infokeys
tests/infokeys sh > "$T/vocab"
broken "$T/every"
rm "$T/broken/alu/imul_dep/info"
expect_exit contract_finds_a_missing_info 1 'alu/imul_dep/info: missing' -- sh ../../tests/contract/contract.sh "$T/broken"
broken "$T/every"
sed -i 's/^long_repeat: [0-9]*$/long_repeat: 3/' "$T/broken/alu/add_dep/info"
expect_exit contract_finds_a_bad_long_repeat 1 "long_repeat must be one of: $(sed -n 's/^long_repeats: //p' "$T/vocab"), not '3'" -- sh ../../tests/contract/contract.sh "$T/broken"
broken "$T/every"
sed -i 's/^state: ok$/state: fine/' "$T/broken/alu/add_dep/info"
expect_exit contract_finds_a_state_that_is_none_of_contract_h_s 1 "state must be one of: $(sed -n 's/^states: //p' "$T/vocab"), not 'fine'" -- sh ../../tests/contract/contract.sh "$T/broken"
broken "$T/every"
sed -i 's/^setup: none$/setup: once/' "$T/broken/alu/add_dep/info"
expect_exit contract_finds_a_setup_that_is_none_of_contract_h_s 1 "setup must be one of: $(sed -n 's/^setups: //p' "$T/vocab"), not 'once'" -- sh ../../tests/contract/contract.sh "$T/broken"
broken "$T/every"
echo 'alu:add_dep 4 again' >> "$T/broken/fragments"
expect_exit contract_finds_a_name_listed_twice 1 'alu:add_dep listed twice' -- sh ../../tests/contract/contract.sh "$T/broken"
broken "$T/every"
sed -i '3s/.*/12a/' "$T/broken/alu/add_dep/cycles"
expect_exit contract_finds_a_sample_that_is_not_a_number 1 'alu/add_dep/cycles:3: not an unsigned decimal: 12a' -- sh ../../tests/contract/contract.sh "$T/broken"
broken "$T/every"
: > "$T/broken/alu/add_dep/cycles_long"
: > "$T/broken/alu/add_dep/cycles"
expect_exit contract_finds_an_empty_cycles_file 1 'alu/add_dep/cycles: 0 lines, ensembles x samples is 40' -- sh ../../tests/contract/contract.sh "$T/broken"

# ---- cyclestat doctor: lockdown and the core clock (userspace/cyclestat/doctor.c) ----
fake_root() {
	rm -rf "$T/root"
	mkdir -p "$T/root/proc" "$T/root/sys/devices/system/cpu/cpu0" "$T/root/sys/kernel/security"
	echo 0 > "$T/root/sys/devices/system/cpu/online"
	printf 'processor\t: 0\nflags\t\t: fpu tsc constant_tsc nonstop_tsc rdtscp\n' > "$T/root/proc/cpuinfo"
	[ -z "$1" ] || echo "$1" > "$T/root/sys/kernel/security/lockdown"
}
# ---- the man page: every key and option the program takes, installed ----
expect_ok man_page_names_every_key_and_option sh -c '
	keys=$(./cyclebench-user -o /nonexistent/x nosuchkey=1 2>&1 | sed -n "s/.*(keys: \([^)]*\)).*/\1/p")
	[ -n "$keys" ] || exit 1
	for k in $keys; do grep -q "^\.B[RI]* $k=" cyclebench-user.1 || { echo "no $k= in cyclebench-user.1"; exit 1; }; done
	for o in "\\-o" "\\-\\-force" "\\-q" "\\-\\-list" "\\-\\-help" "\\-\\-version"; do
		grep -qF -- "$o" cyclebench-user.1 || { echo "no $o in cyclebench-user.1"; exit 1; }; done'
rm -rf "$T/dest"
expect_ok make_install_puts_the_runner_and_its_man_page sh -c \
	"make -s install DESTDIR='$T/dest' PREFIX=/usr >/dev/null &&
	 [ -x '$T/dest/usr/bin/cyclebench-user' ] && [ -s '$T/dest/usr/share/man/man1/cyclebench-user.1' ] &&
	 make -s uninstall DESTDIR='$T/dest' PREFIX=/usr >/dev/null && [ ! -e '$T/dest/usr/bin/cyclebench-user' ]"

fake_root 'none integrity [confidentiality]'
expect_exit doctor_sees_lockdown_confidentiality 0 'WARN  kernel lockdown is \[confidentiality\]' -- "$CS" doctor --sysroot "$T/root"
expect_ok doctor_lockdown_points_to_run_on_load_only_and_the_runner sh -c \
	"grep 'lockdown' '$T/out' | grep -q 'run_on_load=1 only=.*cyclebench-user.*fix:\|fix:.*run_on_load=1 only=.*cyclebench-user'"
fake_root 'none [integrity] confidentiality'
expect_exit doctor_sees_lockdown_integrity 0 'WARN  kernel lockdown is \[integrity\]' -- "$CS" doctor --sysroot "$T/root"
fake_root '[none] integrity confidentiality'
expect_exit doctor_no_lockdown_is_ok 0 'ok    no kernel lockdown (\[none\])' -- "$CS" doctor --sysroot "$T/root"
fake_root ''
expect_exit doctor_without_securityfs_is_ok 0 'ok    no kernel lockdown (no /sys/kernel/security/lockdown)' -- "$CS" doctor --sysroot "$T/root"
expect_ok doctor_says_a_fake_root_cannot_tell_the_boost grep -q 'core clock of cpu0 not measured under a sysroot: cannot tell whether the core is boosted' "$T/out"
expect_ok doctor_measures_no_clock_under_a_sysroot sh -c "! grep -q 'core runs at' '$T/out'"
expect_exit doctor_measures_the_core_clock_here 0 "cpu0's core runs at [0-9.]* GHz, the TSC at [0-9.]* GHz" -- "$CS" doctor
expect_ok doctor_never_says_no_turbo_as_if_fine sh -c "! grep -q '^ok .*no turbo/boost control' '$T/out'"
expect_ok doctor_a_clock_gap_over_2_percent_is_a_warning_with_the_fix sh -c \
	"grep 'core runs at' '$T/out' | awk '{ for (i = 1; i <= NF; i++) if (\$i ~ /^[(][-+][0-9.]*%/) { p = \$i; gsub(/[()%:+]/, \"\", p) } }
	    END { w = \$1 == \"WARN\"; big = p > 2 || p < -2; exit !(w == big && (!w || index(\$0, \"fix:\"))) }'"

# ---- plausibility of real figures (make bench prints them) ----
./cyclebench-user -q -o "$T/fig" alu,base,calib,mem:chase args=4096,16777216 samples=300 ensembles=6 max_mb=64
rc=$?
t=$(sh perop.sh --calib "$CS" "$T/fig")
if [ $rc = 0 ] && [ -n "$t" ] && awk -v t="$t" 'BEGIN { exit !(t > 0 && 1 / t >= 0.2 && 1 / t <= 5) }'; then
	pass "calibration_is_0.2_to_5_core_cycles_per_tick ($(awk -v t="$t" 'BEGIN { printf "%.3f", 1 / t }'))"
else
	fail calibration_is_0.2_to_5_core_cycles_per_tick "exit $rc, ticks per core cycle '$t'"
fi
sh perop.sh "$CS" "$T/fig" > "$T/perop" 2>&1
v() { awk -v n="$1" '$1 == n { print $2 }' "$T/perop"; }
expect_ok per_op_figures_are_in_calibrated_core_cycles grep -q 'alu:add_dep .* core_cycles$' "$T/perop"
expect_ok every_per_op_figure_is_positive awk '$1 != "base:empty" && !($2 > 0) { bad = 1 } END { exit bad || NR < 5 }' "$T/perop"
expect_ok imul_chain_is_slower_than_add_chain awk -v a="$(v alu:add_dep)" -v i="$(v alu:imul_dep)" 'BEGIN { exit !(i > a) }'
expect_ok independent_adds_are_faster_than_dependent_ones awk -v a="$(v alu:add_dep)" -v i="$(v alu:add_indep)" 'BEGIN { exit !(i < a) }'
expect_ok a_16MiB_chase_is_slower_than_a_4KiB_one awk -v s="$(v mem:chase/4096)" -v l="$(v mem:chase/16777216)" 'BEGIN { exit !(l > s) }'

# estimators.py on runs whose truth is known: each region's cost dithered
# onto a TSC of 26-tick steps (a random phase a sample), 2 % of samples far
# out; 0.7 ticks a core cycle, add 1, imul 3, L1 4 cycles an op
python3 - "$T/est" <<'PY'
import os, random, sys
random.seed(7)
def region(ticks):
    return [int(ticks * 5) if random.random() < 0.02 else int((ticks + random.uniform(0, 26)) // 26) * 26
            for _ in range(4000)]
for run in "12":
    for path, ops, r, cyc in (("calib/add_chain", 64, 256, 1), ("alu/add_dep", 4, 1024, 1),
                              ("alu/imul_dep", 4, 1024, 3), ("mem/chase/4096", 256, 16, 4)):
        d = os.path.join(sys.argv[1] + run, path)
        os.makedirs(d)
        per = 0.7 * cyc * ops
        open(d + "/info", "w").write(f"name: {path.replace('/', ':', 1)}\nops: {ops}\nstate: ok\n"
                                     f"long_repeat: {r}\nensembles: 10\nsamples: 400\nrun_id: 1\n"
                                     "method: paoloni\ninterleave: yes\ntsc_step: 26\n")
        for f, ticks in (("cycles", 60 + per), ("cycles_long", 60 + per * r)):
            open(os.path.join(d, f), "w").write("\n".join(map(str, region(ticks))) + "\n")
PY
python3 estimators.py "$T/est1" "$T/est2" > "$T/est" 2>&1
expect_ok estimators_the_core_mean_over_median_ensembles_finds_the_truth awk '
	$1 == "core" && $3 == "median" { got = 1; ok = $5 > 0.9995 && $5 < 1.0005 && $7 > 2.9985 && $7 < 3.0015 && $9 > 3.998 && $9 < 4.002 }
	END { exit !(got && ok) }' "$T/est"
expect_ok estimators_the_median_snaps_to_the_step awk '
	$1 == "median" && $2 == "median" { got = 1; ok = $4 > 1.002 } END { exit !(got && ok) }' "$T/est"
expect_ok estimators_the_core_mean_ratios_median_finds_the_truth awk '
	$1 == "core" && $3 == "ratio" && $4 == "med." { got = 1; ok = $6 > 0.9995 && $6 < 1.0005 && $8 > 2.9985 && $8 < 3.0015 && $10 > 3.998 && $10 < 4.002 }
	END { exit !(got && ok) }' "$T/est"
# cyclestat itself, on the same runs: the truth within 0.05 %
sh perop.sh "$CS" "$T/est1" > "$T/est-cs" 2>&1
expect_ok cyclestat_finds_the_truth_of_dithered_runs awk '
	{ t = $1 == "alu:add_dep" ? 1 : $1 == "alu:imul_dep" ? 3 : $1 == "mem:chase/4096" ? 4 : 0 }
	t { n++; ok += $2 > t * 0.9995 && $2 < t * 1.0005 && $3 <= t && t <= $4 && $5 == "core_cycles" }
	END { exit !(n == 3 && ok == 3) }' "$T/est-cs"
expect_ok estimators_all_four_four_ways awk 'gsub(/[(]/, "(") == 3 { n++ } END { exit n != 16 }' "$T/est"

tap_end > /dev/null
../../tests/tap/count "$TAP_DIR"

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# make ab end to end (issue 43), on the host: scripts/ab.sh builds, boots
# QEMU under -icount shift=0 and prints cyclestat ab's table; this checks
# the tables.  A TAP stream (tests/tap/tap.sh) on stdout.
#   - A/A: HEAD against itself, one boot: every row the same, B - A
#     +0.000, exit 0
#   - one instruction: B built with -DCB_TEST_AB_ONE_MORE (tests/kmod/ab.c:
#     ab:adds and ab:ten_plus run one add more a copy): each exactly 1/ops
#     instructions an op dearer, slower, exit 1; every other row the same;
#     ab:only_b (B's alone), named in only=, new: A's runs leave it out
#     (its insmod would refuse the name), and the runs go AB BA; ab:shl,
#     one shift more and ops 5 for 4: 1.000 an op both, +1 a copy, slower
#     (ops 4 -> 5)
#   - MEM=1 (issue 52): B's ab:stride loads 256 bytes apart where A's
#     go 64 (tests/kmod/ab.c; 64 KiB for 16, the model's L1D 32 KiB): its
#     L1D misses per op move 0 to 1, slower, exit 1; its instructions do
#     not move in the icount table (+0.000, same), and every other result
#     counts the same in A and B
#   - CLOCK=both: A/A on both clocks, an icount boot and a time boot: a
#     table each, every row naming its clock (icount's +0.000, same), the
#     results in results/{icount,time}/{A,B}, and the time half compared
#     (exit 0 or 1: its verdict is TCG's clock's, not this test's)
#   - two kernels: KERNEL_A=SERIES KERNEL_B=OTHER twice (a boot a side):
#     the same table both times (where OTHER's headers are set up), SERIES
#     given the first time as a kernel of one's own: KERNEL_A=its image's
#     path, KDIR_A=its tree
#
#   tests/e2e/ab.sh [SERIES [OTHER]]     (default 6.1 6.12; the 6.12
#                                        lane runs it as 6.12 6.1)
# Each make ab's output is kept in build/e2e-SERIES/ab-NAME.txt.
. "$(dirname "$0")/../../scripts/help.sh"
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
series=${1:-6.1}
other=${2:-6.12}
out=${CB_E2E_OUT:-$top/build/e2e-$series}
. "$top/tests/tap/tap.sh"
mkdir -p "$out"
# the selection: the harness's floor, straight-line bodies, the tests'
# group, and (across kernels) two kernel paths
sel=base,alu,ab

# ab NAME [VAR=VALUE...]: make ab's run, its results in $out/ab-NAME (the
# builds shared in $out/ab: each side rebuilds only what changed), its
# table in $out/ab-NAME.txt, its exit status in $rc
ab() {
	local name=$1
	shift
	rc=0
	env CB_AB_OUT="$out/ab" CB_AB_RESULTS="$out/ab-$name" CB_AB_ADD=tests/kmod/ab.c "$@" \
		"$top/scripts/ab.sh" > "$out/ab-$name.txt" 2>&1 || rc=$?
	sed "s/^/# $name: /" "$out/ab-$name.txt"
}

# rows FILE: the table's rows (group:name first)
rows() { grep -E '^[a-z0-9_]+:[^ ]+ ' "$1"; }

# (CI= : progress lines, which CI=true silences)
ab aa CI= BASE=HEAD NEW=HEAD KERNEL="$series" PARAMS="only=$sel"
f=$out/ab-aa.txt
if [ $rc = 0 ]; then pass "A/A: exit 0"; else fail "A/A: exit 0, got $rc"; fi
got=$(sed -n 's/^ab: \[ *[0-9]* s\] //p' "$f" | tr '\n' '|')
want="the guest has booted|side A, run 1 of 2|side B, run 1 of 2|side B, run 2 of 2|side A, run 2 of 2|"
if [ "$got" = "$want" ]; then pass "A/A: a progress line a run, in the order AB BA, with the seconds"
else fail "A/A: a progress line a run, in the order AB BA, with the seconds" "expected '$want', got '$got'"; fi
n=$(rows "$f" | wc -l)
if [ "$n" -ge 6 ]; then pass "A/A: a row per fragment ($n)"; else fail "A/A: at least 6 rows, got $n"; fi
bad=$(rows "$f" | awk '$2 != "icount" || $6 != "+0.000" || $NF != "same"')
if [ -z "$bad" ] && [ "$n" -gt 0 ]; then pass "A/A under icount: every row +0.000, same"
else fail "A/A under icount: every row +0.000, same" "$bad"; fi

ab one BASE=HEAD NEW=HEAD KERNEL="$series" KCFLAGS_B=-DCB_TEST_AB_ONE_MORE \
	PARAMS="only=base,alu,ab:adds,ab:same,ab:ten,ab:ten_plus,ab:shl,ab:only_b"
f=$out/ab-one.txt
if [ $rc = 1 ]; then pass "one instruction more: exit 1"; else fail "one instruction more: exit 1, got $rc"; fi
if [ "$(tail -n 1 "$f")" = "verdict: slower (exit 1 from scripts/ab.sh)" ]; then
	pass "one instruction more: the last line says the verdict and the exit"
else
	fail "one instruction more: the last line says the verdict and the exit" "$(tail -n 1 "$f")"
fi
if grep -q "only=ab:only_b: only B's build has it; A's runs leave it out" "$f" &&
	grep -q '^order: AB BA$' "$out/ab-one/ab.txt"; then
	pass "one instruction more: only=ab:only_b left out of A's runs, said; the order AB BA recorded"
else
	fail "one instruction more: only=ab:only_b left out of A's runs; the order AB BA" "$(grep -E '^(ab: only|order)' "$f" "$out/ab-one/ab.txt")"
fi
# the expected figures from A's own results: its per-op count, and one
# instruction more a copy of ops operations (ab:adds: 4 adds then 5,
# ab:ten_plus: 10 then 11)
for fr in adds ten_plus; do
	ops=$(sed -n 's/^ops: //p' "$out/ab-one/A/run1/ab/$fr/info")
	want=$(rows "$f" | awk -v f="ab:$fr" -v ops="${ops:-0}" '$1 == f && ops > 0 {
		printf "%.3f %+.3f slower", $4 + 1 / ops, 1 / ops }')
	got=$(rows "$f" | awk -v f="ab:$fr" '$1 == f { print $5, $6, $NF }')
	if [ -n "$want" ] && [ "$got" = "$want" ]; then
		pass "one instruction more: ab:$fr B = A + 1/$ops an op, slower ($got)"
	else
		fail "one instruction more: ab:$fr B = A + 1/ops an op, slower" "expected '$want', got '$got'"
	fi
done
if rows "$f" | grep -qE '^ab:shl +icount +insns/op +1\.000 +1\.000 +\+0\.000 +\+1 +\+25\.00% +slower \(ops 4 → 5\)$'; then
	pass "one instruction more: ab:shl, ops 4 to 5: 1.000 an op both, +1 a copy, slower (ops 4 → 5)"
else
	fail "one instruction more: ab:shl, ops 4 to 5: 1.000 an op both, +1 a copy, slower" "$(rows "$f" | grep '^ab:shl')"
fi
bad=$(rows "$f" | awk '$1 !~ /^ab:(adds|ten_plus|shl|only_b)$/ && ($6 != "+0.000" || $NF != "same")')
if [ -z "$bad" ]; then pass "one instruction more: every other row +0.000, same"
else fail "one instruction more: every other row +0.000, same" "$bad"; fi
if rows "$f" | grep -qE '^ab:only_b .* new$'; then pass "one instruction more: ab:only_b, B's alone, is new"
else fail "one instruction more: ab:only_b, B's alone, is new"; fi
# (compare: exit 1, ab:adds slower; 2 would be an input it cannot read)
crc=2
r=$out/ab-one
[ -d "$r/A/run2" ] && [ -d "$r/B/run2" ] && { crc=0; "$top/userspace/cyclestat/cyclestat" -q compare \
	--allow-missing "$r/A/run1" "$r/A/run2" -- "$r/B/run1" "$r/B/run2" \
	> "$out/ab-one-compare.txt" 2>&1 || crc=$?; }
if [ $crc != 2 ] && grep -q '^ab:adds ' "$out/ab-one-compare.txt"; then
	pass "the results stay in one tree compare reads (results/{A,B}/runN)"
else
	fail "the results stay in one tree compare reads (results/{A,B}/runN)" "$(tail -n 3 "$out/ab-one-compare.txt")"
fi

# MEM=1: one constant grows a working set from half the L1D to twice it
ab mem BASE=HEAD NEW=HEAD KERNEL="$series" KCFLAGS_B=-DCB_TEST_AB_ONE_MORE MEM=1 \
	CACHE=l1d=32K:8:64,l1i=32K:8:64,l2=1M:16:64 PARAMS="only=alu,ab:same,ab:stride"
f=$out/ab-mem.txt
if [ $rc = 1 ]; then pass "MEM=1: a working set twice the L1D: exit 1"; else fail "MEM=1: exit 1, got $rc"; fi
got=$(rows "$f" | awk '$1 == "ab:stride" && $2 == "icount" { print $6, $NF }')
if [ "$got" = "+0.000 same" ]; then pass "MEM=1: ab:stride's instructions did not move (icount: +0.000, same)"
else fail "MEM=1: ab:stride's instructions did not move (icount: +0.000, same)" "got '$got'"; fi
got=$(awk '$1 == "ab:stride" && $2 == "L1D-miss" { print $3, $4, $5, $6 }' "$f")
if [ "$got" = "0.000 1.000 +1.000 slower" ]; then pass "MEM=1: ab:stride's L1D misses per op 0 to 1, slower"
else fail "MEM=1: ab:stride's L1D misses per op 0 to 1, slower" "got '$got'"; fi
moved=$(awk '$1 ~ /^[a-z0-9_]+:/ && $2 ~ /^(insns|loads|stores|L1D-acc|L1D-miss|L1I-miss|L2-miss)$/ { print $1, $2 }' "$f" |
	grep -v '^ab:stride \(L1D-miss\|L2-acc\)$')
same=$(sed -n 's/^the same in A and B, every counter: //p' "$f")
if [ -z "$moved" ] && [ "$same" = "ab:same, alu:add_dep, alu:add_indep, alu:imul_dep" ]; then
	pass "MEM=1: every other result and counter the same in A and B ($same)"
else
	fail "MEM=1: every other result and counter the same in A and B" "moved: $moved; same: $same"
fi
if grep -q '^memory: slower (ab:stride)$' "$f" && grep -q '^MEMORY: the model is CACHE=\.$' "$f" &&
	grep -q 'l1d 32K:8:64, l1i 32K:8:64, l2 1M:16:64' "$f"; then
	pass "MEM=1: the table names the model and the verdict"
else
	fail "MEM=1: the table names the model and the verdict" "$(grep -E '^(memory|MEMORY|per op)' "$f")"
fi

# both clocks, a small selection (the time half: 8 runs a side, its calib:add_chain added)
ab both BASE=HEAD NEW=HEAD KERNEL="$series" CLOCK=both PARAMS="only=alu:add_dep,alu:imul_dep samples=1000 ensembles=5"
f=$out/ab-both.txt
if [ $rc = 0 ] || [ $rc = 1 ]; then pass "CLOCK=both: both halves compared (exit $rc)"
else fail "CLOCK=both: both halves compared, exit 0 or 1, got $rc"; fi
got=$(rows "$f" | awk '{ print $1, $2 }' | LC_ALL=C sort | tr '\n' ' ')
want="alu:add_dep icount alu:add_dep time alu:imul_dep icount alu:imul_dep time calib:add_chain time "
if [ "$got" = "$want" ]; then pass "CLOCK=both: a row a fragment on each clock, each naming it"
else fail "CLOCK=both: a row a fragment on each clock, each naming it" "expected '$want', got '$got'"; fi
bad=$(rows "$f" | awk '$2 == "icount" && ($6 != "+0.000" || $NF != "same")')
if [ -z "$bad" ]; then pass "CLOCK=both: the icount half, A/A: +0.000, same"
else fail "CLOCK=both: the icount half, A/A: +0.000, same" "$bad"; fi
n=$(ls -d "$out"/ab-both/icount/A/run* "$out"/ab-both/icount/B/run* "$out"/ab-both/time/A/run* "$out"/ab-both/time/B/run* 2>/dev/null | wc -l)
if [ "$n" = 20 ]; then pass "CLOCK=both: results/icount/{A,B}: 2 runs each, results/time/{A,B}: 8"
else fail "CLOCK=both: results/icount/{A,B}: 2 runs each, results/time/{A,B}: 8" "$n run folders, want 20"; fi

if ! "$top/scripts/kdir.sh" --kernel "$other" > /dev/null 2>&1; then
	tap_skip "$series against $other: the same table twice" "no $other headers (scripts/deps.sh --kernel $other)"
else
	# the first time SERIES is given as a kernel of one's own (its image's
	# path, KDIR_A its tree), the second by name: the same table proves
	# the path boots the image and builds against the tree
	cache=${CB_CACHE:-/var/cache/cyclebench}
	img=$cache/$(cat "$cache/kernel-$series" 2>/dev/null)/vmlinuz
	rcs=()
	for k in 1 2; do
		if [ $k = 1 ]; then
			a=(KERNEL_A="$img" KDIR_A="$("$top/scripts/kdir.sh" --kernel "$series")")
		else
			a=(KERNEL_A="$series")
		fi
		ab "kernels-$k" BASE=HEAD NEW=HEAD "${a[@]}" KERNEL_B="$other" PARAMS="only=$sel,time:ktime_get_ns,sync:spin_lock_unlock"
		rcs+=("$rc")
	done
	rc1=${rcs[0]} rc2=${rcs[1]}
	n=$(rows "$out/ab-kernels-1.txt" | wc -l)
	if [ "$n" -ge 8 ] && [ "$rc1" = "$rc2" ] && [ "$rc1" != 2 ] &&
		cmp -s <(rows "$out/ab-kernels-1.txt") <(rows "$out/ab-kernels-2.txt"); then
		pass "$series against $other: the same table twice, $series given once as an image and its tree ($n rows, exit $rc1)"
	else
		fail "$series against $other: the same table twice" "exit $rc1 and $rc2, $n rows" \
			"$(diff <(rows "$out/ab-kernels-1.txt") <(rows "$out/ab-kernels-2.txt") | head -n 6)"
	fi
fi
tap_end

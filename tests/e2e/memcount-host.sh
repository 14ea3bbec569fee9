# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2154,SC2034 # run.sh's variables
# The memcount suite's host side, sourced by tests/e2e/run.sh (bash):
# cbcount.so (userspace/qemu-plugin), the TCG plugin that counts inside the
# timed regions, against bodies whose memory accesses are known
# (tests/kmod/memops.c) and the shipped alu, loop and mem groups, under
# -icount shift=0.  Uses run.sh's top, out, series, test_module, boot, pass
# and fail.
#
# What it proves: the plugin builds against the installed QEMU and its
# cache model passes its unit test; per op (long - short) / ((R - 1) x
# ops), exactly: 1 load for memops:load4, 1 store for store4, one of each
# for rmw4, none for alu4 and the alu group, the instructions icount's
# TSC gives, the loads and stores of the bodies' code (a loop's or chase's
# state load and the cursor's store between copies included); the
# model's L1D misses: none for a sweep of half its 32 KiB, all for one of
# twice it; results of one run told apart by the argument the module
# names; and, booted twice, the same counts but for the mem:chase rows
# (a new random ring each boot: the kernel's RNG is the host's under TCG).

# memcount_want PEROP RESULT METHOD COLUMN VALUE: one exact figure of
# perop.py --exact's table
memcount_want() {
	local got
	got=$(awk -v r="$2" -v m="$3" -v c="$4" '
		NR == 1 { for (i = 6; i <= NF; i++) col[$i] = i - 3 }
		$1 == r && $2 == m { print $(col[c]); exit }' "$1")
	if [ "$got" = "$5" ]; then
		pass "memcount: $2 $3: $4 per op = $5"
	else
		fail "memcount: $2 $3: $4 per op: expected $5, got ${got:-nothing}"
	fi
}

memcount_suite() {
	local p=$top/userspace/qemu-plugin ko_dir=$out/memcount-ko b t
	if ! make -s -C "$p" > "$out/memcount-build.log" 2>&1; then
		fail "memcount: cbcount.so and cbmark build (make -C userspace/qemu-plugin: $(tail -n 2 "$out/memcount-build.log" | tr '\n' '|'))"
		return
	fi
	pass "memcount: cbcount.so builds against the installed QEMU's plugin API"
	if make -s -C "$p" tests/cache-test > "$out/memcount-build.log" 2>&1; then
		tap_run cache-model "$p/tests/cache-test" | grep '^not ok'
	else
		fail "memcount: the cache model's unit test builds: $(tail -n 2 "$out/memcount-build.log" | tr '\n' '|')"
	fi
	test_module memcount tests/kmod/memops.c kmod/fragments/alu.c \
		kmod/fragments/loop.c kmod/fragments/mem.c || return
	# (the bodies the truth is known of pass the object-code check: each
	# region holds exactly its body's instructions)
	if python3 "$top/tests/kmod/regions.py" "$ko_dir/cyclebench.ko" "$ko_dir"/kmod/fragments/*.c \
		> "$ko_dir/regions.out" 2>&1; then
		pass "memcount: the test module's regions are clean (tests/kmod/regions.py)"
	else
		fail "memcount: the test module's regions are clean (tests/kmod/regions.py)" "$(head -n 3 "$ko_dir/regions.out")"
	fi
	if ! python3 "$p/regions.py" "$ko_dir/cyclebench.ko" > "$ko_dir/cbregions.txt" 2> "$ko_dir/cbregions.err"; then
		fail "memcount: regions.py reads every region of the test module: $(head -n 3 "$ko_dir/cbregions.err" | tr '\n' '|')"
		return
	fi
	# (skip=10: each region's first 10 runs after a dump are left out, as
	# the module leaves out its warmup=10 samples: the probe's and the
	# warm-up's runs, which find a new ring and new code cold)
	for b in a b; do
		boot "memcount-$b" --icount --ko "$ko_dir/cyclebench.ko" --add "$p/cbmark" \
			--plugin "$p/cbcount.so,regions=$ko_dir/cbregions.txt,out=$out/memcount-$b/counts.txt,l1d=32K:8:64,l1i=32K:8:64,l2=1M:16:64,skip=10" \
			"$top/tests/e2e/memcount.sh"
		t=$out/memcount-$b/perop.txt
		if ! python3 "$p/perop.py" --exact "$out/memcount-$b/counts.txt" "$out/memcount-$b/runs.txt" > "$t" 2> "$t.err"; then
			fail "memcount-$b: the plugin counted both regions of every result: $(head -n 3 "$t.err" | tr '\n' '|')"
		fi
	done
	t=$out/memcount-a/perop.txt
	[ -s "$t" ] || return
	python3 "$p/perop.py" "$out/memcount-a/counts.txt" "$out/memcount-a/runs.txt" | sed 's/^/# memcount: /'
	# every stop met its region's start, on the one vCPU
	if grep -q '^# cbcount: exit, armed yes, unmatched stops 0, regions on another vCPU 0, runs lost for memory 0$' "$out/memcount-a/counts.txt"; then
		pass "memcount: every region the plugin saw stopped where it started"
	else
		fail "memcount: every region the plugin saw stopped where it started: $(tail -n 1 "$out/memcount-a/counts.txt")"
	fi
	# every result: the plugin's instructions are icount's ticks
	awk 'NR > 1 && $3 != $NF { print $1, $2 ": " $3 " instructions but " $NF " ticks" }' "$t" > "$t.insns"
	if [ -s "$t.insns" ]; then
		fail "memcount: instructions per op = icount's ticks per op, every result" "$(cat "$t.insns")"
	else
		pass "memcount: instructions per op = icount's ticks per op, every result ($(($(wc -l < "$t") - 1)))"
	fi
	for m in paoloni lfence; do
		memcount_want "$t" memops:load4 $m loads 1
		memcount_want "$t" memops:load4 $m stores 0
		memcount_want "$t" memops:store4 $m loads 0
		memcount_want "$t" memops:store4 $m stores 1
	done
	# (measured three times: alone, beside others, and after the module
	# was loaded again)
	if [ "$(grep -c '^memops:load4 paoloni ' "$t")" = 3 ] &&
	   [ "$(grep '^memops:load4 paoloni ' "$t" | sort -u | wc -l)" = 1 ]; then
		pass "memcount: memops:load4 counts the same after the module is loaded again and cbmark arms again"
	else
		fail "memcount: memops:load4 counts the same after the module is loaded again: $(grep '^memops:load4 paoloni ' "$t" | tr '\n' '|')"
	fi
	memcount_want "$t" memops:rmw4 paoloni loads 1
	memcount_want "$t" memops:rmw4 paoloni stores 1
	memcount_want "$t" memops:rmw4 paoloni l1d_acc 2
	for r in memops:alu4 alu:add_dep alu:imul_dep; do
		memcount_want "$t" $r paoloni loads 0
		memcount_want "$t" $r paoloni stores 0
		memcount_want "$t" $r paoloni l1d_miss 0
	done
	# a loop of 100 loads its count from the state once: 1/100 an iteration
	memcount_want "$t" loop:dec_jnz/100 paoloni loads 1/100
	memcount_want "$t" loop:dec_jnz/100 paoloni stores 0
	# 256 loads a copy, and the cursor's load and store between copies
	for r in mem:load_l1 mem:chase/4096 mem:chase/65536; do
		memcount_want "$t" $r paoloni loads 257/256
		memcount_want "$t" $r paoloni stores 1/256
	done
	# a line a load, after the count's and the buffer's loads (2/ARG)
	memcount_want "$t" memops:sweep/256 paoloni loads 129/128
	memcount_want "$t" memops:sweep/1024 paoloni loads 513/512
	# 16 KiB stay in the 32 KiB L1D; 64 KiB miss on every line (and the
	# state's line, which the sweep evicts each copy: 1025 a copy)
	memcount_want "$t" memops:sweep/256 paoloni l1d_miss 0
	memcount_want "$t" memops:sweep/1024 paoloni l1d_miss 1025/1024
	memcount_want "$t" memops:sweep/1024 paoloni l2_miss 0
	memcount_want "$t" mem:chase/4096 paoloni l1d_miss 0
	memcount_want "$t" mem:chase/65536 paoloni l2_miss 0
	memcount_want "$t" memops:load4 paoloni l1i_miss 0
	# a random ring of 64 KiB misses the 32 KiB L1D nearly every load
	# (not exactly: the ring's first runs are cold, and the state's line
	# is evicted or not by the ring's order)
	b=$(awk '$1 == "mem:chase/65536" && $2 == "paoloni" {
		split($7, f, "/"); v = f[2] ? f[1] / f[2] : f[1]; print (v >= 0.99 ? 1 : 0) }' "$t")
	if [ "$b" = 1 ]; then pass "memcount: mem:chase/65536: L1D misses per op >= 0.99"
	else fail "memcount: mem:chase/65536: L1D misses per op >= 0.99: got $(awk '$1 == "mem:chase/65536" { print $7 }' "$t")"; fi
	# three results of one run, two of them one body with two arguments:
	# each its own counts, the same as its run alone gave
	local r
	for r in memops:sweep/256 memops:sweep/1024 memops:load4; do
		if [ "$(grep -c "^$r paoloni " "$t")" -ge 2 ] &&
		   [ "$(grep "^$r paoloni " "$t" | sort -u | wc -l)" = 1 ]; then
			pass "memcount: $r measured beside others in one run counts as it does alone"
		else
			fail "memcount: $r measured beside others in one run counts as it does alone" \
				"$(grep "^$r paoloni " "$t" | tr '\n' '|')"
		fi
	done
	# make run MEM=1's table: perop.py --save puts the sums into the tree
	# saved after that run, and cyclestat shows its three results per op
	local tree=$out/memcount-a/tree-mem tab=$out/memcount-a/tree-table.txt
	rm -rf "$tree"
	cp -r "$out/memcount-a/tree" "$tree"
	chmod -R u+w "$tree"
	if python3 "$p/perop.py" --save "$tree" --dump "$(cat "$out/memcount-a/tree-dump")" \
		--source CACHE= "$out/memcount-a/counts.txt" > "$tab.err" 2>&1 &&
	   "$top/userspace/cyclestat/cyclestat" --brief "$tree" > "$tab" 2>> "$tab.err"; then
		pass "memcount: perop.py --save writes the counts into the saved tree, cyclestat reads them"
	else
		fail "memcount: perop.py --save writes the counts into the saved tree, cyclestat reads them" \
			"$(head -n 3 "$tab.err")"
	fi
	sed -n '/^MEMORY/,/^not counted/s/^/# memcount: tree: /p' "$tab"
	expect_table() {
		if awk -v r="$1" -v c="$2" -v want="$3" '$1 == "MEMORY" { for (i = 2; i <= NF; i++) if ($i == c) col = i }
			col && $1 == r && $col == want { ok = 1 } END { exit !ok }' "$tab"; then
			pass "memcount: make run MEM=1's table: $1 $2 = $3"
		else
			fail "memcount: make run MEM=1's table: $1 $2 = $3" "$(grep "^$1 " "$tab" | tail -n 1)"
		fi
	}
	expect_table memops:sweep/256 loads 1.008
	expect_table memops:sweep/256 insns 4.008
	expect_table memops:sweep/1024 L1D-miss 1.001
	expect_table memops:load4 loads 1.000
	expect_table memops:load4 stores 0.000
	if grep -q '^the model: CACHE=: l1d 32K:8:64, l1i 32K:8:64, l2 1M:16:64' "$tab" &&
	   grep -q '^not counted: .*alu:add_dep' "$tab"; then
		pass "memcount: the table names the model, and the tree's results that run did not count"
	else
		fail "memcount: the table names the model, and the tree's results that run did not count" \
			"$(grep -A 3 '^MEMORY' "$tab")"
	fi
	# two boots: the same counts, but for the random rings
	if [ -s "$out/memcount-b/perop.txt" ] &&
	   cmp -s <(grep -v '^mem:chase' "$t") <(grep -v '^mem:chase' "$out/memcount-b/perop.txt"); then
		pass "memcount: two boots give the same per-op counts for every result but mem:chase's (random rings)"
	else
		fail "memcount: two boots give the same per-op counts for every result but mem:chase's" \
			"$(diff <(grep -v '^mem:chase' "$t") <(grep -v '^mem:chase' "$out/memcount-b/perop.txt" 2>/dev/null) | head -n 6)"
	fi
}

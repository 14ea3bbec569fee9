#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Static checks of the module, no kernel needed: a W=1 build and a sparse
# build without a single warning, checkpatch --strict clean, modinfo
# complete, and - read from the object code - nothing but the fragment body
# between the two timestamps of any sampler.  TAP (tests/tap/tap.sh) into
# $TAP_DIR (default build/tap-kmod), counted by tests/tap/count, whose last
# line is "N passed, N failed".
#
#   tests/kmod/run.sh            (make check; KERNELS="6.1 6.12" for both)
. "$(dirname "$0")/../../scripts/help.sh"
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
KDIR=${KDIR:-$(scripts/kdir.sh)}
CHECKPATCH=${CHECKPATCH:-/var/cache/cyclebench/checkpatch/checkpatch.pl}
. tests/tap/tap.sh
tap_lane kmod "$top/build/tap-kmod"
finish() {
	tap_end > /dev/null
	tests/tap/count "$TAP_DIR"
}
# The timed regions are read from the object code by tests/kmod/regions.py
# (its --help says what it checks and what its table's columns are).
mkdir -p build

# No call circle between the files of the module, cyclebench-user or
# cyclestat (tests/callgraph.py --help; --graph prints the arrows).
# points PREFIX: a checker's "ok - WHAT" and "not ok - WHAT" lines, as points
points() {
	local line
	while IFS= read -r line; do
		case $line in
		"ok - "*) pass "$1${line#ok - }" ;;
		"not ok - "*) fail "$1${line#not ok - }" ;;
		esac
	done
}
points "call graph: " < <(python3 tests/callgraph.py --tap)
# ... and its layer check bites: a copy whose internal.h puts grammar.c
# above results.c, which calls it
lay=build/kmod-layers
rm -rf "$lay"
mkdir -p "$lay"
{ echo Kbuild; echo userspace/runner/Makefile; find kmod lib userspace -name '*.[ch]' -not -path '*/obj/*'; } |
	cpio -pdm --quiet "$lay"
sed -i 's/params\.c results\.c lifecycle\.c grammar\.c/params.c grammar.c lifecycle.c results.c/' "$lay/kmod/internal.h"
expect_eq "call graph: the layer check bites (internal.h with grammar.c above results.c)" \
	"not ok - module: every call points down kmod/internal.h's layers; kmod/results.c calls lib/grammar.c (cb_default_arg_fits), a layer above it in kmod/internal.h: move the function down, or pass it as a callback" \
	"$(python3 tests/callgraph.py --tap --top "$lay" | sed -n 1p)"
# ... and a header's inline functions count as its unit's: one in
# counts.h (counts.c's) that calls the parser, which puts samples there
printf 'static inline void cs_bite(struct cs_err *e) { cs_perror(e); }\n' >> "$lay/userspace/cyclestat/counts.h"
expect_eq "call graph: a circle through a header's inline function is seen (counts.h's, counts.c's)" \
	"not ok - cyclestat: a call circle between files: {userspace/cyclestat/counts.c, userspace/cyclestat/numparse.c}: userspace/cyclestat/counts.c -> userspace/cyclestat/numparse.c (cs_perror); userspace/cyclestat/numparse.c -> userspace/cyclestat/counts.c (cs_samples_push) - move the function to the layer it belongs to, or pass it as a callback" \
	"$(python3 tests/callgraph.py --tap --top "$lay" | grep '^not ok - cyclestat')"

# Who may include what (README.md, Layout; tests/includes.py --help): on
# this tree, and on a copy where cyclestat reaches into the runner and the
# author's API into the module's core, which it must refuse.
points "" < <(python3 tests/includes.py --tap)
lay=build/kmod-layout
rm -rf "$lay"
mkdir -p "$lay"
find include lib kmod userspace -name '*.[ch]' -not -path '*/obj/*' | cpio -pdm --quiet "$lay"
printf '#include "runner.h"\n' >> "$lay"/userspace/cyclestat/cli.c
printf '#include "internal.h"\n' >> "$lay"/include/cyclebench/cyclebench.h
got=$(python3 tests/includes.py --top "$lay" | sed 's/ is .*//; s/ reaches.*//' | tr '\n' '|')
expect_eq "includes: the check bites (cyclestat into the runner, the author's API into the core)" \
	"include/cyclebench/cyclebench.h:$(wc -l < "$lay"/include/cyclebench/cyclebench.h): #include \"internal.h\"|userspace/cyclestat/cli.c:$(wc -l < "$lay"/userspace/cyclestat/cli.c): #include \"runner.h\"|" "$got"

# One definition of each struct name across the module, the runner and
# cyclestat: where the two sides' types differ they are named apart.
twice=$(grep -rhoE '^[[:space:]]*struct [A-Za-z_0-9]+ [{]' kmod lib include userspace \
	--include='*.c' --include='*.h' | sed 's/^[[:space:]]*//; s/ [{]$//' | sort | uniq -d)
if [ -z "$twice" ]; then pass "no struct defined twice under one name (kmod/ lib/ include/ userspace/)"
else fail "structs defined twice under one name: $(echo $twice | sed 's/struct //g'); name each side's apart or share one definition"; fi

# the kernel's sources: kmod/, the wire contract, and lib/ but for the
# files only builds outside the kernel use (portable.h, the stand-in for
# the kernel's headers; cpuflags.h, userspace's CPUID)
srcs=()
for f in kmod/*.c kmod/*.h kmod/fragments/*.c include/cyclebench/*.h lib/*.c lib/*.h; do
	case $f in include/cyclebench/portable.h | lib/cpuflags.h) ;; *) srcs+=("$f") ;; esac
done

# build_clean NAME MAKE-ARGS...: a full rebuild that must print no warning.
# Its objects are deleted by hand: kbuild's `make clean M=.` would also
# empty build/, where the checker's tests below keep theirs.
build_clean() {
	local name=$1 log=build/kmod-$1.log
	shift
	find kmod lib -name '*.o' -delete
	rm -f cyclebench.o cyclebench.mod.o cyclebench.ko
	if ! make -C "$KDIR" M="$top" -j"$(nproc)" "$@" modules > "$log" 2>&1; then
		fail "$name build: failed: $(grep -m3 -E 'error|Error' "$log")"
	elif grep -qE 'warning:|error:' "$log"; then
		fail "$name build: $(grep -cE 'warning:|error:' "$log") warnings, first: $(grep -m1 -E 'warning:|error:' "$log")"
	else
		pass "$name build: no warnings"
	fi
}
# one build does both: W=1's warnings from the compiler, sparse's from
# C=2 (every file checked); the tests' build first, whose fault_* hooks
# a product build must not have (no knob that changes what is measured)
fault_params() { modinfo -F parm cyclebench.ko 2>/dev/null | sed -n 's/^\(fault_[a-z_]*\):.*/\1/p' | sort | tr '\n' ' '; }
build_clean "W=1 and sparse, the tests' build (CB_TEST_HOOKS=y)" W=1 C=2 CHECK=sparse CB_TEST_HOOKS=y
expect_eq "the tests' build has the fault_* hooks" \
	"fault_barrier_ms fault_pmu_fail fault_pmu_rewind fault_pmu_tsc fault_setup " "$(fault_params)"
build_clean "W=1 and sparse" W=1 C=2 CHECK=sparse
expect_eq "a product build has no test hook (modinfo: no fault_* parameter)" "" "$(fault_params)"
# a body that leaves preemption disabled is stopped and named, never
# "repaired" (sample.c): no path writes the preemption count
expect_eq "no code of the module or lib/ writes preempt_count" "" \
	"$(grep -nE 'preempt_count_(set|add|sub)|__preempt_count_(add|sub|dec|inc)|__preempt_count\b' kmod/*.[ch] kmod/fragments/*.c lib/*.[ch] include/cyclebench/*.h | tr '\n' ' ')"
# ... and W=1 on every QEMU kernel series, each in its own tree (the one
# whose headers are KDIR's was just built).
for k in ${KERNELS:-6.1 6.12 6.12-rt 6.1-debug}; do
	if [ "$(scripts/kdir.sh --kernel "$k" 2>/dev/null)" = "$KDIR" ]; then
		pass "W=1 build for $k: the build above (the same headers, $KDIR)"
	elif scripts/build-ko.sh --clean --strict "$k" > build/kmod-ko-$k.out 2> build/kmod-ko-$k.err; then
		pass "W=1 build for $k: no warnings"
	else
		fail "W=1 build for $k: $(tail -n3 build/kmod-ko-$k.err)"
	fi
done

if [ -x "$CHECKPATCH" ] || [ -r "$CHECKPATCH" ]; then
	# one perl for every file (--terse: each problem starts FILE:LINE:)
	all=$(perl "$CHECKPATCH" --strict --no-tree --terse --show-types -f "${srcs[@]}" 2>&1 |
		grep -vE '^total:|^$')
	for f in "${srcs[@]}"; do
		out=$(printf '%s\n' "$all" | awk -v f="$f:" 'index($0, f) == 1')
		# a fragment that sleeps is the object-code check's error, with
		# its fix; checkpatch's msleep() advice would only repeat it
		case $f in kmod/fragments/*) out=$(printf '%s\n' "$out" | grep -v ':MSLEEP:' || true) ;; esac
		if [ -z "$out" ]; then pass "checkpatch --strict: $f"
		else fail "checkpatch --strict: $f: $(echo "$out" | head -n3)"; fi
	done
else
	fail "checkpatch: $CHECKPATCH missing; try: sudo scripts/deps.sh --check"
fi

if [ ! -e cyclebench.ko ]; then
	fail "cyclebench.ko was not built"
	finish
	exit 1
fi

mi=$(modinfo cyclebench.ko 2>&1)
for k in description license version; do
	if echo "$mi" | grep -qE "^$k: +[^ ]"; then pass "modinfo shows $k"
	else fail "modinfo shows $k: missing"; fi
done
# one version, include/cyclebench/contract.h's: the module's, cyclebench-user's,
# cyclestat's and dkms.conf's package
v=$(sed -n 's/^#define CB_VERSION "\(.*\)"$/\1/p' include/cyclebench/contract.h)
got="module $(echo "$mi" | sed -n 's/^version: *//p'), dkms.conf $(sed -n 's/^PACKAGE_VERSION="\(.*\)"$/\1/p' dkms.conf)"
if [ "$got" = "module $v, dkms.conf $v" ]; then pass "one version, $v: modinfo and dkms.conf say it"
else fail "one version, $v (include/cyclebench/contract.h): got $got"; fi
for p in samples ensembles warmup method cpu only run_on_load max_mb; do
	if echo "$mi" | grep -qE "^parm: +$p:.*default"; then pass "modinfo: parameter $p described with its default"
	else fail "modinfo: parameter $p: no description with a default"; fi
done

# The timed regions, from the object code: one line per problem, naming
# the fragment, the region and the instruction, with the fix.
cp cyclebench.ko build/cyclebench-check.ko
if problems=$(python3 tests/kmod/regions.py --table build/cyclebench.regions \
		build/cyclebench-check.ko kmod/fragments/*.c 2>&1); then
	pass "object code: $(grep -vc '^#' build/cyclebench.regions) regions, each the body's own code: the short region the body alone, the long one 16 copies of it, nothing of the harness (table: build/cyclebench.regions)"
	# what is not a problem but timed with a body (a kernel option's calls)
	echo "$problems" | grep '^note: ' | sed 's/^/# /'
	# the fragments checked, a line per group: a new one shows here
	awk '!/^#/ && !seen[$1]++ { split($1, p, ":")
		if (!(p[1] in names)) order[++n] = p[1]
		names[p[1]] = names[p[1]] " " p[2] }
	END { for (i = 1; i <= n; i++) print "# checked " order[i] ":" names[order[i]] }' \
		build/cyclebench.regions
else
	# the point, then a line per problem under it
	mapfile -t lines <<< "$problems"
	n=$(echo "$problems" | grep -vc '^note: ')
	fail "object code: $n problem$([ "$n" = 1 ] || echo s) (columns of build/cyclebench.regions: tests/kmod/regions.py --help)" \
		"${lines[@]}"
fi
empty=$(awk '$1 == "base:empty" && $3 == "short" { print $5 }' build/cyclebench.regions | sort -u | tr '\n' ' ')
check_regions_in() { awk -v f="$2" '$1 == f && $6 == "clean"' "$1" | grep -c .; }
check_regions() { check_regions_in build/cyclebench.regions "$1"; }
# every method's two regions: the methods regions.py knows (its TAGS)
methods=$(python3 -B -c 'import sys; sys.path.insert(0, "tests/kmod"); import regions; print(len(regions.TAGS))')
if [ "$empty" = "0 " ] && [ "$(check_regions base:empty)" -eq $((2 * methods)) ]; then
	pass "object code: base:empty: $methods methods, nothing between the marks"
else
	fail "object code: base:empty: expected $((2 * methods)) clean regions with no body, got '$empty'"
fi
if [ "$(check_regions time:ktime_get_ns)" -eq $((2 * methods)) ]; then
	pass "object code: a body that calls the kernel (time:ktime_get_ns) passes: $((2 * methods)) clean regions"
else
	fail "object code: time:ktime_get_ns: expected $((2 * methods)) clean regions ($methods short, $methods long)"
fi

# The checker's own tests, on their own bodies only (the base group and
# tests/kmod/copies.c), never on an author's fragments:
#  - copies:mul_state (an input read through the state) keeps its multiply
#    in every copy: 16 times the short region's instructions;
#  - copies:mul_const (opaque constants) builds them in every copy;
#  - copies:load_state keeps its own load in every copy;
#  - a harness that calls the body through a pointer, one that spills
#    around it, one whose long region lets copies share a load (merge), a
#    body the compiler hoists, bodies it folds to a constant
#    (tests/kmod/folded.c: stored, behind raw asm, made by a wrapper macro
#    too), regions that address other memory than the body alone or spill
#    between the long region's copies (tests/kmod/operands.c), a body that
#    clobbers the harness's %r15 (tests/kmod/clobber.c) and a body that
#    calls msleep() (tests/kmod/sleepy.c) are each reported, for exactly
#    the bodies they break, by name, with the cause.
# The samplers are all in the fragment files (harness.h's macros), so a
# test needs only its two fragment objects, compiled by kbuild with the
# module's flags, not the harness's C files (five modules' worth were
# most of a cold `make check`); regions.py reads them joined into one
# object (ld -r) as it reads the module.  Each test is built in its own
# folder, kept from run to run: the sources are copied with their times
# (cp -p), so kbuild rebuilds only what changed since the last run (its
# .cmd files also catch changed flags or headers).
selftest() {	# NAME FILE MAKE-ARGS...: build the test's objects in build/kmod-selftest-NAME
	local dir=build/kmod-selftest-$1 src=$2
	shift 2
	mkdir -p "$dir"
	scripts/ko-sources.sh --in "$dir" | (cd "$dir" && xargs rm -f fragments.o cyclebench.ko)
	scripts/ko-sources.sh --copy "$dir"
	# the fragments: base's and the test's alone (the checkers read the
	# fragment files there to know which to expect)
	find "$dir"/kmod/fragments -name '*.c' ! -name base.c -delete
	cp -p "$src" "$dir"/kmod/fragments/
	local objs
	objs="kmod/fragments/base.o kmod/fragments/$(basename "$src" .c).o"
	# shellcheck disable=SC2086 # two object names
	make -C "$KDIR" M="$top/$dir" "$@" $objs > "$dir.log" 2>&1 &&
		(cd "$dir" && ld -r -o fragments.o $objs)
}
st=build/kmod-selftest
# the tests build side by side (each a small kbuild run, most of it
# kbuild's own start): checked one by one below
for broken in pointer spill merge; do
	selftest $broken tests/kmod/copies.c CB_GROUPS="base copies" \
		KCFLAGS=-DCB_TEST_BROKEN_HARNESS_$(echo $broken | tr a-z A-Z) &
done
selftest hoist tests/kmod/hoist.c CB_GROUPS="base hoist" &
selftest folded tests/kmod/folded.c CB_GROUPS="base fold" &
selftest operands tests/kmod/operands.c CB_GROUPS="base operands" &
selftest clobber tests/kmod/clobber.c CB_GROUPS="base clobber" &
selftest sleepy tests/kmod/sleepy.c CB_GROUPS="base sleepy" &
selftest copies tests/kmod/copies.c CB_GROUPS="base copies"
copies_rc=$?
wait
if [ "$copies_rc" = 0 ]; then
	python3 tests/kmod/regions.py --table $st-copies.regions $st-copies/fragments.o \
		$st-copies/kmod/fragments/*.c > $st-copies.out 2>&1
	for f in copies:mul_state copies:mul_const copies:load_state; do
		got=$(awk -v f=$f '$1 == f && $6 == "clean" { n[$3] += $5 } END { print n["short"] + 0, n["long"] + 0 }' $st-copies.regions)
		if [ "$(check_regions_in $st-copies.regions $f)" = $((2 * methods)) ] && [ "${got#* }" -eq $((16 * ${got% *})) ] && [ "${got% *}" -gt 0 ]; then
			pass "object code check: $f is clean, the long region 16 times the short ($got instructions over $methods methods)"
		else
			fail "object code check: $f: expected $((2 * methods)) clean regions, long = 16 x short; got $got: $(head -n3 $st-copies.out)"
		fi
	done
	# a second group's body of the same C name: named, both of them
	printf 'CB_GROUP(twin, "a second group");\nCB_BODY(mul_state)\n{\n}\n' > $st-twin.c
	python3 tests/kmod/regions.py $st-copies/fragments.o $st-copies/kmod/fragments/*.c $st-twin.c > $st-twin.out 2>&1
	twin_rc=$?
	if [ $twin_rc = 1 ] && grep -q '^copies:mul_state: its name: copies:mul_state (.*copies.c) and twin:mul_state (.*twin.c) share the C name mul_state; ' $st-twin.out; then
		pass "object code check: two bodies of one C name in two groups are named, both: $(cat $st-twin.out)"
	else
		fail "object code check: copies:mul_state and twin:mul_state share a C name: expected exit 1 and both named, got exit $twin_rc: $(head -n3 $st-twin.out)"
	fi
else
	fail "checker self-test objects do not build: $(grep -m2 error $st-copies.log)"
fi
# broken NAME: what its report must say besides the bodies' names
for broken in pointer spill merge hoist folded operands clobber sleepy; do
	why=
	case $broken in
	hoist) want="hoist:hoisted" ;;
	sleepy) want="sleepy:msleep_1" ;;	# a body that calls msleep()
	folded) want="fold:imul3 fold:imul3_insns fold:raw_barrier fold:raw_insns fold:stored fold:wrapped"
		why='^fold:imul3: its body: folded to a constant: .* it holds only `mov \$0xe1,%eax`; CB_OPAQUE\(\) its inputs' ;;
	operands) want="operands:base operands:disp operands:spill" ;;
	clobber) want="clobber:r15"
		why='^clobber:r15: short region .*; the body.s asm clobbers %r15, which the harness keeps' ;;
	# every copy that reuses the first one's load: the same mnemonic
	# (mov), a register where the body has memory
	merge) want="copies:load_state copies:mul_const copies:mul_state"
		why='^copies:load_state: long region .*: copies 2-15 of 16 hold `mov %r[a-z0-9]*,%r[a-z0-9]*` where one body has `mov \(%r15\),%r[a-z0-9]*`' ;;
	*) want="base:empty copies:load_state copies:mul_const copies:mul_state" ;;
	esac
	if [ ! -e $st-$broken/fragments.o ]; then
		fail "broken harness '$broken': does not build: $(grep -m2 error $st-$broken.log)"
		continue
	fi
	python3 tests/kmod/regions.py --table $st-$broken.regions $st-$broken/fragments.o \
		$st-$broken/kmod/fragments/*.c > $st-$broken.out 2>&1
	got=$(grep -oE '^[a-z0-9_]+:[a-z0-9_]+' $st-$broken.out | sort -u | tr '\n' ' ')
	if [ "$got" != "$want " ]; then
		fail "object code check with '$broken': expected [$want], reported [$got]"
	elif [ -n "$why" ] && ! grep -qE "$why" $st-$broken.out; then
		fail "object code check with '$broken': no line matches /$why/: $(head -n3 $st-$broken.out)"
	else
		pass "object code check bites: '$broken' is reported for exactly the bodies it breaks ($want): $(grep -m1 -E "${why:-.}" $st-$broken.out)"
	fi
done

# says TEST FRAGMENT VERDICTS REGEX WHAT: in the report on the checker's
# test TEST (above), FRAGMENT's regions that are not clean have VERDICTS
# (the table's column, each once, sorted) and a line says REGEX
says() {
	local got out=$st-$1.out
	got=$(awk -v f="$2" '$1 == f && $6 != "clean" { print $6 }' "$st-$1.regions" 2>/dev/null |
		sort -u | tr '\n' ' ')
	if [ "$got" != "$3 " ]; then
		fail "object code check: $5: expected $2's regions [$3], got [$got]: $(grep -m2 "^$2:" "$out")"
	elif ! grep -qE "$4" "$out"; then
		fail "object code check: $5: no line matches /$4/: $(grep -m2 "^$2:" "$out")"
	else
		pass "object code check: $5: $(grep -m1 -E "$4" "$out")"
	fi
}
# a body folded to a constant, judged from its object code whatever its
# source looks like
says folded fold:stored folded \
	'^fold:stored: its body: folded to a constant: .* it holds only `mov \$0xe1,%eax; mov %rax,\(%r15\)`; ' \
	"a constant stored through the state pointer is folded"
says folded fold:raw_barrier folded '^fold:raw_barrier: its body: folded to a constant: ' \
	"a body whose barrier is raw asm, not CB_OPAQUE(), is folded"
says folded fold:raw_insns folded '^fold:raw_insns: its body: partly folded: .* 2 instructions where its table line declares 3 ' \
	"a body with raw asm barriers and fewer instructions than its .insns is partly folded"
says folded fold:wrapped nosource,folded \
	'^fold:wrapped: its source: no line of .*folded\.c starts with CB_BODY\(wrapped\) ' \
	"a body a wrapper macro makes is named as not found, not '?'"
says folded fold:wrapped nosource,folded '^fold:wrapped: its body: folded to a constant: ' \
	"a body a wrapper macro makes is still checked: folded"
# two memory operands are the same only with the same base and displacement
says operands operands:disp "copies moved" \
	'^operands:disp: short region \(paoloni\): `mov 0x8\(%r15\),%rax` where the body alone has `mov \(%r15\),%rax`: other memory; ' \
	"a region that reads another displacement than the body alone is named"
says operands operands:disp "copies moved" \
	'^operands:disp: long region \(paoloni\): copies 1-16 of 16 hold `mov 0x8\(%r15\),%rax` where one body has `mov \(%r15\),%rax`: other memory; ' \
	"long copies that read another displacement than the body alone are named"
says operands operands:base "copies moved" \
	'^operands:base: short region \(paoloni\): `mov \(%r14\),%rax` where the body alone has `mov \(%r15\),%rax`: other memory; ' \
	"a region that reads through another base register than the body alone is named"
# a stack access between the long region's copies is a spill, as in the short one
says operands operands:spill copies \
	'^operands:spill: long region \(.*\): copies 1-16 of 16 hold stack access `mov %rax,0x8\(%rsp\)`, not in the body alone; the compiler spilled' \
	"a stack access in the long region's copies alone is named as a spill"

# CB_ARGS() takes an array, whose length the table can see: a pointer
# (sizeof would give one argument) does not compile.  The portable build
# (the runner's) checks it natively in a second; the kernel's ARRAY_SIZE()
# is the same check.
args_table() {	# ARRAY: a group whose one entry's arguments are CB_ARGS(ARRAY)
	printf '%s\n' '#include "cyclebench.h"' \
		'static const u64 sizes[] = { 64, 4096 };' \
		'static const u64 *const sizes_ptr = sizes;' \
		'CB_BODY(nothing)' '{' '}' \
		'static const struct cb_fragment t_fragments[] = {' \
		"	{ CB_FRAGMENT_FIELDS(nothing, 1, \"x\"), CB_ARGS($1) }," '};' \
		'CB_GROUP(t, t_fragments);'
}
if args_table sizes | cc -std=gnu11 -fsyntax-only -Ikmod -Ilib -Iinclude/cyclebench -x c - 2> build/kmod-args.log &&
   ! args_table sizes_ptr | cc -std=gnu11 -fsyntax-only -Ikmod -Ilib -Iinclude/cyclebench -x c - >> build/kmod-args.log 2>&1 &&
   grep -q 'negative width' build/kmod-args.log; then
	pass "CB_ARGS(): an array compiles, a pointer does not (it would give one argument)"
else
	fail "CB_ARGS(): expected an array to compile and a pointer to fail (negative width): $(grep -m2 -E 'error|warning' build/kmod-args.log)"
fi

# The PMU counter arithmetic (include/cyclebench/timing.h), natively: the RDPMC path
# needs a PMU, which neither this machine's QEMU nor most VMs have.
if cc -Wall -Wextra -Werror -O2 -o build/kmod-pmc tests/kmod/pmc.c 2> build/kmod-pmc.log; then
	tap_run pmc build/kmod-pmc
else
	fail "tests/kmod/pmc.c builds: $(head -n3 build/kmod-pmc.log)"
fi

finish

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Static checks of the module, no kernel needed: a W=1 build and a sparse
# build without a single warning, checkpatch --strict clean, modinfo
# complete, and - read from the object code - nothing but the fragment body
# between the two timestamps of any sampler.  Ends with "N passed, N failed".
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
KDIR=${KDIR:-$(scripts/kdir.sh)}
CHECKPATCH=${CHECKPATCH:-/var/cache/cyclebench/checkpatch/checkpatch.pl}
pass=0 fail=0
ok() { echo "ok - $*"; pass=$((pass + 1)); }
bad() { echo "FAIL - $*"; fail=$((fail + 1)); }
mkdir -p build

srcs=(kmod/*.c kmod/*.h kmod/fragments/*.c)

# build_clean NAME MAKE-ARGS...: a full rebuild that must print no warning
build_clean() {
	local name=$1 log=build/kmod-$1.log
	shift
	make -s -C "$KDIR" M="$top" clean >/dev/null 2>&1
	if ! make -C "$KDIR" M="$top" "$@" modules > "$log" 2>&1; then
		bad "$name build: failed: $(grep -m3 -E 'error|Error' "$log")"
	elif grep -qE 'warning:|error:' "$log"; then
		bad "$name build: $(grep -cE 'warning:|error:' "$log") warnings, first: $(grep -m1 -E 'warning:|error:' "$log")"
	else
		ok "$name build: no warnings"
	fi
}
build_clean sparse C=2 CHECK=sparse
build_clean W=1 W=1
# ... and W=1 on every QEMU kernel series, each in its own tree.
for k in ${KERNELS:-6.1 6.12}; do
	if scripts/build-ko.sh --clean --strict "$k" > build/kmod-ko-$k.out 2> build/kmod-ko-$k.err; then
		ok "W=1 build for $k: no warnings"
	else
		bad "W=1 build for $k: $(tail -n3 build/kmod-ko-$k.err)"
	fi
done

if [ -x "$CHECKPATCH" ] || [ -r "$CHECKPATCH" ]; then
	for f in "${srcs[@]}"; do
		out=$(perl "$CHECKPATCH" --strict --no-tree --terse --show-types -f "$f" 2>&1 |
			grep -vE '^total:|^$')
		if [ -z "$out" ]; then ok "checkpatch --strict: $f"
		else bad "checkpatch --strict: $f: $(echo "$out" | head -n3)"; fi
	done
else
	bad "checkpatch: $CHECKPATCH missing; try: sudo scripts/deps.sh --check"
fi

if [ ! -e cyclebench.ko ]; then
	bad "cyclebench.ko was not built"
	echo "kmod: $pass passed, $fail failed"
	exit 1
fi

mi=$(modinfo cyclebench.ko 2>&1)
for k in description license version; do
	if echo "$mi" | grep -qE "^$k: +[^ ]"; then ok "modinfo shows $k"
	else bad "modinfo shows $k: missing"; fi
done
for p in samples ensembles warmup method cpu only run_on_load max_mb; do
	if echo "$mi" | grep -qE "^parm: +$p:.*default"; then ok "modinfo: parameter $p described with its default"
	else bad "modinfo: parameter $p: no description with a default"; fi
done

# The timed region, from the object code.  In every cb_sample_* function a
# region opens at a start RDTSC (right after CPUID or LFENCE) and closes at
# the next RDTSCP or RDTSC.  Inside it there must be no call, no return, no
# indirect jump (no retpoline/return thunk, no ftrace hook), no push or pop,
# and no stack access but the two stores of the start timestamp right after
# it (a spill of a register the body clobbers would be one); for base:empty
# at most the four protocol instructions of the longest method.
objdump -d --no-show-raw-insn cyclebench.ko > build/cyclebench.dis
regions=$(awk '
	/^[0-9a-f]+ <cb_sample_/ { fn = $2; gsub(/[<>:]/, "", fn); inr = 0; next }
	/^[0-9a-f]+ </ { fn = ""; next }
	fn == "" { next }
	{
		op = $2
		if (!inr && op == "rdtsc" && (prev == "cpuid" || prev == "lfence")) {
			inr = 1; n = 0; bad = ""; stores = 0; prev = op; next
		}
		if (inr && (op == "rdtscp" || op == "rdtsc")) {
			printf "%s %d %s\n", fn, n, (bad == "" ? "clean" : bad)
			inr = 0
		} else if (inr) {
			n++
			if (op ~ /^(call|ret|jmp\*|int3|push|pop|leave|enter)/ || $0 ~ /thunk|__fentry__|jmp +\*/)
				bad = bad "," op
			else if ($0 ~ /%[re]sp/) {
				if (n <= 3 && $0 ~ /mov +%e[ad]x,[0-9a-fx]*\(%rsp\)/ && stores < 2)
					stores++
				else
					bad = bad ",stack:" $3
			}
		}
		prev = op
	}' build/cyclebench.dis)
nfn=$(echo "$regions" | awk '{print $1}' | sort -u | grep -c .)
nsrc=$(grep -ho '^CB_BODY([a-z0-9_]*)' kmod/fragments/*.c | wc -l)
if [ "$nfn" -eq "$nsrc" ] && [ "$nsrc" -gt 0 ]; then
	ok "object code: every CB_BODY has a sampler with timed regions ($nfn)"
else
	bad "object code: $nsrc CB_BODY() in the source but $nfn samplers with timed regions"
fi
dirty=$(echo "$regions" | grep -v ' clean$')
if [ -z "$dirty" ]; then
	ok "object code: no call, return, jump through a pointer or spill inside any timed region ($(echo "$regions" | grep -c .) regions)"
else
	bad "object code: timed regions with calls, jumps or spills: $(echo "$dirty" | head -n3)"
fi
empty=$(echo "$regions" | awk '$1 == "cb_sample_empty" { print $2 }' | sort -n | tail -n1)
nempty=$(echo "$regions" | grep -c '^cb_sample_empty ')
if [ "$nempty" -eq 4 ] && [ -n "$empty" ] && [ "$empty" -le 4 ]; then
	ok "object code: base:empty has 4 methods, at most $empty instructions between timestamps"
else
	bad "object code: base:empty: expected 4 regions of <= 4 instructions, got $nempty regions, max '$empty'"
fi

echo "kmod: $pass passed, $fail failed"
[ "$fail" -eq 0 ]

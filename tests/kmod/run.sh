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
# cb_regions KO: one line per timed region of every sampler in module KO:
#   FUNCTION short|long OUTSIDE BODY REF VERDICT
# A region opens at the start RDTSC (after CPUID or LFENCE) and closes at
# the next RDTSC(P).  The zero-size marks cb_bb_/cb_be_ (cb_lb_/cb_le_ in
# the long region) bound the body; cb_bodyref_NAME holds the body alone
# between cb_rb_/cb_re_.  Marks and functions come from the symbol table
# (two marks at one address hide each other in a disassembly).  Outside
# the body only the protocol may sit: at most 4 instructions, none a call,
# return, jump through a pointer, push, pop or stack access but the two
# stores of the start timestamp.  Inside, the short region must hold
# exactly the reference's instructions (the same mnemonics in order: a body hoisted out of the
# loop, called through a pointer or spilled around has another), the long
# one more than the short and at most 16 times the reference; a reference
# of no instruction is a deleted body (but in base:empty).
cb_regions() {
	nm "$1" | awk '$2 ~ /^[tT]$/ { a = $1; sub(/^0+/, "", a); print a, $3 }' > "$1.syms"
	objdump -d --no-show-raw-insn "$1" | awk '
	function verdict(fn, kind, bad, nout, nbody, bops,   v, r) {
		v = bad
		if (nout > 4) v = v ",outside:" nout
		r = ref[substr(fn, 11)]
		if (r == "") v = v ",noref"
		else if (kind == "short" && (nbody != r || bops != rops[substr(fn, 11)])) v = v ",body:" nbody "!=ref:" r
		else if (kind == "long" && r > 0 && (nbody <= nshort[fn] + 0 || nbody > 16 * r)) v = v ",long:" nbody
		else if (r == 0 && fn != "cb_sample_empty") v = v ",deleted"
		return v == "" ? "clean" : substr(v, 2)
	}
	FILENAME != "-" {
		if ($2 ~ /^cb_(bb|lb|rb)_[0-9]+$/) begin[$1] = $2
		else if ($2 ~ /^cb_(be|le|re)_[0-9]+$/) end_[$1] = $2
		else func_[$1] = $2
		next
	}
	$1 !~ /^[0-9a-f]+:$/ || NF < 2 { next }
	{
		a = $1; sub(/:$/, "", a); sub(/^0+/, "", a)
		if (a in func_) {
			inr = 0; inbody = 0; inref = 0; fn = ""; rfn = ""
			if (func_[a] ~ /^cb_sample_/) fn = func_[a]
			else if (func_[a] ~ /^cb_bodyref_/) { rfn = substr(func_[a], 12); ref[rfn] = 0; rops[rfn] = "" }
		}
		if (a in begin) {
			if (begin[a] ~ /^cb_rb/) inref = 1
			else { inbody = 1; kind = (begin[a] ~ /^cb_bb/) ? "short" : "long" }
		}
		if (a in end_) { inbody = 0; inref = 0 }
		op = $2
	}
	rfn != "" { if (inref) { ref[rfn]++; rops[rfn] = rops[rfn] " " op }; next }
	fn == "" { next }
	{
		if (!inr && op == "rdtsc" && (prev == "cpuid" || prev == "lfence")) {
			inr = 1; nout = 0; nbody = 0; body = ""; bad = ""; stores = 0; prev = op; next
		}
		if (inr && !inbody && (op == "rdtscp" || op == "rdtsc")) {
			nr++; fns[nr] = fn; kinds[nr] = kind; bads[nr] = bad; nouts[nr] = nout; nbodys[nr] = nbody; bodies[nr] = body
			if (kind == "short") nshort[fn] = nbody
			inr = 0
		} else if (inr && inbody) {
			nbody++
			body = body " " op
		} else if (inr) {
			nout++
			if (op ~ /^(call|ret|jmp\*|int3|push|pop|leave|enter)/ || $0 ~ /thunk|__fentry__|jmp +\*/)
				bad = bad "," op
			else if ($0 ~ /%[re]sp/) {
				if (nout <= 3 && $0 ~ /mov +%e[ad]x,[0-9a-fx]*\(%rsp\)/ && stores < 2)
					stores++
				else
					bad = bad ",stack:" $3
			}
		}
		prev = op
	}
	END {
		for (i = 1; i <= nr; i++)
			printf "%s %s %d %d %s %s\n", fns[i], kinds[i], nouts[i], nbodys[i],
				ref[substr(fns[i], 11)], verdict(fns[i], kinds[i], bads[i], nouts[i], nbodys[i], bodies[i])
	}' "$1.syms" -
}

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
for k in ${KERNELS:-6.1 6.12 6.12-rt 6.1-debug}; do
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

# The timed regions, from the object code (see cb_regions above).
cp cyclebench.ko build/cyclebench-check.ko
regions=$(cb_regions build/cyclebench-check.ko)
echo "$regions" > build/cyclebench.regions
nfn=$(echo "$regions" | awk '$2 == "short" {print $1}' | sort -u | grep -c .)
nsrc=$(grep -hoE '^CB_BODY(_STATE)?\([a-z0-9_]*' kmod/fragments/*.c | wc -l)
if [ "$nfn" -eq "$nsrc" ] && [ "$nsrc" -gt 0 ]; then
	ok "object code: every body has a sampler with timed regions ($nfn)"
else
	bad "object code: $nsrc bodies in the source but $nfn samplers with timed regions"
fi
dirty=$(echo "$regions" | grep -v ' clean$')
if [ -z "$dirty" ]; then
	ok "object code: $(echo "$regions" | grep -c .) regions hold the body's own code and nothing else of the harness (no call, jump through a pointer, spill; body = its reference)"
else
	bad "object code: regions where the harness put something in, grouped by fragment:
$(echo "$dirty" | awk '{ f = $1; sub(/^cb_sample_/, "", f); by[f] = by[f] "\n    " $0 } END { for (f in by) printf "  %s:%s\n", f, by[f] }')"
fi
empty=$(echo "$regions" | awk '$1 == "cb_sample_empty" && $2 == "short" { print $3 + $4 }' | sort -n | tail -n1)
nempty=$(echo "$regions" | grep -c '^cb_sample_empty short ')
if [ "$nempty" -eq 4 ] && [ -n "$empty" ] && [ "$empty" -le 4 ]; then
	ok "object code: base:empty has 4 methods, at most $empty instructions between timestamps"
else
	bad "object code: base:empty: expected 4 regions of <= 4 instructions, got $nempty regions, max '$empty'"
fi
calls=$(echo "$regions" | awk '$1 == "cb_sample_ktime_get_ns" && / clean$/' | grep -c .)
if [ "$calls" -eq 8 ]; then
	ok "object code: a body that calls the kernel (time:ktime_get_ns) passes: 8 clean regions"
else
	bad "object code: time:ktime_get_ns: expected 8 clean regions (4 short, 4 long), got $calls"
fi

# The check must also bite: the same module built with a harness that calls
# the body through a pointer, one that spills around it, and with a C body
# that the compiler hoists out of the sampling loop.  Each is reported, for
# exactly the fragments it breaks.
groups=$(sed -n 's/^CB_GROUPS := //p' Kbuild)
for broken in pointer spill hoist; do
	dir=build/kmod-broken-$broken
	rm -rf "$dir"
	mkdir -p "$dir"
	cp -r Kbuild kmod "$dir"/
	if [ $broken = hoist ]; then
		cp tests/kmod/hoist.c "$dir"/kmod/fragments/
		extra=(CB_GROUPS="$groups hoist")
	else
		extra=(KCFLAGS=-DCB_TEST_BROKEN_HARNESS_$(echo $broken | tr a-z A-Z))
	fi
	if ! make -C "$KDIR" M="$top/$dir" "${extra[@]}" modules > "$dir.log" 2>&1; then
		bad "broken harness '$broken': does not build: $(grep -m2 error "$dir.log")"
		continue
	fi
	got=$(cb_regions "$dir"/cyclebench.ko | grep -v ' clean$' | awk '{print $1}' | sort -u | tr '\n' ' ')
	case $broken in
	hoist) want="cb_sample_hoisted " ;;
	*) want=$(echo "$regions" | awk '{print $1}' | sort -u | tr '\n' ' ') ;;
	esac
	if [ "$got" = "$want" ]; then
		ok "object code check bites: harness '$broken' is reported for exactly the fragments it breaks ($(echo $got | wc -w))"
	else
		bad "object code check with harness '$broken': expected [$want], reported [$got]"
	fi
done

# The PMU counter arithmetic (kmod/timing.h), natively: the RDPMC path
# needs a PMU, which neither this machine's QEMU nor most VMs have.
if cc -Wall -Wextra -Werror -O2 -o build/kmod-pmc tests/kmod/pmc.c 2> build/kmod-pmc.log; then
	while read -r line; do
		case $line in
		"ok - "*) ok "${line#ok - }" ;;
		"FAIL - "*) bad "${line#FAIL - }" ;;
		esac
	done < <(build/kmod-pmc)
else
	bad "tests/kmod/pmc.c builds: $(head -n3 build/kmod-pmc.log)"
fi

echo "kmod: $pass passed, $fail failed"
[ "$fail" -eq 0 ]

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# contract.sh DIR: does DIR follow docs/debugfs-contract.md?  DIR is the
# module's live tree (/sys/kernel/debug/cyclebench, as root), a saved copy
# (cyclestat save), or what cyclebench-user wrote.  POSIX sh and awk only,
# so busybox runs it in a QEMU guest too.
#
# Prints "contract: DIR: ok, N results (M measured)" and exits 0, or one
# line per violation ("contract: FILE: what is wrong") and exits 1.
# Exit 2: usage.
set -u
[ $# = 1 ] || { echo "usage: contract.sh DIR" >&2; exit 2; }
dir=${1%/}
[ -d "$dir" ] || { echo "contract: $dir: not a directory" >&2; exit 2; }
bad=0
fail() {
	echo "contract: $*" >&2
	bad=1
}

# the value of KEY in a key: value file ("" when absent)
get() {
	awk -v k="$2" 'index($0, k ": ") == 1 { print substr($0, length(k) + 3); exit }' "$1"
}

# (a missing key is reported once, by the list of required keys)
yesno() {
	grep -q "^$2: " "$1" || return 0
	case $(get "$1" "$2") in
	yes | no) ;;
	*) fail "$1: '$2' must be yes or no, not '$(get "$1" "$2")'" ;;
	esac
}

uint() {
	grep -q "^$2: " "$1" || return 0
	v=$(get "$1" "$2")
	case $v in
	'' | *[!0-9]*) fail "$1: '$2' must be an unsigned decimal, not '$v'" ;;
	esac
}

method_ok() {
	case $1 in
	paoloni | lfence | paoloni-nordtscp | lfence-nordtscp) return 0 ;;
	esac
	return 1
}

# ---- info ----
top=$dir/info
if [ ! -r "$top" ]; then
	fail "$top: missing or unreadable"
	exit 1
fi
# every line is "key: value"
awk '!/^[a-z0-9_]+: / && !/^[a-z0-9_]+:$/ { printf "contract: %s:%d: not a key: value line: %s\n", FILENAME, NR, $0; bad = 1 }
     END { exit bad }' "$top" >&2 || bad=1
for k in version kernel vendor family model stepping model_name tsc_khz constant_tsc \
	nonstop_tsc rdtscp hypervisor hypervisor_vendor method_requested method_used samples ensembles warmup cpu; do
	grep -q "^$k: " "$top" || fail "$top: no '$k'"
done
for k in constant_tsc nonstop_tsc rdtscp hypervisor; do yesno "$top" $k; done
for k in family model stepping tsc_khz samples ensembles warmup cpu; do uint "$top" $k; done
[ "$(get "$top" tsc_khz)" != 0 ] || fail "$top: tsc_khz is 0"
case $(get "$top" method_requested) in
paoloni | lfence | '') ;;
*) fail "$top: method_requested must be paoloni or lfence, not '$(get "$top" method_requested)'" ;;
esac
method_ok "$(get "$top" method_used)" || fail "$top: method_used '$(get "$top" method_used)' is not a method"
if [ "$(get "$top" rdtscp)" = no ]; then
	case $(get "$top" method_used) in
	*-nordtscp) ;;
	*) fail "$top: rdtscp: no, but method_used '$(get "$top" method_used)' executes RDTSCP" ;;
	esac
fi
if [ "$(get "$top" mode)" = user ]; then
	[ "$(get "$top" interrupts)" = on ] || fail "$top: mode: user needs 'interrupts: on'"
	grep -q '^long_repeat: ' "$top" || fail "$top: mode: user needs 'long_repeat'"
fi

# ---- fragments, and each result ----
list=$dir/fragments
[ -r "$list" ] || { fail "$list: missing or unreadable"; exit 1; }
awk '!/^[a-z0-9_]+:[a-z0-9_]+(\/[0-9]+)? [1-9][0-9]* [^ ].*$/ {
	printf "contract: %s:%d: not \"group:name[/ARG] OPS DESCRIPTION\": %s\n", FILENAME, NR, $0; bad = 1 }
     { if (seen[$1]++) { printf "contract: %s:%d: %s listed twice\n", FILENAME, NR, $1; bad = 1 } }
     END { exit bad }' "$list" >&2 || bad=1

n=0
measured=0
tab=$(printf '\t')
# name TAB ops TAB description, one per line (the description may hold spaces)
sed 's/^\([^ ]*\) \([^ ]*\) /\1\t\2\t/' "$list" > "${TMPDIR:-/tmp}/contract.$$"
trap 'rm -f "${TMPDIR:-/tmp}/contract.$$"' EXIT
# One awk per result: its info, then its cycles files; prints the
# violations, and "measured" when the state has data.
check_result='
function bad(msg) { printf "contract: %s\n", msg; failed = 1 }
function uint(k) { if (!(k in kv) || kv[k] !~ /^[0-9]+$/) bad(info ": '"'"'" k "'"'"' must be an unsigned decimal, not '"'"'" kv[k] "'"'"'") }
function method_ok(m) { return m ~ /^(paoloni|lfence|paoloni-nordtscp|lfence-nordtscp)$/ }
FNR == 1 { file++ }
file == 1 {
	i = index($0, ": ")
	if (i) kv[substr($0, 1, i - 1)] = substr($0, i + 2)
	else if ($0 ~ /:$/) kv[substr($0, 1, length($0) - 1)] = ""
	else bad(info ":" FNR ": not a key: value line: " $0)
	next
}
FNR == 1 && !checked { check_info() }
{ lines[FILENAME]++ }
!/^[0-9]+$/ && !nonnum[FILENAME]++ { bad(FILENAME ":" FNR ": not an unsigned decimal: " $0) }
function check_info() {
	checked = 1
	if (kv["name"] != name) bad(info ": name '"'"'" kv["name"] "'"'"', fragments says '"'"'" name "'"'"'")
	if (kv["ops"] != ops) bad(info ": ops '"'"'" kv["ops"] "'"'"', fragments says " ops)
	if (kv["description"] != desc) bad(info ": the description differs from the fragments line")
	if (kv["slow"] !~ /^(yes|no)$/) bad(info ": '"'"'slow'"'"' must be yes or no, not '"'"'" kv["slow"] "'"'"'")
	if (arg != "" && kv["arg"] != arg) bad(info ": arg '"'"'" kv["arg"] "'"'"', the name says " arg)
	if (kv["setup"] !~ /^(none|run|ensemble)$/) bad(info ": setup must be none, run or ensemble, not '"'"'" kv["setup"] "'"'"'")
	st = kv["state"]
	data = st == "ok" || (st == "aborted" && ("samples" in kv))
	if (st !~ /^(ok|none|failed|skipped|aborted)$/) bad(info ": state must be ok, none, failed, skipped or aborted, not '"'"'" st "'"'"'")
	if (!data) return
	uint("run_id"); uint("ensembles"); uint("samples"); uint("warmup"); uint("cpu"); uint("tsc_khz")
	if (!method_ok(kv["method"])) bad(info ": method '"'"'" kv["method"] "'"'"' is not a method")
	haskey = "long_repeat" in kv
	r = haskey ? kv["long_repeat"] : ""
	if (haslong && r !~ /^(2|4|8|16|64|256|1024)$/) bad(info ": cycles_long is there, long_repeat must be 2, 4, 8, 16, 64, 256 or 1024, not '"'"'" r "'"'"'")
	if (!haslong && haskey) bad(info ": long_repeat: " r " without cycles_long")
}
END {
	if (!checked) check_info()
	if (!data) exit failed
	want = kv["ensembles"] * kv["samples"]
	if (!hascycles) bad(rdir "/cycles: missing, state is " st)
	for (f in lines) if (lines[f] != want) bad(f ": " lines[f] " lines, ensembles x samples is " want)
	if (hascycles && !(rdir "/cycles" in lines) && want) bad(rdir "/cycles: 0 lines, ensembles x samples is " want)
	print "measured"
	exit failed
}'
nl='
'
while IFS=$tab read -r name ops desc; do
	n=$((n + 1))
	group=${name%%:*}
	rest=${name#*:}
	fname=${rest%%/*}
	arg=
	case $rest in */*) arg=${rest#*/} ;; esac
	rdir=$dir/$group/$fname${arg:+/$arg}
	info=$rdir/info
	if [ ! -r "$info" ]; then
		fail "$info: missing for $name"
		continue
	fi
	set -- "$info"
	hascycles=0
	haslong=0
	[ -e "$rdir/cycles" ] && { hascycles=1; set -- "$@" "$rdir/cycles"; }
	[ -e "$rdir/cycles_long" ] && { haslong=1; set -- "$@" "$rdir/cycles_long"; }
	# cpus=: each CPU's arrays, in cpuN/; the first CPU's are cycles too
	# (read with builtins: a fork per key took a debug kernel's guest
	# half a minute over the catalogue)
	cpus= st=
	while IFS= read -r l; do
		case $l in
		"state: "*) [ -n "$st" ] || st=${l#state: } ;;
		"cpus: "*) [ -n "$cpus" ] || cpus=${l#cpus: } ;;
		esac
	done < "$info"
	case $st in ok | aborted) ;; *) cpus= ;; esac
	if [ -n "$cpus" ]; then
		first=${cpus%%,*}
		[ "$first" = "$(get "$info" cpu)" ] ||
			fail "$info: cpus: $cpus does not begin with its cpu: $(get "$info" cpu)"
		for k in barrier start_spread samples_in_step state_per_cpu; do
			grep -q "^$k: " "$info" || fail "$info: cpus: without '$k'"
		done
		uint "$info" start_spread
		uint "$info" samples_in_step
		yesno "$info" state_per_cpu
		for c in $(echo "$cpus" | tr , ' '); do
			for f in cycles cycles_long; do
				[ $f = cycles ] || [ $haslong = 1 ] || continue
				if [ -e "$rdir/cpu$c/$f" ]; then
					set -- "$@" "$rdir/cpu$c/$f"
				else
					fail "$rdir/cpu$c/$f: missing, cpus: names $c"
				fi
			done
		done
		[ $hascycles = 0 ] || cmp -s "$rdir/cycles" "$rdir/cpu$first/cycles" ||
			fail "$rdir/cpu$first/cycles: differs from cycles (the first CPU's samples are the result's own)"
	fi
	out=$(awk -v name="$name" -v ops="$ops" -v desc="$desc" -v arg="$arg" -v info="$info" \
		-v rdir="$rdir" -v hascycles=$hascycles -v haslong=$haslong "$check_result" "$@") || bad=1
	case $out in *measured) measured=$((measured + 1)) out=${out%measured} out=${out%"$nl"} ;; esac
	[ -z "$out" ] || printf '%s\n' "$out" >&2
done < "${TMPDIR:-/tmp}/contract.$$"
[ $n -gt 0 ] || fail "$list: no fragment listed"
[ $bad = 0 ] || exit 1
echo "contract: $dir: ok, $n results ($measured measured)"

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
	paoloni | lfence | paoloni-nordtscp | lfence-nordtscp | cpuid-nordtscp) return 0 ;;
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
tab=$(printf '\t')
nl='
'
tmp=${TMPDIR:-/tmp}/contract.$$
trap 'rm -f "$tmp".*' EXIT
# name TAB ops TAB description, one per line (the description may hold spaces)
sed 's/^\([^ ]*\) \([^ ]*\) /\1\t\2\t/' "$list" > "$tmp.list"
# The shell walks the list with builtins only and writes a manifest: a
# line "R name ops desc arg rdir hascycles haslong" (tab-separated) per
# result, then "F path" per data file of it.  grep then counts every data
# file's lines and non-decimal lines in one call each, and one awk checks
# every result: a fork per result is slow in a debug kernel's guest, and
# so is busybox awk reading 10^6 samples line by line.
: > "$tmp.man"
set --
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
	hascycles=0
	haslong=0
	[ -e "$rdir/cycles" ] && hascycles=1
	[ -e "$rdir/cycles_long" ] && haslong=1
	printf 'R\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$ops" "$desc" "$arg" "$rdir" $hascycles $haslong >> "$tmp.man"
	for f in cycles cycles_long; do
		[ -e "$rdir/$f" ] || continue
		printf 'F\t%s\n' "$rdir/$f" >> "$tmp.man"
		set -- "$@" "$rdir/$f"
	done
	# cpus=: each CPU's arrays, in cpuN/; the first CPU's are cycles too
	cpus='' st=''
	while IFS= read -r l; do
		case $l in
		"state: "*) [ -n "$st" ] || st=${l#state: } ;;
		"cpus: "*) [ -n "$cpus" ] || cpus=${l#cpus: } ;;
		esac
	done < "$info"
	case $st in ok | aborted) ;; *) cpus= ;; esac
	[ -n "$cpus" ] || continue
	# (its keys are checked by the awk below)
	first=${cpus%%,*}
	oifs=$IFS IFS=,
	for c in $cpus; do
		IFS=$oifs
		# (the module writes each CPU's flags too, the runner none, and
		# a copy may leave them out: checked where they are)
		for f in cycles cycles_long flags; do
			[ $f != cycles_long ] || [ $haslong = 1 ] || continue
			[ $f != flags ] || [ -e "$rdir/cpu$c/flags" ] || continue
			if [ -e "$rdir/cpu$c/$f" ]; then
				printf 'F\t%s\n' "$rdir/cpu$c/$f" >> "$tmp.man"
				set -- "$@" "$rdir/cpu$c/$f"
			else
				fail "$rdir/cpu$c/$f: missing, cpus: names $c"
			fi
		done
	done
	IFS=$oifs
	[ $hascycles = 0 ] || cmp -s "$rdir/cycles" "$rdir/cpu$first/cycles" ||
		fail "$rdir/cpu$first/cycles: differs from cycles (the first CPU's samples are the result's own)"
done < "$tmp.list"
# PATH:COUNT per file (/dev/null: a name on every line, and no stdin when
# there are no files); the first non-decimal line of a file that has one
grep -c '' /dev/null "$@" > "$tmp.lines"
grep -c -v '^[0-9][0-9]*$' /dev/null "$@" > "$tmp.nondec"
: > "$tmp.first"
while IFS= read -r l; do
	case $l in *:0) continue ;; esac
	f=${l%:*}
	[ "$f" = /dev/null ] && continue
	printf '%s\t%s\n' "$f" "$(grep -n -v -m 1 '^[0-9][0-9]*$' "$f")" >> "$tmp.first"
done < "$tmp.nondec"
# Every result: its info, then its data files' counts; prints the
# violations, and last "measured N".
check_results='
function bad(msg) { printf "contract: %s\n", msg; failed = 1 }
function uint(k) { if (!(k in kv) || kv[k] !~ /^[0-9]+$/) bad(info ": '"'"'" k "'"'"' must be an unsigned decimal, not '"'"'" kv[k] "'"'"'") }
function method_ok(m) { return m ~ /^(paoloni|lfence|paoloni-nordtscp|lfence-nordtscp|cpuid-nordtscp)$/ }
function pathcount(l, a) { match(l, /:[0-9]+$/); a["path"] = substr(l, 1, RSTART - 1); a["n"] = substr(l, RSTART + 1) + 0 }
FILENAME == linesf { pathcount($0, pc); nlines[pc["path"]] = pc["n"]; next }
FILENAME == firstf { i = index($0, "\t"); first[substr($0, 1, i - 1)] = substr($0, i + 1); next }
$1 == "R" { end_result(); start_result(); next }
$1 == "F" { f = substr($0, 3); files[++nf] = f; next }
function start_result(   l, i, ln) {
	name = $2; ops = $3; desc = $4; arg = $5; rdir = $6; hascycles = $7; haslong = $8
	info = rdir "/info"
	delete kv
	nf = 0
	ln = 0
	while ((getline l < info) > 0) {
		ln++
		i = index(l, ": ")
		if (i) kv[substr(l, 1, i - 1)] = substr(l, i + 2)
		else if (l ~ /:$/) kv[substr(l, 1, length(l) - 1)] = ""
		else bad(info ":" ln ": not a key: value line: " l)
	}
	close(info)
	check_info()
	check_cpus()
	inresult = 1
}
function end_result(   k, f, want) {
	if (!inresult) return
	inresult = 0
	for (k = 1; k <= nf; k++) {
		f = files[k]
		if (f in first) {
			i = index(first[f], ":")
			bad(f ":" substr(first[f], 1, i - 1) ": not an unsigned decimal: " substr(first[f], i + 1))
		}
	}
	if (!data) return
	measured++
	want = kv["ensembles"] * kv["samples"]
	if (!hascycles) bad(rdir "/cycles: missing, state is " st)
	for (k = 1; k <= nf; k++) {
		f = files[k]
		if (nlines[f] && nlines[f] != want) bad(f ": " nlines[f] " lines, ensembles x samples is " want)
	}
	if (hascycles && !nlines[rdir "/cycles"] && want) bad(rdir "/cycles: 0 lines, ensembles x samples is " want)
}
function check_info() {
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
# cpus=: the run'"'"'s CPUs begin with its cpu, and the keys of a run on several
function check_cpus(   c, k, n, keys) {
	if (!(st == "ok" || st == "aborted") || kv["cpus"] == "") return
	c = kv["cpus"]
	sub(/,.*/, "", c)
	if (c != kv["cpu"]) bad(info ": cpus: " kv["cpus"] " does not begin with its cpu: " kv["cpu"])
	n = split("barrier start_spread samples_in_step state_per_cpu", keys, " ")
	for (k = 1; k <= n; k++) if (!(keys[k] in kv)) bad(info ": cpus: without '"'"'" keys[k] "'"'"'")
	if ("start_spread" in kv && kv["start_spread"] !~ /^[0-9]+$/) uint("start_spread")
	if ("samples_in_step" in kv && kv["samples_in_step"] !~ /^[0-9]+$/) uint("samples_in_step")
	if ("state_per_cpu" in kv && kv["state_per_cpu"] !~ /^(yes|no)$/)
		bad(info ": '"'"'state_per_cpu'"'"' must be yes or no, not '"'"'" kv["state_per_cpu"] "'"'"'")
}
END {
	end_result()
	print "measured " measured + 0
	exit failed
}'
out=$(awk -F "$tab" -v linesf="$tmp.lines" -v firstf="$tmp.first" "$check_results" \
	"$tmp.lines" "$tmp.first" "$tmp.man") || bad=1
measured=${out##*measured }
out=${out%measured *}
out=${out%"$nl"}
[ -z "$out" ] || printf '%s\n' "$out" >&2
[ $n -gt 0 ] || fail "$list: no fragment listed"
[ $bad = 0 ] || exit 1
echo "contract: $dir: ok, $n results ($measured measured)"

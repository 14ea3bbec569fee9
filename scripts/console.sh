# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# console.sh: the lines a guest writes on its console for the host to
# follow while it boots and measures, spelled here only, and the one way
# the host boots a guest and follows it.  Sourced on the host by
# qemu-run.sh (its /init says cb_started), run.sh, ab.sh and the e2e
# lanes (cb_boot), and in the guest as /console.sh (qemu-run.sh puts it
# there) by guest-run.sh and ab-guest.sh (cb_progress).  Plain sh: the
# guest's is busybox's.

# what /init puts on the console first: the boot is over, ours has begun
cb_started='qemu-run: /init started'
cb_mark='cyclebench-progress:'

# cb_progress WORDS...: a progress line on the guest's console
cb_progress() {
	echo "$cb_mark $*" > /dev/console
}

# cb_follow LOG PID FN: until PID (the boot) ends, each of our lines in
# the console log LOG, as it comes, to FN: "FN started" once the guest's
# /init runs, "FN WORDS..." for each cb_progress WORDS.  FN runs in one
# subshell for the whole log, so what it sets is kept from line to line.
cb_follow() {
	_cr=$(printf '\r')
	tail -n +1 -F --pid="$2" "$1" 2> /dev/null | while IFS= read -r _l; do
		_l=${_l%"$_cr"}
		case $_l in
		*"$cb_started"*) "$3" started ;;
		*"$cb_mark "*)
			# shellcheck disable=SC2086 # the line's words
			"$3" ${_l#*"$cb_mark "}
			;;
		esac
	done
}

# cb_boot WHO WATCH LOG CMD...: CMD, a qemu-run.sh boot whose console is
# LOG, in the background, and beside it "WATCH LOG PID" (PID: the boot's;
# a WATCH that calls cb_follow; none when empty).  CMD's exit status.  A kernel that died or hung
# while booting, before /init (qemu-run.sh's exit 3), ran nothing of
# ours: one more boot, said on stderr as "WHO: ...", its console kept as
# DIR.boot-crash.log (DIR: LOG's folder).  CMD's stderr is shown when it
# ends, the last boot's only.
cb_boot() {
	_who=$1 _watch=$2 _log=$3
	shift 3
	_dir=${_log%/*}
	for _try in 1 2; do
		mkdir -p "$_dir"
		_rc=0
		"$@" 2> "$_dir.err" &
		_bp=$!
		_wp=
		if [ -n "$_watch" ]; then
			"$_watch" "$_log" "$_bp" &
			_wp=$!
		fi
		wait "$_bp" || _rc=$?
		[ -z "$_wp" ] || wait "$_wp" || true
		[ "$_rc" = 3 ] && [ "$_try" = 1 ] || break
		mv "$_log" "$_dir.boot-crash.log"
		echo "$_who: the kernel died or hung while booting, before /init (nothing loaded; $_dir.boot-crash.log): booting again" >&2
	done
	cat "$_dir.err" >&2
	rm -f "$_dir.err"
	return "$_rc"
}

# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# console.sh: the lines a guest writes on its console for the host to
# follow while it boots and measures, spelled here only.  Sourced on the
# host by qemu-run.sh (its /init says cb_started), run.sh and ab.sh
# (cb_follow), and in the guest as /console.sh (qemu-run.sh puts it
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

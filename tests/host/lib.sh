# SPDX-License-Identifier: GPL-2.0
#
# lib.sh - the few helpers the host tests share. Sourced, never run.
#
# Every check is one TAP point (tests/tap/tap.sh): "ok N - WHAT", "not ok
# N - WHAT: expected X, got Y", or "ok N - WHAT # SKIP" with the reason in
# WHAT. A test file ends with `summary`: the plan, and exit status 1 on any
# failure; tests/host/run.sh keeps each file's stream and counts them with
# tests/tap/count.

# shellcheck disable=SC2034 # used by the test files
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=../tap/tap.sh
. "$top/tests/tap/tap.sh"

summary() { tap_end; }

# tracked_copy: a private copy of the checkout's tracked files, in a new
# temporary directory (its path on stdout), for a test that asserts a
# script changes no file: in make test other lanes write into the
# checkout meanwhile.  tree_state DIR: every file under DIR with its sum.
tracked_copy() {
	_tc=$(mktemp -d) || return 1
	(cd "$top" && git ls-files -z | xargs -0 cp --parents -p -t "$_tc") || return 1
	echo "$_tc"
}
tree_state() { (cd "$1" && find . -type f -print0 | sort -z | xargs -0 md5sum); }

# The shells the scripts under test must run under: bash and busybox ash.
# CB_TEST_SHELLS overrides (space-separated; "busybox" means "busybox sh").
test_shells() {
	for s in ${CB_TEST_SHELLS:-bash busybox}; do
		case $s in
		busybox) command -v busybox >/dev/null && echo busybox ;;
		*) command -v "$s" >/dev/null && echo "$s" ;;
		esac
	done
}

# run_sh SHELL SCRIPT ARGS...: run a script under one of those shells.
run_sh() {
	_s=$1
	shift
	if [ "$_s" = busybox ]; then
		busybox sh "$@"
	else
		"$_s" "$@"
	fi
}

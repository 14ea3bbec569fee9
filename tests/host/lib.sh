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

pass() { tap_ok "$1"; }
fail() { tap_not_ok "$1"; }
skip() { tap_skip "$1" "(the reason is in its name)"; }

# expect_eq WHAT EXPECTED GOT
expect_eq() {
	if [ "$2" = "$3" ]; then
		pass "$1"
	else
		fail "$1: expected '$2', got '$3'"
	fi
}

# expect_match WHAT PATTERN TEXT: TEXT has a line matching the grep -E PATTERN
expect_match() {
	if printf '%s\n' "$3" | grep -Eq -- "$2"; then
		pass "$1"
	else
		fail "$1: expected a line matching /$2/, got: $(printf '%s' "$3" | head -c 400 | tr '\n' '|')"
	fi
}

# expect_no_match WHAT PATTERN TEXT
expect_no_match() {
	if printf '%s\n' "$3" | grep -Eq -- "$2"; then
		fail "$1: expected no line matching /$2/, got: $(printf '%s\n' "$3" | grep -E -- "$2" | head -n 3 | tr '\n' '|')"
	else
		pass "$1"
	fi
}

# expect_file WHAT FILE EXPECTED-CONTENT
expect_file() {
	if [ ! -e "$2" ]; then
		fail "$1: expected $2 to exist, got no such file"
	else
		expect_eq "$1" "$3" "$(cat "$2")"
	fi
}

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

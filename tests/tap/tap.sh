# SPDX-License-Identifier: GPL-2.0
#
# tap.sh - the shell test harness: every shell suite reports through it in
# TAP (the Test Anything Protocol, version 13), and tests/tap/count counts
# what they print.  Sourced, never run; POSIX sh (bash, dash, and busybox
# ash in the QEMU guest, where it is /tap.sh).
#
# The assertions, one vocabulary for every suite (a point each; a failed
# one says what was expected and what came):
#
#	pass NAME		ok N - NAME
#	fail NAME [WHY...]	not ok N - NAME, each WHY a comment line
#	skip NAME [WHY]		ok N - NAME # SKIP WHY
#	expect_eq NAME EXPECTED GOT
#	expect_le NAME LIMIT GOT	GOT an integer <= LIMIT
#	expect_ge NAME LIMIT GOT	GOT an integer >= LIMIT
#	expect_match NAME PATTERN TEXT	TEXT has a line matching the grep -E
#				PATTERN
#	expect_no_match NAME PATTERN TEXT
#	expect_file NAME FILE CONTENT	FILE exists and holds CONTENT
#	expect_ok NAME CMD...	CMD exits 0 (else its output says why)
#	expect_exit NAME RC PATTERN -- CMD...
#				CMD exits RC and, PATTERN given, prints a
#				line matching it (grep; stdout and stderr
#				together); both kept in $TAP_TMP/out and
#				$TAP_TMP/err for the checks after it
#
# A suite may redefine pass and fail to do more (the guest's note each
# point's time); the expect_ functions report through them.  Beneath
# them, the harness's own:
#
#	tap_ok NAME, tap_not_ok NAME [WHY...], tap_skip NAME WHY
#	tap_diag TEXT		# TEXT
#	tap_end			the plan, 1..N, last; then "# N passed, N
#				failed, N skipped"; status 1 on a failure
#	tap_lane NAME DIR	this program's own stream is $TAP_DIR/NAME.tap
#				(TAP_DIR, when the caller gave none, is
#				DIR), the older streams there removed
#	tap_odd_tmpdir		makes a folder named as a careless check
#				would misread (a space, digits and e's
#				that read as a number, a minus, nan,
#				inf) in a new mktemp folder, and prints
#				it: a suite's pass under it as TMPDIR
#				proves that no point looks at the name
#				of its temporary files; rm -rf its
#				parent after
#	tap_run NAME CMD...	runs another TAP producer into
#				$TAP_DIR/NAME.tap (its exit status in
#				NAME.rc), then shows it
#
# TAP_LOG=FILE sends every line to FILE as well (the guest's results).  The
# counts live in the calling shell: a check made in a pipeline's subshell
# is lost to them, and count then finds the plan wrong, so such a slip
# fails loudly rather than passing.

tap_n=0
tap_failed=0
tap_skipped=0

# (a newline would start a line TAP reads on its own: folded to '|')
tap_line() {
	case $1 in
	*'
'*) set -- "$(printf '%s' "$1" | tr '\n' '|')" ;;
	esac
	if [ -n "${TAP_LOG:-}" ]; then
		printf '%s\n' "$1" | tee -a "$TAP_LOG"
	else
		printf '%s\n' "$1"
	fi
}

# (a '#' in a description would start a directive: "# TODO" turns a
# failure into a pass; escaped as TAP says, \#)
tap_desc() {
	_tap_d=$*
	case $_tap_d in
	*'#'*) _tap_d=$(printf '%s' "$_tap_d" | sed 's/#/\\#/g') ;;
	esac
}

tap_ok() {
	tap_n=$((tap_n + 1))
	tap_desc "$*"
	tap_line "ok $tap_n - $_tap_d"
}

tap_not_ok() {
	tap_n=$((tap_n + 1))
	tap_failed=$((tap_failed + 1))
	tap_desc "$1"
	tap_line "not ok $tap_n - $_tap_d"
	shift
	for _tap_why in "$@"; do
		tap_line "#   $_tap_why"
	done
}

pass() { tap_ok "$*"; }
fail() { tap_not_ok "$@"; }
skip() { tap_skip "$1" "${2:-(the reason is in its name)}"; }

expect_eq() {
	if [ "$2" = "$3" ]; then pass "$1"; else fail "$1: expected '$2', got '$3'"; fi
}

expect_le() {
	if [ -n "$3" ] && [ "$3" -le "$2" ] 2>/dev/null; then pass "$1 ($3 <= $2)"
	else fail "$1: expected <= $2, got '$3'"; fi
}

expect_ge() {
	if [ -n "$3" ] && [ "$3" -ge "$2" ] 2>/dev/null; then pass "$1 ($3 >= $2)"
	else fail "$1: expected >= $2, got '$3'"; fi
}

expect_match() {
	if printf '%s\n' "$3" | grep -Eq -- "$2"; then
		pass "$1"
	else
		fail "$1: expected a line matching /$2/, got: $(printf '%s' "$3" | head -c 400 | tr '\n' '|')"
	fi
}

expect_no_match() {
	if printf '%s\n' "$3" | grep -Eq -- "$2"; then
		fail "$1: expected no line matching /$2/, got: $(printf '%s\n' "$3" | grep -E -- "$2" | head -n 3 | tr '\n' '|')"
	else
		pass "$1"
	fi
}

expect_file() {
	if [ ! -e "$2" ]; then
		fail "$1: expected $2 to exist, got no such file"
	else
		expect_eq "$1" "$3" "$(cat "$2")"
	fi
}

# (TAP_TMP: a folder of the suite's own, for the output of the command;
# without one, expect_ok runs CMD in a subshell)
expect_ok() {
	_tap_name=$1
	shift
	if [ -n "${TAP_TMP:-}" ]; then
		"$@" > "$TAP_TMP/check" 2>&1
		_tap_got=$?
		_tap_out=$(head -c 600 "$TAP_TMP/check")
	else
		_tap_out=$("$@" 2>&1)
		_tap_got=$?
	fi
	if [ "$_tap_got" = 0 ]; then
		pass "$_tap_name"
	else
		fail "$_tap_name" "'$*' failed: $(printf '%s' "$_tap_out" | head -c 600 | tr '\n' '|')"
	fi
}

expect_exit() {
	_tap_name=$1 _tap_rc=$2 _tap_pat=$3
	shift 4
	"$@" > "$TAP_TMP/out" 2> "$TAP_TMP/err"
	_tap_got=$?
	if [ "$_tap_got" = "$_tap_rc" ] &&
	   { [ -z "$_tap_pat" ] || cat "$TAP_TMP/out" "$TAP_TMP/err" | grep -q -- "$_tap_pat"; }; then
		pass "$_tap_name"
	else
		fail "$_tap_name" "expected exit $_tap_rc and '$_tap_pat'; got exit $_tap_got:" \
			"$(head -c 600 "$TAP_TMP/out" "$TAP_TMP/err" | tr '\n' '|')"
	fi
}

tap_skip() {
	tap_n=$((tap_n + 1))
	tap_skipped=$((tap_skipped + 1))
	tap_desc "$1"
	tap_line "ok $tap_n - $_tap_d # SKIP $2"
}

tap_diag() { tap_line "# $*"; }

# A suite under bash that calls what is no command (a typo, a helper
# renamed away) gets a failed point for it, not a silence that drops the
# points that call meant to make.
command_not_found_handle() {
	tap_not_ok "the suite calls '$1', which is no command (a typo, or a helper gone)"
	return 127
}

tap_end() {
	tap_line "1..$tap_n"
	tap_line "# $((tap_n - tap_failed - tap_skipped)) passed, $tap_failed failed, $tap_skipped skipped"
	[ "$tap_failed" = 0 ]
}

tap_lane() {
	TAP_DIR=${TAP_DIR:-$2}
	mkdir -p "$TAP_DIR"
	rm -f "$TAP_DIR"/*.tap "$TAP_DIR"/*.rc
	TAP_LOG=$TAP_DIR/$1.tap
	: > "$TAP_LOG"
}

tap_odd_tmpdir() {
	# (searchable by all, as /tmp is: a point run as another user
	# reaches the mktemp folders it is given inside)
	_tap_odd=$(mktemp -d) && mkdir -m 0755 "$_tap_odd/cb 1e5e9e1 -1e-5 nan inf" &&
		chmod 0755 "$_tap_odd" && printf '%s\n' "$_tap_odd/cb 1e5e9e1 -1e-5 nan inf"
}

tap_run() {
	_tap_name=$1
	shift
	mkdir -p "$TAP_DIR"
	"$@" > "$TAP_DIR/$_tap_name.tap" 2>&1
	echo $? > "$TAP_DIR/$_tap_name.rc"
	cat "$TAP_DIR/$_tap_name.tap"
}

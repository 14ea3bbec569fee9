# SPDX-License-Identifier: GPL-2.0
#
# tap.sh - the shell test harness: every shell suite reports through it in
# TAP (the Test Anything Protocol, version 13), and tests/tap/count counts
# what they print.  Sourced, never run; POSIX sh (bash, dash, and busybox
# ash in the QEMU guest, where it is /tap.sh).
#
#	tap_ok NAME		ok N - NAME
#	tap_not_ok NAME [WHY...]	not ok N - NAME (NAME or WHY says what
#				was expected and what came), each WHY as a
#				comment line
#	tap_check NAME CMD...	a point: CMD exits 0 (else its output says why)
#	tap_expect NAME RC PATTERN -- CMD...
#				a point: CMD exits RC and, PATTERN given,
#				prints a line matching it (grep; stdout and
#				stderr together); both kept in $TAP_TMP/out
#				and $TAP_TMP/err for the checks after it
#	tap_skip NAME WHY	ok N - NAME # SKIP WHY
#	tap_diag TEXT		# TEXT
#	tap_end			the plan, 1..N, last; then "# N passed, N
#				failed, N skipped"; status 1 on a failure
#	tap_lane NAME DIR	this program's own stream is $TAP_DIR/NAME.tap
#				(TAP_DIR, when the caller gave none, is
#				DIR), the older streams there removed
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

# (TAP_TMP: a folder of the suite's own, for the output of the commands)
tap_check() {
	_tap_name=$1
	shift
	if "$@" > "$TAP_TMP/check" 2>&1; then
		tap_ok "$_tap_name"
	else
		tap_not_ok "$_tap_name" "$(head -c 600 "$TAP_TMP/check" | tr '\n' '|')"
	fi
}

tap_expect() {
	_tap_name=$1 _tap_rc=$2 _tap_pat=$3
	shift 4
	"$@" > "$TAP_TMP/out" 2> "$TAP_TMP/err"
	_tap_got=$?
	if [ "$_tap_got" = "$_tap_rc" ] &&
	   { [ -z "$_tap_pat" ] || cat "$TAP_TMP/out" "$TAP_TMP/err" | grep -q -- "$_tap_pat"; }; then
		tap_ok "$_tap_name"
	else
		tap_not_ok "$_tap_name" "expected exit $_tap_rc and '$_tap_pat'; got exit $_tap_got:" \
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

tap_run() {
	_tap_name=$1
	shift
	mkdir -p "$TAP_DIR"
	"$@" > "$TAP_DIR/$_tap_name.tap" 2>&1
	echo $? > "$TAP_DIR/$_tap_name.rc"
	cat "$TAP_DIR/$_tap_name.tap"
}

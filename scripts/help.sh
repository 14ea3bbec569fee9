# SPDX-License-Identifier: GPL-2.0
# help.sh - sourced first by the project's scripts (no arguments, so it sees
# theirs): -h or --help prints the script's leading comment, its usage, and
# exits 0 before the script does anything else.
case ${1:-} in
-h|--help)
	sed -n '2,/^[^#]/{/^#/!d;/SPDX-License-Identifier/d;/shellcheck/d;s/^# \{0,1\}//;p}' "$0"
	exit 0
	;;
esac

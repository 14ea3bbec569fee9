#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# ko-sources.sh - the module's sources, listed once: what kbuild reads to
# build cyclebench.ko (the top-level Kbuild; kmod/ with its fragments;
# lib/; include/cyclebench/) and nothing else.  Every copy of the module's
# tree is made from here: scripts/build-ko.sh, make ab, the e2e tests'
# modules, the selftests of tests/kmod/run.sh, the DKMS source set.
#
#   scripts/ko-sources.sh             the checkout's, a path a line, sorted
#   scripts/ko-sources.sh --in DIR    those of a copy in DIR
#   scripts/ko-sources.sh --roots     the top-level paths they lie under
#   scripts/ko-sources.sh --copy DIR  the checkout's into DIR, with their
#                                     paths and times (kbuild rebuilds
#                                     only what is newer than its object)
. "$(dirname "$0")/help.sh"
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
roots="Kbuild kmod lib include"

# list DIR: the sources under DIR
list() {
	(cd "$1" && {
		[ ! -e Kbuild ] || echo Kbuild
		# shellcheck disable=SC2086 # roots is a list of paths
		find ${roots#Kbuild } -type f \( -name '*.[ch]' -o -name '*.mk' \) 2>/dev/null || true
	} | LC_ALL=C sort)
}

case ${1:-} in
'') list "$top" ;;
--in)
	[ -d "${2:-}" ] || { echo "ko-sources.sh: --in DIR: '${2:-}' is no directory" >&2; exit 2; }
	list "$2" ;;
--roots) echo "$roots" ;;
--copy)
	[ -n "${2:-}" ] || { echo "ko-sources.sh: --copy DIR: name the directory to copy into" >&2; exit 2; }
	mkdir -p "$2"
	list "$top" | (cd "$top" && xargs cp -p --parents -t "$2") ;;
*) echo "ko-sources.sh: unknown argument '$1' (--help lists them)" >&2; exit 2 ;;
esac

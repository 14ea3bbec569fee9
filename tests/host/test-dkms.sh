#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# test-dkms.sh - dkms.conf: `dkms add`, `dkms build`, `dkms install` and
# `dkms remove` of the module against installed Debian headers, in a private
# DKMS tree, source tree and install tree, with --no-depmod (the system's
# /var/lib/dkms, /usr/src and /lib/modules are not touched). Runs on its own:
#
#   sudo tests/host/test-dkms.sh [KERNELRELEASE]
#
# KERNELRELEASE defaults to the newest /usr/src/linux-headers-*-amd64 that has
# a Makefile (on the CI host 6.1.0-57-cloud-amd64), overridable by CB_KVER.
# Needs root (dkms signs with /var/lib/dkms/mok.key) and `dkms` (Debian:
# apt-get install --no-install-recommends dkms); without them it skips.
set -eu
. "$(dirname "$0")/lib.sh"

conf=$top/dkms.conf
ver=$(sed -n 's/^PACKAGE_VERSION="\{0,1\}\([^"]*\)"\{0,1\}$/\1/p' "$conf")
name=$(sed -n 's/^PACKAGE_NAME="\{0,1\}\([^"]*\)"\{0,1\}$/\1/p' "$conf")
expect_eq "dkms.conf names the package cyclebench" cyclebench "$name"

# The version is CB_VERSION in include/cyclebench/contract.h, which the module, the
# runner and cyclestat print; what cannot include it says the same
modver=$(sed -n 's/^#define CB_VERSION "\(.*\)"$/\1/p' "$top"/include/cyclebench/contract.h)
expect_eq "dkms.conf PACKAGE_VERSION equals CB_VERSION in include/cyclebench/contract.h" "$modver" "$ver"
for man in "$top"/userspace/cyclestat/cyclestat.1 "$top"/userspace/runner/cyclebench-user.1; do
	expect_eq "${man#"$top"/}'s .TH names cyclebench $modver" "cyclebench $modver" \
		"$(sed -n 's/^\.TH [^ ]* 1 [^ ]* "\([^"]*\)".*/\1/p' "$man")"
done

kver=${1:-${CB_KVER:-}}
if [ -z "$kver" ]; then
	for d in /usr/src/linux-headers-*-amd64; do
		[ -f "$d/Makefile" ] && kver=${d#/usr/src/linux-headers-}
	done
fi
why=
if ! command -v dkms >/dev/null; then
	why="dkms not installed: apt-get install --no-install-recommends dkms"
elif [ "$(id -u)" != 0 ]; then
	why="needs root (dkms signs modules with /var/lib/dkms/mok.key)"
elif [ -z "$kver" ] || [ ! -d "/lib/modules/$kver/build" ]; then
	why="no kernel headers (apt-get install linux-headers-\$(uname -r), or pass KERNELRELEASE)"
fi
if [ -n "$why" ]; then
	skip "dkms add and build ($why)"
	summary
	exit $?
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The source set dkms gets: what `dkms add .` would copy, less build output.
src=$tmp/usrsrc/$name-$ver
mkdir -p "$src" "$tmp/tree" "$tmp/inst/$kver"
"$top/scripts/ko-sources.sh" --copy "$src"
cp "$conf" "$src/"
dk() {
	dkms --dkmstree "$tmp/tree" --sourcetree "$tmp/usrsrc" --installtree "$tmp/inst" "$@"
}

out=$(dk add -m "$name" -v "$ver" 2>&1) && rc=0 || rc=$?
expect_eq "dkms add succeeds" 0 "$rc"
[ "$rc" = 0 ] || printf '%s\n' "$out" | tail -n 20 | sed 's/^/# /'

out=$(dk build -m "$name" -v "$ver" -k "$kver" 2>&1) && rc=0 || rc=$?
expect_eq "dkms build -k $kver succeeds" 0 "$rc"
[ "$rc" = 0 ] || { printf '%s\n' "$out" | tail -n 20 | sed 's/^/# /'; tail -n 20 "$tmp/tree/$name/$ver/build/make.log" 2>/dev/null | sed 's/^/# /'; }

ko=$(find "$tmp/tree/$name/$ver/$kver" -name 'cyclebench.ko*' 2>/dev/null | head -n 1)
if [ -n "$ko" ]; then
	pass "dkms build leaves cyclebench.ko for $kver"
	if command -v modinfo >/dev/null; then
		expect_eq "the built module's version is $ver" "$ver" "$(modinfo -F version "$ko")"
		expect_eq "the built module is for $kver" "$kver" "$(modinfo -F vermagic "$ko" | cut -d' ' -f1)"
	else
		skip "modinfo of the built module (no modinfo: apt-get install kmod)"
	fi
else
	fail "dkms build leaves cyclebench.ko for $kver: expected a .ko under $tmp/tree/$name/$ver/$kver, got none"
fi

out=$(dk status -m "$name" 2>&1) && rc=0 || rc=$?
expect_match "dkms status shows it built" "^$name/$ver, $kver, [^:]*: built" "$out"

out=$(dk install -m "$name" -v "$ver" -k "$kver" --no-depmod 2>&1) && rc=0 || rc=$?
expect_eq "dkms install -k $kver succeeds" 0 "$rc"
[ -f "$tmp/inst/$kver/updates/dkms/cyclebench.ko" ] && v=yes || v=no
expect_eq "dkms install puts cyclebench.ko in updates/dkms" yes "$v"
out=$(dk remove -m "$name" -v "$ver" --all --no-depmod 2>&1) && rc=0 || rc=$?
[ -e "$tmp/inst/$kver/updates/dkms/cyclebench.ko" ] && v=left || v=gone
expect_eq "dkms remove --all takes it out again" "0 gone" "$rc $v"

summary

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Builds cyclebench.ko for one QEMU kernel series, with W=1, in a private
# copy of the module's sources (scripts/ko-sources.sh) under build/ko-ABI/, and
# prints the .ko's path on stdout. kbuild writes an external module's
# objects next to its sources, so one tree cannot hold builds for two
# kernels: each kernel gets its own copy, rebuilt incrementally.
#
#   scripts/build-ko.sh [--clean] [--strict] [--test-hooks] SERIES
#                                            (SERIES: 6.1, 6.12, 6.12-rt)
#
#   --clean       rebuild everything (to see every W=1 warning again)
#   --strict      fail when the compiler or modpost printed any warning
#   --test-hooks  the tests' build, with the fault_* parameters
#                 (CB_TEST_HOOKS=y, Kbuild), in build/ko-ABI+hooks/
#
# The build's output goes to build/ko-ABI/build.log and its warnings to
# stderr. A file that warned is compiled again on the next run, so its
# warnings are never hidden by an incremental build.
# Exit status: 0 built, 1 build failed (or warned, with --strict), 2 the
# kernel's headers are missing (run scripts/deps.sh --kernel SERIES).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)

clean=0 strict=0 hooks=
while [ $# -gt 0 ]; do
	case $1 in
	--clean) clean=1; shift ;;
	--strict) strict=1; shift ;;
	--test-hooks) hooks=y; shift ;;
	-h|--help) sed -n '3,/^set -euo/p' "$0" | sed -e '/^set -euo/d' -e 's/^# \{0,1\}//'; exit 0 ;;
	-*) echo "build-ko.sh: unknown option '$1'" >&2; exit 2 ;;
	*) break ;;
	esac
done
[ $# -eq 1 ] || { echo "usage: scripts/build-ko.sh [--clean] [--strict] SERIES   (e.g. 6.1, 6.12, 6.12-rt)" >&2; exit 2; }
series=$1

if ! kdir=$("$top/scripts/kdir.sh" --kernel "$series"); then
	echo "build-ko.sh: cannot build for $series without its headers" >&2
	exit 2
fi
abi=$(basename "$kdir")
abi=${abi#linux-headers-}
abi=${abi%-cloud-amd64}
abi=${abi%-amd64}	# another flavour: 6.12.117+deb12-rt
if ! command -v pahole >/dev/null && [ -e "$kdir/vmlinux" ]; then
	echo "build-ko.sh: the $abi headers want pahole (for the module's BTF); try: sudo scripts/deps.sh --kernel $series" >&2
	exit 2
fi

dir=$top/build/ko-$abi${hooks:++hooks}
mkdir -p "$dir"
exec 9> "$dir.lock"
flock 9	# one build per tree at a time

[ $clean = 1 ] && find "$dir" -mindepth 1 -delete

# Bring the copy up to date: copy what differs (so kbuild sees a new
# mtime).  A source gone from the checkout (a file moved) may be named in
# kbuild's dependency files, which stop the next build ("No such file"):
# then the copy starts afresh.
cd "$top"
if [ -d "$dir/kmod" ] && "$top/scripts/ko-sources.sh" --in "$dir" |
	while read -r f; do [ -e "$f" ] || exit 1; done; then
	:
elif [ -d "$dir/kmod" ]; then
	find "$dir" -mindepth 1 -delete
fi
mapfile -t srcs < <("$top/scripts/ko-sources.sh")
for f in "${srcs[@]}"; do
	if ! cmp -s "$f" "$dir/$f"; then
		mkdir -p "$dir/$(dirname "$f")"
		cp "$f" "$dir/$f"
	fi
done

log=$dir/build.log
if ! make -C "$kdir" M="$dir" W=1 CB_TEST_HOOKS=$hooks -j"$(nproc)" modules > "$log" 2>&1; then
	grep -E 'error|Error' "$log" | head -n 20 >&2 || tail -n 20 "$log" >&2
	echo "build-ko.sh: the $abi build failed; see $log" >&2
	exit 1
fi
if grep -qiE 'warning:' "$log"; then
	grep -iE -A3 'warning:' "$log" >&2
	echo "build-ko.sh: W=1 build for $abi: $(grep -ciE 'warning:' "$log") warning(s) (see $log)" >&2
	# the next incremental build compiles these files again
	sed -nE 's|^([^: ]+)\.c:[0-9]+:[0-9]+: warning:.*|\1.o|p' "$log" | sort -u |
		while read -r o; do rm -f "$dir/${o#"$dir"/}"; done
	[ $strict = 1 ] && exit 1
fi
[ -e "$dir/cyclebench.ko" ] || { echo "build-ko.sh: make succeeded but left no $dir/cyclebench.ko" >&2; exit 1; }
echo "$dir/cyclebench.ko"

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Install what cyclebench needs on Debian 12, and fetch Debian's cloud kernels
# for the QEMU path. Idempotent: a second run installs and downloads nothing.
#
#   scripts/deps.sh            build + QEMU deps (headers, qemu, busybox, kernel image)
#   scripts/deps.sh --check    also the tools behind 'make test'
#                              (sparse, checkpatch, numpy, libFuzzer, dkms, gnuplot)
#   scripts/deps.sh --static   only what 'make check' adds: sparse, checkpatch
#   scripts/deps.sh --bench    also ministat, datamash and nasm (uarch-bench) for 'make bench'
#   scripts/deps.sh --kernel 6.12          the QEMU kernel series to set up
#   scripts/deps.sh --kernels "6.1 6.12"   (repeatable; default 6.1)
#
# A series is Debian's cloud flavour (6.1, 6.12: LZ4, boots fastest), or
# with -rt its PREEMPT_RT flavour (6.12-rt: linux-image-*-rt-amd64), or
# 6.1-debug: a kernel built here from Debian's linux-source-6.1 with
# tinyconfig + scripts/debug-kernel.config (KASAN, kmemleak, lockdep, fault
# injection...); a long build the first time (docs/measurements.md has
# how long it took on a 2-core machine), then cached
# under $CB_CACHE/6.1.V-debug/ (KEY 6.1.V-debug, the source's version) with
# the whole build tree as its headers.
# Prints, on its last line, nothing; the paths it sets up, where KEY is the
# ABI for the cloud flavour (6.12.117+deb12) and ABI-rt for RT
# (6.12.117+deb12-rt), i.e. the kernel release less "-cloud-amd64"/"-amd64":
#   /usr/src/linux-headers-$ABI-cloud-amd64     6.1: headers, apt-installed
#   $CB_CACHE/$KEY/headers/usr/src/linux-headers-$RELEASE
#                                               other series: headers, extracted
#                                               from the .debs, never installed
#   $CB_CACHE/$KEY/vmlinuz, config              the kernel QEMU boots
#   $CB_CACHE/kernel-$SERIES                    that series' KEY (e.g. 6.12.117+deb12)
#   $CB_CACHE/abi                               the 6.1 ABI, as before
# scripts/kdir.sh --kernel SERIES prints the headers' path.
set -euo pipefail

CB_CACHE=${CB_CACHE:-/var/cache/cyclebench}
ARGS="$*"
want_check=0
want_static=0
want_bench=0
series=()
while [ $# -gt 0 ]; do
	case $1 in
	--check) want_check=1; want_static=1 ;;
	--static) want_static=1 ;;
	--bench) want_bench=1 ;;
	--all) want_check=1; want_static=1; want_bench=1 ;;
	--kernel|--kernels)
		[ $# -ge 2 ] || { echo "deps.sh: $1 needs a value, e.g. $1 6.12" >&2; exit 2; }
		# shellcheck disable=SC2206 # a space-separated list
		series+=($2)
		shift ;;
	-h|--help) sed -n '3,/^set -euo/p' "$0" | sed -n 's/^# \{0,1\}//p'; exit 0 ;;
	*) echo "deps.sh: unknown option '$1' (try --check, --static, --bench, --all, --kernel SERIES)" >&2; exit 2 ;;
	esac
	shift
done
[ ${#series[@]} -gt 0 ] || series=(6.1)
for s in "${series[@]}"; do
	case $s in
	[0-9].[0-9]|[0-9].[0-9][0-9]|[0-9].[0-9]-rt|[0-9].[0-9][0-9]-rt|6.1-debug) ;;
	*) echo "deps.sh: '$s' is not a kernel series like 6.1, 6.12, 6.12-rt or 6.1-debug" >&2; exit 2 ;;
	esac
done

export DEBIAN_FRONTEND=noninteractive
apt_updated=0
apt_update() {
	[ $apt_updated = 1 ] && return 0
	[ "$(id -u)" = 0 ] || return 0
	apt-get update -qq
	apt_updated=1
}
need_root() {
	[ "$(id -u)" = 0 ] && return 0
	echo "deps.sh: $1 needs root; try: sudo $0 $ARGS" >&2
	exit 2
}
apt_install() {
	local missing=()
	local p
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
			missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	need_root "installing ${missing[*]}"
	apt_update
	echo "deps.sh: installing ${missing[*]}" >&2
	apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# The newest ABI Debian offers for a series: 6.1 -> e.g. 6.1.0-57 (the
# default meta-package), 6.12 -> e.g. 6.12.117+deb12 (its own meta-package,
# else the newest headers package of that series). Never uname -r: the host's
# own kernel may be anything. One apt-cache call for all series: each call
# rebuilds apt's cache, seconds on a busy machine.
# flavour_of SERIES: Debian's flavour (cloud-amd64, rt-amd64); base_of: 6.12
flavour_of() { case $1 in *-rt) echo rt-amd64 ;; *) echo cloud-amd64 ;; esac; }
base_of() { echo "${1%-rt}"; }
# key_of SERIES ABI: the name of its cache directory (the release less -amd64,
# and less -cloud for the cloud flavour, as before)
key_of() { case $1 in *-rt) echo "$2-rt" ;; *) echo "$2" ;; esac; }
meta_of() {
	if [ "$(base_of "$1")" = 6.1 ]; then echo "linux-headers-$(flavour_of "$1")"
	else echo "linux-headers-$(base_of "$1")-$(flavour_of "$1")"; fi
}
depends_out=
load_depends() {
	local metas=() s
	for s in "${series[@]}"; do
		[ "$s" = 6.1-debug ] || metas+=("$(meta_of "$s")")
	done
	depends_out=$(apt-cache depends "${metas[@]}" 2>/dev/null || true)
}
abi_of() {
	local s b f a
	s=$1 b=$(base_of "$1") f=$(flavour_of "$1")
	a=$(printf '%s\n' "$depends_out" | awk -v m="$(meta_of "$s")" -v f="-$f" '
		/^[^ ]/ { f_ = ($0 == m); next }
		f_ && sub(/^ *Depends: linux-headers-/, "") && sub(f "$", "") { print; exit }')
	case $a in "$b".*) echo "$a"; return ;; esac
	apt-cache search --names-only "^linux-headers-${b//./\\.}\\.[0-9][^ ]*-$f\$" 2>/dev/null |
		sed -n "s/^linux-headers-\\([^ ]*\\)-$f .*/\\1/p" | sort -V | tail -n1
}
resolve() {
	local a
	a=$(abi_of "$1")
	if [ -z "$a" ] && [ "$(id -u)" = 0 ]; then
		apt-get update -qq
		load_depends
		a=$(abi_of "$1")
	fi
	if [ -z "$a" ]; then
		echo "deps.sh: cannot resolve the Debian kernel ABI of $1 (no linux-headers-$(base_of "$1")*-$(flavour_of "$1") in apt); is bookworm (and bookworm-security for 6.12) in the apt sources?" >&2
		exit 1
	fi
	echo "$a"
}

tmp=
cleanup() { [ -z "$tmp" ] || rm -rf "$tmp"; }
trap cleanup EXIT
# download PKG...: into a fresh $tmp that apt's sandbox user can write
download() {
	cleanup
	tmp=$(mktemp -d)
	chmod 755 "$tmp"
	chown _apt "$tmp" 2>/dev/null || true
	(cd "$tmp" && apt-get download -qq "$@")
}

# The kernel image: download, never install (its postinst wants a boot loader).
# fetch_image KEY RELEASE
fetch_image() {
	local rel=$2 dir=$CB_CACHE/$1
	[ -s "$dir/vmlinuz" ] && return 0
	need_root "fetching the kernel image into $dir"
	mkdir -p "$dir"
	download "linux-image-$rel"
	dpkg-deb --fsys-tarfile "$tmp"/linux-image-*.deb |
		tar -x -C "$tmp" "./boot/vmlinuz-$rel" "./boot/config-$rel"
	mv "$tmp/boot/config-$rel" "$dir/config"
	mv "$tmp/boot/vmlinuz-$rel" "$dir/vmlinuz.new"
	mv "$dir/vmlinuz.new" "$dir/vmlinuz"
}

# Headers without dpkg: from 6.12 on, Debian's headers package depends on the
# image package, whose installation drags in initramfs tooling. Extract the
# headers, their -common part (-common-rt for RT) and kbuild instead, and
# point the headers' one-line Makefile at the extracted -common.
# fetch_headers KEY ABI RELEASE
fetch_headers() {
	local abi=$2 rel=$3 dir=$CB_CACHE/$1/headers deps common kbuild
	[ -e "$dir/.done" ] && return 0
	need_root "fetching the $rel headers into $dir"
	deps=$(apt-cache depends "linux-headers-$rel" 2>/dev/null)
	common=$(printf '%s\n' "$deps" |
		sed -n 's/.*Depends: \(linux-headers-[^ ]*-common[^ ]*\)$/\1/p' | head -n1)
	kbuild=$(printf '%s\n' "$deps" |
		sed -n 's/.*Depends: \(linux-kbuild-[^ ]*\)$/\1/p' | head -n1)
	common=${common:-linux-headers-$abi-common}
	download "linux-headers-$rel" "$common" "${kbuild:-linux-kbuild-$abi}"
	rm -rf "$dir" "$dir.new"
	mkdir -p "$dir.new"
	local d
	for d in "$tmp"/*.deb; do
		dpkg-deb -x "$d" "$dir.new"
	done
	local h=$dir.new/usr/src/linux-headers-$rel
	if [ ! -e "$h/Makefile" ] || [ ! -d "$dir.new/usr/src/$common" ]; then
		echo "deps.sh: the $rel headers packages did not hold usr/src/linux-headers-$rel and usr/src/$common" >&2
		exit 1
	fi
	rm -rf "$dir.new/lib/modules"	# absolute links into /usr/src
	mv "$dir.new" "$dir"
	h=$dir/usr/src/linux-headers-$rel
	echo "include $dir/usr/src/$common/Makefile" > "$h/Makefile"
	: > "$dir/.done"
}

apt_install make gcc libc6-dev cpio gzip busybox-static qemu-system-x86 \
	kmod binutils
# make test: sparse and checkpatch (linux-source) for the module, numpy and
# scipy as cyclestat's reference, clang's libFuzzer for its fuzzer, dkms and
# python3-yaml for the packaging and workflow tests; perl's TAP::Parser
# for tests/tap/count, which counts every suite's TAP.
[ $want_static = 1 ] && apt_install sparse linux-source-6.1 xz-utils python3 perl
[ $want_check = 1 ] && apt_install python3-numpy python3-scipy python3-yaml \
	clang libclang-rt-14-dev dkms
[ $want_check = 1 ] && apt_install gnuplot-nox
[ $want_bench = 1 ] && apt_install ministat datamash time nasm

# checkpatch.pl is not in Debian's headers: take it from linux-source-6.1.
cp_dir=$CB_CACHE/checkpatch
if [ $want_static = 1 ] && [ ! -s "$cp_dir/checkpatch.pl" ]; then
	mkdir -p "$cp_dir"
	tar -xJf /usr/src/linux-source-6.1.tar.xz -C "$cp_dir" --strip-components=2 \
		linux-source-6.1/scripts/checkpatch.pl \
		linux-source-6.1/scripts/spelling.txt \
		linux-source-6.1/scripts/const_structs.checkpatch
fi

# The debug kernel (6.1-debug): built from Debian's linux-source-6.1, in
# place, under $CB_CACHE/$KEY/headers/usr/src/linux-headers-$KEY-amd64 (the
# name kdir.sh looks for), so an external module builds against the tree
# itself (M=). Skipped when the stamp says this source and this config
# fragment were built; a changed fragment rebuilds incrementally.
build_debug_kernel() {
	local frag=$top/scripts/debug-kernel.config ver key dir src stamp want t0
	# what the kernel build needs; pahole because build-ko.sh asks for it
	# wherever the tree has a vmlinux
	apt_install linux-source-6.1 xz-utils gcc make bc flex bison libelf-dev libssl-dev dwarves
	ver=$(dpkg-query -W -f='${Version}' linux-source-6.1)
	want="linux-source-6.1 $ver $(md5sum < "$frag" | cut -d' ' -f1)"
	key=$(tar -xJOf /usr/src/linux-source-6.1.tar.xz linux-source-6.1/Makefile |
		awk '/^VERSION =/ { v = $3 } /^PATCHLEVEL =/ { p = $3 } /^SUBLEVEL =/ { s = $3 }
			END { print v "." p "." s }')-debug
	dir=$CB_CACHE/$key
	src=$dir/headers/usr/src/linux-headers-$key-amd64
	stamp=$dir/.built
	if [ "$(cat "$stamp" 2>/dev/null)" = "$want" ] && [ -s "$dir/vmlinuz" ]; then
		debug_key=$key
		return 0
	fi
	need_root "building the debug kernel in $dir"
	t0=$SECONDS
	echo "deps.sh: building the 6.1-debug kernel from linux-source-6.1 $ver in $src (several minutes on a small machine; done once, then cached)" >&2
	rm -f "$stamp"
	if [ ! -e "$src/Makefile" ]; then
		rm -rf "$src"
		mkdir -p "$src"
		tar -xJf /usr/src/linux-source-6.1.tar.xz -C "$src" --strip-components=1
	fi
	cp "$frag" "$src/kernel/configs/cyclebench-debug.config"
	local log=$dir/build.log
	if ! { make -C "$src" -s tinyconfig &&
		make -C "$src" -s cyclebench-debug.config &&
		make -C "$src" -j"$(nproc)" bzImage modules; } > "$log" 2>&1; then
		tail -n 30 "$log" >&2
		echo "deps.sh: the 6.1-debug kernel build failed; see $log (then: sudo scripts/deps.sh --kernel 6.1-debug)" >&2
		exit 1
	fi
	# olddefconfig drops an option whose dependencies are unmet, silently
	local o missing=()
	while read -r o; do
		grep -qxF "$o" "$src/.config" || missing+=("$o")
	done < <(grep -E '^CONFIG_[A-Z0-9_]+=' "$frag")
	if [ ${#missing[@]} -gt 0 ]; then
		echo "deps.sh: the 6.1-debug .config lacks ${missing[*]} (an unmet dependency: see 'make -C $src menuconfig', search for it, and add what it depends on to scripts/debug-kernel.config)" >&2
		exit 1
	fi
	cp "$src/.config" "$dir/config"
	cp "$src/arch/x86/boot/bzImage" "$dir/vmlinuz.new"
	mv "$dir/vmlinuz.new" "$dir/vmlinuz"
	echo "$want" > "$stamp"
	echo "deps.sh: built the 6.1-debug kernel $(make -C "$src" -s kernelrelease) in $((SECONDS - t0)) s" >&2
	debug_key=$key
}
top=$(cd "$(dirname "$0")/.." && pwd)

load_depends
for s in "${series[@]}"; do
	if [ "$s" = 6.1-debug ]; then
		build_debug_kernel
		if [ "$(cat "$CB_CACHE/kernel-$s" 2>/dev/null)" != "$debug_key" ]; then
			need_root "writing $CB_CACHE/kernel-$s"
			echo "$debug_key" > "$CB_CACHE/kernel-$s"
		fi
		continue
	fi
	if [ "$s" = 6.1 ]; then
		ABI=${CB_ABI:-$(resolve 6.1)}
		apt_install "linux-headers-$ABI-cloud-amd64"
	else
		ABI=$(resolve "$s")
		# what linux-kbuild and the headers package would have pulled in;
		# pahole makes the modules' BTF against the headers' vmlinux
		apt_install gcc-12 libelf1 libssl3 zlib1g dwarves
		fetch_headers "$(key_of "$s" "$ABI")" "$ABI" "$ABI-$(flavour_of "$s")"
	fi
	KEY=$(key_of "$s" "$ABI")
	fetch_image "$KEY" "$ABI-$(flavour_of "$s")"
	if [ "$(cat "$CB_CACHE/kernel-$s" 2>/dev/null)" != "$KEY" ]; then
		need_root "writing $CB_CACHE/kernel-$s"
		echo "$KEY" > "$CB_CACHE/kernel-$s"
	fi
	if [ "$s" = 6.1 ] && [ "$(cat "$CB_CACHE/abi" 2>/dev/null)" != "$ABI" ]; then
		need_root "writing $CB_CACHE/abi"
		echo "$ABI" > "$CB_CACHE/abi"
	fi
done

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Install what cyclebench needs on Debian 12, and fetch Debian's cloud kernel
# image for the QEMU path. Idempotent: a second run installs nothing.
#
#   scripts/deps.sh            build + QEMU deps (headers, qemu, busybox, kernel image)
#   scripts/deps.sh --check    also the tools behind 'make check' (sparse, checkpatch)
#   scripts/deps.sh --bench    also ministat and datamash for 'make bench'
#
# Prints, on its last line, nothing; the paths it sets up are:
#   /usr/src/linux-headers-$ABI-cloud-amd64     headers for the module build
#   $CB_CACHE/$ABI/vmlinuz                      the kernel QEMU boots
set -euo pipefail

CB_CACHE=${CB_CACHE:-/var/cache/cyclebench}
ARGS="$*"
want_check=0
want_bench=0
for a in "$@"; do
	case $a in
	--check) want_check=1 ;;
	--bench) want_bench=1 ;;
	--all) want_check=1; want_bench=1 ;;
	*) echo "deps.sh: unknown option '$a' (try --check, --bench, --all)" >&2; exit 2 ;;
	esac
done

export DEBIAN_FRONTEND=noninteractive
apt_updated=0
apt_install() {
	local missing=()
	local p
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
			missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	if [ "$(id -u)" != 0 ]; then
		echo "deps.sh: ${missing[*]} missing and installing needs root; try: sudo $0 $ARGS" >&2
		exit 2
	fi
	if [ $apt_updated = 0 ]; then
		apt-get update -qq
		apt_updated=1
	fi
	echo "deps.sh: installing ${missing[*]}" >&2
	apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# The newest 6.1 cloud ABI Debian offers, e.g. 6.1.0-57. Never uname -r: the
# host's own kernel may be anything.
abi() {
	apt-cache depends linux-headers-cloud-amd64 2>/dev/null |
		sed -n 's/.*Depends: linux-headers-\(.*\)-cloud-amd64$/\1/p' | head -n1
}

apt_install make gcc libc6-dev cpio gzip busybox-static qemu-system-x86 \
	kmod binutils
ABI=${CB_ABI:-$(abi)}
if [ -z "$ABI" ]; then
	apt-get update -qq
	apt_updated=1
	ABI=$(abi)
fi
if [ -z "$ABI" ]; then
	echo "deps.sh: cannot resolve the Debian cloud kernel ABI (apt-cache depends linux-headers-cloud-amd64 found nothing); is bookworm in /etc/apt/sources.list?" >&2
	exit 1
fi
apt_install "linux-headers-$ABI-cloud-amd64"
[ $want_check = 1 ] && apt_install sparse python3-numpy python3-scipy clang linux-source-6.1
[ $want_bench = 1 ] && apt_install ministat datamash time

# checkpatch.pl is not in Debian's headers: take it from linux-source-6.1.
cp_dir=$CB_CACHE/checkpatch
if [ $want_check = 1 ] && [ ! -s "$cp_dir/checkpatch.pl" ]; then
	mkdir -p "$cp_dir"
	tar -xJf /usr/src/linux-source-6.1.tar.xz -C "$cp_dir" --strip-components=2 \
		linux-source-6.1/scripts/checkpatch.pl \
		linux-source-6.1/scripts/spelling.txt \
		linux-source-6.1/scripts/const_structs.checkpatch
fi

# The kernel image: download, never install (its postinst wants a boot loader).
dir=$CB_CACHE/$ABI
if [ ! -s "$dir/vmlinuz" ]; then
	if [ "$(id -u)" != 0 ]; then
		echo "deps.sh: no kernel image in $dir and fetching it needs root; try: sudo $0 $ARGS" >&2
		exit 2
	fi
	mkdir -p "$dir"
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	(cd "$tmp" && apt-get download -qq "linux-image-$ABI-cloud-amd64")
	dpkg-deb --fsys-tarfile "$tmp"/linux-image-*.deb |
		tar -x -C "$tmp" "./boot/vmlinuz-$ABI-cloud-amd64" "./boot/config-$ABI-cloud-amd64"
	mv "$tmp/boot/config-$ABI-cloud-amd64" "$dir/config"
	mv "$tmp/boot/vmlinuz-$ABI-cloud-amd64" "$dir/vmlinuz"
fi
[ "$(cat "$CB_CACHE/abi" 2>/dev/null)" = "$ABI" ] || echo "$ABI" > "$CB_CACHE/abi"

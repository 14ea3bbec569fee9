#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Prints the kernel build tree 'make' uses when KDIR is not given: the running
# kernel's when this host can load modules, else the Debian cloud headers
# that scripts/deps.sh installs for the QEMU path.
#
#   scripts/kdir.sh                  that default
#   scripts/kdir.sh --kernel SERIES  the headers of a QEMU kernel series (6.1,
#                                    6.12, 6.12-rt, 6.1-debug) that 'scripts/deps.sh
#                                    --kernel SERIES' set up; exits 1 with a
#                                    hint when it did not
. "$(dirname "$0")/help.sh"
CB_CACHE=${CB_CACHE:-/var/cache/cyclebench}
if [ "${1:-}" = --kernel ]; then
	s=${2:-}
	abi=$(cat "$CB_CACHE/kernel-$s" 2>/dev/null)
	[ -n "$abi" ] || [ "$s" != 6.1 ] || abi=$(cat "$CB_CACHE/abi" 2>/dev/null)
	# the cloud flavour (KEY = ABI), or another one (KEY = ABI-rt, the
	# release less -amd64)
	for d in "$CB_CACHE/$abi/headers/usr/src/linux-headers-$abi-cloud-amd64" \
		"$CB_CACHE/$abi/headers/usr/src/linux-headers-$abi-amd64" \
		"/usr/src/linux-headers-$abi-cloud-amd64"; do
		if [ -n "$abi" ] && [ -e "$d/Makefile" ]; then
			echo "$d"
			exit 0
		fi
	done
	echo "kdir.sh: no headers for kernel '$s'${abi:+ (ABI $abi)}; try: sudo scripts/deps.sh --kernel $s" >&2
	exit 1
fi
running=/lib/modules/$(uname -r)/build
if [ -e /proc/modules ] && [ -d "$running" ]; then
	echo "$running"
	exit 0
fi
abi=$(cat "$CB_CACHE/abi" 2>/dev/null)
if [ -z "$abi" ]; then
	abi=$(apt-cache depends linux-headers-cloud-amd64 2>/dev/null |
		sed -n 's/.*Depends: linux-headers-\(.*\)-cloud-amd64$/\1/p' | head -n1)
fi
echo "/usr/src/linux-headers-${abi:-UNKNOWN}-cloud-amd64"

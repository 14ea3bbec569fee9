#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Prints the kernel build tree 'make' uses when KDIR is not given: the running
# kernel's when this host can load modules, else the Debian cloud headers
# that scripts/deps.sh installs for the QEMU path.
CB_CACHE=${CB_CACHE:-/var/cache/cyclebench}
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

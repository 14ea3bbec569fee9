#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# host-caches.sh - this machine's L1D, L1I and L2 as cbcount.so's
# arguments, from CPU 0's sysfs cache directories: the geometry to model by
# default (the size, ways and line size the kernel reports).
#
#   userspace/qemu-plugin/host-caches.sh      e.g. l1d=32K:8:64,l1i=32K:8:64,l2=1024K:8:64
#
# A level sysfs does not describe is left out (cbcount.so's default
# stands); exit 0, or 2 on an argument.
case ${1:-} in
-h|--help) sed -n '3,/^case/p' "$0" | sed -e '/^case/d' -e 's/^# \{0,1\}//'; exit 0 ;;
'') ;;
*) echo "host-caches.sh: no arguments (--help)" >&2; exit 2 ;;
esac
sys=${CB_SYSFS:-/sys}/devices/system/cpu/cpu0/cache
out=
for d in "$sys"/index*; do
	[ -r "$d/level" ] || continue
	key=
	case "$(cat "$d/level") $(cat "$d/type")" in
	"1 Data") key=l1d ;;
	"1 Instruction") key=l1i ;;
	"2 Unified") key=l2 ;;
	esac
	[ -n "$key" ] || continue
	size=$(cat "$d/size") ways=$(cat "$d/ways_of_associativity") line=$(cat "$d/coherency_line_size")
	out="$out,$key=$size:$ways:$line"
done
echo "${out#,}"

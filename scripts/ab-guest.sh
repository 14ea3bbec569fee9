# SPDX-License-Identifier: GPL-2.0
# The guest side of 'make ab' (scripts/ab.sh): SIDES ("A B", or one of
# them where each side has a boot of its own), RUNS times in turn: insmod
# /SIDE.ko with the given parameters (the load runs the selection), save
# the results to /out/results/SIDE/runK for the host, rmmod.  Interleaved:
# A's k-th run and B's k-th saw the same stretch of the boot.
#
#   ab-guest.sh SIDES RUNS [PARAM...]
case ${1:-} in
-h|--help) sed -n '2,/^case/{/^case/d;/SPDX/d;s/^# \{0,1\}//;p}' "$0"; exit 0 ;;
esac
set -e
sides=$1
runs=$2
shift 2
k=1
while [ "$k" -le "$runs" ]; do
	for s in $sides; do
		mkdir -p "/out/results/$s"
		if ! insmod "/$s.ko" "$@"; then
			echo "ab: side $s, run $k: insmod failed (its kernel log: dmesg.txt)"
			exit 1
		fi
		cyclestat -q save "/out/results/$s/run$k"
		rmmod cyclebench
	done
	k=$((k + 1))
done

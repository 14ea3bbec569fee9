# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# The guest side of 'make ab' (scripts/ab.sh): the runs in ORDER, round
# by round (scripts/ab-order.sh's: "AB BA AB BA ...", or "A A" where a
# side has a boot of its own), each run: insmod /SIDE.ko with SIDE's
# parameters (the load runs the selection), save the results to
# /out/results/SIDE/runK for the host (K: the round), rmmod; before each,
# "ab SIDE K N" on the console (console.sh's cb_progress).  Interleaved
# and turned round every round: A's k-th run and B's k-th saw the same
# stretch of the boot, and a drift across it moves both sides alike.
#
#   ab-guest.sh ORDER SIDE=PARAMS...    e.g. "AB BA" "A=only=alu" "B=only=alu,ab"
case ${1:-} in
-h|--help) sed -n '2,/^case/{/^case/d;/SPDX/d;/shellcheck/d;s/^# \{0,1\}//;p}' "$0"; exit 0 ;;
esac
set -e
. /console.sh
# shellcheck disable=SC2034 # side.sh names us in its messages
side_who=ab
. /side.sh
order=$1
shift
k=0
n=$(echo "$order" | wc -w)
for round in $order; do
	k=$((k + 1))
	rest=$round
	while [ -n "$rest" ]; do
		s=${rest%"${rest#?}"}
		rest=${rest#?}
		params=
		for a in "$@"; do
			case $a in "$s="*) params=${a#??} ;; esac
		done
		mkdir -p "/out/results/$s"
		# make ab's progress line (ab.sh reads the console)
		cb_progress ab "$s" "$k" "$n"
		# shellcheck disable=SC2086 # params is a list of key=value words
		if ! side_load "/$s.ko" $params; then
			echo "ab: side $s, run $k: insmod failed (its kernel log: dmesg.txt)"
			exit 1
		fi
		cyclestat -q save "/out/results/$s/run$k"
		side_unload
	done
done

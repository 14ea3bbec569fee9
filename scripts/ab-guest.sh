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
# Under make ab MEM=1 (/cbmark there): each run loads without a run,
# tells the TCG plugin which build and where (cbmark set K: the K-th
# SIDE= argument; cbmark arm), runs the selection through the run file,
# and has the plugin write its counts as dump N (1, 2, ... in run order),
# N in /out/results/SIDE/memK.id.
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
# mem_run SIDE K PARAMS...: one run of SIDE as MEM=1 takes it
mem=0
mem_run() {
	ms=$1 mk=$2 spec=all set=0 i=0
	shift 2
	# (the module's parameters are every run's defaults: the run file
	# then takes only the selection, and runs what the load would have)
	for a in "$@"; do
		case $a in only=*) spec=${a#only=} ;; esac
	done
	for a in $sides; do
		[ "$a" = "$ms" ] && set=$i
		i=$((i + 1))
	done
	side_load "/$ms.ko" "$@" run_on_load=0 || return 1
	/cbmark set $set
	/cbmark arm "$(cat /sys/module/cyclebench/sections/.text)"
	# (a fragment that stopped alone fails the write, as it fails no
	# load: its result says so, the others stand)
	echo "$spec" > /sys/kernel/debug/cyclebench/run ||
		echo "ab: side $ms, run $mk: a fragment stopped (its state: failed; dmesg.txt says why)"
	mem=$((mem + 1))
	/cbmark dump $mem
	echo $mem > "/out/results/$ms/mem$mk.id"
}
# the sides, in the order of their SIDE= arguments
sides=
for a in "$@"; do sides="$sides ${a%%=*}"; done
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
		if [ -x /cbmark ]; then
			if ! mem_run "$s" "$k" $params; then
				echo "ab: side $s, run $k: the run failed (its kernel log: dmesg.txt)"
				exit 1
			fi
		elif ! side_load "/$s.ko" $params; then
			echo "ab: side $s, run $k: insmod failed (its kernel log: dmesg.txt)"
			exit 1
		fi
		cyclestat -q save "/out/results/$s/run$k"
		side_unload
	done
done

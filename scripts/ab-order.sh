#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# ab-order.sh - the order of make ab's runs (scripts/ab.sh; the guest's
# scripts/ab-guest.sh follows it): RUNS rounds of one run a side, the
# order turned round every round, AB BA AB BA ... (ABBA).  Over an even
# number of rounds each side's runs sit, on average, at the same place in
# the sequence, so a linear drift (a host warming up, a neighbour
# starting) moves both sides alike and is no change of B against A;
# A, B, A, B ... put B half a round later in every round.  (An odd number
# of rounds leaves one round's half: 1/RUNS of it.)  SIDES=A or B: a side
# alone (a boot of its own), A A A ...
#
#   scripts/ab-order.sh RUNS [SIDES]     6 -> AB BA AB BA AB BA
. "$(dirname "$0")/help.sh"
set -eu
runs=${1:-}
sides=${2:-AB}
case $runs in
'' | *[!0-9]* | 0*) echo "ab-order.sh: RUNS='$runs': want a number of rounds, >= 1 (scripts/ab-order.sh --help)" >&2; exit 2 ;;
esac
case $sides in
AB) ;;
A | B) ;;
*) echo "ab-order.sh: SIDES='$sides': want AB, A or B" >&2; exit 2 ;;
esac
k=1
line=
while [ "$k" -le "$runs" ]; do
	if [ "$sides" != AB ]; then
		r=$sides
	elif [ $((k % 2)) = 1 ]; then
		r=AB
	else
		r=BA
	fi
	line="$line${line:+ }$r"
	k=$((k + 1))
done
echo "$line"

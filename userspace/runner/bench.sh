#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# bench.sh (make bench): the per-op figures of issue 10, measured on this
# machine by cyclebench-user and computed by cyclestat - two-length per-op
# cost in calibrated core cycles, with the 95 % interval over ensembles -
# next to the published latencies, then mem:chase over buffer sizes, where
# the L1 -> L2 -> L3 -> DRAM steps show, beside mem:chase_huge (the same
# ring on 2 MiB pages: what the 4 KiB curve adds over it is page walks).
# Then coverage.sh: how often the 95 % intervals hold over 30 runs,
# ab-rates.sh: how often make ab RUNNER=user's verdicts hold (A/A, +10 %),
# gate_sim.py: the same rates on simulated catalogues, and peers.sh: the
# per-op latencies beside uarch-bench's.
# A benchmark: it prints, and exits 0 whatever it measured (the tests check
# plausibility, not these bounds).
#
#   CPU=1 SAMPLES=5000 ENSEMBLES=20 make bench
#   BENCH_OUT=DIR      where the two result trees go (default build/bench-user)
. "$(dirname "$0")/../../scripts/help.sh"
set -u
here=$(cd "$(dirname "$0")" && pwd)
cd "$here"
CS=${CYCLESTAT:-../cyclestat/cyclestat}
CPU=${CPU:-0}
SAMPLES=${SAMPLES:-2000}
ENSEMBLES=${ENSEMBLES:-20}
CHASE_SAMPLES=${CHASE_SAMPLES:-300}
CHASE_SIZES=${CHASE_SIZES:-4096,16384,32768,131072,262144,524288,2097152,4194304,8388608,16777216,33554432,67108864,134217728,268435456}
out=${BENCH_OUT:-$here/../../build/bench-user}
mkdir -p "$out"

echo "cyclebench-user: real CPU, userspace, interrupts on (cpu $CPU)"
# interleaved: calib:add_chain sees the same core clocks as the others
./cyclebench-user -q --force -o "$out/alu" base,alu,calib samples="$SAMPLES" ensembles="$ENSEMBLES" \
	cpu="$CPU" interleave=1 || exit 1
# exit 1 with a tree: a result failed (mem:chase_huge without 2 MiB pages
# says why on stderr); the others are still shown
rm -rf "$out/chase"
./cyclebench-user -q -o "$out/chase" calib,mem:chase,mem:chase_huge args="$CHASE_SIZES" \
	samples="$CHASE_SAMPLES" ensembles=10 cpu="$CPU" max_mb=1024 interleave=1 ||
	{ [ $? = 1 ] && [ -e "$out/chase/info" ]; } || exit 1

info() { sed -n "s/^$2: //p" "$1/info"; }
t=$(sh perop.sh --calib "$CS" "$out/alu")
awk -v t="$t" -v khz="$(info "$out/alu" tsc_khz)" -v src="$(info "$out/alu" tsc_khz_source)" \
	-v model="$(info "$out/alu" model_name)" -v fam="$(info "$out/alu" family)" \
	-v mod="$(info "$out/alu" model)" -v m="$(info "$out/alu" method_used)" 'BEGIN {
	printf "%s (family %d, model %d), method %s\n", model, fam, mod, m
	printf "TSC %.3f GHz%s; core clock %.3f GHz measured by calib:add_chain (%.4f ticks, %.3f core cycles per tick)\n",
		khz / 1e6, src == "" ? "" : " (" src ")", khz / 1e6 / t, t, 1 / t
}'
echo

sh perop.sh "$CS" "$out/alu" > "$out/perop.txt"
sh perop.sh "$CS" "$out/chase" > "$out/chase.txt"
awk -v s="$SAMPLES" -v e="$ENSEMBLES" '
	FNR == 1 { file++ }
	{ v[file, $1] = $2; lo[file, $1] = $3; hi[file, $1] = $4; u[file, $1] = $5 }
	function row(f, name, shown, want, a, b,   ok) {
		if (!((f, name) in v)) {
			printf "%-22s %s\n", shown, "not measured"
			return
		}
		if (lo[f, name] == "-") {
			printf "%-22s %8.3f  %-20s %-16s %s\n", shown, v[f, name], "none (core shared)",
				want, "no claim"
		} else {
			ok = lo[f, name] >= a && hi[f, name] <= b
			printf "%-22s %8.3f  %8.3f .. %-8.3f %-16s %s\n", shown, v[f, name], lo[f, name],
				hi[f, name], want, ok ? "inside" : "OUTSIDE"
		}
		if (u[f, name] != "core_cycles")
			unit = "TSC ticks: no calibration"
	}
	END {
		unit = "core cycles (calibrated)"
		printf "per op, %s; 95%% interval over %d ensembles of %d samples\n", "two-length (long - short) / ((R-1) ops), medians", e, s
		printf "%-22s %8s  %-20s %-16s %s\n", "fragment", "per op", "95% interval", "expected", "verdict"
		row(1, "alu:add_dep", "alu:add_dep", "1.00 +- 0.03", 0.97, 1.03)
		row(1, "alu:imul_dep", "alu:imul_dep", "3.00 +- 0.06", 2.94, 3.06)
		row(1, "alu:add_indep", "alu:add_indep", "<= 0.35", 0, 0.35)
		row(2, "mem:chase/4096", "mem:chase/4096 (L1)", "3.5 .. 5.5", 3.5, 5.5)
		printf "unit: %s\n", unit
	}' "$out/perop.txt" "$out/chase.txt"
echo

# the sweep: a new level where the latency doubles against the level's
# lowest (the caches differ by 3x or more; a noisy point by less)
echo "mem:chase over sizes: load-to-use latency, core cycles (calibrated), 95% interval;"
echo "4 KiB pages (mem:chase; <- step: a new level there) beside 2 MiB pages (mem:chase_huge)"
printf "  %-10s %9s  %-20s %9s  %s\n" size "4 KiB" "95% interval" "2 MiB" "95% interval"
awk 'NR == FNR {
	if ($1 ~ /^mem:chase_huge\//)
		huge[substr($1, 16)] = sprintf("%9.2f  %9.2f .. %.2f", $2, $3, $4)
	next
}
$1 ~ /^mem:chase\// {
	size = substr($1, 11) + 0
	human = size >= 1048576 ? size / 1048576 " MiB" : size >= 1024 ? size / 1024 " KiB" : size " B"
	if (!n || $2 > 2 * lo[level]) {
		level++
		lo[level] = hi[level] = $2
		first[level] = human
		mark = n ? "  <- step" : ""
	} else {
		mark = ""
		if ($2 < lo[level]) lo[level] = $2
		if ($2 > hi[level]) hi[level] = $2
	}
	n++
	lastsz[level] = human
	h = size in huge ? huge[size] : "not measured"
	printf "  %-10s %9.2f  %9.2f .. %-9.2f %s%s\n", human, $2, $3, $4, h, mark
}
END {
	# the first three are the caches, the last is DRAM; a step between
	# L3 and DRAM is a TLB reach, or an L3 shared with other tenants
	split("L1 L2 L3", name, " ")
	printf "levels (a step: twice the level before):"
	for (i = 1; i <= level; i++)
		printf "%s %s %.4g..%.4g (%s..%s)", (i > 1 ? " ->" : ""), (i == level && i >= 4 ? "DRAM" : i <= 3 ? name[i] : "L3..DRAM"), lo[i], hi[i], first[i], lastsz[i]
	printf "\n"
	verdict = "fewer than four levels seen (" level ")"
	if (level >= 4)
		verdict = "all four levels seen, each above the one before"
	printf "L1 -> L2 -> L3 -> DRAM steps: %s\n", verdict
}' "$out/chase.txt" "$out/chase.txt"
echo
echo "full summaries: $CS $out/alu; $CS $out/chase"
echo

# Contention (issue 20): contend:* on CPU 0 alone and on CPUs 0 and 1 at
# once (cpus=0-1 sweep=cpus: k = 1, then 2, started together each sample),
# CONTEND_RUNS sweeps; compare's change of the two-length per-op cost, as a
# ratio k=2 / k=1 with its 95 % interval (Hodges-Lehmann over the runs);
# then the last sweep CPU by CPU.
ncpu=$(getconf _NPROCESSORS_ONLN)
if [ "$ncpu" -ge 2 ]; then
	runs=${CONTEND_RUNS:-5}
	c2=$CPU,$(( CPU == 0 ? 1 : 0 ))
	k=1
	while [ "$k" -le "$runs" ]; do
		./cyclebench-user -q --force -o "$out/contend-$k" contend samples="$SAMPLES" ensembles=6 \
			cpus="$c2" sweep=cpus long_repeat=256 || exit 1
		k=$((k + 1))
	done
	echo "contention: per-op cost on cpus=$c2 at once over cpu $CPU alone ($runs sweeps)"
	# shellcheck disable=SC2046 # lists of directories without blanks
	"$CS" --format csv compare $(ls -d "$out"/contend-*/k1) -- $(ls -d "$out"/contend-*/k2) |
		awk -F, 'NR > 1 && $1 ~ /^contend:/ {
			if ($9 == "") { printf "  %-28s %s\n", $1, $2; next }
			printf "  %-28s k=1 %8.2f  k=2 %8.2f  ratio %6.3f [%.3f, %.3f]\n",
				$1, $7, $8, 1 + $9, 1 + $10, 1 + $11
		}'
	echo "  (shared lines should cost more at k=2; the private ones within 5 % of 1)"
	echo
	echo "the last sweep, pooled and CPU by CPU: $CS $out/contend-$runs contend"
	"$CS" "$out/contend-$runs" contend || exit 1
	echo "  (contend:token_ring at k=2 is a round trip per op: half of it is the"
	echo "  one-way hand-over the matrix below times its own way)"
	echo
	# the core-to-core matrix, beside c2clat's method on the same pairs
	./cyclebench-user -q --force -o "$out/c2c" --c2c cpus="$c2" samples="$SAMPLES" ensembles=5 || exit 1
	echo
else
	echo "contention and c2c: one CPU online, no k=2 run, no pair"
	echo
fi
# how often the intervals above hold: RUNS repeated runs on known latencies
CYCLESTAT=$CS CPU=$CPU sh coverage.sh
echo
# how often make ab's CLOCK=time verdicts hold: A/A and +10 %, 20 each
CPU=$CPU sh ab-rates.sh
echo
# the same rates on run sets whose truth is known (gate_sim.py, which
# make test runs at 100 comparisons a cell), at GATE_SIM comparisons
echo "the gate on simulated run sets, ${GATE_SIM:=500} comparisons a cell ($CS compare)"
python3 ../cyclestat/tests/gate_sim.py "$CS" "$GATE_SIM" | sed -n 's/^ok [0-9]* - gate_sim://p; s/^not ok [0-9]* - gate_sim:/NOT MET: /p; s/^# //p'
echo
# beside uarch-bench, the peer for per-op latencies (peers.sh: built from
# its public source where a copy is present; our figures alone where not)
CYCLESTAT=$CS CPU=$CPU sh peers.sh

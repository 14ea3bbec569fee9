#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# peers.sh (the end of make bench): per-op latencies beside uarch-bench,
# measured in turn in one session, N interleaved repetitions (default 8):
# each repetition runs cyclebench-user once (alu:add_dep, alu:imul_dep,
# mem:chase at 4 KiB and 256 KiB, with the references), then uarch-bench
# once per test.  Prints each figure's mean and sd over the repetitions,
# in core cycles, beside the truth where the core defines it, and the wall
# time a repetition takes on each side, with the machine and the date;
# then where our spread comes from: our runs (kept in $out/ours-N)
# re-read with other estimators of a region's cost (estimators.py).
#
# uarch-bench is built from its public source where a copy is present:
#   UARCH_BENCH=PATH      its built binary
#   UARCH_BENCH_SRC=DIR   its source tree (default build/peers/uarch-bench,
#                         with its submodules portable-snippets and
#                         nasm-utils checked out), built here with
#                         USE_LIBPFC=0 USE_PERF_TIMER=0 USE_BACKWARD_CPP=0
#                         (it needs nasm: scripts/deps.sh --bench)
# Without one, our figures alone, and a line saying how to add the peer.
#
# Our side runs its 10,000 samples as 200 ensembles of 50 (OURS_KEYS): a
# host's clock wanders by 1-2 % within a default ensemble of 1000 samples
# (some 8 ms), and each ensemble's figure is taken over calib:add_chain's
# beside it, so shorter ensembles track the clock closer
# (docs/peers.md, "Where the spread comes from").  Last, how many of our
# runs cyclestat found "calibration disturbed" (calib:add_chain and
# calib:imul_chain apart beyond their noise: a neighbour sharing the core),
# and whether the intervals of runs at OURS_KEYS cover (coverage.sh,
# PEERS_COVERAGE runs, default 30; 0: none).
#
#   REPS=8 CPU=0 OURS_KEYS="samples=50 ensembles=200 warmup=10" sh peers.sh
. "$(dirname "$0")/../../scripts/help.sh"
set -u
here=$(cd "$(dirname "$0")" && pwd)
cd "$here" || exit 2
top=$(cd ../.. && pwd) || exit 2
CS=${CYCLESTAT:-../cyclestat/cyclestat}
CPU=${CPU:-0}
REPS=${REPS:-8}
OURS_KEYS=${OURS_KEYS-samples=50 ensembles=200 warmup=10}
out=${BENCH_OUT:-$top/build/bench-user}/peers
mkdir -p "$out"
rm -rf "$out"/ours-*	# a run of more REPS before must not be read as ours

ub=${UARCH_BENCH:-}
src=${UARCH_BENCH_SRC:-$top/build/peers/uarch-bench}
if [ -z "$ub" ] && [ -f "$src/Makefile" ]; then
	if [ ! -x "$src/uarch-bench" ]; then
		echo "peers: building uarch-bench in $src (a few minutes)" >&2
		make -C "$src" -j"$(nproc)" USE_LIBPFC=0 USE_PERF_TIMER=0 USE_BACKWARD_CPP=0 \
			> "$out/uarch-bench-build.log" 2>&1 ||
			echo "peers: uarch-bench did not build (see $out/uarch-bench-build.log; is nasm installed? sudo scripts/deps.sh --bench)" >&2
	fi
	[ -x "$src/uarch-bench" ] && ub=$src/uarch-bench
fi

# our side: the four, interleaved with the references, as make run does
ours() {
	./cyclebench-user -q --force -o "$out/ours-$1" alu:add_dep,alu:imul_dep,mem:chase \
		args=4096,262144 cpu="$CPU" interleave=1 $OURS_KEYS >/dev/null 2>&1 || return 1
	sh perop.sh "$CS" "$out/ours-$1" | awk -v r="$1" '
		$1 == "alu:add_dep" { print r, "add", $2 }
		$1 == "alu:imul_dep" { print r, "imul", $2 }
		$1 == "mem:chase/4096" { print r, "l1", $2 }
		$1 == "mem:chase/262144" { print r, "l2", $2 }'
}

# uarch-bench's test for each figure; its "Cycles" column (--timer=clock:
# its own add-loop calibration, as we calibrate with calib:add_chain)
theirs() {
	for t in add:basic/dep-add imul:basic/dep-mul64 l1:basic/pointer-chase-simple \
		l2:memory/load-serial/serial-loads-256; do
		"$ub" --timer=clock --precision=4 --pinned-cpu="$CPU" --test-name="${t#*:}" 2>/dev/null |
			awk -v r="$1" -v k="${t%%:*}" 'NF >= 3 && $(NF - 1) ~ /^[0-9.]+$/ && /[A-Za-z]/ && !/Benchmark|Finished|speed|allocated/ {
				print r, k, $(NF - 1); exit }'
	done
}

ms() { date +%s%N | cut -c1-13; }
: > "$out/figures.txt"
: > "$out/times.txt"
r=1
while [ $r -le "$REPS" ]; do
	t0=$(ms)
	ours $r >> "$out/figures.txt.ours" || { echo "peers: cyclebench-user failed (run it by hand: ./cyclebench-user alu:add_dep)" >&2; exit 1; }
	t1=$(ms)
	echo "ours $((t1 - t0))" >> "$out/times.txt"
	if [ -n "$ub" ]; then
		theirs $r >> "$out/figures.txt.theirs"
		echo "theirs $(($(ms) - t1))" >> "$out/times.txt"
	fi
	r=$((r + 1))
done
{ sed 's/^/ours /' "$out/figures.txt.ours"; [ -n "$ub" ] && sed 's/^/theirs /' "$out/figures.txt.theirs"; } > "$out/figures.txt"
rm -f "$out/figures.txt.ours" "$out/figures.txt.theirs"

cpu() { sed -n "s/^$1[[:space:]]*: //p" /proc/cpuinfo | sed -n 1p; }
echo "per op, core cycles: mean (sd) over $REPS interleaved repetitions, cpu $CPU;" \
	"$(cpu 'model name') (family $(cpu 'cpu family'), model $(cpu model)), $(nproc) CPUs; $(date -u +%Y-%m-%d)"
echo "ours: cyclebench-user ${OURS_KEYS:-(its defaults)}"
[ -n "$ub" ] || echo "(uarch-bench: none here; put its source in $src with its submodules, or set UARCH_BENCH)"
awk -v peer="${ub:+yes}" '
	FILENAME ~ /times/ { t[$1] += $2; nt[$1]++; next }
	{ n[$1, $3]++; s[$1, $3] += $4; q[$1, $3] += $4 * $4 }
	function cell(side, k,   m, v) {
		if (!n[side, k])
			return sprintf("%-18s", "-")
		m = s[side, k] / n[side, k]
		v = n[side, k] > 1 ? (q[side, k] - n[side, k] * m * m) / (n[side, k] - 1) : 0
		return sprintf("%8.4f (%.4f)   ", m, v > 0 ? sqrt(v) : 0)
	}
	END {
		split("add imul l1 l2", key, " ")
		split("dependent add|dependent imul|L1 load-to-use (4 KiB)|L2 load-to-use (256 KiB)", name, "|")
		split("1|3|the core'"'"'s (4 or 5)|the peer'"'"'s", truth, "|")
		printf "%-26s %-18s %-18s %s\n", "", "uarch-bench", "cyclebench-user", "truth"
		for (i = 1; i <= 4; i++)
			printf "%-26s %s %s %s\n", name[i], cell("theirs", key[i]), cell("ours", key[i]), truth[i]
		printf "%-26s %-18s %-18s\n", "wall time a repetition",
			nt["theirs"] ? sprintf("%.2f s", t["theirs"] / nt["theirs"] / 1000) : "-",
			sprintf("%.2f s", t["ours"] / nt["ours"] / 1000)
	}' "$out/times.txt" "$out/figures.txt"
disturbed=0
r=1
while [ $r -le "$REPS" ]; do
	"$CS" -q --format json "$out/ours-$r" calib 2>/dev/null | grep -q '"disturbed": true' &&
		disturbed=$((disturbed + 1))
	r=$((r + 1))
done
echo "ours: $disturbed of $REPS runs calibration disturbed (cyclestat: calib:add_chain and calib:imul_chain apart)"
echo
python3 estimators.py "$out"/ours-[0-9]*
if [ "${PEERS_COVERAGE:=30}" -gt 0 ]; then
	echo
	RUNS=$PEERS_COVERAGE COVERAGE_KEYS="interleave=1 $OURS_KEYS" COVERAGE_OUT="$out/coverage" \
		CYCLESTAT=$CS CPU=$CPU sh coverage.sh
fi

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# bench.sh - make bench: parse + full summary of BENCH_SAMPLES (10 million)
# samples in one file, cyclestat against ministat and datamash side by side,
# each run twice (the faster counts) on the same file in the page cache.
# Target: cyclestat >= 5x faster than both, peak RSS <= 8.5 B/sample + 8 MiB.
# Then the regression gate's measured false-alarm and detection rates
# (tests/gate-rates.sh) beside the per-sample U test it replaced: on this
# machine's real CPU, ten runs of "base,calib,loop:dec_jnz args=100,110,150" by
# cyclebench-user (userspace, interrupts on), and on the runs in GATE_RUNS
# (default: the newest build/e2e-*/gate/runs, which tests/e2e/run.sh gate
# leaves from a TCG guest; on a machine that loads the module, save ten
# runs of that selection as DIR/r1 .. DIR/r10).
set -eu
cd "$(dirname "$0")"
N=${BENCH_SAMPLES:-10000000}
mkdir -p out

# the gate's rates first: they need only cyclestat (and cyclebench-user)
ub=../runner/cyclebench-user
if [ -x "$ub" ]; then
	rm -rf out/gate-native
	mkdir -p out/gate-native
	k=1
	while [ "$k" -le 10 ] &&
	      "$ub" -q -o "out/gate-native/r$k" "base,calib,loop:dec_jnz" args=100,110,150 \
		samples=25 ensembles=200 warmup=10 interleave=1 > out/gate-native.log 2>&1; do
		k=$((k + 1))
	done
	if [ "$k" -gt 10 ]; then
		echo "bench: the gate's rates on this machine's real CPU (cyclebench-user, userspace,"
		echo "       interrupts on; ten runs of loop:dec_jnz/100,/110, calibrated; runs: compare"
		echo "       as it is; ensembles: one run's ensembles as repetitions; per-sample: the"
		echo "       U test it replaced; paired: interleaved ensembles side by side)"
		sh ./gate-rates.sh ../cyclestat out/gate-native | grep -v '^ aa_' | sed 's/^/  /' || true
	else
		echo "bench: cyclebench-user failed, no native gate rates: $(tail -n 1 out/gate-native.log)"
	fi
fi

gate=${GATE_RUNS:-$(ls -dt ../../build/e2e-*/gate/runs 2>/dev/null | head -n 1)}
if [ -n "$gate" ] && [ -d "$gate" ]; then
	echo "bench: the gate's rates on the runs in $gate (TCG guest: emulated ticks)"
	sh ./gate-rates.sh ../cyclestat "$gate" | grep -v '^ aa_' | sed 's/^/  /' || true
else
	echo "bench: no gate runs (GATE_RUNS); tests/e2e/run.sh gate makes them under QEMU"
fi

for t in ministat datamash /usr/bin/time; do
	command -v $t >/dev/null || {
		echo "bench: $t is missing; install it: sudo apt-get install ministat datamash time (or scripts/deps.sh --bench)" >&2
		exit 2
	}
done
f=out/bench-$N.txt
[ -s "$f" ] || ./gen "$N" > "$f"
cat "$f" > /dev/null
echo "bench: $N samples, $(($(wc -c < "$f") / 1048576)) MiB in $f"

# best of two, reading the file on stdin: prints "seconds maxrss_kb"
measure() {
	best=
	for i in 1 2; do
		/usr/bin/time -f '%e %M' -o out/time "$@" < "$f" > out/bench.out 2> out/bench.err ||
			{ echo "bench: '$*' failed: $(cat out/bench.err)" >&2; exit 1; }
		r=$(tail -n 1 out/time)
		if [ -z "$best" ] || awk -v a="${r% *}" -v b="${best% *}" 'BEGIN { exit !(a < b) }'; then best=$r; fi
	done
	echo "$best"
}
cs=$(measure ../cyclestat -)
ms=$(measure ministat -n)
# a subset of cyclestat's figures (each extra percentile costs datamash a sort)
dm=$(measure datamash -W count 1 min 1 max 1 mean 1 median 1 sstdev 1 perc:99 1)

awk -v n="$N" -v cs="$cs" -v ms="$ms" -v dm="$dm" 'BEGIN {
	split(cs, c, " "); split(ms, m, " "); split(dm, d, " ")
	limit = (8.5 * n + 8 * 1048576) / 1024
	printf "%-10s %8s %12s %10s\n", "tool", "seconds", "peak KiB", "B/sample"
	printf "%-10s %8.2f %12d %10.2f\n", "cyclestat", c[1], c[2], c[2] * 1024 / n
	printf "%-10s %8.2f %12d %10.2f\n", "ministat", m[1], m[2], m[2] * 1024 / n
	printf "%-10s %8.2f %12d %10.2f\n", "datamash", d[1], d[2], d[2] * 1024 / n
	t = c[1] > 0 ? c[1] : 0.01
	printf "speed-up: %.1fx vs ministat, %.1fx vs datamash (target >= 5x)\n", m[1] / t, d[1] / t
	printf "peak memory: %d KiB, limit 8.5 B/sample + 8 MiB = %d KiB: %s\n", c[2], limit,
		c[2] <= limit ? "within" : "OVER"
	ok = m[1] / t >= 5 && d[1] / t >= 5 && c[2] <= limit
	printf "bench: %s\n", ok ? "targets met" : "TARGETS MISSED"
	exit !ok
}'

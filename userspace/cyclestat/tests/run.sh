#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# run.sh - make test's driver. Runs every suite natively, then the same
# suites built with ASan + UBSan, then the parser fuzzer for FUZZ_SECONDS.
# Each suite is a TAP stream of its own, BUILD-NAME.tap in $TAP_DIR
# (default tests/out/tap), counted by tests/tap/count, whose last line is
# "N passed, N failed".  Exit status 1 when anything failed.
. "$(dirname "$0")/../../../scripts/help.sh"
set -u
cd "$(dirname "$0")/.."
mkdir -p tests/out
. ../../tests/tap/tap.sh
tap_lane run "$(pwd)/tests/out/tap"
FUZZ_SECONDS=${FUZZ_SECONDS:-20}

# figures.py wants numpy to recompute the reference; any python3 runs it
# against the committed reference otherwise
PYN=python3
for p in python3 /usr/bin/python3; do
	if "$p" -c 'import numpy' 2>/dev/null; then PYN=$p; break; fi
done
command -v "$PYN" >/dev/null || { echo "make test: python3 is needed (sudo apt-get install python3)" >&2; exit 2; }

# suite BUILD NAME COMMAND...: one suite's TAP stream, kept and shown
suite() {
	name=$1-$2
	shift 2
	tap_run "$name" "$@"
}

# the sanitizer pass also runs with its temporary files in a folder whose
# name holds what a careless check would take for a figure (tap.sh)
plain_tmp=${TMPDIR:-/tmp}
odd_tmp=$(TMPDIR=$plain_tmp tap_odd_tmpdir) || { echo "make test: cannot make a folder in $plain_tmp" >&2; exit 2; }
trap 'rm -rf "${odd_tmp%/*}"' EXIT
for build in native sanitize; do
	if [ $build = native ]; then
		cs=./cyclestat unit=tests/unit
		export TMPDIR="$plain_tmp"
	else
		cs=./cyclestat-san unit=tests/unit-san
		export TMPDIR="$odd_tmp"
	fi
	tap_diag "$build: TMPDIR=$TMPDIR"
	export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1
	suite $build unit $unit
	suite $build figures "$PYN" tests/figures.py $cs tests/data
	suite $build random "$PYN" tests/random_trees.py $cs
	suite $build counts "$PYN" tests/counts.py $cs tests/data
	suite $build inference "$PYN" tests/inference.py $cs
	suite $build quantised "$PYN" tests/quantised.py $cs
	# the gate's rates over 100 comparisons a cell; 20 under the sanitizers
	# (the same code, five times slower: the edges and a coarser rate)
	suite $build gate_sim "$PYN" tests/gate_sim.py $cs "$([ $build = native ] && echo 100 || echo 20)"
	suite $build calibration "$PYN" tests/calibration.py $cs
	suite $build plots "$PYN" tests/plots.py $cs
	suite $build cli env PYTHON="$PYN" sh tests/cli.sh $cs
	suite $build golden sh tests/golden.sh $cs
	suite $build ab sh tests/ab.sh $cs
done
export TMPDIR="$plain_tmp"

# the fuzzer: builds with clang's libFuzzer, runs bounded, finds no crash
rm -f fuzz/crash-* fuzz/leak-* fuzz/timeout-*
if ${MAKE:-make} -s fuzz/fuzz_parse > tests/out/fuzz.log 2>&1 &&
   ${MAKE:-make} -s fuzz FUZZ_SECONDS="$FUZZ_SECONDS" >> tests/out/fuzz.log 2>&1; then
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' tests/out/fuzz.log)
	pass "fuzz/parse_${FUZZ_SECONDS}s_no_crash ($runs inputs)"
else
	fail "fuzz/parse_${FUZZ_SECONDS}s_no_crash"
	grep -E 'ERROR|SUMMARY|make:|crash-|Test unit written' tests/out/fuzz.log | head -n 20 | sed 's/^/#   /'
	tap_diag "  reproduce: ./fuzz/fuzz_parse fuzz/crash-*; then copy it to tests/crashes/"
fi

tap_end > /dev/null
../../tests/tap/count "$TAP_DIR"

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# run.sh - make test's driver. Runs every suite natively, then the same
# suites built with ASan + UBSan, then the parser fuzzer for FUZZ_SECONDS,
# prints each TAP line with its build, and ends with "N passed, N failed".
# Exit status 1 when anything failed.
. "$(dirname "$0")/../../scripts/help.sh"
set -u
cd "$(dirname "$0")/.."
mkdir -p tests/out
log=tests/out/tap.log
: > "$log"
FUZZ_SECONDS=${FUZZ_SECONDS:-20}

# figures.py wants numpy to recompute the reference; any python3 runs it
# against the committed reference otherwise
PYN=python3
for p in python3 /usr/bin/python3; do
	if "$p" -c 'import numpy' 2>/dev/null; then PYN=$p; break; fi
done
command -v "$PYN" >/dev/null || { echo "make test: python3 is needed (sudo apt-get install python3)" >&2; exit 2; }

# suite BUILD NAME COMMAND...: run, label each TAP line "BUILD/", keep them
suite() {
	build=$1 name=$2
	shift 2
	"$@" > tests/out/suite.out 2>&1
	rc=$?
	sed -n "s#^\(\(not \)\{0,1\}ok\) [0-9]* - #\1 - $build/#p; /^\#/p" tests/out/suite.out | tee -a "$log"
	if ! grep -q '^\(not \)\{0,1\}ok ' tests/out/suite.out; then
		echo "not ok - $build/$name: produced no results (exit $rc)" | tee -a "$log"
		tail -n 20 tests/out/suite.out | sed 's/^/#   /'
	fi
}

for build in native sanitize; do
	if [ $build = native ]; then cs=./cyclestat unit=tests/unit; else cs=./cyclestat-san unit=tests/unit-san; fi
	export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1
	suite $build unit $unit
	suite $build figures "$PYN" tests/figures.py $cs tests/data
	suite $build random "$PYN" tests/random_trees.py $cs
	suite $build counts "$PYN" tests/counts.py $cs tests/data
	suite $build inference "$PYN" tests/inference.py $cs
	suite $build cli env PYTHON="$PYN" sh tests/cli.sh $cs
	suite $build golden sh tests/golden.sh $cs
done

# the fuzzer: builds with clang's libFuzzer, runs bounded, finds no crash
rm -f fuzz/crash-* fuzz/leak-* fuzz/timeout-*
if ${MAKE:-make} -s fuzz/fuzz_parse > tests/out/fuzz.log 2>&1 &&
   ${MAKE:-make} -s fuzz FUZZ_SECONDS="$FUZZ_SECONDS" >> tests/out/fuzz.log 2>&1; then
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' tests/out/fuzz.log)
	echo "ok - fuzz/parse_${FUZZ_SECONDS}s_no_crash ($runs inputs)" | tee -a "$log"
else
	echo "not ok - fuzz/parse_${FUZZ_SECONDS}s_no_crash" | tee -a "$log"
	grep -E 'ERROR|SUMMARY|make:|crash-|Test unit written' tests/out/fuzz.log | head -n 20 | sed 's/^/#   /'
	echo "#   reproduce: ./fuzz/fuzz_parse fuzz/crash-*; then copy it to tests/crashes/" | tee -a "$log"
fi

passed=$(grep -c '^ok ' "$log")
failed=$(grep -c '^not ok ' "$log")
skips=$(grep -c '^ok .*# SKIP' "$log")
[ "$skips" = 0 ] || echo "# $skips of the passed were skipped (see '# SKIP' above)"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]

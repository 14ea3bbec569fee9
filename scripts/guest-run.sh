# SPDX-License-Identifier: GPL-2.0
# The guest side of 'make run' in QEMU: load with the given parameters (the
# load runs every fragment), save the results for the host, unload.
set -e
insmod /cyclebench.ko "$@"
cyclestat -q save /out/results
rmmod cyclebench

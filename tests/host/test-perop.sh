#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# test-perop.sh - userspace/qemu-plugin/perop.py, make run MEM=1's per-op
# table, on counts whose figures are known (its tests/perop_test.py): no
# QEMU needed.
exec python3 "$(dirname "$0")/../../userspace/qemu-plugin/tests/perop_test.py"

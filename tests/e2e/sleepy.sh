# SPDX-License-Identifier: GPL-2.0
# A module whose only fragment but base:empty sleeps with interrupts off
# (tests/kmod/sleepy.c): the run kills the guest; the host names it.
. /lib.sh

check_cmd "insmod run_on_load=0" insmod /cyclebench.ko run_on_load=0
echo "cb-sleepy: running sleepy:msleep_1"
run_write "sleepy samples=10 ensembles=1 warmup=0"
fail "the guest survived a body that sleeps with interrupts off"

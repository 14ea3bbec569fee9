# SPDX-License-Identifier: GPL-2.0
# Under icount, the object-code check's own bodies (tests/kmod/copies.c, in
# a module of base + copies): copies:mul_state (a product of two state
# fields, which the copies once shared) and copies:mul_const (opaque
# constants) each read long - short = 15 x their instructions.
. /lib.sh

check_cmd "insmod (base + copies)" insmod /cyclebench.ko run_on_load=0
check "run copies,base" ok "$(run_write "copies,base samples=20 ensembles=1 warmup=2")"
check_straight /regions.txt 2
check_unload

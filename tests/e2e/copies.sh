# SPDX-License-Identifier: GPL-2.0
# Under icount, the object-code check's own bodies (tests/kmod/copies.c, in
# a module of base + copies + overrun): copies:mul_state (a product of two
# state fields, which the copies once shared), copies:mul_const (opaque
# constants) and copies:load_state (one load) each read long - short = 15 x
# their instructions.
. /lib.sh

expect_ok "insmod (base + copies + overrun)" insmod /cyclebench.ko run_on_load=0
expect_eq "run copies,base" ok "$(run_write "copies,base samples=20 ensembles=1 warmup=2")"
check_straight /regions.txt 3
check_unload

# The interrupts-off bound holds for the whole sample, the long region
# too: overrun:long_dear's short region fits max_sample_us=1000 (10^6
# ticks: instructions, under icount) with room to spare, but each of its
# long regions holds one call of 10^7 dec/jnz iterations (2 x 10^7
# ticks).  No such sample is kept: each is taken again, and the eighth
# in a row stops the run with ETIME, naming the fragment.
expect_ok "insmod (base + copies + overrun) max_sample_us=1000" \
	insmod /cyclebench.ko run_on_load=0 max_sample_us=1000
expect_eq "overrun:long_dear, its long region over max_sample_us: ETIME" ETIME \
	"$(run_write "overrun:long_dear samples=20 ensembles=1 warmup=0")"
expect_eq "the log names overrun:long_dear and max_sample_us" 1 \
	"$(dmesg | grep -c 'overrun:long_dear: refused: .*max_sample_us')"
expect_eq "base:empty still runs after it" ok "$(run_write "base samples=20 ensembles=1")"
check_unload

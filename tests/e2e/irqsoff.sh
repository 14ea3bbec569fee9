# SPDX-License-Identifier: GPL-2.0
# The interrupts-off bound, proved by the kernel's own irqsoff tracer (the
# 6.1-debug kernel has it: scripts/debug-kernel.config), under -icount
# shift=0 (tests/e2e/run.sh): the guest's clock counts its instructions, so
# a section's length is the module's doing alone, not the host's (without
# icount, a host that stops QEMU's thread for 13 ms stretched one sample to
# 33.7 ms of guest time: no guest code can bound that).  With the tracer
# on, every shipped fragment runs, then loop:dec_jnz (2 instructions, 2 ns,
# per iteration) at ARGs on both sides of the limit: a sample is the short
# region and 16 copies in the long one, so 20 ms holds 588 000 iterations;
# 550 000 runs (18.7 ms of interrupts off) and 700 000 is refused with
# ETIME by the short-region check; 10^7 and 10^8 by the parser itself, which
# predicts the window from a dec/jnz loop's speed.  The longest
# interrupts-off section the kernel saw, tracing_max_latency, stays within
# max_sample_us plus MARGIN_US: the module's own bookkeeping around the two
# regions (the NMI and interrupt counts, the irq restore), a few thousand
# instructions.
. /lib.sh

US=20000
MARGIN_US=500
T=/sys/kernel/tracing
mount -t tracefs nodev $T 2>/dev/null
if ! grep -qw irqsoff $T/available_tracers 2>/dev/null; then
	fail "this kernel has the irqsoff tracer ($T/available_tracers: $(cat $T/available_tracers 2>&1))"
	exit 0
fi
expect_ok "insmod max_sample_us=$US" insmod /cyclebench.ko run_on_load=0 max_sample_us=$US
echo 0 > $T/tracing_on
echo irqsoff > $T/current_tracer
echo 0 > $T/tracing_max_latency
echo 1 > $T/tracing_on
expect_eq "run all (every shipped fragment)" ok "$(run_write "all samples=100 ensembles=2 warmup=10")"
expect_eq "run the slow ones (mem:chase, memcpy, memset, loop:dec_jnz_1m)" ok \
	"$(run_write "mem:chase/4096,mem:chase/1048576,mem:memcpy/65536,mem:memset/65536,loop:dec_jnz_1m samples=20 ensembles=1 warmup=2")"
refused=
for a in 10 1000 100000 550000 700000 1000000 10000000 100000000; do
	r=$(run_write "loop:dec_jnz/$a samples=3 ensembles=1 warmup=0")
	case $r in
	ok) ;;
	ETIME) refused="$refused $a" ;;
	*) fail "loop:dec_jnz/$a: ok or ETIME, got $r" ;;
	esac
done
echo 0 > $T/tracing_on
expect_eq "which ARGs are refused with ETIME (exact under icount)" \
	" 700000 1000000 10000000 100000000" "$refused"
max=$(cat $T/tracing_max_latency)
cp $T/trace /out/irqsoff-trace.txt
echo "max_sample_us=$US tracing_max_latency=$max us refused:$refused" >> /out/figures.txt
grep -m3 -E 'latency:|=> started at|=> ended at' /out/irqsoff-trace.txt >> /out/figures.txt
expect_le "the longest interrupts-off section <= max_sample_us + $MARGIN_US us" $((US + MARGIN_US)) "$max"
# ... and the bound was approached: loop:dec_jnz/550000 held them off 18.7 ms
expect_ge "the longest section is the 550000-iteration sample's" 18000 "$max"
expect_eq "the longest section is the module's (cb_sample_dec_jnz)" 1 \
	"$(grep -c '=> started at: cb_sample_dec_jnz' /out/irqsoff-trace.txt | sed 's/^[1-9][0-9]*$/1/')"
# (10^8's line is past the module's warning rate limit, 3 in 5 s; the
# ARG that fits moves with the guest TSC's calibration, 588234 or 588235)
expect_eq "the parser refused 10^7 before it ran, naming max_sample_us and the largest ARG" 1 \
	"$(dmesg | grep -cE "loop:dec_jnz/10000000: refused before it runs: it cannot fit max_sample_us=$US: .* the largest ARG that fits is about 5882[0-9][0-9] " | sed 's/^[1-9][0-9]*$/1/')"
echo nop > $T/current_tracer
check_unload

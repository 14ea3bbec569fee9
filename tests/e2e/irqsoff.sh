# SPDX-License-Identifier: GPL-2.0
# The interrupts-off bound, proved by the kernel's own irqsoff tracer (the
# 6.1-debug kernel has it: scripts/debug-kernel.config): with the tracer
# on, every shipped fragment runs, then loop:dec_jnz at every ARG up to the
# largest the parser accepts (10^8, seconds of loop): each run is ok or
# refused with ETIME (10^8 by the parser itself, which predicts the window
# from a dec/jnz loop's speed), and the longest interrupts-off section the kernel
# saw, tracing_max_latency, stays within max_sample_us plus MARGIN_US: the
# module's own bookkeeping around the two regions (the NMI and interrupt
# counts, the irq restore) and whatever else the debug kernel did with
# interrupts off, under TCG.
. /lib.sh

US=20000
MARGIN_US=5000
T=/sys/kernel/tracing
mount -t tracefs nodev $T 2>/dev/null
if ! grep -qw irqsoff $T/available_tracers 2>/dev/null; then
	fail "this kernel has the irqsoff tracer ($T/available_tracers: $(cat $T/available_tracers 2>&1))"
	exit 0
fi
check_cmd "insmod max_sample_us=$US" insmod /cyclebench.ko run_on_load=0 max_sample_us=$US
echo 0 > $T/tracing_on
echo irqsoff > $T/current_tracer
echo 0 > $T/tracing_max_latency
echo 1 > $T/tracing_on
check "run all (every shipped fragment)" ok "$(run_write "all samples=100 ensembles=2 warmup=10")"
check "run the slow ones (mem:chase, memcpy, memset, loop:dec_jnz_1m)" ok \
	"$(run_write "mem:chase/4096,mem:chase/1048576,mem:memcpy/65536,mem:memset/65536,loop:dec_jnz_1m samples=20 ensembles=1 warmup=2")"
refused=
for a in 10 1000 100000 1000000 10000000 100000000; do
	r=$(run_write "loop:dec_jnz/$a samples=3 ensembles=1 warmup=0")
	case $r in
	ok) ;;
	ETIME) refused="$refused $a" ;;
	*) fail "loop:dec_jnz/$a: ok or ETIME, got $r" ;;
	esac
done
echo 0 > $T/tracing_on
case $refused in
*100000000) pass "loop:dec_jnz/10^8 is refused with ETIME (refused:$refused)" ;;
*) fail "loop:dec_jnz/10^8 is refused with ETIME: refused only '$refused'" ;;
esac
max=$(cat $T/tracing_max_latency)
cp $T/trace /out/irqsoff-trace.txt
echo "max_sample_us=$US tracing_max_latency=$max us refused:$refused" >> /out/figures.txt
grep -m3 -E 'latency:|=> started at|=> ended at' /out/irqsoff-trace.txt >> /out/figures.txt
check_le "the longest interrupts-off section <= max_sample_us + $MARGIN_US us" $((US + MARGIN_US)) "$max"
check "the parser refused 10^8 before it ran, naming max_sample_us" 1 \
	"$(dmesg | grep -c "loop:dec_jnz/100000000: refused before it runs: it cannot fit max_sample_us=$US" | sed 's/^[1-9][0-9]*$/1/')"
echo nop > $T/current_tracer
check_unload

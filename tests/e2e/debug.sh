# SPDX-License-Identifier: GPL-2.0
# The debug kernel's checks (the 6.1-debug lane: fault injection, kmemleak).
#
#   debug.sh        every allocation on the module's load and run paths
#                   failed in turn (fail-nth), then a kmemleak scan
#   debug.sh bite   on the test build with the leak and sleep groups
#                   (tests/e2e/bite/): runs them and lets kmemleak look;
#                   the host expects the checks to fail
#
# fail-nth (/proc/self/task/TID/fail-nth, through /failnth) makes the Nth
# allocation of the calling thread fail, whatever it is.  Each operation is
# tried with N = 1, 2, ... until it succeeds with the fault left unused:
# every allocation it makes has then failed once.  Each failure must be a
# clean error (ENOMEM), leave the previous results and the module as they
# were, and the next try is the proof that it still works.
. /lib.sh

KO=/cyclebench.ko
FI=/sys/kernel/debug
loaded() { grep -q '^cyclebench ' /proc/modules && echo yes || echo no; }
has_dir() { [ -e $CB ] && echo yes || echo no; }
mark() { echo "cbtest: $1" > /dev/kmsg; }
# progress on the console (the log comes back only at the end)
progress() { echo "debug.sh: $1: N=$n" > /dev/ttyS0; }
# splats_since MARK: the kernel log after MARK, less allocation-failure
# reports (an injected failure of an allocation that may warn prints one,
# from its header to the end of its stack dump), checked like run.sh does
splats_since() {
	dmesg | sed -n "/cbtest: $1/,\$p" |
		alloc_reports 2>/dev/null |
		grep -E "$SPLAT" | grep -v 'cbtest:' | head -n 3
}

if [ "${1:-}" = bite ]; then
	expect_ok "bite: insmod the test build" insmod $KO run_on_load=0
	expect_eq "bite: the leaking setup runs (10 ensembles, 10 objects lost)" ok \
		"$(run_write "leak samples=10 ensembles=10")"
	expect_eq "bite: the body that may sleep runs with interrupts off" ok \
		"$(run_write "sleep samples=10 ensembles=1")"
	sleep 6		# kmemleak reports objects older than 5 s
	kmemleak_check "bite"
	check_unload
	exit 0
fi

if [ ! -w $FI/failslab/ignore-gfp-wait ] || [ ! -w $FI/fail_page_alloc/min-order ]; then
	fail "fault injection: no $FI/failslab or fail_page_alloc (a kernel with FAILSLAB, FAIL_PAGE_ALLOC, FAULT_INJECTION_DEBUG_FS: the 6.1-debug lane)"
	exit 0
fi
# fail-nth drives both; what they skip by default (sleeping allocations,
# order 0 pages) is what the module makes.  No report of each injected
# failure: the outcome is what is checked, and a stack dump per failure
# would flood the log.
for a in failslab fail_page_alloc; do
	echo N > $FI/$a/ignore-gfp-wait
	echo 0 > $FI/$a/verbose
done
echo N > $FI/fail_page_alloc/ignore-gfp-highmem
echo 0 > $FI/fail_page_alloc/min-order

# ---- insmod: the module loader, init, results, debugfs ----------------------
# Over 3000 allocations: the loader's, then init's, most of them debugfs
# files (a dentry and an inode each; kmemleak's record of an allocation is
# an allocation too), and a failure late in init unwinds hundreds of files:
# a second to several a try under TCG.  So N steps by 1 + N / STEP: each
# of the first STEP allocations, then 10 % further each try (about 75
# tries in all, against 124 at STEP=20; STEP=100000 tries every one).
STEP=10
mark "fault insmod"
n=0 hit=0 absorbed=0 bad=
while [ $n -lt 10000 ]; do
	n=$((n + 1 + n / STEP))
	progress insmod
	r=$(/failnth $n insmod $KO "run_on_load=0")
	case $r in
	"ok miss") break ;;
	"ok hit")
		# a failure the load absorbed (a debugfs file it does without):
		# it must still measure, and unload
		hit=$((hit + 1)) absorbed=$((absorbed + 1))
		w=$(run_write "base:empty samples=10 ensembles=1")
		rmmod cyclebench || bad="$bad $n:rmmod"
		[ "$w" = ok ] || bad="$bad $n:absorbed-but-run-$w"
		;;
	"ENOMEM hit")
		hit=$((hit + 1))
		[ "$(loaded) $(has_dir)" = "no no" ] || bad="$bad $n:left-$(loaded)-$(has_dir)"
		;;
	*) bad="$bad $n:$r"; [ "$(loaded)" = yes ] && rmmod cyclebench ;;
	esac
done
insmod_hit=$hit
echo "insmod: $hit of its allocations failed in turn (N stepping by 1 + N/$STEP) ($absorbed absorbed), then it loaded at N=$n" >> /out/figures.txt
expect_ge "insmod: fail-nth reached allocations (N = 1.. until one was left over)" 2 "$n"
expect_eq "insmod with each of its $hit allocations failing: ENOMEM, nothing loaded, no debugfs dir (or absorbed: it measures and unloads)" "" "$bad"
expect_eq "insmod: loaded after the loop (the fault left unused)" yes "$(loaded)"
expect_eq "insmod: no splat while its allocations failed" "" "$(splats_since "fault insmod")"
rmmod cyclebench
STEP=50

# ---- a run write: the request, new results' slots, the per-run arrays --------
insmod $KO only=alu samples=20 ensembles=2 warmup=5
cp $CB/alu/add_dep/cycles /tmp/add.before
# mem:chase/8192 is not in the default list: its first run makes its slot
mark "fault run"
n=0 hit=0 absorbed=0 bad=
while [ $n -lt 10000 ]; do
	n=$((n + 1 + n / STEP))
	progress "run write"
	r=$(/failnth $n write $CB/run "alu,mem:chase/8192 samples=30 ensembles=3")
	case $r in
	"ok miss") break ;;
	"ok hit")
		hit=$((hit + 1)) absorbed=$((absorbed + 1))
		[ "$(lines $CB/alu/add_dep/cycles)" = 90 ] || bad="$bad $n:absorbed-but-$(lines $CB/alu/add_dep/cycles)-lines"
		cp $CB/alu/add_dep/cycles /tmp/add.before
		;;
	"ENOMEM hit")
		hit=$((hit + 1))
		cmp -s /tmp/add.before $CB/alu/add_dep/cycles || bad="$bad $n:results-changed"
		[ "$(cat $CB/status)" = idle ] || bad="$bad $n:status-$(cat $CB/status)"
		;;
	*) bad="$bad $n:$r" ;;
	esac
done
echo "run write: $hit of its allocations failed in turn (N stepping by 1 + N/$STEP) ($absorbed absorbed), then it ran at N=$n" >> /out/figures.txt
expect_ge "run write: fail-nth reached allocations" 2 "$n"
expect_eq "run write with each of its $hit allocations failing: ENOMEM, the previous results intact, idle" "" "$bad"
run_hit=$hit
expect_eq "run write: the run after the loop is complete" "90 90 ok" \
	"$(lines $CB/alu/add_dep/cycles) $(lines $CB/mem/chase/8192/cycles) $(info_get $CB/alu/add_dep/info state)"
expect_eq "run write: no splat while its allocations failed" "" "$(splats_since "fault run")"
expect_eq "a run after the fault injection" ok "$(run_write "base,alu samples=20 ensembles=2")"
rmmod cyclebench

# ---- a fragment's setup: in the run's kthread ---------------------------------
# The kthread allocates the fragment's state and runs its setup (mem:chase:
# a vmalloc'd ring), out of reach of the writer's fail-nth.  So hold it
# back: a SCHED_FIFO hog owns CPU 1 (RT throttling off) while the run for
# cpu=1 starts; the kthread, created and waiting there, gets fail-nth set
# by pid; then the hog goes.  While the run samples (setup is over), what
# is left of N says whether the fault was used.
insmod $KO run_on_load=0
expect_eq "setup: a first mem:chase/65536 run" ok "$(run_write "mem:chase/65536 samples=100 ensembles=1 cpu=1")"
C=$CB/mem/chase/65536
cp $C/cycles /tmp/chase.before
rt=$(cat /proc/sys/kernel/sched_rt_runtime_us)
echo -1 > /proc/sys/kernel/sched_rt_runtime_us
# (a builtin read: a cat per process made this the slowest part of the
# suite on the debug kernel, whose forks are slow)
kthread_pid() {
	for c in /proc/[0-9]*/comm; do
		read -r comm 2>/dev/null < "$c" || continue
		[ "$comm" = "cyclebench/1" ] && { p=${c#/proc/}; echo "${p%/comm}"; return; }
	done
}
n=0 hit=0 absorbed=0 bad=
while [ $n -lt 500 ]; do
	n=$((n + 1))
	progress setup
	rm -f /tmp/hog.stop /tmp/left
	/failnth hog 1 /tmp/hog.stop &
	hog=$!
	sleep 0.2
	taskset -c 0 cbpoke write $CB/run "mem:chase/65536 samples=50000 ensembles=1 warmup=0 cpu=1" > /tmp/w &
	w=$!
	i=0 pid=
	while [ -z "$pid" ] && [ $i -lt 500 ]; do pid=$(kthread_pid); i=$((i + 1)); done
	[ -n "$pid" ] && echo $n > /proc/$pid/task/$pid/fail-nth
	: > /tmp/hog.stop
	wait $hog
	# sampling has begun (setup is over): what is left of N
	while kill -0 $w 2>/dev/null; do
		case $(cat $CB/status 2>/dev/null) in
		"running mem:chase/65536 0/"*|idle) ;;
		running*) cat /proc/$pid/task/$pid/fail-nth > /tmp/left 2>/dev/null; break ;;
		esac
	done
	wait $w
	r=$(cat /tmp/w)
	left=$(cat /tmp/left 2>/dev/null)
	[ -n "$pid" ] || { bad="$bad $n:no-kthread"; break; }
	if [ "$r" = ok ] && [ -n "$left" ] && [ "$left" != 0 ]; then
		break
	elif [ "$r" = ok ]; then
		hit=$((hit + 1)) absorbed=$((absorbed + 1))
		[ "$(lines $C/cycles)" = 50000 ] || bad="$bad $n:absorbed-but-$(lines $C/cycles)-lines"
		cp $C/cycles /tmp/chase.before
	elif [ "$r" = ENOMEM ]; then
		hit=$((hit + 1))
		cmp -s /tmp/chase.before $C/cycles || bad="$bad $n:results-changed"
	else
		bad="$bad $n:$r"
	fi
done
echo $rt > /proc/sys/kernel/sched_rt_runtime_us
setup_hit=$hit
echo "setup (kthread): $hit allocations failed in turn ($absorbed absorbed), then it ran at N=$n" >> /out/figures.txt
expect_ge "setup: fail-nth reached the kthread's allocations" 2 "$n"
expect_eq "setup with each of the kthread's $hit allocations failing: ENOMEM, the previous results intact" "" "$bad"
expect_eq "setup: the run after the loop is complete" "50000 ok" "$(lines $C/cycles) $(info_get $C/info state)"
rmmod cyclebench

echo "fault points exercised: $((insmod_hit + run_hit + setup_hit)) ($insmod_hit in insmod, $run_hit in a run write, $setup_hit in the run's kthread: state and mem:chase's setup)" >> /out/figures.txt

# ---- leaks ----------------------------------------------------------------------
# Everything above freed what it allocated, failed or not.
insmod $KO samples=20 ensembles=2 && rmmod cyclebench
sleep 6		# kmemleak reports objects older than 5 s
kmemleak_check "after the fault injection"

# SPDX-License-Identifier: GPL-2.0
# -cpu max (less ERMS and FSRM: tests/e2e/run.sh) -smp 3 (a cpus=0-1 run
# leaves an online CPU out, as the module asks; the third idles): the whole
# interface, both methods, cpu= pinning.
. /lib.sh

# max.sh [full|light]: one lane (6.1, Debian 12's kernel) runs the
# load-time run at the defaults.  The others run every path here at a
# tenth of that (at full size most of this suite is the defaults'
# memcpy/memset of 64 KiB, slow under TCG): what differs between kernels
# is the paths, which both sizes take.  The long run below is 10^6 samples
# on every lane: the reliability suite's huge run (10^8 on 6.1) is the
# size test; here it only has to last while the guest looks at it.
LONG_ENS=10
if [ "${1:-full}" = light ]; then
	LOAD_LINES=1000
	expect_ok "insmod ensembles=1 (light: the defaults on the full lane)" insmod /cyclebench.ko ensembles=1
else
	LOAD_LINES=10000
	expect_ok "insmod with defaults" insmod /cyclebench.ko
fi
rt=$(info_get $CB/info preempt_rt)
expect_eq "status idle after load" idle "$(cat $CB/status)"

# A refused write says why in the log: at most 3 reasons in 5 s (the rate
# limit, kmod/engine.c), so three here, the first refusals since boot, and
# three more once the window is over (after the long run below): the log
# has each of them once.
refusals_logged() {	# refusals_logged FIRST LAST: items FIRST..LAST below
	k=0
	for w in "kdev:nosuch|run: no fragment 'kdev:nosuch'" \
		 "alu sample=100|run: unknown key 'sample' (keys: samples " \
		 "alu samples=ten|run: samples=ten: not a number in 1..100000000" \
		 "loop:dec_jnz args=64,abc|run: args=: 'abc' is not a decimal number" \
		 "alu,,base|run: an empty item in the selection" \
		 "alu:add_dep/4|run: alu:add_dep takes no ARG"; do
		k=$((k + 1))
		[ $k -ge "$1" ] && [ $k -le "$2" ] || continue
		expect_eq "write '${w%%|*}': EINVAL" EINVAL "$(run_write "${w%%|*}")"
		expect_eq "write '${w%%|*}': the log says '${w#*|}'" 1 "$(dmesg | grep -cF "${w#*|}")"
	done
}
refused_at=$(now)
refusals_logged 1 3

for k in version kernel vendor family model stepping model_name tsc_khz \
	 constant_tsc nonstop_tsc rdtscp hypervisor smt_active \
	 method_requested method_used samples ensembles warmup cpu max_mb; do
	if grep -q "^$k: ." $CB/info; then pass "info has $k"; else fail "info has $k: missing"; fi
done
expect_eq "info: method_used" paoloni "$(info_get $CB/info method_used)"
expect_eq "info: kernel is the running one" "$(uname -r)" "$(info_get $CB/info kernel)"

for f in info fragments status; do
	expect_eq "mode of $f" 400 "$(stat -c %a $CB/$f)"
done
expect_eq "mode of run" 200 "$(stat -c %a $CB/run)"

nfrag=$(lines $CB/fragments)
expect_ge "at least the 8 shipped fragments" 8 "$nfrag"
for want in base:empty alu:add_dep alu:add_indep alu:imul_dep loop:dec_jnz_100 \
	    mem:load_l1 serialize:lfence serialize:cpuid; do
	if grep -q "^$want [0-9][0-9]* ." $CB/fragments; then pass "fragments lists $want"
	else fail "fragments lists $want: missing"; fi
done

# every_fragment_full EXPECTED_LINES METHOD CPU [all]: every fragment (or
# every one but the slow ones) has a complete result.  One awk reads every
# result (a shell loop of seds would fork a process a file, and the debug
# kernel's forks are slow).
every_fragment_full() {
	bad=$(fragment_dirs | awk -v cb=$CB -v want="$1/ok/$2/$3" -v all="${4:-}" -v rt="$rt" '
	function kv(f, k,   l, i) {
		delete k
		while ((getline l < f) > 0)
			if ((i = index(l, ": ")) > 0) k[substr(l, 1, i - 1)] = substr(l, i + 2)
		close(f)
	}
	{
		d = $1
		kv(cb "/" d "/info", k)
		if (all != "all" && k["slow"] != "no") next
		if (d ~ /^mem\/chase(_huge)?\//) next		# slow, in mem, not asked for
		# a sleeping lock on PREEMPT_RT: skipped there (tests/e2e/rt.sh)
		if (k["state"] == "skipped" && rt == "yes") next
		f = cb "/" d "/cycles"
		n = 0; odd = 0
		while ((r = (getline v < f)) > 0) {
			n++
			# no sample can be zero or absurd (over a second at 10 GHz)
			if (v + 0 < 1 || v + 0 > 10000000000) odd = 1
		}
		close(f)
		if (r < 0) n = "missing"
		got = n "/" k["state"] "/" k["method"] "/" k["cpu"]
		if (got != want) printf " %s:%s", d, got
		if (odd || r < 0) printf " %s:implausible", d
	}')
	expect_eq "every ${4:-non-slow} fragment: $1 lines, state ok, method $2, cpu $3" "" "$bad"
}
every_fragment_full $LOAD_LINES paoloni 0
# under TCG the guest TSC follows the host's, whatever its step
expect_ge "info: tsc_step, a step of at least 1 tick" 1 "$(info_get $CB/info tsc_step)"
echo "tsc_step: $(info_get $CB/info tsc_step)" >> /out/figures.txt
# The result-tree contract (docs/debugfs-contract.md), as the runner's
# trees are held to it: the module's live tree and a saved copy of it.
contract() {	# contract DIR: ok, or the exit status and the first violations
	out=$(sh /contract.sh "$1" 2>&1) && echo ok ||
		echo "exit $?: $(echo "$out" | head -n 3 | tr '\n' '|')"
	echo "$out" | head -n 1 >> /out/figures.txt
}
expect_eq "the live tree passes the contract (tests/contract/contract.sh)" ok "$(contract $CB)"
# (a saved copy is cyclestat's work, the same on every kernel: the debug
# lane, whose forks are the slowest, leaves it to the others)
if [ "$SLOW" = 1 ]; then
	cyclestat -q save /tmp/saved
	expect_eq "a saved copy passes the contract" ok "$(contract /tmp/saved)"
	rm -rf /tmp/saved
fi
expect_eq "a slow fragment is not measured by all" "yes none" \
	"$(info_get $CB/loop/dec_jnz_1m/info slow) $(info_get $CB/loop/dec_jnz_1m/info state)"
expect_eq "its cycles file is empty" 0 "$(lines $CB/loop/dec_jnz_1m/cycles)"

expect_eq "run all,loop method=lfence cpu=1" ok "$(run_write "all,loop samples=200 ensembles=3 method=lfence cpu=1")"
every_fragment_full 600 lfence 1 all
expect_eq "status idle after run" idle "$(cat $CB/status)"

# cpu=1 seen from inside the guest: the run's kthread sits on CPU 1
# (field 39 of /proc/PID/stat) while a long run (10^6 samples) goes on.
cbpoke write $CB/run "loop:dec_jnz_100 samples=100000 ensembles=$LONG_ENS cpu=1" > /tmp/long.rc &
seen=
i=0
while [ $i -lt 2000 ] && [ -z "$seen" ]; do
	for s in /proc/[0-9]*/stat; do
		read -r st < $s 2>/dev/null || continue
		case $st in
		*"(cyclebench/1)"*) set -- ${st#*) }; shift 36; seen=$1; break ;;
		esac
	done
	i=$((i + 1))
done
expect_eq "status while running names the fragment" "running loop:dec_jnz_100" \
	"$(cut -d' ' -f1,2 $CB/status)"
expect_eq "the run's kthread executes on CPU 1" 1 "$seen"
expect_eq "a second writer during a run gets EBUSY" EBUSY "$(run_write "base samples=1")"
wait
expect_eq "the long run completes" ok "$(cat /tmp/long.rc)"
expect_eq "long run: info says $LONG_ENS x 100000, ok" "ok $LONG_ENS 100000" \
	"$(info_get $CB/loop/dec_jnz_100/info state) $(info_get $CB/loop/dec_jnz_100/info ensembles) $(info_get $CB/loop/dec_jnz_100/info samples)"
expect_eq "long run: last line present" "${LONG_ENS}00000" "$(lines $CB/loop/dec_jnz_100/cycles)"

expect_eq "ministat-style input: no header, integers only" "" \
	"$(grep -v '^[0-9][0-9]*$' $CB/alu/add_dep/cycles | head -n1)"
expect_eq "cyclestat reads the live tree" 0 "$(cyclestat > /out/cyclestat.txt 2>&1; echo $?)"
# the second three refusals (the first three are after insmod): a new
# window of the rate limit, 6 s after the first opened
while [ "$(elapsed_ms "$refused_at")" -lt 6000 ]; do sleep 0.5; done
refusals_logged 4 6
expect_eq "garbage to run is EINVAL" EINVAL "$(run_write "nosuch")"
# The request corpus cyclebench-user answers too (userspace/runner/tests/
# run.sh): one grammar (lib/grammar.c), the same answers on both sides.
n=0 bad=
while IFS='	' read -r want line; do
	case $want in '#'* | '') continue ;; esac
	n=$((n + 1))
	got=$(run_write "$line")
	case $got in EINVAL) got=refused ;; esac
	[ "$got" = "$want" ] || bad="$bad|'$line': $want expected, got $got"
done < /requests.txt
expect_eq "the request corpus ($n requests, tests/contract/requests.txt): answered as cyclebench-user answers it" "" "$bad"

# The catalogue, by name: scripts rely on these.
for want in sync:spin_lock_unlock sync:raw_spin_lock_unlock sync:atomic_inc \
	    sync:atomic_cmpxchg sync:smp_mb sync:this_cpu_inc sync:rcu_read_lock_unlock \
	    time:ktime_get_ns time:ktime_get_mono_fast_ns time:local_clock \
	    time:rdtsc_ordered time:jiffies misc:get_random_u32 misc:jhash_64 \
	    misc:crc32c_4k mem:chase/4096 mem:chase/134217728 mem:memcpy/64 \
	    mem:memcpy/65536 mem:memset/64 mem:memset/65536 loop:dec_jnz/0 \
	    loop:dec_jnz/1024 calib:add_chain; do
	if grep -q "^$want [0-9][0-9]* ." $CB/fragments; then pass "fragments lists $want"
	else fail "fragments lists $want: missing"; fi
done
for f in time/ktime_get_ns sync/raw_spin_lock_unlock misc/crc32c_4k mem/memcpy/4096; do
	expect_eq "$f: measured by all" ok "$(info_get $CB/$f/info state)"
done

# mem:chase at the largest default size under max_mb=256 (128 MiB, linked
# in setup before every ensemble): no lockup, no RCU stall, memory back.
avail0=$(awk '/MemAvailable/ { print $2 }' /proc/meminfo)
echo "MemAvailable before mem:chase/134217728: $avail0 kB (it needs under half)" >> /out/figures.txt
t0=$(date +%s)
expect_eq "mem:chase/134217728 (the largest default) runs" ok \
	"$(run_write "mem:chase args=4096,134217728 samples=50 ensembles=2 warmup=5")"
echo "mem:chase args=4096,134217728, 2 ensembles of 50 each: $(($(date +%s) - t0)) s" >> /out/figures.txt
expect_eq "mem:chase/134217728: 100 lines, ok" "100 ok" \
	"$(lines $CB/mem/chase/134217728/cycles) $(info_get $CB/mem/chase/134217728/info state)"
avail1=$(awk '/MemAvailable/ { print $2 }' /proc/meminfo)
# The kernel's own caches move MemAvailable by tens of MiB (52 MiB seen on
# 6.12-rt): the bound is what they cannot reach and a kept 128 MiB buffer
# (131072 kB) cannot stay under.
expect_le "mem:chase: the 128 MiB buffer is freed (MemAvailable within 96 MiB)" 98304 "$((avail0 - avail1))"
med() { sort -n "$1" | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
echo "mem:chase 4096 vs 134217728 long medians: $(med $CB/mem/chase/4096/cycles_long 2>/dev/null) $(med $CB/mem/chase/134217728/cycles_long)" >> /out/figures.txt
check_unload

# A body over max_sample_us is refused with ETIME before it runs with
# interrupts off.  An ARG of loop iterations that cannot fit (1024 x 17
# iterations in 1 us) is refused by the parser: nothing runs, nothing
# changes, and the log names the limit and the largest ARG that fits.
expect_ok "insmod max_sample_us=1 run_on_load=0" insmod /cyclebench.ko max_sample_us=1 run_on_load=0
expect_eq "loop:dec_jnz/1024 over max_sample_us=1: ETIME" ETIME "$(run_write "loop:dec_jnz/1024 samples=10 ensembles=1")"
expect_eq "refused by the parser: nothing ran (state none)" none "$(info_get $CB/loop/dec_jnz/1024/info state)"
expect_eq "the log names the limit and the largest ARG that fits" 1 \
	"$(dmesg | grep -c 'loop:dec_jnz/1024: refused before it runs: it cannot fit max_sample_us=1: .*the largest ARG that fits is about')"
# A body with no such ARG (1 000 000 iterations in the code) is refused by
# the sampler's probe, with interrupts on, before any sample.
expect_eq "loop:dec_jnz_1m over max_sample_us=1: ETIME" ETIME "$(run_write "loop:dec_jnz_1m samples=10 ensembles=1")"
expect_eq "the refused fragment says failed, -ETIME" "failed -62" \
	"$(info_get $CB/loop/dec_jnz_1m/info state) $(info_get $CB/loop/dec_jnz_1m/info error)"
expect_eq "the log says which fragment and the fix" 1 "$(dmesg | grep -c 'loop:dec_jnz_1m: refused: .*max_sample_us')"
# Asked for again, it is refused by the parser, from what that probe took:
# nothing runs (the state the refused run left stays), the log says why.
expect_eq "loop:dec_jnz_1m again: ETIME before it runs" "ETIME failed" \
	"$(run_write "loop:dec_jnz_1m samples=10 ensembles=1") $(info_get $CB/loop/dec_jnz_1m/info state)"
expect_eq "the log says the parser refused it from its last probe" 1 \
	"$(dmesg | grep -c 'loop:dec_jnz_1m: refused before it runs: its probe [0-9]* s ago took [0-9]* TSC ticks, .*max_sample_us=1 ')"
check_unload

# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# The guest side of 'make run' in QEMU: load with the given parameters (the
# defaults of a run), measure the only= selection through the run file,
# save the results for the host, unload.  While the run goes, each second
# the status file names another fragment, and every 10 s, a line
# "NAME DONE/TOTAL" (samples of the whole run) goes to the console as a
# progress line (console.sh's cb_progress), and "done" at the end:
# scripts/run.sh prints its progress from them.  (A run at load would leave no status file to read.)
set -e
. /console.sh
# shellcheck disable=SC2034 # side.sh names us in its messages
side_who=run
. /side.sh
sel=all
for a; do
	case $a in only=*) sel=${a#only=} ;; esac
done
side_load /cyclebench.ko "$@" run_on_load=0
d=/sys/kernel/debug/cyclebench
# (make run MEM=1: the TCG plugin learns where the module is, and writes
# its counts after the run; userspace/qemu-plugin/cbmark.c)
[ ! -x /cbmark ] || /cbmark arm "$(cat /sys/module/cyclebench/sections/.text)"
echo "$sel" > $d/run &
w=$!
last='' n=0
while kill -0 $w 2>/dev/null; do
	s=$(cat $d/status 2>/dev/null) || s=
	n=$((n + 1))
	case $s in
	"running "*)
		# shellcheck disable=SC2086 # "running NAME DONE/TOTAL": its words
		set -- $s
		if [ "$2" != "$last" ] || [ $n -ge 10 ]; then
			last=$2 n=0
			cb_progress "$2" "$3"
		fi
		;;
	esac
	sleep 1
done
rc=0
wait $w || rc=$?
cb_progress "done"
[ ! -x /cbmark ] || /cbmark dump 1
cyclestat -q save /out/results
side_unload
# As a run at load: a fragment that stopped alone (-ETIME: a body over
# max_sample_us; its state says failed, the kernel log why) fails nothing,
# the others' results stand; a run that measured nothing fails.
if [ $rc != 0 ] && ! grep -rqx 'state: ok' /out/results; then
	exit $rc
fi

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# 'make test': runs every lane, shows its output, and counts what they
# printed: each lane keeps its TAP streams in build/tap/LANE (TAP_DIR), and
# tests/tap/count counts them all at the end, a line per lane and last
# "N passed, N failed[, N skipped]".  A lane that exits non-zero without a
# failed point, or prints no TAP, counts as one failure: nothing passes by
# saying nothing.
#
#   KERNELS="6.1" scripts/test.sh     (default: "6.1 6.12 6.12-rt 6.1-debug")
#   CB_TEST_JOBS=N scripts/test.sh    lanes at once (default: the number
#                                     of CPUs).  Each TCG guest is mostly
#                                     one host thread, so on two cores the
#                                     debug lane (the longest) boots beside
#                                     the others.  A lane run beside is
#                                     shown when it ends.
#   scripts/test.sh --plan            which lanes each slot would run, in
#                                     what order, and the estimated end of
#                                     each; runs nothing
#   scripts/test.sh -q                no progress lines (also CI=true):
#                                     else, every CB_TEST_TICK s (60), a
#                                     line per lane running beside: its
#                                     time, its points so far and its last
. "$(dirname "$0")/help.sh"
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 2
plan=0 quiet=0
case ${1:-} in
--plan) plan=1 ;;
-q|--quiet) quiet=1 ;;
'') ;;
*) echo "test.sh: unknown argument '$1' (--plan, -q, or none; KERNELS= and CB_TEST_JOBS= pick what runs)" >&2; exit 2 ;;
esac
[ "${CI:-}" = true ] && quiet=1
tap=$top/build/tap
lanes_run=() times=()

# Each lane's CPU time (user + sys, its children's included) goes to
# build/test-LANE.cpu, in TIMEFORMAT's words, for the summary
TIMEFORMAT='%U %S'
cpu_s() { awk '{ printf "%d", $1 + $2 + 0.5 }' "build/test-$1.cpu" 2>/dev/null || echo '?'; }

# show NAME CMD...: CMD with TAP_DIR=build/tap/NAME, its output shown and
# kept in build/test-NAME.log, its exit status in build/tap/NAME/exit.rc
show() {
	local name=$1
	shift
	TAP_DIR=$tap/$name "$@" 2>&1 | tee "build/test-$name.log"
	echo "${PIPESTATUS[0]}" > "$tap/$name/exit.rc"
}

# suite NAME CMD...: runs CMD with TAP_DIR=build/tap/NAME, shows its
# output, keeps its exit status there; the times shown are CMD's own, or,
# where the lane ran beside and CMD only shows it, the lane's ($lane_secs
# and its .cpu file)
suite() {
	local name=$1 t0=$SECONDS
	shift
	echo "### $name: $*"
	mkdir -p "$tap/$name"
	if [ -n "${lane_secs:-}" ]; then
		show "$name" "$@"
	else
		# (in a subshell: this shell's children's times would take in a
		# lane beside that ended meanwhile)
		( { time show "$name" "$@"; } 2> "build/test-$name.cpu" )
	fi
	lanes_run+=("$tap/$name")
	times+=("$(printf '%-14s %5d s %6s CPU-s' "$name" "${lane_secs:-$((SECONDS - t0))}" "$(cpu_s "$name")")")
}

# The lanes: kmod (the static checks; its W=1 builds make every kernel's
# module, which build-ko.sh then finds made, and clean those trees first,
# so no QEMU lane runs before kmod has ended; nor does scripts, whose make
# run checks build the module in the checkout, where kmod builds it from
# clean), cyclestat, runner and scripts (userspace), and a QEMU lane per
# kernel.  Slot 0 is
# this shell; with CB_TEST_JOBS >= 2, slot 1 starts with kmod, and the
# other lanes go where the last slot ends soonest: on two slots every
# split is tried, on more each lane, longest first, goes where it ends
# soonest.  A slot runs kmod, cyclestat and runner, then the lanes that
# wait for kmod: scripts, then the QEMU lanes in KERNELS's order (the
# debug lane's icount compares with 6.1's).  lane_s is each lane's
# estimated wall time in seconds on a 2-core machine, warm, each lane
# beside another, taken on the slow side; it only orders and splits the
# lanes, so an estimate that is off costs time, never a result.
read -r -a kernels <<< "${KERNELS:-6.1 6.12 6.12-rt 6.1-debug}"
jobs=${CB_TEST_JOBS:-$(nproc)}
[ "$jobs" -ge 1 ] 2>/dev/null || { echo "test.sh: CB_TEST_JOBS=$jobs: want a number >= 1" >&2; exit 2; }
lane_s() {
	case $1 in
	kmod) echo 120 ;; cyclestat) echo 220 ;; runner) echo 160 ;; scripts) echo 180 ;;
	qemu-*-debug) echo 920 ;; qemu-6.1) echo 800 ;; qemu-6.12-rt) echo 390 ;;
	qemu-6.12) echo 500 ;; *) echo 300 ;;
	esac
}
userspace=(cyclestat runner scripts)
# after_kmod LANE: whether LANE waits for kmod's end: the QEMU lanes (their
# modules), and scripts (make run's checks build the module in the
# checkout, where kmod builds it from clean)
after_kmod() { [[ $1 == qemu-* || $1 == scripts ]]; }
qemus=()
for k in "${kernels[@]}"; do qemus+=("qemu-$k"); done
others=("${userspace[@]}" "${qemus[@]}")
nslots=$((jobs < ${#others[@]} + 1 ? jobs : ${#others[@]} + 1))
[ "$nslots" -ge 1 ] || nslots=1
# finish U Q I: sets fin to when slot I ends with U s of lanes free to
# start and Q s of lanes that wait for kmod (slot 1 starts with kmod)
kmod_s=$(lane_s kmod)
finish() {
	if [ "$3" = 1 ]; then fin=$((kmod_s + $1 + $2))
	elif [ "$2" = 0 ]; then fin=$1
	else fin=$(($1 > kmod_s ? $1 + $2 : kmod_s + $2)); fi
}
n=${#others[@]} est=() wk=()
for ((j = 0; j < n; j++)); do
	est[j]=$(lane_s "${others[j]}") wk[j]=0
	if after_kmod "${others[j]}"; then wk[j]=1; fi
done
# at[j]: the slot others[j] runs in
slot=() at=()
if [ "$nslots" = 1 ]; then
	slot[0]="kmod ${others[*]}"
	for ((j = 0; j < n; j++)); do at[j]=0; done
elif [ "$nslots" = 2 ]; then
	# every split: bit j of m set puts others[j] in slot 1
	best='' bestm=0
	for ((m = 0; m < 1 << n; m++)); do
		u=(0 0) q=(0 0)
		for ((j = 0; j < n; j++)); do
			i=$((m >> j & 1))
			if ((wk[j])); then q[i]=$((q[i] + est[j])); else u[i]=$((u[i] + est[j])); fi
		done
		finish "${u[0]}" "${q[0]}" 0; s0=$fin
		finish "${u[1]}" "${q[1]}" 1
		c=$((s0 > fin ? s0 : fin))
		if [ -z "$best" ] || [ "$c" -lt "$best" ]; then best=$c bestm=$m; fi
	done
	slot[0]='' slot[1]=kmod
	for ((j = 0; j < n; j++)); do
		i=$((bestm >> j & 1)) at[j]=$i
		slot[i]="${slot[i]} ${others[j]}"
	done
else
	# longest first, each where it ends soonest
	for ((i = 0; i < nslots; i++)); do u[i]=0 q[i]=0 slot[i]=''; done
	slot[1]=kmod
	for j in $(for ((jj = 0; jj < n; jj++)); do echo "${est[jj]} $jj"; done | sort -rn | cut -d' ' -f2); do
		best='' bi=0
		for ((i = 0; i < nslots; i++)); do
			if ((wk[j])); then finish "${u[i]}" $((q[i] + est[j])) "$i"
			else finish $((u[i] + est[j])) "${q[i]}" "$i"; fi
			if [ -z "$best" ] || [ "$fin" -lt "$best" ]; then best=$fin bi=$i; fi
		done
		if ((wk[j])); then q[bi]=$((q[bi] + est[j])); else u[bi]=$((u[bi] + est[j])); fi
		slot[bi]="${slot[bi]} ${others[j]}" at[j]=$bi
	done
fi
# a slot's order: kmod, the userspace lanes (scripts last), then the
# QEMU lanes in KERNELS's order
for ((i = 0; i < nslots; i++)); do
	o=''
	for k in kmod "${userspace[@]}" "${qemus[@]}"; do
		case " ${slot[i]} " in *" $k "*) o="$o $k" ;; esac
	done
	slot[i]=${o# }
done
if [ $plan = 1 ]; then
	for ((i = 0; i < nslots; i++)); do
		[ -n "${slot[i]}" ] || continue
		uu=0 qq=0 si=$i
		case " ${slot[i]} " in *" kmod "*) si=1 ;; esac
		for ((j = 0; j < n; j++)); do
			[ "${at[j]}" = "$i" ] || continue
			if ((wk[j])); then qq=$((qq + est[j])); else uu=$((uu + est[j])); fi
		done
		finish $uu $qq $si
		echo "slot $i: ${slot[i]} (ends after about $fin s)"
	done
	exit 0
fi
mkdir -p build
rm -rf "$tap"

# lane NAME: its command
lane() {
	case $1 in
	kmod) tests/kmod/run.sh ;;
	cyclestat) make --no-print-directory -C userspace/cyclestat test ;;
	runner) make --no-print-directory -C userspace/runner test ;;
	scripts) tests/host/run.sh ;;
	qemu-*) CB_KERNEL="${1#qemu-}" tests/e2e/run.sh ;;
	esac
}
# kmod_wait LANE: such a lane outside kmod's slot waits for kmod's end
kmod_wait() {
	after_kmod "$1" || return 0
	while [ "$nslots" -ge 2 ] && [ ! -e build/test-kmod.rc ] && kill -0 "${slotpid[1]}" 2>/dev/null; do
		sleep 1
	done
}
rm -f build/test-*.rc build/test-*.secs build/test-*.cpu build/test-*.bg
if [ "$nslots" -ge 2 ]; then
	# the guest tools every lane makes first: made once, before lanes race
	make -s build/cbpoke build/failnth cyclestat-static > build/e2e-tools.log 2>&1
	for ((i = 1; i < nslots; i++)); do
		[ -n "${slot[i]}" ] || continue
		echo "### beside (CB_TEST_JOBS=$jobs): ${slot[i]}; each shown when it ends"
		(
			for k in ${slot[i]}; do
				[ "$i" = 1 ] || kmod_wait "$k"
				t0=$SECONDS
				{ time TAP_DIR=$tap/$k lane "$k" > "build/test-$k.bg" 2>&1; } 2> "build/test-$k.cpu"
				rc=$?
				echo $((SECONDS - t0)) > "build/test-$k.secs"
				echo $rc > "build/test-$k.rc"
			done
		) &
		slotpid[i]=$!
	done
fi
bgstart=$SECONDS
# where the lanes beside are, which show nothing until they end: every
# tick, each running one's time, points so far and last point
# (tests/tap/count's words); it ends with this shell's last wait
beside_ticker() {
	local tick=${CB_TEST_TICK:-60} k bg ok nok last
	while sleep "$tick" > /dev/null 2>&1; do
		for k in "${!tick_t0[@]}"; do
			bg=build/test-$k.bg
			[ -e "$bg" ] && [ ! -e "build/test-$k.rc" ] || continue
			ok=$(grep -c '^ *ok ' "$bg") nok=$(grep -c '^ *not ok ' "$bg")
			last=$(grep -E '^ *(not )?ok ' "$bg" | tail -n 1 | sed 's/^ *//' | cut -c1-70)
			printf '### beside: %s running (%d s since they started): %d passed, %d failed so far%s\n' \
				"$k" $((SECONDS - bgstart)) "$ok" "$nok" "${last:+; last: $last}"
		done
	done
}
declare -A tick_t0=()
for ((i = 1; i < nslots; i++)); do
	for k in ${slot[i]}; do tick_t0[$k]=1; done
done
ticker=
if [ "$quiet" = 0 ] && [ "$nslots" -ge 2 ]; then
	beside_ticker &
	ticker=$!
fi
for k in ${slot[0]}; do
	kmod_wait "$k"
	suite "$k" lane "$k"
done
for ((i = 1; i < nslots; i++)); do
	[ -n "${slot[i]}" ] || continue
	wait "${slotpid[i]}"
	echo "### beside: ${slot[i]}: ended $((SECONDS - bgstart)) s after they started"
	for k in ${slot[i]}; do
		# (its streams are in build/tap/$k already; a lane that left no
		# status, killed say, exits 1 here)
		lane_secs=$(cat "build/test-$k.secs" 2>/dev/null) \
			suite "$k" sh -c 'cat "$1"; exit "$(cat "$2" 2>/dev/null || echo 1)"' sh \
			"build/test-$k.bg" "build/test-$k.rc"
	done
done

[ -z "$ticker" ] || kill "$ticker" 2>/dev/null || true
echo
echo "### summary: each lane's time (wall, then CPU), then its points (tests/tap/count)"
printf '%s\n' "${times[@]}"
# the whole run's CPU: this shell's children, the prelude's build included
# (times in this shell: in a pipe or $(...) it would report a subshell's)
times > build/test-times.txt
awk -v w="$SECONDS" -v n="$(nproc)" 'function sec(t) { split(t, a, "m"); return a[1] * 60 + a[2] }
	NR == 2 { c = sec($1) + sec($2); printf "%-14s %5d s %6d CPU-s (%.2f of %d CPUs busy)\n",
		"all", w, c, c / (w ? w : 1), n }' build/test-times.txt
tests/tap/count "${lanes_run[@]}"

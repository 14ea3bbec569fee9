#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# test-guide.sh - a new user's first hour, as the README walks it: its
# commands run where they can and do what their comments say.  make help
# lists every target the README names and every target a user guesses,
# each of which make knows; the comments on make ab's sides, the fragment
# example's macro, and the CI commands agree with scripts/ab.sh,
# include/cyclebench/cyclebench.h and the workflow; every Markdown table has a header
# row.  And make run's own words: progress lines (quiet under CI=true and
# make -s), no plot or error for what a selection did not measure, and
# once which names only the module measured; make test's lanes beside say
# where they are.
# shellcheck disable=SC1091,SC2154,SC2016 # lib.sh sets top; literal `` and $
. "$(dirname "$0")/lib.sh"

readme=$top/README.md
wf=$top/.github/workflows/bare-metal.yml
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# --- make help --------------------------------------------------------------
help=$(cd "$top" && make -s help 2>&1) && rc=0 || rc=$?
expect_eq "make help: exit 0" 0 "$rc"
# what the README runs as 'make X' (at a line's start, in backquotes,
# after PARAMS="..."; not make -C), and what a user guesses
named=$(grep -oE '(^|`|" |sudo )make [a-z][a-z_-]*' "$readme" | sed 's/.*make //' | sort -u)
for t in $named all run test check ab bench clean install uninstall help; do
	expect_match "make help lists make $t" "^  make $t( |$)|make \\[$t\\]|/ $t( |$)" "$help"
	(cd "$top" && make -n "$t" > /dev/null 2>&1) && rc=0 || rc=$?
	expect_eq "make -n $t: a target make knows" 0 "$rc"
done
expect_match "make help: says what build/ keeps and how to remove it" "build/ .*'rm -rf build'" "$(echo "$help" | tr '\n' ' ')"
expect_match "make help: says what /var/cache/cyclebench keeps and how to remove it" \
	"rm -rf /var/cache/cyclebench" "$help"
expect_match "the README: what build/ keeps and how to remove it" '`rm -rf build`' "$(cat "$readme")"
expect_match "the README: how to remove /var/cache/cyclebench" '`sudo rm -rf /var/cache/cyclebench`' "$(cat "$readme")"
# make -s run and make -s test: quiet
expect_match "make -s run: run.sh -q" 'scripts/run.sh -q$' "$(cd "$top" && make -s -n run 2>/dev/null)"
expect_no_match "make run: run.sh with its progress" 'scripts/run.sh -q' "$(cd "$top" && make -n run 2>/dev/null)"
expect_match "make ab KERNEL_A=6.1 KERNEL_B=6.12: both kernels set up before ab.sh" \
	'^scripts/deps.sh --kernels "6.1 6.12" ' "$(cd "$top" && make -n ab KERNEL_A=6.1 KERNEL_B=6.12 2>/dev/null)"
expect_match "make ab with a kernel of your own (a path): 6.1 set up, the path is yours" \
	'^scripts/deps.sh --kernels "6.1" ' "$(cd "$top" && make -n ab KERNEL_B=/src/linux/bzImage KDIR_B=/src/linux 2>/dev/null)"
expect_match "make run KERNEL=6.12: the kernel set up before run.sh" \
	'^scripts/deps.sh --kernels "6.1 6.12" ' "$(cd "$top" && make -n run KERNEL=6.12 2>/dev/null)"
expect_match "make -s test: test.sh -q" 'scripts/test.sh -q$' "$(cd "$top" && make -s -n test 2>/dev/null)"

# --- the comments on make ab's sides ----------------------------------------
# scripts/ab.sh: NEW, when not given, is the working tree
expect_match "docs/ab.md: NEW defaults to the working tree" 'NEW` defaults to the working' "$(cat "$top/docs/ab.md")"
grep -E '^make ab BASE=[^ ]+ +#' "$readme" | grep -v 'NEW=' > "$tmp/ab-worktree"
grep -E '^make ab BASE=[^ ]+ +NEW=HEAD +#' "$readme" > "$tmp/ab-commits"
expect_ge "the README shows make ab BASE=REV alone" 1 "$(wc -l < "$tmp/ab-worktree")"
while IFS= read -r l; do
	expect_match "README '${l%%#*}': its comment says the new side is the working tree" \
		'#.*working tree' "$l"
done < "$tmp/ab-worktree"
while IFS= read -r l; do
	expect_no_match "README '${l%%#*}': no working tree in its comment (NEW=HEAD is a commit)" \
		'#.*working tree' "$l"
done < "$tmp/ab-commits"

# --- the fragment example ---------------------------------------------------
# the README's table line: a macro of the author's API, its arguments where
# the text after it says (ops second, the instructions fourth)
ex=$(sed -n '/^## Add a fragment/,/^## /p' "$readme" | grep -A1 -E '^	CB_FRAGMENT' | tr -d '\n\t')
macro=$(echo "$ex" | sed 's/(.*//')
def=$(grep -E "^#define $macro\\(" "$top/include/cyclebench/cyclebench.h" | sed 's/.*(\(.*\)).*/\1/')
expect_match "the README's example uses $macro, defined in include/cyclebench/cyclebench.h" '_name' "$def"
expect_eq "$macro: the README's example gives every argument" \
	"$(echo "$def" | tr ',' '\n' | wc -l)" "$(echo "$ex" | sed 's/^[^(]*(//; s/"[^"]*"/S/g; s/),*$//' | tr ',' '\n' | wc -l)"
expect_eq "$macro: the ops are its second argument, as the README says" _ops "$(echo "$def" | cut -d, -f2 | tr -d ' ')"
expect_eq "$macro: the instructions its fourth, as the README says" _insns "$(echo "$def" | cut -d, -f4 | tr -d ' ')"
expect_match "the README says what declared instructions give" 'insns: 4' "$(cat "$readme")"
expect_eq "alu.c's rows use the README's macro" yes \
	"$(grep -q "^	$macro(" "$top/kmod/fragments/alu.c" && echo yes)"

# --- the CI commands ----------------------------------------------------------
# opt NAME TEXT: the value of --NAME in a command line (quotes dropped)
opt() { printf '%s\n' "$2" | tr '\n' ' ' | sed 's/\\ / /g' | grep -oE -- "--$1 (\"[^\"]*\"|[^ ]+)" | head -n1 | sed "s/^--$1 //; s/\"//g"; }
wcmd=$(awk '/^[^#]*scripts\/ci-bare-metal.sh/ { on = 1 } on { print } on && !/\\$/ { exit }' "$wf")
# shellcheck disable=SC2016 # the workflow's own ${{ }}
wbase=$(sed -n 's/^ *BASELINE: *//p' "$wf" | sed 's/\${{ matrix.runner }}/LABEL/')
expect_eq "the workflow's baseline: bench/baseline/<the runner's label>" bench/baseline/LABEL "$wbase"
for doc in README.md docs/ci.md; do
	awk '/^sudo sh scripts\/ci-bare-metal.sh/ { on = 1; c = "" } on { c = c $0 "\n" }
		on && !/\\$/ { on = 0; if (c !~ /--update-baseline|--ab/) { printf "%s", c; exit } }' \
		"$top/$doc" > "$tmp/gate"
	dcmd=$(cat "$tmp/gate")
	expect_match "$doc shows the gate's command" ci-bare-metal.sh "$dcmd"
	for o in fragments threshold alpha runs params; do
		expect_eq "$doc: the gate's --$o is the workflow's" "$(opt "$o" "$wcmd")" "$(opt "$o" "$dcmd")"
	done
	expect_eq "$doc: the gate's --baseline is the workflow's" "$wbase" "$(opt baseline "$dcmd")"
done
thr=$(opt threshold "$wcmd")
expect_match "the README's comment on the gate names its threshold, $thr %" "# .*beyond $thr %" "$(cat "$readme")"
expect_match "the workflow records a first baseline on the gate's exit 3" '"\$rc" = 3' "$(cat "$wf")"
expect_match "ci-bare-metal.sh --help documents exit 3 (no baseline yet)" '3 no$|, 3 no' \
	"$(sh "$top/scripts/ci-bare-metal.sh" --help)"

# --- Markdown tables ----------------------------------------------------------
for f in "$readme" "$top"/docs/*.md "$top/tests/README.md"; do
	bad=$(awk '/^\|[ :-]*-[-| :]*\|$/ && prev !~ /^\|/ { print FILENAME ":" NR }
		{ prev = $0 }' "$f")
	expect_eq "${f#"$top"/}: every table has a header row" "" "$bad"
done

# --- make run's words ---------------------------------------------------------
# run.sh's functions in a scratch checkout whose programs are stubs: each
# logs its arguments; the stub cyclestat fails, as the real one, on a
# fragment the tree lacks
mkdir -p "$tmp/co/userspace/cyclestat" "$tmp/co/userspace/runner" "$tmp/co/build"
cat > "$tmp/co/userspace/cyclestat/cyclestat" <<'STUB'
#!/bin/sh
echo "cyclestat $*" >> "$LOG"
case " $* " in
*" plot "*mem:chase*)
	d=$(echo "$*" | sed 's/.* plot \([^ ]*\) .*/\1/')
	[ -d "$d/mem/chase" ] || { echo "cyclestat: no fragment matches mem:chase, and no file or directory is named so" >&2; exit 2; } ;;
esac
case " $* " in *" -o "*) o=$(echo "$*" | sed 's/.*-o \([^ ]*\).*/\1/'); : > "$o" ;; esac
exit 0
STUB
cat > "$tmp/co/userspace/runner/cyclebench-user" <<'STUB'
#!/bin/sh
echo "cyclebench-user $*" >> "$LOG"
case $1 in
--list) printf 'alu:add_dep 4 x\nmem:chase/4096 1 x\ncalib:add_chain 64 x\ncontend:percpu_inc 1 x\n'; exit 0 ;;
esac
while [ $# -gt 0 ]; do
	case $1 in -o) mkdir -p "$2"; case " $* " in *mem:chase*|*" all"*) mkdir -p "$2/mem/chase" ;; esac; shift ;; esac
	shift
done
STUB
chmod +x "$tmp/co/userspace/cyclestat/cyclestat" "$tmp/co/userspace/runner/cyclebench-user"
funcs=$(sed -n -e '/^say() {/,/^}/p' -e '/^user_run() {/,/^}/p' -e '/^in_sel() {/,/^}/p' \
	-e '/^user_plots() {/,/^}/p' -e '/^watch_guest() {/,/^}/p' -e '/^run_progress() {/,/^}/p' \
	"$top/scripts/run.sh")
# user SEL: user_run's output (stdout and stderr) for only=SEL; its
# programs' calls in $tmp/calls
user() {
	: > "$tmp/calls"
	(cd "$tmp/co" && LOG=$tmp/calls top=$tmp/co sel=$1 quiet=1 PARAMS="only=$1" bash -c \
		"$funcs"'
		quiet_make() { :; }
		user_run' 2>&1)
}
out=$(user alu:shl_dep,calib)
expect_no_match "make run only=alu:shl_dep,calib: no error for the mem:chase it did not ask for" \
	'no fragment matches|cyclestat:' "$out"
expect_no_match "make run only=alu:shl_dep,calib: no staircase plot (no mem:chase measured)" \
	'plot .*mem:chase' "$(cat "$tmp/calls")"
expect_no_match "make run only=alu:shl_dep,calib: no contention or core-to-core runs" \
	'contend|--c2c' "$(cat "$tmp/calls")"
expect_no_match "make run only=alu:shl_dep,calib: no plots line (none drawn)" '^plots' "$out"
expect_no_match "make run only=alu:shl_dep,calib: all ran in both: no where-line" 'in the module only' "$out"
out=$(user time,alu)
expect_eq "make run only=time,alu: says once which names ran where" \
	"only=time,alu: alu measured here as well; time in the module only (kernel-only groups)." \
	"$(echo "$out" | grep 'in the module only')"
expect_match "make run only=time,alu: cyclebench-user runs alu alone" \
	'^cyclebench-user .* alu interleave=1' "$(cat "$tmp/calls")"
out=$(user time)
expect_match "make run only=time: says there is no userspace section, and why" \
	'kernel-only fragments, which need the module' "$out"
out=$(user all)
expect_match "make run of everything: the staircase" 'plot .*results-user mem:chase' "$(cat "$tmp/calls")"
if [ "$(getconf _NPROCESSORS_ONLN)" -ge 2 ]; then
	expect_match "make run of everything: the contention runs" 'contend cpus=0-1 sweep=cpus' "$(cat "$tmp/calls")"
	expect_match "make run of everything: the core-to-core runs" '--c2c cpus=0-1' "$(cat "$tmp/calls")"
else
	skip "make run of everything: contention and core to core" "one CPU"
fi
expect_match "make run of everything: the plots line" '^plots \(open in a browser\):.*staircase.svg' "$out"
: > "$tmp/calls"
(cd "$tmp/co" && LOG=$tmp/calls top=$tmp/co sel=contend quiet=1 bash -c "$funcs"'; user_plots' > /dev/null 2>&1)
expect_match "make run only=contend: the contention runs" 'contend cpus=0-1 sweep=cpus' "$(cat "$tmp/calls")"
expect_no_match "make run only=contend: no core-to-core runs" '--c2c' "$(cat "$tmp/calls")"

# the guest's console, as guest-run.sh and qemu-run.sh's /init write it
# (their words: scripts/console.sh)
. "$top/scripts/console.sh"
printf '%s\r\n' '[    1.2] Linux version 6.1' "$cb_started" \
	"$cb_mark alu:add_dep 0/60000" "$cb_mark alu:add_indep 10000/60000" \
	"$cb_mark alu:imul_dep 11000/60000" \
	"[   9.1] noise $cb_mark time:jiffies 42000/60000" "$cb_mark done" > "$tmp/console.log"
# watch QUIET: watch_guest's lines on that log, while a boot of 1 s runs
watch() {
	sleep 1 &
	LOG=/dev/null top=$tmp/co quiet=$1 bash -c ". '$top/scripts/console.sh'; $funcs"'; watch_guest "$1" "$2"' sh "$tmp/console.log" "$!" 2>&1 |
		sed 's/^run: \[ *[0-9]* s\] //; s/, about [0-9]* s left//'
}
prog=$(watch 0)
expect_eq "make run's progress in QEMU: a line at the boot, one at each tenth of the samples with the fragment then measured, one at the end" \
	"the guest has booted; loading the module
  0% of 60000 samples (now alu:add_dep)
 16% of 60000 samples (now alu:add_indep)
 70% of 60000 samples (now time:jiffies)
measured; saving the results in the guest" "$prog"
expect_eq "make run's progress: none when quiet (CI=true, -q)" "" "$(watch 1)"
expect_match "run.sh: CI=true is quiet" '"\$\{CI:-\}" = true \] && quiet=1' "$(cat "$top/scripts/run.sh")"
expect_exit "run.sh with an unknown argument: exit 2, naming -q" 2 "unknown argument '--bogus' .-q, or none" -- \
	bash "$top/scripts/run.sh" --bogus

# cb_boot: a boot that died before /init (exit 3) is booted once more, its
# console kept; the watcher follows each boot; only the last stderr shown
cat > "$tmp/fakeboot" <<'FAKE'
#!/bin/sh
n=$(($(cat "$1/n" 2>/dev/null || echo 0) + 1))
echo "$n" > "$1/n"
echo "boot $n" > "$1/console.log"
echo "stderr of boot $n" >&2
[ "$n" = 2 ] || exit 3
exit 0
FAKE
chmod +x "$tmp/fakeboot"
mkdir -p "$tmp/cb"
boot_out=$(bash -c '. "$1/scripts/console.sh"
	seen() { while kill -0 "$2" 2> /dev/null; do sleep 0.05; done; echo "watched $(cat "$1")"; }
	cb_boot who seen "$2/cb/console.log" "$2/fakeboot" "$2/cb"; echo "exit $?"' sh "$top" "$tmp" 2>&1)
expect_eq "cb_boot: a kernel dead before /init is booted again, said once; the watcher sees each boot; the last boot's stderr and status" \
	"watched boot 1
who: the kernel died or hung while booting, before /init (nothing loaded; $tmp/cb.boot-crash.log): booting again
watched boot 2
stderr of boot 2
exit 0" "$boot_out"
expect_eq "cb_boot: the first boot's console kept beside" "boot 1" "$(cat "$tmp/cb.boot-crash.log")"
boot_out=$(bash -c '. "$1/scripts/console.sh"; cb_boot who "" "$2/cb/console.log" sh -c "exit 3"; echo "exit $?"' \
	sh "$top" "$tmp" 2>&1 | tail -n 1)
expect_eq "cb_boot: a second death before /init is the exit status" "exit 3" "$boot_out"

# --- make test: the lanes beside say where they are ---------------------------
mkdir -p "$tmp/t/build"
printf 'ok 1 - a\nnot ok 2 - b\n  ok 3 - booted 6.1\n' > "$tmp/t/build/test-qemu-6.1.bg"
printf 'ok 1 - x\n' > "$tmp/t/build/test-runner.bg"
echo 0 > "$tmp/t/build/test-runner.rc"
# the first tick's line, whenever a busy host lets it come; its seconds are
# whole ones of bash's SECONDS, so only their form is checked
tick=$(cd "$tmp/t" && bash -c "$(sed -n '/^beside_ticker() {/,/^}/p' "$top/scripts/test.sh")"'
	declare -A tick_t0=([qemu-6.1]=1 [runner]=1 [qemu-6.12]=1); bgstart=$SECONDS
	CB_TEST_TICK=1 beside_ticker > ticks & t=$!
	for i in $(seq 600); do [ -s ticks ] && break; sleep 0.1; done
	kill $t; head -n 1 ticks' 2>&1 | sed -E 's/\(([1-9][0-9]*) s since/(N s since/')
expect_eq "make test: a lane beside that runs says its points so far and its last; one ended or not begun says nothing" \
	"### beside: qemu-6.1 running (N s since they started): 2 passed, 1 failed so far; last: ok 3 - booted 6.1" "$tick"

summary

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# test-side.sh - scripts/side.sh, the native side make run, make ab and
# ci-bare-metal.sh load and unload the module with, against a fake root
# and fake insmod/rmmod, under bash and busybox sh.
set -eu
. "$(dirname "$0")/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# fake insmod/rmmod: log each call; rmmod fails while $t/busy counts down
cat >"$tmp/insmod" <<'FAKE'
#!/bin/sh
echo "insmod $*" >>"$FAKE_LOG"
[ "${FAKE_INSMOD_RC:-0}" = 0 ]
FAKE
cat >"$tmp/rmmod" <<'FAKE'
#!/bin/sh
echo "rmmod $*" >>"$FAKE_LOG"
n=$(cat "$FAKE_BUSY" 2>/dev/null || echo 0)
[ "$n" -gt 0 ] || exit 0
echo $((n - 1)) >"$FAKE_BUSY"
exit 1
FAKE
chmod +x "$tmp/insmod" "$tmp/rmmod"

# side SHELL BODY: BODY run with side.sh sourced; its stdout and stderr
side() {
	run_sh "$1" -c ". '$top/scripts/side.sh'; $2" 2>&1
}

for sh in $(test_shells); do
	t=$tmp/$sh
	r=$t/root
	mkdir -p "$r"
	export CB_SYSROOT=$r CB_INSMOD=$tmp/insmod CB_RMMOD=$tmp/rmmod CB_ALLOW_NONROOT=1
	export FAKE_LOG=$t/log FAKE_BUSY=$t/busy

	expect_eq "[$sh] no /proc/modules: no module support" "this kernel has no module support" \
		"$(side "$sh" side_native_why_not)"
	mkdir -p "$r/proc" && : >"$r/proc/modules"
	expect_match "[$sh] no build tree for the running kernel: says which headers to install" \
		"^no headers for $(uname -r) \(sudo apt-get install linux-headers-$(uname -r)\)$" \
		"$(side "$sh" side_native_why_not)"
	mkdir -p "$r/lib/modules/$(uname -r)/build"
	expect_eq "[$sh] module support and headers (root allowed): nothing to say" "" \
		"$(side "$sh" side_native_why_not)"
	# (as root: as nobody, with a copy of side.sh beside the fake root,
	# which nobody may read: the checkout may sit in a private folder)
	as= src=$top/scripts/side.sh
	if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
		cp "$src" "$tmp/side.sh"
		chmod -R a+rX "$tmp"
		as="setpriv --reuid=65534 --regid=65534 --clear-groups" src=$tmp/side.sh
	fi
	if [ "$(id -u)" = 0 ] && [ -z "$as" ]; then
		tap_skip "[$sh] not root: says so" "root, and no setpriv to drop it"
	else
		expect_match "[$sh] not root: says so" "^loading a module needs root" \
			"$(CB_ALLOW_NONROOT=0 $as sh -c ". '$src'; side_native_why_not" 2>&1)"
	fi

	expect_eq "[$sh] nothing loaded: not refused" 0 "$(side "$sh" 'side_refuse_loaded; echo $?')"
	mkdir -p "$r/sys/module/cyclebench"
	expect_eq "[$sh] someone else's module loaded: refused" 1 "$(side "$sh" 'side_refuse_loaded; echo $?')"

	: >"$FAKE_LOG"
	out=$(side "$sh" 'side_load /x.ko a=1 b=2; echo "loaded $side_loaded"; side_cleanup; echo "after $side_loaded"')
	expect_eq "[$sh] load passes the parameters; cleanup unloads what it loaded" \
		"loaded 1|after 0|insmod /x.ko a=1 b=2|rmmod cyclebench" \
		"$(printf '%s\n' "$out" | tr '\n' '|')$(tr '\n' '|' <"$FAKE_LOG" | sed 's/|$//')"
	: >"$FAKE_LOG"
	out=$(FAKE_INSMOD_RC=1 side "$sh" 'side_load /x.ko; echo "rc $? loaded $side_loaded"; side_cleanup')
	expect_eq "[$sh] a failed insmod: fails, nothing to unload" "rc 1 loaded 0|insmod /x.ko" \
		"$out|$(tr '\n' '|' <"$FAKE_LOG" | sed 's/|$//')"

	: >"$FAKE_LOG"
	echo 2 >"$FAKE_BUSY"
	out=$(side "$sh" 'side_load /x.ko; side_unload; echo "rc $? loaded $side_loaded"')
	expect_eq "[$sh] a module busy twice: unloaded at the third try" "rc 0 loaded 0 3" \
		"$out $(grep -c '^rmmod' "$FAKE_LOG")"
	: >"$FAKE_LOG"
	echo 9 >"$FAKE_BUSY"
	out=$(side "$sh" 'side_who=mine; side_load /x.ko; side_unload; echo "rc $? loaded $side_loaded"')
	expect_match "[$sh] a module that stays busy: 5 tries, then says how to unload it by hand" \
		"^mine: could not unload cyclebench after 5 tries; unload it by hand: sudo rmmod cyclebench" "$out"
	expect_eq "[$sh] ... fails, and the module still counts as loaded" "rc 1 loaded 1 5" \
		"$(printf '%s\n' "$out" | tail -n 1) $(grep -c '^rmmod' "$FAKE_LOG")"
	rm -f "$FAKE_BUSY"
	unset CB_SYSROOT CB_INSMOD CB_RMMOD CB_ALLOW_NONROOT FAKE_LOG FAKE_BUSY
done

summary

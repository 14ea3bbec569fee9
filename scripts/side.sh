# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
#
# side.sh - the native side: cyclebench.ko loaded into the running kernel
# and unloaded whatever happens.  Sourced by scripts/run.sh, scripts/ab.sh
# and scripts/ci-bare-metal.sh here, and in a QEMU guest (qemu-run.sh puts
# it at /side.sh) by guest-run.sh and ab-guest.sh, so that whether a host
# can, the refusal of someone else's module, the load and the unload's
# retries are written once.  POSIX sh: busybox ash runs it in the guests.
#
#   side_native_why_not     prints why this host cannot load the module
#                           here (nothing: it can)
#   side_refuse_loaded      fails when a cyclebench is loaded already: it
#                           is someone else's, and this side would unload it
#   side_load KO [PARAM...] insmod; fails as insmod does, nothing loaded
#   side_unload             rmmod, tried 5 times a second apart (a reader
#                           of debugfs holds the module a moment); says so
#                           when it cannot
#   side_cleanup            side_unload when side_load loaded it: for the
#                           traps (EXIT, and INT/TERM, which then exit)
#
# $side_who names the caller in messages.  For tests: CB_SYSROOT prefixes
# /proc and /sys and /lib/modules, CB_ALLOW_NONROOT=1 skips the root check,
# CB_INSMOD and CB_RMMOD replace insmod and rmmod (busybox sh runs its own
# applets before anything in PATH).

side_who=${side_who:-side}
side_loaded=0

side_native_why_not() {
	if [ ! -e "${CB_SYSROOT:-}/proc/modules" ]; then
		echo "this kernel has no module support"
	elif [ "$(id -u)" != 0 ] && [ "${CB_ALLOW_NONROOT:-0}" != 1 ]; then
		echo "loading a module needs root (try: sudo make ...)"
	elif [ ! -d "${CB_SYSROOT:-}/lib/modules/$(uname -r)/build" ]; then
		echo "no headers for $(uname -r) (sudo apt-get install linux-headers-$(uname -r))"
	fi
}

side_refuse_loaded() {
	[ ! -e "${CB_SYSROOT:-}/sys/module/cyclebench" ]
}

side_load() {
	side_ko=$1
	shift
	# set first: a signal between insmod and the next line must still unload
	side_loaded=1
	if ! "${CB_INSMOD:-insmod}" "$side_ko" "$@"; then
		side_loaded=0
		return 1
	fi
}

side_unload() {
	side_try=1
	while ! "${CB_RMMOD:-rmmod}" cyclebench; do
		if [ "$side_try" -ge 5 ]; then
			echo "$side_who: could not unload cyclebench after 5 tries; unload it by hand: sudo rmmod cyclebench (lsmod and dmesg say what holds it)" >&2
			return 1
		fi
		side_try=$((side_try + 1))
		sleep 1
	done
	side_loaded=0
}

side_cleanup() {
	[ "$side_loaded" = 0 ] || side_unload
}

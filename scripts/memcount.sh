# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034,SC2154 # mem_* are the caller's
# memcount.sh - MEM=1 of make run and make ab, sourced (bash): the TCG
# plugin that counts loads, stores and cache misses per op
# (userspace/qemu-plugin, docs/memcount.md), built and set up for a boot.
# The caller's $top; messages name $mem_who.

# mem_setup: builds cbcount.so and cbmark, and sets mem_model (the cache
# model: CACHE=, else this host's caches from sysfs, else the plugin's
# own) and mem_from (which of those, for the table); exits 2 on a CACHE=
# the plugin would refuse, before anything boots
mem_setup() {
	local geo='(l1d|l1i|l2)=[0-9]+[KMG]?:[0-9]+:[0-9]+|l2=none'
	mem_model=${CACHE:-$("$top/userspace/qemu-plugin/host-caches.sh" 2>/dev/null)}
	mem_from=$([ -n "${CACHE:-}" ] && echo CACHE= || echo "this host's caches (sysfs)")
	if [ -z "$mem_model" ]; then
		mem_model="l1d=32K:8:64,l1i=32K:8:64,l2=1M:16:64"
		mem_from="the plugin's default (no cache sizes in sysfs)"
	fi
	if ! echo "$mem_model" | grep -Eqx "($geo)(,($geo))*"; then
		echo "$mem_who: CACHE=$mem_model: want l1d=SIZE:WAYS:LINE,l1i=...,l2=...|none (as userspace/qemu-plugin/host-caches.sh prints)" >&2
		exit 2
	fi
	mkdir -p "$top/build"
	if ! make -s -C "$top/userspace/qemu-plugin" > "$top/build/memcount-build.log" 2>&1; then
		cat "$top/build/memcount-build.log" >&2
		echo "$mem_who: MEM=1: cbcount.so did not build (make -C userspace/qemu-plugin)" >&2
		exit 1
	fi
}

# mem_regions KO OUT: the timed regions of module KO into OUT
mem_regions() {
	if ! python3 "$top/userspace/qemu-plugin/regions.py" "$1" > "$2" 2> "$2.err"; then
		cat "$2.err" >&2
		echo "$mem_who: MEM=1: the timed regions of $1 could not be read (userspace/qemu-plugin/regions.py)" >&2
		exit 1
	fi
}

# mem_opts COUNTS SKIP REGIONS...: sets mem_opt, qemu-run.sh's options
# for a boot under the plugin, its counts into COUNTS, each ensemble's
# first SKIP runs left out (its warm-up), a regions file a build of the
# module (cbmark set K picks the K-th)
mem_opts() {
	local counts=$1 skip=$2 spec r
	shift 2
	spec=$top/userspace/qemu-plugin/cbcount.so
	for r; do spec+=",regions=$r"; done
	mem_opt=(--icount --add "$top/userspace/qemu-plugin/cbmark"
		--plugin "$spec,out=$counts,$mem_model,skip=$skip")
}

# mem_warmup KO PARAMS: the warm-up samples of a run of KO with PARAMS
mem_warmup() {
	local w
	w=$(echo " $2" | sed -n 's/.* warmup=\([0-9]*\).*/\1/p')
	echo "${w:-$(modinfo -F parm "$1" | sed -n 's/^warmup:.*default \([0-9]*\).*/\1/p')}"
}

# SPDX-License-Identifier: GPL-2.0
# -cpu qemu64 has no RDTSCP: executing it would be an invalid opcode.
. /lib.sh

expect_ok "insmod without RDTSCP" insmod /cyclebench.ko samples=200 ensembles=2
expect_eq "info: rdtscp" no "$(info_get $CB/info rdtscp)"
expect_eq "info: method_used falls back" paoloni-nordtscp "$(info_get $CB/info method_used)"
rt=$(info_get $CB/info preempt_rt)
for d in $(fragment_dirs); do
	[ "$(info_get $CB/$d/info slow)" = no ] || continue
	# PREEMPT_RT skips a fragment that takes a sleeping lock: the rt suite
	# checks which
	[ "$rt" = yes ] && [ "$(info_get $CB/$d/info state)" = skipped ] && continue
	expect_eq "$d: full, method paoloni-nordtscp" "400 paoloni-nordtscp" \
		"$(lines $CB/$d/cycles) $(info_get $CB/$d/info method)"
done
expect_eq "run method=lfence" ok "$(run_write "all samples=100 method=lfence")"
expect_eq "lfence falls back to lfence-nordtscp" lfence-nordtscp \
	"$(info_get $CB/alu/add_dep/info method)"
check_unload

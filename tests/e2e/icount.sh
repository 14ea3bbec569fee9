# SPDX-License-Identifier: GPL-2.0
# Under -icount shift=0 -smp 1 the TSC counts guest instructions, so every
# sample of a fixed region is the same number, boot after boot.
. /lib.sh

check_cmd "insmod (icount)" insmod /cyclebench.ko samples=100 ensembles=5 warmup=10 only=base,loop
check "info: rdtscp under -cpu max" yes "$(info_get $CB/info rdtscp)"

# measure METHOD: checks one method's exact figures, saves them for the host
measure() {
	m=$1
	[ "$m" = paoloni ] || check "run method=$m" ok "$(run_write "base,loop method=$m")"
	for f in base/empty loop/dec_jnz_100; do
		tag=$m-$(echo $f | tr / _)
		cp $CB/$f/cycles /out/$tag.cycles
		check "$m $f: lines = 5 ensembles x 100 samples" 500 "$(lines $CB/$f/cycles)"
		check "$m $f: every sample identical" 1 "$(distinct $CB/$f/cycles)"
		check "$m $f: info method" "$m" "$(info_get $CB/$f/info method)"
	done
	empty=$(head -n1 /out/$m-base_empty.cycles)
	loop=$(head -n1 /out/$m-loop_dec_jnz_100.cycles)
	echo "$m empty=$empty loop=$loop delta=$((loop - empty))" >> /out/figures.txt
	check_le "$m base:empty only the protocol's instructions" 4 "$empty"
	# mov $100 + 100 x (dec, jnz)
	check "$m loop:dec_jnz_100 - base:empty = 201 instructions" 201 "$((loop - empty))"
}
measure paoloni
measure lfence
check_unload

# SPDX-License-Identifier: GPL-2.0
# Under cbcount.so (userspace/qemu-plugin/cbcount.c) and -icount shift=0:
# the module loads without a run, tells the plugin its .text address
# (/cbmark arm), then measures one result a run, each followed by the
# plugin's dump of it (/cbmark dump ID), and then three results in one
# run and one dump.  /out/runs.txt maps each dump to
# its result, method, ops, long_repeat and long - short TSC delta (here
# instructions): the host computes the per-op counts from the plugin's
# file (userspace/qemu-plugin/perop.py) and checks them (tests/e2e/run.sh
# memcount).
. /lib.sh

expect_ok "insmod (nothing run at load)" insmod /cyclebench.ko run_on_load=0
base=$(cat /sys/module/cyclebench/sections/.text)
expect_match "the module's .text address is readable" '^0x[0-9a-f]+$' "$base"
expect_ok "cbmark arm $base" /cbmark arm "$base"
R=$(info_get $CB/info long_repeat)
cp $CB/fragments /out/fragments

id=0
: > /out/runs.txt
# measure RESULT [METHOD]: one run of RESULT alone, then the plugin's dump
measure() {
	m=${2:-paoloni}
	id=$((id + 1))
	expect_eq "run $1 method=$m" ok "$(run_write "$1 method=$m samples=100 ensembles=1 warmup=10")"
	/cbmark dump $id
	d=$CB/$(echo "$1" | tr : /)
	ops=$(grep "^$1 " $CB/fragments | cut -d' ' -f2)
	lms=$(long_minus_short "$d")
	expect_match "$1 $m: every sample's long - short the same (icount)" '^[0-9]+ $' "$lms"
	echo "$id $1 $m $ops $R $lms" >> /out/runs.txt
}

for f in memops:load4 memops:store4 memops:rmw4 memops:alu4 memops:sweep/256 \
	 memops:sweep/1024 alu:add_dep alu:imul_dep loop:dec_jnz/100 mem:load_l1 \
	 mem:chase/4096 mem:chase/65536; do
	measure $f
done
measure memops:load4 lfence
measure memops:store4 lfence

# Several results in one run, interleaved ensemble by ensemble, one dump:
# the module names each ensemble's argument, so each result's counts are
# its own (the host checks them against the one-a-run dumps above).  Two
# sweeps of one body, one that fits the L1D and one that does not, and a
# fragment without an argument.
id=$((id + 1))
together="memops:sweep/256,memops:sweep/1024,memops:load4"
expect_eq "run $together in one run, 2 ensembles" ok \
	"$(run_write "$together samples=100 ensembles=2 warmup=10")"
/cbmark dump $id
# (the tree as make run MEM=1 saves it: perop.py --save writes the counts into it)
expect_ok "cyclestat save" cyclestat -q save /out/tree
echo $id > /out/tree-dump
for f in $(echo "$together" | tr , ' '); do
	d=$CB/$(echo "$f" | tr : /)
	ops=$(grep "^$f " $CB/fragments | cut -d' ' -f2)
	echo "$id $f paoloni $ops $R $(long_minus_short "$d")" >> /out/runs.txt
done

# The module loaded again (perhaps elsewhere): armed again, the same counts
expect_ok "rmmod" rmmod cyclebench
expect_ok "insmod again" insmod /cyclebench.ko run_on_load=0
expect_ok "cbmark arm again" /cbmark arm "$(cat /sys/module/cyclebench/sections/.text)"
measure memops:load4

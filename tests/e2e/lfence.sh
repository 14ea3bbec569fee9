# SPDX-License-Identifier: GPL-2.0
# An AMD family 17h CPU whose DE_CFG bit 1 reads clear (QEMU's EPYC model
# under TCG, as a hypervisor that drops the kernel's write): LFENCE does
# not order RDTSC there, whatever the kernel's LFENCE_RDTSC flag says, so
# method=lfence falls back to paoloni and says why (issue 9).
#
#   lfence.sh            EPYC: RDTSCP stops every method
#   lfence.sh nordtscp   EPYC without RDTSCP: no LFENCE in the stop either,
#                        whichever method is asked for: cpuid-nordtscp,
#                        CPUID; RDTSC (issue 40, item 5)
. /lib.sh

expect_eq "the CPU is AMD family 17h" "AuthenticAMD 23" \
	"$(grep -m1 '^vendor_id' /proc/cpuinfo | cut -d' ' -f2) $(grep -m1 '^cpu family' /proc/cpuinfo | sed 's/.*: //')"
expect_ok "insmod method=lfence" insmod /cyclebench.ko run_on_load=0 method=lfence
expect_eq "info: method_requested" lfence "$(info_get $CB/info method_requested)"
case $(info_get $CB/info lfence) in
"DE_CFG bit 1 clear"*"using paoloni") pass "info: lfence says DE_CFG bit 1 is clear, and the fallback" ;;
*) fail "info: lfence says DE_CFG bit 1 is clear: got '$(info_get $CB/info lfence)'" ;;
esac
if [ "${1:-}" = nordtscp ]; then
	expect_eq "info: rdtscp" no "$(info_get $CB/info rdtscp)"
	expect_eq "info: method_used stops with CPUID, not LFENCE" cpuid-nordtscp \
		"$(info_get $CB/info method_used)"
	for m in lfence paoloni; do
		expect_eq "run alu method=$m" ok "$(run_write "alu samples=100 ensembles=2 method=$m")"
		expect_eq "alu:add_dep method=$m was measured with cpuid-nordtscp" cpuid-nordtscp \
			"$(info_get $CB/alu/add_dep/info method)"
		expect_eq "alu:add_dep: 200 samples" 200 "$(lines $CB/alu/add_dep/cycles)"
		# under icount (run.sh boots this one so) the TSC counts
		# instructions: the long region is R - 1 more copies of the
		# body's 4 adds than the short one, in every sample
		r=$(info_get $CB/alu/add_dep/info long_repeat)
		expect_eq "alu:add_dep: long - short = (long_repeat - 1) x 4 instructions in every sample" \
			"$(((r - 1) * 4))" \
			"$(paste $CB/alu/add_dep/cycles $CB/alu/add_dep/cycles_long | awk '{ print $2 - $1 }' | sort -u | tr '\n' ' ' | sed 's/ $//')"
	done
	check_unload
	exit 0
fi
expect_eq "info: method_used falls back to paoloni" paoloni "$(info_get $CB/info method_used)"
expect_eq "run alu method=lfence" ok "$(run_write "alu samples=100 ensembles=2 method=lfence")"
expect_eq "alu:add_dep was measured with paoloni" paoloni "$(info_get $CB/alu/add_dep/info method)"
expect_eq "alu:add_dep: 200 samples" 200 "$(lines $CB/alu/add_dep/cycles)"
check_unload

# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# What must never appear in a guest's kernel log: one pattern, read by the
# host (tests/e2e/run.sh) and by the guest (lib.sh, as /splat.sh).
#
# "BUG:" and "kernel BUG at" cover "BUG: sleeping function called from
# invalid context", "BUG: scheduling while atomic" (PREEMPT_RT: a sleeping
# lock with irqs off) and "BUG: KASAN" -- "BUG" followed by a colon or a
# space, so that CONFIG_DEBUG_FS in a message is not one; "WARNING" covers
# lockdep's reports.  The rest name them again, so that a change of wording
# cannot hide them, and what the debug kernel adds (UBSAN, lockdep's
# reports and its "turning off the locking correctness validator",
# kmemleak; the debug suite shows that these reports are caught).  Not the
# bare word "lockdep": the debug kernel boots saying "RCU lockdep checking
# is enabled".
SPLAT='BUG[: ]|WARNING|Oops|Call Trace|soft lockup|hard LOCKUP|rcu.*stall|general protection|invalid opcode|segfault|UBSAN|KASAN|possible circular locking|possible recursive locking|inconsistent lock state|lock inversion|lockdep is turned off|turning off the locking correctness validator|sleeping function called from invalid context|suspected memory leak|unreferenced object'

# alloc_reports: a kernel log (stdin) less allocation-failure reports.
# Fault injection makes allocations fail on purpose, and one that may warn
# reports it, from its header to the end of its stack dump.  The count left
# out goes to stderr.
alloc_reports() {
	awk '/page allocation failure:|vmalloc error:|FAULT_INJECTION: forcing/ { skip = 1; n++ }
		!skip { print } /<\/TASK>/ { skip = 0 }
		END { if (n) printf "# %d allocation-failure reports left out of the check\n", n > "/dev/stderr" }'
}

# sleep_reports: a kernel log (stdin) less the reports of a body that sleeps
# with interrupts off, where a test does that on purpose (tests/kmod/sleepy.c),
# from each header to the end of its stack dump.  The count left out goes to
# stderr.
sleep_reports() {
	awk '/BUG: scheduling while atomic|BUG: sleeping function called from invalid context/ { skip = 1; n++ }
		!skip { print } /<\/TASK>/ { skip = 0 }
		END { if (n) printf "# %d reports of the sleeping body left out of the check\n", n > "/dev/stderr" }'
}

# debugfs_race_reports: a kernel log (stdin) less the kernel's own warning
# "debugfs file owner did not clean up at exit" (fs/debugfs/file.c,
# full_proxy_open), from its message to the end of its trace.  An open of a
# debugfs file that meets rmmod between the module's count reaching zero
# and its state becoming GOING takes the owner for one that never cleaned
# up: a race in the kernel, open to any module with debugfs files, which
# the reliability suite's readers beside insmod/rmmod cycles meet now and
# then (once in about 20 CI runs, when the host deschedules the guest's
# CPU inside that window).  Only a warning from fs/debugfs/file.c is left
# out; the count goes to stderr.
debugfs_race_reports() {
	awk '/debugfs file owner did not clean up at exit/ { held = $0; next }
		held != "" && /WARNING: .* at fs\/debugfs\/file\.c:/ { skip = 1; n++; held = ""; next }
		held != "" { print held; held = "" }
		!skip { print } /---\[ end trace/ { skip = 0 }
		END { if (held != "") print held
			if (n) printf "# %d of the kernel'"'"'s debugfs open/rmmod race warnings (fs/debugfs/file.c) left out of the check\n", n > "/dev/stderr" }'
}

# held_lock_reports: a kernel log (stdin) less lockdep's report of a thread
# that goes on with a lock held, where a test body leaves one held on
# purpose (tests/kmod/hostile.c's lock_leak: the run's thread, ending,
# takes a mutex with it held, "Invalid wait context", or ends with it,
# "still has locks held"; the guest counts the reports), from its header
# to the end of its stack dump.  The count left out goes to stderr.
held_lock_reports() {
	awk '/BUG: Invalid wait context|still has locks held!/ { skip = 1; n++ }
		!skip { print } /<\/TASK>/ { skip = 0 }
		END { if (n) printf "# %d of lockdep'"'"'s reports of the leaked lock left out of the check\n", n > "/dev/stderr" }'
}

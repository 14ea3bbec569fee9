// SPDX-License-Identifier: GPL-2.0
/*
 * The counter arithmetic of include/cyclebench/timing.h, natively: a PMU counter's delta
 * masked to its width, across a wrap, and with junk above the width (what
 * RDPMC may return there).  The RDPMC path itself needs a PMU; this is the
 * part that can be wrong without one.  Prints TAP (tests/tap/tap.h).
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

typedef uint32_t u32;
typedef uint64_t u64;
#include "../../include/cyclebench/timing.h"
#include "../tap/tap.h"

static void expect(const char *what, u64 want, u64 got)
{
	CHECK(what, want == got, "expected %llu, got %llu",
	      (unsigned long long)want, (unsigned long long)got);
}

static u64 mask_of(unsigned int width)
{
	return width >= 64 ? ~0ULL : (1ULL << width) - 1;
}

int main(void)
{
	const u64 m48 = mask_of(48), m40 = mask_of(40);

	expect("48-bit counter, no wrap", 1000, cb_counter_delta(5000, 6000, m48));
	expect("48-bit counter across its wrap", 300, cb_counter_delta(m48 - 99, 200, m48));
	expect("40-bit counter across its wrap", 1, cb_counter_delta(m40, 0, m40));
	expect("bits above the width ignored (sign-extended read)", 16,
	       cb_counter_delta(0xffff000000000000ULL | (m48 - 7), 8, m48));
	expect("64-bit counter across its wrap", 10, cb_counter_delta(~0ULL - 4, 5, mask_of(64)));
	expect("no advance is 0", 0, cb_counter_delta(123456789, 123456789, m48));
	expect("a full-width advance is the mask", m48, cb_counter_delta(1, 0, m48));

	/*
	 * perf's overflow interrupt inside a sample: a 48-bit counter 5
	 * events before its overflow, rewritten there to -(2^31 - 1), read
	 * 100 events later.  Its masked delta is nearly the whole range.
	 */
	{
		const u64 before = m48 - 4, after = ((0ULL - ((1ULL << 31) - 1)) & m48) + 100;

		expect("perf's reset at 2^31 inside a sample: the raw delta is garbage",
		       m48 - ((1ULL << 31) - 1) + 106, cb_counter_delta(before, after, m48));
		CHECK("perf's reset at 2^31 inside a sample: not a count",
		      !cb_counter_sane(before, after, m48), "called sane");
	}
	CHECK("a counter one event behind: not a count", !cb_counter_sane(1000, 999, m48),
	      "called sane");
	CHECK("a 40-bit counter rewritten backwards: not a count",
	      !cb_counter_sane(m40 - 10, m40 - 1000, m40), "called sane");
	CHECK("an advance across the counter's own wrap: a count",
	      cb_counter_sane(m48 - 99, 200, m48), "called a rewrite");
	CHECK("no advance: a count", cb_counter_sane(42, 42, m48), "called a rewrite");
	CHECK("half the range less one: still a count", cb_counter_sane(0, m48 >> 1, m48),
	      "called a rewrite");
	CHECK("over half the range: a rewrite", !cb_counter_sane(0, (m48 >> 1) + 1, m48),
	      "called sane");
	CHECK("the TSC stand-in (fault_pmu_tsc, 64 bits): a count",
	      cb_counter_sane(~0ULL - 4, 5, mask_of(64)), "called a rewrite");
	return tap_done();
}

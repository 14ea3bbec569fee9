// SPDX-License-Identifier: GPL-2.0
/*
 * The counter arithmetic of kmod/timing.h, natively: a PMU counter's delta
 * masked to its width, across a wrap, and with junk above the width (what
 * RDPMC may return there).  The RDPMC path itself needs a PMU; this is the
 * part that can be wrong without one.  Prints TAP (tests/tap/tap.h).
 */
#include <stdint.h>
#include <stdio.h>

typedef uint32_t u32;
typedef uint64_t u64;
#include "../../kmod/timing.h"
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
	return tap_done();
}

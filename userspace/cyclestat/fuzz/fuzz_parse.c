// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_parse.c - libFuzzer target for everything that reads input: the
 * cycles parser (fed in two chunks split where the first byte says, so
 * state carried across chunk boundaries is fuzzed too), the figures over
 * whatever it accepted, and the info parser.
 *
 *	make fuzz FUZZ_SECONDS=60
 *
 * A crash leaves fuzz/crash-<sha1>; copy it into tests/crashes/ and
 * make test replays it through cyclestat from then on.
 */
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "stats.h"
#include "read.h"
#include "report.h"
#include "../tests/arrays.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	struct cs_samples s = { 0 };
	struct cs_parser p;
	struct cs_err err = { 0 };
	struct cs_info info = { 0 };
	size_t cut = size ? data[0] % (size + 1) : 0;

	cs_parser_init(&p);
	if (!cs_parser_feed(&p, (const char *)data, cut, &s, &err) &&
	    !cs_parser_feed(&p, (const char *)data + cut, size - cut, &s, &err) &&
	    !cs_parser_end(&p, &s, &err) && s.n) {
		struct cs_figs f;
		struct cs_hist h;
		struct cs_ens e;
		char buf[64];
		uint64_t k = 1 + data[0] % 4;

		struct cs_counts c;

		if (s.n % k == 0 && !cs_ensembles(s.v, k, s.n / k, &e)) {
			cs_ens_aggs(s.v, k, s.n / k, 1 + data[0] % 64, e.med2, e.min, e.core);
			cs_ens_free(&e);
		}
		/* the counted table's figures, before cs_figures sorts s */
		if (!cs_counts_of(s.v, s.n, &c)) {
			cs_figures_of(&c, &f);
			cs_histogram_of(&c, &f, size ? 1 + data[0] % 64 : 1, &h);
			if (!cs_ensemble_one(&c, &f, 1 + data[0] % 64, &e))
				cs_ens_free(&e);
			cs_counts_free(&c);
		}
		cs_figures(s.v, s.n, &f);
		cs_histogram(s.v, s.n, &f, &h);
		cs_fmt_q(buf, sizeof(buf), cs_q_div(cs_q_sub(f.mean, f.hsm), k), 3);
		cs_fmt_q(buf, sizeof(buf), f.mad, 3);
	}
	cs_samples_free(&s);
	if (!cs_parse_info("fuzz", (const char *)data, size, &info, &err))
		cs_info_free(&info);
	return 0;
}

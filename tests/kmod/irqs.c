// SPDX-License-Identifier: GPL-2.0
/*
 * A body that counts the times it ran with interrupts on: the contract
 * says never, the probe before the first sample included (issue 40,
 * item 3).  Built only by tests/e2e/run.sh (suite probe), never shipped;
 * the guest reads the counts from the module's parameters.
 */
#include <linux/irqflags.h>
#include <linux/moduleparam.h>
#include "cyclebench.h"

static unsigned int cb_test_runs;
module_param_named(test_runs, cb_test_runs, uint, 0400);
MODULE_PARM_DESC(test_runs, "testing: times irqs:irqs_off's body ran");
static unsigned int cb_test_irqs_on;
module_param_named(test_irqs_on, cb_test_irqs_on, uint, 0400);
MODULE_PARM_DESC(test_irqs_on, "testing: times irqs:irqs_off's body ran with interrupts on");

CB_BODY(irqs_off)
{
	WRITE_ONCE(cb_test_runs, READ_ONCE(cb_test_runs) + 1);
	if (!irqs_disabled())
		WRITE_ONCE(cb_test_irqs_on, READ_ONCE(cb_test_irqs_on) + 1);
}

static const struct cb_fragment irqs_fragments[] = {
	CB_FRAGMENT(irqs_off, 1, "counts its runs, and those with interrupts on (never)"),
};

CB_GROUP(irqs, irqs_fragments);

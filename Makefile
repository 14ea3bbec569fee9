# SPDX-License-Identifier: GPL-2.0
#
# cyclebench: 'make run' measures, 'make test' proves it.  See README.md.
#
#   make [all]        the module (against KDIR) and cyclestat
#   make run          measure every fragment: natively when this host can
#                     load modules as root, else in QEMU on Debian's kernel
#   make test         every test: cyclestat, scripts, static kernel checks,
#                     and the QEMU suite; ends with "N passed, N failed"
#   make check        W=1, sparse, checkpatch --strict, cyclestat warnings
#   make bench        cyclestat against ministat and datamash, side by side
#   make stress       the long reliability soak in QEMU
#   make fuzz         cyclestat's parser fuzzer, bounded
#   make plot         a PNG histogram of one fragment (FRAGMENT=alu:add_dep)
#   make install / uninstall / clean
#
# KDIR overrides the kernel build tree (default: scripts/kdir.sh).
# KERNELS picks the QEMU kernels for make test (default: "6.1 6.12").

KDIR ?= $(shell $(CURDIR)/scripts/kdir.sh)
CHECKPATCH ?= /var/cache/cyclebench/checkpatch/checkpatch.pl
KERNELS ?= 6.1 6.12
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: all module userspace cyclestat-static run test check bench stress \
	fuzz plot install uninstall clean deps

all: module userspace

# Reported here, not at parse time, so 'make clean' works without headers.
module:
	@if [ ! -d "$(KDIR)" ]; then \
		echo "make: no kernel build tree at '$(KDIR)'." >&2; \
		echo "  For this kernel: sudo apt-get install linux-headers-$$(uname -r)" >&2; \
		echo "  For the QEMU path (Debian cloud kernel): sudo scripts/deps.sh" >&2; \
		exit 2; \
	fi
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

userspace:
	$(MAKE) -C userspace

cyclestat-static:
	$(MAKE) -C userspace static

build/cbpoke: tests/e2e/cbpoke.c
	@mkdir -p build
	$(CC) -static -O2 -Wall -Wextra -o $@ $<

deps:
	@scripts/deps.sh >/dev/null 2>&1 || $(SUDO) scripts/deps.sh

run: deps
	@scripts/run.sh

test:
	@scripts/deps.sh --check --kernels "$(KERNELS)" >/dev/null 2>&1 || \
		$(SUDO) scripts/deps.sh --check --kernels "$(KERNELS)"
	@$(MAKE) --no-print-directory all cyclestat-static build/cbpoke
	@KERNELS="$(KERNELS)" scripts/test.sh

check:
	@scripts/deps.sh --check --kernels "$(KERNELS)" >/dev/null 2>&1 || \
		$(SUDO) scripts/deps.sh --check --kernels "$(KERNELS)"
	@KERNELS="$(KERNELS)" tests/kmod/run.sh
	$(MAKE) -C userspace check

bench:
	@scripts/deps.sh --bench >/dev/null || $(SUDO) scripts/deps.sh --bench
	$(MAKE) -C userspace bench

stress: cyclestat-static build/cbpoke
	@tests/e2e/run.sh stress

fuzz:
	$(MAKE) -C userspace fuzz

plot:
	$(MAKE) -C userspace plot

install: all
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules_install
	depmod -a $(notdir $(patsubst %/build,%,$(KDIR))) 2>/dev/null || true
	$(MAKE) -C userspace install

uninstall:
	rm -f /lib/modules/*/updates/cyclebench.ko /lib/modules/*/extra/cyclebench.ko
	$(MAKE) -C userspace uninstall

clean:
	@if [ -d "$(KDIR)" ]; then $(MAKE) -C $(KDIR) M=$(CURDIR) clean; fi
	$(MAKE) -C userspace clean
	rm -rf build

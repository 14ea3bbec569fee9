# SPDX-License-Identifier: GPL-2.0
#
# cyclebench: 'make run' measures, 'make test' proves it.  See README.md.
#
#   make [all]        the module (against KDIR) and cyclestat
#   make run          measure every fragment: natively when this host can
#                     load modules as root, else in QEMU on Debian's kernel;
#                     MEM=1: in QEMU, loads, stores, cache misses per op too;
#                     KERNEL=6.12 (6.12-rt, 6.1-debug): in QEMU on that kernel
#   make test         every test: cyclestat, scripts, static kernel checks,
#                     and the QEMU suite; ends with "N passed, N failed"
#   make check        W=1, sparse, checkpatch --strict, the object code, cyclestat
#                     warnings: one kernel (CHECK_KERNELS, default 6.1)
#   make ab           A against B: BASE=REV [NEW=REV] (two builds, one boot),
#                     KERNEL_A=K KERNEL_B=K or CMDLINE_A/B (a boot each);
#                     CLOCK=icount (exact instructions), time or both, PARAMS, RUNS,
#                     MEM=1 (under icount: loads, stores, misses per op too)
#                     (the last line: verdict: slower (exit 1 from scripts/ab.sh))
#   make bench        cyclestat against ministat and datamash, side by side;
#                     the QEMU plugin's cost (MEM=1): boots with it and without, in turn
#   make stress       the long reliability soak in QEMU
#   make fuzz         cyclestat's parser fuzzer, bounded
#   make plot         build/hist.png, a histogram of one fragment
#                     (FRAGMENT=alu:add_dep, IN=DIR; default build/results)
#   make install      the module (modules_install) and both programs
#   make uninstall    removes what make install put there
#   make clean        the build products and build/, but build/results
#   make deps         what the rest needs (scripts/deps.sh; the targets run it)
#   make help         this text
#
# Kept where: build/ (results, plots, logs; 'rm -rf build' removes
# build/results too), and /var/cache/cyclebench (the QEMU kernels, their
# headers, checkpatch: some GB; 'sudo rm -rf /var/cache/cyclebench', and
# the next make run or make test fetches them again).
#
# KDIR overrides the kernel build tree (default: scripts/kdir.sh).
# KERNELS picks the QEMU kernels for make test (default: "6.1 6.12 6.12-rt
# 6.1-debug": bookworm's 6.1, bookworm-security's 6.12, cloud and PREEMPT_RT
# flavours, and the debug kernel deps.sh builds once: KASAN, kmemleak, ...).

KDIR ?= $(shell $(CURDIR)/scripts/kdir.sh)
CHECKPATCH ?= /var/cache/cyclebench/checkpatch/checkpatch.pl
KERNELS ?= 6.1 6.12 6.12-rt 6.1-debug
# make check: the author's quick gate, one kernel (the lanes are make test's)
CHECK_KERNELS ?= 6.1
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: all module userspace cyclestat-static run ab test check bench stress \
	fuzz plot install uninstall clean deps help

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
	$(MAKE) -C userspace/cyclestat

cyclestat-static:
	$(MAKE) -C userspace/cyclestat static

build/cbpoke: tests/e2e/cbpoke.c
	@mkdir -p build
	$(CC) -static -O2 -Wall -Wextra -o $@ $<

build/failnth: tests/e2e/failnth.c
	@mkdir -p build
	$(CC) -static -O2 -Wall -Wextra -o $@ $<

deps:
	@scripts/deps.sh || $(SUDO) scripts/deps.sh

# (make -s run: no progress lines; KERNEL=6.12: that series set up first,
# as make ab's are)
run:
	@scripts/deps.sh $(if $(KERNEL),--kernels "$(sort 6.1 $(KERNEL))") || \
		$(SUDO) scripts/deps.sh $(if $(KERNEL),--kernels "$(sort 6.1 $(KERNEL))")
	@scripts/run.sh $(if $(findstring s,$(firstword x$(MAKEFLAGS))),-q)

# the header comment above, from "make [all]" to its first empty line
help:
	@sed -n '/^#   make \[all\]/,/^$$/s/^# \{0,1\}//p' $(firstword $(MAKEFILE_LIST))

# make ab KERNEL_B=6.12: the kernel series it names set up first, as make
# run's deps does for 6.1 (a path to a kernel of your own is yours)
AB_SERIES = $(sort 6.1 $(foreach k,$(KERNEL) $(KERNEL_A) $(KERNEL_B),$(if $(findstring /,$(k)),,$(k))))
ab:
	@scripts/deps.sh --kernels "$(AB_SERIES)" || $(SUDO) scripts/deps.sh --kernels "$(AB_SERIES)"
	@scripts/ab.sh

test:
	@scripts/deps.sh --check --kernels "$(KERNELS)" || \
		$(SUDO) scripts/deps.sh --check --kernels "$(KERNELS)"
	@$(MAKE) --no-print-directory -j"$$(nproc)" all cyclestat-static build/cbpoke
	@KERNELS="$(KERNELS)" scripts/test.sh $(if $(findstring s,$(firstword x$(MAKEFLAGS))),-q)

check:
	@scripts/deps.sh --static --kernels "$(CHECK_KERNELS)" || \
		$(SUDO) scripts/deps.sh --static --kernels "$(CHECK_KERNELS)"
	@KERNELS="$(CHECK_KERNELS)" tests/kmod/run.sh
	$(MAKE) -C userspace/cyclestat check

bench:
	@scripts/deps.sh --bench >/dev/null || $(SUDO) scripts/deps.sh --bench
	$(MAKE) -C userspace/cyclestat bench
	$(MAKE) -C userspace/runner bench
	@userspace/qemu-plugin/bench.sh

stress: cyclestat-static build/cbpoke
	@tests/e2e/run.sh stress

fuzz:
	$(MAKE) -C userspace/cyclestat fuzz

# IN: what to plot; by default what 'make run' saved, else the live tree.
IN ?= $(if $(wildcard build/results/info),build/results)
plot:
	@mkdir -p build
	$(MAKE) -C userspace/cyclestat plot $(if $(IN),IN=$(abspath $(IN))) \
		CSV=$(CURDIR)/build/hist.csv PNG=$(CURDIR)/build/hist.png

# modules_install runs depmod itself; INSTALL_MOD_PATH= stages elsewhere,
# and DESTDIR= stages the module there too (it went to the system's
# /lib/modules before).
INSTALL_MOD_PATH ?= $(DESTDIR)
export INSTALL_MOD_PATH
install: all
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules_install
	$(MAKE) -C userspace/cyclestat install
	$(MAKE) -C userspace/runner install

uninstall:
	@for ko in "$(INSTALL_MOD_PATH)"/lib/modules/*/updates/cyclebench.ko \
		   "$(INSTALL_MOD_PATH)"/lib/modules/*/extra/cyclebench.ko; do \
		[ -e "$$ko" ] || continue; \
		echo "rm $$ko"; rm -f "$$ko"; \
		v=$${ko#"$(INSTALL_MOD_PATH)"/lib/modules/}; v=$${v%%/*}; \
		depmod $(if $(INSTALL_MOD_PATH),-b "$(INSTALL_MOD_PATH)") -a "$$v" || true; \
	done
	$(MAKE) -C userspace/cyclestat uninstall
	$(MAKE) -C userspace/runner uninstall

clean:
	@if [ -d "$(KDIR)" ]; then $(MAKE) -C $(KDIR) M=$(CURDIR) clean; fi
	$(MAKE) -C userspace/cyclestat clean
	$(MAKE) -C userspace/runner clean
	$(MAKE) -C userspace/qemu-plugin clean
	@# build/results is data (what make run measured), not a build product
	@if [ -d build ]; then find build -mindepth 1 -maxdepth 1 ! -name results -exec rm -rf {} +; fi

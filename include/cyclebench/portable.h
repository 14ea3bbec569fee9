/* SPDX-License-Identifier: GPL-2.0 */
/*
 * portable.h - what cyclebench.h takes from the kernel, for a build
 * outside it (cyclebench-user, the parser's tests).  cyclebench.h
 * includes it when __KERNEL__ is not defined, so a fragment file whose
 * group kmod/fragments/groups.mk lists as portable builds unchanged into
 * cyclebench-user: one source of truth for every body.  The kernel build
 * never reads it.
 *
 * The harness hooks differ from the kernel's on purpose: a process cannot
 * turn interrupts off, so __cb_irq_off()/__cb_irq_on() do nothing and the
 * results say "interrupts: on"; the robust statistics (median, minimum)
 * carry the samples an interrupt lands in.  The process is pinned to one
 * CPU with sched_setaffinity(), and __cb_moved() checks that it stayed
 * there, as smp_processor_id() does in the module.
 */
#ifndef CYCLEBENCH_PORTABLE_H
#define CYCLEBENCH_PORTABLE_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE		/* sched_getcpu() */
#endif
#include <errno.h>
#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>	/* memcpy(), memset() in bodies */

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef int64_t s64;

#ifndef __always_inline
#define __always_inline	inline __attribute__((__always_inline__))
#endif
#define noinline	__attribute__((__noinline__))
#define notrace
#define __used		__attribute__((__used__))
#define __maybe_unused	__attribute__((__unused__))
#define __aligned(n)	__attribute__((__aligned__(n)))
#define __printf(a, b)	__attribute__((__format__(printf, a, b)))
#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)

/* The kernel's ARRAY_SIZE(): a pointer, not an array, fails to compile. */
#define __must_be_array(a)						\
	((int)sizeof(struct { int : (-!!__builtin_types_compatible_p(	\
		__typeof__(a), __typeof__(&(a)[0]))); }))
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]) + __must_be_array(a))

/* The kernel's max(): each argument evaluated once. */
#define max(a, b) ({				\
	__typeof__(a) __cb_a = (a);		\
	__typeof__(b) __cb_b = (b);		\
	__cb_a > __cb_b ? __cb_a : __cb_b;	\
})
#define min(a, b) ({				\
	__typeof__(a) __cb_a = (a);		\
	__typeof__(b) __cb_b = (b);		\
	__cb_a < __cb_b ? __cb_a : __cb_b;	\
})

/* The kernel's overflow checks: true where the result did not fit. */
#define check_add_overflow(a, b, d)	__builtin_add_overflow(a, b, d)
#define check_mul_overflow(a, b, d)	__builtin_mul_overflow(a, b, d)
#define U64_MAX		UINT64_MAX

#define READ_ONCE(x)		(*(const volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, v)	(*(volatile __typeof__(x) *)&(x) = (v))
#define OPTIMIZER_HIDE_VAR(var)	__asm__("" : "=r" (var) : "0" (var))

/* The kernel's atomic_t, as x86 builds it: locked instructions. */
typedef struct {
	int counter;
} atomic_t;
static inline int atomic_read(const atomic_t *v)
{
	return READ_ONCE(v->counter);
}
static inline void atomic_inc(atomic_t *v)
{
	__asm__ volatile("lock incl %0" : "+m" (v->counter) : : "memory");
}
static inline int atomic_cmpxchg(atomic_t *v, int old, int new)
{
	__asm__ volatile("lock cmpxchgl %2, %1"
			 : "+a" (old), "+m" (v->counter) : "r" (new) : "memory");
	return old;
}

/*
 * The kernel's spinlock_t and raw_spinlock_t stand in as one
 * test-and-test-and-set lock (an xchg to take it, a release store to let
 * it go): not the kernel's queued spinlock, whose fairness costs more
 * under contention.  cyclebench-user's figures for a lock are this
 * lock's; the module's are the kernel's.
 */
typedef struct {
	int locked;
} raw_spinlock_t;
typedef raw_spinlock_t spinlock_t;
static inline void raw_spin_lock_init(raw_spinlock_t *l)
{
	l->locked = 0;
}
/*
 * Out of line, as the kernel's _raw_spin_lock() is: a call per lock, not
 * a spin loop in each of a long region's 1024 copies (inlined, it more
 * than doubles the time ASan's build of contend.c takes).
 */
static noinline __attribute__((unused)) void raw_spin_lock(raw_spinlock_t *l)
{
	while (__atomic_exchange_n(&l->locked, 1, __ATOMIC_ACQUIRE))
		while (__atomic_load_n(&l->locked, __ATOMIC_RELAXED))
			__builtin_ia32_pause();
}
static inline void raw_spin_unlock(raw_spinlock_t *l)
{
	__atomic_store_n(&l->locked, 0, __ATOMIC_RELEASE);
}
#define spin_lock_init(l)	raw_spin_lock_init(l)
#define spin_lock(l)		raw_spin_lock(l)
#define spin_unlock(l)		raw_spin_unlock(l)

/*
 * A per-CPU variable is a thread's own (the runner pins a thread to each
 * CPU), and this_cpu_inc() one increment of it in memory, as the kernel's
 * is (incq %gs:VAR there, %fs here): 8-byte counters only.
 */
#define DEFINE_PER_CPU(type, name)	__thread type name
#define DECLARE_PER_CPU(type, name)	extern __thread type name
#define this_cpu_inc(var) do {						\
	_Static_assert(sizeof(var) == 8, "this_cpu_inc: 8-byte counters only"); \
	__asm__ volatile("incq %0" : "+m" (var));				\
} while (0)

#define PAGE_SIZE	4096UL
#define SMP_CACHE_BYTES	64

/*
 * The sampler's hooks.  flags is an unsigned long in the sampler; setting
 * it keeps -Wunused quiet and costs nothing outside the timed region.
 */
#define __cb_irq_off(flags)	((flags) = 0)
#define __cb_irq_on(flags)	((void)(flags))
#define __cb_moved(cpu)		(sched_getcpu() != (int)(cpu))
#define __cb_irq_done()		do { } while (0)
#define __cb_probe_begin(ctx)	((void)(ctx))
#define __cb_probe_end(ctx)	0

/*
 * What a portable setup may call (the module's are in cyclebench.h):
 * cb_alloc() is zeroed and page-aligned (mmap), on 4 KiB pages, NULL on
 * failure.  cb_alloc_huge() (2 MiB pages) is declared for both builds in
 * lib/alloc.h and defined in engine.c.
 */
void *cb_alloc(size_t size);
void cb_free(void *p);
void cb_yield(void);
u64 cb_random_u64(void);

#endif /* CYCLEBENCH_PORTABLE_H */

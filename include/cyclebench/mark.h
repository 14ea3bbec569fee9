/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mark.h - how code in the guest speaks to cbcount.so, the TCG plugin
 * (userspace/qemu-plugin): an 8-byte NOP, `nopl DISP(%rax,%rax,1)`
 * (0f 1f 84 00 DISP), whose 32-bit displacement is CB_MARK_MAGIC | a
 * command.  It does nothing on any x86 CPU, and reads no memory; the plugin
 * finds it as QEMU translates it.  A value goes first, a bit a NOP, most
 * significant first; the command that uses it follows.
 *
 * Two speak it: cbmark (user code: where the module is, when to write
 * the counts) and the module, which names the argument of each ensemble
 * it runs, so that the plugin tells apart the results of one run that
 * share their code (mem:chase/4096 and /65536).
 */
#ifndef CB_MARK_H
#define CB_MARK_H

#define CB_MARK_OPCODE	"\x0f\x1f\x84\x00"
#define CB_MARK_LEN	8
#define CB_MARK_MAGIC	0x43420000u	/* "CB" */
#define CB_MARK_MASK	0xffff0000u
#define CB_MARK_BIT0	(CB_MARK_MAGIC | 0x00)
#define CB_MARK_BIT1	(CB_MARK_MAGIC | 0x01)
#define CB_MARK_ARM	(CB_MARK_MAGIC | 0x10)	/* the value: .text's address */
#define CB_MARK_DUMP	(CB_MARK_MAGIC | 0x20)	/* the value: the dump's ID */
#define CB_MARK_ARG	(CB_MARK_MAGIC | 0x30)	/* the value: the next ensemble's ARG */
/* the value: which regions= file the next ARM is for (0: the first) */
#define CB_MARK_SET	(CB_MARK_MAGIC | 0x40)

#ifndef __ASSEMBLER__
/* a command's NOP, the command an "i" operand (it is the instruction's bytes) */
#define CB_MARK_ASM	".byte 0x0f, 0x1f, 0x84, 0x00\n\t.long %c0"

/* @v, 64 bits, then command @cmd (a constant) */
#define cb_mark_send(cmd, v)						\
do {									\
	unsigned long long __v = (v);					\
	int __b;							\
									\
	for (__b = 63; __b >= 0; __b--) {				\
		if (__v >> __b & 1)					\
			asm volatile(CB_MARK_ASM : : "i" (CB_MARK_BIT1) : "memory"); \
		else							\
			asm volatile(CB_MARK_ASM : : "i" (CB_MARK_BIT0) : "memory"); \
	}								\
	asm volatile(CB_MARK_ASM : : "i" (cmd) : "memory");		\
} while (0)
#endif

#endif /* CB_MARK_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cbmark.h - how the guest speaks to cbcount.so: an 8-byte NOP,
 * `nopl DISP(%rax,%rax,1)` (0f 1f 84 00 DISP), whose 32-bit displacement
 * is CB_MARK_MAGIC | a command.  It does nothing on any x86 CPU; the
 * plugin finds it in user code as QEMU translates it.  A value (an
 * address, an ID) goes first, a bit a NOP, most significant first; the
 * command that uses it follows.
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

#endif

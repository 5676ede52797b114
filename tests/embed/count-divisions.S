/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * count-divisions.S - the ARM EABI division helpers, counted. Linked with
 * -Wl,--wrap=NAME for each, every call libcore makes to NAME reaches
 * __wrap_NAME, which adds one to div_calls[i] and jumps on to libgcc's
 * __real_NAME with the arguments (r0-r3) and return address untouched.
 * Thumb-1 only, so it runs on a Cortex-M0+.
 */
	.syntax unified
	.thumb
	.text

	.macro counted name, index
	.global __wrap_\name
	.type __wrap_\name, %function
	.thumb_func
__wrap_\name:
	push {r4, r5}
	ldr r4, =div_calls + 4 * \index
	ldr r5, [r4]
	adds r5, r5, #1
	str r5, [r4]
	ldr r4, =__real_\name
	mov ip, r4
	pop {r4, r5}
	bx ip
	.ltorg
	.endm

	/* the order of div_helper_names[] in count-divisions.c */
	counted __aeabi_uidiv, 0
	counted __aeabi_uidivmod, 1
	counted __aeabi_idiv, 2
	counted __aeabi_idivmod, 3
	counted __aeabi_uldivmod, 4
	counted __aeabi_ldivmod, 5

	.section .note.GNU-stack,"",%progbits

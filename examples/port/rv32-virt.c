/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rv32-virt.c - QEMU's RISC-V virt board: output on the NS16550A UART,
 * exit through the SiFive test device (QEMU exits with the status).
 */
#include <stdint.h>
#include "port.h"

#define UART_BASE 0x10000000u
#define UART_THR 0u
#define UART_LSR 5u
#define UART_LSR_THRE 0x20u
#define TEST_BASE 0x00100000u
#define TEST_PASS 0x5555u
#define TEST_FAIL 0x3333u

void board_start(void);
void board_reset(void);
void board_trap(void);

static volatile uint8_t *const uart = (volatile uint8_t *)UART_BASE;

void board_write(const char *s)
{
	for (; *s; s++) {
		while (!(uart[UART_LSR] & UART_LSR_THRE))
			;
		uart[UART_THR] = (uint8_t)*s;
	}
}

_Noreturn void board_exit(int status)
{
	*(volatile uint32_t *)TEST_BASE = status ? ((uint32_t)status << 16) | TEST_FAIL : TEST_PASS;
	for (;;)
		;
}

/* Entry: global pointer, stack, trap vector, then C. */
__attribute__((section(".text.start"), naked)) void board_reset(void)
{
	__asm__ volatile(".option push\n.option norelax\n.option arch, +zicsr\n"
			 "la gp, __global_pointer$\n"
			 "la sp, __stack_top\n"
			 "la t0, board_trap\n"
			 "csrw mtvec, t0\n"
			 ".option pop\n"
			 "j board_start\n");
}

__attribute__((aligned(4))) void board_trap(void)
{
	board_write("fault: the CPU took an exception\n");
	board_exit(1);
}

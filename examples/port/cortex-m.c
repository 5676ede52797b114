/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * cortex-m.c - Cortex-M boards under QEMU: a vector table, a reset handler
 * and output through semihosting (BKPT 0xAB; QEMU needs -semihosting).
 * The same file serves M0+, M4 and M33: only the vector table's first two
 * entries and the fault handlers are used.
 */
#include <stdint.h>
#include "port.h"

#define SYS_WRITE0 0x04u
#define SYS_EXIT 0x18u
#define ADP_STOPPED_APPLICATION_EXIT 0x20026u /* QEMU exits 0 */
#define ADP_STOPPED_RUNTIME_ERROR 0x20023u    /* QEMU exits 1 */

extern char __stack_top[];
void board_start(void);
void board_reset(void);
static void board_fault(void);

static uint32_t semihost(uint32_t op, const void *arg)
{
	register uint32_t r0 __asm__("r0") = op;
	register const void *r1 __asm__("r1") = arg;

	__asm__ volatile("bkpt 0xab" : "+r"(r0) : "r"(r1) : "memory");
	return r0;
}

void board_write(const char *s)
{
	semihost(SYS_WRITE0, s);
}

_Noreturn void board_exit(int status)
{
	semihost(SYS_EXIT, (const void *)(uintptr_t)(status ? ADP_STOPPED_RUNTIME_ERROR
							    : ADP_STOPPED_APPLICATION_EXIT));
	for (;;)
		;
}

__attribute__((section(".text.start"))) void board_reset(void)
{
	board_start();
}

static void board_fault(void)
{
	board_write("fault: the CPU took an exception\n");
	board_exit(1);
}

/* Initial stack, reset, NMI, HardFault, then MemManage/BusFault/UsageFault
 * (absent on M0+, where these slots are reserved). */
__attribute__((section(".vectors"), used)) static const void *const vectors[7] = {
	__stack_top, (const void *)board_reset, (const void *)board_fault,
	(const void *)board_fault, (const void *)board_fault, (const void *)board_fault,
	(const void *)board_fault,
};

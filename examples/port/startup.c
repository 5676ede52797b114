/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * startup.c - what every board does before main: .data from ROM, .bss
 * zeroed, and the stack reserve (sections.ld) painted, so that after main
 * the deepest stack use can be read off and checked against the reserve.
 * The last line a program prints is "stack: N of R bytes".
 */
#include <string.h>
#include "port.h"

extern char __data_start[], __data_end[], __data_load[], __bss_start[], __bss_end[];
extern char __stack_limit[], __stack_top[];
int main(void);
void board_start(void);

#define STACK_PAINT 0x5ac3a53cu
/* below this function's frame: room for it and the calls it makes */
#define PAINT_MARGIN 128u

static void paint_stack(uint32_t *below)
{
	for (uint32_t *p = (uint32_t *)__stack_limit; p < below; p++)
		*p = STACK_PAINT;
}

/* Bytes from the top of the stack down to the deepest painted word overwritten. */
static uint32_t stack_used(void)
{
	const uint32_t *p = (const uint32_t *)__stack_limit;

	while ((const char *)p < __stack_top && *p == STACK_PAINT)
		p++;
	return (uint32_t)(__stack_top - (const char *)p);
}

void board_start(void)
{
	uint32_t reserve = (uint32_t)(__stack_top - __stack_limit), used;
	int status;

	memcpy(__data_start, __data_load, (size_t)(__data_end - __data_start));
	memset(__bss_start, 0, (size_t)(__bss_end - __bss_start));
	paint_stack((uint32_t *)((char *)__builtin_frame_address(0) - PAINT_MARGIN));
	status = main();
	used = stack_used();
	port_flush();
	port_puts("stack: ");
	port_put_dec(used);
	port_puts(" of ");
	port_put_dec(reserve);
	port_puts(used < reserve ? " bytes\n" : " bytes: overflowed its reserve\n");
	port_flush();
	board_exit(used < reserve ? status : 1);
}

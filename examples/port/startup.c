/* SPDX-License-Identifier: BSD-2-Clause */
/* startup.c - what every board does before main: .data from ROM, .bss zeroed. */
#include <string.h>
#include "port.h"

extern char __data_start[], __data_end[], __data_load[], __bss_start[], __bss_end[];
int main(void);
void board_start(void);

void board_start(void)
{
	memcpy(__data_start, __data_load, (size_t)(__data_end - __data_start));
	memset(__bss_start, 0, (size_t)(__bss_end - __bss_start));
	int status = main();
	port_flush();
	board_exit(status);
}

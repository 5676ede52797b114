/* SPDX-License-Identifier: BSD-2-Clause */
/* host.c - the examples as host programs (make check): stdout and exit(). */
#include <stdio.h>
#include <stdlib.h>
#include "port.h"

void board_write(const char *s)
{
	fputs(s, stdout);
}

_Noreturn void board_exit(int status)
{
	fflush(stdout);
	exit(status);
}

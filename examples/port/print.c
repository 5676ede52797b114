/* SPDX-License-Identifier: BSD-2-Clause */
/* print.c - line-buffered text output over board_write(), no printf. */
#include "port.h"
#include "fdtcache/fc_err.h"

static char line[128];
static size_t used;

void port_flush(void)
{
	line[used] = '\0';
	if (used)
		board_write(line);
	used = 0;
}

void port_putc(char c)
{
	line[used++] = c;
	if (c == '\n' || used == sizeof(line) - 1)
		port_flush();
}

void port_puts(const char *s)
{
	while (*s)
		port_putc(*s++);
}

void port_put_dec(uint32_t v)
{
	char digits[10];
	unsigned int n = 0;

	do {
		digits[n++] = (char)('0' + v % 10u); /* constant divisor: a multiply */
		v /= 10u;
	} while (v);
	while (n)
		port_putc(digits[--n]);
}

void port_put_hex(uint32_t v, unsigned int digits)
{
	while (digits--)
		port_putc("0123456789abcdef"[(v >> (4u * digits)) & 0xfu]);
}

void port_put_bytes(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		port_put_hex(p[i], 2);
}

_Noreturn void port_fail(const char *what, int err)
{
	port_puts("error: ");
	port_puts(what);
	port_puts(": ");
	port_puts(fc_strerror(err));
	port_putc('\n');
	board_exit(1);
}

_Noreturn void port_assert_failed(const char *file, int line_no)
{
	port_puts("assertion failed: ");
	port_puts(file);
	port_putc(':');
	port_put_dec((uint32_t)line_no);
	port_putc('\n');
	board_exit(1);
}

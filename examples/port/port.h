/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * port.h - what the examples need from a board: a line of text out and an
 * exit status. Each board file (cortex-m.c, rv32-virt.c, host.c) provides
 * board_write() and board_exit(); print.c builds the helpers on them.
 */
#ifndef EXAMPLES_PORT_H
#define EXAMPLES_PORT_H

#include <stddef.h>
#include <stdint.h>

/* Board: write a NUL-terminated string (a whole line, or a part of one). */
void board_write(const char *s);
/* Board: stop with status (0 = success); never returns. */
_Noreturn void board_exit(int status);

/* Buffered output: a line goes to the board when it ends or fills the buffer. */
void port_puts(const char *s);
void port_putc(char c);
void port_put_dec(uint32_t v);
void port_put_hex(uint32_t v, unsigned int digits); /* digits 1..8, no prefix */
void port_put_bytes(const uint8_t *p, size_t n);     /* two lower-case hex digits each */
void port_flush(void);

/* Report what failed with libcore's error name, then exit 1. */
_Noreturn void port_fail(const char *what, int err);

#endif /* EXAMPLES_PORT_H */

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fc_port.h - the examples' FC_CONFIG header (-DFC_CONFIG='"fc_port.h"'):
 * libcore's invariant checks end the program with a message instead of
 * compiling to nothing, and its memory and string hooks are the compiler's
 * builtins, so libcore includes no C library header (a bare toolchain has
 * none). What the builtins do not expand inline they call as memcpy(),
 * memset()..., which libc.c defines.
 */
#ifndef EXAMPLES_FC_PORT_H
#define EXAMPLES_FC_PORT_H

_Noreturn void port_assert_failed(const char *file, int line);

#define FC_ASSERT(cond) ((cond) ? (void)0 : port_assert_failed(__FILE__, __LINE__))

#define FC_MEMCPY(d, s, n) __builtin_memcpy((d), (s), (n))
#define FC_MEMMOVE(d, s, n) __builtin_memmove((d), (s), (n))
#define FC_MEMSET(d, c, n) __builtin_memset((d), (c), (n))
#define FC_MEMCMP(a, b, n) __builtin_memcmp((a), (b), (n))
#define FC_STRCMP(a, b) __builtin_strcmp((a), (b))

#endif /* EXAMPLES_FC_PORT_H */

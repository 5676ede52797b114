/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * string.h - the part of the C library that libcore and libfdt call, for
 * toolchains without one (riscv64-unknown-elf here has no libc headers).
 * Implemented in libc.c.
 */
#ifndef EXAMPLES_STRING_H
#define EXAMPLES_STRING_H

#include <stddef.h>

void *memcpy(void *restrict d, const void *restrict s, size_t n);
void *memmove(void *d, const void *s, size_t n);
void *memset(void *d, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);
void *memchr(const void *s, int c, size_t n);
size_t strlen(const char *s);
size_t strnlen(const char *s, size_t max);
int strcmp(const char *a, const char *b);
int strncmp(const char *a, const char *b, size_t n);
char *strchr(const char *s, int c);
char *strrchr(const char *s, int c);

#endif /* EXAMPLES_STRING_H */

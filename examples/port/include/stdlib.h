/* SPDX-License-Identifier: BSD-2-Clause */
/* stdlib.h - empty: libfdt's environment header includes it, nothing it
 * compiles here calls into it. */
#ifndef EXAMPLES_STDLIB_H
#define EXAMPLES_STDLIB_H
#include <stddef.h>
#endif /* EXAMPLES_STDLIB_H */

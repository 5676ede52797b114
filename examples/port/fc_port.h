/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fc_port.h - the examples' FC_CONFIG header (-DFC_CONFIG='"fc_port.h"'):
 * libcore's invariant checks end the program with a message instead of
 * compiling to nothing.
 */
#ifndef EXAMPLES_FC_PORT_H
#define EXAMPLES_FC_PORT_H

_Noreturn void port_assert_failed(const char *file, int line);

#define FC_ASSERT(cond) ((cond) ? (void)0 : port_assert_failed(__FILE__, __LINE__))

#endif /* EXAMPLES_FC_PORT_H */

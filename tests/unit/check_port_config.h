/* SPDX-License-Identifier: BSD-2-Clause */
/* A port's FC_CONFIG header for the contract test: FC_ASSERT counts failures. */
#ifndef CHECK_PORT_CONFIG_H
#define CHECK_PORT_CONFIG_H

extern unsigned int check_assert_failures;

#define FC_ASSERT(cond) ((cond) ? (void)0 : (void)check_assert_failures++)

#endif

/* SPDX-License-Identifier: BSD-2-Clause */
#include "fdtcache/version.h"

uint32_t fc_version(void)
{
	return FC_VERSION;
}

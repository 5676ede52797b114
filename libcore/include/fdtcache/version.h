/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * version.h - libcore's version: FC_VERSION* as compiled against,
 * fc_version() as linked.
 *
 * The package version, major.minor.patch: a release that breaks the API or
 * the ABI raises major (while major is 0, minor). The shared library's
 * own version (libtool -version-info, symbol node LIBFDTCACHE_<n>) follows
 * the rule written in configure.ac.
 */
#ifndef FDTCACHE_VERSION_H
#define FDTCACHE_VERSION_H

#include "fc_env.h"

#define FC_VERSION_MAJOR 0
#define FC_VERSION_MINOR 1
#define FC_VERSION_PATCH 0
/* one comparable number: 0x00MMmmpp */
#define FC_VERSION \
	((uint32_t)FC_VERSION_MAJOR << 16 | (uint32_t)FC_VERSION_MINOR << 8 | FC_VERSION_PATCH)
#define FC_VERSION_STRING "0.1.0"

/*
 * fc_version - the version of the libcore that is linked, for a program
 * that checks it against FC_VERSION, the one it was compiled with.
 *
 * returns: that FC_VERSION.
 */
uint32_t fc_version(void);

#endif /* FDTCACHE_VERSION_H */

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fc_err.h - error codes shared by every libcore module.
 *
 * Functions return int: >= 0 is a value, < 0 is one of the FC_E* codes.
 * fc_strerror() names each one.
 */
#ifndef FDTCACHE_FC_ERR_H
#define FDTCACHE_FC_ERR_H

#include "fc_env.h"

enum fc_err {
	FC_OK = 0,
	FC_EINVAL = -1,     /* invalid argument or configuration */
	FC_ERANGE = -2,     /* offset or length outside the device or partition */
	FC_EALIGN = -3,     /* offset or length not aligned to the write or erase unit */
	FC_EIO = -4,        /* the device reported an error (bad unit, injected fault) */
	FC_EPOWER = -5,     /* the device lost power; it fails until powered on again */
	FC_ENOTERASED = -6, /* programming a unit that is not erased */
	FC_EWORN = -7,      /* the erase unit is worn out */
	FC_EROFS = -8,      /* the device is read-only */
	FC_ENOENT = -9,     /* no such entry */
	FC_ENOSPC = -10,    /* no space left */
	FC_EBADCRC = -11,   /* stored data fails its CRC */
	FC_ECORRUPT = -12,  /* the medium cannot be made sense of */
	FC_ETIMEDOUT = -13, /* a wait timed out */
	FC_ETOOBIG = -14,   /* value larger than the format or the buffer allows */
	FC_ENOMEM = -15,    /* caller-provided memory is too small */
	FC_EBADDTB = -16,   /* the device tree blob is invalid */
	FC_ENAME = -17,     /* invalid name */
	FC_ENOTMOUNTED = -18, /* the file system is not mounted */
	FC_EEXIST = -19,    /* the entry already exists */
	FC_ENOTSUP = -20,   /* operation not supported by this device or configuration */
};

#define FC_ERR_MAX 20 /* number of error codes, for table sizes */

/*
 * fc_strerror - a short English description of a libcore return code.
 *
 * returns:
 *	a static string for every FC_E* code
 *	"success" for 0 and positive values (results, not errors)
 *	"unknown error" for other negative values
 *	never NULL
 */
const char *fc_strerror(int err);

#endif /* FDTCACHE_FC_ERR_H */

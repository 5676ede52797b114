/* SPDX-License-Identifier: BSD-2-Clause */
#include "fdtcache/fc_err.h"

static const char *const fc_err_names[FC_ERR_MAX + 1] = {
	[0] = "success",
	[-FC_EINVAL] = "invalid argument or configuration",
	[-FC_ERANGE] = "offset or length out of range",
	[-FC_EALIGN] = "offset or length not aligned",
	[-FC_EIO] = "device I/O error",
	[-FC_EPOWER] = "device lost power",
	[-FC_ENOTERASED] = "programming a unit that is not erased",
	[-FC_EWORN] = "erase unit worn out",
	[-FC_EROFS] = "device is read-only",
	[-FC_ENOENT] = "no such entry",
	[-FC_ENOSPC] = "no space left",
	[-FC_EBADCRC] = "data CRC mismatch",
	[-FC_ECORRUPT] = "medium is corrupt",
	[-FC_ETIMEDOUT] = "timed out",
	[-FC_ETOOBIG] = "value too large",
	[-FC_ENOMEM] = "caller memory too small",
	[-FC_EBADDTB] = "invalid device tree blob",
	[-FC_ENAME] = "invalid name",
	[-FC_ENOTMOUNTED] = "not mounted",
	[-FC_EEXIST] = "entry exists",
	[-FC_ENOTSUP] = "operation not supported",
};

const char *fc_strerror(int err)
{
	if (err >= 0)
		return fc_err_names[0];
	if (err < -FC_ERR_MAX || !fc_err_names[-err])
		return "unknown error";
	return fc_err_names[-err];
}

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * filedev.h - a flash dump or image file as a libcore flash device.
 *
 * The file is loaded into memory. Read-only (the default), it is presented
 * through fc_rom_flash and never written. Opened with FC_FILEDEV_WRITE it is
 * an fc_ram_flash, and fc_filedev_sync() writes the bytes back (atomically,
 * through a temporary file).
 */
#ifndef FDTCACHE_TOOLS_FILEDEV_H
#define FDTCACHE_TOOLS_FILEDEV_H

#include <glib.h>

#include "fdtcache/flash.h"

#define FC_FILEDEV_ERROR (fc_filedev_error_quark())
GQuark fc_filedev_error_quark(void);

enum fc_filedev_error {
	FC_FILEDEV_ERROR_IO,       /* the file cannot be read or written */
	FC_FILEDEV_ERROR_GEOMETRY, /* the file does not fit the geometry */
	FC_FILEDEV_ERROR_READONLY, /* sync of a read-only device */
};

/* Open flags */
#define FC_FILEDEV_WRITE 0x1u  /* writable; fc_filedev_sync() saves the bytes */
#define FC_FILEDEV_CREATE 0x2u /* with WRITE: a missing file starts erased */

struct fc_filedev {
	char *path;
	uint8_t *mem;
	gboolean writable;
	struct fc_ram_flash ram;
	struct fc_rom_flash rom;
	const struct fc_flash *dev; /* the device to use */
};

/*
 * fc_filedev_open - load path as a device of geometry geo. geo->size 0 means
 * the size of the file; otherwise the file must have exactly that size (or be
 * missing, with FC_FILEDEV_CREATE). The size must be a non-zero multiple of
 * geo->erase_size. Returns FALSE with error set (message naming the file).
 */
gboolean fc_filedev_open(struct fc_filedev *fd, const char *path,
			 const struct fc_flash_geometry *geo, unsigned int flags, GError **error);

/* fc_filedev_sync - write the bytes back to the file. FALSE with error set on failure. */
gboolean fc_filedev_sync(struct fc_filedev *fd, GError **error);

/* fc_filedev_close - free the memory; does not write anything. */
void fc_filedev_close(struct fc_filedev *fd);

#endif /* FDTCACHE_TOOLS_FILEDEV_H */

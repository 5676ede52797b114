/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * partition.h - where the NVS partition is, from the board's devicetree:
 * a DTB (--dtb) or a DTS (--dts, compiled with dtc -@ so node labels stay).
 * The partition is the node labelled LABEL (default storage_partition, then
 * a partition whose label property is "storage") in the fixed-partitions of
 * a flash node; its address is the flash node's base plus its offset, and
 * the flash node's erase-block-size and write-block-size come with it.
 */
#ifndef FDTCACHE_NVS_INSPECT_PARTITION_H
#define FDTCACHE_NVS_INSPECT_PARTITION_H

#include <glib.h>
#include <stdint.h>

struct dt_partition {
	char *path;          /* of the partition node */
	char *label;         /* how it was found */
	uint64_t flash_base; /* the flash node's address */
	uint64_t offset;     /* in the flash */
	uint64_t size;
	uint32_t erase_block; /* 0: not given */
	uint32_t write_block; /* 0: not given */
	uint64_t offset_in_image; /* set by the caller: where the image holds it */
};

/*
 * dt_partition_find - read the devicetree in dts_path or dtb_path (one of
 * them NULL) and find the partition named label (NULL: the default).
 * returns: TRUE; FALSE with error set naming the file and what is missing.
 */
gboolean dt_partition_find(const char *dts_path, const char *dtb_path, const char *label,
			   struct dt_partition *p, GError **error);

void dt_partition_free(struct dt_partition *p);

#endif /* FDTCACHE_NVS_INSPECT_PARTITION_H */

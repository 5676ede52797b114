/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * zms_inspect.h - nvs-inspect on Zephyr ZMS dumps. The format is told from
 * the content (a ZMS sector ends with an empty ATE carrying the 0x42 magic
 * and a cycle counter; NVS has none) or by --format-kind. The same flow as
 * for NVS (inspect.h): geometry (zms_detect.c) -> libcore's fc_zms_walk over
 * the dump, fc_zms_mount on a private copy, reads back, settings through
 * fc_settings_zms_scan (zms.c) -> findings (zms_check.c, in struct inspect's
 * live, settings, salvage, verdicts and actions, as for NVS) -> the shared
 * views (table.c, json.c) with the summary, ATEs and history of
 * zms_table.c and zms_json.c. Only libcore decodes ATEs; detection finds
 * the sector headers with fc_zms_header_decode and lets the walk judge each
 * candidate layout.
 */
#ifndef FDTCACHE_NVS_INSPECT_ZMS_H
#define FDTCACHE_NVS_INSPECT_ZMS_H

#include "inspect.h"

#include "fdtcache/zms.h"

/* What zms_inspect_load found: go on with the NVS code, or not. */
#define ZMS_LOAD_NOT_ZMS 3

/* One stored value of the --history id, newest first. */
struct zms_hist {
	struct fc_zms_ate_info ate; /* as the walk reported it */
	int rc;                     /* fc_zms_read_hist's result: length, FC_ENOENT (deleted)... */
	GBytes *value;
};

struct zms_inspect {
	/* geometry: detected or given */
	uint32_t offset, sector_size, sectors, write_block, ate_size;
	uint8_t erase_value;
	bool id64, data_crc, no_erase;
	enum nvs_confidence ss_conf, wb_conf, erase_conf, crc_conf;
	uint32_t headers;         /* sectors with a valid empty ATE */
	uint32_t trailing;        /* bytes after the last whole sector */
	uint32_t missing;         /* bytes short of the partition (read as erased) */
	char ss_why[256], wb_why[200], erase_why[200], crc_why[200];

	/* the partition: part (read-only device) and copy (the mount's) */
	const uint8_t *part;
	uint8_t *owned;           /* part and copy when padded, or copy alone */
	uint8_t *copy;
	size_t part_len;
	struct fc_flash_geometry fgeo;
	struct fc_rom_flash rom;
	struct fc_zms_slot *slots;
	uint32_t nslots;

	/* the walk of the dump */
	int walk_rc;
	GArray *sectors_info;     /* struct fc_zms_sector_info, by sector number */
	GArray *ates;             /* struct fc_zms_ate_info, walk order (newest first) */

	/* the mount of the copy */
	struct copy_flash copy_dev;
	struct fc_zms fs;
	struct fc_zms_slot *index;
	int free_space, active_free; /* mount_rc, actions, live, settings: in struct inspect */
	bool settings_head;       /* the list head 0x80000000 is stored */

	/* --history */
	bool history_ok;          /* an id was given or the name found */
	fc_zms_id_t history_id;
	GArray *history;          /* struct zms_hist */
};

/* zms_detect.c: is it ZMS, and its geometry (< 0: said on stderr; ZMS_LOAD_NOT_ZMS) */
int zms_inspect_load(struct inspect *in);
struct fc_zms_config zms_inspect_config(const struct zms_inspect *z, const struct fc_flash *dev,
					struct fc_zms_slot *slots, uint32_t nslots);
bool zms_slot_erased(const uint8_t *p, size_t n, uint8_t ev);
/*
 * zms_scan - regions of img (len bytes, erase value ev) that read as ZMS:
 * runs of sectors ending with a ZMS empty ATE (one alone: zms_lone.c),
 * with the erased sectors between them, as nvs_scan (scan.h) does for NVS;
 * closed counts the sectors with a header. returns: regions written to out.
 */
int zms_scan(const uint8_t *img, size_t len, uint8_t ev, struct nvs_region *out, int max);
/*
 * zms_lone_sector_size - the sector size of a partition whose only header
 * ends at end in img (a power of two dividing end), where ATEs of as bytes
 * (ids of 64 bits when id64) explain the sector's bytes best; *ties counts
 * the other sizes that explain them as well (the largest is taken).
 * returns: the size, or 0 when none reads as ZMS.
 */
uint32_t zms_lone_sector_size(const uint8_t *img, uint32_t end, uint32_t as, bool id64,
			      uint8_t ev, uint32_t *ties);
/* The ZMS empty ATEs in img, and where the first one is. */
uint32_t zms_header_count(const uint8_t *img, size_t len, uint32_t *first);

/* zms.c: walk, mount on the copy, reads back */
struct zms_inspect *zms_inspect_new(void);
int zms_analyze(struct inspect *in);
void zms_inspect_free(struct inspect *in);
char *zms_id_text(const struct zms_inspect *z, fc_zms_id_t id);
char *zms_addr_text(const struct zms_inspect *z, uint32_t addr);
GBytes *zms_ate_value(const struct zms_inspect *z, const struct fc_zms_ate_info *a);
uint32_t zms_addr_sector(const struct zms_inspect *z, uint32_t addr);
uint32_t zms_addr_offset(const struct zms_inspect *z, uint32_t addr);
uint32_t zms_addr(const struct zms_inspect *z, uint32_t sector, uint32_t offset);

/* zms_check.c: verdicts */
void zms_check(struct inspect *in);

/* zms_table.c, zms_json.c: the views of their own */
const char *zms_sector_state_name(enum fc_zms_sector_state s);
const char *zms_ate_status_name(enum fc_zms_ate_status s);
extern const struct table_views zms_table_views;
const char *zms_no_settings_why(const struct inspect *in);

#endif /* FDTCACHE_NVS_INSPECT_ZMS_H */

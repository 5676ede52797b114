/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * geometry.h - geometry detection of a Zephyr NVS flash dump, for
 * nvs-inspect: which sector size, ATE slot, write block and erase value the
 * bytes were written with. Plain C over caller bytes; never writes. ATEs are
 * decoded with libcore's codec (fc_nvs_ate_decode).
 */
#ifndef FDTCACHE_NVS_INSPECT_GEOMETRY_H
#define FDTCACHE_NVS_INSPECT_GEOMETRY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fdtcache/nvs.h"

/* True when every one of the n bytes at p equals ev. */
bool nvs_erased(const uint8_t *p, size_t n, uint8_t ev);

/* ATE slot size for a write block: 8 rounded up to it. */
uint32_t nvs_ate_size(uint32_t write_block);

struct nvs_geometry {
	uint32_t offset;       /* partition start in the image */
	uint32_t sector_size;
	uint32_t sector_count;
	uint32_t write_block;
	uint32_t ate_size;
	uint8_t erase_value;
};

/* What the user fixed: 0 (or -1 for erase_value) means "detect". */
struct nvs_geometry_hint {
	uint32_t offset;
	uint32_t sector_size;
	uint32_t sector_count;
	uint32_t write_block;
	int erase_value;
};

enum nvs_confidence {
	NVS_CONF_GIVEN,   /* from the command line */
	NVS_CONF_CERTAIN, /* strong evidence, no close competitor */
	NVS_CONF_LIKELY,  /* best of several fits */
	NVS_CONF_WEAK,    /* consistent, but other values fit as well */
};

struct nvs_geometry_report {
	struct nvs_geometry geo;
	enum nvs_confidence sector_conf; /* sector size and ATE slot size */
	enum nvs_confidence wb_conf;     /* write block */
	enum nvs_confidence ev_conf;     /* erase value */
	uint32_t ev_open[2];             /* erased close slots under 0xff, under 0x00 */
	long score;                      /* evidence score of the chosen layout */
	long runner_up_score;            /* best other layout (LONG_MIN if none) */
	uint32_t runner_up_sector_size;
	uint32_t runner_up_ate_size;
	uint32_t close_ates;   /* valid close ATEs at sector ends */
	uint32_t gc_done_ates; /* valid gc_done ATEs at the top of a sector */
	uint32_t ates;         /* valid ATEs found at the top of their sectors */
	uint32_t wb_options;   /* bit w set: write block w fits the data layout */
	uint32_t wb_pairs;     /* consecutive ATE pairs that showed the write block */
	uint32_t wb_sectors;   /* sectors whose pairs were counted */
	uint32_t trailing;     /* image bytes after the last whole sector */
	uint32_t missing;      /* bytes short of an explicit sector count */
};

/*
 * nvs_geometry_detect - fill rep->geo from the hint and the image bytes
 * (img, len: the whole file). Returns 0, or -1 with a reason in why when the
 * geometry cannot be told (or the hint does not fit the image).
 */
int nvs_geometry_detect(const uint8_t *img, size_t len, const struct nvs_geometry_hint *hint,
			struct nvs_geometry_report *rep, char *why, size_t why_len);

/*
 * nvs_stack_foreach - call fn for every non-erased slot on the ATE stacks of
 * the partition at part: in each sector from the first ATE slot down to the
 * first erased slot (ate->crc_ok tells whether its crc8 matches). A non-zero
 * return of fn stops the walk.
 */
typedef int (*nvs_slot_fn)(void *ctx, uint32_t sector, uint32_t slot,
			   const struct fc_nvs_ate *ate);
void nvs_stack_foreach(const uint8_t *part, const struct nvs_geometry *g, nvs_slot_fn fn,
		       void *ctx);

/*
 * nvs_sector_look - what the ss bytes at sec look like under ATE slots of as
 * bytes: a closed NVS sector (a valid close ATE in the last slot), an open
 * one (no valid close ATE, but a valid first ATE pointing at offset 0),
 * erased, or other data.
 */
enum nvs_sector_look { NVS_LOOK_OTHER, NVS_LOOK_ERASED, NVS_LOOK_OPEN, NVS_LOOK_CLOSED };
enum nvs_sector_look nvs_sector_look(const uint8_t *sec, uint32_t ss, uint32_t as, uint8_t ev);

/* "given", "certain", "likely", "weak". */
const char *nvs_confidence_name(enum nvs_confidence c);

#endif

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * scan.h - the regions of a whole-flash dump that read as NVS
 * (--partition auto): runs of sectors that look closed or open, with the
 * erased sectors between them. Erased sectors after the last of them belong
 * to the region when other data follows them (a partition ends there); when
 * only the end of the image does, the region ends after the last sector
 * that looks like NVS, and one erased sector more when that one is open (the
 * one a garbage collection needs), which may lie past the image's end: the
 * size is then a guess, and the sectors' order (what a mount reads) is kept.
 */
#ifndef FDTCACHE_NVS_INSPECT_SCAN_H
#define FDTCACHE_NVS_INSPECT_SCAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "geometry.h"

#define SCAN_MAX_REGIONS 8

struct nvs_region {
	size_t offset, size;    /* in the image */
	uint32_t sector_size, ate_size;
	uint32_t closed, open;  /* sectors that look closed, open */
	uint32_t erased_after;  /* erased sectors counted at its end */
	bool size_guessed;      /* no other data after it: its end is a guess */
	bool zms;               /* found by zms_scan (closed: sectors with a header) */
	uint32_t lone_fits;     /* zms_scan, one header: the sector sizes that fit as well */
};

/*
 * nvs_scan - regions of img (len bytes) that read as NVS under erase value
 * ev, best sector and slot size first chosen by how many sectors look like
 * NVS. returns: the number of regions (at most max) written to out.
 */
int nvs_scan(const uint8_t *img, size_t len, uint8_t ev, struct nvs_region *out, int max);

/*
 * scan_regions - the regions of img's sectors of ss bytes from offset first,
 * each judged by look (under slots of as bytes, erase value ev): runs of
 * open and closed sectors with the erased ones as above (what nvs_scan and
 * zms_scan share). returns: the number of regions (at most max) in out.
 */
typedef enum nvs_sector_look scan_look_fn(const uint8_t *sec, uint32_t ss, uint32_t as,
					  uint8_t ev);
int scan_regions(const uint8_t *img, size_t len, size_t first, uint32_t ss, uint32_t as,
		 uint8_t ev, scan_look_fn *look, struct nvs_region *out, int max);

#endif /* FDTCACHE_NVS_INSPECT_SCAN_H */

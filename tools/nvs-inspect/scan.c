/* SPDX-License-Identifier: BSD-2-Clause */
/* Regions of a whole-flash dump that read as NVS (see scan.h). */
#include "scan.h"

#include <string.h>

#include "geometry.h"

#define SCAN_MIN_SECTOR 1024u
#define SCAN_MAX_SECTOR 65536u

static bool is_nvs(enum nvs_sector_look l)
{
	return l == NVS_LOOK_OPEN || l == NVS_LOOK_CLOSED;
}

/* Sectors of ss bytes that look like NVS under slots of as bytes. */
static uint32_t count_nvs(const uint8_t *img, size_t len, uint32_t ss, uint32_t as, uint8_t ev)
{
	uint32_t n = 0;
	size_t off;

	for (off = 0; off + ss <= len; off += ss)
		n += is_nvs(nvs_sector_look(img + off, ss, as, ev));
	return n;
}

/* A region's end when the image ends after erased sectors (see scan.h). */
static void end_guessed(struct nvs_region *r, enum nvs_sector_look last)
{
	r->size -= (size_t)r->erased_after * r->sector_size;
	r->erased_after = last == NVS_LOOK_OPEN;
	r->size += (size_t)r->erased_after * r->sector_size;
	r->size_guessed = true;
}

int scan_regions(const uint8_t *img, size_t len, size_t first, uint32_t ss, uint32_t as,
		 uint8_t ev, scan_look_fn *look, struct nvs_region *out, int max)
{
	struct nvs_region *r = NULL;
	enum nvs_sector_look last = NVS_LOOK_OTHER, prev = NVS_LOOK_ERASED;
	size_t off, lead = SIZE_MAX; /* erased sectors right after other data start here */
	int n = 0;

	for (off = first; off + ss <= len; off += ss) {
		enum nvs_sector_look l = look(img + off, ss, as, ev);

		if (l == NVS_LOOK_ERASED && !r && prev == NVS_LOOK_OTHER)
			lead = off;
		prev = l;
		if (l == NVS_LOOK_OTHER || (l == NVS_LOOK_ERASED && !r)) {
			if (l == NVS_LOOK_OTHER)
				lead = SIZE_MAX;
			r = NULL;
			continue;
		}
		if (!r && n == max)
			break;
		if (!r) {
			/* erased sectors between other data and these belong to them */
			r = &out[n++];
			memset(r, 0, sizeof(*r));
			r->offset = lead != SIZE_MAX ? lead : off;
			r->sector_size = ss;
			r->ate_size = as;
			lead = SIZE_MAX;
		}
		if (l != NVS_LOOK_ERASED)
			last = l;
		r->size = off + ss - r->offset;
		r->closed += l == NVS_LOOK_CLOSED;
		r->open += l == NVS_LOOK_OPEN;
		r->erased_after = l == NVS_LOOK_ERASED ? r->erased_after + 1 : 0;
	}
	if (r)
		end_guessed(r, last);
	return n;
}

int nvs_scan(const uint8_t *img, size_t len, uint8_t ev, struct nvs_region *out, int max)
{
	uint32_t ss, as, best = 0, best_ss = 0, best_as = 0;

	/* of those explaining as many sectors, the smallest slot, then the largest
	 * sector wins (halves of a sector see the same tops) */
	for (as = 32; as >= 8; as >>= 1)
		for (ss = SCAN_MIN_SECTOR; ss <= SCAN_MAX_SECTOR; ss <<= 1) {
			uint32_t n = count_nvs(img, len, ss, as, ev);

			if (n && n >= best) {
				best = n;
				best_ss = ss;
				best_as = as;
			}
		}
	return best ? scan_regions(img, len, 0, best_ss, best_as, ev, nvs_sector_look, out, max) : 0;
}

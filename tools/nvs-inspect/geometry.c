/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Geometry detection for NVS dumps. Every candidate layout (sector size,
 * ATE slot size) is scored by how much of the image reads as NVS under it:
 * valid ATE stacks at the top of each sector whose data lies below them,
 * close ATEs in the last slot, gc_done ATEs in the first ATE slots, and a
 * plausible sequence of sector states. Wrong layouts see data where ATEs
 * should be, ATEs pointing at erased bytes, or sectors in impossible states.
 * The write block then comes from how consecutive records are spaced.
 */
#include "geometry.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "fdtcache/fc_env.h"

#define MIN_SECTOR 256u
#define MAX_SECTOR 65536u
#define MAX_SECTORS 65535u
#define MIN_SLOTS 6u     /* ATE slots a sector needs (fc_nvs_mount refuses fewer) */
#define REGIONS 8u       /* 64 KiB regions of a large image that are scored */
#define BAD_RUN_STOP 4u  /* consecutive unreadable slots that end a stack */
#define WB_MAX_SHIFT 3u  /* write blocks 1..8 share the 8-byte ATE slot */
#define WB_SAMPLE_PAIRS 256u /* pairs from the sampled regions that settle the write block */

/* Weights of the evidence; only their order of magnitude matters. */
#define W_CLOSE 2
#define W_GC_DONE 1
#define W_GARBAGE 1
#define W_STATE 4
#define W_FIRST 4
#define STRAY_BYTES 64 /* written bytes between data and ATEs that cost one point */

bool nvs_erased(const uint8_t *p, size_t n, uint8_t ev)
{
	size_t i;

	if (n <= 32) {
		for (i = 0; i < n; i++)
			if (p[i] != ev)
				return false;
		return true;
	}
	/* every byte equals its successor and the first is ev */
	return p[0] == ev && memcmp(p, p + 1, n - 1) == 0;
}

uint32_t nvs_ate_size(uint32_t write_block)
{
	return write_block > 8 ? write_block : 8;
}

const char *nvs_confidence_name(enum nvs_confidence c)
{
	switch (c) {
	case NVS_CONF_GIVEN:
		return "given";
	case NVS_CONF_CERTAIN:
		return "certain";
	case NVS_CONF_LIKELY:
		return "likely";
	case NVS_CONF_WEAK:
		return "weak";
	}
	return "?";
}

/* Decode a slot: could it be an ATE this layout wrote (crc, part byte, padding)? */
static bool slot_valid(const uint8_t *slot, uint32_t ate_size, uint8_t ev, struct fc_nvs_ate *ate)
{
	fc_nvs_ate_decode(slot, ev, ate);
	return ate->part == FC_NVS_ATE_PART && ate->crc_ok &&
	       nvs_erased(slot + FC_NVS_ATE_BYTES, ate_size - FC_NVS_ATE_BYTES, ev);
}

void nvs_stack_foreach(const uint8_t *part, const struct nvs_geometry *g, nvs_slot_fn fn,
		       void *ctx)
{
	struct fc_nvs_ate ate;
	uint32_t s, p;

	for (s = 0; s < g->sector_count; s++) {
		const uint8_t *sec = part + (size_t)s * g->sector_size;

		for (p = g->sector_size - 2 * g->ate_size;; p -= g->ate_size) {
			if (nvs_erased(sec + p, g->ate_size, g->erase_value))
				break;
			fc_nvs_ate_decode(sec + p, g->erase_value, &ate);
			if (fn(ctx, s, p, &ate))
				return;
			if (p < g->ate_size)
				break;
		}
	}
}

static bool close_valid(const uint8_t *sec, uint32_t ss, uint32_t as, uint8_t ev,
			struct fc_nvs_ate *ate)
{
	return slot_valid(sec + ss - as, as, ev, ate) && fc_nvs_ate_close_valid(ate, ss, as);
}

enum nvs_sector_look nvs_sector_look(const uint8_t *sec, uint32_t ss, uint32_t as, uint8_t ev)
{
	struct fc_nvs_ate ate;
	const uint8_t *first = sec + ss - 2 * as;

	if (close_valid(sec, ss, as, ev, &ate))
		return NVS_LOOK_CLOSED;
	/* a sector's first ATE points at offset 0 (its close slot may be torn) */
	if (slot_valid(first, as, ev, &ate) && ate.offset == 0)
		return NVS_LOOK_OPEN;
	return nvs_erased(sec, ss, ev) ? NVS_LOOK_ERASED : NVS_LOOK_OTHER;
}

/* Spacing of consecutive records, the evidence for the write block. */
struct wb_votes {
	uint32_t gapped;               /* next record starts after a gap */
	uint32_t gap_fit[WB_MAX_SHIFT + 1]; /* ... that aligning to 1 << i explains */
	uint32_t exact;                /* next record starts where the last ended */
	uint32_t exact_misfit[WB_MAX_SHIFT + 1]; /* ... at an end not aligned to 1 << i */
};

static void wb_vote(struct wb_votes *v, uint32_t prev_end, uint32_t next)
{
	uint32_t i, w;

	if (next == prev_end) {
		v->exact++;
		for (i = 0; i <= WB_MAX_SHIFT; i++)
			if (prev_end % (1u << i))
				v->exact_misfit[i]++;
	} else if (next > prev_end) {
		v->gapped++;
		for (i = 0; i <= WB_MAX_SHIFT; i++) {
			w = 1u << i;
			if (FC_ALIGN_UP(prev_end, w) == next)
				v->gap_fit[i]++;
		}
	}
}

struct sector_probe {
	uint32_t ates, gc_done, garbage;
	uint32_t stray; /* written bytes between the last data and the ATE stack */
	bool closed, bad_close, stack, dirty;
	int first; /* +1: first ATE slot points at offset 0; -1: elsewhere or unreadable */
};

/*
 * Read the ATE stack at the top of one sector: from the first ATE slot down
 * to the close ATE's last entry (closed sector) or the first erased slot,
 * never into the data it has seen.
 */
static void probe_sector(const uint8_t *sec, uint32_t ss, uint32_t as, uint8_t ev,
			 struct sector_probe *pr, struct wb_votes *votes)
{
	struct fc_nvs_ate ate;
	uint32_t low = 0, data_end = 0, bad_run = 0, n = 0, p, stack_low = ss;
	bool have_prev = false;
	uint32_t prev_end = 0;

	memset(pr, 0, sizeof(*pr));
	if (close_valid(sec, ss, as, ev, &ate)) {
		pr->closed = true;
		low = ate.offset;
	} else if (!nvs_erased(sec + ss - as, as, ev)) {
		pr->bad_close = true;
	}
	for (p = ss - 2 * as; p >= low && p >= data_end; p -= as, n++) {
		const uint8_t *slot = sec + p;

		if (nvs_erased(slot, as, ev))
			break;
		pr->stack = true;
		stack_low = p;
		if (!slot_valid(slot, as, ev, &ate)) {
			if (n == 0)
				pr->first = -1;
			pr->garbage++;
			have_prev = false;
			if (++bad_run >= BAD_RUN_STOP)
				break;
			if (p < as)
				break;
			continue;
		}
		if (n == 0)
			pr->first = ate.offset == 0 ? 1 : -1;
		bad_run = 0;
		if ((uint32_t)ate.offset + ate.len > p) {
			pr->garbage++;
			have_prev = false;
		} else if (ate.len == 0 || !nvs_erased(sec + ate.offset, ate.len, ev)) {
			pr->ates++;
			if (ate.id == FC_NVS_ID_SPECIAL && ate.len == 0 && p >= ss - 3 * as)
				pr->gc_done++;
			if (votes && have_prev)
				wb_vote(votes, prev_end, ate.offset);
			prev_end = (uint32_t)ate.offset + ate.len;
			have_prev = true;
			data_end = FC_MAX(data_end, prev_end);
		}
		if (p < as)
			break;
	}
	if (!pr->closed && !pr->bad_close && !pr->stack)
		pr->dirty = !nvs_erased(sec, ss, ev);
	/* Healthy sectors keep erased bytes there, but for a torn write. */
	for (p = data_end; pr->ates && p < stack_low; p++)
		pr->stray += sec[p] != ev;
}

struct layout {
	uint32_t sector_size, ate_size, count;
	long score;
	uint32_t close_ates, gc_done_ates, ates;
};

/*
 * Large images are sampled: REGIONS spans of MAX_SECTOR bytes spread over
 * the image, the same for every layout. Calls fn for each sampled sector.
 */
typedef void (*sector_fn)(const uint8_t *sec, uint32_t i, void *ctx);

static void for_sampled_sectors(const uint8_t *part, uint32_t ss, uint32_t count, sector_fn fn,
				void *ctx)
{
	uint32_t per_region = MAX_SECTOR / ss;
	uint32_t regions = (count + per_region - 1) / per_region;
	uint32_t r, k, i;

	for (k = 0; k < FC_MIN(regions, REGIONS); k++) {
		r = regions <= REGIONS ? k : (uint32_t)((uint64_t)k * regions / REGIONS);
		for (i = r * per_region; i < FC_MIN(count, (r + 1) * per_region); i++)
			fn(part + (size_t)i * ss, i, ctx);
	}
}

struct layout_score {
	struct layout *lay;
	uint8_t ev;
	uint32_t open, closed, first_open;
	long s;
};

static void score_sector(const uint8_t *sec, uint32_t i, void *ctx)
{
	struct layout_score *ls = ctx;
	struct layout *lay = ls->lay;
	struct sector_probe pr;

	probe_sector(sec, lay->sector_size, lay->ate_size, ls->ev, &pr, NULL);
	/* The first ATE of a sector is written while its data area is
	 * empty, so it points at offset 0 (a record, delete or gc_done). */
	ls->s += (long)pr.ates + W_CLOSE * pr.closed + W_GC_DONE * (long)pr.gc_done +
		 W_FIRST * pr.first - W_GARBAGE * (long)pr.garbage - W_STATE * pr.bad_close -
		 (long)(pr.stray / STRAY_BYTES);
	lay->ates += pr.ates;
	lay->gc_done_ates += pr.gc_done;
	lay->close_ates += pr.closed;
	ls->closed += pr.closed;
	if (!pr.closed && (pr.stack || pr.dirty)) {
		if (ls->open++ == 0)
			ls->first_open = i;
		if (!pr.stack)
			ls->s -= W_STATE; /* data without any ATE */
	}
}

/* Score one layout over the sampled sectors. */
static void score_layout(const uint8_t *part, struct layout *lay, uint8_t ev)
{
	struct layout_score ls = { .lay = lay, .ev = ev };

	for_sampled_sectors(part, lay->sector_size, lay->count, score_sector, &ls);
	/* A partition has one open sector; with none closed it is sector 0. */
	if (ls.open > 1)
		ls.s -= W_STATE * (long)(ls.open - 1);
	if (ls.open == 1 && ls.closed == 0 && ls.first_open != 0)
		ls.s -= W_STATE;
	lay->score = ls.s;
}

static void wb_decide(const struct wb_votes *v, struct nvs_geometry_report *rep)
{
	uint32_t i, best = 0, options = 0, fit_options;

	for (i = 0; i <= WB_MAX_SHIFT; i++)
		best = FC_MAX(best, v->gap_fit[i]);
	for (i = 0; i <= WB_MAX_SHIFT; i++)
		if (v->gap_fit[i] == best)
			options |= 1u << i;
	/* Records that start right at an unaligned end rule a size out, unless
	 * they are all there is (the newer revision packs GC copies). */
	fit_options = 0;
	for (i = 0; i <= WB_MAX_SHIFT; i++)
		if ((options & (1u << i)) && v->exact_misfit[i] == 0)
			fit_options |= 1u << i;
	if (fit_options)
		options = fit_options;
	rep->wb_pairs = v->gapped + v->exact;
	rep->wb_options = 0;
	for (i = 0; i <= WB_MAX_SHIFT; i++)
		if (options & (1u << i)) {
			rep->wb_options |= 1u << i;
			rep->geo.write_block = 1u << i;
		}
	if (rep->wb_pairs == 0)
		rep->wb_conf = NVS_CONF_WEAK;
	else if ((options & (options - 1)) == 0)
		rep->wb_conf = v->gapped ? NVS_CONF_CERTAIN : NVS_CONF_LIKELY;
	else
		rep->wb_conf = NVS_CONF_WEAK;
}

struct wb_count {
	const struct nvs_geometry *g;
	struct wb_votes votes;
	uint32_t sectors;
};

static void wb_sector(const uint8_t *sec, uint32_t i, void *ctx)
{
	struct wb_count *c = ctx;
	struct sector_probe pr;

	(void)i;
	probe_sector(sec, c->g->sector_size, c->g->ate_size, c->g->erase_value, &pr, &c->votes);
	c->sectors++;
}

/*
 * Write block for an 8-byte ATE slot, from record spacing: in the sampled
 * regions when they settle it (one size, enough pairs, some with a gap),
 * else in every sector.
 */
static void detect_write_block(const uint8_t *part, struct nvs_geometry_report *rep)
{
	const struct nvs_geometry *g = &rep->geo;
	struct wb_count c = { .g = g };
	uint32_t i;

	for_sampled_sectors(part, g->sector_size, g->sector_count, wb_sector, &c);
	wb_decide(&c.votes, rep);
	rep->wb_sectors = c.sectors;
	if (rep->wb_conf == NVS_CONF_CERTAIN && rep->wb_pairs >= WB_SAMPLE_PAIRS)
		return;
	memset(&c.votes, 0, sizeof(c.votes));
	c.sectors = 0;
	for (i = 0; i < g->sector_count; i++)
		wb_sector(part + (size_t)i * g->sector_size, i, &c);
	wb_decide(&c.votes, rep);
	rep->wb_sectors = c.sectors;
}

static bool better(const struct layout *a, const struct layout *b)
{
	return a->score > b->score;
}

static void say(char *why, size_t why_len, const char *msg, uint32_t a, uint32_t b)
{
	if (why && why_len)
		snprintf(why, why_len, msg, a, b);
}

static void say_sizes(char *why, size_t why_len, uint32_t count, uint32_t ss, size_t need,
		      size_t avail, uint32_t offset)
{
	if (why && why_len)
		snprintf(why, why_len,
			 "%u sectors of %u bytes need %zu bytes, but the image holds only %zu "
			 "bytes after offset %u (a truncated dump is read when it holds at least "
			 "half the partition); check --sectors and --sector-size",
			 count, ss, need, avail, offset);
}

/* Try every sector size (and slot size) the hint leaves open. */
static int search_layouts(const uint8_t *part, size_t avail, const struct nvs_geometry_hint *h,
			  uint8_t ev, bool allow_trailing, struct nvs_geometry_report *rep)
{
	struct layout best = { .score = LONG_MIN }, second = { .score = LONG_MIN }, lay;
	uint32_t ss, as;

	for (ss = MIN_SECTOR; ss <= MAX_SECTOR; ss <<= 1) {
		size_t count = h->sector_count ? h->sector_count : avail / ss;

		if (h->sector_size && ss != h->sector_size)
			continue;
		if (count < 2 || count > MAX_SECTORS || count * ss > avail)
			continue;
		if (!allow_trailing && !h->sector_count && count * ss != avail)
			continue;
		for (as = 8; as <= 32; as <<= 1) {
			if (h->write_block && as != nvs_ate_size(h->write_block))
				continue;
			if (ss < MIN_SLOTS * as || ss % as)
				continue;
			memset(&lay, 0, sizeof(lay));
			lay.sector_size = ss;
			lay.ate_size = as;
			lay.count = (uint32_t)count;
			score_layout(part, &lay, ev);
			if (better(&lay, &best)) {
				second = best;
				best = lay;
			} else if (better(&lay, &second)) {
				second = lay;
			}
		}
	}
	if (best.score == LONG_MIN)
		return -1;
	rep->geo.sector_size = best.sector_size;
	rep->geo.ate_size = best.ate_size;
	rep->geo.sector_count = best.count;
	rep->score = best.score;
	rep->runner_up_score = second.score;
	rep->runner_up_sector_size = second.sector_size;
	rep->runner_up_ate_size = second.ate_size;
	rep->close_ates = best.close_ates;
	rep->gc_done_ates = best.gc_done_ates;
	rep->ates = best.ates;
	return 0;
}

/*
 * Certain: sector-end evidence and no other layout within 2/3 of the score
 * (a layout of half the size legitimately reads about half the ATEs).
 */
static enum nvs_confidence layout_confidence(const struct nvs_geometry_report *rep)
{
	if (rep->runner_up_score == LONG_MIN || rep->runner_up_score <= 0 ||
	    rep->runner_up_score * 3 <= rep->score * 2)
		return (rep->close_ates + rep->gc_done_ates) ? NVS_CONF_CERTAIN : NVS_CONF_LIKELY;
	return NVS_CONF_LIKELY;
}

/* The best layout under ev: of those filling the image exactly, else of all that fit. */
static int search_best(const uint8_t *part, size_t avail, const struct nvs_geometry_hint *h,
		       uint8_t ev, struct nvs_geometry_report *rep)
{
	if (search_layouts(part, avail, h, ev, false, rep) == 0 && rep->score > 0)
		return 0;
	return search_layouts(part, avail, h, ev, true, rep);
}

/* Accept the layout search_best found (found: its result), or say why not. */
static int judge_layout(int found, struct nvs_geometry_report *rep, char *why, size_t why_len)
{
	if (found < 0) {
		say(why, why_len, "no sector size between %u and %u bytes fits the image size",
		    MIN_SECTOR, MAX_SECTOR);
		return -1;
	}
	if (rep->score <= 0) {
		say(why, why_len,
		    "no sector layout reads as NVS (the best, %u-byte sectors with %u-byte ATE "
		    "slots, shows more damage than ATEs); give --sector-size and --write-block, "
		    "and --offset if the partition does not start the file",
		    rep->geo.sector_size, rep->geo.ate_size);
		return -1;
	}
	if (rep->runner_up_score == rep->score) {
		say(why, why_len,
		    "sector sizes %u and %u fit the image equally well; give --sector-size",
		    rep->geo.sector_size, rep->runner_up_sector_size);
		return -1;
	}
	rep->sector_conf = layout_confidence(rep);
	return 0;
}

static int check_hint(size_t len, const struct nvs_geometry_hint *h, char *why, size_t why_len)
{
	uint32_t as = nvs_ate_size(h->write_block);

	if (h->write_block && (h->write_block > 32 || (h->write_block & (h->write_block - 1)))) {
		say(why, why_len, "write block %u is not a power of two up to 32", h->write_block, 0);
		return -1;
	}
	if (h->sector_size && (h->sector_size > MAX_SECTOR || h->sector_size < MIN_SLOTS * 8)) {
		say(why, why_len, "sector size %u is outside 48..%u (6 ATE slots of 8 bytes at least)",
		    h->sector_size, MAX_SECTOR);
		return -1;
	}
	if (h->sector_size && h->write_block &&
	    (h->sector_size % as || h->sector_size < MIN_SLOTS * as)) {
		say(why, why_len,
		    "sector size %u does not hold whole ATE slots of %u bytes, at least 6 of them "
		    "(NVS needs the close and gc_done ATEs and records); give a larger "
		    "--sector-size or a smaller --write-block",
		    h->sector_size, as);
		return -1;
	}
	if (h->sector_count == 1 || h->sector_count > MAX_SECTORS) {
		say(why, why_len, "sector count %u is outside 2..%u", h->sector_count, MAX_SECTORS);
		return -1;
	}
	if (h->offset >= len) {
		say(why, why_len, "offset %u is beyond the end of the image (%u bytes)", h->offset,
		    (uint32_t)len);
		return -1;
	}
	return 0;
}

/* Sectors of a layout whose top slot, the close ATE's, is all ev. */
static uint32_t erased_close_slots(const uint8_t *part, const struct nvs_geometry_report *r,
				   uint8_t ev)
{
	uint32_t i, n = 0;

	for (i = 0; i < r->geo.sector_count; i++)
		n += nvs_erased(part + (size_t)(i + 1) * r->geo.sector_size - r->geo.ate_size,
				r->geo.ate_size, ev);
	return n;
}

/*
 * NOR flash erases to 0xff, some flash (and RRAM) to 0x00. A partition
 * always has a sector that is not closed (the open one, and the erased one
 * after it), and its close slot is still erased; values, zero-filled or not,
 * never reach a sector's top slot. So the value whose best layout shows
 * erased close slots, when the other's shows none, is certain; otherwise
 * the better layout score decides. An image that reads as NVS under
 * neither gets 0xff, as a weak guess.
 */
static int detect_erase_value(const uint8_t *part, size_t avail,
			      const struct nvs_geometry_hint *h, struct nvs_geometry_report *rep)
{
	static const uint8_t values[2] = { 0xff, 0x00 };
	struct nvs_geometry_report r[2];
	uint32_t open[2] = { 0, 0 };
	long score[2];
	int found[2], i, best;
	bool neither, by_slots;
	enum nvs_confidence conf;

	for (i = 0; i < 2; i++) {
		memset(&r[i], 0, sizeof(r[i]));
		r[i].geo.offset = rep->geo.offset;
		r[i].geo.erase_value = values[i];
		r[i].runner_up_score = LONG_MIN;
		found[i] = search_best(part, avail, h, values[i], &r[i]);
		score[i] = found[i] < 0 ? LONG_MIN : r[i].score;
		if (found[i] == 0)
			open[i] = erased_close_slots(part, &r[i], values[i]);
	}
	neither = score[0] <= 0 && score[1] <= 0;
	by_slots = score[0] > 0 && score[1] > 0 && !open[0] != !open[1];
	if (neither) {
		best = 0;
		conf = NVS_CONF_WEAK;
	} else {
		best = by_slots ? open[1] > 0 : score[1] > score[0];
		conf = by_slots || score[!best] <= 0 ? NVS_CONF_CERTAIN : NVS_CONF_LIKELY;
	}
	/* the winner's layout search is the one the geometry needs: keep it */
	*rep = r[best];
	rep->ev_conf = conf;
	rep->ev_open[0] = open[0];
	rep->ev_open[1] = open[1];
	return found[best];
}

int nvs_geometry_detect(const uint8_t *img, size_t len, const struct nvs_geometry_hint *hint,
			struct nvs_geometry_report *rep, char *why, size_t why_len)
{
	const uint8_t *part;
	size_t avail, need;
	bool searched;
	int found = -1;

	memset(rep, 0, sizeof(*rep));
	if (check_hint(len, hint, why, why_len) < 0)
		return -1;
	part = img + hint->offset;
	avail = len - hint->offset;
	rep->geo.offset = hint->offset;
	rep->runner_up_score = LONG_MIN;
	if (hint->erase_value >= 0) {
		rep->geo.erase_value = (uint8_t)hint->erase_value;
		rep->ev_conf = NVS_CONF_GIVEN;
		searched = false;
	} else {
		found = detect_erase_value(part, avail, hint, rep);
		searched = true;
	}
	if (hint->sector_size && hint->write_block) {
		rep->geo.sector_size = hint->sector_size;
		rep->geo.sector_count = hint->sector_count ? hint->sector_count
			: (uint32_t)FC_MIN(avail / hint->sector_size, MAX_SECTORS);
		rep->sector_conf = NVS_CONF_GIVEN;
		if (rep->geo.sector_count < 2) {
			say(why, why_len, "the image holds fewer than 2 sectors of %u bytes",
			    hint->sector_size, 0);
			return -1;
		}
	} else {
		if (!searched)
			found = search_best(part, avail, hint, rep->geo.erase_value, rep);
		if (judge_layout(found, rep, why, why_len) < 0)
			return -1;
		if (hint->sector_size && hint->sector_count)
			rep->sector_conf = NVS_CONF_GIVEN;
	}
	need = (size_t)rep->geo.sector_count * rep->geo.sector_size;
	/* a truncated dump is read with its missing bytes erased, as long as
	 * it holds half the partition: memory stays a small multiple of it */
	if (need > avail && need - avail > avail) {
		say_sizes(why, why_len, rep->geo.sector_count, rep->geo.sector_size, need, avail,
			  hint->offset);
		return -1;
	}
	if (need > avail)
		rep->missing = (uint32_t)(need - avail);
	else
		rep->trailing = (uint32_t)(avail - need);
	if (hint->write_block) {
		rep->geo.write_block = hint->write_block;
		rep->geo.ate_size = nvs_ate_size(hint->write_block);
		rep->wb_conf = NVS_CONF_GIVEN;
		rep->wb_options = hint->write_block;
	} else if (rep->geo.ate_size > 8) {
		rep->geo.write_block = rep->geo.ate_size;
		rep->wb_options = rep->geo.ate_size;
		rep->wb_conf = rep->sector_conf == NVS_CONF_GIVEN ? NVS_CONF_CERTAIN : rep->sector_conf;
	} else {
		if (rep->missing) {
			rep->geo.write_block = 4;
			rep->wb_conf = NVS_CONF_WEAK;
			rep->wb_options = 0xf;
		} else {
			detect_write_block(part, rep);
		}
	}
	return 0;
}

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mount.c - what a mount does: fc_nvs_mount on a private copy of the
 * partition (on a thread, beside the walk), the bytes it changed, the free
 * space, and what it reads back (live entries, settings).
 */
#include "inspect.h"

#include <stdlib.h>
#include <string.h>

#include "fdtcache/settings.h"

/* false: the sectors are the same */
bool sector_diff(const uint8_t *a, const uint8_t *b, uint32_t ss, uint8_t ev,
		 struct sector_diff *d)
{
	uint32_t i;

	*d = (struct sector_diff){ .first = ss };
	if (memcmp(a, b, ss) == 0)
		return false;
	for (i = 0; i < ss; i++) {
		if (a[i] == b[i])
			continue;
		d->first = MIN(d->first, i);
		d->last = i;
		d->differing++;
		/* programming only moves bits away from the erase value */
		if ((uint8_t)(a[i] ^ ev) & (uint8_t)~(b[i] ^ ev))
			d->bits_back = true;
		d->written += b[i] != ev;
	}
	return true;
}

/* The action of a sector the mount wrote into without erasing it. */
void add_write_action(struct inspect *in, uint32_t s, uint32_t bytes, const struct sector_diff *d)
{
	g_ptr_array_add(in->actions, g_strdup_printf("write %u bytes in sector %u at "
						     "0x%04x..0x%04x", bytes, s, d->first,
						     d->last));
}

static void describe_change(struct inspect *in, uint32_t s)
{
	uint32_t ss = in->geo.geo.sector_size;
	uint8_t ev = in->geo.geo.erase_value;
	const uint8_t *b = in->copy + (size_t)s * ss;
	struct sector_diff d;

	if (!sector_diff(sector_bytes(in, s), b, ss, ev, &d))
		return;
	if (d.bits_back && nvs_erased(b, ss, ev))
		g_ptr_array_add(in->actions, g_strdup_printf("erase sector %u", s));
	else if (d.bits_back)
		g_ptr_array_add(in->actions,
				g_strdup_printf("erase sector %u and write %u bytes into it", s,
						d.written));
	else
		add_write_action(in, s, d.written, &d);
}

/*
 * Free space as Zephyr itself reports it: its O(n^2) count skips a live
 * entry whose id a later torn ATE carries, so it can differ from the exact
 * figure. Run on a second copy, only where its reads (valid ATEs x ATE
 * slots at most) stay within in->zephyr_free_max_reads.
 */
static uint64_t zephyr_free_slots(const struct inspect *in)
{
	return in->part_len / FC_MAX(8u, in->fgeo.write_size);
}

static void zephyr_free_space(struct inspect *in)
{
	uint8_t *mem;
	struct fc_ram_flash ram;
	struct fc_nvs fs;
	struct fc_nvs_config cfg;

	in->zephyr_free = -1;
	if ((uint64_t)in->stack_ates * zephyr_free_slots(in) > in->zephyr_free_max_reads)
		return;
	mem = g_memdup2(in->part, in->part_len);
	fc_ram_flash_init(&ram, &in->fgeo, mem);
	cfg = nvs_config(in, &ram.dev, NULL, NULL); /* Zephyr's reads: no window */
	cfg.lookup = FC_NVS_LOOKUP_ZEPHYR;
	cfg.index_slot_count = 0;
	if (fc_nvs_mount(&fs, &cfg) == 0)
		in->zephyr_free = fc_nvs_calc_free_space(&fs);
	g_free(mem);
}

static void note(const struct copy_flash *c, uint8_t *marks, uint32_t off, uint32_t len)
{
	uint32_t s;

	for (s = off / c->sector_size;
	     len && s < c->sectors && (uint64_t)s * c->sector_size < (uint64_t)off + len; s++)
		marks[s] = 1;
}

static int copy_read(void *ctx, uint32_t off, void *buf, uint32_t len)
{
	struct copy_flash *c = ctx;

	return c->ram.dev.read(c->ram.dev.ctx, off, buf, len);
}

static int copy_prog(void *ctx, uint32_t off, const void *buf, uint32_t len)
{
	struct copy_flash *c = ctx;

	note(c, c->touched, off, len);
	return c->ram.dev.prog(c->ram.dev.ctx, off, buf, len);
}

static int copy_erase(void *ctx, uint32_t off, uint32_t len)
{
	struct copy_flash *c = ctx;

	note(c, c->touched, off, len);
	note(c, c->erased, off, len);
	return c->ram.dev.erase(c->ram.dev.ctx, off, len);
}

void copy_flash_init(struct copy_flash *c, const struct fc_flash_geometry *g, uint8_t *copy,
		     uint32_t sectors)
{
	fc_ram_flash_init(&c->ram, g, copy);
	c->dev = c->ram.dev;
	c->dev.read = copy_read;
	c->dev.prog = copy_prog;
	c->dev.erase = copy_erase;
	c->dev.ctx = c;
	c->sector_size = g->erase_size;
	c->sectors = sectors;
	c->touched = g_new0(uint8_t, sectors);
	c->erased = g_new0(uint8_t, sectors);
}

void copy_flash_free(struct copy_flash *c)
{
	g_free(c->touched);
	g_free(c->erased);
	c->touched = c->erased = NULL;
}

/* Says why the mount of the copy failed: true when it did. */
bool mount_failed(struct inspect *in)
{
	if (in->mount_rc >= 0)
		return false;
	verdict(in, SEV_ERROR, "mount-fails", -1, -1, "a mount fails: %s",
		fc_strerror(in->mount_rc));
	return true;
}

/*
 * The mount of the copy and the walk of the dump touch disjoint memory, so
 * the mount runs on a second thread while the walk runs.
 */
static gpointer mount_thread(gpointer data)
{
	struct inspect *in = data;

	populate(in->copy, in->part_len);

	in->mount_rc = fc_nvs_mount(&in->fs, &in->mount_cfg);
	return NULL;
}

void mount_copy_start(struct inspect *in)
{
	copy_flash_init(&in->copy_dev, &in->fgeo, in->copy, in->geo.geo.sector_count);
	in->mount_cfg = nvs_config(in, &in->copy_dev.dev, in->index, in->mount_read_buf);
	in->mount_thread = g_thread_new("mount", mount_thread, in);
}

void mount_copy_finish(struct inspect *in)
{
	uint32_t s;

	g_thread_join(in->mount_thread);
	in->mount_thread = NULL;
	/* only sectors the mount wrote can differ from the dump */
	for (s = 0; s < in->geo.geo.sector_count; s++)
		if (in->copy_dev.touched[s])
			describe_change(in, s);
	if (mount_failed(in))
		return;
	in->free_space = fc_nvs_calc_free_space(&in->fs);
	zephyr_free_space(in);
}

void read_live(struct inspect *in)
{
	uint8_t *buf = g_malloc(in->geo.geo.sector_size);
	uint32_t id;

	/* Candidates: every id with a valid ATE in the dump (a mount only
	 * drops ATEs or copies them); the reads decide. */
	for (id = 0; id < FC_NVS_ID_SPECIAL; id++)
		if (in->ids[id / 8] & (1u << (id % 8)))
			add_live(in, id,
				 fc_nvs_read(&in->fs, (uint16_t)id, buf, in->geo.geo.sector_size),
				 buf, in->geo.geo.sector_size);
	g_free(buf);
}

static int setting_pair_cb(void *ctx, const struct fc_settings_entry *e)
{
	return add_setting(ctx, e->name, e->name_len, e->name_id, e->value, e->value_read);
}

static const char *settings_problem_text(enum fc_settings_problem_kind k)
{
	static const char *const texts[] = {
		[FC_SETTINGS_ORPHAN_NAME] = "name without its value (a load deletes both)",
		[FC_SETTINGS_ORPHAN_VALUE] = "value without its name (a load deletes both)",
		[FC_SETTINGS_COUNTER_TOP] = "last_name_id points at an absent pair (a load lowers it)",
		[FC_SETTINGS_COUNTER_MISSING] = "no last_name_id at id 0x8000: stored names are invisible",
		[FC_SETTINGS_COUNTER_BAD] = "last_name_id is not a u16 in 0x8000..0xbfff",
		[FC_SETTINGS_ABOVE_COUNTER] = "entry above last_name_id: a load never sees it",
		[FC_SETTINGS_NAME_INVALID] = "stored name is invalid (too long, '=' or NUL)",
		[FC_SETTINGS_READ_ERROR] = "read fails",
	};

	return name_of(texts, G_N_ELEMENTS(texts), k);
}

static int setting_problem_cb(void *ctx, const struct fc_settings_problem *p)
{
	struct inspect *in = ctx;

	if (p->kind == FC_SETTINGS_NAME_INVALID)
		return 0; /* check_names says what is wrong with it */
	if (p->kind == FC_SETTINGS_READ_ERROR)
		verdict(in, SEV_ERROR, "settings-read", -1, -1, "settings id 0x%04x: %s: %s", p->id,
			settings_problem_text(p->kind), fc_strerror(p->err));
	else
		verdict(in, SEV_WARNING,
			p->kind == FC_SETTINGS_ORPHAN_NAME || p->kind == FC_SETTINGS_ORPHAN_VALUE
				? "settings-orphan"
				: "settings-counter",
			-1, -1, "settings id 0x%04x (last_name_id 0x%04x): %s", p->id, p->counter,
			settings_problem_text(p->kind));
	return 0;
}

/*
 * Names Zephyr's settings do not take as stored: one holding a NUL byte
 * (damage: a C string ends there, so Zephyr's load hands the name before it
 * to the handlers, and that may be another stored name), '=' or longer than
 * FC_SETTINGS_NAME_MAX. in->settings is sorted by name, so a NUL name's
 * prefix, if stored too, is found by a binary search.
 */
static void check_name(struct inspect *in, const struct setting *s)
{
	const char *nul = memchr(s->name, 0, s->name_len);
	char *name = setting_name_text(s);

	if (nul) {
		struct setting key = { .name = s->name, .name_len = (size_t)(nul - s->name) };
		const struct setting *same = bsearch(&key, in->settings->data, in->settings->len,
						     sizeof(key), setting_by_name);
		char *as = setting_name_text(&key);

		if (same)
			verdict(in, SEV_ERROR, "settings-name", -1, -1,
				"settings id 0x%04x: name \"%s\" holds a NUL byte: Zephyr's load "
				"reads it as \"%s\", the name of id 0x%04x too",
				s->name_id, name, as, same->name_id);
		else
			verdict(in, SEV_WARNING, "settings-name", -1, -1,
				"settings id 0x%04x: name \"%s\" holds a NUL byte: Zephyr's load "
				"reads it as \"%s\"",
				s->name_id, name, as);
		g_free(as);
	} else if (memchr(s->name, '=', s->name_len) || s->name_len > FC_SETTINGS_NAME_MAX) {
		verdict(in, SEV_WARNING, "settings-name", -1, -1,
			"settings id 0x%04x: name \"%s\" is invalid (%s)", s->name_id, name,
			s->name_len > FC_SETTINGS_NAME_MAX ? "longer than 64 bytes" : "holds '='");
	}
	g_free(name);
}

void read_settings(struct inspect *in)
{
	struct fc_settings_scan_ops ops = { setting_pair_cb, setting_problem_cb };
	uint8_t *buf = g_malloc(in->geo.geo.sector_size);
	int rc = fc_settings_scan(&in->fs, buf, in->geo.geo.sector_size, &ops, in);

	guint i;

	g_array_sort(in->settings, setting_by_name);
	for (i = 0; i < in->settings->len; i++)
		check_name(in, &g_array_index(in->settings, struct setting, i));
	if (rc < 0)
		verdict(in, SEV_ERROR, "settings-scan", -1, -1, "settings scan fails: %s",
			fc_strerror(rc));
	g_free(buf);
}

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * zms_check.c - integrity verdicts on a ZMS dump, each naming its sector
 * and offset: slots of the log that are not valid ATEs (torn writes, an
 * older cycle, damage), values failing their CRC-32, bytes a power cut left
 * above the last value (Zephyr would program the next value over them),
 * sectors holding data without a valid header, headers of the other id
 * width, what a mount would rewrite, and a dump shorter or longer than the
 * partition.
 */
#include "zms_inspect.h"

static void check_ate(struct inspect *in, const struct fc_zms_ate_info *a, uint8_t cycle)
{
	struct zms_inspect *z = in->zms;
	uint32_t s = zms_addr_sector(z, a->addr), off = zms_addr_offset(z, a->addr);
	char *id = zms_id_text(z, a->id);

	if (a->status == FC_ZMS_ATE_BAD && a->cycle != cycle)
		verdict(in, SEV_ERROR, "ate-cycle", (int)s, off,
			"slot of the log holds an ATE of cycle %u, the sector's is %u (a stale or "
			"torn ATE): skipped", a->cycle, cycle);
	else if (a->status == FC_ZMS_ATE_BAD)
		verdict(in, SEV_ERROR, "ate-crc", (int)s, off,
			"slot of the log is not a valid ATE (crc8 mismatch: a torn write or damage; "
			"id %s len %u as stored): skipped", id, a->len);
	else if (a->status == FC_ZMS_ATE_LIVE && z->data_crc && a->len > (z->id64 ? 4u : 8u) &&
		 !a->data_crc_ok)
		verdict(in, SEV_ERROR, "data-crc", (int)s, (long)a->offset,
			"value of id %s (%u bytes, ATE at 0x%04x) fails its CRC-32: a read returns "
			"an error", id, a->len, off);
	g_free(id);
}

/*
 * A slot of the sector's cycle whose crc8 fails may still name a value
 * stored outside it, below its slot: offered unverified.
 */
static bool bad_names_value(const struct zms_inspect *z, const struct fc_zms_ate_info *a,
			    uint8_t cycle)
{
	return a->status == FC_ZMS_ATE_BAD && a->cycle == cycle && a->len > (z->id64 ? 4u : 8u) &&
	       (uint64_t)a->offset + a->len <= zms_addr_offset(z, a->addr);
}

static void salvage_zms_ate(struct inspect *in, const struct fc_zms_ate_info *a, uint8_t cycle)
{
	struct zms_inspect *z = in->zms;
	uint32_t s = zms_addr_sector(z, a->addr);

	if (!bad_names_value(z, a, cycle))
		return;
	salvage_value(in, a->addr, a->id, z->part + (size_t)s * z->sector_size, a->offset,
		      a->len);
}

/* The walk gives a sector's ATEs together: the salvaged ranges are per sector. */
static void check_ates(struct inspect *in)
{
	struct zms_inspect *z = in->zms;
	uint32_t last = UINT32_MAX;
	guint i;

	for (i = 0; i < z->ates->len; i++) {
		const struct fc_zms_ate_info *a = &g_array_index(z->ates, struct fc_zms_ate_info, i);
		uint32_t s = zms_addr_sector(z, a->addr);
		uint8_t cycle;

		if (s >= z->sectors)
			continue;
		if (s != last)
			g_array_set_size(in->salvaged, 0);
		last = s;
		cycle = g_array_index(z->sectors_info, struct fc_zms_sector_info, s).cycle;
		check_ate(in, a, cycle);
		salvage_zms_ate(in, a, cycle);
	}
}

/*
 * Where the values of sector s end, by the walk's valid ATEs and the damaged
 * ones that name a value (salvage offers it; 0: none outside).
 */
static uint32_t data_end(const struct zms_inspect *z, uint32_t s)
{
	uint32_t end = 0, wb = z->write_block;
	uint8_t cycle = g_array_index(z->sectors_info, struct fc_zms_sector_info, s).cycle;
	guint i;

	for (i = 0; i < z->ates->len; i++) {
		const struct fc_zms_ate_info *a = &g_array_index(z->ates, struct fc_zms_ate_info, i);
		uint32_t e = a->offset + ((a->len + wb - 1) & ~(wb - 1));
		bool valid = a->status != FC_ZMS_ATE_BAD && a->status != FC_ZMS_ATE_GC_DONE;

		if (zms_addr_sector(z, a->addr) == s && (valid || bad_names_value(z, a, cycle)) &&
		    a->len > (z->id64 ? 4u : 8u) && e <= z->sector_size)
			end = MAX(end, e);
	}
	return end;
}

/* Bytes between the last value and the next ATE slot of the write sector are erased. */
static void check_torn_data(struct inspect *in)
{
	struct zms_inspect *z = in->zms;
	uint32_t s = fc_zms_addr_sector(&z->fs, z->fs.ate_wra);
	uint32_t top = fc_zms_addr_offset(&z->fs, z->fs.ate_wra) + z->ate_size;
	uint32_t lo = data_end(z, s), hi = lo, first = 0;
	const uint8_t *sec = z->part + (size_t)s * z->sector_size;

	for (uint32_t o = lo; o < top && o < z->sector_size; o++)
		if (sec[o] != z->erase_value) {
			if (hi == lo)
				first = o;
			hi = o + 1;
		}
	if (hi == lo)
		return;
	verdict(in, SEV_WARNING, "torn-data", (int)s, first,
		"%u bytes between the last value (ending at 0x%04x) and the next ATE are not "
		"erased: a write cut by power loss. Zephyr's mount programs the next value over "
		"them (it reads back corrupted); libcore's steps over them", hi - first, lo);
	salvage_data(in, zms_addr(z, s, first), sec + first, hi - first);
}

static void check_sectors(struct inspect *in)
{
	struct zms_inspect *z = in->zms;
	uint32_t s;

	for (s = 0; s < z->sectors; s++) {
		const struct fc_zms_sector_info *si =
			&g_array_index(z->sectors_info, struct fc_zms_sector_info, s);
		const uint8_t *sec = z->part + (size_t)s * z->sector_size;

		if (si->state == FC_ZMS_SECTOR_UNUSED &&
		    !zms_slot_erased(sec, z->sector_size, z->erase_value))
			verdict(in, SEV_WARNING, "no-header", (int)s,
				(long)(z->sector_size - z->ate_size),
				"sector holds data but no valid empty ATE (an interrupted erase, or a "
				"damaged header): ZMS treats it as unused and will reuse it");
		else if (si->state != FC_ZMS_SECTOR_UNUSED && si->format != (z->id64 ? 1 : 0))
			verdict(in, SEV_WARNING, "format-mismatch", (int)s,
				(long)(z->sector_size - z->ate_size),
				"empty ATE says %s ids, the partition is read with %s ids: a mount "
				"ignores this sector", si->format ? "64-bit" : "32-bit",
				z->id64 ? "64-bit" : "32-bit");
	}
}

static void check_layout(struct inspect *in)
{
	struct zms_inspect *z = in->zms;

	if (z->missing)
		verdict(in, SEV_WARNING, "partition-cut", -1, (long)(z->part_len - z->missing),
			"the dump ends %u bytes short of %u sectors of %u bytes: the rest reads as "
			"erased", z->missing, z->sectors, z->sector_size);
	if (z->trailing)
		verdict(in, SEV_INFO, "trailing-bytes", -1, (long)z->part_len,
			"%u bytes after the last whole sector are not read", z->trailing);
	if (z->wb_conf == NVS_CONF_WEAK)
		verdict(in, SEV_INFO, "write-block-guess", -1, -1, "write block %u is a guess: %s",
			z->write_block, z->wb_why);
}

void zms_check(struct inspect *in)
{
	struct zms_inspect *z = in->zms;
	guint i;

	check_layout(in);
	check_ates(in);
	check_sectors(in);
	/* on a device without erase, old cycles' bytes above the data are normal */
	if (in->mount_rc >= 0 && !z->no_erase && in->actions->len == 0)
		check_torn_data(in);
	for (i = 0; i < in->actions->len; i++)
		verdict(in, SEV_WARNING, "mount-writes", -1, -1,
			"an interrupted garbage collection or erase: a mount would %s",
			(const char *)g_ptr_array_index(in->actions, i));
}

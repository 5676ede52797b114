/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * zms_int.h - what the zms*.c files share: the ATE codec and the log
 * primitives (zms_log.c), the id index (zms_index.c), Zephyr's lookup
 * cache kept for comparisons (zms_zephyr.c).
 */
#ifndef FDTCACHE_ZMS_INT_H
#define FDTCACHE_ZMS_INT_H

#include "fdtcache/zms.h"
#include "flash_int.h"

#define ZMS_NO_ADDR UINT32_MAX
#define ZMS_DEL_FLAG 1u      /* bit 0 of an index address: the ATE is a delete */
#define ZMS_EMPTY_LEN 0xffffu
#define ZMS_VERSION 1u
#define ZMS_MAGIC 0x42u
#define ZMS_SETTLE_READS 8u  /* reads of a suspect ATE at mount that must agree */

/* Byte 1: the cycle counter. */
static inline uint8_t zcycle(const struct fc_zms_ate *a)
{
	return a->raw[1];
}

/* Bytes 12-15: the data CRC (an empty ATE's: version, magic, format). */
#define ZMS_META_AT 12u

static inline uint32_t zmeta(const struct fc_zms_ate *a)
{
	return fc_get_le32(a->raw + ZMS_META_AT);
}

static inline uint8_t zhdr_version(const uint8_t *raw)
{
	return raw[ZMS_META_AT];
}

static inline uint8_t zhdr_magic(const uint8_t *raw)
{
	return raw[ZMS_META_AT + 1];
}

/* The ATE format: 0 for 32-bit ids, 1 for 64-bit ids. */
static inline uint8_t zhdr_format(const uint8_t *raw)
{
	return raw[ZMS_META_AT + 2] & 0xf;
}

/* ---- zms_log.c: addresses, flash, ATEs, sector headers, Zephyr's walk ---- */

static inline uint32_t zaddr(const struct fc_zms *fs, uint32_t sector, uint32_t offset)
{
	return sector << fs->addr_shift | offset;
}

static inline uint32_t zsect(const struct fc_zms *fs, uint32_t addr)
{
	return addr >> fs->addr_shift;
}

static inline uint32_t zoffs(const struct fc_zms *fs, uint32_t addr)
{
	return addr & ((1u << fs->addr_shift) - 1u);
}

#define zss(fs) ((fs)->cfg.sector_size)
#define zwbs(fs) flash_wbs((fs)->cfg.flash)
#define zal(fs, len) flash_al((fs)->cfg.flash, (len))
#define zerase_value(fs) flash_erase_value((fs)->cfg.flash)

static inline fc_zms_id_t zhead_id(const struct fc_zms *fs)
{
	return fs->cfg.id64 ? UINT64_MAX : UINT32_MAX;
}

static inline uint32_t znext(const struct fc_zms *fs, uint32_t s)
{
	return s + 1 == fs->cfg.sector_count ? 0 : s + 1;
}

static inline uint32_t zprev(const struct fc_zms *fs, uint32_t s)
{
	return s ? s - 1 : fs->cfg.sector_count - 1;
}

static inline uint32_t empty_slot(const struct fc_zms *fs)
{
	return zss(fs) - fs->ate_size;
}

static inline uint32_t close_slot(const struct fc_zms *fs)
{
	return zss(fs) - 2 * fs->ate_size;
}

/* Highest slot an entry or gc_done ATE may take. */
static inline uint32_t top_slot(const struct fc_zms *fs)
{
	return zss(fs) - 3 * fs->ate_size;
}

/* Where an ATE holds an inline value or a value's offset. */
static inline uint32_t zms_value_at(const struct fc_zms *fs)
{
	return FC_ZMS_ATE_BYTES - fs->inline_max; /* 8, or 12 with 64-bit ids */
}

/* An ATE's inline value bytes. */
static inline const uint8_t *zinline(const struct fc_zms *fs, const struct fc_zms_ate *a)
{
	return a->raw + zms_value_at(fs);
}

static inline bool zephyr_mode(const struct fc_zms *fs)
{
#ifdef FC_NO_EMULATION
	(void)fs;
	return false; /* FC_ZMS_LOOKUP_ZEPHYR is refused */
#else
	return fs->cfg.lookup == FC_ZMS_LOOKUP_ZEPHYR;
#endif
}

/* cfg.data_crc: values outside their ATE carry a CRC-32 (FC_NO_DATA_CRC: refused) */
static inline bool zms_data_crc(const struct fc_zms *fs)
{
#ifdef FC_NO_DATA_CRC
	(void)fs;
	return false;
#else
	return fs->cfg.data_crc;
#endif
}

int zms_flash_rd_(const struct fc_zms *fs, uint32_t addr, void *buf, uint32_t len);
int zms_flash_wr_(struct fc_zms *fs, uint32_t addr, const void *buf, uint32_t len);
int zms_erase_(struct fc_zms *fs, uint32_t s);
int zms_al_write_(struct fc_zms *fs, uint32_t addr, const uint8_t *data, uint32_t len);
int zms_dirty_end_(struct fc_zms *fs, uint32_t addr, uint32_t len, uint32_t *end);

bool zms_erased_(const struct fc_zms *fs, const struct fc_zms_ate *a);
int zms_ate_read_(const struct fc_zms *fs, uint32_t addr, struct fc_zms_ate *a);
/* A scan starts with cfg.read_buf holding nothing (the reads of each scan are its own). */
static inline void zms_win_reset_(struct fc_zms *fs)
{
	fs->win.len = 0;
}

int zms_win_ate_(struct fc_zms *fs, uint32_t addr, struct fc_zms_ate *a);
int zms_ate_read_cached_(struct fc_zms *fs, uint32_t addr, struct fc_zms_ate *a);
void zms_ate_entry_(const struct fc_zms *fs, uint8_t *b, fc_zms_id_t id, const uint8_t *data,
		    uint32_t len, uint32_t offset);
void zms_ate_special_(const struct fc_zms *fs, uint8_t *b, uint32_t offset, uint8_t cycle);
void zms_ate_empty_(const struct fc_zms *fs, uint8_t *b, uint8_t cycle);
void zms_ate_seal_(uint8_t *b);
int zms_ate_program_(struct fc_zms *fs, const uint8_t *b);

bool zms_valid_(const struct fc_zms_ate *a, uint8_t cycle);
bool zms_empty_valid_(const struct fc_zms *fs, const struct fc_zms_ate *a);
bool zms_close_valid_(const struct fc_zms *fs, const struct fc_zms_ate *a);
bool zms_gc_done_valid_(const struct fc_zms *fs, const struct fc_zms_ate *a);
uint8_t zms_format_(const struct fc_zms *fs);
int zms_header_(struct fc_zms *fs, uint32_t s);
int zms_closed_(struct fc_zms *fs, uint32_t s);
int zms_close_torn_(const struct fc_zms *fs, uint32_t s, const struct fc_zms_ate *close);
int zms_sector_cycle_(const struct fc_zms *fs, uint32_t s, uint8_t *cycle, struct fc_zms_ate *e);
int zms_ate_settled_(const struct fc_zms *fs, uint32_t addr, struct fc_zms_ate *a);
int zms_cycle_or_zero_(const struct fc_zms *fs, uint32_t s, uint8_t *cycle);
int zms_cycle_at_(const struct fc_zms *fs, uint32_t addr, uint32_t *last_sector, uint8_t *cycle);
int zms_prev_addr_(struct fc_zms *fs, uint32_t *addr);
int zms_find_id_(struct fc_zms *fs, fc_zms_id_t id, uint32_t start, uint32_t end,
		 struct fc_zms_ate *a, uint32_t *found);
uint32_t zms_max_steps_(const struct fc_zms *fs);
int zms_free_in_(const struct fc_zms *fs, uint32_t data_wra, uint32_t ate_wra);
int zms_data_crc_ok_(struct fc_zms *fs, uint32_t s, const struct fc_zms_ate *a, bool *ok);

/* zms.c: locate the write position and build the index, writing nothing. */
int zms_mount_ro_(struct fc_zms *fs, const struct fc_zms_config *cfg);

/* ---- zms_recover.c: the mount's recovery writes ---- */

/* zms_erase_and_empty_ - erase sector s and program its empty ATE. */
int zms_erase_and_empty_(struct fc_zms *fs, uint32_t s);

/* zms_enter_sector_ - take the cycle of write sector ws, which holds nothing, from a settled empty ATE. */
int zms_enter_sector_(struct fc_zms *fs, uint32_t ws);

/* zms_recover_gc_ - redo an interrupted GC, or the erase after it. */
int zms_recover_gc_(struct fc_zms *fs);

/* zms_move_past_torn_close_ - leave a write sector whose close ATE a cut tore. */
int zms_move_past_torn_close_(struct fc_zms *fs);

/* zms_close_above_torn_ - close the write sector at offset last, above an unsettled ATE. */
int zms_close_above_torn_(struct fc_zms *fs, uint32_t last);

/* ---- zms_gc.c: garbage collection and closing the write sector ---- */

/* zms_gc_ - collect the sector after the write sector into it (Zephyr's zms_gc). */
int zms_gc_(struct fc_zms *fs);

/* zms_sector_close_ - close the write sector and move to the next one. */
int zms_sector_close_(struct fc_zms *fs);

/* zms_sector_close_at_ - the same with the close ATE pointing at offset last. */
int zms_sector_close_at_(struct fc_zms *fs, uint32_t last);

/* ---- zms_index.c: exact id -> newest ATE map over the caller's slots ---- */

void zms_index_clear_(struct fc_zms *fs);
struct fc_zms_slot *zms_index_get_(const struct fc_zms *fs, fc_zms_id_t id);
void zms_index_note_(struct fc_zms *fs, fc_zms_id_t id, uint32_t addr, uint32_t len);
void zms_index_drop_sector_(struct fc_zms *fs, uint32_t s);
int zms_index_build_(struct fc_zms *fs);
int zms_index_free_space_(const struct fc_zms *fs);

static inline fc_zms_id_t zms_slot_id(const struct fc_zms_slot *slot)
{
	return (fc_zms_id_t)slot->id_hi << 32 | slot->id_lo;
}

/* ---- zms_zephyr.c: Zephyr's lookup cache (FC_NO_EMULATION: none) ---- */

#ifndef FC_NO_EMULATION
uint32_t zms_zcache_start_(const struct fc_zms *fs, fc_zms_id_t id);
void zms_zcache_note_(struct fc_zms *fs, fc_zms_id_t id, uint32_t addr);
void zms_zcache_fill_(struct fc_zms *fs, uint32_t addr);
void zms_zcache_drop_sector_(struct fc_zms *fs, uint32_t s);
int zms_zcache_rebuild_(struct fc_zms *fs);
#else
/* No cache to keep: a walk for an id the index refused starts at the newest ATE. */
static inline uint32_t zms_zcache_start_(const struct fc_zms *fs, fc_zms_id_t id)
{
	(void)id;
	return fs->ate_wra;
}
static inline void zms_zcache_note_(struct fc_zms *fs, fc_zms_id_t id, uint32_t addr)
{
	(void)fs, (void)id, (void)addr;
}
static inline void zms_zcache_fill_(struct fc_zms *fs, uint32_t addr)
{
	(void)fs, (void)addr;
}
static inline void zms_zcache_drop_sector_(struct fc_zms *fs, uint32_t s)
{
	(void)fs, (void)s;
}
static inline int zms_zcache_rebuild_(struct fc_zms *fs)
{
	(void)fs;
	return 0;
}
#endif

/* zms_log.c: Zephyr's free-space count, also for an index that refused ids. */
int zms_zephyr_free_space_(struct fc_zms *fs);

#endif /* FDTCACHE_ZMS_INT_H */

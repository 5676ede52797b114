/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * nvs_int.h - the NVS log, shared by the engine (nvs.c, nvs_index.c), the
 * Zephyr emulation (nvs_zephyr.c) and the walk for tools (nvs_walk.c).
 *
 * The log: data grows up from the start of a sector, ATE slots grow down
 * from its end; the last slot closes a full sector and points at its last
 * ATE. Sectors are used round-robin. Addresses are (sector << 16) | offset.
 * nvs_log.c reads and programs it (with the ATE cache), steps back through
 * it and locates its write position; nvs_ate.c holds the ATE byte layout.
 */
#ifndef FDTCACHE_NVS_INT_H
#define FDTCACHE_NVS_INT_H

#include "fdtcache/nvs.h"
#include "fdtcache/crc.h"
#include "flash_int.h"

#define NVS_CRC_SIZE 4u
#define NVS_BLOCK FLASH_BLOCK
#define NVS_DEL_FLAG 1u /* bit 0 of an index value: a delete ATE (slots are multiples of 8) */
#define NVS_NO_ADDR UINT32_MAX

/* ---- geometry and addresses ---- */

static inline uint32_t sect(uint32_t addr)
{
	return addr >> FC_NVS_ADDR_SECTOR_SHIFT;
}

static inline uint32_t offs(uint32_t addr)
{
	return addr & FC_NVS_ADDR_OFFSET_MASK;
}

static inline uint32_t mkaddr(uint32_t sector, uint32_t offset)
{
	return sector << FC_NVS_ADDR_SECTOR_SHIFT | offset;
}

#define ssize(fs) ((fs)->cfg.sector_size)
#define wbs(fs) flash_wbs((fs)->cfg.flash)
#define al(fs, len) flash_al((fs)->cfg.flash, (len))
#define erase_value(fs) flash_erase_value((fs)->cfg.flash)

/* cfg.data_crc, a constant false in an FC_NO_DATA_CRC build (which refuses it) */
#ifdef FC_NO_DATA_CRC
#define NVS_DATA_CRC(fs) ((void)(fs), false)
#define NVS_DATA_CRC_OFF true
#else
#define NVS_DATA_CRC(fs) ((fs)->cfg.data_crc)
#define NVS_DATA_CRC_OFF false
#endif

static inline uint32_t crc_size(const struct fc_nvs *fs)
{
	return NVS_DATA_CRC(fs) ? NVS_CRC_SIZE : 0;
}

/* Offset of the first ATE slot of a sector (the gc_done one after GC). */
static inline uint32_t top_slot(const struct fc_nvs *fs)
{
	return ssize(fs) - 2 * fs->ate_size;
}

/* Offset of a sector's close ATE slot. */
static inline uint32_t close_slot(const struct fc_nvs *fs)
{
	return ssize(fs) - fs->ate_size;
}

static inline uint32_t next_sector(const struct fc_nvs *fs, uint32_t s)
{
	return s + 1 == fs->cfg.sector_count ? 0 : s + 1;
}

static inline uint32_t prev_sector(const struct fc_nvs *fs, uint32_t s)
{
	return s ? s - 1 : fs->cfg.sector_count - 1u;
}

/* Bound on the ATEs a walk may visit: every slot of every sector. */
static inline uint32_t max_steps(const struct fc_nvs *fs)
{
	return fs->max_steps;
}

/* fc_nvs_ate_valid and fc_nvs_ate_close_valid with fs's geometry (no argument loads per call). */
bool nvs_ate_valid_(const struct fc_nvs *fs, const struct fc_nvs_ate *a);
bool nvs_close_valid_(const struct fc_nvs *fs, const struct fc_nvs_ate *a);
#define ate_valid(fs, a) nvs_ate_valid_((fs), (a))
#define close_valid(fs, a) nvs_close_valid_((fs), (a))

static inline bool is_gc_done(const struct fc_nvs *fs, const struct fc_nvs_ate *a)
{
	return a->len == 0 && a->id == FC_NVS_ID_SPECIAL && ate_valid(fs, a);
}

/* Bytes an entry of stored_len takes in the log (value and ATE slot); 0 for a delete (len 0). */
uint32_t nvs_entry_bytes_(const struct fc_nvs *fs, uint16_t stored_len);

/* Offset of sector s in the device. */
static inline uint32_t nvs_sector_dev_off_(const struct fc_nvs *fs, uint32_t s)
{
	return fs->cfg.offset + s * ssize(fs);
}

/* Offset of a log address in the device (a multiply, so reads tail-call the device). */
static inline uint32_t nvs_dev_off_(const struct fc_nvs *fs, uint32_t addr)
{
	return nvs_sector_dev_off_(fs, sect(addr)) + offs(addr);
}

/* ---- the ATE codec's fields-only decode (nvs_ate.c) ---- */

void nvs_ate_fields_(const uint8_t *b, uint8_t erase_value, struct fc_nvs_ate *a);
bool nvs_ate_crc_ok_(const uint8_t *b);

/* ---- flash access and the read window (nvs_log.c) ---- */

int nvs_check_config_(const struct fc_nvs_config *cfg);
int nvs_read_(const struct fc_nvs *fs, uint32_t addr, void *buf, uint32_t len);
int nvs_prog_(struct fc_nvs *fs, uint32_t addr, const void *buf, uint32_t len);
int nvs_dirty_end_(struct fc_nvs *fs, uint32_t addr, uint32_t len, uint32_t *end);
int nvs_ate_read_(const struct fc_nvs *fs, uint32_t addr, struct fc_nvs_ate *a);

/* ---- the ATE cache (nvs_ate_cache.c; FC_NO_ATE_CACHE leaves it out) ---- */

#ifdef FC_NO_ATE_CACHE
#define NVS_ATE_CACHE_OFF true /* a cfg.ate_cache is refused */
static inline void nvs_ate_cache_programmed_(struct fc_nvs *fs, uint32_t addr, const void *buf,
					     uint32_t len, int rc)
{
	(void)fs, (void)addr, (void)buf, (void)len, (void)rc;
}

static inline void nvs_ate_cache_erased_(struct fc_nvs *fs, uint32_t s)
{
	(void)fs, (void)s;
}

static inline int nvs_cached_ate_read_(struct fc_nvs *fs, uint32_t addr, struct fc_nvs_ate *a)
{
	return nvs_ate_read_(fs, addr, a);
}
#else
#define NVS_ATE_CACHE_OFF false
/* Keep the cache equal to flash after a program (rc: its result) or an erase of sector s. */
void nvs_ate_cache_programmed_(struct fc_nvs *fs, uint32_t addr, const void *buf, uint32_t len,
			       int rc);
void nvs_ate_cache_erased_(struct fc_nvs *fs, uint32_t s);
/* An ATE through the cache (a plain read when there is none). */
int nvs_cached_ate_read_(struct fc_nvs *fs, uint32_t addr, struct fc_nvs_ate *a);
#endif

/*
 * The read window: cfg.read_buf holds win.len bytes of one sector from
 * win.addr. Each scan starts with nvs_win_reset_ (the buffer may have been
 * used for something else, and flash may have changed since). A slot is
 * read through it: on a miss the window is refilled over the slot, aligned
 * to the window's size, or (up) starting at the slot, for scans that go
 * up. Without a read buffer every slot is read alone.
 */
static inline void nvs_win_reset_(struct fc_nvs *fs)
{
	fs->win.len = 0;
}

/*
 * The read window and each way of the ATE cache are windows (w): holds,
 * w has the slot at addr; get, on a miss w's buffer is refilled over the
 * slot, with the window's or the way's size, aligned to it or (up) from
 * the slot.
 */
static inline bool nvs_win_holds_(const struct fc_nvs_win *w, uint32_t addr)
{
	return w->len && sect(w->addr) == sect(addr) && addr >= w->addr &&
	       addr + FC_NVS_ATE_BYTES <= w->addr + w->len;
}

int nvs_win_get_(struct fc_nvs *fs, struct fc_nvs_win *w, uint32_t addr, bool up);

int nvs_slot_raw_(struct fc_nvs *fs, uint32_t addr, bool up, uint8_t *b, const uint8_t **raw);
int nvs_win_ate_(struct fc_nvs *fs, uint32_t addr, bool up, struct fc_nvs_ate *a);
int nvs_close_read_(const struct fc_nvs *fs, uint32_t s, struct fc_nvs_ate *a);
int nvs_sector_low_(struct fc_nvs *fs, uint32_t s, const struct fc_nvs_ate *close,
		    uint32_t *low);

/* ---- walking the log (nvs_log.c) ---- */

/* Age of an address, larger = older: sectors behind the write sector, then offset. */
uint32_t nvs_age_key_(const struct fc_nvs *fs, uint32_t addr);
int nvs_walk_prev_(struct fc_nvs *fs, uint32_t *addr, struct fc_nvs_ate *a);
int nvs_walk_find_(struct fc_nvs *fs, uint32_t *addr, uint16_t id, uint32_t limit,
		   struct fc_nvs_ate *a);

/*
 * Visiting ATE slots newest first, each read through the read window; fn
 * returns non-zero to stop, which the visit returns. Slots up: from the
 * slot at low to the top slot of its sector. Sector start: the lowest ATE
 * of a written sector other than the write sector (the window reset), or
 * NVS_SECTOR_ERASED when its close slot is erased. For each slot: every
 * slot of the written sectors (fn returns 0 or an error).
 */
#define NVS_SECTOR_ERASED 1
typedef int (*nvs_slot_fn)(struct fc_nvs *fs, uint32_t addr, const struct fc_nvs_ate *a,
			   void *arg);
int nvs_slots_up_(struct fc_nvs *fs, uint32_t low, nvs_slot_fn fn, void *arg);
int nvs_sector_start_(struct fc_nvs *fs, uint32_t s, uint32_t *low);
int nvs_for_each_slot_(struct fc_nvs *fs, nvs_slot_fn fn, void *arg);

/*
 * Check cfg, set up fs over it (unmounted, no index) and find the write
 * position, as Zephyr's mount finds it. Shared by mount and walk.
 */
int nvs_locate_(struct fc_nvs *fs, const struct fc_nvs_config *cfg);

/* ---- the exact index (nvs_index.c) ---- */

int nvs_index_put_(struct fc_nvs *fs, uint16_t id, uint32_t v, bool if_empty);

/*
 * FC_NO_INDEX builds the reader as it runs with no index slots (they are
 * refused): each lookup walks back from the newest ATE, as Zephyr's does.
 */
#if defined(FC_NO_INDEX) && !defined(FC_READONLY)
#error "FC_NO_INDEX is for readers (FC_READONLY); a writer without an index passes 0 index slots"
#endif
#ifdef FC_NO_INDEX
#define NVS_INDEX_OFF true
#define index_slots(fs) ((void)(fs), 0u)
#else
#define NVS_INDEX_OFF false
#define index_slots(fs) ((fs)->cfg.index_slot_count)
#endif

/* The index value of id without statistics: false when it lacks id (or has no slots). */
static inline bool nvs_index_get_(const struct fc_nvs *fs, uint16_t id, uint32_t *v)
{
	return index_slots(fs) && fc_cache_probe_get(&fs->index, id, v);
}
int nvs_index_slot_(struct fc_nvs *fs, uint32_t addr, const struct fc_nvs_ate *a, void *arg);

/*
 * How the engine looks ids up, counts free space and keeps its lookup
 * state: the exact index (nvs_index.c), or Zephyr's algorithms for
 * comparisons (nvs_zephyr.c, absent with FC_NO_EMULATION). The choice is
 * made here, once per operation, so neither the engine nor the index tests
 * the lookup mode.
 */
#define NVS_FIND_ATE 1u  /* lookup_find's want_ate */
#define NVS_FIND_WALK 2u /* and may_walk, in one argument */
int nvs_index_find_(struct fc_nvs *fs, uint16_t id, uint32_t *addr, struct fc_nvs_ate *a,
		    unsigned int how);
void nvs_index_note_(struct fc_nvs *fs, uint16_t id, uint32_t addr, bool del);
void nvs_index_forget_slot_(struct fc_nvs *fs, uint32_t addr, const struct fc_nvs_ate *a);
int nvs_index_build_(struct fc_nvs *fs);
int nvs_index_free_space_(struct fc_nvs *fs, uint32_t *space);

#ifdef FC_NO_EMULATION
#define NVS_EMULATED(fs) ((void)(fs), false)
#define NVS_EMULATED_OFF true /* FC_NVS_LOOKUP_ZEPHYR is refused */
#else
#define NVS_EMULATED_OFF false
#define NVS_EMULATED(fs) ((fs)->cfg.lookup == FC_NVS_LOOKUP_ZEPHYR)
int nvs_zephyr_find_(struct fc_nvs *fs, uint16_t id, uint32_t *addr, struct fc_nvs_ate *a,
		     bool may_walk);
void nvs_zephyr_note_(struct fc_nvs *fs, uint16_t id, uint32_t addr);
void nvs_zephyr_forget_(struct fc_nvs *fs, uint32_t s);
int nvs_zephyr_build_(struct fc_nvs *fs);
int nvs_zephyr_free_space_(struct fc_nvs *fs, uint32_t *space);
#endif

/*
 * Newest valid ATE of id. Returns 1 with *addr (and *a when want_ate; an
 * index hit on a delete fills a->len = 0 without reading), 0 when absent.
 * Without may_walk, only RAM state is asked: an id it lacks counts as absent.
 */
static inline int lookup_find(struct fc_nvs *fs, uint16_t id, uint32_t *addr,
			      struct fc_nvs_ate *a, bool want_ate, bool may_walk)
{
#ifndef FC_NO_EMULATION
	if (NVS_EMULATED(fs))
		return nvs_zephyr_find_(fs, id, addr, a, may_walk);
#endif
	return nvs_index_find_(fs, id, addr, a,
			       (want_ate ? NVS_FIND_ATE : 0) | (may_walk ? NVS_FIND_WALK : 0));
}

/* Remember that the ATE at addr is now the newest of id (a delete when del; not the special id). */
static inline void lookup_note(struct fc_nvs *fs, uint16_t id, uint32_t addr, bool del)
{
#ifndef FC_NO_EMULATION
	if (NVS_EMULATED(fs)) {
		nvs_zephyr_note_(fs, id, addr);
		return;
	}
#endif
	nvs_index_note_(fs, id, addr, del);
}

/*
 * Forget what the lookup state holds of sector s, which GC is about to
 * erase: of each valid special or delete ATE at addr there (slot), then of
 * the sector (GC has copied the newest of the other ATEs).
 */
static inline void lookup_forget_slot(struct fc_nvs *fs, uint32_t addr, const struct fc_nvs_ate *a)
{
	if (!NVS_EMULATED(fs))
		nvs_index_forget_slot_(fs, addr, a);
}

static inline void lookup_forget(struct fc_nvs *fs, uint32_t s)
{
#ifndef FC_NO_EMULATION
	if (NVS_EMULATED(fs)) {
		nvs_zephyr_forget_(fs, s);
		return;
	}
#endif
	/* (gap_addr matters only with gap; NVS_NO_ADDR's sector is no sector) */
	if (sect(fs->gap_addr) == s)
		fs->gap_addr = NVS_NO_ADDR;
}

/* Build the lookup state from the log (mount, restart of the write sector). */
static inline int lookup_build(struct fc_nvs *fs)
{
#ifndef FC_NO_EMULATION
	if (NVS_EMULATED(fs))
		return nvs_zephyr_build_(fs);
#endif
	return nvs_index_build_(fs);
}

/* Subtract the bytes in use from *space. */
static inline int lookup_free_space(struct fc_nvs *fs, uint32_t *space)
{
#ifndef FC_NO_EMULATION
	if (NVS_EMULATED(fs))
		return nvs_zephyr_free_space_(fs, space);
#endif
	return nvs_index_free_space_(fs, space);
}

/*
 * How the log is read. The emulation reads as Zephyr does, so its read
 * counts are Zephyr's: dirty ranges in Zephyr's blocks, ATE areas slot by
 * slot, backward walks ATE by ATE, no ATE cache, and an erased sector is
 * erased again.
 */
static inline uint32_t win_unit(const struct fc_nvs *fs)
{
	return NVS_EMULATED(fs) ? fs->ate_size : fs->cfg.read_buf_size;
}

static inline bool walk_alone(const struct fc_nvs *fs)
{
	return NVS_EMULATED(fs);
}

static inline bool erase_erased(const struct fc_nvs *fs)
{
	return NVS_EMULATED(fs);
}

#endif /* FDTCACHE_NVS_INT_H */

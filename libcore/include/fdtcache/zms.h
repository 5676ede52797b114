/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * zms.h - a Zephyr-compatible ZMS engine (Zephyr Memory Storage).
 *
 * Reads and writes Zephyr's ZMS format byte for byte: 16-byte ATEs (padded
 * to the write block) growing down from the end of each sector, each sector
 * headed by an empty ATE (cycle counter, format) and a close ATE; values of
 * up to 8 bytes (4 with 64-bit ids) inline in their ATE, larger ones growing
 * up from the sector start, optionally with a CRC-32 in the ATE. Works on
 * erasable flash and on devices without explicit erase (RRAM, MRAM).
 *
 * All state lives in the caller's struct fc_zms; the id index lives in
 * caller slots. Differences from Zephyr, on purpose: mount never lets the
 * next value be programmed over bytes a power cut left half-written, no
 * write block is programmed twice (a torn close ATE stays as it is and its
 * sector counts as closed), and with the index covering the ids, lookups,
 * misses and free space read no flash.
 *
 * Addresses are (sector << fs->addr_shift) | offset within the sector.
 */
#ifndef FDTCACHE_ZMS_H
#define FDTCACHE_ZMS_H

#include "fc_env.h"
#include "fc_err.h"
#include "flash.h"

#define FC_ZMS_ATE_BYTES 16  /* ATE size before padding to the write block */
#define FC_ZMS_BLOCK 32u     /* Zephyr's ZMS_BLOCK_SIZE: largest write block */
#define FC_ZMS_MIN_ATES 5u   /* a sector holds at least this many ATE slots */

/* An id: 32-bit ids use the low half; all-ones is reserved (the head id). */
typedef uint64_t fc_zms_id_t;

/* How lookups find an id's newest ATE. */
enum fc_zms_lookup {
	/* An exact id -> newest-ATE map in the index slots: with more slots
	 * than ids on flash (live or deleted; one slot stays empty) no
	 * lookup, miss or free-space query reads flash. With fewer, ids the
	 * map refused are found by Zephyr's walk and free space is counted
	 * Zephyr's way until the next mount. */
	FC_ZMS_LOOKUP_INDEX = 0,
	/* Zephyr's algorithms, for comparisons: every lookup walks the ATEs
	 * from the newest (from the slot of Zephyr's lookup cache when index
	 * slots are given: the slots then act as CONFIG_ZMS_LOOKUP_CACHE),
	 * free space is Zephyr's O(n^2) count, erases are verified by reading
	 * the sector back. What is programmed, and the power-loss rules, are
	 * the same in both modes. Refused (FC_EINVAL) in an FC_NO_EMULATION
	 * build. */
	FC_ZMS_LOOKUP_ZEPHYR,
};

/* One index slot (caller memory). */
struct fc_zms_slot {
	uint32_t id_lo, id_hi;
	uint32_t addr; /* newest ATE; bit 0 set: it is a delete; UINT32_MAX: empty slot */
	uint32_t len;  /* its value length */
};

struct fc_zms_config {
	const struct fc_flash *flash; /* erase unit must divide sector_size (erasable devices) */
	uint32_t offset;              /* partition start in the device */
	uint32_t sector_size;         /* bytes, at least FC_ZMS_MIN_ATES ATE slots */
	uint32_t sector_count;        /* >= 2 */
	bool no_erase;       /* device without explicit erase: writes overwrite, never erase */
	bool id64;           /* 64-bit ids (CONFIG_ZMS_ID_64BIT) */
	bool data_crc;       /* CRC-32 of values stored outside the ATE (CONFIG_ZMS_DATA_CRC) */
	bool rewrite_same;   /* write identical values and deletes of absent ids again, as
			      * Zephyr without CONFIG_ZMS_NO_DOUBLE_WRITE; false: they write nothing */
	enum fc_zms_lookup lookup;
	struct fc_zms_slot *index_slots; /* may be NULL when index_slot_count is 0 */
	uint32_t index_slot_count;       /* 0 or a power of two */
	/* Optional RAM copy of one aligned window of an ATE area
	 * (ate_cache_size bytes), so the ATE reads of lookups that land near
	 * each other cost one flash read. Kept equal to flash by every
	 * program and erase. INDEX mode only. */
	uint8_t *ate_cache;      /* may be NULL when ate_cache_size is 0 */
	uint32_t ate_cache_size; /* 0 (off) or a power of two >= 2 ATE slots, <= sector_size */
	/* Optional caller memory through which mount, GC, the index build and
	 * the walk scan ATE areas (aligned windows of read_buf_size bytes, one
	 * read each), check erased ranges and data CRCs longer than
	 * FC_ZMS_BLOCK (shorter ones take one read through a piece on the
	 * stack, so a scan keeps its window), and writes compare a
	 * stored value (in FC_ZMS_BLOCK pieces, as Zephyr), so the engine
	 * keeps no larger buffer on the stack. FC_ZMS_READ_BUF_SIZE bytes give
	 * the read counts this library documents; a smaller buffer more,
	 * shorter reads. NULL (size 0): ATE slots are read one at a time,
	 * erased ranges and CRCs in FC_ZMS_BLOCK pieces, stored values compared
	 * in 16-byte pieces. Zephyr mode reads slot by slot either way. Its
	 * contents are scratch within each call. */
	uint8_t *read_buf;      /* may be NULL when read_buf_size is 0 */
	uint32_t read_buf_size; /* 0 or a power of two >= FC_ZMS_BLOCK */
};

#define FC_ZMS_READ_BUF_SIZE 256u /* the read buffer of the documented read counts */

/* private: len bytes of one sector held in RAM from address addr (len 0: none) */
struct fc_zms_win {
	uint32_t addr, len;
};

/* private: a decoded ATE (32 bytes) */
struct fc_zms_ate {
	fc_zms_id_t id;
	uint32_t offset;   /* bytes 8-11 (32-bit ids) or 12-15 (64-bit ids) */
	uint16_t len;
	bool crc_ok;
	bool in_range;     /* a value outside the ATE ends below its slot */
	uint8_t raw[FC_ZMS_ATE_BYTES];
};

struct fc_zms {
	struct fc_zms_config cfg;
	bool mounted;
	uint8_t addr_shift;   /* log2 of sector_size rounded up to a power of two */
	uint8_t inline_max;   /* 8, or 4 with 64-bit ids */
	uint8_t sector_cycle; /* cycle counter of the write sector */
	uint32_t ate_size;    /* ATE slot size: 16 rounded up to the write block */
	uint32_t ate_wra;     /* where the next ATE goes */
	uint32_t data_wra;    /* where the next value goes */
	/* private: the engine's (zms*.c) */
	uint32_t index_used;   /* slots holding an id */
	uint8_t index_bits;    /* log2 of index_slot_count */
	bool index_refused;    /* an id found no slot: misses walk, free space counts */
	struct fc_zms_win cache_win; /* what cfg.ate_cache holds */
	uint32_t torn_sector;    /* left with a torn close ATE by this mount, or UINT32_MAX */
	struct fc_zms_win win;   /* what cfg.read_buf holds */
	/* the sector header read last (zms_header_, zms_closed_, a new empty
	 * ATE's cycle): here, not in the frames of the walk to an id's newest
	 * ATE, which checks whether a sector is closed at each sector step */
	struct fc_zms_ate empty, close;
};

/*
 * fc_zms_mount - validate cfg, find the write position and recover from an
 * interrupted write, GC or erase as Zephyr does (an interrupted GC is done
 * again; a sector left closed after a completed GC is erased), then build
 * the index. Unlike Zephyr, values half-written by a power cut are stepped
 * over, never programmed over, and the cuts Zephyr loses entries to are
 * recovered: a write sector left without its empty ATE, a torn delete in a
 * sector's last slot, a cut erase of the sector after the write sector.
 * With FC_READONLY nothing is repaired and nothing written: reads see what
 * Zephyr reads after its own recovery, an interrupted GC's copies included.
 *
 * *cfg is copied into fs; the memory it points to (the device, the index
 * slots, the ATE cache, the read buffer) is used until fs is no longer
 * used, and the caller must not touch the slots or the cache meanwhile (the
 * read buffer holds nothing from one call to the next: fs used one at a
 * time may share one). fs may be mounted again
 * at any time (after an error, to drop its RAM state). fs and cfg must not
 * be NULL.
 *
 * returns:
 *	0, mounted
 *	FC_EINVAL, a bad configuration: no device, write block 0 or > 32,
 *		sector size not a multiple of the ATE slot or of the erase unit
 *		(erasable devices) or below FC_ZMS_MIN_ATES slots or above 1 GiB,
 *		fewer than 2 sectors, partition not erase-aligned or past the
 *		device, addresses that do not fit 32 bits, slot count not 0 or a
 *		power of two (or slots NULL), ATE cache size not 0 or a power of
 *		two of 2 ATE slots up to sector_size (or cache NULL), read
 *		buffer size not 0 or a power of two >= FC_ZMS_BLOCK (or buffer
 *		NULL), id64 with data_crc, FC_ZMS_LOOKUP_ZEPHYR in an
 *		FC_NO_EMULATION build, data_crc in an FC_NO_DATA_CRC build
 *	FC_ENOTSUP, every sector is closed and none carries ZMS's magic (not
 *		a ZMS partition)
 *	FC_ECORRUPT, an ATE version this engine does not know, or an ATE
 *		area that cannot be made sense of
 *	a flash error (FC_EIO, FC_EPOWER, FC_ENOTERASED, FC_EROFS...; in
 *		Zephyr mode FC_EIO also for an erase that reads back not erased)
 *	On every error fs is left unmounted.
 */
int fc_zms_mount(struct fc_zms *fs, const struct fc_zms_config *cfg);

/*
 * fc_zms_read - copy up to len bytes of id's newest value into data (NULL
 * with len 0 learns the length). With cfg->data_crc, the CRC-32 of a value
 * stored outside its ATE is checked when the whole value fits in len.
 *
 * returns:
 *	the stored length (>= 0; may exceed len, then only len bytes are copied)
 *	FC_ENOTMOUNTED, fs is not mounted
 *	FC_EINVAL, data NULL with len > 0
 *	FC_ENOENT, id is not stored (never written, or deleted)
 *	FC_EBADCRC, the value fails its CRC-32 (data holds the bytes read)
 *	FC_ECORRUPT, the ATE places its value outside the sector, or a walk
 *		found no end
 *	a flash error
 *	fs stays mounted in every case.
 */
int fc_zms_read(struct fc_zms *fs, fc_zms_id_t id, void *data, size_t len);

/*
 * fc_zms_read_hist - fc_zms_read for the cnt-th older value of id (0 = the
 * newest), walking back through the log and counting deletes as Zephyr
 * does.
 *
 * returns:
 *	the stored length of that value
 *	FC_ENOENT, id has fewer than cnt + 1 values on flash, or that one is a
 *		delete
 *	the other errors of fc_zms_read; fs stays mounted in every case
 */
int fc_zms_read_hist(struct fc_zms *fs, fc_zms_id_t id, void *data, size_t len, uint32_t cnt);

/*
 * fc_zms_calc_free_space - bytes the partition would have free after GC of
 * every sector but one, as zms_calc_free_space() computes it on a 32-bit
 * target. O(1) with the index covering the ids; otherwise (and in Zephyr
 * mode) Zephyr's count over every ATE.
 *
 * returns:
 *	the bytes (>= 0)
 *	FC_ENOTMOUNTED, fs is not mounted
 *	FC_ECORRUPT, a walk found no end
 *	a flash error
 *	fs stays mounted in every case.
 */
int fc_zms_calc_free_space(struct fc_zms *fs);

/*
 * fc_zms_active_sector_free_space - free bytes in the write sector, as
 * zms_active_sector_free_space(). Reads no flash.
 *
 * returns:
 *	the bytes (>= 0)
 *	FC_ENOTMOUNTED, fs is not mounted
 */
int fc_zms_active_sector_free_space(struct fc_zms *fs);

#ifndef FC_READONLY /* FC_READONLY: no writes, deletes, clear, GC or recovery that writes */
/*
 * fc_zms_clear - erase every sector and give each its empty ATE, as
 * zms_clear().
 *
 * returns:
 *	0, the partition is empty
 *	FC_ENOTMOUNTED, fs is not mounted
 *	a flash error, some sectors may still hold data
 *	In every case fs is left unmounted: mount it again to use it.
 */
int fc_zms_clear(struct fc_zms *fs);

/*
 * fc_zms_write - store len bytes of data under id (len 0: delete id),
 * closing the write sector and collecting the oldest one when it is full.
 * data is read during the call only.
 *
 * returns:
 *	len, written
 *	0, nothing written: the stored value is identical, or a delete found
 *		nothing to delete (unless cfg->rewrite_same)
 *	FC_ENOTMOUNTED, fs is not mounted
 *	FC_EINVAL, id is the head id (all ones), id above 32 bits without
 *		cfg->id64, or data NULL with len > 0
 *	FC_ETOOBIG, len above 65535 or above sector_size less 5 ATE slots
 *	FC_ENOSPC, no room even after collecting every sector (fs stays
 *		mounted)
 *	FC_ECORRUPT, GC found a value outside its sector (fs is unmounted)
 *	a flash error (fs is unmounted: its RAM state may no longer match
 *		the flash; mount again, which recovers)
 */
int fc_zms_write(struct fc_zms *fs, fc_zms_id_t id, const void *data, size_t len);

/* Hints for fc_zms_write_hint (see nvs.h: a wrong hint loses nothing). */
#define FC_ZMS_HINT_CHANGED 1u /* the stored value differs: skip the compare */
#define FC_ZMS_HINT_ABSENT 2u  /* id is not stored: skip the lookup too */

/*
 * fc_zms_write_hint - fc_zms_write with FC_ZMS_HINT_* bits (0 = fc_zms_write):
 * a hinted write never reads the stored value, and with FC_ZMS_HINT_ABSENT
 * never walks the flash. The index stays exact.
 *
 * returns:
 *	len, written (also when the stored value was identical: a write
 *		hinted FC_ZMS_HINT_CHANGED does not compare)
 *	0, a delete found nothing to delete
 *	FC_EINVAL, unknown hint bits, or as fc_zms_write
 *	the other errors of fc_zms_write, leaving fs in the same state
 */
int fc_zms_write_hint(struct fc_zms *fs, fc_zms_id_t id, const void *data, size_t len,
		      unsigned int hints);

/*
 * fc_zms_delete - remove id: fc_zms_write(fs, id, NULL, 0).
 *
 * returns:
 *	0, deleted, or id was not stored
 *	the errors of fc_zms_write, leaving fs in the same state
 */
int fc_zms_delete(struct fc_zms *fs, fc_zms_id_t id);

/*
 * fc_zms_sector_use_next - close the write sector and move to the next one,
 * collecting the oldest sector (GC copies its live entries and erases it),
 * as zms_sector_use_next().
 *
 * returns:
 *	0, done
 *	FC_ENOTMOUNTED, fs is not mounted
 *	FC_ECORRUPT, GC found a value outside its sector
 *	a flash error
 *	On every error but FC_ENOTMOUNTED fs is left unmounted: mount again,
 *	which recovers the interrupted GC.
 */
int fc_zms_sector_use_next(struct fc_zms *fs);
#endif /* FC_READONLY */

/*
 * fc_zms_addr_sector - the sector part of an address of a mounted fs.
 *
 * returns:
 *	the sector number
 */
static inline uint32_t fc_zms_addr_sector(const struct fc_zms *fs, uint32_t addr)
{
	return addr >> fs->addr_shift;
}

/*
 * fc_zms_addr_offset - the offset part of an address of a mounted fs.
 *
 * returns:
 *	the offset within the sector
 */
static inline uint32_t fc_zms_addr_offset(const struct fc_zms *fs, uint32_t addr)
{
	return addr & ((1u << fs->addr_shift) - 1u);
}

/* ---- read-only walk, for tools ---- */

enum fc_zms_sector_state {
	FC_ZMS_SECTOR_UNUSED, /* no valid empty ATE (erased or never given one) */
	FC_ZMS_SECTOR_OPEN,   /* valid empty ATE, not closed */
	/* valid empty and close ATEs with equal cycles, or a torn close ATE
	 * the mount counts as closed (the next sector holds a gc_done ATE) */
	FC_ZMS_SECTOR_CLOSED,
};

enum fc_zms_ate_status {
	FC_ZMS_ATE_LIVE,      /* newest valid ATE of its id, with a value */
	FC_ZMS_ATE_STALE,     /* a newer valid ATE of the same id exists */
	FC_ZMS_ATE_DELETED,   /* newest ATE of its id is this delete */
	FC_ZMS_ATE_GC_DONE,   /* gc_done marker */
	FC_ZMS_ATE_BAD,       /* slot in the log that is not a valid ATE (torn, stale cycle) */
};

struct fc_zms_sector_info {
	uint32_t sector;
	uint32_t age;        /* 0 = the write sector, 1 = the one before... */
	enum fc_zms_sector_state state;
	bool in_log;         /* part of the chain the engine reads */
	uint8_t cycle;       /* empty ATE's cycle counter (state != UNUSED) */
	uint8_t close_cycle; /* close ATE's cycle byte as stored */
	uint8_t format;      /* empty ATE's ATE format (0: 32-bit ids, 1: 64-bit) */
	uint8_t version;     /* empty ATE's version */
	uint32_t live, stale, deleted, bad; /* ATE counts */
	uint32_t live_bytes; /* values outside ATEs of live entries, padded */
};

struct fc_zms_ate_info {
	uint32_t addr;
	fc_zms_id_t id;
	uint32_t len;
	uint32_t offset;     /* value offset in the sector when len > inline size */
	uint8_t cycle;
	uint8_t raw[FC_ZMS_ATE_BYTES];
	enum fc_zms_ate_status status;
	bool data_crc_ok;    /* meaningful only with cfg->data_crc and a value outside */
};

struct fc_zms_walk_ops {
	/* Either may be NULL; a non-zero return stops the walk and is returned. */
	int (*sector)(void *ctx, const struct fc_zms_sector_info *info);
	int (*ate)(void *ctx, const struct fc_zms_ate_info *info);
};

/*
 * fc_zms_walk - visit every sector of the log (newest first) with its ATEs
 * (newest first), then the sectors outside the log, without writing; a
 * sector's info comes after its ATEs, which its counts are made of. The log
 * is located as fc_zms_mount locates it, but nothing is recovered. cfg's
 * device is only read; its index slots are scratch (to tell live from
 * stale) and must cover every id present. The info structs passed to the
 * callbacks live only during the call.
 *
 * returns:
 *	0, every sector visited
 *	a callback's non-zero value, which stopped the walk
 *	FC_EINVAL, ops NULL, cfg->lookup not FC_ZMS_LOOKUP_INDEX, or a bad
 *		cfg (as fc_zms_mount)
 *	FC_ENOMEM, fewer index slots than the ids present
 *	FC_ENOTSUP, not a ZMS partition (as fc_zms_mount)
 *	FC_ECORRUPT, an ATE area that cannot be made sense of
 *	a flash error
 */
int fc_zms_walk(const struct fc_zms_config *cfg, const struct fc_zms_walk_ops *ops, void *ctx);

/* A sector header: the empty ATE ZMS writes at a sector's end after each erase. */
struct fc_zms_header {
	uint8_t cycle;   /* the sector's cycle counter */
	uint8_t format;  /* ATE format: 0 for 32-bit ids, 1 for 64-bit ids */
	uint8_t version; /* ZMS's version number */
};

/*
 * fc_zms_header_decode - whether the FC_ZMS_ATE_BYTES at raw are a ZMS
 * sector header (length 0xffff, the all-ones id of its format's width, a
 * valid crc8 and ZMS's magic), for tools that look for ZMS in a dump of
 * unknown geometry. Reads only raw; needs no mounted fs.
 *
 * returns:
 *	0, a header of the version this engine reads; *h holds its fields
 *	FC_ENOTSUP, a header of another version (*h holds its fields)
 *	FC_ENOENT, not a ZMS sector header
 *	FC_EINVAL, raw or h NULL
 */
int fc_zms_header_decode(const void *raw, struct fc_zms_header *h);

#endif /* FDTCACHE_ZMS_H */

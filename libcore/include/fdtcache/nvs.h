/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * nvs.h - a Zephyr-compatible NVS engine (id-keyed values in NOR flash).
 *
 * Reads and writes Zephyr's on-flash format byte for byte: 8-byte ATEs
 * (padded to the write block) growing down from the end of each sector, data
 * growing up from its start, close and gc_done ATEs, optional CRC-32 after
 * each value. All state lives in the caller's struct fc_nvs; the id index
 * lives in caller slots.
 *
 * Addresses are (sector << 16) | offset within the sector, as in Zephyr.
 */
#ifndef FDTCACHE_NVS_H
#define FDTCACHE_NVS_H

#include "fc_env.h"
#include "fc_err.h"
#include "cache.h"
#include "flash.h"

#define FC_NVS_ATE_BYTES 8  /* ATE size before padding to the write block */
#define FC_NVS_ADDR_SECTOR_SHIFT 16
#define FC_NVS_ADDR_OFFSET_MASK 0xffffu

/*
 * The allocation table entry (ATE), FC_NVS_ATE_BYTES on flash, each integer
 * little-endian: id (2 bytes), data offset within the sector (2), data
 * length as stored (2, including the CRC-32 when data CRCs are on), part
 * (1, written as FC_NVS_ATE_PART), crc8-ccitt of the first 7 bytes (1).
 * On flash it is padded to the write block with the erase value.
 */
#define FC_NVS_ID_SPECIAL 0xffffu /* id of close and gc_done ATEs (length 0) */
#define FC_NVS_ATE_PART 0xffu

struct fc_nvs_ate {
	uint16_t id;
	uint16_t offset;
	uint16_t len;
	uint8_t part;
	uint8_t crc8;
	bool crc_ok; /* crc8 matches the first 7 bytes */
	bool erased; /* all FC_NVS_ATE_BYTES bytes are the erase value */
};

/*
 * fc_nvs_ate_encode - write the FC_NVS_ATE_BYTES bytes of an ATE {id,
 * offset, len} into out, with part FC_NVS_ATE_PART and its crc8, as the
 * engine writes them. Padding to the write block is the caller's.
 *
 * returns: nothing; out must hold FC_NVS_ATE_BYTES bytes.
 */
void fc_nvs_ate_encode(uint8_t *out, uint16_t id, uint16_t offset, uint16_t len);

/*
 * fc_nvs_ate_decode - decode the FC_NVS_ATE_BYTES raw bytes at in (as read
 * from flash) into *ate, checking the crc8 and whether every byte is
 * erase_value.
 *
 * returns: nothing; every field of *ate is set.
 */
void fc_nvs_ate_decode(const uint8_t *in, uint8_t erase_value, struct fc_nvs_ate *ate);

/*
 * fc_nvs_ate_valid - is a decoded ATE one the engine trusts: crc8 right,
 * part FC_NVS_ATE_PART (never a torn slot's erased tail) and its data inside
 * the data area of a sector of sector_size bytes with ATE
 * slots of ate_size bytes (8 rounded up to the write block)?
 *
 * returns: true when valid, false otherwise.
 */
bool fc_nvs_ate_valid(const struct fc_nvs_ate *ate, uint32_t sector_size, uint32_t ate_size);

/*
 * fc_nvs_ate_close_valid - is a decoded ATE, read from a sector's last slot,
 * a valid close ATE: valid, FC_NVS_ID_SPECIAL, length 0, and its offset (the
 * sector's lowest ATE) on an ATE slot boundary above slot 0?
 *
 * returns: true when it closes the sector, false otherwise.
 */
bool fc_nvs_ate_close_valid(const struct fc_nvs_ate *ate, uint32_t sector_size,
			    uint32_t ate_size);

/* How lookups find an id's newest ATE. */
enum fc_nvs_lookup {
	/* An exact id -> ATE map in the index slots (FC_CACHE_PROBE); with
	 * at least as many slots as ids on flash (live or deleted) no
	 * lookup, miss or free-space query reads flash. With
	 * fewer, ids the map refused are found by walking back to the oldest
	 * refused ATE. Free space is O(1), except the first query after a
	 * mount whose map overflowed: it reads the ATE areas once per group
	 * of 1024 ids holding ids the map refused. */
	FC_NVS_LOOKUP_INDEX = 0,
	/* Zephyr's algorithms, for comparisons (not with FC_NO_EMULATION:
	 * FC_EINVAL): the slots act as Zephyr's lookup cache (newest ATE of the ids hashing to a slot, walk from
	 * there); free space is computed Zephyr's O(n^2) way. No slots:
	 * Zephyr without CONFIG_NVS_LOOKUP_CACHE. */
	FC_NVS_LOOKUP_ZEPHYR,
};

struct fc_nvs_config {
	const struct fc_flash *flash; /* erase unit must divide sector_size */
	uint32_t offset;              /* partition start in the device (erase-aligned) */
	uint32_t sector_size;         /* bytes, a multiple of the erase unit, <= 65536 */
	uint16_t sector_count;        /* >= 2 */
	bool data_crc;                /* CRC-32 after each value (CONFIG_NVS_DATA_CRC) */
	enum fc_nvs_lookup lookup;
	struct fc_cache_slot *index_slots; /* may be NULL when index_slot_count is 0 */
	uint32_t index_slot_count;         /* 0 or a power of two */
	/* Optional RAM copy of FC_NVS_ATE_CACHE_WAYS aligned windows of ATE
	 * areas (ate_cache_size / WAYS bytes each, least recently used one
	 * refilled), so ATE reads of lookups that land near each other (a
	 * settings name and its value, the next name) cost no flash read. Kept
	 * equal to flash by every program and erase. INDEX mode only; none in
	 * an FC_NO_ATE_CACHE build. */
	uint8_t *ate_cache;      /* may be NULL when ate_cache_size is 0 */
	uint32_t ate_cache_size; /* 0 (off) or a power of two >= WAYS ATE slots */
	/* Optional caller memory through which mount, GC and walks scan ATE
	 * areas (aligned windows of read_buf_size bytes, one read each) and
	 * check erased ranges, so the engine keeps no such buffer on the
	 * stack. FC_NVS_READ_BUF_SIZE bytes give the read counts this
	 * library documents; a smaller buffer more, shorter reads. NULL (size
	 * 0): ATE slots are read one at a time and erased ranges in
	 * FC_NVS_BLOCK pieces, as Zephyr reads them. Zephyr mode reads slot
	 * by slot either way. */
	uint8_t *read_buf;      /* may be NULL when read_buf_size is 0 */
	uint32_t read_buf_size; /* 0 or a power of two >= FC_NVS_BLOCK */
};

#define FC_NVS_READ_BUF_SIZE 256u /* the read buffer of the documented read counts */
#define FC_NVS_BLOCK 32u          /* Zephyr's NVS_BLOCK_SIZE, the smallest read buffer */

#define FC_NVS_ATE_CACHE_WAYS 2

/* private: len bytes of one sector held in RAM from log address addr (0: none) */
struct fc_nvs_win {
	uint32_t addr, len;
};

/* A mounted partition, allocated by the caller (stack or static). */
struct fc_nvs {
	struct fc_nvs_config cfg; /* the mount's copy */
	bool mounted;
	uint32_t ate_size;  /* ATE slot size: 8 rounded up to the write block */
	uint32_t ate_wra;   /* where the next ATE goes */
	uint32_t data_wra;  /* where the next data goes */
	struct fc_cache index; /* over cfg.index_slots: statistics may be read */
	/* private: the engine's (the most used first: short offsets on Thumb) */
	uint32_t live_bytes;   /* align(len) + ATE slot summed over live entries */
	uint32_t gc_done_ates; /* valid gc_done ATEs in the written sectors */
	struct fc_nvs_win win; /* what cfg.read_buf holds */
	uint32_t max_steps;    /* bound on a walk: every slot of every sector */
	bool live_unknown;     /* live_bytes not counted (the index overflowed at
				* mount): the next free-space query counts them */
	bool gap;              /* the index refused an id: ids it lacks are looked */
	bool torn_last;        /* mount: the write sector's newest ATE is out of order */
	uint32_t gap_addr;     /* up by walking back to here (UINT32_MAX: everything) */
	struct fc_nvs_win ate_cache[FC_NVS_ATE_CACHE_WAYS]; /* what each way holds */
	uint32_t ate_cache_lru;                             /* way to refill next */
};

/*
 * fc_nvs_mount - validate cfg, find the write position and recover from an
 * interrupted write, GC or erase (recovery programs and erases, as Zephyr's
 * mount does). With FC_READONLY nothing is repaired and nothing written:
 * reads return what they return after a repairing mount.
 *
 * *cfg is copied into fs; the memory it points to (the device, the index
 * slots, the ATE cache, the read buffer) is used until the fs is no longer
 * used, and the caller must not touch the slots or the caches meanwhile. fs may be
 * mounted again at any time (after an error, to drop its RAM state).
 *
 * returns:
 *	0, mounted
 *	FC_EINVAL, fs or cfg NULL, or a bad configuration: no device, write
 *		block > 32, sector size not a multiple of the erase unit and the
 *		ATE slot or outside 6 slots..65536, fewer than 2 sectors,
 *		partition not erase-aligned or past the device, slot count not 0
 *		or a power of two, ATE cache size not 0 or a power of two holding
 *		FC_NVS_ATE_CACHE_WAYS ATE slots (not 0 in an FC_NO_ATE_CACHE
 *		build), read buffer size not 0 or a power of two >= FC_NVS_BLOCK
 *		(or no read buffer with a size), an unknown lookup (or
 *		FC_NVS_LOOKUP_ZEPHYR in an FC_NO_EMULATION build), data_crc
 *		in an FC_NO_DATA_CRC build
 *	FC_ECORRUPT, the partition cannot be made sense of (every sector
 *		closed, an endless ATE chain)
 *	FC_ENOSPC, an interrupted GC cannot be completed
 *	a flash error (FC_EIO, FC_EPOWER, FC_ENOTERASED, FC_EROFS...)
 *	On every error fs is left unmounted.
 */
int fc_nvs_mount(struct fc_nvs *fs, const struct fc_nvs_config *cfg);

#ifndef FC_READONLY /* FC_READONLY: no writes, deletes, GC or repairs */
/*
 * fc_nvs_clear - erase every sector of the partition.
 *
 * returns:
 *	0, the partition is erased
 *	FC_ENOTMOUNTED, fs is NULL or not mounted
 *	a flash error, some sectors may still hold data
 *	In every case fs is left unmounted: mount it again to use it.
 */
int fc_nvs_clear(struct fc_nvs *fs);

/*
 * fc_nvs_write - store len bytes of data under id (len 0: delete id),
 * running GC when the write sector is full. data is read during the call
 * only.
 *
 * returns:
 *	len, written
 *	0, the stored value is identical, or a delete found nothing (nothing
 *		written)
 *	FC_ENOTMOUNTED, fs is NULL or not mounted
 *	FC_EINVAL, id FC_NVS_ID_SPECIAL, or data NULL with len > 0
 *	FC_ETOOBIG, len does not fit in one sector with its ATEs
 *	FC_ENOSPC, no room even after collecting every sector (fs stays mounted)
 *	FC_ECORRUPT, an ATE the index names is no longer valid, or a walk
 *		found no end (fs is unmounted)
 *	a flash error (fs is unmounted: its RAM state may no longer match
 *		the flash; mount again, which recovers)
 */
int fc_nvs_write(struct fc_nvs *fs, uint16_t id, const void *data, size_t len);

/*
 * Hints for fc_nvs_write_hint from a caller that knows more than the
 * engine. If a hint is wrong, nothing is lost: the new value is written
 * and becomes the newest, only the write is redundant (and with
 * FC_NVS_HINT_ABSENT free space may read low until the next mount).
 */
#define FC_NVS_HINT_CHANGED 1u /* the stored value differs: skip the compare */
#define FC_NVS_HINT_ABSENT 2u  /* id is not stored: skip the lookup too, unless
				* the index holds the id (then its ATE is read) */

/*
 * fc_nvs_write_hint - fc_nvs_write with hints (0 = fc_nvs_write): a hinted
 * write never reads the stored value, and with FC_NVS_HINT_ABSENT never
 * walks the flash. The index is kept exact.
 *
 * returns:
 *	len, written (also when the stored value was identical: a hinted
 *		write does not compare)
 *	0, a delete found nothing to delete
 *	FC_EINVAL, unknown hint bits, or as fc_nvs_write
 *	the other errors of fc_nvs_write, leaving fs in the same state
 */
int fc_nvs_write_hint(struct fc_nvs *fs, uint16_t id, const void *data, size_t len,
		      unsigned int hints);

/*
 * fc_nvs_delete - remove id: fc_nvs_write(fs, id, NULL, 0).
 *
 * returns:
 *	0, deleted, or id was not stored
 *	the errors of fc_nvs_write, leaving fs in the same state
 */
int fc_nvs_delete(struct fc_nvs *fs, uint16_t id);
#endif /* FC_READONLY */

/*
 * fc_nvs_read - copy up to len bytes of id's newest value into data. With
 * data CRCs on, the CRC-32 is checked when the whole value fits in len.
 *
 * returns:
 *	the stored length (>= 0; may exceed len, then only len bytes are copied)
 *	FC_ENOTMOUNTED, fs is NULL or not mounted
 *	FC_EINVAL, data NULL with len > 0
 *	FC_ENOENT, id is not stored (never written, or deleted)
 *	FC_EBADCRC, the value fails its CRC-32 (data holds the bytes read)
 *	FC_ECORRUPT, an ATE the index names is no longer valid, or a walk
 *		found no end
 *	a flash error
 *	fs stays mounted in every case.
 */
int fc_nvs_read(struct fc_nvs *fs, uint16_t id, void *data, size_t len);

/*
 * fc_nvs_read_hist - fc_nvs_read for the cnt-th older value of id (0 = the
 * newest), walking back through the log.
 *
 * returns:
 *	the stored length of that value
 *	FC_ENOENT, id has fewer than cnt + 1 values on flash, or that one is a
 *		delete
 *	the other errors of fc_nvs_read; fs stays mounted in every case
 */
int fc_nvs_read_hist(struct fc_nvs *fs, uint16_t id, void *data, size_t len, uint16_t cnt);

/*
 * fc_nvs_calc_free_space - bytes still writable, as Zephyr computes it: the
 * partition less one sector, less the live entries (data aligned, plus an
 * ATE slot each) and the gc_done ATEs. O(1) with the index, except the
 * first call after a mount whose index overflowed (it reads the ATE areas,
 * see FC_NVS_LOOKUP_INDEX); Zephyr's O(n^2) walk in Zephyr mode.
 *
 * returns:
 *	the bytes (>= 0; INT_MAX if more)
 *	FC_ENOTMOUNTED, fs is NULL or not mounted
 *	FC_ECORRUPT, a walk found no end (Zephyr mode)
 *	a flash error
 *	fs stays mounted in every case.
 */
int fc_nvs_calc_free_space(struct fc_nvs *fs);

/*
 * fc_nvs_sector_max_data_size - the largest value that fits in the write
 * sector now, without GC.
 *
 * returns:
 *	the bytes (>= 0)
 *	FC_ENOTMOUNTED, fs is NULL or not mounted
 */
int fc_nvs_sector_max_data_size(struct fc_nvs *fs);

#ifndef FC_READONLY
/*
 * fc_nvs_sector_use_next - close the write sector and move to the next one,
 * collecting it (GC copies its live entries and erases it).
 *
 * returns:
 *	0, done
 *	FC_ENOTMOUNTED, fs is NULL or not mounted
 *	FC_ENOSPC, the live entries do not fit
 *	FC_ECORRUPT, or a flash error
 *	On every error but FC_ENOTMOUNTED fs is left unmounted: mount again,
 *	which recovers the interrupted GC.
 */
int fc_nvs_sector_use_next(struct fc_nvs *fs);
#endif /* FC_READONLY */

/* Read-only walk over a partition, for tools. */
enum fc_nvs_sector_state {
	FC_NVS_SECTOR_ERASED,  /* every byte is the erase value */
	FC_NVS_SECTOR_OPEN,    /* written, close slot erased */
	FC_NVS_SECTOR_CLOSED,  /* valid close ATE */
	FC_NVS_SECTOR_CORRUPT, /* close slot neither erased nor a valid close ATE */
};

enum fc_nvs_ate_status {
	FC_NVS_ATE_LIVE,       /* newest valid ATE of its id, with data */
	FC_NVS_ATE_STALE,      /* a newer ATE of the same id exists */
	FC_NVS_ATE_DELETED,    /* a delete ATE (len 0) */
	FC_NVS_ATE_CRC_BAD,    /* crc8 mismatch */
	FC_NVS_ATE_OUT_OF_BOUNDS, /* data outside the sector's data area */
	FC_NVS_ATE_TORN,       /* partly written slot (crc byte erased, or part not FC_NVS_ATE_PART) */
	FC_NVS_ATE_CLOSE,
	FC_NVS_ATE_GC_DONE,
};

struct fc_nvs_sector_info {
	uint16_t sector;
	uint16_t age;          /* 0 = oldest sector in write order */
	enum fc_nvs_sector_state state;
	bool gc_done;          /* carries a valid gc_done ATE */
	uint32_t live, stale, deleted, bad; /* ATE counts */
	uint32_t used_bytes;   /* data plus ATE slots in use */
	uint32_t free_bytes;   /* between the data and ATE write positions */
};

struct fc_nvs_ate_info {
	uint32_t addr;         /* where the ATE is */
	uint16_t id;
	uint16_t offset;       /* data offset within the sector */
	uint16_t len;          /* as stored (includes the CRC-32 when on) */
	uint8_t part;
	uint8_t crc8;
	enum fc_nvs_ate_status status;
	bool data_crc_ok;      /* meaningful only with cfg->data_crc */
};

struct fc_nvs_walk_ops {
	/* Either may be NULL; a non-zero return stops the walk and is returned. */
	int (*sector)(void *ctx, const struct fc_nvs_sector_info *info);
	int (*ate)(void *ctx, const struct fc_nvs_ate_info *info);
	/* Optional scratch of 2 bits per ATE slot, at least
	 * FC_NVS_WALK_BITS_WORDS(sector_size, sector_count) words: each ATE's
	 * crc8 and live check then run once, not once per pass. NULL (or too
	 * small): they are recomputed. Results are the same either way. */
	uint32_t *slot_bits;
	uint32_t slot_bits_words;
};

/* Words of slot_bits enough for any write block (ATE slots of 8 bytes or more). */
#define FC_NVS_WALK_BITS_WORDS(sector_size, sector_count) \
	((uint32_t)(((uint64_t)(sector_size) * (sector_count) / 8 + 15) / 16 + 1))

/*
 * fc_nvs_walk - visit every sector (oldest first) and its ATEs (newest first
 * within a sector; a closed sector's close ATE comes first) without writing.
 * The log is located as fc_nvs_mount locates it (cfg->lookup is ignored),
 * but nothing is recovered. A sector's info comes after its ATEs, which its
 * counts are made of. cfg->index_slots are used as scratch to tell live
 * from stale and need at least as many slots as ids present;
 * ops->slot_bits and cfg->read_buf too, when given. A slot whose crc8 fails is TORN when its
 * crc byte is still erased (the write stopped early), else CRC_BAD. The
 * info structs passed to the callbacks live only during the call.
 *
 * returns:
 *	0, every sector visited
 *	a callback's non-zero value, which stopped the walk
 *	FC_EINVAL, ops NULL or a bad cfg (as fc_nvs_mount)
 *	FC_ENOMEM, no index slots, or fewer than the ids present
 *	FC_ECORRUPT, every sector is closed
 *	a flash error
 */
int fc_nvs_walk(const struct fc_nvs_config *cfg, const struct fc_nvs_walk_ops *ops, void *ctx);

#endif /* FDTCACHE_NVS_H */

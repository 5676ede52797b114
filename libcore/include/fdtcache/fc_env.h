/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fc_env.h - portability layer of libcore.
 *
 * libcore is freestanding: it uses only <stddef.h>, <stdint.h>, <stdbool.h>,
 * <string.h> and <limits.h>. A port that needs different hooks defines
 * FC_CONFIG to the name of its own header (e.g. -DFC_CONFIG='"board_fc.h"');
 * that header is included first and may define any FC_* hook below. When
 * it defines all of FC_MEMCPY, FC_MEMMOVE, FC_MEMSET, FC_MEMCMP and
 * FC_STRCMP, <string.h> is not included: libcore then needs only the
 * compiler's own headers (a bare toolchain without a C library).
 *
 * Public structs: the caller allocates them and may read every field above
 * a "private:" comment. The fields after it, to the end of the struct, are
 * the library's own state, not part of the API: their names, types and
 * meaning may change in any release; a change of a public struct's size or
 * layout is an ABI change, bumped by the rule in configure.ac.
 *
 * Compile-time knobs (define them for every libcore file; none changes a
 * public struct). The default build has everything.
 *   FC_READONLY       nvs, settings, zms and settings_zms without write,
 *                     delete, GC or the mount's and load's repairs (reads
 *                     see what Zephyr reads after its repairing mount)
 *   FC_NO_EMULATION   nvs, settings and zms without their Zephyr comparison
 *                     modes (FC_NVS_LOOKUP_ZEPHYR, FC_SETTINGS_CACHE_ZEPHYR_*,
 *                     FC_ZMS_LOOKUP_ZEPHYR are refused)
 *   FC_NO_ATE_CACHE   nvs without the optional ATE cache (cfg.ate_cache is
 *                     refused), up to 360 bytes less code
 *   FC_NO_INDEX       with FC_READONLY: nvs without its id index
 *                     (cfg.index_slots are refused; fc_nvs_walk, which
 *                     needs them, fails): mount reads only what finds
 *                     the write position (the first free-space query
 *                     counts the live entries and gc_done ATEs) and each
 *                     lookup walks the log back from the newest ATE, as
 *                     Zephyr's does; about 1,000 bytes less code
 *   FC_NO_DATA_CRC    nvs and zms without the CRC-32 of values (their
 *                     cfg.data_crc is refused), as Zephyr without
 *                     CONFIG_NVS_DATA_CRC and CONFIG_ZMS_DATA_CRC; 340
 *                     bytes less in the every-nvs program (M4), 400 in
 *                     the every-zms one
 *   FC_CRC8_NO_TABLE  crc8 without its 256-byte table (a few shifts and
 *                     xors a byte): about 240 bytes less
 * Memory the caller gives at run time (nvs: index slots, the ATE cache and
 * the read buffer, FC_NVS_READ_BUF_SIZE bytes for the documented read
 * counts) is described with each config struct.
 */
#ifndef FDTCACHE_FC_ENV_H
#define FDTCACHE_FC_ENV_H

#ifdef FC_CONFIG
#include FC_CONFIG
#endif

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#if !defined(FC_MEMCPY) || !defined(FC_MEMMOVE) || !defined(FC_MEMSET) || \
	!defined(FC_MEMCMP) || !defined(FC_STRCMP)
#include <string.h>
#endif

/*
 * Checks of what only a broken port can violate (a flash callback that
 * returns a positive value, see flash.h); a port may map this to its own
 * assert to find the bug. Off by default: the call then fails with an
 * error code instead.
 */
#ifndef FC_ASSERT
#define FC_ASSERT(cond) ((void)0)
#endif

#ifndef FC_MEMCPY
#define FC_MEMCPY(d, s, n) memcpy((d), (s), (n))
#endif
#ifndef FC_MEMMOVE
#define FC_MEMMOVE(d, s, n) memmove((d), (s), (n))
#endif
#ifndef FC_MEMSET
#define FC_MEMSET(d, c, n) memset((d), (c), (n))
#endif
#ifndef FC_MEMCMP
#define FC_MEMCMP(a, b, n) memcmp((a), (b), (n))
#endif
#ifndef FC_STRCMP
#define FC_STRCMP(a, b) strcmp((a), (b))
#endif

/* Branch hints for hot paths; a port whose compiler lacks them may override. */
#ifndef FC_LIKELY
#if defined(__GNUC__) || defined(__clang__)
#define FC_LIKELY(x) __builtin_expect(!!(x), 1)
#else
#define FC_LIKELY(x) (x)
#endif
#endif

/*
 * Inlines a hit path's helper into every caller: at -O2 GCC keeps a helper
 * with a loop out of line, and the call costs as much as the rest of a hit;
 * a port whose compiler lacks it may override.
 */
#ifndef FC_ALWAYS_INLINE
#if defined(__GNUC__) || defined(__clang__)
#define FC_ALWAYS_INLINE __attribute__((always_inline)) inline
#else
#define FC_ALWAYS_INLINE inline
#endif
#endif

/*
 * Keeps a function with a buffer in its frame out of its callers, so the
 * buffer is not on their deeper call paths (worst-case stack); a port
 * whose compiler lacks it may override.
 */
#ifndef FC_NOINLINE
#if defined(__GNUC__) || defined(__clang__)
#define FC_NOINLINE __attribute__((noinline))
#else
#define FC_NOINLINE
#endif
#endif

#define FC_MIN(a, b) ((a) < (b) ? (a) : (b))
#define FC_MAX(a, b) ((a) > (b) ? (a) : (b))
#define FC_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Round x up to a multiple of align, which must be a power of two. */
#define FC_ALIGN_UP(x, align) (((x) + ((align) - 1u)) & ~((align) - 1u))

/*
 * fc_is_pow2 - is x a power of two (1, 2, 4, ...)?
 *
 * returns: true when it is, false for 0 and every other value.
 */
static inline bool fc_is_pow2(uint32_t x)
{
	return x != 0 && (x & (x - 1)) == 0;
}

/* On-media integers are little-endian and are never read through a cast. */

/*
 * fc_get_le16 - the little-endian 16-bit integer in the 2 bytes at p.
 *
 * returns: its value.
 */
static inline uint16_t fc_get_le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | (p[1] << 8));
}

/*
 * fc_get_le32 - the little-endian 32-bit integer in the 4 bytes at p.
 *
 * returns: its value.
 */
static inline uint32_t fc_get_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) |
	       ((uint32_t)p[3] << 24);
}

/*
 * fc_put_le16 - store v little-endian in the 2 bytes at p.
 *
 * returns: nothing.
 */
static inline void fc_put_le16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

/*
 * fc_put_le32 - store v little-endian in the 4 bytes at p.
 *
 * returns: nothing.
 */
static inline void fc_put_le32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

#endif /* FDTCACHE_FC_ENV_H */

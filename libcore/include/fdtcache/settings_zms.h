/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * settings_zms.h - Zephyr settings_zms-compatible names and values on ZMS.
 *
 * On-flash layout, exactly as Zephyr's settings_zms backend (with
 * CONFIG_SETTINGS_ZMS_MAX_COLLISIONS_BITS 4):
 *  - a name's id is 0x80000000 | (murmur3(name) & bits 29..5) | collision << 1
 *    (collision 0..15, for different names with the same hash); the name is
 *    stored without NUL; murmur3's tail depends on the writer's char
 *    (enum fc_settings_zms_hash_variant);
 *  - its value is at name id + 0x40000000;
 *  - its linked-list node is at name id | 1: 8 bytes {u32 previous, u32 next}
 *    (node ids, LE), from the head node 0x80000000 in first-save order.
 * A first save writes the value, the new node, the previous node (to link
 * it) and then the name; a rewrite writes only the value.
 *
 * Lookups cost what the ZMS index makes them cost: with the index covering
 * the ids, a name that is not stored is known absent without a flash read,
 * so a first save reads no more than a rewrite (the name cache idea). The
 * list's last two nodes are kept in RAM, as Zephyr does.
 */
#ifndef FDTCACHE_SETTINGS_ZMS_H
#define FDTCACHE_SETTINGS_ZMS_H

#include "fc_env.h"
#include "fc_err.h"
#include "zms.h"

#define FC_SETTINGS_ZMS_HEAD 0x80000000u     /* linked-list head node id */
#define FC_SETTINGS_ZMS_VALUE_OFFSET 0x40000000u /* value id = name id + this */
#define FC_SETTINGS_ZMS_HASH_MASK 0x3fffffe0u /* bits 29..5 of the name hash */
#define FC_SETTINGS_ZMS_MAX_COLLISIONS 15u
#define FC_SETTINGS_ZMS_NAME_MAX 64u          /* bytes, without NUL */

/*
 * Zephyr's murmur3 (sys_hash32) folds a name's last len % 4 bytes in as
 * char, so a name with a byte >= 0x80 there hashes, hence is stored under
 * an id, that depends on the signedness of char on the target Zephyr was
 * built for. The variant only changes names with such a byte in their tail.
 */
enum fc_settings_zms_hash_variant {
	/* char unsigned (Arm and RISC-V ABIs: nRF54L/H and most Zephyr
	 * targets); the default */
	FC_SETTINGS_ZMS_HASH_UNSIGNED_CHAR = 0,
	/* char signed (x86: native_sim, qemu_x86): the byte is
	 * sign-extended, setting the bits above it */
	FC_SETTINGS_ZMS_HASH_SIGNED_CHAR,
};

/* What load and scan report for one stored name. */
struct fc_settings_zms_entry {
	const char *name;     /* NUL-terminated copy, valid during the callback */
	size_t name_len;
	uint32_t name_id;
	const uint8_t *value; /* the caller's buffer */
	size_t value_len;     /* stored length */
	size_t value_read;    /* bytes in value: min(value_len, buffer size) */
};

/* private: a name and value as load and scan read them (settings_zms.c) */
struct fc_settings_zms_pair {
	uint8_t *buf; /* the caller's value buffer */
	size_t size;  /* its size */
	struct fc_settings_zms_entry e;
	char name[FC_SETTINGS_ZMS_NAME_MAX + 1];
};

struct fc_settings_zms {
	struct fc_zms *fs;
	/* private: the name list's state, kept by settings_zms.c */
	uint32_t last;           /* id of the list's last node */
	uint32_t second_to_last; /* id of the node before it (0: none) */
	uint8_t collisions;      /* highest collision number in use */
	uint8_t hash_variant;    /* enum fc_settings_zms_hash_variant */
	/* off the stack: the name lookups (get, save) read back, a load's pair */
	char lookup_name[FC_SETTINGS_ZMS_NAME_MAX + 1];
	struct fc_settings_zms_pair load;
};

/* A non-zero return stops the load and is returned by it. */
typedef int (*fc_settings_zms_cb)(void *ctx, const struct fc_settings_zms_entry *e);

/*
 * fc_settings_zms_hash - Zephyr's sys_hash32 (murmur3, seed 0; tail bytes
 * folded most significant first) as Zephyr computes it where char is
 * unsigned (FC_SETTINGS_ZMS_HASH_UNSIGNED_CHAR).
 *
 * returns: the 32-bit hash of the len bytes at name.
 */
uint32_t fc_settings_zms_hash(const void *name, size_t len);

/*
 * fc_settings_zms_hash_variant - fc_settings_zms_hash with the tail bytes
 * folded as variant v says.
 *
 * returns: the 32-bit hash of the len bytes at name.
 */
uint32_t fc_settings_zms_hash_variant(const void *name, size_t len,
				      enum fc_settings_zms_hash_variant v);

/*
 * fc_settings_zms_init - attach s to a mounted fs as settings_backend_init()
 * does: walk the list from the head to find its last two nodes and the
 * highest collision number, writing the head {0, 0} when there is none, and
 * repairing as Zephyr does a list a power cut left with a dangling end or a
 * wrong previous link. With FC_READONLY nothing is written: the list is
 * taken as it is and ended in RAM. s keeps a pointer to fs, which must stay
 * mounted while s is used.
 *
 * returns:
 *	0, attached
 *	FC_EINVAL, s or fs NULL
 *	FC_ENOTMOUNTED, fs is not mounted
 *	FC_ECORRUPT, the list loops, or a node is not 8 bytes
 *	a zms error (as fc_zms_read, or fc_zms_write for a repair, which may
 *		leave fs unmounted)
 */
int fc_settings_zms_init(struct fc_settings_zms *s, struct fc_zms *fs);

/*
 * fc_settings_zms_init_variant - fc_settings_zms_init for a partition whose
 * names were hashed as variant v says (FC_SETTINGS_ZMS_HASH_SIGNED_CHAR for
 * one written by Zephyr on x86); get, save and delete hash names so.
 *
 * returns:
 *	FC_EINVAL, an unknown variant
 *	the other results of fc_settings_zms_init
 */
int fc_settings_zms_init_variant(struct fc_settings_zms *s, struct fc_zms *fs,
				 enum fc_settings_zms_hash_variant v);

/*
 * fc_settings_zms_load - report every name and value in list order through
 * cb (which may be NULL). A node whose name or value is missing is deleted
 * (name, value, node unlinked), as Zephyr's load does; with FC_READONLY it
 * is skipped. Values are read into buf (buf_size bytes, may be 0);
 * e->value_len tells a cut value's size. A partition on which nothing was
 * saved (no head node) reports nothing.
 *
 * returns:
 *	0, every setting reported
 *	the callback's non-zero value, which stopped the load
 *	FC_ECORRUPT, the list loops, or a node is not 8 bytes
 *	a zms error (as fc_zms_read, or fc_zms_write for a repair, which may
 *		leave the zms unmounted)
 */
int fc_settings_zms_load(struct fc_settings_zms *s, uint8_t *buf, size_t buf_size,
			 fc_settings_zms_cb cb, void *ctx);

/*
 * fc_settings_zms_get - read name's value into buf (up to len bytes).
 *
 * returns:
 *	the stored length (may exceed len: only len bytes are copied)
 *	FC_ENAME, an invalid name
 *	FC_ENOENT, name is not stored
 *	a zms error (as fc_zms_read)
 */
int fc_settings_zms_get(struct fc_settings_zms *s, const char *name, void *buf, size_t len);

#ifndef FC_READONLY /* FC_READONLY: no saves, deletes or init/load repairs */
/*
 * fc_settings_zms_save - store len bytes under name; len 0 (or value NULL)
 * deletes, as in Zephyr. A new name takes the first free collision slot of
 * its hash; its value, node, the previous node's link and the name are
 * written in that order, so a power cut leaves at most a half pair that
 * load removes.
 *
 * returns:
 *	0, stored (or deleted)
 *	FC_ENAME, an invalid name
 *	FC_ENOSPC, 16 stored names share the hash, or the zms is full
 *	FC_ETOOBIG, the value does not fit in a zms sector
 *	a zms error (as fc_zms_write, which may leave the zms unmounted)
 */
int fc_settings_zms_save(struct fc_settings_zms *s, const char *name, const void *value,
			 size_t len);

/*
 * fc_settings_zms_delete - remove name: its name and value ids, and its node
 * from the list.
 *
 * returns:
 *	0, removed, or name was not stored
 *	FC_ENAME, an invalid name
 *	a zms error (as fc_zms_write, which may leave the zms unmounted)
 */
int fc_settings_zms_delete(struct fc_settings_zms *s, const char *name);
#endif /* FC_READONLY */

/* Read-only scan, for tools: what load would see and repair, writing nothing. */
enum fc_settings_zms_problem_kind {
	FC_SETTINGS_ZMS_NO_HEAD,       /* no head node: init writes one */
	FC_SETTINGS_ZMS_ORPHAN_NODE,   /* node without name or value: load deletes it */
	FC_SETTINGS_ZMS_BAD_PREVIOUS,  /* node's previous link is wrong: init repairs it */
	FC_SETTINGS_ZMS_DANGLING_NEXT, /* next link to a missing node: init ends the list */
	FC_SETTINGS_ZMS_BAD_NODE,      /* node value not 8 bytes, or the list loops */
	FC_SETTINGS_ZMS_READ_ERROR,    /* a ZMS read failed (err) */
};

struct fc_settings_zms_problem {
	enum fc_settings_zms_problem_kind kind;
	uint32_t id;  /* the ZMS id concerned */
	int err;      /* FC_SETTINGS_ZMS_READ_ERROR: the read's error */
};

struct fc_settings_zms_scan_ops {
	/* Either may be NULL; a non-zero return stops the scan and is returned. */
	fc_settings_zms_cb pair;
	int (*problem)(void *ctx, const struct fc_settings_zms_problem *p);
};

/*
 * fc_settings_zms_scan - walk the list of a mounted fs with fc_zms_read
 * only, reporting complete pairs in list order and every problem above;
 * writes nothing, so it serves a read-only device or a copy. Read errors
 * are reported through ops->problem, not returned.
 *
 * returns:
 *	0, the list's end was reached (or a problem ended it)
 *	a callback's non-zero value, which stopped the scan
 *	FC_ENOTMOUNTED, fs is not mounted
 */
int fc_settings_zms_scan(struct fc_zms *fs, uint8_t *buf, size_t buf_size,
			 const struct fc_settings_zms_scan_ops *ops, void *ctx);

#endif /* FDTCACHE_SETTINGS_ZMS_H */

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The randomised power-loss sweep: seeded cases (geometry, engine options,
 * a workload of >= 300 operations), runs with up to three power cuts (the
 * workload, then its recovering mounts), and a model of what the
 * application was told (last acknowledged value per key, deleted keys
 * absent) that every mount is checked against.
 */
#ifndef FDTCACHE_PL_RANDOM_H
#define FDTCACHE_PL_RANDOM_H

#include <stdbool.h>
#include <stdint.h>

#include "fdtcache/flash_sim.h"
#include "fdtcache/settings.h"
#include "fdtcache/settings_zms.h"

#define PL_SECTORS_MAX 8u
#define PL_SECTOR_MAX 8192u
#define PL_KEYS_MAX 40u
#define PL_VMAX 512u   /* longest value a case writes */
#define PL_OPS_MAX 480u
#define PL_EXTRA 30u   /* operations after the last recovery */
#define PL_SLOTS_MAX 1024u

enum pl_kind {
	PL_WRITE,   /* key := value(len, vseed) */
	PL_DELETE,  /* key := absent */
	PL_REWRITE, /* key := its current value again (identical: nothing written) */
	PL_READ,    /* check key against the model */
	PL_FREE,    /* a free-space query */
	PL_REMOUNT, /* mount again and check every key */
};

struct pl_op {
	uint8_t kind;
	uint8_t key;
	uint16_t len;
	uint32_t vseed;
};

/* A value as the application knows it: len -1 = absent. */
struct pl_val {
	int len;
	uint8_t b[PL_VMAX];
};

struct pl_case {
	uint32_t seed;
	uint32_t sector_size, wbs;
	uint16_t sectors;
	uint8_t erase_value;
	bool data_crc;
	enum fc_nvs_lookup lookup;
	uint32_t slots;     /* index slots: 0, 8 (overflowing) ... 1024 */
	bool ate_cache;
	unsigned int keys;
	uint16_t ids[PL_KEYS_MAX]; /* nvs: the id of each key */
	unsigned int nops;
	struct pl_op ops[PL_OPS_MAX];
	struct pl_op extra[PL_EXTRA];
};

/* Everything one run touches: the flash, its simulator, the engines. */
struct pl_rig {
	const struct pl_case *c;
	uint8_t mem[PL_SECTORS_MAX * PL_SECTOR_MAX];
	struct fc_flash_sim_unit units[PL_SECTORS_MAX];
	struct fc_flash_sim sim;
	struct fc_cache_slot slots[PL_SLOTS_MAX];
	uint8_t ate_cache[64];
	uint8_t read_buf[FC_NVS_READ_BUF_SIZE];
	struct fc_nvs fs;
	struct fc_settings st;
	uint16_t name_cache[PL_KEYS_MAX + 8];
	struct fc_zms zfs;
	struct fc_zms_slot zslots[PL_SLOTS_MAX];
	struct fc_settings_zms zst;
	bool other_lookup; /* mount with the other lookup mode (the final check) */
	char why[160];     /* what a failed mount or check met */
};

/* An engine under test: nvs or zms itself, or settings on either. */
struct pl_engine {
	const char *name;
	/* Mount (settings: also init and load). 0, or an error with rig->why. */
	int (*mount)(struct pl_rig *r);
	/* One operation: 0 done, FC_ENOSPC refused (nothing changed), or an error. */
	int (*apply)(struct pl_rig *r, const struct pl_op *o, const struct pl_val *v);
	/* The key's value into *v (len -1 when absent); 0, or an error. */
	int (*get)(struct pl_rig *r, unsigned int key, struct pl_val *v);
	/* Free space: >= 0, or an error. */
	int (*free_space)(struct pl_rig *r);
};

extern const struct pl_engine pl_nvs_engine;
extern const struct pl_engine pl_settings_engine;
extern const struct pl_engine pl_zms_engine;          /* pl_zms.c */
extern const struct pl_engine pl_settings_zms_engine;

/* The value bytes: xorshift32 from seed, all 0xff / 0x00 for seed % 16 == 3 / 4. */
void pl_value(struct pl_val *v, unsigned int len, uint32_t seed);

/* The settings name of a key. */
void pl_name(const struct pl_case *c, unsigned int key, char *buf, unsigned int size);

/* The key whose settings name is name, or -1. */
int pl_key_of(const struct pl_case *c, const char *name);

/* An engine read's result rc into *v (FC_ENOENT: absent); 0, or the error. */
int pl_got(int rc, struct pl_val *v);

/* rc, after saying in r->why what failed ("what: error") when it is an error. */
int pl_why(struct pl_rig *r, const char *what, int rc);

#endif

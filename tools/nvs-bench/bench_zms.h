/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * bench_zms.h - nvs-bench's ZMS variants (variant=zms: libcore's ZMS engine
 * with its index; zms-zephyr: the same engine running Zephyr's ZMS lookups
 * and its lookup cache), and the engine calls the workloads make, sent to
 * NVS or ZMS as the variant says, so every workload runs on both formats
 * and one run compares them.
 */
#ifndef FDTCACHE_BENCH_ZMS_H
#define FDTCACHE_BENCH_ZMS_H

#include "bench_rig.h"

/* variant is zms or zms-zephyr */
bool bench_is_zms(const struct bench_perm *perm);

/* Mount ZMS on the rig's device; ids sizes ours' index (bench_rig_mount's ZMS side). */
int bench_zms_mount(struct bench_rig *rig, uint32_t ids);
/* Attach settings_zms to the mounted partition. */
int bench_zms_settings(struct bench_rig *rig);
/* A stored value's size: its ATE slot, plus the value padded to the write block when not inline. */
uint32_t bench_zms_record_size(const struct bench_rig *rig);

/* The workloads' engine calls (NVS ids are 16-bit, ZMS ids 32-bit). */
int bench_kv_write(struct bench_rig *rig, uint32_t id, const void *value, size_t len);
int bench_kv_read(struct bench_rig *rig, uint32_t id, void *buf, size_t len);
int bench_kv_delete(struct bench_rig *rig, uint32_t id);
int bench_set_save(struct bench_rig *rig, const char *name, const void *value, size_t len);
/* Load every setting (into a small buffer); *loaded counts them. */
int bench_set_load(struct bench_rig *rig, uint32_t *loaded);

#endif /* FDTCACHE_BENCH_ZMS_H */

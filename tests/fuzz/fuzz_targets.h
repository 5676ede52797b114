/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Fuzz targets, one per input surface. Each takes arbitrary bytes and
 * returns 0; a property violation aborts (so libFuzzer and the replay driver
 * both report it), and memory errors are left to the sanitizers. Each calls
 * the real entry points of libcore and of the tools' libraries.
 */
#ifndef FDTCACHE_FUZZ_TARGETS_H
#define FDTCACHE_FUZZ_TARGETS_H

#include <stddef.h>
#include <stdint.h>

/*
 * The NVS targets start with a 3-byte geometry header: byte 0 picks the
 * sector size (256 << (b % 9)), byte 1 the write block (1 << (b % 6)),
 * byte 2 the options (FUZZ_NVS_* bits). The partition follows, cut to whole
 * sectors (at most FUZZ_MAX_IMAGE bytes).
 */
#define FUZZ_NVS_DATA_CRC 0x01u
#define FUZZ_NVS_ZEPHYR 0x02u    /* Zephyr's lookup */
#define FUZZ_NVS_NO_INDEX 0x04u
#define FUZZ_NVS_ERASED_00 0x08u /* flash erases to 0x00 */
#define FUZZ_NVS_ATE_CACHE 0x10u
#define FUZZ_NVS_HEADER 3u
#define FUZZ_MAX_IMAGE (4u << 20)

/* NVS image: walk it, mount it, read, write and remount. */
int fuzz_nvs_image(const uint8_t *data, size_t size);

/*
 * NVS write/GC sequences on a damaged image: header, a count byte n, n ops
 * of 4 bytes (write, delete, rewrite, free space, next sector = GC,
 * remount), then the image. Every acknowledged write reads back.
 */
int fuzz_nvs_ops(const uint8_t *data, size_t size);

/* Settings on an image: header, n, n ops of 4 bytes (save, delete, get,
 * load, subtree load, scan, re-init), then the image. */
int fuzz_settings(const uint8_t *data, size_t size);

/* A device tree blob: index it, replay lookups under every policy. */
int fuzz_dtb(const uint8_t *data, size_t size);

/* nvs-inspect's geometry detection over a dump: byte 0 picks the hint. */
int fuzz_geometry(const uint8_t *data, size_t size);

/*
 * nvs-inspect over a dump: byte 0 picks the views (bits: summary, live,
 * ates, settings, check, salvage, wide, json), byte 1 the geometry options;
 * the dump follows.
 */
int fuzz_inspect(const uint8_t *data, size_t size);

/* A trace file: parse it. */
int fuzz_trace_parse(const uint8_t *data, size_t size);

/* A capture log, kprobe log or list (byte 0 picks which): import, parse the result. */
int fuzz_trace_import(const uint8_t *data, size_t size);

/* A DTB: generate its boot trace under both models, parse the text back, compare. */
int fuzz_trace_generate(const uint8_t *data, size_t size);

/* nvs-bench -D/-G arguments, one per line ("G..." a -G list), expanded. */
int fuzz_bench_defs(const uint8_t *data, size_t size);

/* An nvs-bench CSV (--input): read it, print it as table, CSV and JSON, compare. */
int fuzz_bench_csv(const uint8_t *data, size_t size);

/* An nvs-bench CSV plotted: byte 0 the x knob, byte 1 the figure, byte 2 flags. */
int fuzz_bench_plot(const uint8_t *data, size_t size);

typedef int (*fuzz_fn)(const uint8_t *data, size_t size);

struct fuzz_target {
	const char *name; /* the target without "fuzz_" */
	fuzz_fn fn;
};

/* Every target, NULL-terminated (for the replay driver). */
extern const struct fuzz_target fuzz_targets[];

#endif

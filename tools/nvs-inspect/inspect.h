/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * inspect.h - nvs-inspect's parts and the state that flows through them.
 *
 * Data flows one way: load (file -> bytes -> partition and its geometry)
 * -> walk (libcore's fc_nvs_walk over a read-only device: sectors, ATEs,
 * data CRCs) and mount (fc_nvs_mount on a private copy: what a mount
 * changes, what it reads back) -> checks and salvage (findings: verdicts,
 * unverified values) -> views (table, json). Only libcore decodes the ATE
 * format (its walk, and its codec in geometry detection). ZMS
 * (zms_inspect.h) has its own detection, walk and checks beside these,
 * feeding the same findings and views.
 */
#ifndef FDTCACHE_NVS_INSPECT_H
#define FDTCACHE_NVS_INSPECT_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

#include "fdtcache/flash.h"
#include "fdtcache/nvs.h"

#include "common/flashimg.h"
#include "common/input.h"
#include "geometry.h"
#include "partition.h"
#include "scan.h"

#define MAX_IDS 0x10000u
/* Bytes of each read window: a power of two; one flash read per window, not per ATE slot. */
#define INSPECT_READ_BUF 4096u
#define HEX_PREVIEW 8       /* value bytes per --ates row: rows fit 80 columns */
#define HEX_PREVIEW_WIDE 32 /* ... with --wide */
#define UNVERIFIED_PREVIEW 32 /* data bytes shown of an ATE whose crc8 fails */
/* Zephyr's free-space count walks from the head once per valid ATE: ATEs x slots reads */
#define ZEPHYR_FREE_MAX_READS ((uint64_t)4096 * 4096)
#define CRC_VOTES 1024u /* values sampled by --data-crc auto */

enum severity { SEV_ERROR, SEV_WARNING, SEV_INFO };

struct verdict {
	enum severity sev;
	const char *code;
	int sector;    /* -1: the whole image */
	long offset;   /* within the sector (the image when sector is -1); -1: none */
	char *message;
};

struct zms_inspect;

/* One ATE as the walk reported it. */
struct ate_rec {
	struct fc_nvs_ate_info info;
	uint32_t seq;       /* walk order */
};

/*
 * The mount's device: a RAM device over the copy that notes, per sector,
 * what the mount does to it (read the notes once the mount has ended).
 */
struct copy_flash {
	struct fc_ram_flash ram;
	struct fc_flash dev;
	uint32_t sector_size, sectors;
	uint8_t *touched;   /* per sector: programmed or erased */
	uint8_t *erased;    /* per sector: erased */
};

/* Where a sector of the dump (a) and of the copy (b) differ. */
struct sector_diff {
	uint32_t first, last; /* offsets of the first and last byte that differ */
	uint32_t differing;   /* bytes that differ */
	uint32_t written;     /* of those, bytes b holds other than the erase value */
	bool bits_back;       /* a bit went back to the erase value: b was erased since a */
};

/* What a mount reads back and what diff compares, in either format. */
struct live_entry {
	uint64_t id;
	int rc;             /* fc_nvs_read's or fc_zms_read's result */
	GBytes *value;      /* NULL when the read failed */
};

struct setting {
	char *name;         /* name_len bytes as stored (a NUL among them is damage), then a NUL */
	size_t name_len;
	uint32_t name_id;
	GBytes *value;
};

struct salvage_rec {
	const char *kind;   /* "ate-crc-bad" or "data-without-ate" */
	uint32_t addr;      /* of the ATE or of the data */
	bool has_id;        /* false: the data names no id */
	uint64_t id;
	GBytes *value;
};

struct salvage_range {
	uint32_t lo, hi;    /* [lo, hi) in a sector */
};

struct options {
	guint32 sector_size, sectors, write_block, offset;
	gchar *sector_size_s, *sectors_s, *write_block_s, *offset_s;
	gchar *erase_value, *data_crc, *format, *history;
	gchar *input_format, *dts, *dtb, *partition;
	gchar *format_kind, *explicit_erase; /* ZMS (zms_inspect.h) */
	gboolean summary, live, ates, settings, check, salvage, wide, diff;
	int history_id;       /* -1: no --history */
	const char *history_name; /* --history NAME: a setting's name */
};

struct inspect {
	struct options opt;
	const char *path;     /* as given */
	struct tool_input input; /* the dump, never written; input.name for messages */
	struct tool_image image;  /* its flash contents (raw: the input's bytes) */
	const uint8_t *file;      /* image.bytes */
	gsize file_len;
	gsize window_end;         /* end of the partition's bytes in file (file_len: none) */
	uint64_t image_base;      /* flash address of file[0] */
	uint8_t *covered;         /* file, when the partition reached past the records */
	bool have_dt;
	struct dt_partition dt;   /* --dts / --dtb */
	bool scanned;
	struct zms_inspect *zms;  /* set when the partition is ZMS: zms_*.c take over */
	struct nvs_region region; /* --partition auto */
	struct nvs_geometry_report geo;

	/* the partition */
	const uint8_t *part;  /* bytes as found (read-only device) */
	size_t part_len;
	uint8_t *padded;      /* part and copy of a short dump, padded with erased bytes */
	uint8_t *copy_mem;    /* the mount's copy of a decoded (HEX, S-record, ELF) image */
	struct fc_rom_flash rom;
	struct fc_flash_geometry fgeo;
	struct fc_cache_slot *scratch;
	uint32_t nslots;
	/* the walk's and the mount's read windows (they run at once, on two threads) */
	uint8_t walk_read_buf[INSPECT_READ_BUF];
	uint8_t mount_read_buf[INSPECT_READ_BUF];

	/* data CRC: decided from a sample of values before the walk */
	uint32_t crc_checked, crc_matched, crc_short;
	bool data_crc;
	char crc_reason[160];

	/* walk of the dump */
	GArray *sectors;      /* struct fc_nvs_sector_info, by sector number */
	GArray *ates;         /* struct ate_rec, walk order (--ates, --history) */
	bool keep_ates;
	/* --check, --salvage, JSON: each sector is checked when the walk has
	 * given its ATEs, so no list of every ATE is needed */
	bool check_sectors;
	GArray *sector_recs;  /* struct ate_rec of the sector being walked */
	uint32_t seq;         /* ATEs reported so far */
	bool walk_failed;
	uint32_t stack_ates;  /* valid ATEs in the dump */
	uint8_t ids[MAX_IDS / 8]; /* ids of those ATEs: the candidates of --live */

	/* mount on a copy */
	uint8_t *copy;
	struct copy_flash copy_dev;
	struct fc_cache_slot *index;
	struct fc_nvs fs;
	struct fc_nvs_config mount_cfg;
	GThread *mount_thread;
	int mount_rc;
	int free_space;       /* exact, from the index */
	int zephyr_free;      /* Zephyr's own count; < 0 when not computed */
	uint64_t zephyr_free_max_reads; /* ZEPHYR_FREE_MAX_READS; the fuzz harness lowers it */
	GPtrArray *actions;   /* char *: what the mount changed */
	GArray *live;         /* struct live_entry */
	GArray *settings;     /* struct setting */

	/* findings */
	GArray *sector_verdicts; /* struct verdict of the per-sector checks */
	GArray *verdicts;     /* struct verdict, all of them after run_checks */
	GArray *salvage;      /* struct salvage_rec */
	GArray *salvaged;     /* struct salvage_range of the sector being checked */
	int errors, warnings;
};

static inline uint32_t addr_sector(uint32_t addr)
{
	return addr >> FC_NVS_ADDR_SECTOR_SHIFT;
}

static inline uint32_t addr_offset(uint32_t addr)
{
	return addr & FC_NVS_ADDR_OFFSET_MASK;
}

static inline const uint8_t *sector_bytes(const struct inspect *in, uint32_t sector)
{
	return in->part + (size_t)sector * in->geo.geo.sector_size;
}

/* load.c: the file, its geometry, the partition device (< 0: said on stderr;
 * 1: the partition is blank, said on stdout) */
int inspect_load(struct inspect *in);
gboolean parse_erase_value(const char *s, int *ev);
struct fc_nvs_config nvs_config(const struct inspect *in, const struct fc_flash *dev,
				struct fc_cache_slot *slots, uint8_t *read_buf);
void populate(const void *p, size_t len);

/* walk.c: the data CRC decision, then the walk of the dump */
void vote_data_crc(struct inspect *in);
int decide_data_crc(struct inspect *in);
void walk_dump(struct inspect *in);
bool is_record(const struct fc_nvs_ate_info *a);
int value_crc_state(const struct inspect *in, const struct fc_nvs_ate_info *a);

/* mount.c: mount on the copy (on a thread, beside the walk), reads back */
void copy_flash_init(struct copy_flash *c, const struct fc_flash_geometry *g, uint8_t *copy,
		     uint32_t sectors);
void copy_flash_free(struct copy_flash *c);
bool sector_diff(const uint8_t *a, const uint8_t *b, uint32_t ss, uint8_t ev,
		 struct sector_diff *d);
void add_write_action(struct inspect *in, uint32_t s, uint32_t bytes, const struct sector_diff *d);
bool mount_failed(struct inspect *in);
void mount_copy_start(struct inspect *in);
void mount_copy_finish(struct inspect *in);
void read_live(struct inspect *in);
void read_settings(struct inspect *in);

/* checks.c: verdicts */
G_GNUC_PRINTF(6, 7)
void verdict(struct inspect *in, enum severity sev, const char *code, int sector, long offset,
	     const char *fmt, ...);
G_GNUC_PRINTF(6, 7)
void sector_verdict(struct inspect *in, enum severity sev, const char *code, int sector,
		    long offset, const char *fmt, ...);
void check_sector(struct inspect *in, uint32_t s, const GArray *recs);
void run_checks(struct inspect *in);
void check_placement(struct inspect *in);
void tally_verdicts(struct inspect *in);
void free_verdicts(GArray *verdicts);
extern const char *const severity_names[];

/* salvage.c: unverified values from damaged regions (in->salvaged: the sector's so far) */
void salvage_value(struct inspect *in, uint32_t addr, uint64_t id, const uint8_t *sector_data,
		   uint32_t lo, uint32_t len);
void salvage_ate(struct inspect *in, const struct ate_rec *r);
void salvage_data(struct inspect *in, uint32_t addr, const uint8_t *p, uint32_t len);
void free_salvage(GArray *salvage);

/* view.c: what the table and JSON views share */
int view_count(const struct options *o);
const char *name_of(const char *const *names, size_t n, unsigned v);
const char *sector_state_name(enum fc_nvs_sector_state s);
const char *ate_status_name(enum fc_nvs_ate_status s);
char *hex_of(const uint8_t *p, size_t n);
char *bytes_hex(GBytes *b);
const uint8_t *ate_bytes(const struct inspect *in, const struct fc_nvs_ate_info *a, size_t *n);
char *addr_text(uint32_t addr);
char *place_text(const struct inspect *in, uint32_t addr);
char *id_text(const struct inspect *in, uint64_t id);
void add_live(struct inspect *in, uint64_t id, int rc, const uint8_t *buf, uint32_t size);
int add_setting(struct inspect *in, const char *name, size_t name_len, uint32_t name_id,
		const void *value, size_t value_len);
void free_read_back(struct inspect *in);
bool printable(GBytes *b);
char *value_text(GBytes *b);
int ate_by_flash_order(gconstpointer pa, gconstpointer pb);
int setting_by_name(gconstpointer pa, gconstpointer pb);
char *setting_name_text(const struct setting *s);
char *setting_name_utf8(const struct setting *s);
GPtrArray *history_of(struct inspect *in, uint16_t id);

/* table.c, json.c: the views each format has its own way; the others are shared */
struct table_views {
	void (*geometry)(const struct inspect *in); /* the summary's: image, partition, geometry */
	void (*sectors)(const struct inspect *in);  /* its sector map */
	void (*mount)(const struct inspect *in);    /* its write position, when the mount works */
	bool (*summary_verdict)(const char *code);  /* a verdict the summary shows too */
	void (*ates)(struct inspect *in);
	void (*history)(struct inspect *in);
};
void table_heading(const struct inspect *in, const char *title);
G_GNUC_PRINTF(3, 4)
void para(const struct inspect *in, int indent, const char *fmt, ...); /* prose, wrapped */
void table_image(const struct inspect *in);
void print_table(struct inspect *in);
void table_check(const struct inspect *in); /* the --check view (NVS and ZMS) */
void print_json(struct inspect *in);
void print_json_blank(struct inspect *in, uint32_t offset, size_t n, unsigned value);
/*
 * load.c: a short dump's partition, padded with erased bytes to len, twice
 * in one allocation: the view, then the copy a mount may write.
 */
uint8_t *padded_pair(const uint8_t *p, size_t have, size_t len, uint8_t erase_value);

/* inspect.c: the whole run on in->path, after the options; returns the exit status */
void inspect_init(struct inspect *in);
void options_copy(struct options *to, const struct options *from);
int inspect_analyze(struct inspect *in);
int inspect_run(struct inspect *in);

/* diff.c: --diff OLD NEW, both analyzed with the same options */
int inspect_diff(struct inspect *old, struct inspect *new_);
void inspect_free(struct inspect *in);

#endif /* FDTCACHE_NVS_INSPECT_H */

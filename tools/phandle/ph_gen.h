/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ph_gen.h - synthetic boot-time lookup traces made from a DTB.
 *
 * Two models:
 * - reference: tree order, one lookup per phandle reference in the
 *   properties of spec/phandle-caches.md (argument cells skipped by the
 *   target's #...-cells, 0 when missing), every node but the overlay
 *   metadata (__symbols__, __fixups__, __local_fixups__).
 * - boot: what a Linux boot does (see ph_gen_boot.c): early lookups before
 *   of_core_init() by interrupt controllers, early clock providers and
 *   timers; then, per enabled device, fw_devlink's parse of its supplier
 *   properties and the driver's own parses at probe (entry i of a list
 *   re-walks entries 0..i; each interrupt climbs to its interrupt parent),
 *   repeated for deferred probes. Disabled nodes make no lookups.
 * - bootloader: a driver-model bootloader binding every enabled node: path,
 *   alias, parent and cells lookups beside the phandle lookups (see
 *   ph_gen_bootloader.c for what it assumes).
 */
#ifndef FDTCACHE_TOOLS_PH_GEN_H
#define FDTCACHE_TOOLS_PH_GEN_H

#include <glib.h>

#include "ph_trace.h"
#include "ph_tree.h"

enum ph_model {
	PH_MODEL_BOOT,
	PH_MODEL_REFERENCE,
	PH_MODEL_BOOTLOADER, /* typed and phandle lookups (ph_gen_bootloader.c) */
};

struct ph_gen_opts {
	enum ph_model model;
	guint core_init_after; /* reference: @core_init after N lookups (0: before the first) */
	/* boot model knobs (ph_gen_defaults sets them) */
	gboolean early;        /* lookups before of_core_init() */
	gboolean devlink;      /* fw_devlink's supplier parse of every device */
	guint probes;          /* driver probe passes per device (1 + deferred retries) */
	guint irq_parses;      /* interrupt parent lookups per interrupt and probe */
	gboolean probe_lists;  /* a probe fetches every entry of a list (not just the first) */
	gboolean disabled;     /* disabled nodes look up too */
};

/* ph_gen_defaults - the default options of model. */
void ph_gen_defaults(struct ph_gen_opts *opts, enum ph_model model);

/*
 * ph_gen - append the synthetic trace of tree (the DTB dtb_name) to an
 * empty trace and, when text is not NULL, the trace file: a header naming
 * the model and the DTB ("# dtb: NAME sha256 HEX"), and a comment per
 * lookup naming the node and property it comes from.
 */
void ph_gen(struct ph_trace *trace, const struct ph_tree *tree, const char *dtb_name,
	    const struct ph_gen_opts *opts, GString *text);

/* A consumer of the trace text written so far: it takes it out of text. */
typedef void (*ph_gen_sink)(GString *text, gpointer data);

/*
 * ph_gen_stream - ph_gen, handing text to sink whenever it holds a chunk
 * (64 KiB) and the trace a lookup, so the text never grows with the trace;
 * what is left at the end stays in text. An empty trace's text never reaches
 * sink.
 */
void ph_gen_stream(struct ph_trace *trace, const struct ph_tree *tree, const char *dtb_name,
		   const struct ph_gen_opts *opts, GString *text, ph_gen_sink sink, gpointer data);

/* The generator's state, shared by the models (ph_gen.c, ph_gen_boot.c). */
struct ph_gen {
	struct ph_trace *trace;
	const struct ph_tree *tree;
	const struct ph_gen_opts *opts;
	GString *text;
	ph_gen_sink sink; /* or NULL: text holds the whole trace */
	gpointer sink_data;
	gboolean marked; /* @core_init written */
};

/*
 * ph_gen_emit - one lookup, with the node's path and a reason as its comment,
 * both escaped as text (they hold DTB names).
 */
void ph_gen_emit(struct ph_gen *g, guint32 phandle, guint node, const char *why);

/* ph_gen_core_init - the @core_init line, at the current position (once). */
void ph_gen_core_init(struct ph_gen *g);

/* ph_gen_boot - the boot model's lookups (ph_gen_boot.c). */
void ph_gen_boot(struct ph_gen *g);

/* ph_gen_bootloader - the bootloader model's lookups (ph_gen_bootloader.c). */
void ph_gen_bootloader(struct ph_gen *g);

#endif /* FDTCACHE_TOOLS_PH_GEN_H */

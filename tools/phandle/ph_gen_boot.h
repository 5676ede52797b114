/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ph_gen_boot.h - what the boot model's two halves share: a property's
 * references, the kernel's ways of fetching them (entry i re-walks 0..i)
 * and of parsing interrupts (ph_gen_boot.c), and the early boot before
 * of_core_init() (ph_gen_boot_early.c).
 */
#ifndef FDTCACHE_TOOLS_PH_GEN_BOOT_H
#define FDTCACHE_TOOLS_PH_GEN_BOOT_H

#include <glib.h>

#include "ph_gen.h"
#include "ph_refs.h"

/* The references of one property, in order. */
struct ph_boot_refs {
	GArray *ph;      /* guint32 */
	gboolean broken; /* the list ends at an unresolved reference */
};

static inline guint32 ph_boot_ref_at(const struct ph_boot_refs *r, guint i)
{
	return g_array_index(r->ph, guint32, i);
}

/* ph_boot_read_refs - r = the references of property value v (len bytes) under rule. */
void ph_boot_read_refs(const struct ph_tree *t, guint node, struct ph_ref_rule rule,
		       const void *v, int len, struct ph_boot_refs *r);

/* ph_boot_walk_to - one walk of the list up to entry last (inclusive). */
void ph_boot_walk_to(struct ph_gen *g, guint node, const struct ph_boot_refs *r, guint last,
		     const char *why);

/* ph_boot_fetch_each - entry 0, 1, ... by index; stops past an unresolved one. */
void ph_boot_fetch_each(struct ph_gen *g, guint node, const struct ph_boot_refs *r,
			const char *why);

/*
 * ph_boot_irq_parent - of_irq_find_parent: the interrupt controller above
 * node (PH_NO_NODE if none), a lookup per interrupt-parent met when emit.
 */
guint ph_boot_irq_parent(struct ph_gen *g, guint node, gboolean emit, const char *why);

/* ph_boot_prop_cells - node's property name as cells (*n of them), or NULL. */
const guint32 *ph_boot_prop_cells(const struct ph_tree *t, guint node, const char *name,
				  guint *n);

/* ph_boot_parse_irq - of_irq_parse_one for interrupt j of node. */
void ph_boot_parse_irq(struct ph_gen *g, guint node, guint j, const char *why);

/* ph_boot_irq_count - the number of interrupts in node's "interrupts". */
guint ph_boot_irq_count(struct ph_gen *g, guint node);

/* ph_boot_parse_irqs - each interrupt of node parsed times times. */
void ph_boot_parse_irqs(struct ph_gen *g, guint node, guint times, const char *why);

/* ph_boot_usable - not overlay metadata, and enabled (or --disabled). */
gboolean ph_boot_usable(const struct ph_gen *g, const struct ph_node *n);

/* Kinds of early node: of_irq_init, of_clk_init, timer_probe. */
enum ph_boot_early {
	PH_BOOT_EARLY_NONE,
	PH_BOOT_EARLY_INTC,
	PH_BOOT_EARLY_CLK,
	PH_BOOT_EARLY_TIMER,
};

/*
 * ph_boot_gen_early - the lookups before of_core_init(), with each node's
 * kind in early[] (those get no platform device later).
 */
void ph_boot_gen_early(struct ph_gen *g, guint8 *early, struct ph_boot_refs *r);

#endif /* FDTCACHE_TOOLS_PH_GEN_BOOT_H */

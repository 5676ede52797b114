/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The boot model: the of_find_node_by_phandle() calls of a Linux 6.x boot,
 * from what the kernel's OF code does (drivers/of/{base,irq,property}.c):
 *
 * - Entry i of a <phandle args...> list is fetched by walking entries 0..i,
 *   each walk step a lookup (of_phandle_iterator_next), so reading all k
 *   entries one by one costs k(k+1)/2.
 * - An interrupt is parsed by climbing to the nearest interrupt-parent (a
 *   lookup per interrupt-parent met, of_irq_find_parent); below a node with
 *   interrupt-map, the map's entries are scanned up to the match, looking up
 *   each entry's parent (of_irq_parse_imap_parent).
 * - Before of_core_init() (ph_gen_boot_early.c): interrupt controllers,
 *   early clock providers, timers and the CPUs' topology and caches. Those
 *   nodes get no platform device later.
 * - After it, per enabled device in tree order: fw_devlink's supplier parse
 *   of the device's properties and of its subnodes without a compatible
 *   (index 0, 1, ... until a fetch fails: k(k+1)/2 + k for a list of k), then
 *   the driver's parses at probe: pinctrl states (a lookup per phandle),
 *   the first entry of each list (clk_get(dev, NULL) and the like; every
 *   entry by index with probe_lists), supplies, each interrupt, power
 *   domains (counted, then attached); thermal zones are read when their
 *   sensor registers.
 * - Disabled nodes (status not "okay") and overlay metadata make none.
 */
#include "ph_gen_boot.h"

#include <libfdt.h>
#include <string.h>

static void collect(guint32 phandle, guint target, gpointer data)
{
	struct ph_boot_refs *r = data;

	g_array_append_val(r->ph, phandle);
	if (target == PH_NO_NODE)
		r->broken = TRUE;
}

/* The references of one property, in order. */
void ph_boot_read_refs(const struct ph_tree *t, guint node, struct ph_ref_rule rule,
		       const void *v, int len, struct ph_boot_refs *r)
{
	g_array_set_size(r->ph, 0);
	r->broken = FALSE;
	if (v && len >= 4)
		ph_ref_each(t, node, rule, v, (guint32)len / 4, collect, r);
}

/* One walk of the list up to entry last (inclusive). */
void ph_boot_walk_to(struct ph_gen *g, guint node, const struct ph_boot_refs *r, guint last,
		     const char *why)
{
	for (guint i = 0; i <= last && i < r->ph->len; i++)
		ph_gen_emit(g, ph_boot_ref_at(r, i), node, why);
}

/* Entry 0, 1, ... fetched by index (i + 1 lookups each); fails past an unresolved one. */
void ph_boot_fetch_each(struct ph_gen *g, guint node, const struct ph_boot_refs *r,
			const char *why)
{
	for (guint i = 0; i < r->ph->len; i++) {
		ph_boot_walk_to(g, node, r, i, why);
		if (ph_tree_find(g->tree, ph_boot_ref_at(r, i)) == PH_NO_NODE)
			return;
	}
}

/*
 * of_irq_find_parent: climb from node to an interrupt controller (a node
 * with #interrupt-cells), a lookup per interrupt-parent met when emit.
 */
guint ph_boot_irq_parent(struct ph_gen *g, guint node, gboolean emit, const char *why)
{
	const struct ph_tree *t = g->tree;
	guint child = node;

	for (guint hops = 0; hops <= t->nodes->len; hops++) {
		const struct ph_node *c = ph_tree_node(t, child);
		guint p = c->parent;

		if (c->interrupt_parent) {
			p = ph_tree_find(t, c->interrupt_parent);
			if (emit)
				ph_gen_emit(g, c->interrupt_parent, node, why);
		}
		if (p == PH_NO_NODE || (ph_tree_node(t, p)->flags & PH_NODE_ICELLS))
			return p;
		child = p;
	}
	return PH_NO_NODE; /* interrupt-parents in a loop */
}

const guint32 *ph_boot_prop_cells(const struct ph_tree *t, guint node, const char *name, guint *n)
{
	int len = 0;
	const guint32 *v = fdt_getprop(t->fdt, ph_tree_node(t, node)->offset, name, &len);

	*n = v && len > 0 ? (guint)len / 4 : 0;
	return v;
}

/* Does interrupt-map entry e (child address + specifier) match key under mask? */
static gboolean imap_match(const guint32 *e, const guint32 *key, const guint32 *mask, guint n)
{
	for (guint i = 0; i < n; i++)
		if ((g_ntohl(e[i]) ^ key[i]) & (mask ? g_ntohl(mask[i]) : G_MAXUINT32))
			return FALSE;
	return TRUE;
}

/* of_irq_parse_raw below a nexus: scan interrupt-map up to the entry for interrupt j. */
static void imap_scan(struct ph_gen *g, guint node, guint nexus, guint j, const char *why)
{
	const struct ph_tree *t = g->tree;
	guint32 addr = 0, isz = ph_tree_cells(t, nexus, "#interrupt-cells", 0);
	guint nmap, nmask, nreg, nirq;
	const guint32 *map = ph_boot_prop_cells(t, nexus, "interrupt-map", &nmap);
	const guint32 *mask, *reg = ph_boot_prop_cells(t, node, "reg", &nreg);
	const guint32 *irq = ph_boot_prop_cells(t, node, "interrupts", &nirq);
	guint32 key[16] = { 0 };

	for (guint n = nexus; n != PH_NO_NODE; n = ph_tree_node(t, n)->parent)
		if (ph_tree_has_cells(t, n, "#address-cells")) {
			addr = ph_tree_cells(t, n, "#address-cells", 2);
			break;
		}
	if (addr + isz > G_N_ELEMENTS(key))
		return;
	for (guint i = 0; i < addr && i < nreg; i++)
		key[i] = g_ntohl(reg[i]);
	for (guint i = 0; i < isz && (j * isz + i) < nirq; i++)
		key[addr + i] = g_ntohl(irq[j * isz + i]);
	mask = ph_boot_prop_cells(t, nexus, "interrupt-map-mask", &nmask);
	if (nmask != addr + isz)
		mask = NULL;
	for (guint i = 0; i + addr + isz < nmap;) {
		guint32 ph = g_ntohl(map[i + addr + isz]);
		guint target = ph_tree_find(t, ph);

		ph_gen_emit(g, ph, node, why);
		if (target == PH_NO_NODE || imap_match(map + i, key, mask, addr + isz))
			return;
		i += addr + isz + 1 + ph_tree_cells(t, target, "#address-cells", 0) +
		     ph_tree_cells(t, target, "#interrupt-cells", 0);
	}
}

/* of_irq_parse_one for interrupt j of node: the climb, then a nexus's map. */
void ph_boot_parse_irq(struct ph_gen *g, guint node, guint j, const char *why)
{
	guint p = ph_boot_irq_parent(g, node, TRUE, why);

	if (p != PH_NO_NODE && (ph_tree_node(g->tree, p)->flags & PH_NODE_IMAP) &&
	    !(ph_tree_node(g->tree, p)->flags & PH_NODE_INTC))
		imap_scan(g, node, p, j, why);
}

/* The number of interrupts in node's "interrupts". */
guint ph_boot_irq_count(struct ph_gen *g, guint node)
{
	guint n;
	guint p;
	guint32 cells;

	if (!ph_boot_prop_cells(g->tree, node, "interrupts", &n) || !n)
		return 0;
	p = ph_boot_irq_parent(g, node, FALSE, NULL);
	cells = p == PH_NO_NODE ? 0 : ph_tree_cells(g->tree, p, "#interrupt-cells", 0);
	return cells ? n / cells : 0;
}

void ph_boot_parse_irqs(struct ph_gen *g, guint node, guint times, const char *why)
{
	guint n = ph_boot_irq_count(g, node);

	for (guint j = 0; j < n; j++)
		for (guint k = 0; k < times; k++)
			ph_boot_parse_irq(g, node, j, why);
}

/* fw_devlink's supplier bindings (of_supplier_bindings in drivers/of/property.c). */
static gboolean is_devlink_prop(const char *name, struct ph_ref_rule rule)
{
	static const char *const not_suppliers[] = {
		"assigned-clocks", "assigned-clock-parents", "cooling-device", "gpio-ranges",
		"sound-dai", "mux-controls", "sram", "nvmem", "cpu", "phy-handle",
		"memory-region", "cpu-idle-states", "operating-points-v2", "thermal-sensors",
		"interrupt-map", "msi-map", "interrupts-extended", "dmas",
	};

	if (rule.kind == PH_REF_NONE || rule.guessed)
		return FALSE;
	for (gsize i = 0; i < G_N_ELEMENTS(not_suppliers); i++)
		if (!strcmp(name, not_suppliers[i]))
			return FALSE;
	return TRUE;
}

/* A property at fw_devlink time. */
static void devlink_prop(struct ph_gen *g, guint node, const char *name, struct ph_ref_rule rule,
			 const struct ph_boot_refs *r)
{
	g_autofree char *why = g_strdup_printf("%s fw_devlink", name);

	if (!r->ph->len || !is_devlink_prop(name, rule))
		return;
	if (g_str_has_suffix(name, "-supply") || !strcmp(name, "remote-endpoint")) {
		ph_boot_walk_to(g, node, r, 0, why);
		return;
	}
	ph_boot_fetch_each(g, node, r, why);
	if (!r->broken)
		ph_boot_walk_to(g, node, r, r->ph->len - 1, why); /* the failing next index */
}

/* A property at probe. */
static void probe_prop(struct ph_gen *g, guint node, const char *name, struct ph_ref_rule rule,
		       const struct ph_boot_refs *r)
{
	g_autofree char *why = g_strdup_printf("%s probe", name);

	/*
	 * interrupt-map is only scanned by interrupt parses (imap_scan); DMA
	 * channels are requested when a transfer needs one, which the captured
	 * boots never do (no lookup of a DMA controller on sabrelite or raspi3b).
	 */
	if (!r->ph->len || rule.kind == PH_REF_IMAP || !strcmp(name, "dmas"))
		return;
	if (!strncmp(name, "pinctrl-", 8) || rule.kind == PH_REF_IDMAP) {
		ph_boot_walk_to(g, node, r, r->ph->len - 1, why); /* each phandle once */
	} else if (rule.kind == PH_REF_SINGLE) {
		ph_boot_walk_to(g, node, r, 0, why);
	} else if (!strcmp(name, "power-domains")) {
		ph_boot_walk_to(g, node, r, r->ph->len - 1, why); /* counted */
		ph_boot_walk_to(g, node, r, 0, why);              /* attached */
	} else if (g->opts->probe_lists) {
		ph_boot_fetch_each(g, node, r, why);
	} else {
		ph_boot_walk_to(g, node, r, 0, why); /* the first entry: clk_get(dev, NULL) and the like */
	}
}

typedef void (*prop_fn)(struct ph_gen *g, guint node, const char *name, struct ph_ref_rule rule,
			const struct ph_boot_refs *r);

static void each_prop(struct ph_gen *g, guint node, struct ph_boot_refs *r, prop_fn fn)
{
	const struct ph_tree *t = g->tree;
	const struct ph_node *n = ph_tree_node(t, node);
	int prop;

	fdt_for_each_property_offset(prop, t->fdt, n->offset) {
		const char *name;
		int len;
		const void *v = fdt_getprop_by_offset(t->fdt, prop, &name, &len);
		struct ph_ref_rule rule;

		if (!v || !name)
			continue;
		rule = ph_ref_classify(name, n->flags, PH_REFS_BOOT);
		if (rule.kind == PH_REF_NONE || !strcmp(name, "interrupt-parent"))
			continue; /* interrupt-parent: met by the climbs */
		ph_boot_read_refs(t, node, rule, v, len, r);
		fn(g, node, name, rule, r);
	}
}

gboolean ph_boot_usable(const struct ph_gen *g, const struct ph_node *n)
{
	return !(n->flags & PH_NODE_META) && (g->opts->disabled || !(n->flags & PH_NODE_DISABLED));
}

static gboolean in_thermal_zones(const struct ph_tree *t, guint i)
{
	return g_str_has_prefix(ph_tree_path(t, i), "/thermal-zones/");
}

/* After of_core_init: devices in tree order. */
static void gen_devices(struct ph_gen *g, const guint8 *early, struct ph_boot_refs *r)
{
	const struct ph_tree *t = g->tree;
	const struct ph_gen_opts *o = g->opts;
	/* per node: is it a device, or below one (fw_devlink parses its subtree) */
	guint8 *in_device = g_new0(guint8, MAX(t->nodes->len, 1));

	for (guint i = 0; i < t->nodes->len; i++) {
		const struct ph_node *n = ph_tree_node(t, i);
		gboolean device = n->depth && (n->flags & PH_NODE_COMPAT) && !early[i];

		if (!ph_boot_usable(g, n))
			continue;
		in_device[i] = device || (n->depth > 1 && in_device[n->parent]);
		if (o->devlink && in_device[i]) {
			guint irqs = ph_boot_irq_count(g, i);

			each_prop(g, i, r, devlink_prop);
			for (guint j = 0; irqs && j <= irqs; j++) /* by index until one fails */
				ph_boot_parse_irq(g, i, j, "interrupts fw_devlink");
		}
		if (!device && !in_thermal_zones(t, i))
			continue;
		for (guint p = 0; p < o->probes; p++) {
			each_prop(g, i, r, probe_prop);
			ph_boot_parse_irqs(g, i, o->irq_parses, "interrupts probe");
		}
	}
	g_free(in_device);
}

void ph_gen_boot(struct ph_gen *g)
{
	const struct ph_tree *t = g->tree;
	guint8 *early = g_new0(guint8, MAX(t->nodes->len, 1));
	struct ph_boot_refs r = { .ph = g_array_new(FALSE, FALSE, sizeof(guint32)) };

	if (g->opts->early)
		ph_boot_gen_early(g, early, &r);
	ph_gen_core_init(g);
	gen_devices(g, early, &r);
	g_array_free(r.ph, TRUE);
	g_free(early);
}

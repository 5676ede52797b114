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
 * - Before of_core_init(): of_irq_init() finds each interrupt controller's
 *   parent, a GIC maps interrupt 0, other controllers their chained
 *   interrupts; of_clk_init() passes over the early clock providers until
 *   each one's parents are registered (or a pass forces the rest), each
 *   init applying assigned-clocks twice; timer_probe() runs each timer
 *   driver's own reads; arm64 reads the cpu-map and each CPU's cache chain
 *   twice. Those nodes get no platform device later.
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
#include "ph_gen.h"

#include <libfdt.h>
#include <string.h>

#include "ph_refs.h"

struct refs {
	GArray *ph; /* guint32 */
	gboolean broken; /* the list ends at an unresolved reference */
};

static void collect(guint32 phandle, guint target, gpointer data)
{
	struct refs *r = data;

	g_array_append_val(r->ph, phandle);
	if (target == PH_NO_NODE)
		r->broken = TRUE;
}

/* The references of one property, in order. */
static void read_refs(const struct ph_tree *t, guint node, struct ph_ref_rule rule,
		      const void *v, int len, struct refs *r)
{
	g_array_set_size(r->ph, 0);
	r->broken = FALSE;
	if (v && len >= 4)
		ph_ref_each(t, node, rule, v, (guint32)len / 4, collect, r);
}

static guint32 ref_at(const struct refs *r, guint i)
{
	return g_array_index(r->ph, guint32, i);
}

/* One walk of the list up to entry last (inclusive). */
static void walk_to(struct ph_gen *g, guint node, const struct refs *r, guint last, const char *why)
{
	for (guint i = 0; i <= last && i < r->ph->len; i++)
		ph_gen_emit(g, ref_at(r, i), node, why);
}

/* Entry 0, 1, ... fetched by index (i + 1 lookups each); fails past an unresolved one. */
static void fetch_each(struct ph_gen *g, guint node, const struct refs *r, const char *why)
{
	for (guint i = 0; i < r->ph->len; i++) {
		walk_to(g, node, r, i, why);
		if (ph_tree_find(g->tree, ref_at(r, i)) == PH_NO_NODE)
			return;
	}
}

/*
 * of_irq_find_parent: climb from node to an interrupt controller (a node
 * with #interrupt-cells), a lookup per interrupt-parent met when emit.
 */
static guint irq_parent(struct ph_gen *g, guint node, gboolean emit, const char *why)
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

static const guint32 *prop_cells(const struct ph_tree *t, guint node, const char *name, guint *n)
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
	const guint32 *map = prop_cells(t, nexus, "interrupt-map", &nmap);
	const guint32 *mask, *reg = prop_cells(t, node, "reg", &nreg);
	const guint32 *irq = prop_cells(t, node, "interrupts", &nirq);
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
	mask = prop_cells(t, nexus, "interrupt-map-mask", &nmask);
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
static void parse_irq(struct ph_gen *g, guint node, guint j, const char *why)
{
	guint p = irq_parent(g, node, TRUE, why);

	if (p != PH_NO_NODE && (ph_tree_node(g->tree, p)->flags & PH_NODE_IMAP) &&
	    !(ph_tree_node(g->tree, p)->flags & PH_NODE_INTC))
		imap_scan(g, node, p, j, why);
}

/* The number of interrupts in node's "interrupts". */
static guint irq_count(struct ph_gen *g, guint node)
{
	guint n;
	guint p;
	guint32 cells;

	if (!prop_cells(g->tree, node, "interrupts", &n) || !n)
		return 0;
	p = irq_parent(g, node, FALSE, NULL);
	cells = p == PH_NO_NODE ? 0 : ph_tree_cells(g->tree, p, "#interrupt-cells", 0);
	return cells ? n / cells : 0;
}

static void parse_irqs(struct ph_gen *g, guint node, guint times, const char *why)
{
	guint n = irq_count(g, node);

	for (guint j = 0; j < n; j++)
		for (guint k = 0; k < times; k++)
			parse_irq(g, node, j, why);
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
			 const struct refs *r)
{
	g_autofree char *why = g_strdup_printf("%s fw_devlink", name);

	if (!r->ph->len || !is_devlink_prop(name, rule))
		return;
	if (g_str_has_suffix(name, "-supply") || !strcmp(name, "remote-endpoint")) {
		walk_to(g, node, r, 0, why);
		return;
	}
	fetch_each(g, node, r, why);
	if (!r->broken)
		walk_to(g, node, r, r->ph->len - 1, why); /* the failing next index */
}

/* A property at probe. */
static void probe_prop(struct ph_gen *g, guint node, const char *name, struct ph_ref_rule rule,
		       const struct refs *r)
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
		walk_to(g, node, r, r->ph->len - 1, why); /* each phandle once */
	} else if (rule.kind == PH_REF_SINGLE) {
		walk_to(g, node, r, 0, why);
	} else if (!strcmp(name, "power-domains")) {
		walk_to(g, node, r, r->ph->len - 1, why); /* counted */
		walk_to(g, node, r, 0, why);              /* attached */
	} else if (g->opts->probe_lists) {
		fetch_each(g, node, r, why);
	} else {
		walk_to(g, node, r, 0, why); /* the first entry: clk_get(dev, NULL) and the like */
	}
}

typedef void (*prop_fn)(struct ph_gen *g, guint node, const char *name, struct ph_ref_rule rule,
			const struct refs *r);

static void each_prop(struct ph_gen *g, guint node, struct refs *r, prop_fn fn)
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
		read_refs(t, node, rule, v, len, r);
		fn(g, node, name, rule, r);
	}
}

static gboolean compatible_has(const struct ph_tree *t, guint node, const char *word)
{
	int len = 0;
	const char *v = fdt_getprop(t->fdt, ph_tree_node(t, node)->offset, "compatible", &len);

	for (int i = 0; v && i < len; i += (int)strnlen(v + i, (gsize)(len - i)) + 1)
		if (strstr(v + i, word))
			return TRUE;
	return FALSE;
}

static gboolean usable(const struct ph_gen *g, const struct ph_node *n)
{
	return !(n->flags & PH_NODE_META) && (g->opts->disabled || !(n->flags & PH_NODE_DISABLED));
}

/* Kinds of early node: of_irq_init, of_clk_init, timer_probe. */
enum early { EARLY_NONE, EARLY_INTC, EARLY_CLK, EARLY_TIMER };

/* Names of early clock providers and timers (CLK_OF_DECLARE, TIMER_OF_DECLARE users). */
static gboolean early_clock_name(const struct ph_tree *t, guint i)
{
	static const char *const words[] = {
		"fixed-clock", "fixed-factor-clock", "ccm", "cru", "sp810", "-ccu", "clkc",
	};

	for (gsize k = 0; k < G_N_ELEMENTS(words); k++)
		if (compatible_has(t, i, words[k]))
			return TRUE;
	return ph_tree_has_cells(t, i, "#reset-cells");
}

static gboolean early_timer_name(const struct ph_tree *t, guint i)
{
	return compatible_has(t, i, "timer") || compatible_has(t, i, "sp804") ||
	       compatible_has(t, i, "-gpt");
}

static enum early early_kind(const struct ph_gen *g, guint i)
{
	const struct ph_tree *t = g->tree;
	const struct ph_node *n = ph_tree_node(t, i);

	if (!usable(g, n) || !(n->flags & PH_NODE_COMPAT) || !n->depth)
		return EARLY_NONE;
	if ((n->flags & PH_NODE_INTC) && !(n->flags & PH_NODE_GPIO_CTRL))
		return EARLY_INTC;
	if (ph_tree_has_cells(t, i, "#clock-cells") && early_clock_name(t, i))
		return EARLY_CLK;
	if (early_timer_name(t, i) && irq_count((struct ph_gen *)g, i))
		return EARLY_TIMER;
	return EARLY_NONE;
}

static void read_named(struct ph_gen *g, guint node, const char *name, struct refs *r)
{
	const struct ph_tree *t = g->tree;
	int len = 0;
	const void *v = fdt_getprop(t->fdt, ph_tree_node(t, node)->offset, name, &len);

	read_refs(t, node, ph_ref_classify(name, 0, PH_REFS_BOOT), v, len, r);
}

/* The index of name in node's list_names (e.g. clock-names), or -1. */
static int name_index(const struct ph_tree *t, guint node, const char *list_names, const char *name)
{
	return fdt_stringlist_search(t->fdt, ph_tree_node(t, node)->offset, list_names, name);
}

/* of_clk_get_by_name and the like: entry name of list by index (none when absent). */
static void walk_named(struct ph_gen *g, guint node, const struct refs *r, const char *list_names,
		       const char *name, const char *why)
{
	int i = name_index(g->tree, node, list_names, name);

	if (i >= 0)
		walk_to(g, node, r, (guint)i, why);
}

/* of_count_phandle_with_args: every entry once. */
static void count_refs(struct ph_gen *g, guint node, const struct refs *r, const char *why)
{
	if (r->ph->len)
		walk_to(g, node, r, r->ph->len - 1, why);
}

/* Does entry i of assigned-clock-parents name the node itself? */
static gboolean names_itself(const struct ph_gen *g, guint node, const struct refs *r, guint i)
{
	return i < r->ph->len && ph_tree_find(g->tree, ref_at(r, i)) == node;
}

/*
 * __set_clk_parents: the parents counted, then per parent index the parent
 * and the clock it is for; a device (not a provider) stops at a parent it
 * supplies itself.
 */
static void set_clk_parents(struct ph_gen *g, guint node, const struct refs *clocks,
			    const struct refs *parents, gboolean supplier, const char *why)
{
	count_refs(g, node, parents, why);
	for (guint i = 0; i < parents->ph->len; i++) {
		walk_to(g, node, parents, i, why);
		if (!supplier && names_itself(g, node, parents, i))
			return;
		walk_to(g, node, clocks, i, why);
	}
}

/*
 * of_clk_set_defaults (drivers/clk/clk-conf.c): the parents, then the
 * clock of each non-zero assigned-clock-rates entry by index.
 */
static void clk_set_defaults(struct ph_gen *g, guint node, gboolean supplier, const char *stage)
{
	struct refs clocks = { .ph = g_array_new(FALSE, FALSE, sizeof(guint32)) };
	struct refs parents = { .ph = g_array_new(FALSE, FALSE, sizeof(guint32)) };
	g_autofree char *why = g_strdup_printf("assigned-clocks %s", stage);
	guint nrates;
	const guint32 *rates = prop_cells(g->tree, node, "assigned-clock-rates", &nrates);

	read_named(g, node, "assigned-clocks", &clocks);
	read_named(g, node, "assigned-clock-parents", &parents);
	set_clk_parents(g, node, &clocks, &parents, supplier, why);
	for (guint i = 0; i < nrates; i++)
		if (rates[i])
			walk_to(g, node, &clocks, i, why);
	g_array_free(parents.ph, TRUE);
	g_array_free(clocks.ph, TRUE);
}

/*
 * i.MX6Q/DL's clock driver (clk-imx6q.c) reads its own assigned clocks
 * before registering: pll6_bypassed() walks assigned-clocks by index (none
 * is the PLL6 bypass on boards that keep it), of_assigned_ldb_sels() the
 * parents and clocks as __set_clk_parents does.
 */
static void imx6q_ccm_init(struct ph_gen *g, guint node)
{
	struct refs clocks = { .ph = g_array_new(FALSE, FALSE, sizeof(guint32)) };
	struct refs parents = { .ph = g_array_new(FALSE, FALSE, sizeof(guint32)) };

	read_named(g, node, "assigned-clocks", &clocks);
	read_named(g, node, "assigned-clock-parents", &parents);
	count_refs(g, node, &clocks, "assigned-clocks pll6_bypassed");
	for (guint i = 0; i < clocks.ph->len; i++)
		walk_to(g, node, &clocks, i, "assigned-clocks pll6_bypassed");
	set_clk_parents(g, node, &clocks, &parents, TRUE, "assigned-clocks of_assigned_ldb_sels");
	g_array_free(parents.ph, TRUE);
	g_array_free(clocks.ph, TRUE);
}

/* A CLK_OF_DECLARE provider's own init: its parents' names (of_clk_parent_fill). */
static void clk_provider_init(struct ph_gen *g, guint node, struct refs *r)
{
	const char *why = "clocks of_clk_init";

	read_named(g, node, "clocks", r);
	if (compatible_has(g->tree, node, "fsl,imx6q-ccm")) {
		imx6q_ccm_init(g, node);
	} else if (compatible_has(g->tree, node, "arm,sp810")) {
		for (guint i = 0; i < 2; i++) /* refclk and timclk only */
			walk_to(g, node, r, i, why);
	} else {
		fetch_each(g, node, r, why);
	}
	clk_set_defaults(g, node, TRUE, "of_clk_add_provider");
}

/*
 * parent_ready(): of_clk_get by index 0, 1, ... while each parent is a
 * registered provider; the fetch past the last entry walks the whole list.
 */
static gboolean clk_parent_ready(struct ph_gen *g, guint node, const guint8 *registered,
				 struct refs *r)
{
	read_named(g, node, "clocks", r);
	for (guint i = 0; i <= r->ph->len; i++) {
		guint target;

		walk_to(g, node, r, i, "clocks parent_ready");
		if (i == r->ph->len)
			break;
		target = ph_tree_find(g->tree, ref_at(r, i));
		if (target == PH_NO_NODE)
			return TRUE; /* an error, not a deferral: taken as no parent */
		if (!registered[target])
			return FALSE;
	}
	return TRUE;
}

/*
 * of_clk_init (drivers/clk/clk.c): passes over the providers in tree
 * order, each initialised once its parents are registered; a pass that
 * initialises none forces the rest. Init adds the provider (whose
 * of_clk_add_provider applies its assigned clocks), then of_clk_init
 * applies them again.
 */
static void early_clocks(struct ph_gen *g, const guint8 *early, struct refs *r)
{
	const struct ph_tree *t = g->tree;
	guint8 *done = g_new0(guint8, MAX(t->nodes->len, 1));
	gboolean force = FALSE, left = TRUE;

	while (left) {
		gboolean progress = FALSE;

		left = FALSE;
		for (guint i = 0; i < t->nodes->len; i++) {
			if (early[i] != EARLY_CLK || done[i])
				continue;
			if (!force && !clk_parent_ready(g, i, done, r)) {
				left = TRUE;
				continue;
			}
			clk_provider_init(g, i, r);
			clk_set_defaults(g, i, TRUE, "of_clk_init");
			done[i] = progress = TRUE;
		}
		force = !progress;
	}
	g_free(done);
}

/* irq_of_parse_and_map(node, 0) and of_clk_get(node, 0): most TIMER_OF_DECLARE drivers. */
static void timer_first_irq_clk(struct ph_gen *g, guint node, struct refs *r)
{
	parse_irq(g, node, 0, "interrupts timer_probe");
	read_named(g, node, "clocks", r);
	walk_to(g, node, r, 0, "clocks timer_probe");
}

/* The ARM architected timer maps its PPIs by index, secure to hyp-virtual (5). */
static void arch_timer(struct ph_gen *g, guint node)
{
	for (guint j = 0; j < 5; j++)
		parse_irq(g, node, j, "interrupts arch_timer_of_init");
}

/* sp804_of_init: clock 0, the count, clock 1 when there are three, interrupt 0. */
static void sp804_timer(struct ph_gen *g, guint node, struct refs *r)
{
	const char *why = "clocks sp804_of_init";

	read_named(g, node, "clocks", r);
	walk_to(g, node, r, 0, why);
	count_refs(g, node, r, why);
	if (r->ph->len == 3)
		walk_to(g, node, r, 1, why);
	parse_irq(g, node, 0, "interrupts sp804_of_init");
}

/* mxc_timer_init_dt: interrupt 0, clocks "ipg" then "osc_per" (else "per"). */
static void imx_gpt_timer(struct ph_gen *g, guint node, struct refs *r)
{
	const char *why = "clocks mxc_timer_init_dt";

	parse_irq(g, node, 0, "interrupts mxc_timer_init_dt");
	read_named(g, node, "clocks", r);
	walk_named(g, node, r, "clock-names", "ipg", why);
	if (name_index(g->tree, node, "clock-names", "osc_per") >= 0)
		walk_named(g, node, r, "clock-names", "osc_per", why);
	else
		walk_named(g, node, r, "clock-names", "per", why);
}

/* timer_probe: each early timer by its driver's rule (sp804: the first only). */
static void early_timers(struct ph_gen *g, const guint8 *early, struct refs *r)
{
	const struct ph_tree *t = g->tree;
	gboolean sp804_done = FALSE;

	for (guint i = 0; i < t->nodes->len; i++) {
		if (early[i] != EARLY_TIMER)
			continue;
		if (compatible_has(t, i, "arm,armv7-timer") || compatible_has(t, i, "arm,armv8-timer")) {
			arch_timer(g, i);
		} else if (compatible_has(t, i, "arm,sp804")) {
			if (!sp804_done)
				sp804_timer(g, i, r);
			sp804_done = TRUE;
		} else if (compatible_has(t, i, "-gpt")) {
			imx_gpt_timer(g, i, r);
		} else {
			timer_first_irq_clk(g, i, r);
		}
	}
}

/*
 * of_irq_init: each controller's parent, then each initialised: a GIC maps
 * interrupt 0 (its maintenance interrupt, or a secondary's cascade), other
 * controllers map the interrupts they are chained to.
 */
static void early_irqchips(struct ph_gen *g, const guint8 *early)
{
	const struct ph_tree *t = g->tree;

	for (guint i = 0; i < t->nodes->len; i++)
		if (early[i] == EARLY_INTC)
			irq_parent(g, i, TRUE, "interrupt-parent of_irq_init");
	for (guint i = 0; i < t->nodes->len; i++) {
		if (early[i] != EARLY_INTC)
			continue;
		if (compatible_has(t, i, "-gic") || compatible_has(t, i, ",gic"))
			parse_irq(g, i, 0, "interrupts gic_of_init");
		else
			parse_irqs(g, i, 1, "interrupts irqchip init");
	}
}

/* Does a CPU compatible name a 64-bit Arm core (an arm64 kernel's DT)? */
static gboolean arm64_core(const char *c)
{
	static const char *const prefixes[] = {
		"arm,armv8", "arm,cortex-x", "arm,neoverse", "qcom,kryo", "apple,", "cavium,thunder",
		"nvidia,denver", "nvidia,carmel", "brcm,brahma-b53", "brcm,vulcan",
	};

	if (g_str_has_prefix(c, "arm,cortex-a"))
		return g_ascii_strtoull(c + 12, NULL, 10) >= 34; /* a5..a32 are 32-bit */
	for (gsize i = 0; i < G_N_ELEMENTS(prefixes); i++)
		if (g_str_has_prefix(c, prefixes[i]))
			return TRUE;
	return FALSE;
}

static gboolean is_cpu(const struct ph_tree *t, guint i)
{
	const struct ph_node *n = ph_tree_node(t, i);
	const char *type = fdt_getprop(t->fdt, n->offset, "device_type", NULL);

	return n->parent != PH_NO_NODE && !strcmp(ph_tree_path(t, n->parent), "/cpus") && type &&
	       !strcmp(type, "cpu");
}

static gboolean cpu_is_arm64(const struct ph_tree *t, guint i)
{
	int len = 0;
	const char *v = fdt_getprop(t->fdt, ph_tree_node(t, i)->offset, "compatible", &len);

	for (int k = 0; v && k < len; k += (int)strnlen(v + k, (gsize)(len - k)) + 1)
		if (arm64_core(v + k))
			return TRUE;
	return FALSE;
}

/* of_find_next_cache_node: "l2-cache", else "next-level-cache" (a lookup each when present). */
static guint next_cache(struct ph_gen *g, guint node, const char *why)
{
	static const char *const props[] = { "l2-cache", "next-level-cache" };

	for (gsize k = 0; k < G_N_ELEMENTS(props); k++) {
		guint n;
		const guint32 *v = prop_cells(g->tree, node, props[k], &n);

		if (v && n) {
			ph_gen_emit(g, g_ntohl(v[0]), node, why);
			return ph_tree_find(g->tree, g_ntohl(v[0]));
		}
	}
	return PH_NO_NODE;
}

/* A CPU's cache chain, one lookup per level (a loop in the DT ends it). */
static void walk_caches(struct ph_gen *g, guint cpu, const char *why)
{
	guint n = cpu;

	for (guint hops = 0; n != PH_NO_NODE && hops < 8; hops++)
		n = next_cache(g, n, why);
}

/*
 * arm64's smp_prepare_cpus and each secondary's start, before of_core_init:
 * the topology's cpu-map (a lookup per "cpu" in it), and per CPU the cache
 * info (of_find_last_cache_level walks the cache chain, cache_setup_of_node
 * walks it again for the levels above L1). 32-bit Arm reads neither.
 */
static void early_cpus(struct ph_gen *g)
{
	const struct ph_tree *t = g->tree;
	gboolean arm64 = FALSE;

	for (guint i = 0; i < t->nodes->len && !arm64; i++)
		arm64 = is_cpu(t, i) && usable(g, ph_tree_node(t, i)) && cpu_is_arm64(t, i);
	if (!arm64)
		return;
	for (guint i = 0; i < t->nodes->len; i++) {
		guint n;
		const guint32 *v = prop_cells(t, i, "cpu", &n);

		if (v && n && g_str_has_prefix(ph_tree_path(t, i), "/cpus/cpu-map/"))
			ph_gen_emit(g, g_ntohl(v[0]), i, "cpu parse_dt_topology");
	}
	for (guint i = 0; i < t->nodes->len; i++) {
		if (!is_cpu(t, i) || !usable(g, ph_tree_node(t, i)))
			continue;
		walk_caches(g, i, "next-level-cache of_find_last_cache_level");
		walk_caches(g, i, "next-level-cache cache_setup_of_node");
	}
}

static void gen_early(struct ph_gen *g, guint8 *early, struct refs *r)
{
	const struct ph_tree *t = g->tree;

	for (guint i = 0; i < t->nodes->len; i++)
		early[i] = (guint8)early_kind(g, i);
	early_irqchips(g, early);
	early_clocks(g, early, r);
	early_timers(g, early, r);
	early_cpus(g);
}

static gboolean in_thermal_zones(const struct ph_tree *t, guint i)
{
	return g_str_has_prefix(ph_tree_path(t, i), "/thermal-zones/");
}

/* After of_core_init: devices in tree order. */
static void gen_devices(struct ph_gen *g, const guint8 *early, struct refs *r)
{
	const struct ph_tree *t = g->tree;
	const struct ph_gen_opts *o = g->opts;
	/* per node: is it a device, or below one (fw_devlink parses its subtree) */
	guint8 *in_device = g_new0(guint8, MAX(t->nodes->len, 1));

	for (guint i = 0; i < t->nodes->len; i++) {
		const struct ph_node *n = ph_tree_node(t, i);
		gboolean device = n->depth && (n->flags & PH_NODE_COMPAT) && !early[i];

		if (!usable(g, n))
			continue;
		in_device[i] = device || (n->depth > 1 && in_device[n->parent]);
		if (o->devlink && in_device[i]) {
			guint irqs = irq_count(g, i);

			each_prop(g, i, r, devlink_prop);
			for (guint j = 0; irqs && j <= irqs; j++) /* by index until one fails */
				parse_irq(g, i, j, "interrupts fw_devlink");
		}
		if (!device && !in_thermal_zones(t, i))
			continue;
		for (guint p = 0; p < o->probes; p++) {
			each_prop(g, i, r, probe_prop);
			parse_irqs(g, i, o->irq_parses, "interrupts probe");
		}
	}
	g_free(in_device);
}

void ph_gen_boot(struct ph_gen *g)
{
	const struct ph_tree *t = g->tree;
	guint8 *early = g_new0(guint8, MAX(t->nodes->len, 1));
	struct refs r = { .ph = g_array_new(FALSE, FALSE, sizeof(guint32)) };

	if (g->opts->early)
		gen_early(g, early, &r);
	ph_gen_core_init(g);
	gen_devices(g, early, &r);
	g_array_free(r.ph, TRUE);
	g_free(early);
}

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The boot model before of_core_init(), as a Linux 6.1 boot runs it
 * (start_kernel's init_IRQ and time_init, then smp_prepare_cpus):
 *
 * - of_irq_init(): each interrupt controller's parent; then a GIC maps
 *   interrupt 0 (maintenance, or a secondary's cascade), other controllers
 *   the interrupts they are chained to.
 * - of_clk_init() (drivers/clk/clk.c): passes over the early providers in
 *   tree order until each one's parents are registered (a pass that
 *   registers none forces the rest); each init reads its parents' names
 *   and applies its assigned-clocks twice (of_clk_add_provider, then
 *   of_clk_init), with the i.MX6 CCM's and the SP810's own reads.
 * - timer_probe(): each timer driver's reads (architected timer, SP804,
 *   i.MX GPT; the first interrupt and clock for the others).
 * - arm64 only: the cpu-map's cpu phandles and each CPU's cache chain,
 *   walked twice by the cache info.
 */
#include "ph_gen_boot.h"

#include <libfdt.h>
#include <string.h>

static gboolean compatible_has(const struct ph_tree *t, guint node, const char *word)
{
	int len = 0;
	const char *v = fdt_getprop(t->fdt, ph_tree_node(t, node)->offset, "compatible", &len);

	for (int i = 0; v && i < len; i += (int)strnlen(v + i, (gsize)(len - i)) + 1)
		if (strstr(v + i, word))
			return TRUE;
	return FALSE;
}


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

static enum ph_boot_early early_kind(const struct ph_gen *g, guint i)
{
	const struct ph_tree *t = g->tree;
	const struct ph_node *n = ph_tree_node(t, i);

	if (!ph_boot_usable(g, n) || !(n->flags & PH_NODE_COMPAT) || !n->depth)
		return PH_BOOT_EARLY_NONE;
	if ((n->flags & PH_NODE_INTC) && !(n->flags & PH_NODE_GPIO_CTRL))
		return PH_BOOT_EARLY_INTC;
	if (ph_tree_has_cells(t, i, "#clock-cells") && early_clock_name(t, i))
		return PH_BOOT_EARLY_CLK;
	if (early_timer_name(t, i) && ph_boot_irq_count((struct ph_gen *)g, i))
		return PH_BOOT_EARLY_TIMER;
	return PH_BOOT_EARLY_NONE;
}

static void read_named(struct ph_gen *g, guint node, const char *name, struct ph_boot_refs *r)
{
	const struct ph_tree *t = g->tree;
	int len = 0;
	const void *v = fdt_getprop(t->fdt, ph_tree_node(t, node)->offset, name, &len);

	ph_boot_read_refs(t, node, ph_ref_classify(name, 0, PH_REFS_BOOT), v, len, r);
}

/* The index of name in node's list_names (e.g. clock-names), or -1. */
static int name_index(const struct ph_tree *t, guint node, const char *list_names, const char *name)
{
	return fdt_stringlist_search(t->fdt, ph_tree_node(t, node)->offset, list_names, name);
}

/* of_clk_get_by_name and the like: entry name of list by index (none when absent). */
static void walk_named(struct ph_gen *g, guint node, const struct ph_boot_refs *r,
		       const char *list_names, const char *name, const char *why)
{
	int i = name_index(g->tree, node, list_names, name);

	if (i >= 0)
		ph_boot_walk_to(g, node, r, (guint)i, why);
}

/* of_count_phandle_with_args: every entry once. */
static void count_refs(struct ph_gen *g, guint node, const struct ph_boot_refs *r, const char *why)
{
	if (r->ph->len)
		ph_boot_walk_to(g, node, r, r->ph->len - 1, why);
}

/* Does entry i of assigned-clock-parents name the node itself? */
static gboolean names_itself(const struct ph_gen *g, guint node, const struct ph_boot_refs *r,
			     guint i)
{
	return i < r->ph->len && ph_tree_find(g->tree, ph_boot_ref_at(r, i)) == node;
}

/*
 * __set_clk_parents: the parents counted, then per parent index the parent
 * and the clock it is for; a device (not a provider) stops at a parent it
 * supplies itself.
 */
static void set_clk_parents(struct ph_gen *g, guint node, const struct ph_boot_refs *clocks,
			    const struct ph_boot_refs *parents, gboolean supplier, const char *why)
{
	count_refs(g, node, parents, why);
	for (guint i = 0; i < parents->ph->len; i++) {
		ph_boot_walk_to(g, node, parents, i, why);
		if (!supplier && names_itself(g, node, parents, i))
			return;
		ph_boot_walk_to(g, node, clocks, i, why);
	}
}

/*
 * of_clk_set_defaults (drivers/clk/clk-conf.c): the parents, then the
 * clock of each non-zero assigned-clock-rates entry by index.
 */
static void clk_set_defaults(struct ph_gen *g, guint node, gboolean supplier, const char *stage)
{
	struct ph_boot_refs clocks = { .ph = g_array_new(FALSE, FALSE, sizeof(guint32)) };
	struct ph_boot_refs parents = { .ph = g_array_new(FALSE, FALSE, sizeof(guint32)) };
	g_autofree char *why = g_strdup_printf("assigned-clocks %s", stage);
	guint nrates;
	const guint32 *rates = ph_boot_prop_cells(g->tree, node, "assigned-clock-rates", &nrates);

	read_named(g, node, "assigned-clocks", &clocks);
	read_named(g, node, "assigned-clock-parents", &parents);
	set_clk_parents(g, node, &clocks, &parents, supplier, why);
	for (guint i = 0; i < nrates; i++)
		if (rates[i])
			ph_boot_walk_to(g, node, &clocks, i, why);
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
	struct ph_boot_refs clocks = { .ph = g_array_new(FALSE, FALSE, sizeof(guint32)) };
	struct ph_boot_refs parents = { .ph = g_array_new(FALSE, FALSE, sizeof(guint32)) };

	read_named(g, node, "assigned-clocks", &clocks);
	read_named(g, node, "assigned-clock-parents", &parents);
	count_refs(g, node, &clocks, "assigned-clocks pll6_bypassed");
	for (guint i = 0; i < clocks.ph->len; i++)
		ph_boot_walk_to(g, node, &clocks, i, "assigned-clocks pll6_bypassed");
	set_clk_parents(g, node, &clocks, &parents, TRUE, "assigned-clocks of_assigned_ldb_sels");
	g_array_free(parents.ph, TRUE);
	g_array_free(clocks.ph, TRUE);
}

/* A CLK_OF_DECLARE provider's own init: its parents' names (of_clk_parent_fill). */
static void clk_provider_init(struct ph_gen *g, guint node, struct ph_boot_refs *r)
{
	const char *why = "clocks of_clk_init";

	read_named(g, node, "clocks", r);
	if (compatible_has(g->tree, node, "fsl,imx6q-ccm")) {
		imx6q_ccm_init(g, node);
	} else if (compatible_has(g->tree, node, "arm,sp810")) {
		for (guint i = 0; i < 2; i++) /* refclk and timclk only */
			ph_boot_walk_to(g, node, r, i, why);
	} else {
		ph_boot_fetch_each(g, node, r, why);
	}
	clk_set_defaults(g, node, TRUE, "of_clk_add_provider");
}

/*
 * parent_ready(): of_clk_get by index 0, 1, ... while each parent is a
 * registered provider; the fetch past the last entry walks the whole list.
 */
static gboolean clk_parent_ready(struct ph_gen *g, guint node, const guint8 *registered,
				 struct ph_boot_refs *r)
{
	read_named(g, node, "clocks", r);
	for (guint i = 0; i <= r->ph->len; i++) {
		guint target;

		ph_boot_walk_to(g, node, r, i, "clocks parent_ready");
		if (i == r->ph->len)
			break;
		target = ph_tree_find(g->tree, ph_boot_ref_at(r, i));
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
static void early_clocks(struct ph_gen *g, const guint8 *early, struct ph_boot_refs *r)
{
	const struct ph_tree *t = g->tree;
	guint8 *done = g_new0(guint8, MAX(t->nodes->len, 1));
	gboolean force = FALSE, left = TRUE;

	while (left) {
		gboolean progress = FALSE;

		left = FALSE;
		for (guint i = 0; i < t->nodes->len; i++) {
			if (early[i] != PH_BOOT_EARLY_CLK || done[i])
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
static void timer_first_irq_clk(struct ph_gen *g, guint node, struct ph_boot_refs *r)
{
	ph_boot_parse_irq(g, node, 0, "interrupts timer_probe");
	read_named(g, node, "clocks", r);
	ph_boot_walk_to(g, node, r, 0, "clocks timer_probe");
}

/* The ARM architected timer maps its PPIs by index, secure to hyp-virtual (5). */
static void arch_timer(struct ph_gen *g, guint node)
{
	for (guint j = 0; j < 5; j++)
		ph_boot_parse_irq(g, node, j, "interrupts arch_timer_of_init");
}

/* sp804_of_init: clock 0, the count, clock 1 when there are three, interrupt 0. */
static void sp804_timer(struct ph_gen *g, guint node, struct ph_boot_refs *r)
{
	const char *why = "clocks sp804_of_init";

	read_named(g, node, "clocks", r);
	ph_boot_walk_to(g, node, r, 0, why);
	count_refs(g, node, r, why);
	if (r->ph->len == 3)
		ph_boot_walk_to(g, node, r, 1, why);
	ph_boot_parse_irq(g, node, 0, "interrupts sp804_of_init");
}

/* mxc_timer_init_dt: interrupt 0, clocks "ipg" then "osc_per" (else "per"). */
static void imx_gpt_timer(struct ph_gen *g, guint node, struct ph_boot_refs *r)
{
	const char *why = "clocks mxc_timer_init_dt";

	ph_boot_parse_irq(g, node, 0, "interrupts mxc_timer_init_dt");
	read_named(g, node, "clocks", r);
	walk_named(g, node, r, "clock-names", "ipg", why);
	if (name_index(g->tree, node, "clock-names", "osc_per") >= 0)
		walk_named(g, node, r, "clock-names", "osc_per", why);
	else
		walk_named(g, node, r, "clock-names", "per", why);
}

/* timer_probe: each early timer by its driver's rule (sp804: the first only). */
static void early_timers(struct ph_gen *g, const guint8 *early, struct ph_boot_refs *r)
{
	const struct ph_tree *t = g->tree;
	gboolean sp804_done = FALSE;

	for (guint i = 0; i < t->nodes->len; i++) {
		if (early[i] != PH_BOOT_EARLY_TIMER)
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
		if (early[i] == PH_BOOT_EARLY_INTC)
			ph_boot_irq_parent(g, i, TRUE, "interrupt-parent of_irq_init");
	for (guint i = 0; i < t->nodes->len; i++) {
		if (early[i] != PH_BOOT_EARLY_INTC)
			continue;
		if (compatible_has(t, i, "-gic") || compatible_has(t, i, ",gic"))
			ph_boot_parse_irq(g, i, 0, "interrupts gic_of_init");
		else
			ph_boot_parse_irqs(g, i, 1, "interrupts irqchip init");
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
		const guint32 *v = ph_boot_prop_cells(g->tree, node, props[k], &n);

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
		arm64 = is_cpu(t, i) && ph_boot_usable(g, ph_tree_node(t, i)) && cpu_is_arm64(t, i);
	if (!arm64)
		return;
	for (guint i = 0; i < t->nodes->len; i++) {
		guint n;
		const guint32 *v = ph_boot_prop_cells(t, i, "cpu", &n);

		if (v && n && g_str_has_prefix(ph_tree_path(t, i), "/cpus/cpu-map/"))
			ph_gen_emit(g, g_ntohl(v[0]), i, "cpu parse_dt_topology");
	}
	for (guint i = 0; i < t->nodes->len; i++) {
		if (!is_cpu(t, i) || !ph_boot_usable(g, ph_tree_node(t, i)))
			continue;
		walk_caches(g, i, "next-level-cache of_find_last_cache_level");
		walk_caches(g, i, "next-level-cache cache_setup_of_node");
	}
}

void ph_boot_gen_early(struct ph_gen *g, guint8 *early, struct ph_boot_refs *r)
{
	const struct ph_tree *t = g->tree;

	for (guint i = 0; i < t->nodes->len; i++)
		early[i] = (guint8)early_kind(g, i);
	early_irqchips(g, early);
	early_clocks(g, early, r);
	early_timers(g, early, r);
	early_cpus(g);
}

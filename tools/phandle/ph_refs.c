/* SPDX-License-Identifier: BSD-2-Clause */
#include "ph_refs.h"

#include <string.h>

struct named_args {
	const char *name;
	const char *cells;
};

/* <phandle args...> lists of spec/phandle-caches.md. */
static const struct named_args reference_args[] = {
	{ "clocks", "#clock-cells" },
	{ "resets", "#reset-cells" },
	{ "power-domains", "#power-domain-cells" },
	{ "phys", "#phy-cells" },
	{ "dmas", "#dma-cells" },
	{ "iommus", "#iommu-cells" },
	{ "pwms", "#pwm-cells" },
	{ "mboxes", "#mbox-cells" },
	{ "interconnects", "#interconnect-cells" },
	{ "thermal-sensors", "#thermal-sensor-cells" },
	{ "io-channels", "#io-channel-cells" },
	{ "interrupts-extended", "#interrupt-cells" },
};

/* Lists real boots look up beyond those (drivers and fw_devlink's suppliers). */
static const struct named_args boot_args[] = {
	{ "cooling-device", "#cooling-cells" },
	{ "assigned-clocks", "#clock-cells" },
	{ "assigned-clock-parents", "#clock-cells" },
	{ "msi-parent", "#msi-cells" },
	{ "hwlocks", "#hwlock-cells" },
	{ "sound-dai", "#sound-dai-cells" },
	{ "mux-controls", "#mux-control-cells" },
	{ "nvmem-cells", "#nvmem-cell-cells" },
};

static const char *const reference_lists[] = {
	"cpu-idle-states", "operating-points-v2", "memory-region",
};
static const char *const boot_lists[] = { "extcon", "nvmem", "sram" };
static const char *const reference_singles[] = {
	"interrupt-parent", "cpu", "remote-endpoint", "phy-handle",
};
static const char *const boot_singles[] = {
	"backlight", "panel", "wakeup-parent", "ddc-i2c-bus", "i2c-bus",
};

static gboolean in_list(const char *name, const char *const *list, gsize n)
{
	for (gsize i = 0; i < n; i++)
		if (!strcmp(name, list[i]))
			return TRUE;
	return FALSE;
}

static const char *args_cells(const char *name, const struct named_args *list, gsize n)
{
	for (gsize i = 0; i < n; i++)
		if (!strcmp(name, list[i].name))
			return list[i].cells;
	return NULL;
}

/* pinctrl-N: a list of pin configuration phandles (not pinctrl-names). */
static gboolean is_pinctrl_n(const char *name)
{
	const char *n = name + strlen("pinctrl-");

	if (strncmp(name, "pinctrl-", strlen("pinctrl-")) || !*n)
		return FALSE;
	for (; *n; n++)
		if (!g_ascii_isdigit(*n))
			return FALSE;
	return TRUE;
}

/*
 * gpios / *-gpios, except a gpio-hog's gpios (numbers, of_parse_own_gpio)
 * and the *,nr-gpios counts of some controllers.
 */
static gboolean is_gpio_list(const char *name, guint32 flags)
{
	if (!strcmp(name, "gpios"))
		return !(flags & PH_NODE_GPIO_HOG);
	return g_str_has_suffix(name, "-gpios") && !g_str_has_suffix(name, ",nr-gpios");
}

/* Vendor phandles to a system controller (rockchip,grf, fsl,...-syscon, ...). */
static gboolean is_syscon_ref(const char *name)
{
	static const char *const tails[] = { "syscon", ",grf", "-grf", ",pmu", ",gpr", ",sysreg" };

	if (!strchr(name, ','))
		return FALSE;
	for (gsize i = 0; i < G_N_ELEMENTS(tails); i++)
		if (g_str_has_suffix(name, tails[i]))
			return TRUE;
	return strstr(name, "syscon") != NULL;
}

struct ph_ref_rule ph_ref_classify(const char *name, guint32 flags, enum ph_ref_set set)
{
	struct ph_ref_rule r = { PH_REF_NONE, NULL, FALSE };
	gboolean boot = set == PH_REFS_BOOT;

	if ((r.cells = args_cells(name, reference_args, G_N_ELEMENTS(reference_args))) ||
	    (boot && (r.cells = args_cells(name, boot_args, G_N_ELEMENTS(boot_args))))) {
		r.kind = PH_REF_ARGS;
	} else if (is_gpio_list(name, flags)) {
		r.kind = PH_REF_ARGS;
		r.cells = "#gpio-cells";
	} else if (boot && !strcmp(name, "gpio-ranges")) {
		r.kind = PH_REF_ARGS; /* 3 fixed args: no target #cells */
		r.cells = "";
	} else if (is_pinctrl_n(name) ||
		   in_list(name, reference_lists, G_N_ELEMENTS(reference_lists)) ||
		   (boot && in_list(name, boot_lists, G_N_ELEMENTS(boot_lists)))) {
		r.kind = PH_REF_LIST;
	} else if (g_str_has_suffix(name, "-supply") ||
		   in_list(name, reference_singles, G_N_ELEMENTS(reference_singles)) ||
		   (boot && in_list(name, boot_singles, G_N_ELEMENTS(boot_singles)))) {
		r.kind = PH_REF_SINGLE;
	} else if (boot && is_syscon_ref(name)) {
		r.kind = PH_REF_SINGLE;
		r.guessed = TRUE;
	} else if (boot && !strcmp(name, "interrupt-map")) {
		r.kind = PH_REF_IMAP;
	} else if (boot && (!strcmp(name, "msi-map") || !strcmp(name, "iommu-map"))) {
		r.kind = PH_REF_IDMAP;
	}
	return r;
}

/* The #address-cells an interrupt-map is read with: the node's or an ancestor's, else 2. */
static guint32 imap_addr_cells(const struct ph_tree *tree, guint node)
{
	for (guint n = node; n != PH_NO_NODE; n = ph_tree_node(tree, n)->parent)
		if (ph_tree_has_cells(tree, n, "#address-cells"))
			return ph_tree_cells(tree, n, "#address-cells", 2);
	return 2;
}

/* interrupt-map entries: a lookup of each entry's parent; stops where a parent is unknown. */
static guint each_imap(const struct ph_tree *tree, guint node, const guint32 *cell, guint32 n,
		       ph_ref_fn fn, gpointer data)
{
	guint64 child = (guint64)imap_addr_cells(tree, node) +
			ph_tree_cells(tree, node, "#interrupt-cells", 0);
	guint count = 0;

	for (guint64 i = child; i < n;) {
		guint32 phandle = g_ntohl(cell[i]);
		guint target = ph_tree_find(tree, phandle);

		fn(phandle, target, data);
		count++;
		if (target == PH_NO_NODE)
			break;
		i += 1 + (guint64)ph_tree_cells(tree, target, "#address-cells", 0) +
		     ph_tree_cells(tree, target, "#interrupt-cells", 0) + child;
	}
	return count;
}

guint ph_ref_each(const struct ph_tree *tree, guint node, struct ph_ref_rule rule,
		  const guint32 *cell, guint32 n, ph_ref_fn fn, gpointer data)
{
	guint count = 0;

	if (rule.kind == PH_REF_IMAP)
		return each_imap(tree, node, cell, n, fn, data);
	if (rule.kind == PH_REF_SINGLE)
		n = MIN(n, 1);
	for (guint32 i = rule.kind == PH_REF_IDMAP ? 1 : 0; rule.kind != PH_REF_NONE && i < n; i++) {
		guint32 phandle = g_ntohl(cell[i]);
		guint target;

		if (!phandle) {
			if (rule.kind == PH_REF_IDMAP)
				i += 3;
			continue; /* an empty entry, no args */
		}
		target = ph_tree_find(tree, phandle);
		if (target == PH_NO_NODE && rule.guessed)
			break;
		fn(phandle, target, data);
		count++;
		if (rule.kind == PH_REF_IDMAP) {
			i += 3; /* rid-base phandle out-base length */
		} else if (rule.kind == PH_REF_ARGS) {
			if (target == PH_NO_NODE)
				break; /* unresolved: where its args end is unknown */
			i += MIN(*rule.cells ? ph_tree_cells(tree, target, rule.cells, 0) : 3, n - i);
		}
	}
	return count;
}

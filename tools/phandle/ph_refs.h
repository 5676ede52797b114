/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ph_refs.h - which device-tree properties refer to phandles, and how
 * (spec/phandle-caches.md, plus the properties real boots look up), with a
 * walker over one property's references.
 */
#ifndef FDTCACHE_TOOLS_PH_REFS_H
#define FDTCACHE_TOOLS_PH_REFS_H

#include <glib.h>

#include "ph_tree.h"

enum ph_ref_kind {
	PH_REF_NONE,
	PH_REF_ARGS,   /* <phandle args...>*, args counted by the target's #cells */
	PH_REF_LIST,   /* <phandle>* */
	PH_REF_SINGLE, /* <phandle> (further cells are not phandles) */
	PH_REF_IMAP,   /* interrupt-map: <child-addr child-irq parent parent-addr parent-irq>* */
	PH_REF_IDMAP,  /* msi-map / iommu-map: <rid-base phandle id-base length>* */
};

/* Which properties a generator reads (the boot model reads more). */
enum ph_ref_set {
	PH_REFS_REFERENCE, /* the list of spec/phandle-caches.md */
	PH_REFS_BOOT,      /* plus what real boots look up */
};

struct ph_ref_rule {
	enum ph_ref_kind kind;
	const char *cells; /* PH_REF_ARGS: the target's #...-cells ("": 3 fixed args) */
	gboolean guessed;  /* recognised by its name only: unresolved values are no references */
};

/*
 * ph_ref_classify - how property name of a node with flags refers to
 * phandles under set.
 */
struct ph_ref_rule ph_ref_classify(const char *name, guint32 flags, enum ph_ref_set set);

/*
 * ph_ref_each - call fn(phandle, target, data) for each phandle reference
 * of a property (n cells at cell, big-endian) under rule, in order, as
 * Linux's of_phandle_iterator reads them: 0 is an empty entry; a reference
 * whose target is unknown ends an ARGS list (where its args end is unknown).
 * target is PH_NO_NODE for an unresolved phandle. Returns the number of
 * references.
 */
typedef void (*ph_ref_fn)(guint32 phandle, guint target, gpointer data);
guint ph_ref_each(const struct ph_tree *tree, guint node, struct ph_ref_rule rule,
		  const guint32 *cell, guint32 n, ph_ref_fn fn, gpointer data);

#endif /* FDTCACHE_TOOLS_PH_REFS_H */

/* SPDX-License-Identifier: BSD-2-Clause */
#include "bench_defs.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

G_DEFINE_QUARK(bench-defs-error-quark, bench_defs_error)

static const struct bench_name variant_names[] = {
	{ "ours", BENCH_VARIANT_OURS },
	{ "zephyr-pre", BENCH_VARIANT_ZEPHYR_PRE },
	{ "zephyr", BENCH_VARIANT_ZEPHYR },
	{ "zms", BENCH_VARIANT_ZMS },
	{ "zms-zephyr", BENCH_VARIANT_ZMS_ZEPHYR },
	{ NULL, 0 },
};

static const struct bench_name wait_names[] = {
	{ "tick", BENCH_WAIT_TICK },
	{ "spin", BENCH_WAIT_SPIN },
	{ "adaptive", BENCH_WAIT_ADAPTIVE },
	{ NULL, 0 },
};

static const struct bench_name auto_names[] = {
	{ "auto", BENCH_AUTO },
	{ NULL, 0 },
};

static const struct bench_name bool_names[] = {
	{ "off", 0 },
	{ "on", 1 },
	{ NULL, 0 },
};

static const struct bench_knob_info knobs[BENCH_KNOB_COUNT] = {
	[BENCH_K_VARIANT] = { "variant", "engine algorithms: ours, zephyr-pre (before the "
			      "first-write fix), zephyr (after it); on ZMS: zms (ours), zms-zephyr",
			      BENCH_VARIANT_OURS, 0, 4, variant_names, false },
	[BENCH_K_SECTORS] = { "sectors", "sectors in the partition", 8, 2, 65535, NULL, true },
	[BENCH_K_SECTOR_SIZE] = { "sector_size", "bytes per sector (auto: the erase unit; NVS "
				  "takes up to 64 KiB, ZMS up to 1 GiB)",
				  BENCH_AUTO, 64, 1 << 30, auto_names, true },
	[BENCH_K_WRITE_BLOCK] = { "write_block", "write block in bytes (auto: the write unit)",
				  BENCH_AUTO, 1, 32, auto_names, true },
	[BENCH_K_VALUE_SIZE] = { "value_size", "bytes per value", 4, 0, 65535, NULL, true },
	[BENCH_K_ENTRIES] = { "entries", "ids or names the workload uses", 255, 1, 16383,
			      NULL, true },
	[BENCH_K_UPDATES] = { "updates", "updates of random and logging (auto: 4 x entries; "
			  "two wraps of the partition)", BENCH_AUTO, 1, 1 << 24, auto_names, true },
	[BENCH_K_LOOKUP_SLOTS] = { "lookup_slots", "NVS lookup slots (auto: 128 for Zephyr, "
				   "every id for ours)", BENCH_AUTO, 0, 1 << 20, auto_names, true },
	[BENCH_K_NAME_CACHE_SLOTS] = { "name_cache_slots", "settings name cache slots (auto: "
				       "256 for Zephyr, every name for ours)", BENCH_AUTO, 0,
				       1 << 20, auto_names, true },
	[BENCH_K_ATE_CACHE] = { "ate_cache", "NVS ATE read cache in bytes, 0 or a power of two "
				">= 2 ATE slots (auto: 256 for ours; Zephyr has none)", BENCH_AUTO, 0,
				65536, auto_names, true },
	[BENCH_K_DATA_CRC] = { "data_crc", "CRC-32 after each value", 0, 0, 1, bool_names, true },
	[BENCH_K_WAIT] = { "wait", "wait policy: tick, spin, adaptive", BENCH_WAIT_SPIN, 0, 2,
			   wait_names, false },
	[BENCH_K_TICK_NS] = { "tick_ns", "scheduler tick of the tick policy, ns", 1000000, 1,
			      INT64_C(1000000000), NULL, true },
	[BENCH_K_READ_CPU_NS] = { "read_cpu_ns", "CPU time of each flash read call (driver, "
				  "checks, crc8), ns", 5000, 0, INT64_C(1000000000), NULL, true },
	[BENCH_K_SEED] = { "seed", "seed of the random workloads", 1, 0, UINT32_MAX, NULL, true },
};

const struct bench_knob_info *bench_knob(enum bench_knob k)
{
	return &knobs[k];
}

int bench_knob_find(const char *name)
{
	for (int k = 0; k < BENCH_KNOB_COUNT; k++)
		if (!strcmp(knobs[k].name, name))
			return k;
	return -1;
}

static const char *value_name(enum bench_knob k, int64_t v)
{
	const struct bench_name *n = knobs[k].names;

	for (; n && n->name; n++)
		if (n->value == v)
			return n->name;
	return NULL;
}

static const struct bench_name *name_lookup(enum bench_knob k, const char *s, size_t len)
{
	const struct bench_name *n = knobs[k].names;

	for (; n && n->name; n++)
		if (strlen(n->name) == len && !strncmp(n->name, s, len))
			return n;
	return NULL;
}

void bench_knob_format(enum bench_knob k, int64_t v, char *buf, size_t len)
{
	const char *name = value_name(k, v);

	if (name)
		g_strlcpy(buf, name, len);
	else
		snprintf(buf, len, "%" G_GINT64_FORMAT, (gint64)v);
}

gboolean bench_knob_parse_value(enum bench_knob k, const char *text, int64_t *v)
{
	const struct bench_name *n = name_lookup(k, text, strlen(text));
	gint64 x;
	char *end;

	if (n) {
		*v = n->value;
		return TRUE;
	}
	if (!knobs[k].numeric || !*text)
		return FALSE;
	x = g_ascii_strtoll(text, &end, 10);
	if (*end)
		return FALSE;
	*v = x;
	return TRUE;
}

void bench_defs_init(struct bench_defs *defs)
{
	defs->geometries = g_ptr_array_new_with_free_func(g_free);
	for (int k = 0; k < BENCH_KNOB_COUNT; k++) {
		defs->values[k] = g_array_new(FALSE, FALSE, sizeof(int64_t));
		g_array_append_val(defs->values[k], knobs[k].def);
		defs->given[k] = false;
		defs->known[k] = NULL;
	}
}

void bench_defs_clear(struct bench_defs *defs)
{
	g_ptr_array_free(defs->geometries, TRUE);
	for (int k = 0; k < BENCH_KNOB_COUNT; k++) {
		g_array_free(defs->values[k], TRUE);
		if (defs->known[k])
			g_hash_table_unref(defs->known[k]);
	}
}

/* A recursive-descent reader over one -D argument, remembering positions. */
struct reader {
	const char *arg;
	const char *p;
	enum bench_knob knob;
	GArray *out;
};

static gboolean fail_at(const struct reader *r, const char *at, int code, GError **err,
			const char *fmt, ...) G_GNUC_PRINTF(5, 6);

static gboolean fail_at(const struct reader *r, const char *at, int code, GError **err,
			const char *fmt, ...)
{
	long col = (long)(at - r->arg);
	va_list ap;
	char *why;

	va_start(ap, fmt);
	why = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	g_set_error(err, BENCH_DEFS_ERROR, code, "-D %s: %s at position %ld\n  %s\n  %*s^",
		    r->arg, why, col + 1, r->arg, (int)col, "");
	g_free(why);
	return FALSE;
}

static void skip_space(struct reader *r)
{
	while (*r->p == ' ' || *r->p == '\t')
		r->p++;
}

static gboolean read_int(struct reader *r, int64_t *v, GError **err)
{
	const char *start = r->p;
	gboolean neg = FALSE;
	guint64 x;
	char *end;

	skip_space(r);
	start = r->p;
	if (*r->p == '-') {
		neg = TRUE;
		r->p++;
	}
	if (!g_ascii_isdigit(*r->p))
		return fail_at(r, start, BENCH_DEFS_ERROR_SYNTAX, err, "expected an integer");
	errno = 0;
	if (r->p[0] == '0' && (r->p[1] == 'x' || r->p[1] == 'X'))
		x = g_ascii_strtoull(r->p + 2, &end, 16);
	else
		x = g_ascii_strtoull(r->p, &end, 10);
	if (end == r->p + 2 && r->p[1] != '\0' && (r->p[1] == 'x' || r->p[1] == 'X'))
		return fail_at(r, start, BENCH_DEFS_ERROR_SYNTAX, err, "expected hex digits");
	if (errno || x > (guint64)INT64_MAX / 1048576)
		return fail_at(r, start, BENCH_DEFS_ERROR_RANGE, err, "integer too large");
	r->p = end;
	if (*r->p == 'k' || *r->p == 'K') {
		x *= 1024;
		r->p++;
	} else if (*r->p == 'm' || *r->p == 'M') {
		x *= 1048576;
		r->p++;
	}
	if (g_ascii_isalnum(*r->p) || *r->p == '_')
		return fail_at(r, r->p, BENCH_DEFS_ERROR_SYNTAX, err, "unexpected '%c' in a number",
			       *r->p);
	*v = neg ? -(int64_t)x : (int64_t)x;
	skip_space(r);
	return TRUE;
}

static gboolean expect(struct reader *r, char c, const char *what, GError **err)
{
	skip_space(r);
	if (*r->p != c) {
		if (!*r->p)
			return fail_at(r, r->p, BENCH_DEFS_ERROR_SYNTAX, err,
				       "expected %s, found the end", what);
		return fail_at(r, r->p, BENCH_DEFS_ERROR_SYNTAX, err, "expected %s, found '%c'",
			       what, *r->p);
	}
	r->p++;
	return TRUE;
}

static gboolean push(struct reader *r, const char *at, int64_t v, GError **err)
{
	const struct bench_knob_info *info = &knobs[r->knob];

	if (!value_name(r->knob, v) && (v < info->min || v > info->max))
		return fail_at(r, at, BENCH_DEFS_ERROR_RANGE, err,
			       "%s=%" G_GINT64_FORMAT " is outside %" G_GINT64_FORMAT "..%"
			       G_GINT64_FORMAT, info->name, (gint64)v, (gint64)info->min,
			       (gint64)info->max);
	if (r->out->len >= BENCH_MAX_VALUES)
		return fail_at(r, at, BENCH_DEFS_ERROR_TOO_MANY, err, "more than %u values",
			       BENCH_MAX_VALUES);
	g_array_append_val(r->out, v);
	return TRUE;
}

static gboolean read_range(struct reader *r, GError **err)
{
	const char *open = r->p - 1; /* at '(' */
	int64_t a[3];
	int n = 0;
	int64_t start = 0, stop, step = 1;

	do {
		if (n == 3)
			return fail_at(r, r->p - 1, BENCH_DEFS_ERROR_SYNTAX, err,
				       "range() takes at most 3 arguments");
		if (!read_int(r, &a[n++], err))
			return FALSE;
	} while (*r->p == ',' && r->p++);
	if (!expect(r, ')', "')' closing range(", err))
		return FALSE;
	if (n == 1) {
		stop = a[0];
	} else {
		start = a[0];
		stop = a[1];
		if (n == 3)
			step = a[2];
	}
	if (step == 0)
		return fail_at(r, open, BENCH_DEFS_ERROR_RANGE, err, "range() step is 0");
	if ((step > 0 && start >= stop) || (step < 0 && start <= stop))
		return fail_at(r, open, BENCH_DEFS_ERROR_RANGE, err, "range() is empty");
	/* stop and step may lie near the int64 limits: stop before v + step overflows */
	for (int64_t v = start;;) {
		if (!push(r, open, v, err))
			return FALSE;
		if (__builtin_add_overflow(v, step, &v) || (step > 0 ? v >= stop : v <= stop))
			return TRUE;
	}
}

static gboolean read_item(struct reader *r, GError **err)
{
	const char *start;
	const struct bench_name *name;
	size_t len;
	int64_t v;

	skip_space(r);
	start = r->p;
	if (!*r->p || *r->p == ',')
		return fail_at(r, start, BENCH_DEFS_ERROR_SYNTAX, err, "empty value");
	if (g_ascii_isdigit(*r->p) || *r->p == '-') {
		if (!knobs[r->knob].numeric)
			return fail_at(r, start, BENCH_DEFS_ERROR_SYNTAX, err,
				       "%s takes a name, not a number", knobs[r->knob].name);
		return read_int(r, &v, err) && push(r, start, v, err);
	}
	while (g_ascii_isalnum(*r->p) || *r->p == '_' || *r->p == '-')
		r->p++;
	len = (size_t)(r->p - start);
	if (len == 0)
		return fail_at(r, start, BENCH_DEFS_ERROR_SYNTAX, err, "unexpected '%c'", *start);
	if (len == 5 && !strncmp(start, "range", 5)) {
		if (!knobs[r->knob].numeric)
			return fail_at(r, start, BENCH_DEFS_ERROR_SYNTAX, err,
				       "%s takes names, not range()", knobs[r->knob].name);
		return expect(r, '(', "'(' after range", err) && read_range(r, err);
	}
	name = name_lookup(r->knob, start, len);
	if (!name) {
		GString *known = g_string_new(NULL);
		const struct bench_name *n = knobs[r->knob].names;

		for (; n && n->name; n++)
			g_string_append_printf(known, "%s%s", known->len ? ", " : "", n->name);
		if (knobs[r->knob].numeric)
			g_string_append_printf(known, "%sintegers, range()",
					       known->len ? ", " : "");
		fail_at(r, start, BENCH_DEFS_ERROR_UNKNOWN, err, "%s has no value '%.*s' (%s)",
			knobs[r->knob].name, (int)len, start, known->str);
		g_string_free(known, TRUE);
		return FALSE;
	}
	skip_space(r);
	return push(r, start, name->value, err);
}

gboolean bench_defs_parse(struct bench_defs *defs, const char *arg, GError **err)
{
	struct reader r = { .arg = arg, .p = arg };
	const char *eq = strchr(arg, '=');
	char *name;
	int k;

	if (!eq)
		return fail_at(&r, arg + strlen(arg), BENCH_DEFS_ERROR_SYNTAX, err,
			       "expected NAME=VALUE[,VALUE...]");
	name = g_strstrip(g_strndup(arg, (gsize)(eq - arg)));
	k = bench_knob_find(name);
	if (k < 0) {
		GString *known = g_string_new(NULL);

		for (int i = 0; i < BENCH_KNOB_COUNT; i++)
			g_string_append_printf(known, "%s%s", i ? ", " : "", knobs[i].name);
		fail_at(&r, arg, BENCH_DEFS_ERROR_UNKNOWN, err, "no knob '%s' (knobs: %s)",
			name, known->str);
		g_string_free(known, TRUE);
		g_free(name);
		return FALSE;
	}
	g_free(name);
	if (defs->given[k])
		return fail_at(&r, arg, BENCH_DEFS_ERROR_SYNTAX, err,
			       "%s given twice (list every value in one -D)", knobs[k].name);
	r.knob = (enum bench_knob)k;
	r.out = g_array_new(FALSE, FALSE, sizeof(int64_t));
	r.p = eq + 1;
	for (;;) {
		if (!read_item(&r, err))
			goto fail;
		if (!*r.p)
			break;
		if (*r.p != ',') {
			fail_at(&r, r.p, BENCH_DEFS_ERROR_SYNTAX, err, "expected ',' or the end, "
				"found '%c'", *r.p);
			goto fail;
		}
		r.p++;
	}
	g_array_free(defs->values[k], TRUE);
	defs->values[k] = r.out;
	defs->given[k] = true;
	return TRUE;
fail:
	g_array_free(r.out, TRUE);
	return FALSE;
}

gboolean bench_defs_add_geometries(struct bench_defs *defs, const char *arg,
				   const char *const *known, GError **err)
{
	char **names = g_strsplit(arg, ",", -1);

	for (char **n = names; *n; n++) {
		char *name = g_strstrip(*n);
		gboolean found = FALSE;

		for (const char *const *k = known; *k && !found; k++)
			found = !strcmp(*k, name);
		if (!found) {
			char *list = g_strjoinv(", ", (char **)known);

			g_set_error(err, BENCH_DEFS_ERROR, BENCH_DEFS_ERROR_UNKNOWN,
				    "-G %s: no geometry '%s' (geometries: %s)", arg, name, list);
			g_free(list);
			g_strfreev(names);
			return FALSE;
		}
		g_ptr_array_add(defs->geometries, g_strdup(name));
	}
	g_strfreev(names);
	return TRUE;
}

gboolean bench_defs_count(const struct bench_defs *defs, uint64_t *count, GError **err)
{
	uint64_t n = defs->geometries->len ? defs->geometries->len : 1;

	for (int k = 0; k < BENCH_KNOB_COUNT; k++) {
		n *= defs->values[k]->len;
		if (n > BENCH_MAX_PERMS) {
			g_set_error(err, BENCH_DEFS_ERROR, BENCH_DEFS_ERROR_TOO_MANY,
				    "more than %u permutations (narrow the -D lists)",
				    BENCH_MAX_PERMS);
			return FALSE;
		}
	}
	*count = n;
	return TRUE;
}

void bench_defs_perm(const struct bench_defs *defs, uint64_t index, struct bench_perm *perm)
{
	uint64_t rest = index;

	perm->index = index;
	for (int k = BENCH_KNOB_COUNT - 1; k >= 0; k--) {
		GArray *vals = defs->values[k];

		perm->v[k] = g_array_index(vals, int64_t, rest % vals->len);
		rest /= vals->len;
	}
	perm->geometry = defs->geometries->len ? g_ptr_array_index(defs->geometries, rest) : NULL;
}

gboolean bench_defs_varies(const struct bench_defs *defs, enum bench_knob k)
{
	return defs->values[k]->len > 1;
}

void bench_defs_describe(GString *out)
{
	for (int k = 0; k < BENCH_KNOB_COUNT; k++) {
		char def[32];

		bench_knob_format((enum bench_knob)k, knobs[k].def, def, sizeof(def));
		g_string_append_printf(out, "  %-17s %-9s %s\n", knobs[k].name, def, knobs[k].help);
	}
}

void bench_defs_add_value(struct bench_defs *defs, enum bench_knob k, int64_t v)
{
	GArray *vals = defs->values[k];

	if (!defs->known[k]) {
		defs->known[k] = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, NULL);
		for (guint i = 0; defs->given[k] && i < vals->len; i++)
			g_hash_table_add(defs->known[k], g_memdup2(&g_array_index(vals, int64_t, i),
								   sizeof(int64_t)));
	}
	if (!defs->given[k]) {
		g_array_set_size(vals, 0);
		defs->given[k] = true;
	}
	if (g_hash_table_contains(defs->known[k], &v))
		return;
	g_hash_table_add(defs->known[k], g_memdup2(&v, sizeof(v)));
	g_array_append_val(vals, v);
}

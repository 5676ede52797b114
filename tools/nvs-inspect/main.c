/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * nvs-inspect - read a Zephyr NVS / settings flash dump and report what is in
 * it, what a mount would do with it and what is wrong with it (the parts:
 * inspect.h). main.c: the options.
 */
#include "inspect.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/escape.h"

static int parse_id(const char *s)
{
	char *end;
	unsigned long v;

	if (!s)
		return -1;
	v = strtoul(s, &end, 0);
	if (*s == '\0' || *end || v >= FC_NVS_ID_SPECIAL)
		return -2;
	return (int)v;
}

/* A size, count or offset option: decimal or 0x hex, 0..0xffffffff. */
static gboolean parse_u32(const char *opt, const char *s, guint32 *v, char **why)
{
	guint64 n;
	char *end, *shown;

	if (!s)
		return TRUE;
	shown = tool_esc_name(s);
	errno = 0;
	n = g_ascii_strtoull(s, &end, 0);
	if (*s == '-')
		*why = g_strdup_printf("%s %s: must not be negative", opt, shown);
	else if (!g_ascii_isdigit(*s) || *end)
		*why = g_strdup_printf("%s %s: not a number (decimal, or hex with 0x)", opt, shown);
	else if (errno == ERANGE || n > G_MAXUINT32)
		*why = g_strdup_printf("%s %s: larger than the largest 32-bit value, %u", opt,
				       shown, G_MAXUINT32);
	g_free(shown);
	*v = (guint32)n;
	return *why == NULL;
}

/* --format-kind zms --history ID: any id of 64 bits (the ZMS code checks its width). */
static bool zms_history_id(const struct options *o)
{
	char *end;

	if (!o->format_kind || strcmp(o->format_kind, "zms"))
		return false;
	errno = 0;
	(void)g_ascii_strtoull(o->history, &end, 0);
	return !*end && errno == 0;
}

static int usage_error(GOptionContext *ctx, const char *msg)
{
	char *help = g_option_context_get_help(ctx, TRUE, NULL);

	g_printerr("nvs-inspect: %s\n%s", msg, help);
	g_free(help);
	return 2;
}

static int parse_options(struct inspect *in, int *argc, char ***argv)
{
	struct options *o = &in->opt;
	gboolean version = FALSE;
	GOptionEntry entries[] = {
		{ "sector-size", 0, 0, G_OPTION_ARG_STRING, &o->sector_size_s, "Sector size in bytes (default: detect)", "BYTES" },
		{ "sectors", 0, 0, G_OPTION_ARG_STRING, &o->sectors_s, "Number of sectors (default: detect)", "N" },
		{ "write-block", 0, 0, G_OPTION_ARG_STRING, &o->write_block_s, "Write block size in bytes (default: detect)", "BYTES" },
		{ "offset", 0, 0, G_OPTION_ARG_STRING, &o->offset_s, "Partition start in the image (default 0)", "BYTES" },
		{ "input-format", 'I', 0, G_OPTION_ARG_STRING, &o->input_format, "Input format: auto (default: told from the content), raw, ihex, srec, elf", "FMT" },
		{ "dts", 0, 0, G_OPTION_ARG_FILENAME, &o->dts, "The board's devicetree source (zephyr.dts; compiled with dtc): the partition's place", "FILE" },
		{ "dtb", 0, 0, G_OPTION_ARG_FILENAME, &o->dtb, "The board's devicetree blob: the partition's place", "FILE" },
		{ "partition", 'p', 0, G_OPTION_ARG_STRING, &o->partition, "Partition label in the devicetree (default storage_partition, then label \"storage\"), or auto: scan the image", "LABEL" },
		{ "format-kind", 'K', 0, G_OPTION_ARG_STRING, &o->format_kind, "On-flash format: auto (default: told from the content), nvs, zms", "KIND" },
		{ "explicit-erase", 0, 0, G_OPTION_ARG_STRING, &o->explicit_erase, "ZMS device: auto (default), yes (flash), no (RRAM, MRAM: no erase)", "MODE" },
		{ "erase-value", 0, 0, G_OPTION_ARG_STRING, &o->erase_value, "Erased byte value (default: detected, 0xff or 0x00)", "BYTE" },
		{ "summary", 0, 0, G_OPTION_ARG_NONE, &o->summary, "Geometry, sector map, write position, free space, what a mount does", NULL },
		{ "live", 0, 0, G_OPTION_ARG_NONE, &o->live, "Entries a mount reads back: id=0x%04x len=N data=HEX", NULL },
		{ "ates", 0, 0, G_OPTION_ARG_NONE, &o->ates, "Every ATE with its address, fields, status and data", NULL },
		{ "history", 0, 0, G_OPTION_ARG_STRING, &o->history, "Every stored value of an id or of a setting (by name), newest first", "ID|NAME" },
		{ "settings", 0, 0, G_OPTION_ARG_NONE, &o->settings, "Settings names and values, orphans flagged", NULL },
		{ "check", 0, 0, G_OPTION_ARG_NONE, &o->check, "Integrity verdicts; exit 1 on any error", NULL },
		{ "data-crc", 0, 0, G_OPTION_ARG_STRING, &o->data_crc, "Values carry a CRC-32: auto (default), on, off", "MODE" },
		{ "salvage", 0, 0, G_OPTION_ARG_NONE, &o->salvage, "Unverified values readable from damaged regions", NULL },
		{ "format", 'f', 0, G_OPTION_ARG_STRING, &o->format, "Output format: table (default) or json", "FMT" },
		{ "diff", 'd', 0, G_OPTION_ARG_NONE, &o->diff, "Compare two dumps of a partition, OLD and NEW: ids, settings, sectors, mounts", NULL },
		{ "wide", 'w', 0, G_OPTION_ARG_NONE, &o->wide, "Tables wider than 80 columns (32 value bytes per ATE row)", NULL },
		{ "version", 'V', 0, G_OPTION_ARG_NONE, &version, "Print the version and exit", NULL },
		{ NULL, 0, 0, 0, NULL, NULL, NULL },
	};
	GOptionContext *ctx = g_option_context_new("IMAGE | --diff OLD NEW");
	GError *err = NULL;
	char *bad = NULL;
	int ev, rc = 0;

	g_option_context_set_summary(ctx, "Read a Zephyr NVS / settings flash dump (never writes it).");
	g_option_context_add_main_entries(ctx, entries, NULL);
	if (!g_option_context_parse(ctx, argc, argv, &err)) {
		rc = usage_error(ctx, err->message);
		g_error_free(err);
	} else if (version) {
		printf("nvs-inspect %s\n", PACKAGE_VERSION);
		rc = -1;
	} else if (*argc != (o->diff ? 3 : 2)) {
		rc = usage_error(ctx, o->diff ? "--diff needs OLD and NEW" : "expected exactly one IMAGE");
	} else if (o->format && strcmp(o->format, "table") && strcmp(o->format, "json")) {
		rc = usage_error(ctx, "--format must be table or json");
	} else if (o->input_format && tool_image_format_parse(o->input_format) < 0) {
		rc = usage_error(ctx, "--input-format must be auto, raw, ihex, srec or elf");
	} else if (o->dts && o->dtb) {
		rc = usage_error(ctx, "give --dts or --dtb, not both");
	} else if (o->partition && !strcmp(o->partition, "auto") && (o->dts || o->dtb || o->offset_s)) {
		rc = usage_error(ctx, "--partition auto scans the image: give no --dts, --dtb or --offset");
	} else if (o->partition && strcmp(o->partition, "auto") && !o->dts && !o->dtb) {
		rc = usage_error(ctx, "--partition LABEL needs --dts or --dtb (or give --partition auto)");
	} else if ((o->dts || o->dtb) && o->offset_s) {
		rc = usage_error(ctx, "--offset and a devicetree both place the partition: give one");
	} else if (o->data_crc && strcmp(o->data_crc, "auto") && strcmp(o->data_crc, "on") &&
		   strcmp(o->data_crc, "off")) {
		rc = usage_error(ctx, "--data-crc must be auto, on or off");
	} else if (o->format_kind && strcmp(o->format_kind, "auto") && strcmp(o->format_kind, "nvs") &&
		   strcmp(o->format_kind, "zms")) {
		rc = usage_error(ctx, "--format-kind must be auto, nvs or zms");
	} else if (o->explicit_erase && strcmp(o->explicit_erase, "auto") &&
		   strcmp(o->explicit_erase, "yes") && strcmp(o->explicit_erase, "no")) {
		rc = usage_error(ctx, "--explicit-erase must be auto, yes or no");
	} else if (o->history && !g_ascii_isdigit(*o->history)) {
		o->history_name = o->history; /* a setting, by name */
	} else if ((o->history_id = parse_id(o->history)) == -2 && !zms_history_id(o)) {
		rc = usage_error(ctx, "--history needs an id 0..0xfffe (with --format-kind zms, "
				 "0..0xffffffff, 64 bits with 64-bit ids) or a setting's name");
	} else if (!parse_erase_value(o->erase_value, &ev)) {
		rc = usage_error(ctx, "--erase-value must be a byte (0..0xff)");
	} else if (!parse_u32("--sector-size", o->sector_size_s, &o->sector_size, &bad) ||
		   !parse_u32("--sectors", o->sectors_s, &o->sectors, &bad) ||
		   !parse_u32("--write-block", o->write_block_s, &o->write_block, &bad) ||
		   !parse_u32("--offset", o->offset_s, &o->offset, &bad)) {
		rc = usage_error(ctx, bad);
	}
	g_free(bad);
	g_option_context_free(ctx);
	if (rc == 0 && view_count(o) == 0)
		o->summary = o->live = TRUE;
	return rc;
}

int main(int argc, char **argv)
{
	struct inspect in, other;
	int rc;

	inspect_init(&in);
	rc = parse_options(&in, &argc, &argv);
	if (rc == 0 && in.opt.diff) {
		inspect_init(&other);
		options_copy(&other.opt, &in.opt);
		in.path = argv[1];
		other.path = argv[2];
		rc = inspect_diff(&in, &other);
		inspect_free(&other);
	} else if (rc == 0) {
		in.path = argv[1];
		rc = inspect_run(&in);
	} else if (rc < 0) {
		rc = 0;
	}
	inspect_free(&in);
	return rc;
}

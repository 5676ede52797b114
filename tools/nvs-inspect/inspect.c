/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * inspect.c - one run of nvs-inspect: the parts in the order the data flows
 * (inspect.h).
 */
#include "inspect.h"

#include <stddef.h>
#include <string.h>

#include "fdtcache/settings.h"
#include "zms_inspect.h"

void inspect_init(struct inspect *in)
{
	memset(in, 0, sizeof(*in));
	in->opt.history_id = -1;
	in->input.fd = -1;
	in->zephyr_free_max_reads = ZEPHYR_FREE_MAX_READS;
	in->sectors = g_array_new(FALSE, TRUE, sizeof(struct fc_nvs_sector_info));
	in->ates = g_array_new(FALSE, FALSE, sizeof(struct ate_rec));
	in->live = g_array_new(FALSE, FALSE, sizeof(struct live_entry));
	in->settings = g_array_new(FALSE, FALSE, sizeof(struct setting));
	in->salvage = g_array_new(FALSE, FALSE, sizeof(struct salvage_rec));
	in->salvaged = g_array_new(FALSE, FALSE, sizeof(struct salvage_range));
	in->verdicts = g_array_new(FALSE, FALSE, sizeof(struct verdict));
	in->sector_verdicts = g_array_new(FALSE, FALSE, sizeof(struct verdict));
	in->sector_recs = g_array_new(FALSE, FALSE, sizeof(struct ate_rec));
	in->actions = g_ptr_array_new_with_free_func(g_free);
}

/* The options' strings, each owned by its struct options. */
static const size_t option_strings[] = {
	offsetof(struct options, sector_size_s), offsetof(struct options, sectors_s),
	offsetof(struct options, write_block_s), offsetof(struct options, offset_s),
	offsetof(struct options, erase_value), offsetof(struct options, data_crc),
	offsetof(struct options, format), offsetof(struct options, history),
	offsetof(struct options, input_format), offsetof(struct options, dts),
	offsetof(struct options, dtb), offsetof(struct options, partition),
	offsetof(struct options, format_kind), offsetof(struct options, explicit_erase),
};

static gchar **option_string(struct options *o, guint i)
{
	return (gchar **)(void *)((char *)o + option_strings[i]);
}

/* The second dump of --diff gets the same options (its own copies of the strings). */
void options_copy(struct options *to, const struct options *from)
{
	guint i;

	*to = *from;
	for (i = 0; i < G_N_ELEMENTS(option_strings); i++)
		*option_string(to, i) = g_strdup(*option_string(to, i));
	to->history_name = NULL;
}

static void options_free(struct options *o)
{
	guint i;

	for (i = 0; i < G_N_ELEMENTS(option_strings); i++)
		g_free(*option_string(o, i));
}

void inspect_free(struct inspect *in)
{
	if (in->mount_thread)
		g_thread_join(in->mount_thread);
	free_read_back(in);
	free_salvage(in->salvage);
	free_verdicts(in->verdicts);
	free_verdicts(in->sector_verdicts);
	g_array_free(in->live, TRUE);
	g_array_free(in->settings, TRUE);
	g_array_free(in->salvage, TRUE);
	g_array_free(in->salvaged, TRUE);
	g_array_free(in->verdicts, TRUE);
	g_array_free(in->sector_verdicts, TRUE);
	g_array_free(in->sectors, TRUE);
	g_array_free(in->ates, TRUE);
	g_array_free(in->sector_recs, TRUE);
	g_ptr_array_free(in->actions, TRUE);
	g_free(in->scratch);
	g_free(in->index);
	copy_flash_free(&in->copy_dev);
	g_free(in->padded);
	g_free(in->copy_mem);
	g_free(in->covered);
	tool_image_free(&in->image);
	dt_partition_free(&in->dt);
	tool_input_free(&in->input);
	options_free(&in->opt);
	zms_inspect_free(in);
}

/* --history NAME: the value id of the setting of that name (history_id stays -1 if none). */
static void history_of_name(struct inspect *in)
{
	guint i;

	for (i = 0; i < in->settings->len; i++) {
		const struct setting *s = &g_array_index(in->settings, struct setting, i);

		if (s->name_len == strlen(in->opt.history_name) &&
		    !memcmp(s->name, in->opt.history_name, s->name_len))
			in->opt.history_id = s->name_id + FC_SETTINGS_VALUE_OFFSET;
	}
}

/* Everything but the views: returns 0; 1 when the input cannot be read; 2 blank (said). */
int inspect_analyze(struct inspect *in)
{
	const struct options *o = &in->opt;
	bool json = o->format && !strcmp(o->format, "json");

	if (in->opt.dts || in->opt.dtb) {
		GError *err = NULL;

		if (!dt_partition_find(in->opt.dts, in->opt.dtb, in->opt.partition, &in->dt, &err)) {
			g_printerr("nvs-inspect: %s\n", err->message);
			g_error_free(err);
			return 1;
		}
		in->have_dt = true;
	}
	switch (inspect_load(in)) {
	case 0:
		break;
	case 1:
		return 2; /* blank: said so, nothing else to show */
	default:
		return 1;
	}
	if (in->zms)
		return zms_analyze(in);
	in->keep_ates = o->ates || o->history;
	/* JSON always carries the verdicts, for scripts that diff them */
	in->check_sectors = o->check || o->salvage || json;
	vote_data_crc(in);
	decide_data_crc(in);
	mount_copy_start(in);
	walk_dump(in);
	mount_copy_finish(in);
	check_placement(in);
	if (in->mount_rc >= 0 && o->live)
		read_live(in);
	if (in->mount_rc >= 0 && (o->settings || o->history_name))
		read_settings(in);
	if (o->history_name)
		history_of_name(in);
	if (in->check_sectors)
		run_checks(in);
	tally_verdicts(in);
	return 0;
}

int inspect_run(struct inspect *in)
{
	const struct options *o = &in->opt;
	bool json = o->format && !strcmp(o->format, "json");

	int rc = inspect_analyze(in);

	if (rc)
		return rc == 2 ? 0 : 1;
	if (json)
		print_json(in);
	else
		print_table(in);
	return o->check && in->errors ? 1 : 0;
}

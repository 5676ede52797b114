/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * nvs-inspect's whole run (load, geometry, walk, mount on a copy, checks,
 * salvage) and each of its views over any dump, with the view and geometry
 * options (--partition auto among them) taken from the first two bytes. What it prints is read back: the
 * JSON parses and is UTF-8, a table holds no control byte but newlines, and
 * the dump is never written.
 */
#define _GNU_SOURCE
#include <json-glib/json-glib.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "inspect.h"

#include "fuzz_util.h"

/* A file descriptor holding bytes (memfd: a regular file, as a dump on disk is). */
static int bytes_fd(const char *name, const uint8_t *data, size_t size)
{
	int fd = memfd_create(name, 0);

	if (fd < 0 || (size && write(fd, data, size) != (ssize_t)size))
		fuzz_violated("memfd for the input", 0);
	return fd;
}

static void options_from(struct options *o, uint8_t views, uint8_t geo)
{
	o->summary = views & 0x01;
	o->live = views & 0x02;
	o->ates = views & 0x04;
	o->settings = views & 0x08;
	o->check = views & 0x10;
	o->salvage = views & 0x20;
	o->wide = views & 0x40;
	if (!(views & 0x3f))
		o->summary = o->live = TRUE; /* as main does without a view */
	o->format = g_strdup(views & 0x80 ? "json" : "table");
	o->history_id = (geo & 0x80) ? geo & 0x0f : -1;
	if (geo & 0x03)
		o->sector_size = 1024u << (geo & 0x03);
	if (geo & 0x0c)
		o->write_block = 1u << ((geo >> 2) & 0x03);
	o->erase_value = (geo & 0x70) == 0x10 ? g_strdup("0x00") : NULL;
	o->partition = (geo & 0x70) == 0x40 ? g_strdup("auto") : NULL; /* the scan */
	o->data_crc = g_strdup((geo & 0x60) == 0x60 ? "on" : "auto");
}

static void check_output(const char *out, size_t len, bool json)
{
	if (json) {
		JsonParser *parser = json_parser_new();

		if (!g_utf8_validate(out, (gssize)len, NULL))
			fuzz_violated("nvs-inspect JSON is valid UTF-8", 0);
		if (!json_parser_load_from_data(parser, out, (gssize)len, NULL))
			fuzz_violated("nvs-inspect JSON parses", 0);
		g_object_unref(parser);
		return;
	}
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)out[i];

		if ((c < 0x20 && c != '\n') || c == 0x7f)
			fuzz_violated("nvs-inspect table holds no control byte", c);
	}
}

int fuzz_inspect(const uint8_t *data, size_t size)
{
	struct inspect in;
	char path[64];
	int in_fd, out_fd, saved;
	bool json;
	off_t len;
	char *out;

	if (size < 2 || size - 2 > FUZZ_MAX_IMAGE)
		return 0;
	in_fd = bytes_fd("dump", data + 2, size - 2);
	out_fd = bytes_fd("out", NULL, 0);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", in_fd);
	inspect_init(&in);
	options_from(&in.opt, data[0], data[1]);
	/* Zephyr's O(n^2) free-space count runs ~30x slower under ASan and coverage */
	in.zephyr_free_max_reads = 1u << 19;
	json = data[0] & 0x80;
	in.path = path;
	fflush(stdout);
	saved = dup(STDOUT_FILENO);
	dup2(out_fd, STDOUT_FILENO);
	inspect_run(&in);
	fflush(stdout);
	dup2(saved, STDOUT_FILENO);
	close(saved);
	inspect_free(&in);
	len = lseek(out_fd, 0, SEEK_END);
	out = len > 0 ? mmap(NULL, (size_t)len, PROT_READ, MAP_PRIVATE, out_fd, 0) : NULL;
	if (out && out != MAP_FAILED) {
		check_output(out, (size_t)len, json);
		munmap(out, (size_t)len);
	}
	{
		uint8_t *after = mmap(NULL, size - 2 ? size - 2 : 1, PROT_READ, MAP_PRIVATE, in_fd, 0);

		if (size > 2 && after != MAP_FAILED && memcmp(after, data + 2, size - 2))
			fuzz_violated("nvs-inspect never writes the dump", 0);
		if (after != MAP_FAILED)
			munmap(after, size - 2 ? size - 2 : 1);
	}
	close(in_fd);
	close(out_fd);
	return 0;
}

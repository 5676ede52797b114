/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * input.h - loading an input file for every tool.
 *
 * A regular file is mapped read-only (never written). "-", a pipe, a FIFO
 * or a socket (/dev/stdin on a pipe) is read to its end into memory. A
 * directory, a device (character or block), or standard input on a
 * terminal is refused. Errors are TOOL_INPUT_ERROR GErrors whose message
 * starts with the escaped file name ("standard input" for "-") and says
 * what the file is and what is expected, e.g.
 *     "fixtures: is a directory, not a file"
 *     "/dev/null: is a character device, not a file (give a file, or - with
 *      the data on standard input)"
 * Memory: the bytes of the input, once (read from a stream: its length
 * rounded up by at most 2x while reading, then trimmed).
 */
#ifndef FDTCACHE_TOOLS_INPUT_H
#define FDTCACHE_TOOLS_INPUT_H

#include <glib.h>
#include <stdint.h>

#define TOOL_INPUT_ERROR (tool_input_error_quark())
GQuark tool_input_error_quark(void);

enum tool_input_error {
	TOOL_INPUT_ERROR_OPEN, /* cannot be opened or read */
	TOOL_INPUT_ERROR_KIND, /* a directory, device or terminal */
};

struct tool_input {
	char *name;          /* shown in messages: escaped path, or "standard input" */
	const uint8_t *data; /* the bytes (NULL when len is 0) */
	gsize len;
	gboolean mapped;     /* data maps a regular file */
	/* private */
	int fd;
	uint8_t *mem;  /* the bytes read from a stream */
	uint8_t *copy; /* tool_input_private_copy's bytes */
};

/*
 * tool_input_load - load path ("-": standard input) into in.
 * returns: TRUE; FALSE with error set (in holds nothing to free).
 */
gboolean tool_input_load(struct tool_input *in, const char *path, GError **error);

/*
 * tool_input_private_copy - writable bytes equal to in->data whose writes
 * never reach the file: a private copy-on-write mapping of a mapped file
 * (pages are copied only when written), else a copy in memory. Owned by
 * in, freed by tool_input_free.
 * returns: the bytes, or NULL with error set (in->len 0, or mapping fails).
 */
uint8_t *tool_input_private_copy(struct tool_input *in, GError **error);

/* tool_input_free - release what tool_input_load and _private_copy took. */
void tool_input_free(struct tool_input *in);

#endif /* FDTCACHE_TOOLS_INPUT_H */

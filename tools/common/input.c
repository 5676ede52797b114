/* SPDX-License-Identifier: BSD-2-Clause */
/* Input loading shared by the tools (see input.h). */
#include "input.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "escape.h"

#define READ_CHUNK (64u * 1024u)

G_DEFINE_QUARK(tool-input-error-quark, tool_input_error)

/* What a file that is not regular is, or NULL for one that can be read. */
static const char *refused_kind(const struct stat *st, int fd)
{
	if (S_ISDIR(st->st_mode))
		return "is a directory, not a file";
	if (S_ISCHR(st->st_mode) && isatty(fd))
		return "is a terminal: give a file, or pipe the data into - (standard input)";
	if (S_ISCHR(st->st_mode))
		return "is a character device, not a file (give a file, or - with the data on "
		       "standard input)";
	if (S_ISBLK(st->st_mode))
		return "is a block device, not a file (copy it into a file first, e.g. with dd)";
	if (S_ISREG(st->st_mode) || S_ISFIFO(st->st_mode) || S_ISSOCK(st->st_mode))
		return NULL;
	return "is not a regular file, pipe or socket";
}

static gboolean fail_errno(GError **error, const char *name, const char *what, int e)
{
	g_set_error(error, TOOL_INPUT_ERROR, TOOL_INPUT_ERROR_OPEN, "%s: %s: %s", name, what,
		    g_strerror(e));
	return FALSE;
}

static gboolean read_stream(struct tool_input *in, GError **error)
{
	gsize cap = READ_CHUNK, len = 0;
	uint8_t *buf = g_malloc(cap);

	for (;;) {
		ssize_t n;

		if (len == cap) {
			cap *= 2;
			buf = g_realloc(buf, cap);
		}
		n = read(in->fd, buf + len, cap - len);
		if (n == 0)
			break;
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			g_free(buf);
			return fail_errno(error, in->name, "read error", errno);
		}
		len += (gsize)n;
	}
	if (len == 0) {
		g_free(buf);
		return TRUE;
	}
	in->mem = g_realloc(buf, len);
	in->data = in->mem;
	in->len = len;
	return TRUE;
}

static void *map(int fd, gsize len, int prot)
{
	void *p = mmap(NULL, len, prot, MAP_PRIVATE, fd, 0);

	return p == MAP_FAILED ? NULL : p;
}

static gboolean map_file(struct tool_input *in, gsize len, GError **error)
{
	in->mapped = TRUE;
	if (len == 0)
		return TRUE;
	in->data = map(in->fd, len, PROT_READ);
	if (!in->data)
		return fail_errno(error, in->name, "cannot be mapped", errno);
	in->len = len;
	return TRUE;
}

gboolean tool_input_load(struct tool_input *in, const char *path, GError **error)
{
	gboolean is_stdin = strcmp(path, "-") == 0, ok;
	struct stat st;
	const char *kind;

	memset(in, 0, sizeof(*in));
	in->name = is_stdin ? g_strdup("standard input") : tool_esc_name(path);
	in->fd = is_stdin ? dup(STDIN_FILENO) : open(path, O_RDONLY | O_CLOEXEC);
	if (in->fd < 0 || fstat(in->fd, &st) < 0) {
		fail_errno(error, in->name, "cannot open", errno);
		tool_input_free(in);
		return FALSE;
	}
	kind = refused_kind(&st, in->fd);
	if (kind) {
		g_set_error(error, TOOL_INPUT_ERROR, TOOL_INPUT_ERROR_KIND, "%s: %s", in->name, kind);
		tool_input_free(in);
		return FALSE;
	}
	if (S_ISREG(st.st_mode) && (guint64)st.st_size > G_MAXSIZE) {
		fail_errno(error, in->name, "cannot be mapped", EFBIG);
		ok = FALSE;
	} else if (S_ISREG(st.st_mode)) {
		ok = map_file(in, (gsize)st.st_size, error);
	} else {
		ok = read_stream(in, error);
	}
	if (!ok)
		tool_input_free(in);
	return ok;
}

uint8_t *tool_input_private_copy(struct tool_input *in, GError **error)
{
	if (in->copy)
		return in->copy;
	if (in->len == 0) {
		g_set_error(error, TOOL_INPUT_ERROR, TOOL_INPUT_ERROR_OPEN, "%s: is empty", in->name);
		return NULL;
	}
	if (!in->mapped)
		return in->copy = g_memdup2(in->mem, in->len);
	in->copy = map(in->fd, in->len, PROT_READ | PROT_WRITE);
	if (!in->copy)
		fail_errno(error, in->name, "cannot be mapped for a private copy", errno);
	return in->copy;
}

void tool_input_free(struct tool_input *in)
{
	if (in->mapped && in->data)
		munmap((void *)in->data, in->len);
	if (in->mapped && in->copy)
		munmap(in->copy, in->len);
	else
		g_free(in->copy);
	if (in->name && in->fd >= 0) /* loaded: the fd is ours */
		close(in->fd);
	g_free(in->mem);
	g_free(in->name);
	memset(in, 0, sizeof(*in));
	in->fd = -1;
}

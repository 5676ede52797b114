/* SPDX-License-Identifier: BSD-2-Clause */
/* tools/common: output escaping (text, JSON, XML) and input loading. */
#include "check_util.h"

#include <glib.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/escape.h"
#include "common/input.h"
#include "common/json.h"

static void ck_text(const char *in, unsigned int flags, const char *want)
{
	char *got = tool_esc_text(in, -1, flags);

	ck_assert_str_eq(got, want);
	g_free(got);
}

START_TEST(text_escapes_every_unprintable_byte)
{
	ck_text("a = b", 0, "a = b");
	ck_text("x\ny = forged\r", 0, "x\\x0ay = forged\\x0d");
	ck_text("\x1b[2J\x7f\xff", 0, "\\x1b[2J\\x7f\\xff");
	ck_text("back\\slash", 0, "back\\\\slash");
	ck_text("say \"hi\"", TOOL_ESC_QUOTE, "say \\\"hi\\\"");
	ck_text("say \"hi\"", 0, "say \"hi\"");
	ck_text("a,b", TOOL_ESC_COMMA, "a\\x2cb");
	/* strict by default: UTF-8 is escaped byte by byte */
	ck_text("\xc3\xa9", 0, "\\xc3\\xa9");
}
END_TEST

START_TEST(text_keeps_only_printable_utf8)
{
	ck_text("caf\xc3\xa9", TOOL_ESC_UTF8, "caf\xc3\xa9");
	ck_text("\xe2\x82\xac", TOOL_ESC_UTF8, "\xe2\x82\xac");        /* euro sign */
	ck_text("\xc3", TOOL_ESC_UTF8, "\\xc3");                       /* truncated */
	ck_text("\xc0\xaf", TOOL_ESC_UTF8, "\\xc0\\xaf");              /* overlong '/' */
	ck_text("\xc2\x9b" "31m", TOOL_ESC_UTF8, "\\xc2\\x9b31m");     /* C1 CSI */
	ck_text("\xe2\x80\xae" "txt", TOOL_ESC_UTF8, "\\xe2\\x80\\xaetxt"); /* bidi override */
	ck_text("\xe2\x80\xa8", TOOL_ESC_UTF8, "\\xe2\\x80\\xa8");     /* line separator */
	ck_text("\xed\xa0\x80", TOOL_ESC_UTF8, "\\xed\\xa0\\x80");     /* surrogate */
}
END_TEST

START_TEST(text_with_length_keeps_nul)
{
	char *got = tool_esc_text("a\0b", 3, 0);

	ck_assert_str_eq(got, "a\\x00b");
	g_free(got);
}
END_TEST

START_TEST(utf8_replaces_invalid_bytes)
{
	char *a = tool_esc_utf8("ok \xc3\xa9", -1), *b = tool_esc_utf8("a\xff" "b\xc3", -1);
	char *c = tool_esc_utf8("ab\0cd", 5);

	ck_assert_str_eq(a, "ok \xc3\xa9");
	ck_assert_str_eq(b, "a\xef\xbf\xbd" "b\xef\xbf\xbd");
	ck_assert_str_eq(c, "ab");
	g_free(a);
	g_free(b);
	g_free(c);
}
END_TEST

START_TEST(json_document_is_valid_utf8)
{
	JsonBuilder *b = json_builder_new();
	JsonGenerator *gen = json_generator_new();
	JsonParser *p = json_parser_new();
	JsonNode *root;
	char *text;

	json_builder_begin_object(b);
	tool_json_str(b, "file", "dump\xff\n.bin");
	tool_json_bytes(b, "name", "x\x1b\xfe", 3);
	tool_json_member(b, "knob\xff");
	tool_json_string(b, NULL);
	json_builder_end_object(b);
	root = json_builder_get_root(b);
	json_generator_set_root(gen, root);
	text = json_generator_to_data(gen, NULL);
	ck_assert(g_utf8_validate(text, -1, NULL));
	ck_assert(json_parser_load_from_data(p, text, -1, NULL));
	ck_assert_str_eq(json_object_get_string_member(json_node_get_object(json_parser_get_root(p)),
						       "file"),
			 "dump\xef\xbf\xbd\n.bin");
	g_free(text);
	json_node_unref(root);
	g_object_unref(p);
	g_object_unref(gen);
	g_object_unref(b);
}
END_TEST

/* s inside an element and an attribute must parse as XML. */
static void ck_xml_well_formed(const char *s)
{
	char *x = tool_esc_xml(s, -1);
	char *doc = g_strdup_printf("<svg a=\"%s\"><t>%s</t></svg>", x, x);
	GMarkupParser none = { 0 };
	GMarkupParseContext *ctx = g_markup_parse_context_new(&none, 0, NULL, NULL);
	GError *err = NULL;

	ck_assert_msg(g_markup_parse_context_parse(ctx, doc, -1, &err) &&
			      g_markup_parse_context_end_parse(ctx, &err),
		      "%s: %s", doc, err ? err->message : "");
	ck_assert(strchr(x, '<') == NULL && strchr(x, '"') == NULL);
	g_markup_parse_context_free(ctx);
	g_free(doc);
	g_free(x);
}

START_TEST(xml_is_well_formed)
{
	char *x = tool_esc_xml("a<b & \"c\" 'd'\x01\xff", -1);

	ck_assert_str_eq(x, "a&lt;b &amp; &quot;c&quot; &apos;d&apos;\\x01\\xff");
	g_free(x);
	ck_xml_well_formed("]]><!-- \x0b\x0c\xef\xbf\xbe \xc3\xa9 </svg>");
	ck_xml_well_formed("\xff\xfe\x00");
}
END_TEST

static char *tmpdir;

static void make_tmpdir(void)
{
	tmpdir = g_dir_make_tmp("check_tool_common-XXXXXX", NULL);
	ck_assert(tmpdir != NULL);
}

static void remove_tmpdir(void)
{
	GDir *dir = g_dir_open(tmpdir, 0, NULL);
	const char *name;

	while (dir && (name = g_dir_read_name(dir))) {
		char *p = g_build_filename(tmpdir, name, NULL);

		if (g_rmdir(p) != 0)
			g_unlink(p);
		g_free(p);
	}
	if (dir)
		g_dir_close(dir);
	g_rmdir(tmpdir);
	g_free(tmpdir);
}

static char *tmp_path(const char *name)
{
	return g_build_filename(tmpdir, name, NULL);
}

static GBytes *pattern(gsize n)
{
	uint8_t *p = g_malloc(n);
	gsize i;

	for (i = 0; i < n; i++)
		p[i] = (uint8_t)(i * 7 + (i >> 11));
	return g_bytes_new_take(p, n);
}

START_TEST(load_regular_file_and_private_copy)
{
	char *path = tmp_path("dump.bin");
	GBytes *want = pattern(100000);
	struct tool_input in;
	uint8_t *copy;
	gsize n;
	const void *w = g_bytes_get_data(want, &n);
	gchar *after;
	gsize after_len;

	ck_assert(g_file_set_contents(path, w, (gssize)n, NULL));
	ck_assert(tool_input_load(&in, path, NULL));
	ck_assert(in.mapped);
	ck_assert_uint_eq(in.len, n);
	ck_assert(memcmp(in.data, w, n) == 0);
	copy = tool_input_private_copy(&in, NULL);
	ck_assert(copy != NULL && memcmp(copy, w, n) == 0);
	memset(copy, 0, n); /* never reaches the file */
	ck_assert(memcmp(in.data, w, n) == 0);
	tool_input_free(&in);
	ck_assert(g_file_get_contents(path, &after, &after_len, NULL));
	ck_assert(after_len == n && memcmp(after, w, n) == 0);
	g_free(after);
	g_bytes_unref(want);
	g_free(path);
}
END_TEST

START_TEST(load_empty_file)
{
	char *path = tmp_path("empty.bin");
	struct tool_input in;
	GError *err = NULL;

	ck_assert(g_file_set_contents(path, "", 0, NULL));
	ck_assert(tool_input_load(&in, path, NULL));
	ck_assert_uint_eq(in.len, 0);
	ck_assert(tool_input_private_copy(&in, &err) == NULL);
	ck_assert(g_str_has_suffix(err->message, "empty.bin: is empty"));
	g_error_free(err);
	tool_input_free(&in);
	g_free(path);
}
END_TEST

static void ck_refused(const char *path, int code, const char *want)
{
	struct tool_input in;
	GError *err = NULL;

	ck_assert(!tool_input_load(&in, path, &err));
	ck_assert(err->domain == TOOL_INPUT_ERROR);
	ck_assert_int_eq(err->code, code);
	ck_assert_msg(strcmp(err->message, want) == 0, "got '%s', want '%s'", err->message, want);
	g_error_free(err);
}

START_TEST(load_refuses_directory_device_missing)
{
	char *missing = tmp_path("bad\n\xff.bin"), *want;

	want = g_strdup_printf("%s: is a directory, not a file", tmpdir);
	ck_refused(tmpdir, TOOL_INPUT_ERROR_KIND, want);
	g_free(want);
	ck_refused("/dev/null", TOOL_INPUT_ERROR_KIND,
		   "/dev/null: is a character device, not a file (give a file, or - with the "
		   "data on standard input)");
	want = g_strdup_printf("%s/bad\\x0a\\xff.bin: cannot open: No such file or directory",
			       tmpdir);
	ck_refused(missing, TOOL_INPUT_ERROR_OPEN, want);
	g_free(want);
	g_free(missing);
}
END_TEST

struct writer {
	const char *path; /* NULL: write to fd */
	int fd;
	GBytes *data;
};

static gpointer write_all(gpointer p)
{
	struct writer *w = p;
	gsize n, off = 0;
	const uint8_t *d = g_bytes_get_data(w->data, &n);
	int fd = w->path ? open(w->path, O_WRONLY) : w->fd;

	while (off < n) {
		ssize_t k = write(fd, d + off, MIN(n - off, 4096));

		ck_assert(k > 0);
		off += (gsize)k;
	}
	close(fd);
	return NULL;
}

static void ck_stream(struct tool_input *in, GBytes *want)
{
	gsize n;
	const void *w = g_bytes_get_data(want, &n);
	uint8_t *copy;

	ck_assert(!in->mapped);
	ck_assert_uint_eq(in->len, n);
	ck_assert(memcmp(in->data, w, n) == 0);
	copy = tool_input_private_copy(in, NULL);
	ck_assert(copy != NULL && copy != in->data && memcmp(copy, w, n) == 0);
	tool_input_free(in);
}

START_TEST(load_fifo)
{
	char *path = tmp_path("fifo");
	struct writer w = { path, -1, pattern(300000) };
	struct tool_input in;
	GThread *t;

	ck_assert(mkfifo(path, 0600) == 0);
	t = g_thread_new("writer", write_all, &w);
	ck_assert(tool_input_load(&in, path, NULL));
	g_thread_join(t);
	ck_stream(&in, w.data);
	g_bytes_unref(w.data);
	g_free(path);
}
END_TEST

START_TEST(load_stdin_pipe)
{
	int fds[2], saved = dup(STDIN_FILENO);
	struct writer w = { NULL, -1, pattern(200001) };
	struct tool_input in;
	GThread *t;

	ck_assert(pipe(fds) == 0);
	ck_assert(dup2(fds[0], STDIN_FILENO) == STDIN_FILENO);
	close(fds[0]);
	w.fd = fds[1];
	t = g_thread_new("writer", write_all, &w);
	ck_assert(tool_input_load(&in, "-", NULL));
	g_thread_join(t);
	ck_assert_str_eq(in.name, "standard input");
	ck_stream(&in, w.data);
	/* the same through /dev/stdin */
	ck_assert(pipe(fds) == 0);
	ck_assert(dup2(fds[0], STDIN_FILENO) == STDIN_FILENO);
	close(fds[0]);
	w.fd = fds[1];
	t = g_thread_new("writer", write_all, &w);
	ck_assert(tool_input_load(&in, "/dev/stdin", NULL));
	g_thread_join(t);
	ck_stream(&in, w.data);
	dup2(saved, STDIN_FILENO);
	close(saved);
	g_bytes_unref(w.data);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("tool_common");
	TCase *esc = tcase_create("escape"), *load = tcase_create("input");

	tcase_add_test(esc, text_escapes_every_unprintable_byte);
	tcase_add_test(esc, text_keeps_only_printable_utf8);
	tcase_add_test(esc, text_with_length_keeps_nul);
	tcase_add_test(esc, utf8_replaces_invalid_bytes);
	tcase_add_test(esc, json_document_is_valid_utf8);
	tcase_add_test(esc, xml_is_well_formed);
	suite_add_tcase(s, esc);
	tcase_add_unchecked_fixture(load, make_tmpdir, remove_tmpdir);
	tcase_add_test(load, load_regular_file_and_private_copy);
	tcase_add_test(load, load_empty_file);
	tcase_add_test(load, load_refuses_directory_device_missing);
	tcase_add_test(load, load_fifo);
	tcase_add_test(load, load_stdin_pipe);
	suite_add_tcase(s, load);
	return fc_check_run(s);
}

/* SPDX-License-Identifier: BSD-2-Clause */
/* tools/common: output escaping (text, JSON, XML), input loading, flash image formats. */
#include "check_util.h"

#include <glib.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/escape.h"
#include "common/flashimg.h"
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

/* A tool_input over a C string, as tool_image_decode reads it. */
static struct tool_input text_input(const char *text)
{
	struct tool_input in = { 0 };

	in.name = (char *)"t";
	in.data = (const uint8_t *)text;
	in.len = strlen(text);
	return in;
}

START_TEST(ihex_segment_and_start_records)
{
	struct tool_input in = text_input(":020000021000EC\r\n:0400100001020304E2\n"
					  ":0400000300001234B3\n:00000001FF\n");
	struct tool_image img;
	static const uint8_t want[4] = { 1, 2, 3, 4 };

	ck_assert(tool_image_decode(&in, TOOL_IMAGE_AUTO, 0xff, &img, NULL));
	ck_assert_int_eq(img.format, TOOL_IMAGE_IHEX);
	ck_assert_uint_eq(img.base, 0x10010); /* segment 0x1000 << 4, plus the record's 0x10 */
	ck_assert_uint_eq(img.len, 4);
	ck_assert(memcmp(img.bytes, want, 4) == 0);
	tool_image_free(&img);
}
END_TEST

START_TEST(srec_16_and_24_bit_addresses_fill_gaps)
{
	struct tool_input in = text_input("S1050100AABB94\nS205010102CC2A\nS9030000FC\n");
	struct tool_image img;

	ck_assert(tool_image_decode(&in, TOOL_IMAGE_AUTO, 0x00, &img, NULL));
	ck_assert_int_eq(img.format, TOOL_IMAGE_SREC);
	ck_assert_uint_eq(img.base, 0x100);
	ck_assert_uint_eq(img.len, 0x10003);
	ck_assert_uint_eq(img.given, 3);
	ck_assert_uint_eq(img.bytes[0], 0xaa);
	ck_assert_uint_eq(img.bytes[1], 0xbb);
	ck_assert_uint_eq(img.bytes[2], 0x00); /* the gap: the fill value */
	ck_assert_uint_eq(img.bytes[0x10002], 0xcc);
	tool_image_free(&img);
}
END_TEST

START_TEST(bad_records_name_their_line)
{
	struct tool_input bad_sum = text_input(":00000001FF\n:0400100001020304E3\n");
	struct tool_input no_end = text_input(":0400100001020304E2\n");
	struct tool_input bad_s = text_input("S1050100AABB95\n");
	struct tool_image img;
	GError *err = NULL;

	/* records after the end record are not read */
	ck_assert(!tool_image_decode(&bad_sum, TOOL_IMAGE_AUTO, 0xff, &img, &err));
	ck_assert_str_eq(err->message, "t: Intel HEX file holds no data");
	g_clear_error(&err);
	ck_assert(!tool_image_decode(&no_end, TOOL_IMAGE_IHEX, 0xff, &img, &err));
	ck_assert_str_eq(err->message, "t:1: no end-of-file record (truncated Intel HEX?)");
	g_clear_error(&err);
	ck_assert(!tool_image_decode(&bad_s, TOOL_IMAGE_AUTO, 0xff, &img, &err));
	ck_assert_str_eq(err->message, "t:1: S-record checksum mismatch");
	g_clear_error(&err);
}
END_TEST

START_TEST(mistakes_are_named)
{
	static const uint8_t gz[4] = { 0x1f, 0x8b, 8, 0 }, dtb[8] = { 0xd0, 0x0d, 0xfe, 0xed };
	static const char dts[] = "// board\n/dts-v1/;\n/ { };\n";
	static const uint8_t dump[8] = { 0xff, 0xff, 0, 0, 0, 0, 0xff, 0x5c };

	ck_assert(g_str_has_prefix(tool_image_mistake(gz, 4), "a gzip file"));
	ck_assert(g_str_has_prefix(tool_image_mistake(dtb, 8), "a devicetree blob (DTB)"));
	ck_assert(g_str_has_prefix(tool_image_mistake((const uint8_t *)dts, sizeof(dts) - 1),
				   "a devicetree source (DTS)"));
	ck_assert(g_str_has_prefix(tool_image_mistake((const uint8_t *)"a\nb\nc\n", 6), "a text file"));
	ck_assert_ptr_null(tool_image_mistake(dump, 8));
	ck_assert_int_eq(tool_image_format_parse("srec"), TOOL_IMAGE_SREC);
	ck_assert_int_eq(tool_image_format_parse("intel"), -1);
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
	TCase *img = tcase_create("image");

	tcase_add_test(esc, text_escapes_every_unprintable_byte);
	tcase_add_test(esc, text_keeps_only_printable_utf8);
	tcase_add_test(esc, text_with_length_keeps_nul);
	tcase_add_test(esc, utf8_replaces_invalid_bytes);
	tcase_add_test(esc, json_document_is_valid_utf8);
	tcase_add_test(esc, xml_is_well_formed);
	suite_add_tcase(s, esc);
	tcase_add_test(img, ihex_segment_and_start_records);
	tcase_add_test(img, srec_16_and_24_bit_addresses_fill_gaps);
	tcase_add_test(img, bad_records_name_their_line);
	tcase_add_test(img, mistakes_are_named);
	suite_add_tcase(s, img);
	tcase_add_unchecked_fixture(load, make_tmpdir, remove_tmpdir);
	tcase_add_test(load, load_regular_file_and_private_copy);
	tcase_add_test(load, load_empty_file);
	tcase_add_test(load, load_refuses_directory_device_missing);
	tcase_add_test(load, load_fifo);
	tcase_add_test(load, load_stdin_pipe);
	suite_add_tcase(s, load);
	return fc_check_run(s);
}

/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * flashimg.h - flash contents as debuggers and programmers write them:
 * raw bytes, Intel HEX (record types 00-05: data, end, extended segment and
 * linear addresses, start addresses), Motorola S-records (S0-S9) and ELF
 * (32/64-bit, either byte order: PT_LOAD segments at their physical
 * addresses). The format is told from the content; a gzip file, a
 * devicetree (DTB or DTS) or other text given by mistake is named.
 *
 * Records become one span of bytes from the lowest address to the highest,
 * gaps filled with a given erase value. Records far from the others (gaps
 * over TOOL_IMAGE_MAX_GAP, e.g. an nRF UICR page at 0x10001000) form
 * clusters: the cluster holding the most bytes is kept and the others are
 * listed in note, so memory stays a small multiple of the bytes given.
 */
#ifndef FDTCACHE_TOOLS_FLASHIMG_H
#define FDTCACHE_TOOLS_FLASHIMG_H

#include <glib.h>
#include <stdint.h>

#include "input.h"

#define TOOL_IMAGE_MAX_GAP (16u << 20)

enum tool_image_format {
	TOOL_IMAGE_AUTO, /* told from the content */
	TOOL_IMAGE_RAW,
	TOOL_IMAGE_IHEX,
	TOOL_IMAGE_SREC,
	TOOL_IMAGE_ELF,
};

struct tool_image {
	enum tool_image_format format;
	uint64_t base;        /* address of bytes[0] (0 for raw) */
	const uint8_t *bytes; /* the span; for raw, the input's own bytes */
	gsize len;
	gsize given;          /* bytes the records gave (raw: len) */
	unsigned int records; /* data records or segments */
	char *note;           /* clusters left out, or NULL */
	/* private */
	uint8_t *mem;
};

/* "raw", "ihex", "srec", "elf" (and "auto"); the name shown in summaries. */
const char *tool_image_format_name(enum tool_image_format f);
const char *tool_image_format_title(enum tool_image_format f);

/* tool_image_format_parse - an --input-format value; returns -1 if unknown. */
int tool_image_format_parse(const char *s);

/*
 * tool_image_mistake - what the n bytes at p are when they are no flash
 * image: "a gzip file", "a devicetree blob (DTB)", "a devicetree source
 * (DTS)", "a text file" (ASCII lines); NULL otherwise.
 */
const char *tool_image_mistake(const uint8_t *p, gsize n);

/*
 * tool_image_decode - the flash contents of in, in format f (AUTO: told
 * from the content; content that is none of the formats is raw, unless
 * tool_image_mistake names it). fill is the value of gap bytes.
 * returns: TRUE; FALSE with error set naming the file and the line or
 * offset (bad record, checksum, truncated ELF, a mistaken file).
 */
gboolean tool_image_decode(const struct tool_input *in, enum tool_image_format f, uint8_t fill,
			   struct tool_image *img, GError **error);

/* tool_image_free - release what tool_image_decode took. */
void tool_image_free(struct tool_image *img);

#endif /* FDTCACHE_TOOLS_FLASHIMG_H */

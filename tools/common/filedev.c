/* SPDX-License-Identifier: BSD-2-Clause */
#include "filedev.h"

#include <string.h>

G_DEFINE_QUARK(fc-filedev-error-quark, fc_filedev_error)

/* Loads path, or with create an erased image of geo->size bytes when it does not exist. */
static gboolean load(const char *path, const struct fc_flash_geometry *geo, gboolean create,
		     gchar **data, gsize *len, GError **error)
{
	GError *err = NULL;

	if (g_file_get_contents(path, data, len, &err))
		return TRUE;
	if (!create || !g_error_matches(err, G_FILE_ERROR, G_FILE_ERROR_NOENT)) {
		g_set_error(error, FC_FILEDEV_ERROR, FC_FILEDEV_ERROR_IO, "%s", err->message);
		g_error_free(err);
		return FALSE;
	}
	g_error_free(err);
	if (!geo->size) {
		g_set_error(error, FC_FILEDEV_ERROR, FC_FILEDEV_ERROR_GEOMETRY,
			    "%s: a new image needs a size", path);
		return FALSE;
	}
	*len = geo->size;
	*data = g_malloc(*len);
	memset(*data, geo->erase_value, *len);
	return TRUE;
}

static gboolean check_size(const char *path, const struct fc_flash_geometry *geo, gsize len,
			   GError **error)
{
	if (geo->size && len != geo->size) {
		g_set_error(error, FC_FILEDEV_ERROR, FC_FILEDEV_ERROR_GEOMETRY,
			    "%s: file is %" G_GSIZE_FORMAT " bytes, expected %" G_GUINT32_FORMAT,
			    path, len, geo->size);
		return FALSE;
	}
	if (!len || len > G_MAXUINT32 || len % geo->erase_size) {
		g_set_error(error, FC_FILEDEV_ERROR, FC_FILEDEV_ERROR_GEOMETRY,
			    "%s: file size %" G_GSIZE_FORMAT
			    " is not a non-zero multiple of the erase unit %" G_GUINT32_FORMAT,
			    path, len, geo->erase_size);
		return FALSE;
	}
	return TRUE;
}

gboolean fc_filedev_open(struct fc_filedev *fd, const char *path,
			 const struct fc_flash_geometry *geo, unsigned int flags, GError **error)
{
	gboolean writable = (flags & FC_FILEDEV_WRITE) != 0;
	struct fc_flash_geometry g = *geo;
	gchar *data = NULL;
	gsize len = 0;
	int rc;

	memset(fd, 0, sizeof(*fd));
	if (!geo->erase_size) {
		g_set_error(error, FC_FILEDEV_ERROR, FC_FILEDEV_ERROR_GEOMETRY,
			    "%s: erase unit size is zero", path);
		return FALSE;
	}
	if (!load(path, geo, writable && (flags & FC_FILEDEV_CREATE), &data, &len, error))
		return FALSE;
	if (!check_size(path, geo, len, error)) {
		g_free(data);
		return FALSE;
	}
	g.size = (uint32_t)len;
	rc = writable ? fc_ram_flash_init(&fd->ram, &g, data) : fc_rom_flash_init(&fd->rom, &g, data);
	if (rc) {
		g_set_error(error, FC_FILEDEV_ERROR, FC_FILEDEV_ERROR_GEOMETRY,
			    "%s: invalid geometry (erase unit %" G_GUINT32_FORMAT
			    ", write unit %" G_GUINT32_FORMAT "): %s",
			    path, g.erase_size, g.write_size, fc_strerror(rc));
		g_free(data);
		return FALSE;
	}
	fd->path = g_strdup(path);
	fd->mem = (uint8_t *)data;
	fd->writable = writable;
	fd->dev = writable ? &fd->ram.dev : &fd->rom.dev;
	return TRUE;
}

gboolean fc_filedev_sync(struct fc_filedev *fd, GError **error)
{
	GError *err = NULL;

	if (!fd->writable) {
		g_set_error(error, FC_FILEDEV_ERROR, FC_FILEDEV_ERROR_READONLY,
			    "%s: opened read-only", fd->path);
		return FALSE;
	}
	if (!g_file_set_contents(fd->path, (const gchar *)fd->mem, fd->dev->geo.size, &err)) {
		g_set_error(error, FC_FILEDEV_ERROR, FC_FILEDEV_ERROR_IO, "%s", err->message);
		g_error_free(err);
		return FALSE;
	}
	return TRUE;
}

void fc_filedev_close(struct fc_filedev *fd)
{
	g_free(fd->mem);
	g_free(fd->path);
	memset(fd, 0, sizeof(*fd));
}

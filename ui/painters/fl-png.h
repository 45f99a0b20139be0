#pragma once

/* fl-png.h — PNG bytes from a drawn image, for every PNG the painters export. */

#include <cairo.h>
#include <glib.h>

G_BEGIN_DECLS

gboolean fl_png_encode (cairo_surface_t *image, GByteArray *out, GError **error);

G_END_DECLS

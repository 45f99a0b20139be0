#pragma once

/* What the export files share: writing a file, and a range as numbered PNGs. */

#include "fl-paint-private.h"
#include "fl-export-range.h"

G_BEGIN_DECLS

gboolean fl_export_write_bytes (GByteArray *bytes, const char *path, GError **error);
gboolean fl_export_png_series  (FlView view, FlCursor *cur, guint64 first, guint64 last,
                                const FlViewport *viewport, const FlPalette *palette,
                                const char *prefix, FlExportProgress progress,
                                gpointer user_data, GError **error);

G_END_DECLS

#pragma once

/* The sensitivity chart: how each design's ratio to the baseline moves when one free
 * constant of the model goes from half to one and a half times its value. Pure Cairo +
 * Pango, like every painter. */

#include <cairo.h>
#include <glib.h>
#include "fl-paint.h"
#include "fl-sensitivity.h"

G_BEGIN_DECLS

void     fl_paint_sensitivity        (cairo_t *cr, const FlSensitivityRow *rows, guint n_rows,
                                      guint cpus, const FlViewport *viewport,
                                      const FlPalette *palette);
gboolean fl_export_sensitivity_chart (const FlSensitivityRow *rows, guint n_rows, guint cpus,
                                      const FlViewport *viewport, const FlPalette *palette,
                                      const char *format, const char *path, GError **error);

G_END_DECLS

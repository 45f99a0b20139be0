#pragma once

/* Exports beyond one view at one step: a range of steps as a numbered PNG/SVG series or one
 * multi-page PDF (slides), and any drawing (the charts, the compare view) to PNG, SVG or PDF
 * with the same reproducibility rules as fl_export_view(). */

#include <cairo.h>
#include <glib.h>
#include "fl-paint.h"

G_BEGIN_DECLS

/* More pages than this is a mistake, not a slide deck. */
#define FL_EXPORT_RANGE_MAX_PAGES 5000

#define FL_EXPORT_RANGE_ERROR (fl_export_range_error_quark ())
GQuark fl_export_range_error_quark (void);
typedef enum {
  FL_EXPORT_RANGE_ERROR_RANGE,      /* first > last, or past the end of the run */
  FL_EXPORT_RANGE_ERROR_TOO_MANY,   /* more than FL_EXPORT_RANGE_MAX_PAGES steps */
  FL_EXPORT_RANGE_ERROR_CANCELLED,  /* the progress callback said stop */
} FlExportRangeError;

/* Called after each page; return FALSE to stop (the export then fails with CANCELLED). */
typedef gboolean (*FlExportProgress) (guint64 done, guint64 total, gpointer user_data);

char    *fl_export_range_file_name (const char *prefix, guint64 step, const char *format);
gboolean fl_export_range    (FlView view, const FlRun *run, guint64 first, guint64 last,
                             const FlViewport *viewport, const FlPalette *palette,
                             const char *format, const char *path_or_prefix,
                             FlExportProgress progress, gpointer user_data, GError **error);

typedef void (*FlExportDrawFn) (cairo_t *cr, gpointer data);
gboolean fl_export_drawing  (FlExportDrawFn draw, gpointer data, double width, double height,
                             const char *title, const char *format, const char *path,
                             GError **error);

G_END_DECLS

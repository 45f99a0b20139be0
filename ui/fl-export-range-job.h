#pragma once

/* Writing every step between two bookmarks without freezing the window. A worker thread
 * holds the session's run (a reference: the window may load another meanwhile) and walks a
 * cursor of its own over it (fl_export_range), drawing a page per step; the session's
 * cursor is never moved. A small window over the parent shows the progress and offers
 * Cancel. */

#include <gtk/gtk.h>

#include "fl-paint.h"
#include "fl-session.h"

G_BEGIN_DECLS

/* Starts the export of steps @first to @last of the session's run (the order of the two
 * does not matter). @path's extension decides the format: ".pdf" writes one file with a
 * page per step; ".png" or ".svg" writes a numbered series into the folder @path names
 * without its extension (see fl_export_range_job_series_prefix()), made when missing.
 * @callback runs on the main thread once the job is over, after the progress window is
 * gone; the result is an error of G_IO_ERROR_CANCELLED when the user cancelled, and then
 * no half-written file is left behind. */
void      fl_export_range_job_start         (GtkWindow           *parent,
                                             FlSession           *session,
                                             FlView               view,
                                             const FlViewport    *viewport,
                                             const FlPalette     *palette,
                                             guint64              first,
                                             guint64              last,
                                             const char          *path,
                                             GAsyncReadyCallback  callback,
                                             gpointer             user_data);
gboolean  fl_export_range_job_finish        (GAsyncResult        *result,
                                             GError             **error);

/* Where a series for @path goes: "slides/race.png" → "slides/race/race", to which
 * fl_export_range_file_name() adds "-000012.png". NULL when @path has no .png or .svg. */
char     *fl_export_range_job_series_prefix (const char          *path);

/* The progress window of the job running over @parent, NULL when none is (for tests). */
GtkWindow *fl_export_range_job_get_window   (GtkWindow           *parent);

G_END_DECLS

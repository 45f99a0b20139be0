#pragma once

/* Export of one view, or of the whole window, at the current step to PNG, SVG or PDF,
 * through the painters (fl_export_view), so the file shows what the window shows; or of
 * every step between two bookmarks of the run (a PDF page or a numbered image each). */

#include <gtk/gtk.h>

#include "fl-paint.h"
#include "fl-session.h"

G_BEGIN_DECLS

/* Asks where to save (GtkFileChooserNative, which confirms before replacing a file), then
 * writes the file; a failure is shown in a modal message naming the file and the reason.
 * When @parent is the FlWindow, its bookmarks are offered as a range ("Steps": from one
 * bookmark to another), written by fl_export_range_job_start(): a ".pdf" name gives one
 * file, a ".png" or ".svg" name a folder of that name holding the numbered images.
 * @viewport is the view as it is on screen (its size, zoom and selected CPU); NULL, or a
 * view not yet laid out, exports at 1920 × 1080. Pauses playback so the step the file
 * name promises is the step drawn. */
void      fl_export_dialog_present      (GtkWindow        *parent,
                                         FlSession        *session,
                                         FlView            view,
                                         const FlViewport *viewport);

/* What the dialog does once it has a path, without asking anything: the format is the
 * path's extension (.png, .svg or .pdf, any case). Errors name @path. */
gboolean  fl_export_dialog_export_to    (FlSession        *session,
                                         FlView            view,
                                         const FlViewport *viewport,
                                         const FlPalette  *palette,
                                         const char       *path,
                                         GError          **error);

/* The name the dialog proposes, such as "spf-vs-munmap-step-123-lanes.png". */
char     *fl_export_dialog_default_name (FlSession        *session,
                                         FlView            view,
                                         const char       *format);

/* The name a range gets when the proposed name was kept, such as
 * "spf-vs-munmap-steps-5-12-lanes.pdf". */
char     *fl_export_dialog_range_name   (FlSession        *session,
                                         FlView            view,
                                         guint64           first,
                                         guint64           last,
                                         const char       *format);

G_END_DECLS

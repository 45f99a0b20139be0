#pragma once

/* Presentation mode: the window full screen with larger type, walking the run's bookmarks in
 * order, the current bookmark's title and note as a caption over the synchronized views. */

#include <gtk/gtk.h>

#include "fl-bookmarks.h"

G_BEGIN_DECLS

#define FL_TYPE_PRESENTATION (fl_presentation_get_type ())
G_DECLARE_FINAL_TYPE (FlPresentation, fl_presentation, FL, PRESENTATION, GObject)

/* `overlay` gets the caption; `views` (FlViewArea widgets, borrowed) get the larger type. */
FlPresentation *fl_presentation_new       (GtkWindow      *window,
                                           FlSession      *session,
                                           FlBookmarks    *bookmarks,
                                           GtkOverlay     *overlay,
                                           GPtrArray      *views);
/* Starts at the beginning of the run; FALSE (and nothing changes) when the run has no
 * bookmarks to walk. */
gboolean        fl_presentation_enter     (FlPresentation *self);
void            fl_presentation_leave     (FlPresentation *self);
gboolean        fl_presentation_is_active (FlPresentation *self);
/* Seek to the next / previous bookmark of the walk; FALSE when there is none. */
gboolean        fl_presentation_next      (FlPresentation *self);
gboolean        fl_presentation_previous  (FlPresentation *self);

G_END_DECLS

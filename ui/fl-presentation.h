#pragma once

/* Presentation mode: the window full screen with larger type, walking the run's bookmarks in
 * order, the current bookmark's title and note as a caption under the synchronized views.
 * It also sets the views' type when not presenting: the user's text scale (fl-text-scale.h),
 * which presenting multiplies. */

#include <gtk/gtk.h>

#include "fl-bookmarks.h"

G_BEGIN_DECLS

#define FL_TYPE_PRESENTATION (fl_presentation_get_type ())
G_DECLARE_FINAL_TYPE (FlPresentation, fl_presentation, FL, PRESENTATION, GObject)

/* The caption goes into `box` after `sibling`, taking its room from the views rather than
 * covering one; `views` (FlViewArea widgets, borrowed) get the type. */
FlPresentation *fl_presentation_new       (GtkWindow      *window,
                                           FlSession      *session,
                                           FlBookmarks    *bookmarks,
                                           GtkBox         *box,
                                           GtkWidget      *sibling,
                                           GPtrArray      *views);
/* The user's text scale (1 is normal), presenting or not. */
void            fl_presentation_set_text_scale (FlPresentation *self,
                                                double          scale);
/* The caption widget, for the layout tests. */
GtkWidget      *fl_presentation_get_caption    (FlPresentation *self);
/* Starts at the beginning of the run; FALSE (and nothing changes) when the run has no
 * bookmarks to walk. */
gboolean        fl_presentation_enter     (FlPresentation *self);
void            fl_presentation_leave     (FlPresentation *self);
gboolean        fl_presentation_is_active (FlPresentation *self);
/* Seek to the next / previous bookmark of the walk; FALSE when there is none. */
gboolean        fl_presentation_next      (FlPresentation *self);
gboolean        fl_presentation_previous  (FlPresentation *self);

G_END_DECLS

#pragma once

/* FlScrubber: the whole run as one bar under the views. The filled part is the steps taken,
 * red marks above it are the findings, marks below it the bookmarks; a click or a drag seeks there. A slider to assistive
 * technologies, its value the current step. */

#include <gtk/gtk.h>

#include "fl-session.h"

G_BEGIN_DECLS

#define FL_TYPE_SCRUBBER (fl_scrubber_get_type ())
G_DECLARE_FINAL_TYPE (FlScrubber, fl_scrubber, FL, SCRUBBER, GtkWidget)

GtkWidget *fl_scrubber_new          (FlSession  *session);
/* The step a point `x` pixels from the scrubber's left edge stands for. */
guint64    fl_scrubber_step_at      (FlScrubber *self,
                                     double      x);
/* The bookmarks to mark under the track (FlBookmark items), or NULL for none. */
void       fl_scrubber_set_bookmarks (FlScrubber *self,
                                      GListModel *bookmarks);

G_END_DECLS

#pragma once

/* The text scale of the window's views, for a lecture room: Ctrl+plus, Ctrl+minus and
 * Ctrl+0 walk it through a few steps, and GSettings keeps it across launches. */

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define FL_TEXT_SCALE_KEY "text-scale"

/* The next step from `scale`: larger (direction > 0), smaller (< 0), or normal (0). */
double fl_text_scale_step        (double      scale,
                                  int         direction);
/* win.text-larger, win.text-smaller and win.text-normal, writing `settings`' text-scale;
 * whoever draws listens to changed::text-scale. */
void   fl_text_scale_add_actions (GActionMap *map,
                                  GSettings  *settings);

/* GTK's own text under the header bar (the scenario's description, the panels' tabs, the
 * findings list) at `scale` too, in every window of `display`, and `presenting` times that in
 * a views page of class fl-presenting: the header bar stays as it is, so a larger text never
 * makes a small window wider. */
void   fl_text_scale_apply_css   (GdkDisplay *display,
                                  double      scale,
                                  double      presenting);

G_END_DECLS

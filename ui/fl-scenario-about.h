#pragma once

/* The strip over the views that tells a newcomer what the scenario on screen is about: its
 * description and the outcome it is meant to show, and for a run opened from the store that
 * it is a replay of that recorded run. It opens again on each scenario; × closes it until
 * the next. */

#include <gtk/gtk.h>

#include "fl-session.h"

G_BEGIN_DECLS

GtkWidget  *fl_scenario_about_new        (FlSession  *session);
/* What the strip says about a replay of a recorded run, NULL for a fresh run; the next load
 * clears it. */
void        fl_scenario_about_set_replay (GtkWidget  *about,
                                          const char *note);
/* Hidden while a presentation shows its own captions in large type, back after. */
void        fl_scenario_about_set_presenting (GtkWidget *about,
                                              gboolean   presenting);
/* The strip's text as shown, one line per label; NULL while it is hidden. For tests. */
char       *fl_scenario_about_get_text   (GtkWidget  *about);

G_END_DECLS

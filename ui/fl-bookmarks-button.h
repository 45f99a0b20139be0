#pragma once

/* The header bar's bookmarks button: a popover listing the run's bookmarks (step and title);
 * activating a row seeks there, each row has Edit and Delete. */

#include <gtk/gtk.h>

#include "fl-bookmarks.h"

G_BEGIN_DECLS

GtkWidget *fl_bookmarks_button_new  (FlBookmarks *bookmarks,
                                     FlSession   *session);
/* The list inside the popover, for tests: one GtkListBoxRow per bookmark. */
GtkListBox *fl_bookmarks_button_get_list (GtkWidget *button);

G_END_DECLS

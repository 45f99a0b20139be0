#pragma once

/* The small window that adds a bookmark at the current step, or edits one: a title, a note. */

#include <gtk/gtk.h>

#include "fl-bookmarks.h"

G_BEGIN_DECLS

/* `bookmark` NULL: add one at the session's step through fl_window_add_bookmark();
 * otherwise edit it. Errors are told inside the dialog, which then stays open. */
void fl_bookmark_dialog_present (GtkWindow   *parent,
                                 FlBookmarks *bookmarks,
                                 FlBookmark  *bookmark,
                                 guint64      step);

G_END_DECLS

#pragma once

#include <gtk/gtk.h>

#include "fl-bookmarks.h"
#include "fl-session.h"

G_BEGIN_DECLS

#define FL_TYPE_WINDOW (fl_window_get_type ())
G_DECLARE_FINAL_TYPE (FlWindow, fl_window, FL, WINDOW, GtkApplicationWindow)

FlWindow   *fl_window_new          (GtkApplication *application);

void        fl_window_set_scenario (FlWindow       *self,
                                    const char     *scenario);
const char *fl_window_get_scenario (FlWindow       *self);
/* The session every view of the window shows. */
FlSession  *fl_window_get_session  (FlWindow       *self);
/* The bookmarks of the session's run. */
FlBookmarks *fl_window_get_bookmarks (FlWindow     *self);
/* What the bookmark dialog's Add button does: a bookmark at the current step, recording the
 * run into the user's store first when it is not there yet. On failure the window also
 * shows the error (which names the store file) as its one-line message. */
gboolean    fl_window_add_bookmark (FlWindow       *self,
                                    const char     *title,
                                    const char     *note,
                                    GError        **error);
/* A one-line message over the bottom of the window, gone after a few seconds; the one shown
 * now (NULL when none is). */
const char *fl_window_get_message  (FlWindow       *self);
/* Why the last load failed, as the welcome page tells it; NULL when it did not. */
const char *fl_window_get_load_error (FlWindow     *self);
GtkWidget  *fl_window_get_scenario_about (FlWindow *self);
void        fl_window_show_message (FlWindow       *self,
                                    const char     *message);
/* Presentation mode (win.present, F5) is on. */
gboolean    fl_window_is_presenting (FlWindow      *self);
/* The list of the header bar's bookmarks popover (one row per bookmark), for tests. */
GtkListBox *fl_window_get_bookmarks_list (FlWindow *self);
/* What the compare dialog's Compare button does: simulate run B, the session's run with
 * `key` set to `value`, and show the compare page (a spinner until B is ready). */
gboolean    fl_window_start_compare (FlWindow      *self,
                                     const char    *key,
                                     const char    *value,
                                     GError       **error);
/* Back to the views (win.leave-compare, Escape). */
void        fl_window_leave_compare (FlWindow      *self);
gboolean    fl_window_is_comparing  (FlWindow      *self);
/* The FlComparePage, for tests. */
GtkWidget  *fl_window_get_compare_page (FlWindow   *self);
/* Gives the lanes the height they need again (at the next frame), as when a run arrives:
 * after their type changed size. */
void        fl_window_fit_lanes     (FlWindow      *self);
/* Presentation mode's caption, for the layout tests. */
GtkWidget  *fl_window_get_caption   (FlWindow      *self);

G_END_DECLS

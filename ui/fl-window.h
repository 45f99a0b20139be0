#pragma once

#include <gtk/gtk.h>

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

G_END_DECLS

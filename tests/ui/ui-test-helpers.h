#pragma once

/* What the ui test programs share: running the application as a user starts it, waiting for
 * a load, rendering a widget to a texture, failing on any warning. */

#include <gtk/gtk.h>

#include "fl-application.h"
#include "fl-session.h"
#include "fl-window.h"

G_BEGIN_DECLS

typedef void (*FlWindowCheck) (GtkApplication *app, GtkWindow *window, gpointer data);

/* Runs a fresh application (NON_UNIQUE, only argv[0]), calls `check` on its first drawn
 * window, then quits through app.quit and asserts the run ended because of it. */
void        fl_test_run_application (FlWindowCheck check,
                                     gpointer      data);
/* Iterates the main loop until the session's load is over; asserts it did not fail. */
void        fl_test_wait_loaded     (FlSession    *session);
/* Lets pending redraws happen, then renders `widget` as the window's renderer does. */
GdkTexture *fl_test_render_widget   (GtkWidget    *widget);
/* Every FlViewArea inside `root`, in widget-tree order. */
GPtrArray  *fl_test_find_views      (GtkWidget    *root);
/* Makes every warning and critical, structured or not, fail the test with its text. */
void        fl_test_fail_on_warnings(void);

G_END_DECLS

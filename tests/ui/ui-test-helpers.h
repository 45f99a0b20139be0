#pragma once

/* What the ui test programs share: running the application as a user starts it, waiting for
 * a load, rendering a widget to a texture, failing on any warning. */

#include <gtk/gtk.h>

#include "fl-application.h"
#include "fl-panels.h"
#include "fl-session.h"
#include "fl-view-area.h"
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
/* The window's view of `view` (the first, in widget-tree order); fails the test when
 * there is none. */
FlViewArea *fl_test_find_view       (GtkWidget    *root,
                                     FlView        view);
/* The window's panels under the lanes (fl-panels.h). */
FlPanels   *fl_test_find_panels     (GtkWindow    *window);
/* The window's view of `view`, brought on screen first: when the panels are tabs (a small
 * window), its tab is chosen and the window drawn again. */
FlViewArea *fl_test_show_view       (GtkWindow    *window,
                                     FlView        view);
/* The first widget in `root`'s tree, `root` included, that `match` accepts, or NULL. */
typedef gboolean (*FlWidgetMatch) (GtkWidget *widget, gconstpointer data);
GtkWidget  *fl_test_find_widget     (GtkWidget *root, FlWidgetMatch match, gconstpointer data);
/* Resizes the window to width × height, its frame counted, and waits for it to be drawn. */
void        fl_test_fit_window      (GtkWindow *window, int width, int height);
/* fl_test_fit_window(), then how far short of width × height the screen left it (1 when it
 * fits: make test's virtual screen is 1600×1000), logged when it fell short: tests at
 * 1920×1080 then check the painters at the panel sizes scaled up by that much. */
void        fl_test_fit_window_scaled (GtkWindow *window, int width, int height,
                                       double *scale_w, double *scale_h);
/* Lets whatever the last action set off happen (idles, redraws) for 200 ms. */
void        fl_test_settle          (void);
/* Makes every warning and critical, structured or not, fail the test with its text. */
void        fl_test_fail_on_warnings(void);
/* The start of every window test: GSettings in memory (never the user's), g_test_init, GTK
 * on the display (make test runs the suite under xvfb: without a display the test fails, it
 * does not skip), warnings fatal. */
void        fl_test_init_window_test(int *argc, char ***argv);
/* A fresh folder as XDG_DATA_HOME, so the test's store is its own; call before any store is
 * opened. fl_test_remove_data_home() deletes the store files in it and the folder. */
char       *fl_test_private_data_home (const char *name);
void        fl_test_remove_data_home  (const char *data_home);

G_END_DECLS

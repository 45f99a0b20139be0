#pragma once

/* FlStoreBrowser: the scenarios and recorded runs of a store, searchable, in a window of its
 * own transient for the main window (win.browse-store, Ctrl+Shift+O). Opening a run replays
 * it in the main window's session with its recorded switches and seed, and says whether the
 * replay equals the recording. Scenarios are imported from and exported to `.fault` files.
 * Another store file (one received from someone) is shown read-only and checked fully; the
 * user's own store is the default. The store is opened on the main thread with the window
 * and closed with it. */

#include <gtk/gtk.h>

#include "fl-window.h"

G_BEGIN_DECLS

#define FL_TYPE_STORE_BROWSER (fl_store_browser_get_type ())
G_DECLARE_FINAL_TYPE (FlStoreBrowser, fl_store_browser, FL, STORE_BROWSER, GtkWindow)

/* Signals:
 *   "run-checked" (gint64 run_id, gboolean matches, const char *message)
 *       a run opened from this browser finished loading and was compared with its recording
 * Actions (group "browser"): import, export, delete-scenario, delete-run, open-scenario,
 *   open-run, open-store, my-store; disabled when they cannot apply (import and the deletes
 *   in a read-only store). */

/* The browser of `window`, created (on the user's store) when there is none, refreshed and
 * presented. */
FlStoreBrowser *fl_store_browser_present      (FlWindow       *window);
/* The browser of `window`, or NULL. */
FlStoreBrowser *fl_store_browser_find         (FlWindow       *window);

/* What the file choosers do with the file picked; errors are also shown in the browser. */
gboolean        fl_store_browser_import_file  (FlStoreBrowser *self,
                                               const char     *path,
                                               GError        **error);
gboolean        fl_store_browser_export_file  (FlStoreBrowser *self,
                                               const char     *path,
                                               GError        **error);
/* Another store, read-only and checked fully as a file received from elsewhere. On failure
 * the store shown stays as it was. */
gboolean        fl_store_browser_open_store   (FlStoreBrowser *self,
                                               const char     *path,
                                               GError        **error);
/* Back to the user's store (fl_store_default_path(), created when missing). */
gboolean        fl_store_browser_show_my_store(FlStoreBrowser *self,
                                               GError        **error);

const char     *fl_store_browser_get_path     (FlStoreBrowser *self);
gboolean        fl_store_browser_is_read_only (FlStoreBrowser *self);
GActionGroup   *fl_store_browser_get_actions  (FlStoreBrowser *self);
GtkEditable    *fl_store_browser_get_search   (FlStoreBrowser *self);
/* GtkSingleSelection of FlScenarioItem / FlRunItem (fl-store-rows.h). */
GtkSelectionModel *fl_store_browser_get_scenarios (FlStoreBrowser *self);
GtkSelectionModel *fl_store_browser_get_runs      (FlStoreBrowser *self);
/* The confirmation dialog a delete action shows, until it is answered; NULL otherwise. */
GtkWidget      *fl_store_browser_get_confirmation (FlStoreBrowser *self);
/* The text of the browser's message bar, NULL when none is shown. */
const char     *fl_store_browser_get_message  (FlStoreBrowser *self);

G_END_DECLS

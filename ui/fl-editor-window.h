#pragma once

/* FlEditorWindow: the scenario editor. A window beside the main window (transient for it, not
 * modal, so a lecturer edits and re-runs while the views stay in sight) holding the `.fault`
 * text of a scenario. The text is checked with the core parser about 300 ms after each
 * change: the line at fault is highlighted, its number marked, and the status line says
 * "Line 7: what is wrong" or "Valid scenario: 2 CPUs, 3 operations". Run hands valid text to
 * the main window's session; the text can be saved to a `.fault` file or to the user's store.
 * Closing, or opening other text, with unsaved changes asks first. */

#include <gtk/gtk.h>

#include "fl-session.h"

G_BEGIN_DECLS

#define FL_EDITOR_ERROR (fl_editor_error_quark ())
GQuark fl_editor_error_quark (void);

typedef enum {
  FL_EDITOR_ERROR_INVALID,     /* the text is not a valid scenario (message: "Line N: ...") */
  FL_EDITOR_ERROR_NO_WINDOW,   /* the main window the editor runs scenarios in is closed */
  FL_EDITOR_ERROR_NOT_TEXT,    /* a file that is not UTF-8 text, or too large to be a scenario */
} FlEditorError;

#define FL_TYPE_EDITOR_WINDOW (fl_editor_window_get_type ())
G_DECLARE_FINAL_TYPE (FlEditorWindow, fl_editor_window, FL, EDITOR_WINDOW, GtkApplicationWindow)

/* The editor of `parent` (a window of a GtkApplication whose runs `session` holds), presented:
 * the one already open with its text as it is, or a new one on the scenario of the run on
 * screen. */
FlEditorWindow *fl_editor_window_show          (GtkWindow      *parent,
                                                FlSession      *session);

/* The same on the text of a `.fault` file (one that failed to load: its error at its line). */
FlEditorWindow *fl_editor_window_show_file     (GtkWindow      *parent,
                                                FlSession      *session,
                                                GFile          *file);

GtkTextBuffer  *fl_editor_window_get_buffer    (FlEditorWindow *self);
/* The name runs and the store get: the file's name without ".fault", else the scenario's. */
const char     *fl_editor_window_get_name      (FlEditorWindow *self);
/* The file Save writes to; NULL until the text was opened from or saved to one. */
GFile          *fl_editor_window_get_file      (FlEditorWindow *self);

/* TRUE between a change and its check, about 300 ms after typing paused. */
gboolean        fl_editor_window_is_check_pending (FlEditorWindow *self);
/* The line the last check found at fault (1-based), 0 when the text was valid. */
guint           fl_editor_window_get_error_line (FlEditorWindow *self);
/* The status line: "Line 7: ..." or "Valid scenario: ...". */
const char     *fl_editor_window_get_status    (FlEditorWindow *self);
/* What the message bar says about the last action, NULL when it is hidden. */
const char     *fl_editor_window_get_message   (FlEditorWindow *self);

/* The text runs in the main window; refused with FL_EDITOR_ERROR_INVALID when it is not a
 * valid scenario. */
gboolean        fl_editor_window_run           (FlEditorWindow *self,
                                                GError        **error);
/* Replaces the text by the file's, without asking: callers ask about unsaved changes. */
gboolean        fl_editor_window_open_file     (FlEditorWindow *self,
                                                GFile          *file,
                                                GError        **error);
/* Writes the text to `file`, which Save then writes to. */
gboolean        fl_editor_window_save_to_file  (FlEditorWindow *self,
                                                GFile          *file,
                                                GError        **error);
/* Saves valid text to the user's store (fl_store_default_path(), created when missing). */
gboolean        fl_editor_window_save_to_store (FlEditorWindow *self,
                                                gint64         *out_id,
                                                GError        **error);

G_END_DECLS

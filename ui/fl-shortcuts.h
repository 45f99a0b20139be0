#pragma once

/* The window's single-key shortcuts (Space, arrows, Home/End, 1–9). A media player lets them
 * work wherever the focus is, but a text field needs them for itself: typing a space or
 * moving the caret must never play or step. So they are not application accelerators (which
 * GTK runs before the focused widget sees the key) but a capture-phase controller that lets
 * the key through whenever a widget that edits text or a value has the focus. */

#include <gtk/gtk.h>

G_BEGIN_DECLS

void fl_shortcuts_install (GtkWindow *window);

/* Whether a key belongs to `focus` rather than to the window's shortcuts. */
gboolean fl_shortcuts_focus_wants_keys (GtkWidget *focus);

G_END_DECLS

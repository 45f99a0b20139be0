#pragma once

/* Where the scenario editor's text comes from and goes to: `.fault` files (read, written, and
 * chosen with the native file chooser) and the user's store. No widgets of the editor and
 * no messages: the editor tells the user what a GError says. */

#include <gtk/gtk.h>

#include "fl-scenario.h"

G_BEGIN_DECLS

/* The file's text: FL_EDITOR_ERROR_NOT_TEXT when it is not UTF-8 or larger than a scenario
 * file may be (1 MiB), else the GIO error. */
char                 *fl_editor_files_read          (GFile              *file,
                                                     GError            **error);
/* Writes through a temporary file, so a failed write never leaves half a scenario. */
gboolean              fl_editor_files_write         (GFile              *file,
                                                     const char         *text,
                                                     GError            **error);
/* The scenario's name a file gives: its name without ".fault". */
char                 *fl_editor_files_name_of       (GFile              *file);
/* Saves the parsed scenario's text, title and tags under `name` in the user's store
 * (fl_store_default_path(), created when missing). */
gboolean              fl_editor_files_save_to_store (const char         *name,
                                                     const FlScenario   *scenario,
                                                     gint64             *out_id,
                                                     GError            **error);
/* A modal native chooser for `.fault` files (OPEN or SAVE), starting in `near`'s folder when
 * given. The caller shows it and unrefs it once it answered. */
GtkFileChooserNative *fl_editor_files_chooser       (GtkWindow          *parent,
                                                     GtkFileChooserAction action,
                                                     GFile              *near);

G_END_DECLS

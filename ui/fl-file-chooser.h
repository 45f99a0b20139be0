#pragma once

/* The file choosers of the app's windows: a modal native chooser filtered to the files a
 * command takes, and the picture format a chosen export path names. */

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* What is done with the file the user accepted: `path` is its local path. */
typedef void (*FlFileChosen) (gpointer target, const char *path);

/* Shows a modal native chooser over `parent` with a filter `filter_name` for the files ending
 * in one of `suffixes` (NULL-terminated) and one for all files; `current_name` proposes a
 * name to save under, `near` (a path) starts in its folder. When the user accepts a local
 * file, `chosen` runs on `target`, a GObject kept alive until then. */
void        fl_file_chooser_show  (GtkWindow             *parent,
                                   const char            *title,
                                   GtkFileChooserAction   mode,
                                   const char            *accept,
                                   const char            *filter_name,
                                   const char *const     *suffixes,
                                   const char            *current_name,
                                   const char            *near,
                                   FlFileChosen           chosen,
                                   gpointer               target);

/* The picture suffixes an export takes, for fl_file_chooser_show(). */
extern const char *const fl_picture_suffixes[];

/* The picture format `path` names by its suffix ("png", "svg" or "pdf", in any case), and in
 * `out_path` the path to write: `path`, or `path` with ".png" added when it names none. */
const char *fl_picture_format_of  (const char            *path,
                                   char                 **out_path);

G_END_DECLS

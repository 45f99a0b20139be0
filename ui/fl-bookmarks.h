#pragma once

/* FlBookmarks: the bookmarks of the session's run, kept in the user's store. A bookmark
 * belongs to a recorded run: the first one added records the run (scenario text,
 * configuration, seed and events), and whenever a run is loaded the store is asked for a run
 * of the same text, configuration, seed and event-stream hash (so a branched run has its
 * own), whose bookmarks then come back. The store is
 * opened on the main thread when first needed and kept open until the object goes. */

#include <glib-object.h>
#include <gio/gio.h>

#include "fl-session.h"

G_BEGIN_DECLS

#define FL_TYPE_BOOKMARK (fl_bookmark_get_type ())
G_DECLARE_FINAL_TYPE (FlBookmark, fl_bookmark, FL, BOOKMARK, GObject)

gint64      fl_bookmark_get_id    (FlBookmark *self);
guint64     fl_bookmark_get_step  (FlBookmark *self);
const char *fl_bookmark_get_title (FlBookmark *self);
const char *fl_bookmark_get_note  (FlBookmark *self);

#define FL_TYPE_BOOKMARKS (fl_bookmarks_get_type ())
G_DECLARE_FINAL_TYPE (FlBookmarks, fl_bookmarks, FL, BOOKMARKS, GObject)

/* Signals:
 *   "failed" (GError *error)  reading the bookmarks of a newly loaded run failed
 * The model changes (items-changed) whenever the bookmarks do. */
FlBookmarks *fl_bookmarks_new         (FlSession   *session);
/* FlBookmark items in step order (then in the order they were added). */
GListModel  *fl_bookmarks_get_model   (FlBookmarks *self);
/* The store run the bookmarks belong to, 0 while the run is not recorded. */
gint64       fl_bookmarks_get_run_id  (FlBookmarks *self);
/* A bookmark at the session's current step; records the run first when it is not yet. */
gboolean     fl_bookmarks_add         (FlBookmarks *self,
                                       const char  *title,
                                       const char  *note,
                                       GError     **error);
gboolean     fl_bookmarks_edit        (FlBookmarks *self,
                                       FlBookmark  *bookmark,
                                       const char  *title,
                                       const char  *note,
                                       GError     **error);
gboolean     fl_bookmarks_remove      (FlBookmarks *self,
                                       FlBookmark  *bookmark,
                                       GError     **error);
/* The index of the first bookmark after / before `step` in the model, or -1. */
int          fl_bookmarks_next_after  (FlBookmarks *self,
                                       guint64      step);
int          fl_bookmarks_previous_before (FlBookmarks *self,
                                           guint64      step);

G_END_DECLS

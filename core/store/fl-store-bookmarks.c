/* fl-store-bookmarks.c — bookmarks: the annotated steps presentation mode walks through. */
#include "fl-store-private.h"

#define BOOKMARK_COLUMNS "id, run_id, step, title, note, created, updated"

/**
 * fl_stored_bookmark_free:
 * @bookmark: (nullable): a bookmark from the store
 */
void
fl_stored_bookmark_free (FlStoredBookmark *bookmark)
{
  if (bookmark == NULL)
    return;
  g_free (bookmark->title);
  g_free (bookmark->note);
  g_free (bookmark);
}

static FlStoredBookmark *
bookmark_from_row (FlStore *store, sqlite3_stmt *stmt, GError **error)
{
  g_autoptr (FlStoredBookmark) bookmark = g_new0 (FlStoredBookmark, 1);
  FlStoreRow row;
  fl_store_row_init (&row, store, stmt, error);
  bookmark->id = fl_store_row_key (&row, 0, "bookmark");
  bookmark->run_id = fl_store_row_int (&row, 1, "run_id", 1, G_MAXINT64);
  bookmark->step = (guint32) fl_store_row_int (&row, 2, "step", 0, G_MAXUINT32);
  bookmark->title = fl_store_row_text (&row, 3, "title", FL_STORE_MAX_SHORT);
  bookmark->note = fl_store_row_text (&row, 4, "note", FL_STORE_MAX_LONG);
  bookmark->created = fl_store_row_int (&row, 5, "created", G_MININT64, G_MAXINT64);
  bookmark->updated = fl_store_row_int (&row, 6, "updated", G_MININT64, G_MAXINT64);
  return fl_store_row_ok (&row) ? g_steal_pointer (&bookmark) : NULL;
}

static gboolean
check_strings (FlStore *store, const char *title, const char *note, GError **error)
{
  if (!g_utf8_validate (title, -1, NULL) || !g_utf8_validate (note, -1, NULL))
    {
      g_set_error (error, FL_STORE_ERROR, FL_STORE_ERROR_INVALID,
                   "cannot save a bookmark in '%s': its title or note is not valid UTF-8",
                   store->path);
      return FALSE;
    }
  return fl_store_check_text (store, "save a bookmark", "title", title, FL_STORE_MAX_SHORT,
                              error) &&
         fl_store_check_text (store, "save a bookmark", "note", note, FL_STORE_MAX_LONG, error);
}

static gboolean
not_found (FlStore *store, gint64 id, GError **error)
{
  g_set_error (error, FL_STORE_ERROR, FL_STORE_ERROR_NOT_FOUND,
               "there is no bookmark %" G_GINT64_FORMAT " in '%s'", id, store->path);
  return FALSE;
}

/**
 * fl_store_add_bookmark:
 * @store: a store
 * @run_id: a completed run
 * @step: the step the bookmark marks
 * @title: a short title
 * @note: (nullable): the note shown in presentation mode
 * @out_id: (out) (optional): the id of the new bookmark
 * @error: set to %FL_STORE_ERROR_NOT_FOUND when there is no such run
 *
 * Returns: %TRUE on success.
 */
gboolean
fl_store_add_bookmark (FlStore *store, gint64 run_id, guint32 step, const char *title,
                       const char *note, gint64 *out_id, GError **error)
{
  g_return_val_if_fail (store != NULL && title != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (note == NULL)
    note = "";
  if (!check_strings (store, title, note, error) ||
      !fl_store_check_writable (store, "add a bookmark", error))
    return FALSE;

  g_autoptr (FlStoreCursor) insert = fl_store_cursor (store, FL_STMT_BOOKMARK_INSERT,
    "INSERT INTO bookmark (run_id, step, title, note, created, updated) "
    "VALUES (?1, ?2, ?3, ?4, ?5, ?5)", error);
  if (insert == NULL)
    return FALSE;
  sqlite3_bind_int64 (insert, 1, run_id);
  sqlite3_bind_int64 (insert, 2, step);
  sqlite3_bind_text (insert, 3, title, -1, SQLITE_STATIC);
  sqlite3_bind_text (insert, 4, note, -1, SQLITE_STATIC);
  sqlite3_bind_int64 (insert, 5, fl_store_now ());
  int rc = sqlite3_step (insert);
  if (rc == SQLITE_CONSTRAINT_FOREIGNKEY)
    {
      g_set_error (error, FL_STORE_ERROR, FL_STORE_ERROR_NOT_FOUND,
                   "cannot add a bookmark in '%s': there is no run %" G_GINT64_FORMAT,
                   store->path, run_id);
      return FALSE;
    }
  if (rc != SQLITE_DONE)
    return fl_store_fail (store, rc, error, "add a bookmark");
  if (out_id != NULL)
    *out_id = sqlite3_last_insert_rowid (store->db);
  return TRUE;
}

/**
 * fl_store_edit_bookmark:
 * @store: a store
 * @id: a bookmark id
 * @step: the step it now marks
 * @title: its new title
 * @note: (nullable): its new note
 * @error: set to %FL_STORE_ERROR_NOT_FOUND when there is no such bookmark
 *
 * Replaces the step, title and note of a bookmark and sets its `updated` time.
 *
 * Returns: %TRUE on success.
 */
gboolean
fl_store_edit_bookmark (FlStore *store, gint64 id, guint32 step, const char *title,
                        const char *note, GError **error)
{
  g_return_val_if_fail (store != NULL && title != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (note == NULL)
    note = "";
  if (!check_strings (store, title, note, error) ||
      !fl_store_check_writable (store, "edit a bookmark", error))
    return FALSE;

  g_autoptr (FlStoreCursor) update = fl_store_cursor (store, FL_STMT_BOOKMARK_UPDATE,
    "UPDATE bookmark SET step = ?2, title = ?3, note = ?4, updated = ?5 WHERE id = ?1", error);
  if (update == NULL)
    return FALSE;
  sqlite3_bind_int64 (update, 1, id);
  sqlite3_bind_int64 (update, 2, step);
  sqlite3_bind_text (update, 3, title, -1, SQLITE_STATIC);
  sqlite3_bind_text (update, 4, note, -1, SQLITE_STATIC);
  sqlite3_bind_int64 (update, 5, fl_store_now ());
  int rc = sqlite3_step (update);
  if (rc != SQLITE_DONE)
    return fl_store_fail (store, rc, error, "edit bookmark %" G_GINT64_FORMAT, id);
  if (sqlite3_changes (store->db) == 0)
    return not_found (store, id, error);
  return TRUE;
}

/**
 * fl_store_delete_bookmark:
 * @store: a store
 * @id: a bookmark id
 * @error: set to %FL_STORE_ERROR_NOT_FOUND when there is no such bookmark
 *
 * Returns: %TRUE on success.
 */
gboolean
fl_store_delete_bookmark (FlStore *store, gint64 id, GError **error)
{
  g_return_val_if_fail (store != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!fl_store_check_writable (store, "delete a bookmark", error))
    return FALSE;
  g_autoptr (FlStoreCursor) stmt = fl_store_cursor (store, FL_STMT_BOOKMARK_DELETE,
    "DELETE FROM bookmark WHERE id = ?1", error);
  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_int64 (stmt, 1, id);
  int rc = sqlite3_step (stmt);
  if (rc != SQLITE_DONE)
    return fl_store_fail (store, rc, error, "delete bookmark %" G_GINT64_FORMAT, id);
  if (sqlite3_changes (store->db) == 0)
    return not_found (store, id, error);
  return TRUE;
}

/**
 * fl_store_get_bookmark:
 * @store: a store
 * @id: a bookmark id
 * @error: set to %FL_STORE_ERROR_NOT_FOUND when there is no such bookmark
 *
 * Returns: (transfer full) (nullable): the bookmark, or %NULL with @error set.
 */
FlStoredBookmark *
fl_store_get_bookmark (FlStore *store, gint64 id, GError **error)
{
  g_return_val_if_fail (store != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  g_autoptr (FlStoreCursor) stmt = fl_store_cursor (store, FL_STMT_BOOKMARK_GET,
    "SELECT " BOOKMARK_COLUMNS " FROM bookmark WHERE id = ?1", error);
  if (stmt == NULL)
    return NULL;
  sqlite3_bind_int64 (stmt, 1, id);
  int rc = sqlite3_step (stmt);
  if (rc == SQLITE_ROW)
    return bookmark_from_row (store, stmt, error);
  if (rc == SQLITE_DONE)
    not_found (store, id, error);
  else
    fl_store_fail (store, rc, error, "read bookmark %" G_GINT64_FORMAT, id);
  return NULL;
}

/**
 * fl_store_list_bookmarks:
 * @store: a store
 * @run_id: a run id
 * @error: a #GError
 *
 * Returns: (transfer container) (element-type FlStoredBookmark): the bookmarks of the run in
 *   step order (then in the order they were made), or %NULL on error.
 */
GPtrArray *
fl_store_list_bookmarks (FlStore *store, gint64 run_id, GError **error)
{
  g_return_val_if_fail (store != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  g_autoptr (FlStoreCursor) stmt = fl_store_cursor (store, FL_STMT_BOOKMARK_LIST,
    "SELECT " BOOKMARK_COLUMNS " FROM bookmark WHERE run_id = ?1 ORDER BY step, id", error);
  if (stmt == NULL)
    return NULL;
  sqlite3_bind_int64 (stmt, 1, run_id);

  g_autoptr (GPtrArray) list = g_ptr_array_new_with_free_func ((GDestroyNotify) fl_stored_bookmark_free);
  int rc;
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      FlStoredBookmark *bookmark = bookmark_from_row (store, stmt, error);
      if (bookmark == NULL)
        return NULL;
      g_ptr_array_add (list, bookmark);
    }
  if (rc != SQLITE_DONE)
    {
      fl_store_fail (store, rc, error, "list the bookmarks of run %" G_GINT64_FORMAT, run_id);
      return NULL;
    }
  return g_steal_pointer (&list);
}

/* FlBookmarks: the session run's bookmarks and the store they live in; see fl-bookmarks.h. */

#include "fl-bookmarks.h"

#include "fl-store.h"
#include "fl-store-record.h"

/* ---- FlBookmark: one row of the model, a copy of a store row ---- */

struct _FlBookmark
{
  GObject parent_instance;

  gint64  id;
  guint64 step;
  char   *title;
  char   *note;
};

G_DEFINE_FINAL_TYPE (FlBookmark, fl_bookmark, G_TYPE_OBJECT)

static void
fl_bookmark_finalize (GObject *object)
{
  FlBookmark *self = FL_BOOKMARK (object);

  g_free (self->title);
  g_free (self->note);
  G_OBJECT_CLASS (fl_bookmark_parent_class)->finalize (object);
}

static void
fl_bookmark_class_init (FlBookmarkClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = fl_bookmark_finalize;
}

static void
fl_bookmark_init (FlBookmark *self)
{
}

static FlBookmark *
fl_bookmark_new (const FlStoredBookmark *stored)
{
  FlBookmark *self = g_object_new (FL_TYPE_BOOKMARK, NULL);

  self->id = stored->id;
  self->step = stored->step;
  self->title = g_strdup (stored->title);
  self->note = g_strdup (stored->note != NULL ? stored->note : "");
  return self;
}

gint64
fl_bookmark_get_id (FlBookmark *self)
{
  g_return_val_if_fail (FL_IS_BOOKMARK (self), 0);
  return self->id;
}

guint64
fl_bookmark_get_step (FlBookmark *self)
{
  g_return_val_if_fail (FL_IS_BOOKMARK (self), 0);
  return self->step;
}

const char *
fl_bookmark_get_title (FlBookmark *self)
{
  g_return_val_if_fail (FL_IS_BOOKMARK (self), "");
  return self->title;
}

const char *
fl_bookmark_get_note (FlBookmark *self)
{
  g_return_val_if_fail (FL_IS_BOOKMARK (self), "");
  return self->note;
}

/* ---- FlBookmarks ---- */

struct _FlBookmarks
{
  GObject parent_instance;

  FlSession  *session;   /* weak: the window owns both */
  GListStore *items;
  FlStore    *store;     /* opened when first needed */
  gint64      run_id;    /* 0: the session's run is not in the store (yet) */
};

G_DEFINE_FINAL_TYPE (FlBookmarks, fl_bookmarks, G_TYPE_OBJECT)

enum {
  SIGNAL_FAILED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static FlStore *
fl_bookmarks_open_store (FlBookmarks *self, gboolean create, GError **error)
{
  g_autofree char *path = NULL;

  if (self->store != NULL)
    return self->store;
  path = fl_store_default_path ();
  /* Only looking up bookmarks never creates the file: a user who never bookmarks gets none. */
  if (!create && !g_file_test (path, G_FILE_TEST_EXISTS))
    return NULL;
  self->store = fl_store_open (path, FL_STORE_OPEN_CREATE, error);
  return self->store;
}

/* Step order, so the list and presentation mode walk the run from its start. */
static int
fl_bookmark_compare (gconstpointer a, gconstpointer b, gpointer user_data)
{
  const FlBookmark *x = a, *y = b;

  if (x->step != y->step)
    return x->step < y->step ? -1 : 1;
  return x->id < y->id ? -1 : x->id > y->id;
}

static gboolean
fl_bookmarks_reread (FlBookmarks *self, GError **error)
{
  g_autoptr(GPtrArray) rows = NULL;
  g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func (g_object_unref);

  if (self->run_id != 0)
    {
      rows = fl_store_list_bookmarks (self->store, self->run_id, error);
      if (rows == NULL)
        return FALSE;
      for (guint i = 0; i < rows->len; i++)
        g_ptr_array_add (items, fl_bookmark_new (g_ptr_array_index (rows, i)));
    }
  /* one items-changed for the whole list, not one per row */
  g_list_store_splice (self->items, 0, g_list_model_get_n_items (G_LIST_MODEL (self->items)),
                       items->pdata, items->len);
  g_list_store_sort (self->items, fl_bookmark_compare, NULL);
  return TRUE;
}

/* A new run (a load, a switch, a branch) has other bookmarks: find its twin in the store,
 * the run with the same text, configuration, seed and event stream. */
static void
fl_bookmarks_run_changed (FlBookmarks *self)
{
  const FlRun *run = fl_session_get_run (self->session);
  g_autoptr(GError) error = NULL;
  g_autofree char *config = NULL;
  g_autofree char *hash = NULL;

  if (fl_session_is_loading (self->session))
    return;
  self->run_id = 0;
  if (run != NULL && fl_bookmarks_open_store (self, FALSE, &error) != NULL)
    {
      config = fl_store_run_config_text (run);
      /* A branch (the user stepped another CPU) has the same text, configuration and seed
       * as the run it left, but its own events: its own bookmarks. */
      hash = fl_store_run_hash_text (run);
      if (!fl_store_find_run (self->store, fl_run_get_scenario (run)->text, config,
                              fl_run_get_seed (run), hash, &self->run_id, &error))
        self->run_id = 0;
    }
  if (error == NULL)
    fl_bookmarks_reread (self, &error);
  if (error != NULL)
    {
      g_list_store_remove_all (self->items);
      g_signal_emit (self, signals[SIGNAL_FAILED], 0, error);
    }
}

/* Records the session's whole run: a finished run knows its length and its counters at its
 * end, wherever the session's cursor stands. */
static gboolean
fl_bookmarks_record_run (FlBookmarks *self, const FlRun *run, GError **error)
{
  gint64 run_id;

  run_id = fl_store_record_run (self->store, run, !fl_run_is_finished (run), error);
  if (run_id < 0)
    return FALSE;
  self->run_id = run_id;
  return TRUE;
}

gboolean
fl_bookmarks_add (FlBookmarks *self, const char *title, const char *note, GError **error)
{
  const FlRun *run;
  guint64 step;

  g_return_val_if_fail (FL_IS_BOOKMARKS (self), FALSE);
  g_return_val_if_fail (title != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  run = fl_session_get_run (self->session);
  if (run == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_PENDING, "the run is still loading");
      return FALSE;
    }
  step = fl_session_get_step (self->session);
  if (fl_bookmarks_open_store (self, TRUE, error) == NULL)
    return FALSE;
  if (self->run_id == 0 && !fl_bookmarks_record_run (self, run, error))
    return FALSE;
  if (!fl_store_add_bookmark (self->store, self->run_id, (guint32) MIN (step, G_MAXUINT32),
                              title, note, NULL, error))
    return FALSE;
  return fl_bookmarks_reread (self, error);
}

gboolean
fl_bookmarks_edit (FlBookmarks *self, FlBookmark *bookmark, const char *title,
                   const char *note, GError **error)
{
  g_return_val_if_fail (FL_IS_BOOKMARKS (self), FALSE);
  g_return_val_if_fail (FL_IS_BOOKMARK (bookmark) && title != NULL, FALSE);
  g_return_val_if_fail (self->store != NULL, FALSE);

  if (!fl_store_edit_bookmark (self->store, bookmark->id, (guint32) bookmark->step, title,
                               note, error))
    return FALSE;
  return fl_bookmarks_reread (self, error);
}

gboolean
fl_bookmarks_remove (FlBookmarks *self, FlBookmark *bookmark, GError **error)
{
  g_return_val_if_fail (FL_IS_BOOKMARKS (self), FALSE);
  g_return_val_if_fail (FL_IS_BOOKMARK (bookmark), FALSE);
  g_return_val_if_fail (self->store != NULL, FALSE);

  if (!fl_store_delete_bookmark (self->store, bookmark->id, error))
    return FALSE;
  return fl_bookmarks_reread (self, error);
}

GListModel *
fl_bookmarks_get_model (FlBookmarks *self)
{
  g_return_val_if_fail (FL_IS_BOOKMARKS (self), NULL);
  return G_LIST_MODEL (self->items);
}

gint64
fl_bookmarks_get_run_id (FlBookmarks *self)
{
  g_return_val_if_fail (FL_IS_BOOKMARKS (self), 0);
  return self->run_id;
}

int
fl_bookmarks_next_after (FlBookmarks *self, guint64 step)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->items));

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(FlBookmark) b = g_list_model_get_item (G_LIST_MODEL (self->items), i);
      if (b->step > step)
        return (int) i;
    }
  return -1;
}

int
fl_bookmarks_previous_before (FlBookmarks *self, guint64 step)
{
  for (guint i = g_list_model_get_n_items (G_LIST_MODEL (self->items)); i > 0; i--)
    {
      g_autoptr(FlBookmark) b = g_list_model_get_item (G_LIST_MODEL (self->items), i - 1);
      if (b->step < step)
        return (int) i - 1;
    }
  return -1;
}

static void
fl_bookmarks_dispose (GObject *object)
{
  FlBookmarks *self = FL_BOOKMARKS (object);

  if (self->session != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->session, self);
      g_object_remove_weak_pointer (G_OBJECT (self->session), (gpointer *) &self->session);
      self->session = NULL;
    }
  g_clear_pointer (&self->store, fl_store_close);
  g_clear_object (&self->items);
  G_OBJECT_CLASS (fl_bookmarks_parent_class)->dispose (object);
}

static void
fl_bookmarks_class_init (FlBookmarksClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = fl_bookmarks_dispose;

  signals[SIGNAL_FAILED] =
    g_signal_new ("failed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_ERROR);
}

static void
fl_bookmarks_init (FlBookmarks *self)
{
  self->items = g_list_store_new (FL_TYPE_BOOKMARK);
}

FlBookmarks *
fl_bookmarks_new (FlSession *session)
{
  FlBookmarks *self;

  g_return_val_if_fail (FL_IS_SESSION (session), NULL);

  self = g_object_new (FL_TYPE_BOOKMARKS, NULL);
  self->session = session;
  g_object_add_weak_pointer (G_OBJECT (session), (gpointer *) &self->session);
  g_signal_connect_swapped (session, "notify::loading", G_CALLBACK (fl_bookmarks_run_changed),
                            self);
  return self;
}

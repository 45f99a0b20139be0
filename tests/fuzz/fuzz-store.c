/* Fuzz target: the store opener and reader. The input is written to a file and opened as a
 * store received from someone (read-only, integrity_check in full), then as one's own
 * (quick_check, the WAL switch); whatever opens is read through: scenarios, runs, their
 * events, findings and bookmarks, the benchmark rows. Seeds are real stores (fuzz-seed-store.c). */

#include <stdlib.h>
#include <glib/gstdio.h>
#include "fl-store.h"
#include "fuzz-harness.h"

/* Whatever a read gives back, a failure says why: the window shows that message. */
static void
check_answer (gboolean ok, GError **error, const char *what)
{
  if (!ok && *error == NULL)
    fl_fuzz_fail ("%s failed without saying why", what);
  g_clear_error (error);
}

static void
read_run (FlStore *store, gint64 run_id)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (FlStoredRun) run = fl_store_get_run (store, run_id, &error);
  check_answer (run != NULL, &error, "fl_store_get_run");
  g_autoptr (GArray) events = g_array_new (FALSE, TRUE, sizeof (FlEvent));
  check_answer (fl_store_load_events (store, run_id, 0, G_MAXUINT32, events, &error), &error,
                "fl_store_load_events");
  g_autoptr (GPtrArray) findings = fl_store_list_findings (store, run_id, &error);
  check_answer (findings != NULL, &error, "fl_store_list_findings");
  g_autoptr (GPtrArray) bookmarks = fl_store_list_bookmarks (store, run_id, &error);
  check_answer (bookmarks != NULL, &error, "fl_store_list_bookmarks");
  for (guint i = 0; bookmarks != NULL && i < bookmarks->len; i++)
    {
      const FlStoredBookmark *b = g_ptr_array_index (bookmarks, i);
      g_autoptr (FlStoredBookmark) again = fl_store_get_bookmark (store, b->id, &error);
      check_answer (again != NULL, &error, "fl_store_get_bookmark");
    }
}

static void
read_store (FlStore *store)
{
  g_autoptr (GError) error = NULL;
  check_answer (fl_store_check (store, &error), &error, "fl_store_check");

  g_autoptr (GPtrArray) scenarios = fl_store_list_scenarios (store, &error);
  check_answer (scenarios != NULL, &error, "fl_store_list_scenarios");
  for (guint i = 0; scenarios != NULL && i < scenarios->len; i++)
    {
      const FlStoredScenario *s = g_ptr_array_index (scenarios, i);
      g_autoptr (FlStoredScenario) again = fl_store_get_scenario (store, s->id, &error);
      check_answer (again != NULL, &error, "fl_store_get_scenario");
    }
  g_autoptr (GPtrArray) found = fl_store_search_scenarios (store, "fault", &error);
  check_answer (found != NULL, &error, "fl_store_search_scenarios");

  g_autoptr (GPtrArray) runs = fl_store_list_runs (store, 0, &error);
  check_answer (runs != NULL, &error, "fl_store_list_runs");
  for (guint i = 0; runs != NULL && i < runs->len; i++)
    read_run (store, ((const FlStoredRun *) g_ptr_array_index (runs, i))->id);

  g_autoptr (GPtrArray) bench = fl_store_list_bench (store, NULL, &error);
  check_answer (bench != NULL, &error, "fl_store_list_bench");
}

/* The store's own files next to it: a WAL left from one input must not reach the next. */
static void
remove_store_files (const char *path)
{
  static const char *const suffixes[] = { "", "-wal", "-shm", "-journal" };
  for (gsize i = 0; i < G_N_ELEMENTS (suffixes); i++)
    {
      g_autofree char *file = g_strconcat (path, suffixes[i], NULL);
      g_unlink (file);
    }
}

static void
open_and_read (const char *path, const uint8_t *data, size_t size, FlStoreOpenFlags flags)
{
  g_autoptr (GError) error = NULL;
  remove_store_files (path);
  if (!g_file_set_contents (path, (const char *) data, (gssize) size, &error))
    fl_fuzz_fail ("cannot write %s: %s", path, error->message);
  g_autoptr (FlStore) store = fl_store_open (path, flags, &error);
  if (store == NULL)
    {
      if (error == NULL)
        fl_fuzz_fail ("fl_store_open refused the file without saying why");
      return;
    }
  read_store (store);
}

/* One folder for the process, left empty after each input and removed at its exit. */
static char *dir = NULL;

static void
remove_dir (void)
{
  g_rmdir (dir);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
    if (dir == NULL)
    {
      g_autoptr (GError) error = NULL;
      dir = g_dir_make_tmp ("faultline-fuzz-store-XXXXXX", &error);
      if (dir == NULL)
        fl_fuzz_fail ("cannot make a temporary folder: %s", error->message);
      atexit (remove_dir);
    }
  g_autofree char *path = g_build_filename (dir, "fuzz.db", NULL);

  open_and_read (path, data, size, FL_STORE_OPEN_READ_ONLY | FL_STORE_OPEN_UNTRUSTED);
  open_and_read (path, data, size, FL_STORE_OPEN_NONE);
  remove_store_files (path);
  return 0;
}

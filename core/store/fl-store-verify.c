/* fl-store-verify.c — the full check behind `faultline-cli db check`: every page, every link
 * between rows, every count that must agree, and every value read as the store reads it. */
#include "fl-store-private.h"

/* Rows that each say something the others contradict. Faultline never writes one: a bookmark
 * or a finding marks a step of its run, and a run counts its findings. */
static const struct { const char *sql, *problem; } consistency[] = {
  { "SELECT count(*) FROM pragma_foreign_key_check", "rows refer to missing rows" },
  { "SELECT count(*) FROM event e WHERE NOT EXISTS (SELECT 1 FROM run WHERE id = e.run_id)",
    "events belong to no run" },
  { "SELECT count(*) FROM bookmark b JOIN run r ON r.id = b.run_id "
    "WHERE r.hash IS NOT NULL AND b.step > r.steps",
    "bookmarks mark a step after their run's end" },
  { "SELECT count(*) FROM finding f JOIN run r ON r.id = f.run_id "
    "WHERE r.hash IS NOT NULL AND f.step > r.steps", "findings lie after their run's end" },
  { "SELECT count(*) FROM run r WHERE r.hash IS NOT NULL AND r.findings <> "
    "(SELECT count(*) FROM finding f WHERE f.run_id = r.id)",
    "runs count other findings than they have" },
};

/* Every value of every row, through the readers the store uses: the first one Faultline could
 * not have written names its table, row and column. */
static gboolean
read_every_value (FlStore *store, GError **error)
{
  g_autoptr (GPtrArray) scenarios = fl_store_list_scenarios (store, error);
  g_autoptr (GPtrArray) bench = scenarios ? fl_store_list_bench (store, NULL, error) : NULL;
  g_autoptr (GPtrArray) explorations = bench ? fl_store_list_explorations (store, 0, error)
                                              : NULL;
  g_autoptr (GPtrArray) runs = explorations ? fl_store_list_runs (store, 0, error) : NULL;
  if (runs == NULL)
    return FALSE;
  g_autoptr (GArray) events = g_array_new (FALSE, FALSE, sizeof (FlEvent));
  for (guint i = 0; i < runs->len; i++)
    {
      const FlStoredRun *run = runs->pdata[i];
      g_autoptr (GPtrArray) findings = fl_store_list_findings (store, run->id, error);
      g_autoptr (GPtrArray) bookmarks = findings ? fl_store_list_bookmarks (store, run->id, error)
                                                 : NULL;
      if (bookmarks == NULL)
        return FALSE;
      /* a window of steps at a time, as the window reads a run */
      for (guint64 first = 0; first <= G_MAXUINT32; first += 65536)
        {
          g_array_set_size (events, 0);
          if (!fl_store_load_events (store, run->id, (guint32) first,
                                     (guint32) MIN (first + 65535, G_MAXUINT32), events, error))
            return FALSE;
          if (first >= run->steps && events->len == 0)
            break;
        }
    }
  return TRUE;
}

/**
 * fl_store_check:
 * @store: a store
 * @error: set to %FL_STORE_ERROR_CORRUPT (or %FL_STORE_ERROR_BAD_VALUE) with the first problem
 *
 * The full check behind `faultline-cli db check`: SQLite's integrity_check (every page, every
 * index), the foreign keys, events whose run does not exist, bookmarks and findings after
 * their run's end, runs whose finding count disagrees with their findings, and every value of
 * every row as the store reads it. Reads the whole file. (The schema was compared with the
 * app's when @store was opened; fl_store_list_foreign() lists every difference.)
 *
 * Returns: %TRUE when the store is sound.
 */
gboolean
fl_store_check (FlStore *store, GError **error)
{
  g_return_val_if_fail (store != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  /* the values before the counts: a count that is itself wrong is named as such */
  if (!fl_store_check_integrity (store, TRUE, error) || !read_every_value (store, error))
    return FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (consistency); i++)
    {
      gint64 count = 0;
      if (!fl_store_query_int (store, consistency[i].sql, &count, error))
        return FALSE;
      if (count != 0)
        {
          g_set_error (error, FL_STORE_ERROR, FL_STORE_ERROR_CORRUPT,
                       "'%s' is inconsistent (%" G_GINT64_FORMAT " %s)", store->path, count,
                       consistency[i].problem);
          return FALSE;
        }
    }
  return TRUE;
}

/* fl-store-bench.c — benchmark rows: faults per simulated second by workload, design, CPUs. */
#include "fl-store-private.h"

/**
 * fl_stored_bench_free:
 * @bench: (nullable): a benchmark row from the store
 */
void
fl_stored_bench_free (FlStoredBench *bench)
{
  if (bench == NULL)
    return;
  g_free (bench->workload);
  g_free (bench->config);
  g_free (bench);
}

/**
 * fl_store_add_bench:
 * @store: a store
 * @row: the measurement (its `id` is ignored; `created` 0 means now)
 * @out_id: (out) (optional): the id of the new row
 * @error: a #GError
 *
 * Returns: %TRUE on success.
 */
gboolean
fl_store_add_bench (FlStore *store, const FlStoredBench *row, gint64 *out_id, GError **error)
{
  g_return_val_if_fail (store != NULL && row != NULL, FALSE);
  g_return_val_if_fail (row->workload != NULL && row->config != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!fl_store_check_writable (store, "add a benchmark row", error) ||
      !fl_store_check_text (store, "add a benchmark row", "workload", row->workload,
                            FL_STORE_MAX_SHORT, error) ||
      !fl_store_check_text (store, "add a benchmark row", "config", row->config,
                            FL_STORE_MAX_LONG, error))
    return FALSE;
  g_autoptr (FlStoreCursor) insert = fl_store_cursor (store, FL_STMT_BENCH_INSERT,
    "INSERT INTO bench (workload, config, cpus, faults, cycles, faults_per_sec, ratio, created) "
    "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)", error);
  if (insert == NULL)
    return FALSE;
  sqlite3_bind_text (insert, 1, row->workload, -1, SQLITE_STATIC);
  sqlite3_bind_text (insert, 2, row->config, -1, SQLITE_STATIC);
  sqlite3_bind_int64 (insert, 3, row->cpus);
  sqlite3_bind_int64 (insert, 4, (sqlite3_int64) row->faults);
  sqlite3_bind_int64 (insert, 5, (sqlite3_int64) row->cycles);
  sqlite3_bind_double (insert, 6, row->faults_per_sec);
  sqlite3_bind_double (insert, 7, row->ratio);
  sqlite3_bind_int64 (insert, 8, row->created ? row->created : fl_store_now ());
  int rc = sqlite3_step (insert);
  if (rc != SQLITE_DONE)
    return fl_store_fail (store, rc, error, "add a benchmark row for '%s'", row->workload);
  if (out_id != NULL)
    *out_id = sqlite3_last_insert_rowid (store->db);
  return TRUE;
}

/**
 * fl_store_list_bench:
 * @store: a store
 * @workload: (nullable): only the rows of this workload, or %NULL for all
 * @error: a #GError
 *
 * Returns: (transfer container) (element-type FlStoredBench): the rows by workload, CPU count
 *   and age, or %NULL on error.
 */
GPtrArray *
fl_store_list_bench (FlStore *store, const char *workload, GError **error)
{
  g_return_val_if_fail (store != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

#define BENCH_SELECT "SELECT id, workload, config, cpus, faults, cycles, faults_per_sec, " \
                     "ratio, created FROM bench "
  g_autoptr (FlStoreCursor) stmt = workload != NULL
    ? fl_store_cursor (store, FL_STMT_BENCH_LIST,
                       BENCH_SELECT "WHERE workload = ?1 ORDER BY workload, cpus, id", error)
    : fl_store_cursor (store, FL_STMT_BENCH_LIST_ALL,
                       BENCH_SELECT "ORDER BY workload, cpus, id", error);
#undef BENCH_SELECT
  if (stmt == NULL)
    return NULL;
  if (workload != NULL)
    sqlite3_bind_text (stmt, 1, workload, -1, SQLITE_STATIC);

  g_autoptr (GPtrArray) list = g_ptr_array_new_with_free_func ((GDestroyNotify) fl_stored_bench_free);
  int rc;
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      g_autoptr (FlStoredBench) bench = g_new0 (FlStoredBench, 1);
      FlStoreRow row;
      fl_store_row_init (&row, store, stmt, error);
      bench->id = fl_store_row_key (&row, 0, "bench");
      bench->workload = fl_store_row_text (&row, 1, "workload", FL_STORE_MAX_SHORT);
      bench->config = fl_store_row_text (&row, 2, "config", FL_STORE_MAX_LONG);
      bench->cpus = (guint) fl_store_row_int (&row, 3, "cpus", 1, G_MAXUINT32);
      /* unsigned counts, kept as SQLite's signed integers */
      bench->faults = (guint64) fl_store_row_int (&row, 4, "faults", G_MININT64, G_MAXINT64);
      bench->cycles = (guint64) fl_store_row_int (&row, 5, "cycles", G_MININT64, G_MAXINT64);
      bench->faults_per_sec = fl_store_row_real (&row, 6, "faults_per_sec");
      bench->ratio = fl_store_row_real (&row, 7, "ratio");
      bench->created = fl_store_row_int (&row, 8, "created", G_MININT64, G_MAXINT64);
      if (!fl_store_row_ok (&row))
        return NULL;
      g_ptr_array_add (list, g_steal_pointer (&bench));
    }
  if (rc != SQLITE_DONE)
    {
      fl_store_fail (store, rc, error, "list benchmark rows");
      return NULL;
    }
  return g_steal_pointer (&list);
}

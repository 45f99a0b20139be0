/* fl-bench-record.c — recording a run into the store, against the fastest plain SQLite can
 * insert the same rows into the same table, in the same process and the same folder. */
#include "fl-bench.h"
#include "fl-store.h"
#include "fl-store-record.h"

#include <glib/gstdio.h>
#include <sqlite3.h>

/* What fl-store.c sets on every writable store (WAL is persistent, it comes with the file). */
#define STORE_PRAGMAS "PRAGMA synchronous=NORMAL; PRAGMA cache_size=-16384"

static char *
fresh_store (const char *dir, const char *name, guint attempt, GError **error)
{
  char *path = g_strdup_printf ("%s/%s-%u.db", dir, name, attempt);
  g_autoptr (FlStore) store = fl_store_open (path, FL_STORE_OPEN_CREATE, error);
  if (store == NULL)
    g_clear_pointer (&path, g_free);
  return path;
}

/* The whole of fl_store_record_sim(): scenario row, run row, events, commit. */
static gboolean
time_store (FlSim *sim, const char *path, double *out_seconds, GError **error)
{
  g_autoptr (FlStore) store = fl_store_open (path, FL_STORE_OPEN_NONE, error);
  if (store == NULL)
    return FALSE;
  guint64 t0 = fl_bench_now_ns ();
  gint64 run = fl_store_record_sim (store, sim, FALSE, error);
  *out_seconds = (double) (fl_bench_now_ns () - t0) / 1e9;
  return run > 0;
}

static gboolean
sqlite_ok (sqlite3 *db, int rc, GError **error)
{
  if (rc == SQLITE_OK || rc == SQLITE_DONE)
    return TRUE;
  g_set_error (error, FL_BENCH_ERROR, FL_BENCH_ERROR_SQLITE, "bare SQLite insert: %s",
               sqlite3_errmsg (db));
  return FALSE;
}

/* The floor: one prepared statement, integers bound, step, reset, one transaction; no checks,
 * no scenario or run rows. The row layout is fl_store_add_events()'s. */
static gboolean
bare_insert (sqlite3 *db, const FlEvent *events, gsize n, GError **error)
{
  sqlite3_stmt *insert = NULL;
  if (!sqlite_ok (db, sqlite3_exec (db, "BEGIN IMMEDIATE", NULL, NULL, NULL), error)
      || !sqlite_ok (db, sqlite3_prepare_v2 (db,
           "INSERT INTO event (run_id, step, sub, cycle, cpu, loc, kind, xfer, mesi, activity, "
           "line, obj, val) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)",
           -1, &insert, NULL), error))
    return FALSE;
  sqlite3_bind_int64 (insert, 1, 1);
  guint32 sub = 0;
  int rc = SQLITE_DONE;
  for (gsize i = 0; i < n && rc == SQLITE_DONE; i++)
    {
      const FlEvent *e = &events[i];
      sub = i > 0 && events[i - 1].step == e->step ? sub + 1 : 0;
      sqlite3_bind_int64 (insert, 2, e->step);
      sqlite3_bind_int (insert, 3, (int) sub);
      sqlite3_bind_int64 (insert, 4, (sqlite3_int64) e->cycle);
      sqlite3_bind_int (insert, 5, e->cpu);
      sqlite3_bind_int (insert, 6, e->loc);
      sqlite3_bind_int (insert, 7, e->kind);
      sqlite3_bind_int (insert, 8, e->xfer);
      sqlite3_bind_int (insert, 9, e->mesi);
      sqlite3_bind_int (insert, 10, e->activity);
      sqlite3_bind_int (insert, 11, e->line);
      sqlite3_bind_int64 (insert, 12, e->obj);
      sqlite3_bind_int64 (insert, 13, e->val);
      rc = sqlite3_step (insert);
      sqlite3_reset (insert);
    }
  sqlite3_finalize (insert);
  return sqlite_ok (db, rc, error)
         && sqlite_ok (db, sqlite3_exec (db, "COMMIT", NULL, NULL, NULL), error);
}

static gboolean
time_bare (FlSim *sim, const char *path, double *out_seconds, GError **error)
{
  sqlite3 *db = NULL;
  int rc = sqlite3_open_v2 (path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, NULL);
  gboolean ok = sqlite_ok (db, rc, error)
                && sqlite_ok (db, sqlite3_exec (db, STORE_PRAGMAS, NULL, NULL, NULL), error);
  if (ok)
    {
      gsize n;
      const FlEvent *events = fl_sim_get_events (sim, &n);
      guint64 t0 = fl_bench_now_ns ();
      ok = bare_insert (db, events, n, error);
      *out_seconds = (double) (fl_bench_now_ns () - t0) / 1e9;
    }
  sqlite3_close (db);
  return ok;
}

static void
remove_db (const char *path)
{
  g_autofree char *wal = g_strconcat (path, "-wal", NULL);
  g_autofree char *shm = g_strconcat (path, "-shm", NULL);
  g_unlink (path);
  g_unlink (wal);
  g_unlink (shm);
}

gboolean
fl_bench_record (FlBench *bench, GError **error)
{
  guint rounds = bench->quick ? 1 : 4, attempts = bench->quick ? 1 : 5;
  guint64 max_steps = bench->quick ? 5000 : 0;
  g_autoptr (FlSim) sim = fl_bench_workload (8, rounds, FL_ORACLE_AT_END, error);
  if (sim == NULL)
    return FALSE;
  fl_sim_run (sim, max_steps);
  gsize n;
  fl_sim_get_events (sim, &n);

  g_autofree char *dir = g_dir_make_tmp ("faultline-bench-XXXXXX", error);
  if (dir == NULL)
    return FALSE;
  fl_bench_section (bench, "Recording into the store",
                    "multi-fault, 8 CPUs, %u round%s%s: %zu events; a fresh WAL store in %s per "
                    "attempt, best of %u alternating attempts each",
                    rounds, rounds == 1 ? "" : "s", bench->quick ? " cut at 5000 steps (--quick)" : "",
                    (size_t) n, g_get_tmp_dir (), attempts);

  /* Alternating the two, each on a new file and each going first every other time, so
   * neither profits from a warmer cache or a quieter disk; the best attempt of each is the one
   * least disturbed by the rest of the machine. */
  double best_store = G_MAXDOUBLE, best_bare = G_MAXDOUBLE;
  gboolean ok = TRUE;
  for (guint a = 0; a < attempts && ok; a++)
    {
      g_autofree char *bare_path = fresh_store (dir, "bare", a, error);
      g_autofree char *store_path = bare_path ? fresh_store (dir, "store", a, error) : NULL;
      double bare = 0, store = 0;
      if (a % 2 == 0)
        ok = store_path != NULL
             && time_bare (sim, bare_path, &bare, error)
             && time_store (sim, store_path, &store, error);
      else
        ok = store_path != NULL
             && time_store (sim, store_path, &store, error)
             && time_bare (sim, bare_path, &bare, error);
      best_bare = MIN (best_bare, bare);
      best_store = MIN (best_store, store);
      if (bare_path)
        remove_db (bare_path);
      if (store_path)
        remove_db (store_path);
    }
  g_rmdir (dir);
  if (!ok)
    return FALSE;

  double store_rate = (double) n / best_store, bare_rate = (double) n / best_bare;
  fl_bench_add (bench, "fl_store_record_sim", store_rate / 1e6, "M events/s", FL_GOAL_NONE, 0);
  fl_bench_add (bench, "bare batched SQLite insert, same rows and table", bare_rate / 1e6,
                "M events/s", FL_GOAL_NONE, 0);
  fl_bench_add (bench, "store rate / bare rate", 100.0 * store_rate / bare_rate, "%",
                FL_GOAL_AT_LEAST, 80);
  return TRUE;
}

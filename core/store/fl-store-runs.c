/* fl-store-runs.c — recording runs (events and findings) and reading them back. */
#include "fl-store-private.h"
#include "fl-scenario-private.h"

#include <string.h>

#define RUN_COLUMNS "r.id, r.scenario_id, s.name, s.text, r.config, r.seed, r.steps, r.cycles, " \
                    "r.hash, r.findings, r.verdict, r.created, r.exploration_id"
/* A run's hash is set by fl_store_finish_run(): a run without one is the one being recorded
 * on this connection, which nobody else can see and we should not show either. */
#define RUN_FROM    "FROM run r JOIN scenario s ON s.id = r.scenario_id WHERE r.hash IS NOT NULL"

/**
 * fl_stored_run_free:
 * @run: (nullable): a run from the store
 */
void
fl_stored_run_free (FlStoredRun *run)
{
  if (run == NULL)
    return;
  g_free (run->scenario_name);
  g_free (run->scenario_text);
  g_free (run->config);
  g_free (run->hash);
  g_free (run->verdict);
  g_free (run);
}

/**
 * fl_stored_finding_free:
 * @finding: (nullable): a finding from the store
 */
void
fl_stored_finding_free (FlStoredFinding *finding)
{
  if (finding == NULL)
    return;
  g_free (finding->kind);
  g_free (finding->message);
  g_free (finding);
}

/* A hash as fl_store_finish_run() is given it: hex digits, as many as FlReplayResult keeps. */
static gboolean
is_hash (const char *text)
{
  gsize n = 0;
  for (; text[n] != '\0'; n++)
    if (!g_ascii_isxdigit (text[n]))
      return FALSE;
  return n > 0 && n <= FL_STORE_MAX_HASH;
}

/* A failed write inside the recording ends it: SQLite may already have rolled the transaction
 * back on its own (after SQLITE_FULL or an I/O error), and a run with a hole in its event
 * stream must not be committed anyway. */
static gboolean
fail_recording (FlStore *store, int rc, GError **error, const char *what)
{
  if (rc != SQLITE_OK)
    fl_store_fail (store, rc, error, "%s run %" G_GINT64_FORMAT, what, store->recording);
  fl_store_abort_run (store, store->recording);
  return FALSE;
}

static gboolean
check_recording (FlStore *store, gint64 run_id, GError **error)
{
  if (store->recording != 0 && store->recording == run_id)
    return TRUE;
  /* Most likely an earlier call failed, which ended the recording and said so. */
  g_set_error (error, FL_STORE_ERROR, FL_STORE_ERROR_NOT_FOUND,
               "run %" G_GINT64_FORMAT " is not being recorded in '%s'", run_id, store->path);
  return FALSE;
}

/**
 * fl_store_begin_run:
 * @store: a store opened for writing
 * @scenario_id: the stored scenario the run simulates
 * @info: configuration, seed and creation time of the run
 * @out_run_id: (out) (optional): the id of the new run
 * @error: a #GError
 *
 * Starts recording a run. The whole recording — the run row, its events and findings — is one
 * transaction, committed by fl_store_finish_run(): a crash, an error or fl_store_abort_run()
 * before that leaves no trace of the run. Until then, other writes to @store fail with
 * %FL_STORE_ERROR_BUSY.
 *
 * Returns: %TRUE on success.
 */
gboolean
fl_store_begin_run (FlStore *store, gint64 scenario_id, const FlStoreRunInfo *info,
                    gint64 *out_run_id, GError **error)
{
  g_return_val_if_fail (store != NULL && info != NULL && info->config != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  g_autofree char *what = g_strdup_printf ("record a run of scenario %" G_GINT64_FORMAT,
                                           scenario_id);
  if (!fl_store_check_text (store, what, "configuration", info->config, FL_STORE_MAX_LONG,
                            error) ||
      !fl_store_begin (store, what, error))
    return FALSE;

  g_autoptr (FlStoreCursor) insert = fl_store_cursor (store, FL_STMT_RUN_INSERT,
    "INSERT INTO run (scenario_id, config, seed, created, exploration_id) "
    "VALUES (?1, ?2, ?3, ?4, ?5)", error);
  if (insert == NULL)
    {
      fl_store_rollback (store);
      return FALSE;
    }
  sqlite3_bind_int64 (insert, 1, scenario_id);
  sqlite3_bind_text (insert, 2, info->config, -1, SQLITE_STATIC);
  sqlite3_bind_int64 (insert, 3, (sqlite3_int64) info->seed);
  sqlite3_bind_int64 (insert, 4, info->created ? info->created : fl_store_now ());
  if (info->exploration_id > 0)
    sqlite3_bind_int64 (insert, 5, info->exploration_id);
  else
    sqlite3_bind_null (insert, 5);
  int rc = sqlite3_step (insert);
  if (rc != SQLITE_DONE)
    {
      if (rc == SQLITE_CONSTRAINT_FOREIGNKEY)
        g_set_error (error, FL_STORE_ERROR, FL_STORE_ERROR_NOT_FOUND,
                     "cannot %s in '%s': there is no such scenario%s", what, store->path,
                     info->exploration_id > 0 ? " or exploration" : "");
      else
        fl_store_fail (store, rc, error, "%s", what);
      fl_store_rollback (store);
      return FALSE;
    }

  store->recording = sqlite3_last_insert_rowid (store->db);
  store->rec_started = FALSE;
  if (out_run_id != NULL)
    *out_run_id = store->recording;
  return TRUE;
}

/**
 * fl_store_add_events:
 * @store: a store recording @run_id
 * @run_id: the run from fl_store_begin_run()
 * @events: (array length=n_events): the next events of the stream, in step order
 * @n_events: how many
 * @error: a #GError
 *
 * Appends events to the run being recorded. Call it with batches of any size, the stream in
 * order (steps never go back; several events may share a step). On failure the recording is
 * over: the run is rolled back and will not be kept.
 *
 * Returns: %TRUE on success.
 */
gboolean
fl_store_add_events (FlStore *store, gint64 run_id, const FlEvent *events, gsize n_events,
                     GError **error)
{
  g_return_val_if_fail (store != NULL && (events != NULL || n_events == 0), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!check_recording (store, run_id, error))
    return FALSE;

  g_autoptr (FlStoreCursor) insert = fl_store_cursor (store, FL_STMT_EVENT_INSERT,
    "INSERT INTO event (run_id, step, sub, cycle, cpu, loc, kind, xfer, mesi, activity, "
    "                   line, obj, val) "
    "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)", error);
  if (insert == NULL)
    return fail_recording (store, SQLITE_OK, error, "add events to");

  /* The hot loop of a recording: bind integers, step, reset. Bindings survive a reset, so the
   * run id is bound once per batch. */
  sqlite3_bind_int64 (insert, 1, run_id);
  guint32 step = store->rec_step, sub = store->rec_sub;
  gboolean started = store->rec_started;
  for (gsize i = 0; i < n_events; i++)
    {
      const FlEvent *e = &events[i];
      if (started && e->step == step)
        sub++;
      else if (!started || e->step > step)
        sub = 0;
      else
        {
          g_set_error (error, FL_STORE_ERROR, FL_STORE_ERROR_CONSTRAINT,
                       "cannot add events of run %" G_GINT64_FORMAT " in '%s': step %u comes "
                       "after step %u (the run is not kept)", run_id, store->path, e->step, step);
          return fail_recording (store, SQLITE_OK, error, "add events to");
        }
      step = e->step;
      started = TRUE;

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
      /* each row is a statement of its own for the budget (fl-store-budget.c) */
      store->ticks = 0;
      int rc = sqlite3_step (insert);
      sqlite3_reset (insert);
      if (G_UNLIKELY (rc != SQLITE_DONE))
        return fail_recording (store, rc, error, "add events to");
    }
  store->rec_step = step;
  store->rec_sub = sub;
  store->rec_started = started;
  return TRUE;
}

/**
 * fl_store_add_finding:
 * @store: a store recording @run_id
 * @run_id: the run from fl_store_begin_run()
 * @step: the step of the finding's event
 * @cpu: the CPU that made it
 * @kind: the kind of finding, e.g. "use-after-free"
 * @message: the oracle's sentence
 * @error: a #GError
 *
 * Adds a finding to the run being recorded. On failure the recording is over.
 *
 * Returns: %TRUE on success.
 */
gboolean
fl_store_add_finding (FlStore *store, gint64 run_id, guint32 step, guint cpu, const char *kind,
                      const char *message, GError **error)
{
  g_return_val_if_fail (store != NULL && kind != NULL && message != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!check_recording (store, run_id, error))
    return FALSE;
  if (!fl_store_check_text (store, "add a finding", "kind", kind, FL_STORE_MAX_SHORT, error) ||
      !fl_store_check_text (store, "add a finding", "message", message, FL_STORE_MAX_LONG,
                            error))
    return fail_recording (store, SQLITE_OK, error, "add a finding to");
  g_autoptr (FlStoreCursor) insert = fl_store_cursor (store, FL_STMT_FINDING_INSERT,
    "INSERT INTO finding (run_id, step, cpu, kind, message) VALUES (?1, ?2, ?3, ?4, ?5)", error);
  if (insert == NULL)
    return fail_recording (store, SQLITE_OK, error, "add a finding to");
  sqlite3_bind_int64 (insert, 1, run_id);
  sqlite3_bind_int64 (insert, 2, step);
  sqlite3_bind_int64 (insert, 3, cpu);
  sqlite3_bind_text (insert, 4, kind, -1, SQLITE_STATIC);
  sqlite3_bind_text (insert, 5, message, -1, SQLITE_STATIC);
  int rc = sqlite3_step (insert);
  if (rc != SQLITE_DONE)
    return fail_recording (store, rc, error, "add a finding to");
  return TRUE;
}

/**
 * fl_store_finish_run:
 * @store: a store recording @run_id
 * @run_id: the run from fl_store_begin_run()
 * @steps: how many steps the run took
 * @cycles: the simulated cycles at its end
 * @hash: hex digest of the event stream, what a replay must reproduce
 * @findings: how many findings the oracle made
 * @verdict: (nullable): a one-word summary, e.g. "safe" or "broken"
 * @error: a #GError
 *
 * Completes the run and commits the recording. On failure the run is not kept.
 *
 * Returns: %TRUE on success.
 */
gboolean
fl_store_finish_run (FlStore *store, gint64 run_id, guint64 steps, guint64 cycles,
                     const char *hash, guint findings, const char *verdict, GError **error)
{
  g_return_val_if_fail (store != NULL && hash != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!check_recording (store, run_id, error))
    return FALSE;
  if (!is_hash (hash))
    {
      g_set_error (error, FL_STORE_ERROR, FL_STORE_ERROR_INVALID,
                   "cannot finish run %" G_GINT64_FORMAT " in '%s': its hash '%s' is not 1 to %d "
                   "hex digits (the run is not kept)", run_id, store->path, hash,
                   FL_STORE_MAX_HASH);
      return fail_recording (store, SQLITE_OK, error, "finish");
    }
  if (verdict != NULL &&
      !fl_store_check_text (store, "finish a run", "verdict", verdict, FL_STORE_MAX_SHORT,
                            error))
    return fail_recording (store, SQLITE_OK, error, "finish");
  {
    g_autoptr (FlStoreCursor) update = fl_store_cursor (store, FL_STMT_RUN_FINISH,
      "UPDATE run SET steps = ?2, cycles = ?3, hash = ?4, findings = ?5, verdict = ?6 "
      "WHERE id = ?1", error);
    if (update == NULL)
      return fail_recording (store, SQLITE_OK, error, "finish");
    sqlite3_bind_int64 (update, 1, run_id);
    sqlite3_bind_int64 (update, 2, (sqlite3_int64) steps);
    sqlite3_bind_int64 (update, 3, (sqlite3_int64) cycles);
    sqlite3_bind_text (update, 4, hash, -1, SQLITE_STATIC);
    sqlite3_bind_int64 (update, 5, findings);
    sqlite3_bind_text (update, 6, verdict, -1, SQLITE_STATIC);
    int rc = sqlite3_step (update);
    if (rc != SQLITE_DONE)
      return fail_recording (store, rc, error, "finish");
  }
  int rc = sqlite3_exec (store->db, "COMMIT", NULL, NULL, NULL);
  if (rc != SQLITE_OK)
    return fail_recording (store, rc, error, "commit");
  store->recording = 0;
  return TRUE;
}

/**
 * fl_store_abort_run:
 * @store: a store
 * @run_id: the run from fl_store_begin_run()
 *
 * Drops the run being recorded, as if it had never begun. Does nothing if @run_id is not being
 * recorded (a failed call already dropped it).
 */
void
fl_store_abort_run (FlStore *store, gint64 run_id)
{
  g_return_if_fail (store != NULL);
  if (store->recording == 0 || store->recording != run_id)
    return;
  fl_store_rollback (store);
  store->recording = 0;
}

/**
 * fl_store_is_recording:
 * @store: a store
 *
 * Returns: whether a run is being recorded (between fl_store_begin_run() and its end).
 */
gboolean
fl_store_is_recording (FlStore *store)
{
  g_return_val_if_fail (store != NULL, FALSE);
  return store->recording != 0;
}

static FlStoredRun *
run_from_row (FlStore *store, sqlite3_stmt *stmt, GError **error)
{
  g_autoptr (FlStoredRun) run = g_new0 (FlStoredRun, 1);
  FlStoreRow row;
  fl_store_row_init (&row, store, stmt, error);
  run->id = fl_store_row_key (&row, 0, "run");
  run->scenario_id = fl_store_row_int (&row, 1, "scenario_id", 1, G_MAXINT64);
  run->config = fl_store_row_text (&row, 4, "config", FL_STORE_MAX_LONG);
  /* unsigned 64-bit values, kept as SQLite's signed integers */
  run->seed = (guint64) fl_store_row_int (&row, 5, "seed", G_MININT64, G_MAXINT64);
  run->cycles = (guint64) fl_store_row_int (&row, 7, "cycles", G_MININT64, G_MAXINT64);
  /* an event's step is 32 bits wide, and a run has at least one event per step */
  run->steps = (guint64) fl_store_row_int (&row, 6, "steps", 0, G_MAXUINT32);
  run->hash = fl_store_row_text (&row, 8, "hash", FL_STORE_MAX_SHORT);
  run->findings = (guint) fl_store_row_int (&row, 9, "findings", 0, G_MAXUINT32);
  run->verdict = fl_store_row_text_or_null (&row, 10, "verdict", FL_STORE_MAX_SHORT);
  run->created = fl_store_row_int (&row, 11, "created", G_MININT64, G_MAXINT64);
  /* NULL: the run was not found by an exploration */
  if (sqlite3_column_type (stmt, 12) != SQLITE_NULL)
    run->exploration_id = fl_store_row_int (&row, 12, "exploration_id", 1, G_MAXINT64);
  if (fl_store_row_ok (&row) && !is_hash (run->hash))
    {
      /* valid UTF-8 (the reader checked), but perhaps long */
      g_autofree char *shown = g_utf8_substring (run->hash, 0,
                                                 MIN (g_utf8_strlen (run->hash, -1), 80));
      g_set_error (error, FL_STORE_ERROR, FL_STORE_ERROR_BAD_VALUE,
                   "'%s' holds a value Faultline never writes: table run, row %" G_GINT64_FORMAT
                   ", column hash is '%s' (Faultline writes 1 to %d hex digits there)",
                   store->path, run->id, shown, FL_STORE_MAX_HASH);
      return NULL;
    }
  /* the scenario's columns, named as its own row */
  fl_store_row_label (&row, "scenario", "%" G_GINT64_FORMAT, run->scenario_id);
  run->scenario_name = fl_store_row_text (&row, 2, "name", FL_STORE_MAX_SHORT);
  run->scenario_text = fl_store_row_text (&row, 3, "text", FL_SCENARIO_MAX_BYTES);
  return fl_store_row_ok (&row) ? g_steal_pointer (&run) : NULL;
}

/**
 * fl_store_list_runs:
 * @store: a store
 * @scenario_id: a scenario id, or 0 for the runs of every scenario
 * @error: a #GError
 *
 * Returns: (transfer container) (element-type FlStoredRun): the completed runs, oldest first,
 *   or %NULL on error.
 */
GPtrArray *
fl_store_list_runs (FlStore *store, gint64 scenario_id, GError **error)
{
  g_return_val_if_fail (store != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  g_autoptr (FlStoreCursor) stmt = scenario_id > 0
    ? fl_store_cursor (store, FL_STMT_RUN_LIST,
                       "SELECT " RUN_COLUMNS " " RUN_FROM " AND r.scenario_id = ?1 ORDER BY r.id",
                       error)
    : fl_store_cursor (store, FL_STMT_RUN_LIST_ALL,
                       "SELECT " RUN_COLUMNS " " RUN_FROM " ORDER BY r.id", error);
  if (stmt == NULL)
    return NULL;
  if (scenario_id > 0)
    sqlite3_bind_int64 (stmt, 1, scenario_id);

  g_autoptr (GPtrArray) list = g_ptr_array_new_with_free_func ((GDestroyNotify) fl_stored_run_free);
  int rc;
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      FlStoredRun *run = run_from_row (store, stmt, error);
      if (run == NULL)
        return NULL;
      g_ptr_array_add (list, run);
    }
  if (rc != SQLITE_DONE)
    {
      fl_store_fail (store, rc, error, "list runs");
      return NULL;
    }
  return g_steal_pointer (&list);
}

/**
 * fl_store_get_run:
 * @store: a store
 * @run_id: a run id
 * @error: set to %FL_STORE_ERROR_NOT_FOUND when there is no such completed run
 *
 * Everything a replay needs: the scenario text, the configuration, the seed and the hash the
 * re-simulation must reproduce.
 *
 * Returns: (transfer full) (nullable): the run, or %NULL with @error set.
 */
FlStoredRun *
fl_store_get_run (FlStore *store, gint64 run_id, GError **error)
{
  g_return_val_if_fail (store != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  g_autoptr (FlStoreCursor) stmt = fl_store_cursor (store, FL_STMT_RUN_GET,
    "SELECT " RUN_COLUMNS " " RUN_FROM " AND r.id = ?1", error);
  if (stmt == NULL)
    return NULL;
  sqlite3_bind_int64 (stmt, 1, run_id);
  int rc = sqlite3_step (stmt);
  if (rc == SQLITE_ROW)
    return run_from_row (store, stmt, error);
  if (rc == SQLITE_DONE)
    g_set_error (error, FL_STORE_ERROR, FL_STORE_ERROR_NOT_FOUND,
                 "there is no run %" G_GINT64_FORMAT " in '%s'", run_id, store->path);
  else
    fl_store_fail (store, rc, error, "read run %" G_GINT64_FORMAT, run_id);
  return NULL;
}

/**
 * fl_store_find_run:
 * @store: a store
 * @scenario_text: the scenario's text exactly as recorded
 * @config: the run's configuration text (fl_store_sim_config_text())
 * @seed: the run's seed
 * @hash: (nullable): the hex digest of the run's event stream, as recorded; %NULL for any
 * @out_run_id: (out): the newest completed run with these, or 0 when there is none
 * @error: a #GError
 *
 * The same text, configuration and seed make the same run, so the window finds the run its
 * bookmarks belong to again after a restart without recording the run a second time. A run
 * that took other steps than the scheduler's (a branch the user stepped into) has the same
 * three but another event stream: @hash tells the two apart.
 *
 * Returns: %TRUE when the query ran (whether or not a run was found).
 */
gboolean
fl_store_find_run (FlStore *store, const char *scenario_text, const char *config, guint64 seed,
                   const char *hash, gint64 *out_run_id, GError **error)
{
  g_return_val_if_fail (store != NULL && scenario_text != NULL && config != NULL, FALSE);
  g_return_val_if_fail (out_run_id != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  *out_run_id = 0;
  g_autoptr (FlStoreCursor) stmt = fl_store_cursor (store, FL_STMT_RUN_FIND,
    "SELECT r.id " RUN_FROM " AND s.text = ?1 AND r.config = ?2 AND r.seed = ?3 "
    "AND (?4 IS NULL OR r.hash = ?4) ORDER BY r.id DESC LIMIT 1", error);
  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_text (stmt, 1, scenario_text, -1, SQLITE_TRANSIENT);
  sqlite3_bind_text (stmt, 2, config, -1, SQLITE_TRANSIENT);
  sqlite3_bind_int64 (stmt, 3, (sqlite3_int64) seed);
  if (hash != NULL)
    sqlite3_bind_text (stmt, 4, hash, -1, SQLITE_TRANSIENT);
  else
    sqlite3_bind_null (stmt, 4);
  int rc = sqlite3_step (stmt);
  if (rc == SQLITE_ROW)
    *out_run_id = sqlite3_column_int64 (stmt, 0);
  else if (rc != SQLITE_DONE)
    return fl_store_fail (store, rc, error, "find a run");
  return TRUE;
}

/**
 * fl_store_delete_run:
 * @store: a store
 * @run_id: a completed run
 * @error: set to %FL_STORE_ERROR_NOT_FOUND when there is no such run
 *
 * Deletes a run with its events, findings and bookmarks, in one transaction.
 *
 * Returns: %TRUE on success.
 */
gboolean
fl_store_delete_run (FlStore *store, gint64 run_id, GError **error)
{
  g_return_val_if_fail (store != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  g_autofree char *what = g_strdup_printf ("delete run %" G_GINT64_FORMAT, run_id);
  if (!fl_store_begin (store, what, error))
    return FALSE;

  int rc;
  {
    g_autoptr (FlStoreCursor) events = fl_store_cursor (store, FL_STMT_RUN_DELETE_EVENTS,
      "DELETE FROM event WHERE run_id = ?1", error);
    if (events == NULL)
      goto fail;
    sqlite3_bind_int64 (events, 1, run_id);
    if ((rc = sqlite3_step (events)) != SQLITE_DONE)
      goto sqlite_fail;
  }
  {
    g_autoptr (FlStoreCursor) run = fl_store_cursor (store, FL_STMT_RUN_DELETE,
      "DELETE FROM run WHERE id = ?1", error);
    if (run == NULL)
      goto fail;
    sqlite3_bind_int64 (run, 1, run_id);
    if ((rc = sqlite3_step (run)) != SQLITE_DONE)
      goto sqlite_fail;
  }
  if (sqlite3_changes (store->db) == 0)
    {
      g_set_error (error, FL_STORE_ERROR, FL_STORE_ERROR_NOT_FOUND,
                   "there is no run %" G_GINT64_FORMAT " in '%s'", run_id, store->path);
      goto fail;
    }
  return fl_store_commit (store, what, error);

sqlite_fail:
  fl_store_fail (store, rc, error, "%s", what);
fail:
  fl_store_rollback (store);
  return FALSE;
}

/**
 * fl_store_load_events:
 * @store: a store
 * @run_id: a run id
 * @first_step: the first step wanted
 * @last_step: the last step wanted (inclusive)
 * @out_events: (element-type FlEvent): an array of #FlEvent the events are appended to
 * @error: a #GError
 *
 * Reads the events of steps @first_step … @last_step in stream order, as the window reads a
 * run: a window of steps at a time, straight from the (run, step) key. The `reserved` field of
 * each event reads back as 0. On failure @out_events is left as it was.
 *
 * Returns: %TRUE on success, also when the range holds no events (as for an unknown run: look
 *   the run up with fl_store_get_run() first when that matters).
 */
gboolean
fl_store_load_events (FlStore *store, gint64 run_id, guint32 first_step, guint32 last_step,
                      GArray *out_events, GError **error)
{
  g_return_val_if_fail (store != NULL && out_events != NULL, FALSE);
  g_return_val_if_fail (g_array_get_element_size (out_events) == sizeof (FlEvent), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  g_autoptr (FlStoreCursor) stmt = fl_store_cursor (store, FL_STMT_EVENT_RANGE,
    "SELECT step, cycle, cpu, loc, kind, xfer, mesi, activity, line, obj, val, sub FROM event "
    "WHERE run_id = ?1 AND step BETWEEN ?2 AND ?3 ORDER BY step, sub", error);
  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_int64 (stmt, 1, run_id);
  sqlite3_bind_int64 (stmt, 2, first_step);
  sqlite3_bind_int64 (stmt, 3, last_step);

  guint old_len = out_events->len;
  int rc;
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      FlEvent e = { 0 };
      FlStoreRow row;
      fl_store_row_init (&row, store, stmt, error);
      /* the key names the row; the step is in range by the query */
      fl_store_row_label (&row, "event", "(run %" G_GINT64_FORMAT ", step %" G_GINT64_FORMAT
                          ", sub %" G_GINT64_FORMAT ")", run_id, (gint64) sqlite3_column_int64 (stmt, 0),
                          (gint64) sqlite3_column_int64 (stmt, 11));
      e.step = (guint32) fl_store_row_int (&row, 0, "step", 0, G_MAXUINT32);
      e.cycle = (guint64) fl_store_row_int (&row, 1, "cycle", G_MININT64, G_MAXINT64);
      e.cpu = (guint16) fl_store_row_int (&row, 2, "cpu", 0, G_MAXUINT16);
      e.loc = (guint16) fl_store_row_int (&row, 3, "loc", 0, G_MAXUINT16);
      e.kind = (guint8) fl_store_row_int (&row, 4, "kind", 0, G_MAXUINT8);
      e.xfer = (guint8) fl_store_row_int (&row, 5, "xfer", 0, G_MAXUINT8);
      e.mesi = (guint8) fl_store_row_int (&row, 6, "mesi", 0, G_MAXUINT8);
      e.activity = (guint8) fl_store_row_int (&row, 7, "activity", 0, G_MAXUINT8);
      e.line = (guint16) fl_store_row_int (&row, 8, "line", 0, G_MAXUINT16);
      e.obj = (guint32) fl_store_row_int (&row, 9, "obj", 0, G_MAXUINT32);
      e.val = (guint32) fl_store_row_int (&row, 10, "val", 0, G_MAXUINT32);
      if (!fl_store_row_ok (&row))
        {
          g_array_set_size (out_events, old_len);
          return FALSE;
        }
      g_array_append_val (out_events, e);
    }
  if (rc != SQLITE_DONE)
    {
      g_array_set_size (out_events, old_len);
      return fl_store_fail (store, rc, error, "read the events of run %" G_GINT64_FORMAT, run_id);
    }
  return TRUE;
}

/**
 * fl_store_list_findings:
 * @store: a store
 * @run_id: a run id
 * @error: a #GError
 *
 * Returns: (transfer container) (element-type FlStoredFinding): the findings of the run in
 *   step order, or %NULL on error.
 */
GPtrArray *
fl_store_list_findings (FlStore *store, gint64 run_id, GError **error)
{
  g_return_val_if_fail (store != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  g_autoptr (FlStoreCursor) stmt = fl_store_cursor (store, FL_STMT_FINDING_LIST,
    "SELECT id, run_id, step, cpu, kind, message FROM finding WHERE run_id = ?1 "
    "ORDER BY step, id", error);
  if (stmt == NULL)
    return NULL;
  sqlite3_bind_int64 (stmt, 1, run_id);

  g_autoptr (GPtrArray) list = g_ptr_array_new_with_free_func ((GDestroyNotify) fl_stored_finding_free);
  int rc;
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      g_autoptr (FlStoredFinding) finding = g_new0 (FlStoredFinding, 1);
      FlStoreRow row;
      fl_store_row_init (&row, store, stmt, error);
      finding->id = fl_store_row_key (&row, 0, "finding");
      finding->run_id = fl_store_row_int (&row, 1, "run_id", 1, G_MAXINT64);
      finding->step = (guint32) fl_store_row_int (&row, 2, "step", 0, G_MAXUINT32);
      finding->cpu = (guint) fl_store_row_int (&row, 3, "cpu", 0, G_MAXUINT16);
      finding->kind = fl_store_row_text (&row, 4, "kind", FL_STORE_MAX_SHORT);
      finding->message = fl_store_row_text (&row, 5, "message", FL_STORE_MAX_LONG);
      if (!fl_store_row_ok (&row))
        return NULL;
      g_ptr_array_add (list, g_steal_pointer (&finding));
    }
  if (rc != SQLITE_DONE)
    {
      fl_store_fail (store, rc, error, "list the findings of run %" G_GINT64_FORMAT, run_id);
      return NULL;
    }
  return g_steal_pointer (&list);
}

/* fl-store-schema.c — the schema and its forward migrations, versioned by user_version. */
#include "fl-store-private.h"

/* migrations[i] takes a store from version i to version i + 1. Steps are never edited once
 * released: a change is a new step, so a file of any earlier version reaches the current one
 * by the same path. */
static const char *const migrations[] = {
  /* 0 → 1: everything. */
  "CREATE TABLE scenario ("
  "  id       INTEGER PRIMARY KEY,"
  "  name     TEXT NOT NULL,"               /* built-in id or file stem */
  "  title    TEXT NOT NULL,"
  "  tags     TEXT NOT NULL DEFAULT '',"    /* ';'-joined */
  "  text     TEXT NOT NULL,"               /* the .fault text exactly as written */
  "  created  INTEGER NOT NULL);"
  "CREATE INDEX scenario_by_name ON scenario (name);"

  "CREATE TABLE run ("
  "  id          INTEGER PRIMARY KEY,"
  "  scenario_id INTEGER NOT NULL REFERENCES scenario (id) ON DELETE CASCADE,"
  "  config      TEXT NOT NULL,"
  "  seed        INTEGER NOT NULL,"
  "  steps       INTEGER NOT NULL DEFAULT 0,"
  "  cycles      INTEGER NOT NULL DEFAULT 0,"
  "  hash        TEXT,"                     /* hex; NULL only inside the recording */
  "  findings    INTEGER NOT NULL DEFAULT 0,"
  "  verdict     TEXT,"
  "  created     INTEGER NOT NULL);"
  "CREATE INDEX run_by_scenario ON run (scenario_id);"

  /* Keyed by (run, step, index within the step) without a rowid: one B-tree, appended to in
   * key order while recording, and a step range is a contiguous slice of it. No foreign key:
   * a parent lookup per row would tax the hottest insert; the store deletes a run's events
   * itself. */
  "CREATE TABLE event ("
  "  run_id   INTEGER NOT NULL,"
  "  step     INTEGER NOT NULL,"
  "  sub      INTEGER NOT NULL,"
  "  cycle    INTEGER NOT NULL,"
  "  cpu      INTEGER NOT NULL,"
  "  loc      INTEGER NOT NULL,"
  "  kind     INTEGER NOT NULL,"
  "  xfer     INTEGER NOT NULL,"
  "  mesi     INTEGER NOT NULL,"
  "  activity INTEGER NOT NULL,"
  "  line     INTEGER NOT NULL,"
  "  obj      INTEGER NOT NULL,"
  "  val      INTEGER NOT NULL,"
  "  PRIMARY KEY (run_id, step, sub)) WITHOUT ROWID;"

  "CREATE TABLE finding ("
  "  id       INTEGER PRIMARY KEY,"
  "  run_id   INTEGER NOT NULL REFERENCES run (id) ON DELETE CASCADE,"
  "  step     INTEGER NOT NULL,"
  "  cpu      INTEGER NOT NULL,"
  "  kind     TEXT NOT NULL,"
  "  message  TEXT NOT NULL);"
  "CREATE INDEX finding_by_run ON finding (run_id, step);"

  "CREATE TABLE bookmark ("
  "  id       INTEGER PRIMARY KEY,"
  "  run_id   INTEGER NOT NULL REFERENCES run (id) ON DELETE CASCADE,"
  "  step     INTEGER NOT NULL,"
  "  title    TEXT NOT NULL,"
  "  note     TEXT NOT NULL DEFAULT '',"
  "  created  INTEGER NOT NULL);"
  "CREATE INDEX bookmark_by_run ON bookmark (run_id, step);",

  /* 1 → 2: benchmark rows, and bookmarks learn when they were last edited (existing ones were
   * last edited when they were made). */
  "CREATE TABLE bench ("
  "  id             INTEGER PRIMARY KEY,"
  "  workload       TEXT NOT NULL,"
  "  config         TEXT NOT NULL,"
  "  cpus           INTEGER NOT NULL,"
  "  faults         INTEGER NOT NULL,"
  "  cycles         INTEGER NOT NULL,"
  "  faults_per_sec REAL NOT NULL,"
  "  ratio          REAL NOT NULL,"
  "  created        INTEGER NOT NULL);"
  "CREATE INDEX bench_by_workload ON bench (workload, cpus);"
  "ALTER TABLE bookmark ADD COLUMN updated INTEGER NOT NULL DEFAULT 0;"
  "UPDATE bookmark SET updated = created;",

  /* 2 → 3: explorations (`faultline-cli explore --record`), and a run knows the exploration
   * whose counterexample it replays. Deleting an exploration keeps its runs; deleting its
   * scenario deletes it. */
  "CREATE TABLE exploration ("
  "  id          INTEGER PRIMARY KEY,"
  "  scenario_id INTEGER NOT NULL REFERENCES scenario (id) ON DELETE CASCADE,"
  "  config      TEXT NOT NULL,"            /* the switches explored */
  "  bounds      TEXT NOT NULL,"            /* the search: schedule=, preemptions=, ... */
  "  verdict     TEXT NOT NULL,"            /* complete, bounded, found */
  "  stopped_by  TEXT NOT NULL,"            /* none, max-schedules, time-limit, ... */
  "  bound       INTEGER NOT NULL,"         /* the preemption bound reached */
  "  schedules   INTEGER NOT NULL,"
  "  executions  INTEGER NOT NULL,"
  "  outcomes    INTEGER NOT NULL,"
  "  steps       INTEGER NOT NULL,"
  "  findings    INTEGER NOT NULL,"         /* kinds of finding */
  "  seconds     REAL NOT NULL,"
  "  created     INTEGER NOT NULL);"
  "CREATE INDEX exploration_by_scenario ON exploration (scenario_id);"
  "ALTER TABLE run ADD COLUMN exploration_id INTEGER "
  "  REFERENCES exploration (id) ON DELETE SET NULL;"
  "CREATE INDEX run_by_exploration ON run (exploration_id);",
};

G_STATIC_ASSERT (G_N_ELEMENTS (migrations) == FL_STORE_SCHEMA_VERSION);

static gboolean
fail (sqlite3 *db, const char *path, int rc, int step, GError **error)
{
  const char *reason = fl_store_reason (rc);
  if (reason != NULL)
    g_set_error (error, FL_STORE_ERROR, fl_store_error_code (rc),
                 "cannot upgrade '%s' to schema version %d: %s (%s)", path, step, reason,
                 sqlite3_errmsg (db));
  else
    g_set_error (error, FL_STORE_ERROR, fl_store_error_code (rc),
                 "cannot upgrade '%s' to schema version %d: %s", path, step,
                 sqlite3_errmsg (db));
  if (!sqlite3_get_autocommit (db))
    sqlite3_exec (db, "ROLLBACK", NULL, NULL, NULL);
  return FALSE;
}

static int
read_version (sqlite3 *db, int *out_version)
{
  sqlite3_stmt *stmt = NULL;
  int rc = sqlite3_prepare_v2 (db, "PRAGMA user_version", -1, &stmt, NULL);
  if (rc == SQLITE_OK && (rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      *out_version = sqlite3_column_int (stmt, 0);
      rc = SQLITE_OK;
    }
  sqlite3_finalize (stmt);
  return rc;
}

gboolean
fl_store_schema_upgrade (sqlite3 *db, const char *path, int target, GError **error)
{
  g_assert (target >= 1 && target <= FL_STORE_SCHEMA_VERSION);

  for (int step = 1; step <= target; step++)
    {
      int rc = sqlite3_exec (db, "BEGIN IMMEDIATE", NULL, NULL, NULL);
      if (rc != SQLITE_OK)
        return fail (db, path, rc, step, error);

      /* Read inside the write lock: another process may have migrated in the meantime. */
      int version = 0;
      rc = read_version (db, &version);
      if (rc != SQLITE_OK)
        return fail (db, path, rc, step, error);
      if (version >= step)
        {
          sqlite3_exec (db, "COMMIT", NULL, NULL, NULL);
          continue;
        }

      rc = sqlite3_exec (db, migrations[step - 1], NULL, NULL, NULL);
      if (rc != SQLITE_OK)
        return fail (db, path, rc, step, error);
      g_autofree char *tag = g_strdup_printf ("PRAGMA application_id=%d; PRAGMA user_version=%d",
                                              FL_STORE_APPLICATION_ID, step);
      rc = sqlite3_exec (db, tag, NULL, NULL, NULL);
      if (rc == SQLITE_OK)
        rc = sqlite3_exec (db, "COMMIT", NULL, NULL, NULL);
      if (rc != SQLITE_OK)
        return fail (db, path, rc, step, error);
    }
  return TRUE;
}

/* fl-store.c — opening and closing a store: the safety checks, the pragmas, error messages,
 * the statement cache and transactions the other fl-store-*.c files build on. */
#include "fl-store-private.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>

G_DEFINE_QUARK (fl-store-error-quark, fl_store_error)

/* A run of a million events is one transaction: let SQLite keep a good part of it in memory
 * rather than spilling to the WAL page by page. Negative = KiB. */
#define CACHE_SIZE_KIB      16384
/* A big recording grows the WAL to the size of the run; give the space back after the
 * checkpoint instead of keeping a file of that size next to the store forever. */
#define WAL_SIZE_LIMIT      (64 * 1024 * 1024)
/* One writing connection is the rule, but two windows on one file can still meet. */
#define BUSY_TIMEOUT_MS     5000

static const char sqlite_magic[16] = "SQLite format 3";

gint64
fl_store_now (void)
{
  return g_get_real_time () / G_USEC_PER_SEC;
}

int
fl_store_error_code (int rc)
{
  switch (rc & 0xff)
    {
    case SQLITE_FULL:       return FL_STORE_ERROR_FULL;
    case SQLITE_TOOBIG:     return FL_STORE_ERROR_BAD_VALUE;
    case SQLITE_CORRUPT:
    case SQLITE_NOTADB:     return FL_STORE_ERROR_CORRUPT;
    case SQLITE_READONLY:   return FL_STORE_ERROR_READ_ONLY;
    case SQLITE_CONSTRAINT: return FL_STORE_ERROR_CONSTRAINT;
    case SQLITE_BUSY:
    case SQLITE_LOCKED:     return FL_STORE_ERROR_BUSY;
    default:                return FL_STORE_ERROR_IO;
    }
}

/* What a failure means for the user, in words; NULL when SQLite's own words say it best. */
const char *
fl_store_reason (int rc)
{
  switch (rc & 0xff)
    {
    case SQLITE_TOOBIG:   return "it holds a value larger than Faultline ever writes";
    case SQLITE_FULL:     return "the disk is full; everything saved before is intact";
    case SQLITE_CORRUPT:
    case SQLITE_NOTADB:   return "the file is corrupt";
    case SQLITE_READONLY: return "the file cannot be written";
    case SQLITE_BUSY:
    /* the word "busy" is the one the window's message bar and FL_STORE_ERROR_BUSY use */
    case SQLITE_LOCKED:   return "the store is busy: another program is writing to it; try "
                                 "again when it is done";
    default:              return NULL;
    }
}

/* Sets @error to "cannot <what> in '<path>': <reason> (<SQLite's words>)" and returns FALSE,
 * so that every failure names the file and the operation in one sentence. */
gboolean
fl_store_fail (FlStore *store, int rc, GError **error, const char *format, ...)
{
  va_list args;
  va_start (args, format);
  g_autofree char *what = g_strdup_vprintf (format, args);
  va_end (args);

  if ((rc & 0xff) == SQLITE_INTERRUPT && store->over_budget)
    {
      g_set_error (error, FL_STORE_ERROR, FL_STORE_ERROR_LIMIT,
                   "cannot %s in '%s': the query was stopped after %" G_GUINT64_FORMAT " million "
                   "steps, far more than any query of a store this size needs (the file was "
                   "made to loop, or is damaged)", what, store->path, store->budget / 1000);
      return FALSE;
    }
  const char *sqlite_says = store->db ? sqlite3_errmsg (store->db) : sqlite3_errstr (rc);
  const char *reason = fl_store_reason (rc);
  if (reason != NULL)
    g_set_error (error, FL_STORE_ERROR, fl_store_error_code (rc), "cannot %s in '%s': %s (%s)",
                 what, store->path, reason, sqlite_says);
  else
    g_set_error (error, FL_STORE_ERROR, fl_store_error_code (rc), "cannot %s in '%s': %s",
                 what, store->path, sqlite_says);
  return FALSE;
}

void
fl_store_cursor_release (FlStoreCursor *cursor)
{
  sqlite3_reset (cursor);
  sqlite3_clear_bindings (cursor);
}

FlStoreCursor *
fl_store_cursor (FlStore *store, FlStoreStmtId id, const char *sql, GError **error)
{
  g_assert (id < FL_STMT_N);
  if (store->stmts[id] == NULL)
    {
      int rc = sqlite3_prepare_v3 (store->db, sql, -1, SQLITE_PREPARE_PERSISTENT,
                                   &store->stmts[id], NULL);
      if (rc != SQLITE_OK)
        {
          fl_store_fail (store, rc, error, "prepare a query");
          return NULL;
        }
    }
  fl_store_budget_reset (store);
  return store->stmts[id];
}

gboolean
fl_store_check_writable (FlStore *store, const char *what, GError **error)
{
  if (store->read_only)
    {
      g_set_error (error, FL_STORE_ERROR, FL_STORE_ERROR_READ_ONLY,
                   "cannot %s in '%s': the store was opened read-only", what, store->path);
      return FALSE;
    }
  if (store->recording != 0)
    {
      /* The recording owns the one write transaction: a write now would be committed or
       * rolled back with the run, which is never what the caller means. */
      g_set_error (error, FL_STORE_ERROR, FL_STORE_ERROR_BUSY,
                   "cannot %s in '%s': run %" G_GINT64_FORMAT " is being recorded",
                   what, store->path, store->recording);
      return FALSE;
    }
  return TRUE;
}

/* Text Faultline writes has the limits of what it reads back (fl-store-row.c): a value it
 * could not read again is refused before it is written. */
gboolean
fl_store_check_text (FlStore *store, const char *what, const char *field, const char *value,
                     gsize max, GError **error)
{
  gsize length = strlen (value);
  if (length > max)
    {
      g_set_error (error, FL_STORE_ERROR, FL_STORE_ERROR_INVALID,
                   "cannot %s in '%s': its %s has %" G_GSIZE_FORMAT " bytes, more than the %"
                   G_GSIZE_FORMAT " a store keeps", what, store->path, field, length, max);
      return FALSE;
    }
  const char *control = fl_store_find_control (value, length);
  if (control != NULL)
    {
      g_set_error (error, FL_STORE_ERROR, FL_STORE_ERROR_INVALID,
                   "cannot %s in '%s': its %s holds the control character 0x%02x", what,
                   store->path, field, (guchar) *control);
      return FALSE;
    }
  return TRUE;
}

gboolean
fl_store_exec (FlStore *store, const char *sql, const char *what, GError **error)
{
  fl_store_budget_reset (store);
  int rc = sqlite3_exec (store->db, sql, NULL, NULL, NULL);
  if (rc != SQLITE_OK)
    return fl_store_fail (store, rc, error, "%s", what);
  return TRUE;
}

/* BEGIN IMMEDIATE takes the write lock up front, so a busy file fails here, before any work,
 * and never halfway through a batch. */
gboolean
fl_store_begin (FlStore *store, const char *what, GError **error)
{
  if (!fl_store_check_writable (store, what, error))
    return FALSE;
  return fl_store_exec (store, "BEGIN IMMEDIATE", what, error);
}

gboolean
fl_store_commit (FlStore *store, const char *what, GError **error)
{
  int rc = sqlite3_exec (store->db, "COMMIT", NULL, NULL, NULL);
  if (rc != SQLITE_OK)
    {
      fl_store_fail (store, rc, error, "%s", what);
      fl_store_rollback (store);
      return FALSE;
    }
  return TRUE;
}

void
fl_store_rollback (FlStore *store)
{
  /* After SQLITE_FULL or an I/O error SQLite may already have rolled back on its own. */
  if (!sqlite3_get_autocommit (store->db))
    sqlite3_exec (store->db, "ROLLBACK", NULL, NULL, NULL);
}

/* ---- opening ---------------------------------------------------------------------------- */

/* Looks at the file before SQLite does: a missing file, a folder or a file that does not even
 * start like an SQLite database gets a precise error, and SQLite never opens it. */
static gboolean
check_file (const char *path, gboolean create, gboolean *out_exists, GError **error)
{
  GStatBuf st;
  *out_exists = FALSE;
  if (g_stat (path, &st) != 0)
    {
      int saved = errno;
      if (saved == ENOENT && create)
        return TRUE;
      g_set_error (error, FL_STORE_ERROR,
                   saved == ENOENT ? FL_STORE_ERROR_NOT_FOUND : FL_STORE_ERROR_IO,
                   "cannot open '%s': %s", path, g_strerror (saved));
      return FALSE;
    }
  *out_exists = TRUE;
  if (!S_ISREG (st.st_mode))
    {
      g_set_error (error, FL_STORE_ERROR, FL_STORE_ERROR_NOT_A_STORE,
                   "'%s' is not a Faultline store (not a regular file)", path);
      return FALSE;
    }
  if (st.st_size == 0)
    return TRUE;

  char header[sizeof sqlite_magic] = { 0 };
  int fd = g_open (path, O_RDONLY | O_CLOEXEC, 0);
  if (fd < 0)
    {
      int saved = errno;
      g_set_error (error, FL_STORE_ERROR, FL_STORE_ERROR_IO, "cannot read '%s': %s", path,
                   g_strerror (saved));
      return FALSE;
    }
  ssize_t got = read (fd, header, sizeof header);
  close (fd);
  if (got != (ssize_t) sizeof header || memcmp (header, sqlite_magic, sizeof header) != 0)
    {
      g_set_error (error, FL_STORE_ERROR, FL_STORE_ERROR_NOT_A_STORE,
                   "'%s' is not a Faultline store (not an SQLite database)", path);
      return FALSE;
    }
  return TRUE;
}

gboolean
fl_store_query_int (FlStore *store, const char *sql, gint64 *out, GError **error)
{
  sqlite3_stmt *stmt = NULL;
  fl_store_budget_reset (store);
  int rc = sqlite3_prepare_v2 (store->db, sql, -1, &stmt, NULL);
  if (rc == SQLITE_OK)
    {
      rc = sqlite3_step (stmt);
      if (rc == SQLITE_ROW)
        {
          *out = sqlite3_column_int64 (stmt, 0);
          rc = SQLITE_OK;
        }
    }
  if (rc != SQLITE_OK)
    fl_store_fail (store, rc, error, "read '%s'", sql);
  sqlite3_finalize (stmt);
  return rc == SQLITE_OK;
}

/* "NULL value in bookmark.title" names the table and the column; the row is found here, so
 * that the message says where to look. The names are the schema's, which matched the app's
 * before this runs. An event has no rowid: its key names it. */
static char *
null_row (FlStore *store, const char *said)
{
  char table[32], column[32];
  if (sscanf (said, "NULL value in %31[a-z_].%31[a-z_]", table, column) != 2)
    return g_strdup ("");
  gboolean event = strcmp (table, "event") == 0;
  /* typeof(): the planner drops "IS NULL" on a NOT NULL column */
  g_autofree char *sql = g_strdup_printf ("SELECT %s FROM \"%s\" WHERE typeof (\"%s\") = "
                                          "'null' LIMIT 1",
                                          event ? "run_id, step, sub" : "rowid, 0, 0", table,
                                          column);
  sqlite3_stmt *stmt = NULL;
  char *where = NULL;
  fl_store_budget_reset (store);
  if (sqlite3_prepare_v2 (store->db, sql, -1, &stmt, NULL) == SQLITE_OK &&
      sqlite3_step (stmt) == SQLITE_ROW)
    {
      gint64 a = sqlite3_column_int64 (stmt, 0), b = sqlite3_column_int64 (stmt, 1),
             c = sqlite3_column_int64 (stmt, 2);
      g_autofree char *row = event
        ? g_strdup_printf ("(run %" G_GINT64_FORMAT ", step %" G_GINT64_FORMAT ", sub %"
                           G_GINT64_FORMAT ")", a, b, c)
        : g_strdup_printf ("%" G_GINT64_FORMAT, a);
      where = g_strdup_printf ("; table %s, row %s, column %s is NULL", table, row, column);
    }
  sqlite3_finalize (stmt);
  return where ? where : g_strdup ("");
}

/* quick_check reads every page but skips the costly index cross-checks; a file someone sent
 * for a review gets the full integrity_check. Only the first complaint is reported. */
gboolean
fl_store_check_integrity (FlStore *store, gboolean full, GError **error)
{
  sqlite3_stmt *stmt = NULL;
  const char *sql = full ? "PRAGMA integrity_check(1)" : "PRAGMA quick_check(1)";
  fl_store_budget_reset (store);
  int rc = sqlite3_prepare_v2 (store->db, sql, -1, &stmt, NULL);
  if (rc == SQLITE_OK)
    rc = sqlite3_step (stmt);
  if (rc == SQLITE_ROW)
    {
      const char *result = (const char *) sqlite3_column_text (stmt, 0);
      if (g_strcmp0 (result, "ok") == 0)
        {
          sqlite3_finalize (stmt);
          return TRUE;
        }
      /* The first complaint reads "*** in database main ***\nPage 9: ...": keep one line. */
      g_autofree char *first = g_strdup (result ? result : "no result");
      g_strdelimit (first, "\n", ' ');
      const char *said = first;
      if (g_str_has_prefix (said, "*** in database main *** "))
        said += strlen ("*** in database main *** ");
      g_autofree char *where = null_row (store, said);
      g_set_error (error, FL_STORE_ERROR, FL_STORE_ERROR_CORRUPT, "'%s' is corrupt (%s: %s%s)",
                   store->path, full ? "integrity_check" : "quick_check", said, where);
      sqlite3_finalize (stmt);
      return FALSE;
    }
  if (store->over_budget)
    fl_store_fail (store, rc, error, "check");
  else
    g_set_error (error, FL_STORE_ERROR, FL_STORE_ERROR_CORRUPT, "'%s' is corrupt (%s)",
                 store->path, sqlite3_errmsg (store->db));
  sqlite3_finalize (stmt);
  return FALSE;
}

/* Hardening that applies to every file: a store never needs extensions, schema-level SQL
 * functions with side effects, writes to sqlite_schema, triggers, views, attached files or
 * values of more than a few MiB. The schema check refuses a trigger or a view anyway; off
 * here, one could not run even if a check missed it. Every option exists in SQLite 3.40
 * (Debian 12), the oldest the build accepts: ENABLE_VIEW came in 3.35, TRUSTED_SCHEMA in 3.31,
 * DQS_* in 3.29, DEFENSIVE in 3.26. */
static gboolean
harden (FlStore *store, GError **error)
{
  sqlite3 *db = store->db;
  static const struct { int option, value; } options[] = {
    { SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0 },
    { SQLITE_DBCONFIG_DEFENSIVE, 1 },
    { SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0 },
    { SQLITE_DBCONFIG_ENABLE_TRIGGER, 0 },
    { SQLITE_DBCONFIG_ENABLE_VIEW, 0 },
    { SQLITE_DBCONFIG_DQS_DML, 0 },
    { SQLITE_DBCONFIG_DQS_DDL, 0 },
  };
  sqlite3_extended_result_codes (db, 1);
  for (guint i = 0; i < G_N_ELEMENTS (options); i++)
    if (sqlite3_db_config (db, options[i].option, options[i].value, NULL) != SQLITE_OK)
      return fl_store_fail (store, SQLITE_ERROR, error, "configure the connection");
  sqlite3_limit (db, SQLITE_LIMIT_LENGTH, FL_STORE_MAX_VALUE);
  sqlite3_limit (db, SQLITE_LIMIT_ATTACHED, 0);
  sqlite3_busy_timeout (db, BUSY_TIMEOUT_MS);
  fl_store_budget_install (store);
  return fl_store_exec (store, "PRAGMA trusted_schema=OFF; PRAGMA cell_size_check=ON; "
                        "PRAGMA mmap_size=0", "configure the connection", error);
}

/* The id and the version, from page 1: the schema version found, and whether the database is
 * empty (a new store to initialize). */
static gboolean
read_identity (FlStore *store, gboolean create, gint64 *out_version, gboolean *out_empty,
               GError **error)
{
  *out_empty = FALSE;
  gint64 app_id = 0, version = 0, objects = 0;
  GError *local = NULL;

  if (!fl_store_query_int (store, "PRAGMA application_id", &app_id, &local) ||
      !fl_store_query_int (store, "PRAGMA user_version", &version, &local) ||
      !fl_store_query_int (store, "SELECT count(*) FROM sqlite_schema", &objects, &local))
    {
      if (local->code == FL_STORE_ERROR_CORRUPT)
        g_set_error (error, FL_STORE_ERROR, FL_STORE_ERROR_CORRUPT, "'%s' is corrupt (%s)",
                     store->path, sqlite3_errmsg (store->db));
      else
        g_propagate_error (error, g_steal_pointer (&local));
      g_clear_error (&local);
      return FALSE;
    }

  if (app_id == 0 && objects == 0 && version == 0)
    {
      if (!create)
        {
          g_set_error (error, FL_STORE_ERROR, FL_STORE_ERROR_NOT_A_STORE,
                       "'%s' is not a Faultline store (an empty database)", store->path);
          return FALSE;
        }
      *out_version = 0;
      *out_empty = TRUE;
      return TRUE;
    }
  if (app_id != FL_STORE_APPLICATION_ID)
    {
      g_autofree char *found = app_id == 0 ? g_strdup ("0")
        : g_strdup_printf ("0x%" G_GINT64_MODIFIER "X", app_id & 0xffffffff);
      g_set_error (error, FL_STORE_ERROR, FL_STORE_ERROR_NOT_A_STORE,
                   "'%s' is not a Faultline store (application_id %s instead of 0x%X)",
                   store->path, found, FL_STORE_APPLICATION_ID);
      return FALSE;
    }
  /* A newer Faultline may have added tables and columns this one does not know: reading what
   * it knows is safe, writing could break what it does not. */
  if (version > FL_STORE_SCHEMA_VERSION && !store->read_only)
    {
      g_set_error (error, FL_STORE_ERROR, FL_STORE_ERROR_NEWER_SCHEMA,
                   "'%s' was written by a newer Faultline (schema version %" G_GINT64_FORMAT
                   "; this one writes up to %d): it can only be opened read-only",
                   store->path, version, FL_STORE_SCHEMA_VERSION);
      return FALSE;
    }
  *out_version = version;
  return TRUE;
}

/* The schema first (a view must not stand in for a table even for the integrity check), then
 * every page. */
static gboolean
check_contents (FlStore *store, gint64 version, GError **error)
{
  g_autoptr (GPtrArray) problems = fl_store_schema_differences (store, version, error);
  if (problems == NULL)
    return FALSE;
  if (problems->len > 0)
    {
      g_autofree char *more = problems->len == 1 ? g_strdup ("")
        : g_strdup_printf (", and %u more", problems->len - 1);
      g_set_error (error, FL_STORE_ERROR, FL_STORE_ERROR_FOREIGN,
                   "'%s' is not a store as Faultline writes it (%s%s; `faultline-cli db check` "
                   "lists every difference); it was not changed", store->path,
                   (const char *) problems->pdata[0], more);
      return FALSE;
    }
  return fl_store_check_integrity (store, (store->flags & FL_STORE_OPEN_UNTRUSTED) != 0, error);
}

/* The writable part of opening: WAL, durability, then the migrations. */
static gboolean
prepare_for_writing (FlStore *store, gint64 version, GError **error)
{
  if (sqlite3_db_readonly (store->db, "main") == 1)
    {
      g_set_error (error, FL_STORE_ERROR, FL_STORE_ERROR_READ_ONLY,
                   "'%s' is read-only (no write permission); open it read-only to view it",
                   store->path);
      return FALSE;
    }
  /* synchronous=NORMAL in WAL mode loses at most the last commits on power loss, never
   * consistency; Debian's default FULL costs an fsync per commit. */
  g_autofree char *pragmas =
    g_strdup_printf ("PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; "
                     "PRAGMA journal_size_limit=%d; PRAGMA cache_size=-%d",
                     WAL_SIZE_LIMIT, CACHE_SIZE_KIB);
  if (!fl_store_exec (store, pragmas, "switch to WAL mode", error))
    return FALSE;
  fl_store_budget_reset (store);
  if (version < FL_STORE_SCHEMA_VERSION &&
      !fl_store_schema_upgrade (store->db, store->path, FL_STORE_SCHEMA_VERSION, error))
    return FALSE;
  return TRUE;
}

static gboolean
connect (FlStore *store, int mode, GError **error)
{
  int rc = sqlite3_open_v2 (store->path, &store->db, mode | SQLITE_OPEN_NOMUTEX, NULL);
  if (rc != SQLITE_OK)
    return fl_store_fail (store, rc, error, "open the store");
  return harden (store, error);
}

/**
 * fl_store_open:
 * @path: the store file
 * @flags: %FL_STORE_OPEN_CREATE to create a missing file (or initialize an empty one),
 *   %FL_STORE_OPEN_READ_ONLY to never write, %FL_STORE_OPEN_UNTRUSTED for a file received from
 *   someone else (full integrity_check, no triggers or views accepted)
 * @error: set with %FL_STORE_ERROR when the file cannot be used
 *
 * Opens a store, checks that it is a healthy Faultline store of a schema this build knows, and
 * (unless read-only) switches it to WAL and migrates it to %FL_STORE_SCHEMA_VERSION.
 *
 * Before anything else is read, the schema must be exactly the one the migrations create for
 * the file's user_version (%FL_STORE_ERROR_FOREIGN names the first difference; a trigger or a
 * view is never accepted). A store of a newer Faultline opens only read-only
 * (%FL_STORE_ERROR_NEWER_SCHEMA otherwise; fl_store_get_schema_version() tells). A file that
 * is refused — not a store, foreign, corrupt, newer, or read-only when opened for writing — is
 * left byte-identical. Every connection has extension loading, triggers and views off,
 * %SQLITE_DBCONFIG_DEFENSIVE on, trusted_schema off, values limited to a few MiB and a budget
 * on every statement (%FL_STORE_ERROR_LIMIT). Only one connection should write a given file at
 * a time.
 *
 * Returns: (transfer full) (nullable): the store, or %NULL with @error set.
 */
FlStore *
fl_store_open (const char *path, FlStoreOpenFlags flags, GError **error)
{
  g_return_val_if_fail (path != NULL && *path != '\0', NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  gboolean read_only = (flags & FL_STORE_OPEN_READ_ONLY) != 0;
  gboolean create = (flags & FL_STORE_OPEN_CREATE) && !read_only;
  gboolean exists;
  if (!check_file (path, create, &exists, error))
    return NULL;

  g_autoptr (FlStore) store = g_new0 (FlStore, 1);
  store->path = g_strdup (path);
  store->flags = flags;
  store->read_only = read_only;

  /* The checks run on a read-only connection even when writing was asked for: a read-write
   * connection that closes as the last one on a WAL file checkpoints it, and a refused file
   * must stay byte-identical. */
  gint64 version = 0;
  gboolean empty = TRUE;
  /* A version 0 that is not empty is compared too (with no objects at all): a file that only
   * claims to be a new store must not have the migrations written into it. */
  if (exists)
    {
      /* One read transaction: the version and the schema it is compared with come from the
       * same snapshot, even while another process creates or migrates the store, committing
       * one migration step after another. */
      if (!connect (store, SQLITE_OPEN_READONLY, error) ||
          !fl_store_exec (store, "BEGIN", "read the store's identity", error))
        return NULL;
      if (!read_identity (store, create, &version, &empty, error) ||
          (!empty && !check_contents (store, version, error)))
        {
          sqlite3_exec (store->db, "ROLLBACK", NULL, NULL, NULL);
          return NULL;
        }
      if (!fl_store_exec (store, "COMMIT", "read the store's identity", error))
        return NULL;
    }
  store->version = version;

  if (read_only)
    {
      if (version < FL_STORE_SCHEMA_VERSION)
        {
          g_set_error (error, FL_STORE_ERROR, FL_STORE_ERROR_OLDER_SCHEMA,
                       "'%s' uses schema version %" G_GINT64_FORMAT " and must be upgraded to "
                       "version %d, which a read-only open cannot do", path, version,
                       FL_STORE_SCHEMA_VERSION);
          return NULL;
        }
      if (!fl_store_exec (store, "PRAGMA query_only=ON", "configure the connection", error))
        return NULL;
    }
  else
    {
      g_clear_pointer (&store->db, sqlite3_close_v2);
      if (!connect (store, SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0), error) ||
          !prepare_for_writing (store, version, error))
        return NULL;
    }

  if (!fl_store_exec (store, "PRAGMA foreign_keys=ON", "configure the connection", error))
    return NULL;
  store->ready = TRUE;
  return g_steal_pointer (&store);
}

/**
 * fl_store_list_foreign:
 * @path: a store file
 * @error: set when the file cannot be read as a store at all (missing, not SQLite, another
 *   application's, corrupt)
 *
 * What `faultline-cli db check` lists: every object of the file's schema that is not as this
 * build creates it for the file's user_version — an extra table, index, trigger or view, one of
 * another type or definition, or a missing one — one sentence each, naming it. Opens the file
 * read-only and changes nothing.
 *
 * Returns: (transfer full): the sentences, empty when the schema is Faultline's, or %NULL.
 */
GStrv
fl_store_list_foreign (const char *path, GError **error)
{
  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  gboolean exists;
  if (!check_file (path, FALSE, &exists, error))
    return NULL;
  g_autoptr (FlStore) store = g_new0 (FlStore, 1);
  store->path = g_strdup (path);
  store->flags = FL_STORE_OPEN_READ_ONLY | FL_STORE_OPEN_UNTRUSTED;
  store->read_only = TRUE;
  gint64 version = 0;
  gboolean empty;
  if (!connect (store, SQLITE_OPEN_READONLY, error) ||
      !read_identity (store, FALSE, &version, &empty, error))
    return NULL;
  g_autoptr (GPtrArray) problems = fl_store_schema_differences (store, version, error);
  if (problems == NULL)
    return NULL;
  g_autoptr (GStrvBuilder) builder = g_strv_builder_new ();
  for (guint i = 0; i < problems->len; i++)
    g_strv_builder_add (builder, problems->pdata[i]);
  return g_strv_builder_end (builder);
}

/**
 * fl_store_get_opened_version:
 * @store: a store
 *
 * Returns: the user_version the file had before this open migrated it (0 for a new file):
 *   what `db upgrade` reports it upgraded from.
 */
gint64
fl_store_get_opened_version (FlStore *store)
{
  g_return_val_if_fail (store != NULL, 0);
  return store->version;
}

/**
 * fl_store_get_schema_version:
 * @store: a store
 *
 * Returns: the user_version the file had when it was opened: %FL_STORE_SCHEMA_VERSION after a
 *   migration, more for a store of a newer Faultline (which opens only read-only), 0 for a new
 *   file.
 */
gint64
fl_store_get_schema_version (FlStore *store)
{
  g_return_val_if_fail (store != NULL, 0);
  return store->version > FL_STORE_SCHEMA_VERSION || store->read_only
    ? store->version : FL_STORE_SCHEMA_VERSION;
}

/**
 * fl_store_close:
 * @store: (transfer full) (nullable): a store
 *
 * Closes @store. A run still being recorded is rolled back: it was never finished, so it is not
 * kept. The last connection to close checkpoints the WAL, so the file alone is the whole store.
 */
void
fl_store_close (FlStore *store)
{
  if (store == NULL)
    return;
  if (store->db != NULL)
    {
      if (store->recording != 0)
        fl_store_abort_run (store, store->recording);
      for (guint i = 0; i < FL_STMT_N; i++)
        sqlite3_finalize (store->stmts[i]);
      /* optimize may write statistics: only to a store we accepted and may write. */
      fl_store_budget_reset (store);
      if (store->ready && !store->read_only)
        sqlite3_exec (store->db, "PRAGMA optimize", NULL, NULL, NULL);
      sqlite3_close_v2 (store->db);
    }
  g_free (store->path);
  g_free (store);
}

/**
 * fl_store_get_path:
 * @store: a store
 *
 * Returns: the file @store was opened from.
 */
const char *
fl_store_get_path (FlStore *store)
{
  g_return_val_if_fail (store != NULL, NULL);
  return store->path;
}

/**
 * fl_store_is_read_only:
 * @store: a store
 *
 * Returns: whether @store was opened with %FL_STORE_OPEN_READ_ONLY.
 */
gboolean
fl_store_is_read_only (FlStore *store)
{
  g_return_val_if_fail (store != NULL, TRUE);
  return store->read_only;
}

/**
 * fl_store_default_path:
 *
 * The store used when none is named: `$XDG_DATA_HOME/faultline/faultline.db`. Creates the
 * folder (mode 0700: runs and notes are the user's own) if it does not exist yet; if that
 * fails, fl_store_open() reports it.
 *
 * Returns: (transfer full): the path.
 */
char *
fl_store_default_path (void)
{
  g_autofree char *dir = g_build_filename (g_get_user_data_dir (), "faultline", NULL);
  g_mkdir_with_parents (dir, 0700);
  return g_build_filename (dir, "faultline.db", NULL);
}

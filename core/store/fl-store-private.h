#pragma once

#include <sqlite3.h>
#include "fl-store.h"

G_BEGIN_DECLS

/* What the fl-store-*.c files share, and what the store tests reach into (the connection, to
 * emulate a full disk; the migrations, to build a file of an earlier schema version). */

/* One slot per statement: each is prepared on first use with SQLITE_PREPARE_PERSISTENT and
 * kept until the store closes. */
typedef enum {
  FL_STMT_SCENARIO_FIND,
  FL_STMT_SCENARIO_RETAG,
  FL_STMT_SCENARIO_INSERT,
  FL_STMT_SCENARIO_LIST,
  FL_STMT_SCENARIO_SEARCH,
  FL_STMT_SCENARIO_GET,
  FL_STMT_SCENARIO_DELETE_EVENTS,
  FL_STMT_SCENARIO_DELETE,
  FL_STMT_RUN_INSERT,
  FL_STMT_RUN_FINISH,
  FL_STMT_RUN_LIST,
  FL_STMT_RUN_LIST_ALL,
  FL_STMT_RUN_GET,
  FL_STMT_RUN_FIND,
  FL_STMT_RUN_DELETE_EVENTS,
  FL_STMT_RUN_DELETE,
  FL_STMT_EVENT_INSERT,
  FL_STMT_EVENT_RANGE,
  FL_STMT_FINDING_INSERT,
  FL_STMT_FINDING_LIST,
  FL_STMT_BOOKMARK_INSERT,
  FL_STMT_BOOKMARK_UPDATE,
  FL_STMT_BOOKMARK_DELETE,
  FL_STMT_BOOKMARK_GET,
  FL_STMT_BOOKMARK_LIST,
  FL_STMT_BENCH_INSERT,
  FL_STMT_BENCH_LIST,
  FL_STMT_BENCH_LIST_ALL,
  FL_STMT_EXPLORATION_INSERT,
  FL_STMT_EXPLORATION_DELETE,
  FL_STMT_EXPLORATION_LIST,
  FL_STMT_EXPLORATION_LIST_ALL,
  FL_STMT_EXPLORATION_GET,
  FL_STMT_EXPLORATION_RUNS,
  FL_STMT_N
} FlStoreStmtId;

struct _FlStore {
  sqlite3          *db;
  char             *path;
  FlStoreOpenFlags  flags;
  gboolean          read_only;
  gboolean          ready;          /* every check passed: the file is ours to write */
  sqlite3_stmt     *stmts[FL_STMT_N];

  /* fl-store-budget.c: every statement may run FL_STORE_BUDGET_* ticks of the progress handler,
   * counted from the last fl_store_budget_reset(). */
  guint64           ticks;
  guint64           budget;
  gboolean          over_budget;    /* the handler stopped the statement */
  gint64            version;        /* user_version of the file when it was opened */

  /* The run being recorded holds the one write transaction until it finishes or aborts. */
  gint64            recording;      /* run id, 0 = none */
  gboolean          rec_started;    /* an event has been added */
  guint32           rec_step;       /* step of the last event added */
  guint32           rec_sub;        /* its index among the events of that step */
};

/* A cached statement borrowed for one use: g_autoptr (FlStoreCursor) resets it and clears its
 * bindings when the borrower's scope ends, so the next borrower finds it fresh. */
typedef sqlite3_stmt FlStoreCursor;
void fl_store_cursor_release (FlStoreCursor *cursor);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (FlStoreCursor, fl_store_cursor_release)

FlStoreCursor *fl_store_cursor      (FlStore       *store,
                                     FlStoreStmtId  id,
                                     const char    *sql,
                                     GError       **error);

gboolean  fl_store_fail             (FlStore       *store,
                                     int            rc,
                                     GError       **error,
                                     const char    *format,
                                     ...) G_GNUC_PRINTF (4, 5);
int       fl_store_error_code       (int            rc);
const char *fl_store_reason         (int            rc);
gboolean  fl_store_check_writable   (FlStore       *store,
                                     const char    *what,
                                     GError       **error);
gboolean  fl_store_exec             (FlStore       *store,
                                     const char    *sql,
                                     const char    *what,
                                     GError       **error);
gboolean  fl_store_begin            (FlStore       *store,
                                     const char    *what,
                                     GError       **error);
gboolean  fl_store_commit           (FlStore       *store,
                                     const char    *what,
                                     GError       **error);
void      fl_store_rollback         (FlStore       *store);
gint64    fl_store_now              (void);

/* ---- limits: what Faultline writes, and so all it accepts when it reads ------------------ */

/* Names, titles, kinds, verdicts, hashes, workloads: one line of a list. */
#define FL_STORE_MAX_SHORT   4096
/* Notes, finding messages, configurations, joined tags. (Scenario texts have the limit of a
 * .fault file, FL_SCENARIO_MAX_BYTES.) */
#define FL_STORE_MAX_LONG    (1024 * 1024)
/* SQLITE_LIMIT_LENGTH: no value of any row is even loaded beyond this, so a hostile blob costs
 * at most this much memory for a moment; values between the limits above and this one get a
 * message naming table, row and column, larger ones SQLite's "string or blob too big". */
#define FL_STORE_MAX_VALUE   (8 * 1024 * 1024)
/* hex digits of a run's hash: FlReplayResult.stored_hash keeps 64 */
#define FL_STORE_MAX_HASH    64

/* Where @text (of @length bytes) has a control character Faultline never writes (any but a
 * tab or a line end), or NULL. */
const char *fl_store_find_control   (const char    *text,
                                     gsize          length);
gboolean  fl_store_check_text       (FlStore       *store,
                                     const char    *what,
                                     const char    *field,
                                     const char    *value,
                                     gsize          max,
                                     GError       **error);

/* ---- fl-store-budget.c: no statement runs away ------------------------------------------- */

void      fl_store_budget_install   (FlStore       *store);
void      fl_store_budget_reset     (FlStore       *store);

/* ---- fl-store-row.c: every value checked as it is read ----------------------------------- */

/* Reads the columns of one result row. The first value that Faultline could not have written
 * (NULL, another type, out of range, too long, not UTF-8) sets @error naming table, row and
 * column; after that every read returns 0 or NULL and fl_store_row_ok() is FALSE. */
typedef struct {
  FlStore      *store;
  sqlite3_stmt *stmt;
  GError      **error;
  gboolean      failed;
  const char   *table;
  char          label[96];    /* the row: its id, or the key of an event */
} FlStoreRow;

void      fl_store_row_init         (FlStoreRow    *row,
                                     FlStore       *store,
                                     sqlite3_stmt  *stmt,
                                     GError       **error);
gint64    fl_store_row_key          (FlStoreRow    *row,
                                     int            col,
                                     const char    *table);
void      fl_store_row_label        (FlStoreRow    *row,
                                     const char    *table,
                                     const char    *format,
                                     ...) G_GNUC_PRINTF (3, 4);
gint64    fl_store_row_int          (FlStoreRow    *row,
                                     int            col,
                                     const char    *column,
                                     gint64         min,
                                     gint64         max);
double    fl_store_row_real         (FlStoreRow    *row,
                                     int            col,
                                     const char    *column);
char     *fl_store_row_text         (FlStoreRow    *row,
                                     int            col,
                                     const char    *column,
                                     gsize          max);
char     *fl_store_row_text_or_null (FlStoreRow    *row,
                                     int            col,
                                     const char    *column,
                                     gsize          max);
gboolean  fl_store_row_ok           (FlStoreRow    *row);

gboolean  fl_store_query_int        (FlStore       *store,
                                     const char    *sql,
                                     gint64        *out,
                                     GError       **error);
gboolean  fl_store_check_integrity  (FlStore       *store,
                                     gboolean       full,
                                     GError       **error);

/* ---- fl-store-check.c: the schema is the app's, exactly --------------------------------- */

GPtrArray *fl_store_schema_differences (FlStore    *store,
                                        gint64      version,
                                        GError    **error);

/* fl-store-schema.c: bring @db from its user_version up to @target (1 ≤ @target ≤
 * FL_STORE_SCHEMA_VERSION), one BEGIN IMMEDIATE transaction per step. */
gboolean  fl_store_schema_upgrade   (sqlite3       *db,
                                     const char    *path,
                                     int            target,
                                     GError       **error);

G_END_DECLS

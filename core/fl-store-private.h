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
  FL_STMT_N
} FlStoreStmtId;

struct _FlStore {
  sqlite3          *db;
  char             *path;
  FlStoreOpenFlags  flags;
  gboolean          read_only;
  gboolean          ready;          /* every check passed: the file is ours to write */
  sqlite3_stmt     *stmts[FL_STMT_N];

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

/* fl-store-schema.c: bring @db from its user_version up to @target (1 ≤ @target ≤
 * FL_STORE_SCHEMA_VERSION), one BEGIN IMMEDIATE transaction per step. */
gboolean  fl_store_schema_upgrade   (sqlite3       *db,
                                     const char    *path,
                                     int            target,
                                     GError       **error);
gboolean  fl_store_schema_check_untrusted (sqlite3    *db,
                                           const char *path,
                                           GError    **error);

G_END_DECLS

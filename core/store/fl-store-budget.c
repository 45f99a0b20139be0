/* fl-store-budget.c — no statement on a store runs away: a progress handler counts the virtual
 * machine's work and stops a statement that goes far past what any query of the store needs.
 *
 * The bound grows with the file, not with time, so it is deterministic and never stops an
 * honest query: every query the store makes reads each page a bounded number of times (the
 * tables have the indexes the queries need; the schema check sees to that), and measured on a
 * 22 MB store with 670 000 events the costliest statement, integrity_check, needs about 4 ticks
 * per 4 KiB page. The budget allows 64 per page, plus a floor for the smallest files. What has
 * no bound in the size of the file is a loop (a recursive view, a planner misled by hostile
 * statistics into a product of tables): that is what it stops. */
#include "fl-store-private.h"

#include <glib/gstdio.h>

/* virtual machine instructions between two calls of the handler */
#define OPS_PER_TICK     1000
/* about 0.2 s of work on these machines, whatever the file */
#define FLOOR_TICKS      20000
/* 64 ticks per 4 KiB page of the file and its WAL */
#define BYTES_PER_TICK   64

static int
on_progress (void *data)
{
  FlStore *store = data;
  if (++store->ticks <= store->budget)
    return 0;
  /* sqlite3_step() returns SQLITE_INTERRUPT; fl_store_fail() tells it apart from a cancel */
  store->over_budget = TRUE;
  return 1;
}

static guint64
file_size (const char *path)
{
  GStatBuf st;
  return g_stat (path, &st) == 0 && st.st_size > 0 ? (guint64) st.st_size : 0;
}

void
fl_store_budget_install (FlStore *store)
{
  sqlite3_progress_handler (store->db, OPS_PER_TICK, on_progress, store);
  fl_store_budget_reset (store);
}

/* Called before each statement (or each use of a cached one): the budget follows the file as
 * it grows, also when another connection writes to it. */
void
fl_store_budget_reset (FlStore *store)
{
  g_autofree char *wal = g_strconcat (store->path, "-wal", NULL);
  guint64 bytes = file_size (store->path) + file_size (wal);
  store->budget = FLOOR_TICKS + bytes / BYTES_PER_TICK;
  store->ticks = 0;
  store->over_budget = FALSE;
}

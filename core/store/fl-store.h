#pragma once

#include <glib.h>
#include "fl-event.h"

G_BEGIN_DECLS

/* The store: one SQLite file holding the scenario library, recorded runs with their event
 * streams and findings, bookmarks and benchmark rows. A plain struct, not a GObject: it is a
 * handle on one connection, owned by one thread, with nothing to signal. */

/* "FLT1": PRAGMA application_id of every Faultline store. */
#define FL_STORE_APPLICATION_ID 0x464C5431
/* PRAGMA user_version this build writes; older stores are migrated forward on open. */
#define FL_STORE_SCHEMA_VERSION 3

#define FL_STORE_ERROR (fl_store_error_quark ())
GQuark fl_store_error_quark (void);

typedef enum {
  FL_STORE_ERROR_NOT_A_STORE,   /* not SQLite, or SQLite of another application */
  FL_STORE_ERROR_CORRUPT,       /* quick_check / integrity_check failed, or SQLITE_CORRUPT */
  FL_STORE_ERROR_NEWER_SCHEMA,  /* written by a newer Faultline */
  FL_STORE_ERROR_READ_ONLY,     /* file, folder or open mode does not allow the write */
  FL_STORE_ERROR_FULL,          /* disk (or the size limit) is full */
  FL_STORE_ERROR_IO,            /* any other I/O or SQLite failure */
  FL_STORE_ERROR_NOT_FOUND,     /* no such file, scenario, run or bookmark */
  FL_STORE_ERROR_CONSTRAINT,    /* a row breaks a rule of the schema (e.g. unknown run) */
  FL_STORE_ERROR_BUSY,          /* another writer holds the file, or a run is being recorded */
  FL_STORE_ERROR_INVALID,       /* bad argument data: not UTF-8, a tag with ';', file too big */
  FL_STORE_ERROR_FOREIGN,       /* a table, index, trigger or view Faultline does not create */
  FL_STORE_ERROR_BAD_VALUE,     /* a value Faultline never writes: NULL, a wrong type, too big */
  FL_STORE_ERROR_LIMIT,         /* a query ran far past what a store of its size needs */
  FL_STORE_ERROR_OLDER_SCHEMA,  /* an older Faultline's, opened read-only: not yet upgraded */
} FlStoreError;

typedef enum {
  FL_STORE_OPEN_NONE      = 0,
  FL_STORE_OPEN_CREATE    = 1 << 0,  /* create a missing file, initialize an empty one */
  FL_STORE_OPEN_READ_ONLY = 1 << 1,  /* never write anything, not even the WAL switch */
  FL_STORE_OPEN_UNTRUSTED = 1 << 2,  /* a file received from someone: integrity_check in full */
} FlStoreOpenFlags;

typedef struct _FlStore FlStore;

FlStore    *fl_store_open          (const char       *path,
                                    FlStoreOpenFlags  flags,
                                    GError          **error);
void        fl_store_close         (FlStore          *store);
const char *fl_store_get_path      (FlStore          *store);
gboolean    fl_store_is_read_only  (FlStore          *store);
char       *fl_store_default_path  (void);
gint64      fl_store_get_schema_version (FlStore     *store);
gint64      fl_store_get_opened_version (FlStore     *store);
gboolean    fl_store_check         (FlStore          *store,
                                    GError          **error);
GStrv       fl_store_list_foreign  (const char       *path,
                                    GError          **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (FlStore, fl_store_close)

/* ---- scenarios ------------------------------------------------------------------------- */

typedef struct {
  gint64   id;
  char    *name;      /* built-in id or file stem */
  char    *title;
  char   **tags;      /* never NULL; may be empty */
  char    *text;      /* the .fault text exactly as written */
  gint64   created;   /* unix seconds */
} FlStoredScenario;

void fl_stored_scenario_free (FlStoredScenario *scenario);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (FlStoredScenario, fl_stored_scenario_free)

gboolean          fl_store_save_scenario    (FlStore            *store,
                                             const char         *name,
                                             const char         *title,
                                             const char *const  *tags,
                                             const char         *text,
                                             gint64             *out_id,
                                             GError            **error);
GPtrArray        *fl_store_list_scenarios   (FlStore            *store,
                                             GError            **error);
GPtrArray        *fl_store_search_scenarios (FlStore            *store,
                                             const char         *query,
                                             GError            **error);
FlStoredScenario *fl_store_get_scenario     (FlStore            *store,
                                             gint64              id,
                                             GError            **error);
gboolean          fl_store_delete_scenario  (FlStore            *store,
                                             gint64              id,
                                             GError            **error);
gboolean          fl_store_export_scenario  (FlStore            *store,
                                             gint64              id,
                                             const char         *path,
                                             GError            **error);
gboolean          fl_store_import_scenario  (FlStore            *store,
                                             const char         *path,
                                             gint64             *out_id,
                                             GError            **error);
gboolean          fl_store_import_scenario_tagged (FlStore            *store,
                                                   const char         *path,
                                                   const char *const  *extra_tags,
                                                   gint64             *out_id,
                                                   GError            **error);

/* ---- runs, events, findings ------------------------------------------------------------ */

/* What is known when a recording starts. */
typedef struct {
  const char *config;   /* fl_config_describe() text: the switches the run used */
  guint64     seed;
  gint64      created;  /* unix seconds; 0 = now */
  gint64      exploration_id;  /* the exploration whose counterexample this is; 0 = none */
} FlStoreRunInfo;

typedef struct {
  gint64   id;
  gint64   scenario_id;
  char    *scenario_name;
  char    *scenario_text;  /* what a replay parses */
  char    *config;
  guint64  seed;
  guint64  steps;
  guint64  cycles;
  char    *hash;           /* hex digest of the event stream */
  guint    findings;
  char    *verdict;
  gint64   created;
  gint64   exploration_id;  /* the exploration that found it; 0 = none */
} FlStoredRun;

void fl_stored_run_free (FlStoredRun *run);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (FlStoredRun, fl_stored_run_free)

typedef struct {
  gint64   id;
  gint64   run_id;
  guint32  step;
  guint    cpu;
  char    *kind;
  char    *message;
} FlStoredFinding;

void fl_stored_finding_free (FlStoredFinding *finding);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (FlStoredFinding, fl_stored_finding_free)

gboolean     fl_store_begin_run     (FlStore              *store,
                                     gint64                scenario_id,
                                     const FlStoreRunInfo *info,
                                     gint64               *out_run_id,
                                     GError              **error);
gboolean     fl_store_add_events    (FlStore              *store,
                                     gint64                run_id,
                                     const FlEvent        *events,
                                     gsize                 n_events,
                                     GError              **error);
gboolean     fl_store_add_finding   (FlStore              *store,
                                     gint64                run_id,
                                     guint32               step,
                                     guint                 cpu,
                                     const char           *kind,
                                     const char           *message,
                                     GError              **error);
gboolean     fl_store_finish_run    (FlStore              *store,
                                     gint64                run_id,
                                     guint64               steps,
                                     guint64               cycles,
                                     const char           *hash,
                                     guint                 findings,
                                     const char           *verdict,
                                     GError              **error);
void         fl_store_abort_run     (FlStore              *store,
                                     gint64                run_id);
gboolean     fl_store_is_recording  (FlStore              *store);

GPtrArray   *fl_store_list_runs     (FlStore              *store,
                                     gint64                scenario_id,
                                     GError              **error);
FlStoredRun *fl_store_get_run       (FlStore              *store,
                                     gint64                run_id,
                                     GError              **error);
gboolean     fl_store_find_run      (FlStore              *store,
                                     const char           *scenario_text,
                                     const char           *config,
                                     guint64               seed,
                                     const char           *hash,
                                     gint64               *out_run_id,
                                     GError              **error);
gboolean     fl_store_delete_run    (FlStore              *store,
                                     gint64                run_id,
                                     GError              **error);
gboolean     fl_store_load_events   (FlStore              *store,
                                     gint64                run_id,
                                     guint32               first_step,
                                     guint32               last_step,
                                     GArray               *out_events,
                                     GError              **error);
GPtrArray   *fl_store_list_findings (FlStore              *store,
                                     gint64                run_id,
                                     GError              **error);

/* ---- bookmarks ------------------------------------------------------------------------- */

typedef struct {
  gint64   id;
  gint64   run_id;
  guint32  step;
  char    *title;
  char    *note;
  gint64   created;
  gint64   updated;
} FlStoredBookmark;

void fl_stored_bookmark_free (FlStoredBookmark *bookmark);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (FlStoredBookmark, fl_stored_bookmark_free)

gboolean          fl_store_add_bookmark    (FlStore     *store,
                                            gint64       run_id,
                                            guint32      step,
                                            const char  *title,
                                            const char  *note,
                                            gint64      *out_id,
                                            GError     **error);
gboolean          fl_store_edit_bookmark   (FlStore     *store,
                                            gint64       id,
                                            guint32      step,
                                            const char  *title,
                                            const char  *note,
                                            GError     **error);
gboolean          fl_store_delete_bookmark (FlStore     *store,
                                            gint64       id,
                                            GError     **error);
FlStoredBookmark *fl_store_get_bookmark    (FlStore     *store,
                                            gint64       id,
                                            GError     **error);
GPtrArray        *fl_store_list_bookmarks  (FlStore     *store,
                                            gint64       run_id,
                                            GError     **error);

/* ---- explorations ---------------------------------------------------------------------- */

/* One `faultline-cli explore` of a scenario: how it searched and what it concluded. The runs
 * of its counterexamples point back to it (FlStoredRun.exploration_id). */
typedef struct {
  gint64   id;              /* ignored by fl_store_add_exploration() */
  gint64   scenario_id;
  char    *scenario_name;   /* read back only */
  char    *config;          /* the switches explored (fl_config_describe()) */
  char    *bounds;          /* the search (fl_explore_options_describe()) */
  char    *verdict;         /* complete, bounded or found */
  char    *stopped_by;      /* none, max-schedules, time-limit, ... */
  guint    bound;           /* the preemption bound reached */
  guint64  schedules;       /* run to their end */
  guint64  executions;      /* with the re-runs of lower bounds */
  guint64  outcomes;        /* distinct */
  guint64  steps;           /* stepped by the search */
  guint    findings;        /* kinds of finding */
  double   seconds;
  gint64   created;         /* unix seconds; 0 = now for fl_store_add_exploration() */
} FlStoredExploration;

void fl_stored_exploration_free (FlStoredExploration *exploration);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (FlStoredExploration, fl_stored_exploration_free)

gboolean             fl_store_add_exploration    (FlStore                    *store,
                                                  const FlStoredExploration  *row,
                                                  gint64                     *out_id,
                                                  GError                    **error);
gboolean             fl_store_delete_exploration (FlStore                    *store,
                                                  gint64                      id,
                                                  GError                    **error);
GPtrArray           *fl_store_list_explorations  (FlStore                    *store,
                                                  gint64                      scenario_id,
                                                  GError                    **error);
FlStoredExploration *fl_store_get_exploration    (FlStore                    *store,
                                                  gint64                      id,
                                                  GError                    **error);
GArray              *fl_store_exploration_runs   (FlStore                    *store,
                                                  gint64                      id,
                                                  GError                    **error);

/* ---- benchmark rows -------------------------------------------------------------------- */

typedef struct {
  gint64   id;              /* ignored by fl_store_add_bench() */
  char    *workload;
  char    *config;
  guint    cpus;
  guint64  faults;
  guint64  cycles;
  double   faults_per_sec;  /* per simulated second */
  double   ratio;           /* against the baseline configuration of the same workload */
  gint64   created;         /* unix seconds; 0 = now for fl_store_add_bench() */
} FlStoredBench;

void fl_stored_bench_free (FlStoredBench *bench);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (FlStoredBench, fl_stored_bench_free)

gboolean   fl_store_add_bench  (FlStore              *store,
                                const FlStoredBench  *row,
                                gint64               *out_id,
                                GError              **error);
GPtrArray *fl_store_list_bench (FlStore              *store,
                                const char           *workload,
                                GError              **error);

G_END_DECLS

#pragma once

/* Between the store and the simulation: record a run, replay one. */

#include "fl-store.h"
#include "fl-run.h"

G_BEGIN_DECLS

typedef struct {
  gboolean matches;         /* same hash and the same number of steps */
  guint64  steps;           /* steps the replay took */
  gint64   first_difference;/* first step whose events differ, -1 when they match */
  char     hash[17];
  char     stored_hash[65];
} FlReplayResult;

char    *fl_store_sim_config_text (FlSim *sim);
char    *fl_store_run_config_text (const FlRun *run);
/* The event-stream hash as a run's hash column holds it (hex). */
char    *fl_store_sim_hash_text   (FlSim *sim);
char    *fl_store_run_hash_text   (const FlRun *run);
gboolean fl_store_run_config_apply (const char     *config_text,
                                    FlConfig       *config,
                                    FlSchedPolicy  *out_policy,
                                    GStrv          *out_switches,
                                    GError        **error);
FlScenario *fl_store_run_prepare (const char     *name,
                                  const char     *text,
                                  const char     *config_text,
                                  FlConfig       *out_config,
                                  FlSchedPolicy  *out_policy,
                                  GStrv          *out_switches,
                                  GError        **error);
gint64   fl_store_record_sim  (FlStore *store, FlSim *sim, gboolean stopped_early, GError **error);
gint64   fl_store_record_run  (FlStore *store, const FlRun *run, gboolean stopped_early,
                               GError **error);
gint64   fl_store_record_found (FlStore *store, FlSim *sim, gboolean stopped_early,
                                gint64 exploration_id, GError **error);
gboolean fl_store_replay_run  (FlStore *store, gint64 run_id, FlReplayResult *out, GError **error);
gboolean fl_store_check_run_steps (FlStore *store, const FlStoredRun *run, GError **error);

G_END_DECLS

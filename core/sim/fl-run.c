/* fl-run.c — a finished run: what a simulation recorded, read only from here on.
 *
 * The simulation that recorded it hands over its FlRecord (events, findings, checkpoints,
 * what the oracle noted beside them) and is freed; what the views ask of the whole run (its
 * length, its last cycle, the counters at its end) is worked out then, once, so that every
 * getter only reads and a run can be shared between threads without locks. The state at a
 * step is a cursor's (fl-cursor.c), which replays from the run's checkpoints. */
#include "fl-run-private.h"
#include "fl-spare.h"

#include <string.h>

typedef struct {
  gconstpointer  key;
  gpointer       data;
  GDestroyNotify free_index;
} FlRunIndex;

/* A run of @rec, which @sim recorded and whose last step @sim stands at; the rest is @sim's. */
static FlRun *
run_new (FlSim *sim, FlRecord *rec)
{
  FlRun *run = g_new0 (FlRun, 1);
  g_atomic_ref_count_init (&run->ref);
  g_mutex_init (&run->index_lock);
  run->indexes = g_array_new (FALSE, FALSE, sizeof (FlRunIndex));
  run->rec = rec;
  run->config = sim->config;
  run->policy = sim->policy;
  run->checkpoint_every = sim->checkpoint_every;
  run->stop = sim->stop;
  run->stop_message = g_strdup (sim->stop_message);
  run->finished = fl_sim_is_finished (sim);
  fl_sim_get_counters (sim, &run->counters);
  run->total_steps = fl_record_total_steps (rec);
  run->last_cycle = fl_event_log_max_cycle (&rec->events);
  run->end_sizes = sim->st.sizes;
  run->end_bytes = fl_state_bytes (&sim->st.sizes);
  run->end_block = fl_spare_alloc (run->end_bytes);
  fl_state_save (&sim->st, run->end_block);
  return run;
}

/**
 * fl_run_new_from_sim:
 * @sim: (transfer full): a simulation that has stepped as far as its run goes
 *
 * Finishes @sim into a run: the run keeps what @sim recorded, and @sim is freed.
 *
 * Returns: (transfer full): the run
 */
FlRun *
fl_run_new_from_sim (FlSim *sim)
{
  g_return_val_if_fail (sim != NULL && !sim->borrowed, NULL);
  /* a simulation seeked back stands in its past: the run's counters are those at its end */
  if (sim->replaying)
    fl_sim_seek (sim, fl_sim_get_total_steps (sim));
  FlRun *run = run_new (sim, sim->rec);
  sim->rec = NULL;
  fl_sim_free (sim);
  return run;
}

/**
 * fl_run_new_snapshot:
 * @sim: a simulation
 *
 * The run @sim has recorded so far, as a run of its own: a copy, so @sim can step on (a
 * test drawing each step as it is taken, say). When @sim was seeked back, a copy of it goes
 * to the recorded end for the run's end.
 *
 * Returns: (transfer full): the run
 */
FlRun *
fl_run_new_snapshot (FlSim *sim)
{
  g_return_val_if_fail (sim != NULL && !sim->borrowed, NULL);
  FlRecord *rec = fl_record_copy (sim->rec, sim->rec->events.len);
  if (!sim->replaying)
    return run_new (sim, rec);
  FlSim *end = fl_sim_new_replayer (sim->rec, &sim->config, sim->policy, sim->stop);
  fl_sim_seek (end, fl_sim_get_total_steps (end));
  end->checkpoint_every = sim->checkpoint_every;
  g_free (end->stop_message);
  end->stop_message = g_strdup (sim->stop_message);
  FlRun *run = run_new (end, rec);
  fl_sim_free (end);
  return run;
}

/**
 * fl_run_new:
 * @scenario: the scenario (copied)
 * @config: (nullable): its configuration; %NULL for the scenario's own
 * @seed: seed of the random scheduling policy
 * @max_steps: stop after this many steps (0: at the run's end)
 * @error: set when the scenario or the configuration cannot be simulated
 *
 * Simulates a run under the scenario's own schedule policy, to its end or @max_steps.
 *
 * Returns: (transfer full): the run, or %NULL
 */
FlRun *
fl_run_new (const FlScenario *scenario, const FlConfig *config, guint64 seed,
            guint64 max_steps, GError **error)
{
  g_return_val_if_fail (scenario != NULL, NULL);
  FlSim *sim = fl_sim_new (scenario, config, seed, error);
  if (sim == NULL)
    return NULL;
  fl_sim_run (sim, max_steps);
  return fl_run_new_from_sim (sim);
}

/**
 * fl_run_ref:
 * @run: a run
 *
 * A reference is not part of what a run is, so a const run can be held on to too.
 *
 * Returns: (transfer full): @run
 */
FlRun *
fl_run_ref (const FlRun *run)
{
  g_return_val_if_fail (run != NULL, NULL);
  FlRun *self = (FlRun *) run;
  g_atomic_ref_count_inc (&self->ref);
  return self;
}

void
fl_run_unref (FlRun *run)
{
  if (run == NULL || !g_atomic_ref_count_dec (&run->ref))
    return;
  for (guint i = 0; i < run->indexes->len; i++)
    {
      FlRunIndex *x = &g_array_index (run->indexes, FlRunIndex, i);
      if (x->free_index != NULL)
        x->free_index (x->data);
    }
  g_array_unref (run->indexes);
  g_mutex_clear (&run->index_lock);
  fl_record_free (run->rec);
  fl_spare_free (run->end_block, run->end_bytes);
  g_free (run->stop_message);
  g_free (run->flat);
  g_free (run);
}

const FlScenario *
fl_run_get_scenario (const FlRun *run)
{
  g_return_val_if_fail (run != NULL, NULL);
  return run->rec->scenario;
}

const FlConfig *
fl_run_get_config (const FlRun *run)
{
  g_return_val_if_fail (run != NULL, NULL);
  return &run->config;
}

guint64
fl_run_get_seed (const FlRun *run)
{
  g_return_val_if_fail (run != NULL, 0);
  return run->rec->seed;
}

FlSchedPolicy
fl_run_get_policy (const FlRun *run)
{
  g_return_val_if_fail (run != NULL, FL_SCHED_TIME);
  return run->policy;
}

/**
 * fl_run_get_hash:
 * @run: a run
 *
 * Returns: the hash of its event stream: its identity with the configuration
 */
guint64
fl_run_get_hash (const FlRun *run)
{
  g_return_val_if_fail (run != NULL, 0);
  return run->rec->hash;
}

/**
 * fl_run_same:
 * @a: a run
 * @b: another
 *
 * Whether @a and @b are the same run of the same scenario: the same text, configuration,
 * seed and schedule policy, and the same events (their hash and count). Two runs made apart
 * can be the same; what tells runs apart is what they are, never where they lie in memory.
 *
 * Returns: %TRUE when they are the same run
 */
gboolean
fl_run_same (const FlRun *a, const FlRun *b)
{
  g_return_val_if_fail (a != NULL && b != NULL, FALSE);
  if (a == b)
    return TRUE;
  if (a->rec->hash != b->rec->hash || a->rec->events.len != b->rec->events.len
      || a->rec->seed != b->rec->seed || a->policy != b->policy
      || g_strcmp0 (a->rec->scenario->text, b->rec->scenario->text) != 0)
    return FALSE;
  g_autofree char *config_a = fl_config_describe_all (&a->config);
  g_autofree char *config_b = fl_config_describe_all (&b->config);
  return strcmp (config_a, config_b) == 0;
}

/**
 * fl_run_is_finished:
 * @run: a run
 *
 * Returns: whether the run went to its natural end (every CPU done or stuck), rather than
 *   being stopped or cut at a number of steps
 */
gboolean
fl_run_is_finished (const FlRun *run)
{
  g_return_val_if_fail (run != NULL, FALSE);
  return run->finished;
}

FlStopReason
fl_run_get_stop_reason (const FlRun *run)
{
  g_return_val_if_fail (run != NULL, FL_STOP_NONE);
  return run->stop;
}

/**
 * fl_run_get_stop_message:
 * @run: a run
 *
 * Returns: (nullable): "stopped at N steps (why)" when the run was stopped, else %NULL
 */
const char *
fl_run_get_stop_message (const FlRun *run)
{
  g_return_val_if_fail (run != NULL, NULL);
  return run->stop_message;
}

guint64
fl_run_get_total_steps (const FlRun *run)
{
  g_return_val_if_fail (run != NULL, 0);
  return run->total_steps;
}

/**
 * fl_run_get_last_cycle:
 * @run: a run
 *
 * Returns: the latest cycle any event reached: where the run's time ends
 */
guint64
fl_run_get_last_cycle (const FlRun *run)
{
  g_return_val_if_fail (run != NULL, 0);
  return run->last_cycle;
}

/**
 * fl_run_get_counters:
 * @run: a run
 * @counters: (out caller-allocates): the counters at the run's end
 */
void
fl_run_get_counters (const FlRun *run, FlCounters *counters)
{
  g_return_if_fail (run != NULL && counters != NULL);
  *counters = run->counters;
}

gsize
fl_run_get_n_events (const FlRun *run)
{
  g_return_val_if_fail (run != NULL, 0);
  return run->rec->events.len;
}

FlEvent
fl_run_get_event (const FlRun *run, gsize index)
{
  FlEvent e = { 0 };
  g_return_val_if_fail (run != NULL && index < run->rec->events.len, e);
  fl_event_log_get (&run->rec->events, index, &e);
  return e;
}

/**
 * fl_run_get_events_range:
 * @run: a run
 * @first: index of the first event to copy
 * @n: how many to copy at most
 * @out: (array length=n): where to copy them
 *
 * Returns: how many events were copied
 */
gsize
fl_run_get_events_range (const FlRun *run, gsize first, gsize n, FlEvent *out)
{
  g_return_val_if_fail (run != NULL, 0);
  return fl_record_events_range (run->rec, first, n, out);
}

/**
 * fl_run_get_events:
 * @run: a run
 * @n_events: (out) (optional): how many events it has
 *
 * The whole run as one array, decoded the first time it is asked for (32 bytes per event
 * on top of the packed 24; fl_run_get_events_range() reads without it), under a once-guard,
 * so that threads asking at once get the same copy.
 *
 * Returns: (transfer none) (array length=n_events): the events, in order
 */
const FlEvent *
fl_run_get_events (const FlRun *run, gsize *n_events)
{
  g_return_val_if_fail (run != NULL, NULL);
  FlRun *self = (FlRun *) run;   /* the once-guarded copy is the only thing a getter writes */
  gsize n = run->rec->events.len;
  if (g_once_init_enter (&self->flat))
    {
      FlEvent *flat = g_new (FlEvent, MAX (n, 1));
      fl_run_get_events_range (run, 0, n, flat);
      g_once_init_leave (&self->flat, flat);
    }
  if (n_events != NULL)
    *n_events = n;
  return run->flat;
}

gsize
fl_run_find_step (const FlRun *run, guint64 step)
{
  g_return_val_if_fail (run != NULL, 0);
  return fl_record_find_step (run->rec, step);
}

/**
 * fl_run_get_findings:
 * @run: a run
 *
 * Returns: (transfer none) (element-type FlFinding): what the oracle found, in step order
 */
const GPtrArray *
fl_run_get_findings (const FlRun *run)
{
  g_return_val_if_fail (run != NULL, NULL);
  return run->rec->findings;
}

/**
 * fl_run_get_unreached:
 * @run: a run
 *
 * Returns: (transfer none) (element-type FlScheduleMiss): the schedule's points its CPUs never
 *   reached
 */
const GArray *
fl_run_get_unreached (const FlRun *run)
{
  g_return_val_if_fail (run != NULL, NULL);
  return run->rec->unreached;
}

/**
 * fl_run_get_step_starts:
 * @run: a run
 *
 * Returns: (transfer none) (element-type FlStepStart): see fl_sim_get_step_starts()
 */
const GArray *
fl_run_get_step_starts (const FlRun *run)
{
  g_return_val_if_fail (run != NULL, NULL);
  return run->rec->step_starts;
}

/**
 * fl_run_get_spf_misses:
 * @run: a run
 *
 * Returns: (transfer none) (element-type FlSpfMiss): its lookups without mmap_sem that missed
 *   a VMA the tree held, in step order
 */
const GArray *
fl_run_get_spf_misses (const FlRun *run)
{
  g_return_val_if_fail (run != NULL, NULL);
  return run->rec->spf_misses;
}

gboolean
fl_run_get_spf_miss (const FlRun *run, guint64 step, guint cpu, FlSpfMiss *out)
{
  g_return_val_if_fail (run != NULL, FALSE);
  return fl_record_spf_miss (run->rec, step, cpu, out);
}

char *
fl_run_describe_unreached (const FlRun *run, const FlScheduleMiss *miss)
{
  g_return_val_if_fail (run != NULL && miss != NULL, NULL);
  return fl_record_describe_unreached (run->rec, miss);
}

/**
 * fl_run_explain_event:
 * @run: a run
 * @event: one of its events
 *
 * Returns: (transfer full) (nullable): see fl_sim_explain_event()
 */
char *
fl_run_explain_event (const FlRun *run, const FlEvent *event)
{
  g_return_val_if_fail (run != NULL && event != NULL, NULL);
  return fl_record_explain_event (run->rec, event);
}

/**
 * fl_run_get_index:
 * @run: a run
 * @key: what the index is: the address of a static of its builder's, say
 * @build: makes it from @run, the first time @key is asked for
 * @user_data: for @build
 * @free_index: (nullable): frees it with the run
 *
 * An index of the whole run, built once and kept with it: what is derived from a run never
 * changes either. Builders run under the run's lock, so threads asking at once get one
 * index, and must not ask the same run for another index.
 *
 * Returns: (transfer none): the index; it must only be read
 */
gconstpointer
fl_run_get_index (const FlRun *run, gconstpointer key, FlRunIndexBuild build,
                  gpointer user_data, GDestroyNotify free_index)
{
  g_return_val_if_fail (run != NULL && key != NULL && build != NULL, NULL);
  FlRun *self = (FlRun *) run;   /* the lock and the list of indexes are no part of the run */
  g_mutex_lock (&self->index_lock);
  gpointer data = NULL;
  gboolean found = FALSE;
  for (guint i = 0; i < self->indexes->len && !found; i++)
    {
      const FlRunIndex *x = &g_array_index (self->indexes, FlRunIndex, i);
      if (x->key == key)
        {
          data = x->data;
          found = TRUE;
        }
    }
  if (!found)
    {
      FlRunIndex x = { key, build (run, user_data), free_index };
      g_array_append_val (self->indexes, x);
      data = x.data;
    }
  g_mutex_unlock (&self->index_lock);
  return data;
}

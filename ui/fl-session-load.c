/* The session's worker: from a scenario to a whole simulated run, off the main thread. */

#include "fl-session-load.h"

/* Steps between two looks at the cancellable and the progress counters. */
#define BATCH 4096

struct _FlLoadJob
{
  /* set by the main thread before the worker starts, read-only afterwards */
  char     *scenario;
  char     *name;
  char     *text;
  GStrv     switches;
  guint64   return_step;
  FlSim    *sim;              /* a run to finish, or NULL for a new one */
  gboolean  continuation;
  gboolean  recorded;         /* fl_load_job_set_recorded() was called */
  guint64   seed;
  FlSchedPolicy policy;
  guint64   max_steps;        /* 0: the run's natural end */
  gint      stop;             /* atomic: fl_load_job_stop() was called */

  /* written by the worker; the base configuration is read after the task completed */
  FlConfig  base_config;
  gint      ops_total;        /* atomic: operations the programs run, repeats expanded */
  gint      ops_started;      /* atomic */
};

FlLoadJob *
fl_load_job_new (const char        *scenario,
                 const char        *name,
                 const char        *text,
                 const char *const *switches,
                 guint64            return_step)
{
  FlLoadJob *job = g_new0 (FlLoadJob, 1);

  job->scenario = g_strdup (scenario);
  job->name = g_strdup (name);
  job->text = g_strdup (text);
  job->switches = g_strdupv ((GStrv) switches);
  job->return_step = return_step;
  return job;
}

void
fl_load_job_set_recorded (FlLoadJob *job, guint64 seed, FlSchedPolicy policy, guint64 max_steps)
{
  job->recorded = TRUE;
  job->seed = seed;
  job->policy = policy;
  job->max_steps = max_steps;
}

FlLoadJob *
fl_load_job_new_continue (FlSim *sim, guint64 return_step)
{
  FlLoadJob *job = g_new0 (FlLoadJob, 1);

  job->sim = sim;
  job->continuation = TRUE;
  job->return_step = return_step;
  return job;
}

void
fl_load_job_free (FlLoadJob *job)
{
  g_free (job->scenario);
  g_free (job->name);
  g_free (job->text);
  g_strfreev (job->switches);
  g_clear_pointer (&job->sim, fl_sim_free);
  g_free (job);
}

void
fl_load_job_stop (FlLoadJob *job)
{
  g_atomic_int_set (&job->stop, TRUE);
}

double
fl_load_job_get_progress (FlLoadJob *job)
{
  int total = g_atomic_int_get (&job->ops_total);
  int started = g_atomic_int_get (&job->ops_started);

  /* the last operation still has its steps to go: never claim to be done before it is */
  if (total <= 0)
    return 0.0;
  return MIN ((double) started / total, 0.99);
}

gboolean
fl_load_job_is_continuation (FlLoadJob *job)
{
  return job->continuation;
}

guint64
fl_load_job_get_return_step (FlLoadJob *job)
{
  return job->return_step;
}

const FlConfig *
fl_load_job_get_base_config (FlLoadJob *job)
{
  return &job->base_config;
}

/* Operations a program runs: a repeat runs its body `count` times and is no operation. */
static guint64
fl_count_ops (const GArray *ops, guint from, guint to)
{
  guint64 n = 0;

  for (guint i = from; i < to && i < ops->len; i++)
    {
      const FlOp *op = &g_array_index (ops, FlOp, i);
      if (op->kind == FL_OP_REPEAT)
        {
          n += (guint64) op->count * fl_count_ops (ops, i + 1, i + 1 + op->body);
          i += op->body;
        }
      else
        n++;
    }
  return n;
}

static void
fl_load_job_count_ops (FlLoadJob *job, const FlScenario *scenario)
{
  guint64 ops = 0;

  for (guint c = 0; c < scenario->programs->len; c++)
    {
      const FlProgram *program = g_ptr_array_index (scenario->programs, c);
      ops += fl_count_ops (program->ops, 0, program->ops->len);
    }
  g_atomic_int_set (&job->ops_total, (gint) MIN (ops, (guint64) G_MAXINT));
}

static FlSim *
fl_load_job_new_sim (FlLoadJob *job, GError **error)
{
  g_autoptr(FlScenario) scenario = NULL;
  FlSim *sim;
  FlConfig config;

  if (job->text != NULL)
    scenario = fl_scenario_parse (job->text, job->name, error);
  else
    scenario = fl_scenario_load (job->scenario, error);
  if (scenario == NULL)
    return NULL;

  /* As faultline-cli run does: the scenario's configuration, then each override. */
  job->base_config = scenario->config;
  config = scenario->config;
  for (guint i = 0; job->switches != NULL && job->switches[i] != NULL; i += 2)
    if (!fl_config_set (&config, job->switches[i], job->switches[i + 1], error))
      return NULL;
  if (!fl_config_validate (&config, error))
    return NULL;

  fl_load_job_count_ops (job, scenario);
  if (!job->recorded)
    return fl_sim_new (scenario, &config, scenario->seed, error);
  sim = fl_sim_new (scenario, &config, job->seed, error);
  if (sim != NULL)
    fl_sim_set_policy (sim, job->policy);
  return sim;
}

void
fl_load_job_run (GTask        *task,
                 gpointer      source_object,
                 gpointer      task_data,
                 GCancellable *cancellable)
{
  FlLoadJob *job = task_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(FlSim) sim = NULL;
  gsize seen = 0;
  gboolean more = TRUE;
  guint64 limit = G_MAXUINT64;

  sim = job->continuation ? g_steal_pointer (&job->sim) : fl_load_job_new_sim (job, &error);
  if (sim == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  if (job->continuation)
    fl_load_job_count_ops (job, fl_sim_get_scenario (sim));
  /* A run recorded as stopped early is shown as far as it went, as a replay takes it. */
  if (job->max_steps != 0)
    limit = MIN (limit, job->max_steps);

  while (more && fl_sim_get_step (sim) < limit)
    {
      gsize n;
      gint started = 0;

      for (guint i = 0; i < BATCH && more && fl_sim_get_step (sim) < limit; i++)
        /* within the budget of its configuration, a run from a store someone sent too */
        more = fl_sim_step_in_budget (sim);

      /* one event at a time from the packed log: a decoded copy of the whole run would
       * cost the window 32 bytes per event for as long as it shows the run */
      n = fl_sim_get_n_events (sim);
      for (; seen < n; seen++)
        started += fl_sim_get_event (sim, seen).kind == FL_EV_OP;
      g_atomic_int_add (&job->ops_started, started);

      if (g_task_return_error_if_cancelled (task))
        return;
      if (g_atomic_int_get (&job->stop))
        {
          fl_sim_interrupt (sim);
          break;
        }
    }

  /* the run's indexes are made here too, off the main thread */
  g_task_return_pointer (task, fl_run_new_from_sim (g_steal_pointer (&sim)),
                         (GDestroyNotify) fl_run_unref);
}

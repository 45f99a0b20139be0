/* fl-sched.c — who steps next: discrete-event time, a scripted schedule, or a seeded dice. */
#include "fl-sim-internal.h"
#include "fl-sim-private.h"

#include <string.h>

guint64
fl_rng_next (FlState *st)
{
  /* the generator's state is part of the machine state, so seeks replay it */
  return fl_xorshift64star (&FL_G_RW (st, rng));
}

static gint
pick_time (FlSim *sim)
{
  const FlState *st = &sim->st;
  gint best = -1;
  if (st->g->rcu.ready == 0 && st->g->ipis_pending == 0)
    {
      /* No CPU has an RCU callback to run or an IPI to take, so the runnable ones are
       * exactly the running ones: visit only those, in increasing id as the full scan would
       * (ties by CPU id). */
      guint64 best_clock = 0;
      for (guint w = 0; w < (st->sizes.ncpus + 63) / 64; w++)
        for (guint64 bits = st->g->running[w]; bits; bits &= bits - 1)
          {
            guint c = w * 64 + (guint) __builtin_ctzll (bits);
            guint64 clock = st->cpus[c].clock;
            if (best < 0 || clock < best_clock)
              {
                best = c;
                best_clock = clock;
              }
          }
      return best;
    }
  for (guint c = 0; c < st->sizes.ncpus; c++)
    if (fl_sim_runnable (sim, c)
        && (best < 0 || st->cpus[c].clock < st->cpus[best].clock))
      best = c;
  return best;
}

static gint
pick_random (FlSim *sim)
{
  guint n = 0;
  for (guint c = 0; c < sim->st.sizes.ncpus; c++)
    n += fl_sim_runnable (sim, c);
  if (n == 0)
    return -1;
  guint k = (guint) (fl_rng_next (&sim->st) % n);
  for (guint c = 0; c < sim->st.sizes.ncpus; c++)
    if (fl_sim_runnable (sim, c) && k-- == 0)
      return c;
  g_assert_not_reached ();
}

/* Has the CPU reached what the schedule entry waits for? Checked before each of its steps
 * (and by fl-cpu-view.c, which tells whose turn it is). */
gboolean
fl_sched_reached (FlSim *sim, const FlScheduleStep *s)
{
  const FlCpu *cpu = &sim->st.cpus[s->cpu];
  switch (s->kind)
    {
    case FL_UNTIL_END:
      return cpu->status == FL_CPU_DONE && !fl_rcu_has_ready (sim, s->cpu);
    case FL_UNTIL_STEPS:
      return sim->st.g->sched_steps >= s->steps;
    case FL_UNTIL_FUNCTION:
    case FL_UNTIL_LOCATION:
      {
        if (cpu->depth == 0)
          return FALSE;
        FlLoc pc = fl_cpu_stack (&sim->st, s->cpu)->frames[cpu->depth - 1].pc;
        const char *colon = strchr (s->target, ':');
        if (colon != NULL)
          {
            g_autofree char *fn = g_strndup (s->target, colon - s->target);
            return strcmp (fl_fn_name (fl_loc_fn (pc)), fn) == 0
                   && strcmp (fl_loc_tag (pc), colon + 1) == 0;
          }
        /* a function name stops on its first line; any other word names a line tag */
        if (strcmp (fl_fn_name (fl_loc_fn (pc)), s->target) == 0)
          return pc == fl_loc_first (fl_loc_fn (pc));
        return strcmp (fl_loc_tag (pc), s->target) == 0;
      }
    }
  return TRUE;
}

/* Only stop points can be missed: `for N` and `until end` simply end with their CPU. A
 * re-run of the same stretch after a seek notes nothing new. */
static void
note_unreached (FlSim *sim, guint index, gboolean stuck)
{
  const FlScheduleStep *s = &g_array_index (sim->scenario->schedule, FlScheduleStep, index);
  if (sim->replaying || (s->kind != FL_UNTIL_FUNCTION && s->kind != FL_UNTIL_LOCATION))
    return;
  for (guint i = 0; i < sim->rec->unreached->len; i++)
    if (g_array_index (sim->rec->unreached, FlScheduleMiss, i).index == index)
      return;
  FlScheduleMiss miss = { index, sim->st.g->step, stuck };
  g_array_append_val (sim->rec->unreached, miss);
}

/**
 * fl_sim_get_unreached:
 * @sim: a simulation
 *
 * Returns: (transfer none) (element-type FlScheduleMiss): the stop points of the schedule
 * that were passed over so far because their CPU never got there, in schedule order.
 */
GArray *
fl_sim_get_unreached (FlSim *sim)
{
  g_return_val_if_fail (sim != NULL, NULL);
  return sim->rec->unreached;
}

/**
 * fl_sim_get_step_starts:
 * @sim: a simulation
 *
 * Returns: (transfer none) (element-type FlStepStart): the recorded steps that did not begin
 * where their CPU's clock stood when the scheduler picked it — held back by the schedule, or
 * an IPI handler waiting for its IPI to arrive — by increasing event index. A step not
 * listed began at its CPU's clock.
 */
GArray *
fl_sim_get_step_starts (FlSim *sim)
{
  g_return_val_if_fail (sim != NULL, NULL);
  return sim->rec->step_starts;
}

/**
 * fl_sim_describe_unreached:
 * @sim: a simulation
 * @miss: one of fl_sim_get_unreached()
 *
 * Returns: (transfer full): e.g. "schedule point 'cpu0 until __do_fault' (line 23) was never
 * reached: cpu0's program ended first".
 */
char *
fl_sim_describe_unreached (FlSim *sim, const FlScheduleMiss *miss)
{
  return fl_record_describe_unreached (sim->rec, miss);
}

char *
fl_record_describe_unreached (const FlRecord *rec, const FlScheduleMiss *miss)
{
  const FlScheduleStep *s = &g_array_index (rec->scenario->schedule, FlScheduleStep, miss->index);
  return g_strdup_printf ("schedule point 'cpu%u until %s' (line %u) was never reached: %s",
                          s->cpu, s->target, s->line,
                          miss->stuck ? "its CPU got stuck first" : "its CPU's program ended first");
}

static gint
pick_script (FlSim *sim)
{
  FlState *st = &sim->st;
  const FlGlobals *g = st->g;
  GArray *schedule = sim->scenario->schedule;
  while (g->sched_index < schedule->len)
    {
      const FlScheduleStep *s = &g_array_index (schedule, FlScheduleStep, g->sched_index);
      const FlCpu *cpu = s->cpu < sim->st.sizes.ncpus ? &sim->st.cpus[s->cpu] : NULL;
      gboolean reached_it = cpu == NULL || fl_sched_reached (sim, s);
      if (reached_it
          || ((cpu->status == FL_CPU_DONE || cpu->status == FL_CPU_STUCK)
              && !fl_sim_runnable (sim, s->cpu)))
        {
          if (!reached_it)
            note_unreached (sim, g->sched_index, cpu->status == FL_CPU_STUCK);
          FL_G_RW (st, sched_index)++;
          FL_G_RW (st, sched_steps) = 0;
          continue;
        }
      if (fl_sim_runnable (sim, s->cpu))
        {
          FL_G_RW (st, sched_steps)++;
          return s->cpu;
        }
      /* the CPU waits (a lock, an IPI, a sleep): the others run by time until it can go on */
      return pick_time (sim);
    }
  return pick_time (sim);
}

gint
fl_sched_pick (FlSim *sim)
{
  switch (sim->policy)
    {
    case FL_SCHED_SCRIPT: return pick_script (sim);
    case FL_SCHED_RANDOM: return pick_random (sim);
    case FL_SCHED_EXTERNAL:
    case FL_SCHED_TIME:
    default: return pick_time (sim);
    }
}

void
fl_sim_set_policy (FlSim *sim, FlSchedPolicy policy)
{
  g_return_if_fail (sim != NULL);
  sim->policy = policy;
}

FlSchedPolicy
fl_sim_get_policy (FlSim *sim)
{
  return sim->policy;
}

/* fl-cpu-view.c — a CPU's stack of functions and where each stands, in the locations of the
 * listings the views show. A frame's pc is where it resumes, named in the locations of the
 * function whose steps it runs (the write variants of the rwsem run the read variants'):
 * fl_frame_loc() turns it into a line of the frame's own listing. What a waiting CPU waits
 * for is fl-cpu-wait.c's. */
#include "fl-cpu-view.h"
#include "fl-cpu-view-private.h"
#include "fl-sim-internal.h"
#include "fl-sim-private.h"

#include <stdio.h>
#include <string.h>

/**
 * fl_cpu_view_decode:
 * @st: a state
 * @cpu: one of its CPUs
 * @out: (out caller-allocates): what @cpu is doing in @st
 *
 * Decodes @cpu from the state alone: the scripted schedule, which the state does not hold,
 * is added by fl_sim_get_cpu_view().
 */
void
fl_cpu_view_decode (const FlState *st, guint cpu, FlCpuView *out)
{
  g_return_if_fail (st != NULL && out != NULL);
  memset (out, 0, sizeof *out);
  out->cpu = cpu;
  out->holder = -1;
  out->fn = FL_FN_USER;
  if (cpu >= st->sizes.ncpus)
    {
      out->status = FL_CPU_DONE;
      out->loc = out->next = FL_LOC_USER_done;
      return;
    }
  const FlCpu *c = &st->cpus[cpu];
  out->status = c->status;
  out->irqs_off = c->irqs_off;
  out->ipi_first = c->ipi_pending && !c->irqs_off && c->status != FL_CPU_STUCK;
  out->depth = MIN (c->depth, FL_MAX_DEPTH);
  const FlFrame *frames = fl_cpu_stack (st, cpu)->frames;
  for (guint i = 0; i < out->depth; i++)
    {
      out->frames[i].fn = frames[i].fn;
      out->frames[i].loc = fl_frame_loc (&frames[i]);
    }
  if (out->depth > 0)
    {
      out->fn = out->frames[out->depth - 1].fn;
      out->next = out->frames[out->depth - 1].loc;
    }
  else
    out->next = c->status == FL_CPU_DONE ? FL_LOC_USER_done : FL_LOC_USER_next_op;
  out->loc = out->next;
  fl_cpu_wait_decode (st, c, out);
  if (out->depth > 0)
    out->frames[out->depth - 1].loc = out->loc;
  fl_cpu_fault_decode (st, cpu, &out->fault);
}

gboolean
fl_cpu_view_is_waiting (const FlCpuView *view)
{
  g_return_val_if_fail (view != NULL, FALSE);
  return view->wait != FL_CPU_WAIT_NONE;
}

gboolean
fl_cpu_view_waits_on (const FlCpuView *view, guint cpu)
{
  g_return_val_if_fail (view != NULL, FALSE);
  return cpu < FL_MAX_CPUS && ((view->waits_on[cpu / 64] >> (cpu % 64)) & 1);
}

guint
fl_cpu_view_n_waits_on (const FlCpuView *view)
{
  g_return_val_if_fail (view != NULL, 0);
  guint n = 0;
  for (guint w = 0; w < G_N_ELEMENTS (view->waits_on); w++)
    n += (guint) __builtin_popcountll (view->waits_on[w]);
  return n;
}

/**
 * fl_cpu_view_listing:
 * @view: a decoded CPU
 * @config: (nullable): the switches of the run
 *
 * Returns: (transfer none) (nullable): the listing of the function @view is in, as @config
 *   runs it (fl_listing_get_for())
 */
FlListing *
fl_cpu_view_listing (const FlCpuView *view, const FlConfig *config)
{
  g_return_val_if_fail (view != NULL, NULL);
  return (guint) view->fn < FL_FN_N ? fl_listing_get_for (view->fn, config) : NULL;
}

/**
 * fl_cpu_view_line:
 * @view: a decoded CPU
 * @config: (nullable): the switches of the run
 *
 * Returns: the index of @view's current line in fl_cpu_view_listing(), or -1 when there is
 *   no listing or no line for it
 */
gint
fl_cpu_view_line (const FlCpuView *view, const FlConfig *config)
{
  FlListing *listing = fl_cpu_view_listing (view, config);
  return listing ? fl_listing_line_of (listing, view->loc) : -1;
}

/* The CPU the scripted schedule steps next, as fl-sched.c's pick_script() will choose it but
 * without moving the script on; -1 when the script is over or its CPU waits (then every CPU
 * runs by time). `entry` is the [schedule] entry that runs. */
static gint
script_cpu (FlSim *sim, guint *entry)
{
  const FlState *st = fl_sim_get_state (sim);
  GArray *schedule = fl_sim_get_scenario (sim)->schedule;
  for (guint i = st->g->sched_index; i < schedule->len; i++)
    {
      const FlScheduleStep *s = &g_array_index (schedule, FlScheduleStep, i);
      if (s->cpu >= st->sizes.ncpus)
        continue;
      /* an entry after the current one starts with its step count at 0 */
      gboolean reached_it = i > st->g->sched_index && s->kind == FL_UNTIL_STEPS
                            ? s->steps == 0 : fl_sched_reached (sim, s);
      FlCpuStatus status = st->cpus[s->cpu].status;
      if (reached_it || ((status == FL_CPU_DONE || status == FL_CPU_STUCK)
                         && !fl_sim_runnable (sim, s->cpu)))
        continue;
      *entry = i;
      return fl_sim_runnable (sim, s->cpu) ? (gint) s->cpu : -1;
    }
  return -1;
}

/* A CPU that could step but whose turn the script has not given it yet. */
static void
script_wait (FlSim *sim, FlCpuView *out)
{
  guint entry = 0;
  gint turn = script_cpu (sim, &entry);
  if (turn < 0 || (guint) turn == out->cpu || !fl_sim_runnable (sim, out->cpu))
    return;
  const FlScheduleStep *s = &g_array_index (fl_sim_get_scenario (sim)->schedule,
                                            FlScheduleStep, entry);
  out->wait = FL_CPU_WAIT_SCHEDULE;
  out->script_entry = entry;
  out->holder = turn;
  out->waits_on[turn / 64] |= G_GUINT64_CONSTANT (1) << (turn % 64);
  if (s->kind == FL_UNTIL_STEPS)
    g_snprintf (out->wait_name, sizeof out->wait_name, "cpu%d for %" G_GUINT64_FORMAT " steps",
                turn, s->steps);
  else
    g_snprintf (out->wait_name, sizeof out->wait_name, "cpu%d until %s", turn,
                s->kind == FL_UNTIL_END ? "end" : s->target);
}

/**
 * fl_sim_get_cpu_view:
 * @sim: a simulation
 * @cpu: one of its CPUs
 * @out: (out caller-allocates): what @cpu is doing at @sim's current step
 *
 * fl_cpu_view_decode() of the current state, and, under a scripted schedule, whether @cpu
 * waits for its turn.
 */
void
fl_sim_get_cpu_view (FlSim *sim, guint cpu, FlCpuView *out)
{
  g_return_if_fail (sim != NULL && out != NULL);
  fl_cpu_view_decode (fl_sim_get_state (sim), cpu, out);
  if (fl_sim_get_policy (sim) == FL_SCHED_SCRIPT && out->wait == FL_CPU_WAIT_NONE
      && cpu < fl_sim_get_state (sim)->sizes.ncpus)
    script_wait (sim, out);
}

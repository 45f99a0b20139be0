/* fl-cpu-view.c — a CPU's stack of functions and where each stands, in the locations of the
 * listings the views show. A frame's pc is where it resumes, named in the locations of the
 * function whose steps it runs (the write variants of the rwsem run the read variants'):
 * fl_frame_loc() turns it into a line of the frame's own listing. What a waiting CPU waits
 * for is fl-cpu-wait.c's. */
#include "fl-cpu-view.h"
#include "fl-cpu-view-private.h"
#include "fl-machine.h"

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
  for (guint i = 0; i < out->depth; i++)
    {
      out->frames[i].fn = c->frames[i].fn;
      out->frames[i].loc = fl_frame_loc (&c->frames[i]);
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

/**
 * fl_sim_get_cpu_view:
 * @sim: a simulation
 * @cpu: one of its CPUs
 * @out: (out caller-allocates): what @cpu is doing at @sim's current step
 */
void
fl_sim_get_cpu_view (FlSim *sim, guint cpu, FlCpuView *out)
{
  g_return_if_fail (sim != NULL && out != NULL);
  fl_cpu_view_decode (fl_sim_get_state (sim), cpu, out);
}

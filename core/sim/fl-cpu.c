/* fl-cpu.c — frames, parking and waking, IRQ state: how a CPU runs its stack of step machines. */
#include "fl-sim-internal.h"

#include <string.h>

/**
 * fl_call:
 * @sim: the simulation
 * @cpu: the calling CPU
 * @fn: the function to enter
 * @resume_at: where the caller continues when @fn returns (its `ret` holds the value)
 * @subject: what the call's event names (its first argument: the address, the VMA, ...)
 *
 * Pushes a frame for @fn, its locals zero; the caller fills in the arguments (the member of
 * the frame's `l` named after @fn). Its first line runs on the next step.
 *
 * Returns: the new frame
 */
FlFrame *
fl_call (FlSim *sim, guint cpu, FlFn fn, FlLoc resume_at, guint32 subject)
{
  guint depth = sim->st.cpus[cpu].depth;
  g_assert (depth < FL_MAX_DEPTH);
  if (depth > 0)
    fl_frame_rw (&sim->st, cpu, depth - 1)->pc = resume_at;
  FL_CPU_RW (&sim->st, cpu, depth) = depth + 1;
  FlFrame *f = fl_frame_rw (&sim->st, cpu, depth);
  memset (f, 0, sizeof *f);
  f->fn = fn;
  f->pc = fl_loc_first (fl_fn_steps_of (fn));
  fl_ev (sim, FL_EV_CALL, subject, fn);
  return f;
}

FlFrame *
fl_caller (FlSim *sim, guint cpu)
{
  const FlCpu *c = &sim->st.cpus[cpu];
  return c->depth >= 2 ? fl_frame_rw (&sim->st, cpu, c->depth - 2) : NULL;
}

/* Leave the function on top; the caller finds `value` in its frame's `ret`. */
void
fl_return (FlSim *sim, guint cpu, guint32 value)
{
  const FlFrame *frames = fl_cpu_stack (&sim->st, cpu)->frames;
  guint was = sim->st.cpus[cpu].depth, depth = was;
  g_assert (depth > 0);
  depth--;
  /* a caller that tail-called (resume point NONE) returns the same value at once */
  while (depth > 0 && frames[depth - 1].pc == FL_LOC_NONE)
    depth--;
  FL_CPU_RW (&sim->st, cpu, depth) = (guint8) depth;
  /* the frames popped are gone: what they held is no part of the state (the explorer's
   * "same state" compares whole CPUs, and a dead frame's bytes would tell apart two states
   * that differ in nothing that can matter) */
  memset (fl_frames_rw (&sim->st, cpu, depth, was), 0, (was - depth) * sizeof frames[0]);
  if (depth > 0)
    fl_frame_rw (&sim->st, cpu, depth - 1)->ret = value;
  else
    fl_oracle_op_done (sim, cpu);
}

/* The explorer's note of a read of one group of every CPU's fields. */
void
fl_note_all_cpus (FlSim *sim, FlKeyKind group)
{
  if (G_LIKELY (sim->footprint == NULL))
    return;
  for (guint c = 0; c < sim->st.sizes.ncpus; c++)
    fl_footprint_add (sim->footprint, FL_KEY (group, c), FALSE);
}

void
fl_park (FlSim *sim, guint cpu, FlCpuStatus status, guint32 wait_obj)
{
  /* parking asks who waits for whom (the deadlock check): every CPU's waits and IRQs */
  fl_note_all_cpus (sim, FL_KEY_CPU_SCHED);
  fl_note_all_cpus (sim, FL_KEY_CPU_TLB);
  fl_note_all_cpus (sim, FL_KEY_CPU_WRITER);
  fl_cpu_set_status (&sim->st, cpu, status);
  FL_CPU_RW (&sim->st, cpu, wait_obj) = wait_obj;
  FL_CPU_RW (&sim->st, cpu, wait_since) = sim->st.cpus[cpu].clock;
  fl_ev (sim, status == FL_CPU_SPIN ? FL_EV_SPIN : FL_EV_SLEEP, wait_obj, 0);
  fl_oracle_deadlock (sim, cpu);
}

void
fl_wake (FlSim *sim, guint cpu, guint64 at)
{
  if (sim->st.cpus[cpu].status == FL_CPU_STUCK || sim->st.cpus[cpu].status == FL_CPU_DONE)
    return;
  fl_cpu_set_status (&sim->st, cpu, FL_CPU_RUNNING);
  FL_CPU_RW (&sim->st, cpu, clock) = MAX (sim->st.cpus[cpu].clock, at);
}

void
fl_irqs_off (FlSim *sim, guint cpu)
{
  FL_CPU_RW (&sim->st, cpu, irqs_off) = TRUE;
}

/* A TLB-flush IPI that arrived while IRQs were off is taken as the CPU's next step. */
void
fl_irqs_on (FlSim *sim, guint cpu)
{
  FL_CPU_RW (&sim->st, cpu, irqs_off) = FALSE;
}

/* fl-rcu.c — RCU as tree RCU behaves for this model: a read-side section is a per-CPU
 * nesting count; a grace period starts when a callback waits for one and ends once every CPU
 * that was inside a section at its start has left it; then the callbacks run on the CPU that
 * queued them. The patch selects TREE_PREEMPT_RCU (rcu=preemptible, the default), where a
 * reader may block; under rcu=classic a reader that sleeps context-switches, which is a
 * quiescent state: fl_rcu_may_sleep and fl_rcu_sleep. */
#include "fl-sim-internal.h"

#include <string.h>

#define WORDS (FL_MAX_CPUS / 64)

void
fl_rcu_read_lock (FlSim *sim, guint cpu)
{
  if (FL_CPU_RW (&sim->st, cpu, rcu_nesting)++ == 0)
    FL_CPU_RW (&sim->st, cpu, rcu_since_step) = (guint32) sim->st.g->step + 1;
  fl_ev (sim, FL_EV_RCU, cpu, sim->st.cpus[cpu].rcu_nesting);
}

void
fl_rcu_read_unlock (FlSim *sim, guint cpu)
{
  g_assert (sim->st.cpus[cpu].rcu_nesting > 0);
  FL_CPU_RW (&sim->st, cpu, rcu_nesting)--;
  fl_ev (sim, FL_EV_RCU, cpu, sim->st.cpus[cpu].rcu_nesting);
}

/**
 * fl_rcu_may_sleep:
 * @sim: the simulation
 * @cpu: a CPU about to do something that may sleep (might_sleep(): an allocation that may
 *   reclaim, a wait for I/O)
 * @what: what it does, for the finding
 *
 * Under classic RCU a read-side section runs with preemption off, and the kernel's
 * might_sleep() check reports a sleeping call inside one; so does this.
 */
void
fl_rcu_may_sleep (FlSim *sim, guint cpu, const char *what)
{
  const FlCpu *c = &sim->st.cpus[cpu];
  if (sim->config.rcu != FL_RCU_CLASSIC || c->rcu_nesting == 0)
    return;
  fl_finding (sim, cpu, FL_FINDING_SLEEP_IN_RCU, cpu,
              "cpu%u %s inside an RCU read-side section (since step %u): classic RCU runs "
              "readers with preemption off, so a sleep here is a bug", cpu, what,
              c->rcu_since_step);
}

/**
 * fl_rcu_sleep:
 * @sim: the simulation
 * @cpu: a CPU that sleeps now (its task is switched out)
 * @what: what it waits for, for the finding
 *
 * Under classic RCU the context switch is a quiescent state of @cpu even inside a read-side
 * section: a grace period in progress stops waiting for it, and what it still holds can be
 * freed under it. Under preemptible RCU a blocked reader keeps the grace period waiting.
 */
void
fl_rcu_sleep (FlSim *sim, guint cpu, const char *what)
{
  fl_rcu_may_sleep (sim, cpu, what);
  const FlRcu *r = &sim->st.g->rcu;
  if (sim->config.rcu == FL_RCU_CLASSIC && r->in_progress)
    FL_G_RW (&sim->st, rcu.qs_needed[cpu / 64]) &= ~(G_GUINT64_CONSTANT (1) << (cpu % 64));
}

/* call_rcu: the callback waits for the next grace period to start and end. */
void
fl_rcu_call (FlSim *sim, guint cpu, guint32 vma)
{
  FlState *st = &sim->st;
  /* one slot per VMA waiting to be freed, and VMAs are at most FL_MAX_VMAS: there is a
   * slot to grow into whenever none is free */
  for (guint i = 1; i <= st->sizes.ncbs; i++)
    {
      if (i == st->sizes.ncbs)
        fl_state_need_cb (st, i);
      if (st->cbs[i].obj != 0)
        continue;
      FlRcuCb *cb = fl_cb_rw (st, i);
      memset (cb, 0, sizeof *cb);
      cb->obj = vma;
      cb->cpu = cpu;
      cb->queued_step = (guint32) st->g->step + 1;
      cb->kind = FL_RCU_CB_FREE_VMA;
      fl_vma_rw (st, vma)->state = FL_OBJ_RCU_PENDING;
      FL_G_RW (st, rcu.unassigned)++;
      return;
    }
  g_assert_not_reached ();
}

static void
start_gp (FlSim *sim)
{
  FlState *st = &sim->st;
  const FlRcu *r = &st->g->rcu;
  /* checked after every step: without the count, every step would scan every slot */
  if (r->unassigned == 0)
    return;
  for (guint i = 1; i < st->sizes.ncbs; i++)
    if (st->cbs[i].obj && st->cbs[i].gp == 0)
      fl_cb_rw (st, i)->gp = r->gp + 1;
  FL_G_RW (st, rcu.unassigned) = 0;
  FL_G_RW (st, rcu.in_progress) = TRUE;
  FL_G_RW (st, rcu.gp_started_step) = (guint32) st->g->step + 1;
  memset (&FL_G_RW (st, rcu.qs_needed), 0, sizeof r->qs_needed);
  fl_note_all_cpus (sim, FL_KEY_CPU_RCU);
  /* only CPUs inside a read-side section now can hold a reference to what was unlinked */
  for (guint c = 0; c < st->sizes.ncpus; c++)
    if (st->cpus[c].rcu_nesting > 0)
      FL_G_RW (st, rcu.qs_needed[c / 64]) |= G_GUINT64_CONSTANT (1) << (c % 64);
}

static gboolean
mask_empty (const guint64 *m)
{
  for (guint w = 0; w < WORDS; w++)
    if (m[w])
      return FALSE;
  return TRUE;
}

/* A grace period under way or one to start: note a quiescent state, end it, start the next.
 * Kept out of fl_rcu_after_step, whose every call but a few returns before. */
static G_GNUC_NO_INLINE void
grace_period_step (FlSim *sim, guint cpu)
{
  FlState *st = &sim->st;
  const FlRcu *r = &st->g->rcu;
  if (r->in_progress)
    {
      guint64 bit = G_GUINT64_CONSTANT (1) << (cpu % 64);
      /* written only when the bit is still set: every step comes here */
      if (st->cpus[cpu].rcu_nesting == 0 && (r->qs_needed[cpu / 64] & bit))
        FL_G_RW (st, rcu.qs_needed[cpu / 64]) &= ~bit;
      if (mask_empty (r->qs_needed))
        {
          FL_G_RW (st, rcu.gp)++;
          FL_G_RW (st, rcu.in_progress) = FALSE;
          for (guint i = 1; i < st->sizes.ncbs; i++)
            if (st->cbs[i].obj && st->cbs[i].gp && st->cbs[i].gp <= r->gp && !st->cbs[i].ready)
              {
                fl_cb_rw (st, i)->ready = TRUE;
                FL_CPU_RW (st, st->cbs[i].cpu, rcu_ready)++;
                FL_G_RW (st, rcu.ready)++;
              }
        }
    }
  if (!r->in_progress)
    start_gp (sim);
}

/* After every step: RCU's part of it (grace_period_step), when there is one. */
void
fl_rcu_after_step (FlSim *sim, guint cpu)
{
  const FlRcu *r = &sim->st.g->rcu;
  /* any CPU's step may be the one that ends a grace period: for the explorer, every step
   * reads the RCU state (whether one runs, first of all) */
  fl_note (sim, FL_KEY (FL_KEY_LINE, FL_LINE_RCU), FALSE);
  if (r->in_progress || r->unassigned != 0)
    grace_period_step (sim, cpu);
}

/* Asked for every CPU that could step, every step: a count, not a scan of the slots. */
gboolean
fl_rcu_has_ready (FlSim *sim, guint cpu)
{
  return sim->st.cpus[cpu].rcu_ready > 0;
}

gboolean
fl_rcu_idle (FlSim *sim)
{
  FlState *st = &sim->st;
  for (guint i = 1; i < st->sizes.ncbs; i++)
    if (st->cbs[i].obj)
      return FALSE;
  return TRUE;
}

/* rcu_do_batch → free_vma_rcu: one callback per step. The oracle double-checks the grace
 * period: no reader that began before call_rcu may still be inside its section. */
void
fl_rcu_do_batch (FlSim *sim, guint cpu)
{
  FlState *st = &sim->st;
  for (guint i = 1; i < st->sizes.ncbs; i++)
    {
      const FlRcuCb *cb = &st->cbs[i];
      if (!cb->obj || !cb->ready || cb->cpu != cpu)
        continue;
      fl_note_all_cpus (sim, FL_KEY_CPU_RCU);
      for (guint c = 0; c < st->sizes.ncpus; c++)
        if (st->cpus[c].rcu_nesting > 0 && st->cpus[c].rcu_since_step < cb->queued_step)
          fl_finding (sim, cpu, FL_FINDING_RCU_EARLY_FREE, cb->obj,
                      "VMA %u is freed by its RCU callback while cpu%u, in a read-side section "
                      "since step %u, may still use it", cb->obj, c, st->cpus[c].rcu_since_step);
      sim->ev.loc = FL_LOC_RCU_DO_BATCH_invoke;
      fl_touch (sim, cpu, fl_line_of_vma (st, cb->obj), FL_ACCESS_WRITE);
      fl_ev (sim, FL_EV_FREE, cb->obj, st->g->rcu.gp);
      fl_vma_free_now (sim, cb->obj);
      memset (fl_cb_rw (st, i), 0, sizeof *cb);
      FL_CPU_RW (st, cpu, rcu_ready)--;
      FL_G_RW (st, rcu.ready)--;
      return;
    }
}

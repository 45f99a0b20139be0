/* fl-refcount.c — Kamezawa Hiroyuki's speculative page fault (fault-path=speculative-refcount,
 * "speculative page fault v3", 25 Dec 2009, and his fix of 5 Jan 2010). No mmap_sem and no
 * sequence count: find_vma_speculative walks the VMA tree inside an RCU read-side section and
 * pins the VMA it finds with an atomic on the VMA's own reference count; the RCU section ends
 * there, and the fault runs the usual handle_mm_fault under the reference, then vma_put drops
 * it. munmap and vma_adjust (still under mmap_sem for writing) unlink the VMA and wait until
 * its references are gone before they zap, unhook or free anything. A lookup that misses
 * (the walk raced a rotation) or finds the VMA already dying sends the fault down the locked
 * path. The count lives on a line of its own per VMA (fl_line_of_vma_ref): it moves between
 * CPUs that fault in one VMA, and stays put when each faults in its own. */
#include "fl-sim-internal.h"

/* VMA_FREE_MAGIC of the 5 Jan version: munmap subtracts it, so a late lookup sees a negative
 * count and backs out; munmap waits for the count to come back to minus the bias. */
#define REF_BIAS 10000000

/* The count as the kernel keeps it. v3 as posted: 1 (the tree's own) plus the faults', the
 * tree's dropped by invalidate_vma_before_free. Biased: the faults' alone, less the bias
 * once the VMA is dying. */
static gint64
refcnt_value (const FlSim *sim, const FlVma *v)
{
  if (sim->config.vma_refcount == FL_VMA_REFCOUNT_AS_POSTED)
    return 1 + (gint64) v->refs - (v->ref_dying ? 1 : 0);
  return (gint64) v->refs - (v->ref_dying ? REF_BIAS : 0);
}

/* What the waiting writer waits for: every fault's reference gone (0 as posted, -bias). */
static gboolean
writer_may_go (const FlVma *v)
{
  return v->ref_dying && v->refs == 0;
}

/* When vma_put wakes the wait queue: as posted, when the count falls to 1 (right for the
 * tree's reference still there, wrong once munmap dropped it); biased, at minus the bias. */
static gboolean
put_wakes (const FlSim *sim, gint64 value)
{
  return sim->config.vma_refcount == FL_VMA_REFCOUNT_AS_POSTED ? value == 1 : value == -REF_BIAS;
}

/**
 * fl_refcount_holders:
 * @st: a state
 * @vma: a VMA id
 * @out: (out caller-allocates): room for FL_MAX_CPUS CPU numbers
 *
 * Returns: how many CPUs hold a reference to @vma (find_vma_speculative took it, vma_put has
 *   not yet dropped it), stored in @out
 */
guint
fl_refcount_holders (const FlState *st, guint32 vma, guint *out)
{
  guint n = 0;
  for (guint c = 0; c < st->sizes.ncpus; c++)
    {
      const FlCpu *cpu = &st->cpus[c];
      gboolean holds = FALSE;
      for (guint i = 0; i < MIN (cpu->depth, FL_MAX_DEPTH) && !holds; i++)
        {
          const FlFrame *f = &fl_cpu_stack (st, c)->frames[i];
          if (f->fn == FL_FN_DO_PAGE_FAULT)
            holds = f->l.do_page_fault.by_reference && fl_ref_id (f->l.do_page_fault.vma) == vma;
          else if (f->fn == FL_FN_FIND_VMA_SPECULATIVE)
            holds = (f->pc == FL_LOC_FIND_VMA_SPECULATIVE_put_back
                     || f->pc == FL_LOC_FIND_VMA_SPECULATIVE_rcu_read_unlock)
                    && fl_ref_id (f->l.find_vma_spec.vma) == vma;
          else if (f->fn == FL_FN_VMA_PUT)
            holds = f->pc == FL_LOC_VMA_PUT_dec && fl_ref_id (f->l.vma_ref.vma) == vma;
        }
      if (holds)
        out[n++] = c;
    }
  return n;
}

static gboolean
anyone_waits (const FlSim *sim, guint32 vma)
{
  const FlState *st = &sim->st;
  for (guint c = 0; c < st->sizes.ncpus; c++)
    if (st->cpus[c].status == FL_CPU_SLEEP && st->cpus[c].wait_obj == FL_VMA_REF_WAIT (vma))
      return TRUE;
  return FALSE;
}

/* The events' values: the references the faults hold (the kernel's count less its base).
 *
 * find_vma_speculative. Returns the VMA with a reference taken, or 0. */
static void
step_find_vma_speculative (FlSim *sim, guint cpu, FlFrame *f)
{
  FlState *st = &sim->st;
  FlLocalsFindVmaSpeculative *l = &f->l.find_vma_spec;
  guint64 addr = l->addr;
  switch (f->pc)
    {
    case FL_LOC_FIND_VMA_SPECULATIVE_rcu_read_lock:
      fl_rcu_read_lock (sim, cpu);
      f->pc = FL_LOC_FIND_VMA_SPECULATIVE_root;
      return;
    case FL_LOC_FIND_VMA_SPECULATIVE_root:
      /* mm->mm_rb sits on mm_struct's first line, next to mmap_cache, which this lookup
       * neither reads nor writes */
      fl_touch (sim, cpu, FL_LINE_MM_MMAP, FL_ACCESS_READ);
      l->node = fl_vma_ref (st, st->g->mm.root);
      l->vma = 0;
      fl_ev (sim, FL_EV_LOAD, st->g->mm.root, 0);
      f->pc = FL_LOC_FIND_VMA_SPECULATIVE_walk;
      fl_walk_begin (sim, cpu, addr);     /* the oracle notes what the walk should find */
      return;
    case FL_LOC_FIND_VMA_SPECULATIVE_walk:
      {
        guint32 ref = l->node, id = fl_ref_id (ref);
        if (id == 0)
          {
            fl_ev (sim, FL_EV_TREE, 0, 0);
            f->pc = FL_LOC_FIND_VMA_SPECULATIVE_check_range;
            return;
          }
        if (!fl_check_vma (sim, cpu, ref))
          {
            /* a freed node (vma-free=immediate): the walk cannot go on from it */
            l->vma = 0;
            f->pc = FL_LOC_FIND_VMA_SPECULATIVE_rcu_read_unlock;
            fl_walk_end (sim, cpu, addr, 0);
            return;
          }
        const FlVma *v = &st->vmas[id];
        fl_touch (sim, cpu, fl_line_of_vma (st, id), FL_ACCESS_READ);
        fl_ev (sim, FL_EV_LOAD, id, v->end > addr);
        if (v->end > addr)
          {
            l->vma = ref;
            if (v->start <= addr)
              {
                f->pc = FL_LOC_FIND_VMA_SPECULATIVE_check_range;
                return;
              }
            l->node = fl_vma_ref (st, v->rb.left);
          }
        else
          l->node = fl_vma_ref (st, v->rb.right);
        return;
      }
    case FL_LOC_FIND_VMA_SPECULATIVE_check_range:
      {
        /* unlike find_vma, only a VMA that contains the address will do */
        guint32 ref = l->vma, id = fl_ref_id (ref);
        gboolean inside = FALSE;
        /* a walk that missed a VMA the tree held all along (a rotation under it) falls back
         * below like any other miss; the oracle counts it and says why */
        fl_walk_end (sim, cpu, addr, ref);
        if (id && fl_check_vma (sim, cpu, ref))
          {
            fl_touch (sim, cpu, fl_line_of_vma (st, id), FL_ACCESS_READ);
            inside = st->vmas[id].start <= addr && addr < st->vmas[id].end;
          }
        fl_ev (sim, FL_EV_CHECK, id, inside);
        if (!inside)
          l->vma = 0;
        f->pc = inside ? FL_LOC_FIND_VMA_SPECULATIVE_get : FL_LOC_FIND_VMA_SPECULATIVE_rcu_read_unlock;
        return;
      }
    case FL_LOC_FIND_VMA_SPECULATIVE_get:
      {
        guint32 ref = l->vma, id = fl_ref_id (ref);
        if (!fl_check_vma (sim, cpu, ref))
          {
            l->vma = 0;
            f->pc = FL_LOC_FIND_VMA_SPECULATIVE_rcu_read_unlock;
            return;
          }
        const FlVma *v = &st->vmas[id];
        guint line = fl_line_of_vma_ref (st, id);
        f->pc = FL_LOC_FIND_VMA_SPECULATIVE_rcu_read_unlock;
        if (sim->config.vma_refcount == FL_VMA_REFCOUNT_AS_POSTED)
          {
            /* atomic_inc_not_zero: read the count, then lock cmpxchg it one higher unless it
             * is 0 (munmap dropped the last reference: the VMA is on its way out). One step:
             * the model does not let another CPU between the read and the cmpxchg. */
            fl_touch (sim, cpu, line, FL_ACCESS_READ);
            gint64 was = refcnt_value (sim, v);
            if (was == 0)
              {
                fl_ev (sim, FL_EV_CHECK, id, 0);
                l->vma = 0;
                return;
              }
            fl_touch (sim, cpu, line, FL_ACCESS_RMW);
            fl_vma_rw (st, id)->refs++;
            fl_ev (sim, FL_EV_RMW, id, (guint32) v->refs);
            return;
          }
        /* atomic_inc_return: one lock xadd; a negative result means munmap has subtracted
         * the bias, and the reference just taken must go back */
        fl_touch (sim, cpu, line, FL_ACCESS_RMW);
        fl_vma_rw (st, id)->refs++;
        gint64 now = refcnt_value (sim, v);
        fl_ev (sim, FL_EV_RMW, id, (guint32) v->refs);
        if (now < 0)
          f->pc = FL_LOC_FIND_VMA_SPECULATIVE_put_back;
        return;
      }
    case FL_LOC_FIND_VMA_SPECULATIVE_put_back:
      {
        guint32 ref = l->vma;
        l->vma = 0;
        fl_call (sim, cpu, FL_FN_VMA_PUT, FL_LOC_FIND_VMA_SPECULATIVE_rcu_read_unlock,
                 ref)->l.vma_ref.vma = ref;
        return;
      }
    case FL_LOC_FIND_VMA_SPECULATIVE_rcu_read_unlock:
      /* from here only the reference keeps the VMA: the RCU section ends with the lookup */
      fl_rcu_read_unlock (sim, cpu);
      fl_return (sim, cpu, l->vma);
      return;
    default:
      g_assert_not_reached ();
    }
}

/* The oracle's check after a vma_put that woke nobody (here, as only this design has the
 * wait): a lost wake-up: a writer asleep on the VMA's wait queue whose condition now holds will
 * never be woken (v3 as posted wakes at a count of 1, the waiter waits for 0). Reported as a
 * deadlock of that CPU, which is stuck from here on.
 */
static void
check_lost_wakeup (FlSim *sim, guint cpu, guint32 vma)
{
  FlState *st = &sim->st;
  if (!writer_may_go (&st->vmas[vma]))
    return;
  for (guint c = 0; c < st->sizes.ncpus; c++)
    if (st->cpus[c].status == FL_CPU_SLEEP && st->cpus[c].wait_obj == FL_VMA_REF_WAIT (vma))
      {
        fl_cpu_set_status (st, c, FL_CPU_STUCK);
        FlFinding *found = fl_finding (sim, c, FL_FINDING_DEADLOCK, vma,
                                       "lost wake-up: cpu%u sleeps until VMA %u's references are "
                                       "gone; cpu%u's vma_put dropped the last one and woke "
                                       "nobody, so cpu%u waits for ever", c, vma, cpu, c);
        if (found)
          {
            found->objects.vma = vma;
            fl_finding_caused_by (sim, found, cpu, st->g->step + 1, FL_DEFECT_NONE,
                                  "cpu%u's vma_put wakes the waiter only when the count falls "
                                  "to 1, not to 0", cpu);
          }
      }
}

/* vma_put(vma), vma a reference. */
static void
step_vma_put (FlSim *sim, guint cpu, FlFrame *f)
{
  FlState *st = &sim->st;
  guint32 ref = f->l.vma_ref.vma, id = fl_ref_id (ref);
  switch (f->pc)
    {
    case FL_LOC_VMA_PUT_dec:
      {
        if (!fl_check_vma (sim, cpu, ref))
          {
            /* the VMA went while we held a reference (vma-refcount=no-wait): the decrement
             * would write freed memory, which the check has just reported */
            fl_return (sim, cpu, 0);
            return;
          }
        FlVma *v = fl_vma_rw (st, id);
        fl_touch (sim, cpu, fl_line_of_vma_ref (st, id), FL_ACCESS_RMW);
        v->refs--;
        gint64 now = refcnt_value (sim, v);
        fl_ev (sim, FL_EV_RMW, id, (guint32) v->refs);
        /* waitqueue_active: the wait queue's head is on the same line, just read */
        if (put_wakes (sim, now) && anyone_waits (sim, id))
          {
            f->pc = FL_LOC_VMA_PUT_wake;
            return;
          }
        check_lost_wakeup (sim, cpu, id);
        fl_return (sim, cpu, 0);
        return;
      }
    case FL_LOC_VMA_PUT_wake:
      {
        /* wake_up: the wait queue's spinlock, on the count's line, then every sleeper is
         * woken (a reschedule IPI each); each tests the count again itself */
        fl_touch (sim, cpu, fl_line_of_vma_ref (st, id), FL_ACCESS_RMW);
        guint64 waited = 0;
        for (guint c = 0; c < st->sizes.ncpus; c++)
          if (st->cpus[c].status == FL_CPU_SLEEP && st->cpus[c].wait_obj == FL_VMA_REF_WAIT (id))
            {
              guint64 at = st->cpus[cpu].clock + sim->config.cost.ipi;
              waited = MAX (waited, at - st->cpus[c].wait_since);
              fl_wake (sim, c, at);
            }
        fl_ev (sim, FL_EV_WAKE, id, (guint32) MIN (waited, G_MAXUINT32));
        fl_return (sim, cpu, 0);
        return;
      }
    default:
      g_assert_not_reached ();
    }
}

/* invalidate_vma_before_free(vma), vma an id: the caller holds mmap_sem for writing and has
 * just unlinked it. */
static void
step_invalidate_vma (FlSim *sim, guint cpu, FlFrame *f)
{
  FlState *st = &sim->st;
  guint32 id = f->l.vma_ref.vma;
  const FlVma *v = &st->vmas[id];
  guint line = fl_line_of_vma_ref (st, id);
  switch (f->pc)
    {
    case FL_LOC_INVALIDATE_VMA_release:
      /* as posted: atomic_dec of the tree's reference; biased: atomic_sub of the bias */
      fl_touch (sim, cpu, line, FL_ACCESS_RMW);
      fl_vma_rw (st, id)->ref_dying = 1;
      fl_ev (sim, FL_EV_RMW, id, (guint32) v->refs);
      if (sim->config.vma_refcount == FL_VMA_REFCOUNT_NO_WAIT)
        fl_return (sim, cpu, 0);
      else
        f->pc = FL_LOC_INVALIDATE_VMA_wait;
      return;
    case FL_LOC_INVALIDATE_VMA_wait:
      {
        /* wait_event: on the wait queue first, then the count tested; asleep until a
         * vma_put wakes us (the test is made again then) */
        fl_touch (sim, cpu, line, FL_ACCESS_READ);
        gboolean go = writer_may_go (v);
        fl_ev (sim, FL_EV_CHECK, id, go);
        if (go)
          {
            fl_return (sim, cpu, 0);
            return;
          }
        f->pc = FL_LOC_INVALIDATE_VMA_woken;
        fl_park (sim, cpu, FL_CPU_SLEEP, FL_VMA_REF_WAIT (id));
        return;
      }
    case FL_LOC_INVALIDATE_VMA_woken:
      fl_ev (sim, FL_EV_CHECK, id, 1);
      f->pc = FL_LOC_INVALIDATE_VMA_wait;
      return;
    default:
      g_assert_not_reached ();
    }
}

const FlStepFn fl_step_find_vma_speculative = step_find_vma_speculative;
const FlStepFn fl_step_vma_put = step_vma_put;
const FlStepFn fl_step_invalidate_vma = step_invalidate_vma;

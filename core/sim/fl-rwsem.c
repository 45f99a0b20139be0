/* fl-rwsem.c — mmap_sem, in the two designs of the story.
 *
 * generic (lib/rwsem-spinlock.c, what x86-64 used in 2.6.32): every down_read, trylock and
 * up_read takes sem->wait_lock, a ticket spinlock, with IRQs off, and updates `activity` on
 * the same cache line. xadd (Linus's x86-64 port of the i386 code): the fast paths are one
 * locked instruction on the count; only contention with a writer takes the slow path.
 *
 * One step function per variant pair: __down_read and __down_write share their steps (the
 * frame's function says which), as do __up_read and __up_write. */
#include "fl-sim-internal.h"

#define WAIT_LOCK FL_LOCK_ID (FL_LOCK_WAIT_LOCK, 0)
#define WRITER_BIT 0x80000000u

static gboolean
is_write (const FlFrame *f)
{
  return f->fn == FL_FN_GENERIC_DOWN_WRITE || f->fn == FL_FN_GENERIC_UP_WRITE
         || f->fn == FL_FN_XADD_DOWN_WRITE || f->fn == FL_FN_XADD_UP_WRITE;
}

/* Can a reader (or writer) have the semaphore right now, without queueing? */
static gboolean
grantable (const FlRwsem *sem, gboolean write)
{
  if (write)
    return sem->activity == 0 && sem->nwaiters == 0;
  return sem->activity >= 0 && sem->nwaiters == 0;
}

/* The semaphore, to write its counts and wait lock (the words before the queue), the queue's
 * length and its first @slots slots: not the rest of its 1 KB queue. */
static FlRwsem *
sem_rw (FlState *st, guint slots)
{
  const FlRwsem *sem = &st->g->mm.sem;
  fl_plain_rw (st, FL_PLAIN_GLOBALS, st->g, sem->waiters, slots * sizeof sem->waiters[0]);
  fl_plain_rw (st, FL_PLAIN_GLOBALS, st->g, &sem->nwaiters, sizeof sem->nwaiters);
  return fl_plain_rw (st, FL_PLAIN_GLOBALS, st->g, sem, G_STRUCT_OFFSET (FlRwsem, waiters));
}

static void
grant (FlSim *sim, guint cpu, gboolean write)
{
  FlRwsem *sem = sem_rw (&sim->st, 0);
  sem->activity = write ? -1 : sem->activity + 1;
  sem->count = write ? -1 : sem->count + 1;
  FL_CPU_RW (&sim->st, cpu, mmap_sem_held) = write ? 2 : 1;
}

/* __up_read / __up_write's count: the CPU holds it no more. */
static void
ungrant (FlSim *sim, guint cpu, gboolean write)
{
  FlRwsem *sem = sem_rw (&sim->st, 0);
  sem->activity = write ? 0 : sem->activity - 1;
  sem->count = sem->activity;
  FL_CPU_RW (&sim->st, cpu, mmap_sem_held) = 0;
}

static void
enqueue (FlSim *sim, guint cpu, gboolean write)
{
  FlRwsem *sem = sem_rw (&sim->st, sim->st.g->mm.sem.nwaiters + 1);
  sem->waiters[sem->nwaiters++] = (cpu + 1) | (write ? WRITER_BIT : 0);
}

/* __rwsem_do_wake: a writer at the head gets it alone; otherwise every reader up to the
 * next writer. Each wakeup is a reschedule IPI. */
static void
wake_waiters (FlSim *sim, guint cpu)
{
  FlState *st = &sim->st;
  const FlRwsem *sem = &st->g->mm.sem;
  guint64 at = st->cpus[cpu].clock;
  guint n = 0;
  while (n < sem->nwaiters)
    {
      guint32 w = sem->waiters[n];
      gboolean write = (w & WRITER_BIT) != 0;
      if (write && (n > 0 || sem->activity != 0))
        break;
      if (!write && sem->activity < 0)
        break;
      guint c = (w & ~WRITER_BIT) - 1;
      grant (sim, c, write);
      fl_wake (sim, c, at + sim->config.cost.ipi);
      n++;
      if (write)
        break;
    }
  FlRwsem *queue = sem_rw (st, sem->nwaiters);
  for (guint i = n; i < queue->nwaiters; i++)
    queue->waiters[i - n] = queue->waiters[i];
  queue->nwaiters -= n;
}

/* __down_read_trylock (generic): wait_lock, look, maybe take, unlock. Returns 1 when held. */
static void
step_generic_trylock (FlSim *sim, guint cpu, FlFrame *f)
{
  const FlRwsem *sem = &sim->st.g->mm.sem;
  switch (f->pc)
    {
    case FL_LOC_GENERIC_DOWN_READ_TRYLOCK_lock:
      fl_irqs_off (sim, cpu);
      f->pc = FL_LOC_GENERIC_DOWN_READ_TRYLOCK_check;
      fl_lock_try (sim, cpu, WAIT_LOCK);
      return;
    case FL_LOC_GENERIC_DOWN_READ_TRYLOCK_check:
      f->l.rwsem.granted = grantable (sem, FALSE);
      fl_touch (sim, cpu, FL_LINE_MM_SEM, f->l.rwsem.granted ? FL_ACCESS_WRITE : FL_ACCESS_READ);
      if (f->l.rwsem.granted)
        grant (sim, cpu, FALSE);
      fl_ev (sim, FL_EV_CHECK, sem->activity, f->l.rwsem.granted);
      f->pc = FL_LOC_GENERIC_DOWN_READ_TRYLOCK_unlock;
      return;
    case FL_LOC_GENERIC_DOWN_READ_TRYLOCK_unlock:
      fl_lock_release (sim, cpu, WAIT_LOCK);
      fl_irqs_on (sim, cpu);
      fl_return (sim, cpu, f->l.rwsem.granted);
      return;
    default:
      g_assert_not_reached ();
    }
}

/* __down_read / __down_write (generic). */
static void
step_generic_down (FlSim *sim, guint cpu, FlFrame *f)
{
  const FlRwsem *sem = &sim->st.g->mm.sem;
  gboolean write = is_write (f);
  switch (f->pc)
    {
    case FL_LOC_GENERIC_DOWN_lock:
      fl_irqs_off (sim, cpu);
      f->pc = FL_LOC_GENERIC_DOWN_check;
      fl_lock_try (sim, cpu, WAIT_LOCK);
      return;
    case FL_LOC_GENERIC_DOWN_check:
      f->l.rwsem.granted = grantable (sem, write);
      fl_touch (sim, cpu, FL_LINE_MM_SEM, FL_ACCESS_WRITE);
      if (f->l.rwsem.granted)
        grant (sim, cpu, write);
      fl_ev (sim, FL_EV_CHECK, sem->activity, f->l.rwsem.granted);
      f->pc = f->l.rwsem.granted ? FL_LOC_GENERIC_DOWN_unlock : FL_LOC_GENERIC_DOWN_queue;
      return;
    case FL_LOC_GENERIC_DOWN_unlock:
      fl_lock_release (sim, cpu, WAIT_LOCK);
      fl_irqs_on (sim, cpu);
      fl_return (sim, cpu, 1);
      return;
    case FL_LOC_GENERIC_DOWN_queue:
      enqueue (sim, cpu, write);
      fl_lock_release (sim, cpu, WAIT_LOCK);
      fl_irqs_on (sim, cpu);
      f->pc = FL_LOC_GENERIC_DOWN_woken;
      fl_park (sim, cpu, FL_CPU_SLEEP, FL_RWSEM_WAIT);
      return;
    case FL_LOC_GENERIC_DOWN_woken:
      fl_ev (sim, FL_EV_WAKE, FL_RWSEM_WAIT, (guint32) MIN (sim->st.cpus[cpu].clock
                                                        - sim->st.cpus[cpu].wait_since, G_MAXUINT32));
      fl_return (sim, cpu, 1);
      return;
    default:
      g_assert_not_reached ();
    }
}

/* __up_read / __up_write (generic). */
static void
step_generic_up (FlSim *sim, guint cpu, FlFrame *f)
{
  const FlRwsem *sem = &sim->st.g->mm.sem;
  switch (f->pc)
    {
    case FL_LOC_GENERIC_UP_lock:
      fl_irqs_off (sim, cpu);
      f->pc = FL_LOC_GENERIC_UP_release;
      fl_lock_try (sim, cpu, WAIT_LOCK);
      return;
    case FL_LOC_GENERIC_UP_release:
      fl_touch (sim, cpu, FL_LINE_MM_SEM, FL_ACCESS_WRITE);
      ungrant (sim, cpu, is_write (f));
      if (sem->activity == 0 && sem->nwaiters > 0)
        wake_waiters (sim, cpu);
      fl_ev (sim, FL_EV_STORE, sem->activity, sem->nwaiters);
      f->pc = FL_LOC_GENERIC_UP_unlock;
      return;
    case FL_LOC_GENERIC_UP_unlock:
      fl_lock_release (sim, cpu, WAIT_LOCK);
      fl_irqs_on (sim, cpu);
      fl_return (sim, cpu, 0);
      return;
    default:
      g_assert_not_reached ();
    }
}

/* __down_read_trylock (xadd): read the count, then cmpxchg it one higher while no writer is
 * active or waiting. */
static void
step_xadd_trylock (FlSim *sim, guint cpu, FlFrame *f)
{
  const FlRwsem *sem = &sim->st.g->mm.sem;
  gboolean unchanged;
  switch (f->pc)
    {
    case FL_LOC_XADD_DOWN_READ_TRYLOCK_load:
      fl_touch (sim, cpu, FL_LINE_MM_SEM, FL_ACCESS_READ);
      fl_ev (sim, FL_EV_LOAD, 0, (guint32) sem->count);
      f->l.rwsem.count_seen = sem->count;
      if (!grantable (sem, FALSE))
        {
          fl_return (sim, cpu, 0);
          return;
        }
      f->pc = FL_LOC_XADD_DOWN_READ_TRYLOCK_cmpxchg;
      return;
    case FL_LOC_XADD_DOWN_READ_TRYLOCK_cmpxchg:
      /* Served by its own copy (its load's, or the one the failed cmpxchg before it left
       * Modified), the count is the one it saw: CPUs that stepped since queued behind this
       * cmpxchg, and their readers' increments and decrements commute with it. The model's
       * count leaves out the waiting bias a queued writer adds in the kernel: a writer come
       * since fails the try either way. */
      unchanged = fl_touch (sim, cpu, FL_LINE_MM_SEM, FL_ACCESS_RMW);
      if ((!unchanged && sem->count != f->l.rwsem.count_seen) || !grantable (sem, FALSE))
        {
          /* Another CPU changed the count since we saw it: the cmpxchg fails and hands back
           * the count it found. A writer in it ends the try; another reader's come or gone
           * means one more cmpxchg with the new value, one more locked bounce of the line. */
          f->l.rwsem.count_seen = sem->count;
          fl_ev (sim, FL_EV_RMW, 0, 0);
          if (!grantable (sem, FALSE))
            fl_return (sim, cpu, 0);
          return;
        }
      grant (sim, cpu, FALSE);
      fl_ev (sim, FL_EV_RMW, 0, (guint32) sem->count);
      fl_return (sim, cpu, 1);
      return;
    default:
      g_assert_not_reached ();
    }
}

/* __down_read / __down_write (xadd): one locked add; a writer in the way means the slow path
 * (rwsem_down_failed_common: queue under wait_lock and sleep). */
static void
step_xadd_down (FlSim *sim, guint cpu, FlFrame *f)
{
  const FlRwsem *sem = &sim->st.g->mm.sem;
  gboolean write = is_write (f);
  switch (f->pc)
    {
    case FL_LOC_XADD_DOWN_xadd:
      fl_touch (sim, cpu, FL_LINE_MM_SEM, FL_ACCESS_RMW);
      f->l.rwsem.granted = grantable (sem, write);
      if (f->l.rwsem.granted)
        {
          grant (sim, cpu, write);
          fl_ev (sim, FL_EV_RMW, 0, (guint32) sem->count);
          fl_return (sim, cpu, 1);
          return;
        }
      fl_ev (sim, FL_EV_RMW, 0, (guint32) sem->count);
      f->pc = FL_LOC_XADD_DOWN_slow;
      return;
    case FL_LOC_XADD_DOWN_slow:
      fl_touch (sim, cpu, FL_LINE_MM_SEM, FL_ACCESS_RMW);
      if (grantable (sem, write))
        {
          /* the holder left in between: the slow path finds no active holder and proceeds */
          grant (sim, cpu, write);
          fl_return (sim, cpu, 1);
          return;
        }
      enqueue (sim, cpu, write);
      f->pc = FL_LOC_XADD_DOWN_woken;
      fl_park (sim, cpu, FL_CPU_SLEEP, FL_RWSEM_WAIT);
      return;
    case FL_LOC_XADD_DOWN_woken:
      fl_ev (sim, FL_EV_WAKE, FL_RWSEM_WAIT, (guint32) MIN (sim->st.cpus[cpu].clock
                                                        - sim->st.cpus[cpu].wait_since, G_MAXUINT32));
      fl_return (sim, cpu, 1);
      return;
    default:
      g_assert_not_reached ();
    }
}

/* __up_read / __up_write (xadd): one locked add; waiters and no active holder → rwsem_wake. */
static void
step_xadd_up (FlSim *sim, guint cpu, FlFrame *f)
{
  const FlRwsem *sem = &sim->st.g->mm.sem;
  switch (f->pc)
    {
    case FL_LOC_XADD_UP_xadd:
      fl_touch (sim, cpu, FL_LINE_MM_SEM, FL_ACCESS_RMW);
      ungrant (sim, cpu, is_write (f));
      fl_ev (sim, FL_EV_RMW, 0, (guint32) sem->count);
      if (sem->activity == 0 && sem->nwaiters > 0)
        {
          f->pc = FL_LOC_XADD_UP_wake;
          return;
        }
      fl_return (sim, cpu, 0);
      return;
    case FL_LOC_XADD_UP_wake:
      /* rwsem_wake takes wait_lock, which lives on the same line */
      fl_touch (sim, cpu, FL_LINE_MM_SEM, FL_ACCESS_RMW);
      wake_waiters (sim, cpu);
      fl_ev (sim, FL_EV_WAKE, FL_RWSEM_WAIT, 0);
      fl_return (sim, cpu, 0);
      return;
    default:
      g_assert_not_reached ();
    }
}

/* the write variants run the read variants' steps (fl-locs.def names these for both) */
const FlStepFn fl_step_generic_down_read_trylock = step_generic_trylock;
const FlStepFn fl_step_generic_down = step_generic_down;
const FlStepFn fl_step_generic_up = step_generic_up;
const FlStepFn fl_step_xadd_down_read_trylock = step_xadd_trylock;
const FlStepFn fl_step_xadd_down = step_xadd_down;
const FlStepFn fl_step_xadd_up = step_xadd_up;

/* Which function models down_read_trylock, down_read, up_read, down_write, up_write. */
FlFn
fl_rwsem_fn (FlSim *sim, FlRwsemOp op)
{
  static const FlFn generic[] = { FL_FN_GENERIC_DOWN_READ_TRYLOCK, FL_FN_GENERIC_DOWN,
                                  FL_FN_GENERIC_UP, FL_FN_GENERIC_DOWN_WRITE,
                                  FL_FN_GENERIC_UP_WRITE };
  static const FlFn xadd[] = { FL_FN_XADD_DOWN_READ_TRYLOCK, FL_FN_XADD_DOWN, FL_FN_XADD_UP,
                               FL_FN_XADD_DOWN_WRITE, FL_FN_XADD_UP_WRITE };
  return sim->config.rwsem == FL_RWSEM_XADD ? xadd[op] : generic[op];
}

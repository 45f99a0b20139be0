/* fl-lock.c — ticket spinlocks, as x86 has used since 2.6.25: a `next` ticket taken with one
 * locked increment and an `owner` the holder bumps on release. Spinners do not take steps:
 * they park holding a shared copy of the line, and each release makes all of them re-read it,
 * one transfer after another, before the next ticket holder sees its turn. */
#include "fl-sim-internal.h"

#include <stdio.h>

typedef struct {
  guint32 *next, *owner;
  gint32  *holder;
  guint    line;
} LockFields;

/* The lock's words, and its line. Written (@write), they are marked first: every lock's
 * `next`, `owner` and `holder` lie together, in this order, so their 12 bytes are what a
 * release or a grab writes. */
static LockFields
fields (FlSim *sim, guint32 lock, gboolean write)
{
  FlState *st = &sim->st;
  const FlGlobals *g = st->g;
  guint32 i = FL_LOCK_INDEX (lock);
  const guint32 *next, *owner;
  const gint32 *holder;
  guint line;
  switch (FL_LOCK_KIND (lock))
    {
    case FL_LOCK_WAIT_LOCK:
      next = &g->mm.sem.wait_next, owner = &g->mm.sem.wait_owner, holder = &g->mm.sem.wait_holder;
      line = FL_LINE_MM_SEM;
      break;
    case FL_LOCK_PAGE_TABLE:
      next = &g->mm.ptl_next, owner = &g->mm.ptl_owner, holder = &g->mm.ptl_holder;
      line = FL_LINE_MM_SEM;
      break;
    case FL_LOCK_ZONE:
      next = &g->zones[i].lock_next, owner = &g->zones[i].lock_owner;
      holder = &g->zones[i].lock_holder;
      line = fl_line_of_zone_lock (st, i);
      break;
    case FL_LOCK_LRU:
      next = &g->zones[i].lru_lock_next, owner = &g->zones[i].lru_lock_owner;
      holder = &g->zones[i].lru_lock_holder;
      line = fl_line_of_lru_lock (st, i);
      break;
    case FL_LOCK_PTL:
    default:
      next = &st->tables[i].ptl_next, owner = &st->tables[i].ptl_owner;
      holder = &st->tables[i].ptl_holder;
      line = fl_line_of_ptl (st, i);
      break;
    }
  if (write)
    {
      gboolean table = FL_LOCK_KIND (lock) == FL_LOCK_PTL;
      fl_plain_rw (st, table ? FL_PLAIN_TABLES : FL_PLAIN_GLOBALS,
                   table ? (const void *) st->tables : (const void *) g, next,
                   (gsize) ((const guint8 *) (holder + 1) - (const guint8 *) next));
    }
  /* only read, or marked above */
  return (LockFields) { (guint32 *) next, (guint32 *) owner, (gint32 *) holder, line };
}

guint
fl_lock_line (FlSim *sim, guint32 lock)
{
  return fields (sim, lock, FALSE).line;
}

gint32
fl_lock_holder (FlSim *sim, guint32 lock)
{
  LockFields f = fields (sim, lock, FALSE);
  /* spin_is_locked: a read of the lock word */
  fl_note (sim, FL_KEY (FL_KEY_LINE, f.line), FALSE);
  return *f.holder;
}

const char *
fl_lock_name (FlSim *sim, guint32 lock, char *buf, gsize size)
{
  switch (FL_LOCK_KIND (lock))
    {
    case FL_LOCK_WAIT_LOCK: return "mmap_sem.wait_lock";
    case FL_LOCK_PAGE_TABLE: return "mm->page_table_lock";
    case FL_LOCK_ZONE:
    case FL_LOCK_LRU:
      {
        /* one zone: its name as 2.6.32 spells it; several: which node's */
        const char *what = FL_LOCK_KIND (lock) == FL_LOCK_ZONE ? "zone->lock" : "zone->lru_lock";
        if (sim == NULL || sim->st.g->nodes <= 1)
          return what;
        snprintf (buf, size, "%s (node %u)", what, FL_LOCK_INDEX (lock));
        return buf;
      }
    default:
      snprintf (buf, size, "PTE lock of table %u", FL_LOCK_INDEX (lock));
      return buf;
    }
}

/**
 * fl_lock_try:
 * @sim: the simulation
 * @cpu: the CPU
 * @lock: the lock
 *
 * spin_lock's ticket grab: one locked increment. Returns %TRUE when the lock was free and is
 * now held; otherwise the CPU keeps its ticket and parks spinning until its turn.
 */
gboolean
fl_lock_try (FlSim *sim, guint cpu, guint32 lock)
{
  LockFields f = fields (sim, lock, TRUE);
  fl_touch (sim, cpu, f.line, FL_ACCESS_RMW);
  guint32 ticket = (*f.next)++;
  if (ticket == *f.owner)
    {
      *f.holder = cpu;
      FL_CPU_RW (&sim->st, cpu, locks_held)++;
      fl_ev (sim, FL_EV_LOCK, lock, ticket);
      return TRUE;
    }
  FL_CPU_RW (&sim->st, cpu, ticket) = ticket;
  fl_park (sim, cpu, FL_CPU_SPIN, lock);
  sim->ev.val = ticket;
  fl_line_add_sharer (&sim->st, f.line, cpu);
  return FALSE;
}

/**
 * fl_spin_trylock:
 * @sim: the simulation
 * @cpu: the CPU
 * @lock: the lock
 *
 * spin_trylock: takes the lock only when nobody holds or waits for it (a compare-and-swap
 * on the lock word); never takes a ticket.
 *
 * Returns: %TRUE when the lock is now held.
 */
gboolean
fl_spin_trylock (FlSim *sim, guint cpu, guint32 lock)
{
  /* marked whether or not it takes the lock: a compare-and-swap is a write */
  LockFields f = fields (sim, lock, TRUE);
  fl_touch (sim, cpu, f.line, FL_ACCESS_RMW);
  if (*f.next != *f.owner)
    {
      fl_ev (sim, FL_EV_CHECK, lock, 0);
      return FALSE;
    }
  (*f.next)++;
  *f.holder = cpu;
  FL_CPU_RW (&sim->st, cpu, locks_held)++;
  fl_ev (sim, FL_EV_LOCK, lock, *f.owner);
  return TRUE;
}

/* The unlock writes the freed page-table page: the CPU that freed it under the lock (its
 * freed-while-locked finding) is the cause. */
static void
freed_lock_released (FlSim *sim, guint cpu, guint32 table)
{
  FlFinding *f = fl_finding (sim, cpu, FL_FINDING_USE_AFTER_FREE, table,
                             "cpu%u releases the PTE lock of page-table page %u after the page "
                             "was freed: the unlock writes freed memory", cpu, table);
  if (f == NULL)
    return;
  f->objects.table = table;
  f->objects.ptl = TRUE;
  f->objects.holder = (gint32) cpu;
  for (guint i = 0; i < sim->rec->findings->len; i++)
    {
      const FlFinding *freed = g_ptr_array_index (sim->rec->findings, i);
      if (freed->kind == FL_FINDING_FREED_WHILE_LOCKED && freed->obj == table)
        {
          fl_finding_caused_by (sim, f, freed->cpu, freed->step, FL_DEFECT_TABLE_FREED,
                                "cpu%u freed page-table page "
                                "%u (step %" G_GUINT64_FORMAT ") while cpu%u held its PTE lock",
                                freed->cpu, table, freed->step, cpu);
          return;
        }
    }
}

/* Release: bump the owner ticket; every spinner re-reads the line in turn (starting after the
 * releasing CPU), and the one holding the next ticket wakes when its re-read completes. */
void
fl_lock_release (FlSim *sim, guint cpu, guint32 lock)
{
  FlState *st = &sim->st;
  if (FL_LOCK_KIND (lock) == FL_LOCK_PTL && st->tables[FL_LOCK_INDEX (lock)].state == FL_OBJ_FREE)
    freed_lock_released (sim, cpu, FL_LOCK_INDEX (lock));
  LockFields f = fields (sim, lock, TRUE);
  fl_touch (sim, cpu, f.line, FL_ACCESS_WRITE);
  (*f.owner)++;
  *f.holder = -1;
  FL_CPU_RW (st, cpu, locks_held)--;
  fl_ev (sim, FL_EV_UNLOCK, lock, *f.owner);

  guint64 at = st->cpus[cpu].clock;
  guint n = st->sizes.ncpus;
  /* The CPUs spinning on it see it free, in the order of the CPUs after this one (wrapping
   * round): first the spinners above `cpu`, then those below. Each re-reads the line, one
   * after another; then the one whose ticket came up holds the lock, and trylock loops try
   * again. A wake changes no line, so the reloads can all be worked out first. */
  const guint64 *spinning = st->g->spinning;
  guint mine = cpu / 64, nwords = (n + 63) / 64;
  guint waiters[FL_MAX_CPUS];
  guint64 seen[FL_MAX_CPUS];
  guint nwaiters = 0;
  for (guint pass = 0; pass < 2; pass++)
    for (guint w = pass == 0 ? mine : 0; w < (pass == 0 ? nwords : mine + 1); w++)
      {
        guint64 bits = spinning[w];
        guint64 me = G_GUINT64_CONSTANT (1) << (cpu % 64);
        if (w == mine)
          bits &= pass == 0 ? ~(me | (me - 1)) : me - 1;
        for (; bits; bits &= bits - 1)
          {
            guint c = w * 64 + (guint) __builtin_ctzll (bits);
            if (st->cpus[c].wait_obj == lock)
              waiters[nwaiters++] = c;
          }
      }
  fl_line_reload_many (sim, f.line, waiters, nwaiters, at, seen);
  for (guint i = 0; i < nwaiters; i++)
    {
      const FlCpu *waiter = &st->cpus[waiters[i]];
      if (waiter->ticket == *f.owner)
        {
          *f.holder = waiters[i];
          FL_CPU_RW (st, waiters[i], locks_held)++;
          fl_wake (sim, waiters[i], seen[i]);
        }
      else if (waiter->ticket == G_MAXUINT32)
        fl_wake (sim, waiters[i], seen[i]);   /* a trylock loop: it sees the lock free and retries */
    }
}

/* A trylock loop that found the lock busy parks until a release, then tries again. */
void
fl_spin_wait_released (FlSim *sim, guint cpu, guint32 lock)
{
  FlState *st = &sim->st;
  FL_CPU_RW (st, cpu, ticket) = G_MAXUINT32;
  fl_park (sim, cpu, FL_CPU_SPIN, lock);
  fl_line_add_sharer (st, fields (sim, lock, FALSE).line, cpu);
}

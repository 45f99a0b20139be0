/* fl-cpu-wait.c — what a parked CPU waits for, on whom, and at which line. A step that parks
 * its CPU has already moved the frame's pc to where it goes on once woken (a woken CPU takes
 * no step to come back), so the line it waits at is not in the state: the table below names,
 * for every place a step function parks, the line that parked and the line it resumes at.
 * tests/core/test-cpu-view.c holds it to the events: at every step of every built-in, a
 * waiting CPU's line is the line of the step that parked it. */
#include "fl-cpu-view-private.h"
#include "fl-sim-internal.h"

#include <stdio.h>
#include <string.h>

/* Which faults a park place is for: pte_map_lock resumes at `unpin` both after the locked
 * path's spin_lock and after the speculative spin_lock of pte-map-lock=spin-irqs-off. */
typedef enum { ANY_FAULT, LOCKED_FAULT, SPECULATIVE_FAULT } FaultKind;

typedef struct {
  guint16   resume;         /* the frame's pc while it waits (FlLoc, of the steps' function) */
  guint16   wait;           /* the line whose step parked it */
  guint8    kind;           /* FlCpuWait */
  guint8    fault;          /* FaultKind */
} ParkPlace;

#define PARK(fn, wait, resume, kind) \
  { FL_LOC_##fn##_##resume, FL_LOC_##fn##_##wait, FL_CPU_WAIT_##kind, ANY_FAULT }

static const ParkPlace places[] = {
  PARK (PGTABLE_ALLOC, lock, populate, LOCK),
  PARK (ANON_VMA_PREPARE, lock, set, LOCK),
  PARK (ALLOC_PAGE, zone_lock, rmqueue_bulk, LOCK),
  PARK (FREE_PAGES, lru_lock, release, LOCK),
  PARK (FREE_PAGES, zone_lock, free_bulk, LOCK),
  PARK (LRU_CACHE_ADD, lru_lock, drain, LOCK),
  PARK (DO_SWAP_PAGE, migration_wait, release, MIGRATION),
  PARK (GENERIC_DOWN_READ_TRYLOCK, lock, check, LOCK),
  PARK (GENERIC_DOWN, lock, check, LOCK),
  PARK (GENERIC_DOWN, queue, woken, RWSEM),
  PARK (GENERIC_UP, lock, release, LOCK),
  PARK (XADD_DOWN, slow, woken, RWSEM),
  PARK (CHANGE_PTE_RANGE, lock, change, LOCK),
  PARK (COPY_PTE_RANGE, lock, wrprotect, LOCK),
  PARK (ZAP_PTE_RANGE, lock, zap, LOCK),
  PARK (TRY_TO_UNMAP_ONE, lock, clear_flush, LOCK),
  PARK (TRY_TO_UNMAP_ONE, lock_new, set_new, LOCK),
  PARK (FLUSH_TLB_OTHERS, wait, done, TLB_ACK),
  PARK (PTE_MAP_LOCK, retry, pin, LOCK_RELEASE),
  PARK (PTE_MAP_LOCK, trylock, vma_is_dead, LOCK),
  PARK (INVALIDATE_VMA, wait, woken, VMA_REFS),
  { FL_LOC_PTE_MAP_LOCK_unpin, FL_LOC_PTE_MAP_LOCK_locked, FL_CPU_WAIT_LOCK, LOCKED_FAULT },
  { FL_LOC_PTE_MAP_LOCK_unpin, FL_LOC_PTE_MAP_LOCK_trylock, FL_CPU_WAIT_LOCK, SPECULATIVE_FAULT },
};

static const ParkPlace *
park_place (const FlFrame *top)
{
  gboolean spec = top->fn == FL_FN_PTE_MAP_LOCK && (top->l.pte_map_lock.flags & FL_FAULT_SPEC);
  for (guint i = 0; i < G_N_ELEMENTS (places); i++)
    if (places[i].resume == top->pc
        && (places[i].fault == ANY_FAULT || (places[i].fault == SPECULATIVE_FAULT) == spec))
      return &places[i];
  return NULL;
}

/* The fields of the spinlocks as fl-lock.c keeps them: who holds `lock`, -1 nobody. */
static gint
lock_holder (const FlState *st, guint32 lock)
{
  guint32 i = FL_LOCK_INDEX (lock);
  switch (FL_LOCK_KIND (lock))
    {
    case FL_LOCK_WAIT_LOCK: return st->g->mm.sem.wait_holder;
    case FL_LOCK_PAGE_TABLE: return st->g->mm.ptl_holder;
    case FL_LOCK_ZONE: return i < FL_MAX_NODES ? st->g->zones[i].lock_holder : -1;
    case FL_LOCK_LRU: return i < FL_MAX_NODES ? st->g->zones[i].lru_lock_holder : -1;
    case FL_LOCK_PTL: return i < st->sizes.ntables ? st->tables[i].ptl_holder : -1;
    default: return -1;
    }
}

static void
add (FlCpuView *view, guint cpu)
{
  if (cpu == view->cpu || cpu >= FL_MAX_CPUS)
    return;
  view->waits_on[cpu / 64] |= G_GUINT64_CONSTANT (1) << (cpu % 64);
  if (view->holder < 0)
    view->holder = (gint) cpu;
}

static gboolean
in_function (const FlState *st, guint cpu, FlFn fn)
{
  const FlCpu *c = &st->cpus[cpu];
  for (guint i = 0; i < MIN (c->depth, FL_MAX_DEPTH); i++)
    if (fl_cpu_stack (st, cpu)->frames[i].fn == fn)
      return TRUE;
  return FALSE;
}

static gboolean
in_up (const FlState *st, guint cpu)
{
  const FlCpu *c = &st->cpus[cpu];
  if (c->depth == 0)
    return FALSE;
  switch (fl_cpu_stack (st, cpu)->frames[MIN (c->depth, FL_MAX_DEPTH) - 1].fn)
    {
    case FL_FN_GENERIC_UP: case FL_FN_GENERIC_UP_WRITE:
    case FL_FN_XADD_UP: case FL_FN_XADD_UP_WRITE:
      return TRUE;
    default:
      return FALSE;
    }
}

/* Who it waits on, from the objects themselves (as the oracle's wait-for graph, but every
 * CPU that could release it, not only those that never will). */
static void
waits_on (const FlState *st, const FlCpu *c, FlCpuView *view)
{
  guint me = view->cpu;
  switch (view->wait)
    {
    case FL_CPU_WAIT_LOCK:
    case FL_CPU_WAIT_LOCK_RELEASE:
      {
        gint h = lock_holder (st, view->wait_obj);
        if (h >= 0)
          add (view, (guint) h);
        /* fl_lock_name reads only the id */
        char buf[sizeof view->wait_name];
        g_strlcpy (view->wait_name, fl_lock_name (NULL, view->wait_obj, buf, sizeof buf),
                   sizeof view->wait_name);
        break;
      }
    case FL_CPU_WAIT_RWSEM:
      /* a writer first: it is the one the sleeper cannot share with */
      for (guint pass = 0; pass < 2; pass++)
        for (guint i = 0; i < st->sizes.ncpus; i++)
          if (st->cpus[i].mmap_sem_held == (pass == 0 ? 2 : 1))
            add (view, i);
      /* nobody holds it between an up's release and its wake-up step: the sleeper waits on
       * the CPU about to wake it */
      for (guint i = 0; i < st->sizes.ncpus && view->holder < 0; i++)
        if (in_up (st, i))
          add (view, i);
      g_strlcpy (view->wait_name, "mmap_sem", sizeof view->wait_name);
      break;
    case FL_CPU_WAIT_TLB_ACK:
      /* the targets that have not acknowledged; one with IRQs off first: it never will */
      for (guint pass = 0; pass < 2; pass++)
        for (guint i = 0; i < st->sizes.ncpus; i++)
          if (((st->cpus[i].ipi_senders[me / 64] >> (me % 64)) & 1)
              && st->cpus[i].irqs_off == (pass == 0))
            add (view, i);
      g_strlcpy (view->wait_name, "TLB flush", sizeof view->wait_name);
      break;
    case FL_CPU_WAIT_MIGRATION:
      for (guint i = 0; i < st->sizes.ncpus; i++)
        if (in_function (st, i, FL_FN_TRY_TO_UNMAP_ONE))
          add (view, i);
      /* FL_MIGRATION_WAIT: the table above the PTE index's 9 bits */
      g_snprintf (view->wait_name, sizeof view->wait_name, "migration entry in table %u",
                  (c->wait_obj & ~0x40000000u) >> 9);
      break;
    case FL_CPU_WAIT_VMA_REFS:
      {
        /* the faults holding a reference; the wait object is the VMA's id above a flag */
        guint32 vma = c->wait_obj & ~FL_VMA_REF_WAIT (0);
        guint holders[FL_MAX_CPUS];
        guint n = fl_refcount_holders (st, vma, holders);
        for (guint i = 0; i < n; i++)
          add (view, holders[i]);
        g_snprintf (view->wait_name, sizeof view->wait_name, "references to VMA %u", vma);
        break;
      }
    case FL_CPU_WAIT_BARRIER:
      for (guint i = 0; i < st->sizes.ncpus; i++)
        {
          const FlCpu *o = &st->cpus[i];
          gboolean at_barrier = o->depth == 0 && o->status == FL_CPU_SLEEP;
          if (o->status != FL_CPU_DONE && !at_barrier)
            add (view, i);
        }
      g_strlcpy (view->wait_name, "barrier", sizeof view->wait_name);
      break;
    default:
      break;
    }
}

/**
 * fl_cpu_parked_activity:
 * @st: a state
 * @cpu: one of its CPUs
 *
 * What a CPU that does not run does meanwhile: spinning, asleep, waiting for TLB-flush
 * acknowledgements. A CPU caught in a deadlock goes on for ever doing what it did when the
 * cycle closed (the place it parked at says which): the CPU spinning with IRQs off spins
 * still; it is not asleep.
 *
 * Returns: an #FlActivity, or -1 for a running CPU, one whose program is over, or one stuck
 *   between operations
 */
int
fl_cpu_parked_activity (const FlState *st, guint cpu)
{
  const FlCpu *c = &st->cpus[cpu];
  switch (c->status)
    {
    case FL_CPU_SPIN: return FL_ACT_SPIN;
    case FL_CPU_SLEEP: return FL_ACT_BLOCKED;
    case FL_CPU_IPI_WAIT: return FL_ACT_IPI;
    case FL_CPU_STUCK: break;
    case FL_CPU_RUNNING: case FL_CPU_DONE: default: return -1;
    }
  if (c->depth == 0)
    return -1;
  const ParkPlace *place = park_place (&fl_cpu_stack (st, cpu)->frames[c->depth - 1]);
  switch (place != NULL ? (FlCpuWait) place->kind : FL_CPU_WAIT_NONE)
    {
    case FL_CPU_WAIT_LOCK: case FL_CPU_WAIT_LOCK_RELEASE: return FL_ACT_SPIN;
    case FL_CPU_WAIT_TLB_ACK: return FL_ACT_IPI;
    default: return FL_ACT_BLOCKED;
    }
}

void
fl_cpu_wait_decode (const FlState *st, const FlCpu *c, FlCpuView *view)
{
  if (c->status != FL_CPU_SPIN && c->status != FL_CPU_SLEEP && c->status != FL_CPU_IPI_WAIT
      && c->status != FL_CPU_STUCK)
    return;
  if (view->depth == 0)
    {
      /* between operations only the pthread barrier parks a CPU */
      view->wait = FL_CPU_WAIT_BARRIER;
      view->loc = FL_LOC_USER_barrier;
    }
  else
    {
      const FlFrame *top = &fl_cpu_stack (st, view->cpu)->frames[view->depth - 1];
      const ParkPlace *place = park_place (top);
      if (place == NULL)
        return;   /* the test of this file says which place the table misses */
      FlFrame at = *top;
      at.pc = place->wait;
      view->loc = fl_frame_loc (&at);
      view->wait = place->kind;
    }
  view->wait_obj = view->wait == FL_CPU_WAIT_LOCK || view->wait == FL_CPU_WAIT_LOCK_RELEASE
                   || view->wait == FL_CPU_WAIT_MIGRATION || view->wait == FL_CPU_WAIT_VMA_REFS
                   ? c->wait_obj : 0;
  waits_on (st, c, view);
}

/**
 * fl_cpu_wait_name:
 * @wait: a kind of wait
 *
 * Returns: what a CPU waits for, in a few words: "a spinlock", "TLB-flush acknowledgements"
 */
const char *
fl_cpu_wait_name (FlCpuWait wait)
{
  static const char *const names[FL_CPU_WAIT_N] = {
    [FL_CPU_WAIT_NONE] = "nothing",
    [FL_CPU_WAIT_LOCK] = "a spinlock",
    [FL_CPU_WAIT_LOCK_RELEASE] = "a busy lock to be released",
    [FL_CPU_WAIT_RWSEM] = "mmap_sem",
    [FL_CPU_WAIT_TLB_ACK] = "TLB-flush acknowledgements",
    [FL_CPU_WAIT_MIGRATION] = "a page migration to finish",
    [FL_CPU_WAIT_BARRIER] = "the other threads at a barrier",
    [FL_CPU_WAIT_SCHEDULE] = "its turn in the scripted schedule",
    [FL_CPU_WAIT_VMA_REFS] = "the references to a VMA to be dropped",
  };
  return (guint) wait < FL_CPU_WAIT_N ? names[wait] : "?";
}

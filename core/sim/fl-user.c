/* fl-user.c — the user-space side of each CPU: its program of operations, loops, barriers. */
#include "fl-sim-internal.h"
#include "fl-sim-private.h"

static const FlProgram *
program_of (FlSim *sim, guint c)
{
  return c < sim->scenario->programs->len ? g_ptr_array_index (sim->scenario->programs, c) : NULL;
}

static guint64
resolve (FlCpu *cpu, const FlProgram *p, const FlOp *op)
{
  guint64 addr;
  switch (op->mode)
    {
    case FL_ADDR_BASE:
      addr = p->base + op->addr;
      cpu->cursor = addr;
      return addr;
    case FL_ADDR_CURSOR:
      addr = cpu->cursor;
      cpu->cursor += op->step;
      return addr;
    case FL_ADDR_ABSOLUTE:
    default:
      cpu->cursor = op->addr;
      return op->addr;
    }
}

static void
program_done (FlSim *sim, guint c)
{
  fl_cpu_set_status (&sim->st, c, FL_CPU_DONE);
  FL_CPU_RW (&sim->st, c, in_mm) = FALSE;
  fl_ev (sim, FL_EV_DONE, 0, 0);
  sim->ev.loc = FL_LOC_USER_done;
  fl_oracle_op_done (sim, c);
}

/* pthread_barrier_wait: one atomic increment of a shared line; the last one wakes the rest. */
static void
barrier (FlSim *sim, guint c)
{
  FlState *st = &sim->st;
  const FlGlobals *g = st->g;
  guint parties = 0;
  for (guint i = 0; i < st->sizes.ncpus; i++)
    parties += program_of (sim, i) && program_of (sim, i)->ops->len > 0;
  sim->ev.loc = FL_LOC_USER_barrier;
  fl_touch (sim, c, FL_LINE_BARRIER, FL_ACCESS_RMW);
  fl_ev (sim, FL_EV_RMW, g->barrier_gen, ++FL_G_RW (st, barrier_count));
  if (g->barrier_count < parties)
    {
      FL_CPU_RW (st, c, barrier_gen) = g->barrier_gen;
      fl_park (sim, c, FL_CPU_SLEEP, FL_BARRIER_WAIT);
      return;
    }
  FL_G_RW (st, barrier_count) = 0;
  FL_G_RW (st, barrier_gen)++;
  for (guint i = 0; i < st->sizes.ncpus; i++)
    if (i != c && st->cpus[i].status == FL_CPU_SLEEP && st->cpus[i].wait_obj == FL_BARRIER_WAIT)
      fl_wake (sim, i, fl_line_reload (sim, FL_LINE_BARRIER, i, st->cpus[c].clock)
                         + sim->config.cost.ipi);
}

/* Start the next operation of the program: the kernel entry it models becomes a frame. */
void
fl_user_step (FlSim *sim, guint c)
{
  FlState *st = &sim->st;
  FlCpu *cpu = fl_cpu_rw (st, c);
  FlLoop *loops = fl_loops_rw (st, c);
  const FlProgram *p = program_of (sim, c);

  for (;;)
    {
      /* the end of a repeat body jumps back while iterations are left */
      if (cpu->nloops > 0)
        {
          FlLoop *loop = &loops[cpu->nloops - 1];
          const FlOp *rep = &g_array_index (p->ops, FlOp, loop->op);
          if (cpu->op == loop->op + 1 + rep->body)
            {
              if (loop->left > 0)
                {
                  loop->left--;
                  cpu->op = loop->op + 1;
                }
              else
                cpu->nloops--;
              continue;
            }
        }
      if (p == NULL || cpu->op >= p->ops->len)
        {
          program_done (sim, c);
          return;
        }
      const FlOp *op = &g_array_index (p->ops, FlOp, cpu->op);
      if (op->kind != FL_OP_REPEAT)
        break;
      g_assert (cpu->nloops < FL_MAX_LOOPS);
      loops[cpu->nloops].op = cpu->op;
      loops[cpu->nloops].left = op->count - 1;
      cpu->nloops++;
      cpu->op++;
    }

  guint32 index = cpu->op++;
  const FlOp *op = &g_array_index (p->ops, FlOp, index);
  cpu->op_started = index;
  fl_charge (sim, c, sim->config.cost.op_overhead);
  sim->ev.loc = FL_LOC_USER_next_op;
  fl_ev (sim, FL_EV_OP, index, op->kind);

  if (op->kind == FL_OP_BARRIER)
    {
      barrier (sim, c);
      return;
    }
  guint64 addr = resolve (cpu, p, op);
  switch (op->kind)
    {
    case FL_OP_FAULT:
      {
        FlLocalsDoPageFault *fault = &fl_call (sim, c, FL_FN_DO_PAGE_FAULT, FL_LOC_NONE,
                                               (guint32) addr)->l.do_page_fault;
        fault->addr = addr;
        fault->flags = op->write ? FL_FAULT_WRITE : 0;
      }
      break;
    case FL_OP_MMAP:
      {
        FlLocalsMmapRegion *mmap = &fl_call (sim, c, FL_FN_MMAP_REGION, FL_LOC_NONE,
                                             (guint32) addr)->l.mmap_region;
        mmap->addr = addr;
        mmap->len = op->len;
        mmap->vm_flags = fl_sim_vm_flags (op->prot, op->map_kind);
      }
      break;
    case FL_OP_MUNMAP:
      {
        FlLocalsDoMunmap *munmap = &fl_call (sim, c, FL_FN_DO_MUNMAP, FL_LOC_NONE,
                                             (guint32) addr)->l.do_munmap;
        munmap->start = addr;
        munmap->len = op->len;
      }
      break;
    case FL_OP_MPROTECT:
      {
        FlLocalsMprotectFixup *mprotect = &fl_call (sim, c, FL_FN_MPROTECT_FIXUP, FL_LOC_NONE,
                                                    (guint32) addr)->l.mprotect_fixup;
        mprotect->start = addr;
        mprotect->len = op->len;
        mprotect->vm_flags = (guint16) fl_sim_vm_flags (op->prot, FL_MAP_ANON);
      }
      break;
    case FL_OP_MADVISE_DONTNEED:
      {
        FlLocalsMadviseDontneed *madvise = &fl_call (sim, c, FL_FN_MADVISE_DONTNEED, FL_LOC_NONE,
                                                     (guint32) addr)->l.madvise_dontneed;
        madvise->start = addr;
        madvise->len = op->len;
      }
      break;
    case FL_OP_FORK_WP:
      {
        FlLocalsCopyPteRange *copy = &fl_call (sim, c, FL_FN_COPY_PTE_RANGE, FL_LOC_NONE,
                                               (guint32) addr)->l.copy_pte_range;
        copy->start = addr;
        copy->len = op->len;
      }
      break;
    case FL_OP_SWAP_OUT:
    case FL_OP_MIGRATE:
      {
        FlLocalsTryToUnmapOne *unmap = &fl_call (sim, c, FL_FN_TRY_TO_UNMAP_ONE, FL_LOC_NONE,
                                                 (guint32) addr)->l.try_to_unmap_one;
        unmap->addr = addr;
        unmap->migrate = op->kind == FL_OP_MIGRATE;
      }
      break;
    default:
      g_assert_not_reached ();
    }
  /* the call replaced the event kind: keep the operation as what this step did */
  fl_ev (sim, FL_EV_OP, index, op->kind);
}
G_STATIC_ASSERT (FL_MAX_LOOPS >= FL_SCENARIO_MAX_DEPTH);

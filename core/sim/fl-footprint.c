/* fl-footprint.c — what a step touched: what the explorer's partial-order reduction needs
 * from the simulation besides the state without time (fl-semantic-hash.c). */
#include "fl-footprint.h"

#include <stddef.h>
#include <string.h>

void
fl_footprint_add (FlFootprint *fp, guint32 key, gboolean write)
{
  for (guint i = 0; i < fp->n; i++)
    if (fp->key[i] == key)
      {
        fp->write[i] |= write;
        return;
      }
  if (fp->n == FL_FOOTPRINT_MAX)
    {
      fp->everything = TRUE;
      return;
    }
  fp->key[fp->n] = key;
  fp->write[fp->n] = write;
  fp->n++;
}

gboolean
fl_footprint_conflict (const FlFootprint *a, const FlFootprint *b)
{
  if (a->everything || b->everything)
    return TRUE;
  for (guint i = 0; i < a->n; i++)
    for (guint j = 0; j < b->n; j++)
      if (a->key[i] == b->key[j] && (a->write[i] || b->write[j]))
        return TRUE;
  return FALSE;
}

/* A run of bytes of a struct and the key its change stands for. */
typedef struct {
  gsize    offset, size;
  FlKeyKind kind;
  guint32  id;              /* for lines and allocators; CPU keys take the CPU */
} Field;

#define F(type, member, kind, id) \
  { offsetof (type, member), sizeof (((type *) 0)->member), kind, id }

/* Fields of a CPU other CPUs see. Its clocks (clock, held_until, wait_since, ipi_at,
 * held_line) and step stamps are left out: time and history, not state. */
static const Field cpu_fields[] = {
  F (FlCpu, status, FL_KEY_CPU_SCHED, 0),
  F (FlCpu, wait_obj, FL_KEY_CPU_SCHED, 0),
  F (FlCpu, ticket, FL_KEY_CPU_SCHED, 0),
  F (FlCpu, writer, FL_KEY_CPU_WRITER, 0),
  F (FlCpu, mmap_sem_held, FL_KEY_CPU_WRITER, 0),
  F (FlCpu, rcu_nesting, FL_KEY_CPU_RCU, 0),
  F (FlCpu, rcu_ready, FL_KEY_CPU_RCU, 0),
  F (FlCpu, irqs_off, FL_KEY_CPU_TLB, 0),
  F (FlCpu, ipi_pending, FL_KEY_CPU_TLB, 0),
  F (FlCpu, in_mm, FL_KEY_CPU_TLB, 0),
  F (FlCpu, flush_left, FL_KEY_CPU_TLB, 0),
  F (FlCpu, ipi_senders, FL_KEY_CPU_TLB, 0),
  F (FlCpu, rss_file, FL_KEY_CPU_MEM, 0),
  F (FlCpu, rss_anon, FL_KEY_CPU_MEM, 0),
  F (FlCpu, pcp_count, FL_KEY_CPU_MEM, 0),
  F (FlCpu, pcp_head, FL_KEY_CPU_MEM, 0),
  F (FlCpu, pcp_tail, FL_KEY_CPU_MEM, 0),
  F (FlCpu, pagevec, FL_KEY_CPU_MEM, 0),
  F (FlCpu, gather_head, FL_KEY_CPU_MEM, 0),
  F (FlCpu, gather_count, FL_KEY_CPU_MEM, 0),
  F (FlCpu, cursor, FL_KEY_CPU_OTHER, 0),
  F (FlCpu, locks_held, FL_KEY_CPU_OTHER, 0),
  F (FlCpu, spf_vm_flags, FL_KEY_CPU_OTHER, 0),
  F (FlCpu, op, FL_KEY_CPU_OTHER, 0),
  F (FlCpu, depth, FL_KEY_CPU_OTHER, 0),
  F (FlCpu, nloops, FL_KEY_CPU_OTHER, 0),
  F (FlCpu, barrier_gen, FL_KEY_CPU_OTHER, 0),
  /* and its loops and frames (FlCpuStack), FL_KEY_CPU_OTHER too: fl_footprint_add_changes */
};

/* Fields of the globals and the line (or allocator) each lives on. Left out: the step, the
 * time (now), the dice, statistics, the script's position, and what follows from the CPUs'
 * own fields (running, spinning, ipis_pending: counts kept for speed). The zones are
 * matched node by node below. */
static const Field global_fields[] = {
  F (FlGlobals, mm.root, FL_KEY_LINE, FL_LINE_MM_MMAP),
  F (FlGlobals, mm.mmap, FL_KEY_LINE, FL_LINE_MM_MMAP),
  F (FlGlobals, mm.mmap_cache, FL_KEY_LINE, FL_LINE_MM_MMAP),
  F (FlGlobals, mm.map_count, FL_KEY_LINE, FL_LINE_MM_SEM),
  F (FlGlobals, mm.pgd, FL_KEY_LINE, FL_LINE_MM_SEM),
  F (FlGlobals, mm.ptl_next, FL_KEY_LINE, FL_LINE_MM_SEM),
  F (FlGlobals, mm.ptl_owner, FL_KEY_LINE, FL_LINE_MM_SEM),
  F (FlGlobals, mm.ptl_holder, FL_KEY_LINE, FL_LINE_MM_SEM),
  F (FlGlobals, mm.anon_vmas, FL_KEY_LINE, FL_LINE_MM_SEM),
  F (FlGlobals, mm.sem, FL_KEY_LINE, FL_LINE_MM_SEM),
  F (FlGlobals, mm.rss_file, FL_KEY_LINE, FL_LINE_MM_RSS),
  F (FlGlobals, mm.rss_anon, FL_KEY_LINE, FL_LINE_MM_RSS),
  F (FlGlobals, rcu.gp, FL_KEY_LINE, FL_LINE_RCU),
  F (FlGlobals, rcu.in_progress, FL_KEY_LINE, FL_LINE_RCU),
  F (FlGlobals, rcu.qs_needed, FL_KEY_LINE, FL_LINE_RCU),
  F (FlGlobals, rcu.unassigned, FL_KEY_LINE, FL_LINE_RCU),
  F (FlGlobals, rcu.ready, FL_KEY_LINE, FL_LINE_RCU),
  F (FlGlobals, barrier_count, FL_KEY_LINE, FL_LINE_BARRIER),
  F (FlGlobals, barrier_gen, FL_KEY_LINE, FL_LINE_BARRIER),
  F (FlGlobals, vmas_used, FL_KEY_ALLOC, FL_ALLOC_VMA),
  F (FlGlobals, vma_hint, FL_KEY_ALLOC, FL_ALLOC_VMA),
  F (FlGlobals, tables_used, FL_KEY_ALLOC, FL_ALLOC_TABLE),
  F (FlGlobals, table_hint, FL_KEY_ALLOC, FL_ALLOC_TABLE),
  F (FlGlobals, zone_pages, FL_KEY_ALLOC, FL_ALLOC_PAGE),
  F (FlGlobals, page_fresh, FL_KEY_ALLOC, FL_ALLOC_PAGE),
  F (FlGlobals, cache_used, FL_KEY_ALLOC, FL_ALLOC_CACHE),
  F (FlGlobals, files, FL_KEY_ALLOC, FL_ALLOC_FILE),
  F (FlGlobals, files_used, FL_KEY_ALLOC, FL_ALLOC_FILE),
  F (FlGlobals, finished, FL_KEY_CPU_OTHER, 0),
  F (FlGlobals, deadlocked, FL_KEY_CPU_OTHER, 0),
};

static gboolean
changed (const void *a, const void *b, const Field *f)
{
  return memcmp ((const guint8 *) a + f->offset, (const guint8 *) b + f->offset, f->size) != 0;
}

void
fl_footprint_snapshot (FlFootprintSnapshot *snap, const FlState *st)
{
  snap->g = *st->g;
  if (snap->ncpus != st->sizes.ncpus)
    {
      g_free (snap->cpus);
      g_free (snap->stacks);
      snap->ncpus = st->sizes.ncpus;
      snap->cpus = g_new (FlCpu, snap->ncpus);
      snap->stacks = g_new (FlCpuStack, snap->ncpus);
    }
  memcpy (snap->cpus, st->cpus, snap->ncpus * sizeof (FlCpu));
  memcpy (snap->stacks, st->stacks, snap->ncpus * sizeof (FlCpuStack));
}

void
fl_footprint_snapshot_clear (FlFootprintSnapshot *snap)
{
  g_clear_pointer (&snap->cpus, g_free);
  g_clear_pointer (&snap->stacks, g_free);
  snap->ncpus = 0;
}

void
fl_footprint_add_changes (FlFootprint *fp, const FlFootprintSnapshot *before, const FlState *st,
                          guint cpu)
{
  for (guint i = 0; i < G_N_ELEMENTS (global_fields); i++)
    {
      const Field *f = &global_fields[i];
      if (changed (&before->g, st->g, f))
        {
          /* the end of the run (finished, deadlocked) is every CPU's business */
          if (f->kind == FL_KEY_CPU_OTHER)
            fp->everything = TRUE;
          else
            fl_footprint_add (fp, FL_KEY (f->kind, f->id), TRUE);
        }
    }
  for (guint n = 0; n < st->g->nodes && n < FL_MAX_NODES; n++)
    if (memcmp (&before->g.zones[n], &st->g->zones[n], sizeof (FlZone)) != 0)
      fl_footprint_add (fp, FL_KEY (FL_KEY_LINE, fl_line_of_zone_lock (st, n)), TRUE);
  for (guint c = 0; c < MIN (before->ncpus, st->sizes.ncpus); c++)
    for (guint i = 0; i < G_N_ELEMENTS (cpu_fields); i++)
      {
        const Field *f = &cpu_fields[i];
        /* a CPU's own program moving on is program order, not something others see */
        if (c == cpu && f->kind == FL_KEY_CPU_OTHER)
          continue;
        if (changed (&before->cpus[c], &st->cpus[c], f))
          fl_footprint_add (fp, FL_KEY (f->kind, c), TRUE);
      }
  /* the snapshot is a byte copy of the stacks, padding and all: equal bytes are a stack the
   * step left alone */
  for (guint c = 0; c < MIN (before->ncpus, st->sizes.ncpus); c++)
    /* NOLINTNEXTLINE(bugprone-suspicious-memory-comparison) */
    if (c != cpu && memcmp (&before->stacks[c], &st->stacks[c], sizeof (FlCpuStack)) != 0)
      fl_footprint_add (fp, FL_KEY (FL_KEY_CPU_OTHER, c), TRUE);
}

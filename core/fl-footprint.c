/* fl-footprint.c — what a step touched, and the state without time: the two things the
 * explorer's partial-order reduction needs from the simulation. */
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
  F (FlCpu, loops, FL_KEY_CPU_OTHER, 0),
  F (FlCpu, frames, FL_KEY_CPU_OTHER, 0),
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
      snap->ncpus = st->sizes.ncpus;
      snap->cpus = g_new (FlCpu, snap->ncpus);
    }
  memcpy (snap->cpus, st->cpus, snap->ncpus * sizeof (FlCpu));
}

void
fl_footprint_snapshot_clear (FlFootprintSnapshot *snap)
{
  g_clear_pointer (&snap->cpus, g_free);
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
}

/* Four independent multiply-xorshift lanes over 64-bit words, folded into @h: the explorer
 * hashes a state at every arrival, and one serial chain of multiplies was most of its time. */
static guint64
hash_words (guint64 h, const void *data, gsize bytes)
{
  const guint8 *block = data;
  guint64 lane[4] = { h, h ^ 0x9e3779b97f4a7c15ull, h ^ 0xbf58476d1ce4e5b9ull,
                      h ^ 0x94d049bb133111ebull };
  gsize n = bytes / 32;
  for (gsize i = 0; i < n; i++)
    for (guint k = 0; k < 4; k++)
      {
        guint64 w;
        memcpy (&w, block + i * 32 + k * 8, 8);
        lane[k] = (lane[k] ^ w) * 0x100000001b3ull;
        lane[k] ^= lane[k] >> 29;
      }
  for (gsize i = n * 32; i < bytes; i++)
    lane[0] = (lane[0] ^ block[i]) * 0x100000001b3ull;
  h = lane[0];
  for (guint k = 1; k < 4; k++)
    {
      h = (h ^ lane[k]) * 0xff51afd7ed558ccdull;
      h ^= h >> 33;
    }
  return h ^ bytes;
}

/* One buffer of the small objects, each with its time fields zeroed, hashed at once; then
 * the page tables' non-empty entries. The explorer asks this at every arrival at a state. */
typedef struct {
  guint8 *data;
  gsize   len;
} Scratch;

static void
put (Scratch *s, const void *object, gsize size)
{
  memcpy (s->data + s->len, object, size);
  s->len += size;
}

guint64
fl_state_semantic_hash (const FlState *st, FlStateView view)
{
  const FlStateSizes *z = &st->sizes;
  gsize room = sizeof *z + sizeof (FlGlobals) + z->ncpus * sizeof (FlCpu)
               + z->nlines * sizeof (FlLine) + z->nvmas * sizeof (FlVma)
               + z->ntables * sizeof (FlTable) + z->npages * sizeof (FlPage)
               + z->ncache * sizeof (FlCacheEntry) + z->ncache_index * sizeof (guint32)
               + z->ncbs * sizeof (FlRcuCb);
  Scratch s = { g_malloc (room), 0 };
  put (&s, z, sizeof *z);

  FlGlobals g = *st->g;
  g.step = g.now = g.rng = g.page_transfers = 0;
  g.rcu.gp_started_step = 0;
  g.sched_index = 0;
  g.sched_steps = 0;
  put (&s, &g, sizeof g);
  for (guint c = 0; c < z->ncpus; c++)
    {
      FlCpu cpu = st->cpus[c];
      cpu.clock = cpu.held_until = cpu.wait_since = cpu.ipi_at = 0;
      cpu.held_line = 0;
      cpu.rcu_since_step = 0;
      /* who hid a walk's VMA only explains a miss: history, which decides nothing later */
      cpu.spf_hidden_node = cpu.spf_hidden_subject = cpu.spf_hidden_cpu = 0;
      cpu.spf_hidden_action = 0;
      cpu.spf_hidden_step = 0;
      put (&s, &cpu, sizeof cpu);
    }
  for (guint l = 0; l < z->nlines; l++)
    {
      FlLine line = st->lines[l];
      line.busy_until = 0;
      line.transfers = line.own_copy = line.overtook = line.last_from = line.last_to = 0;
      /* the arbitration's record of requests still crossing: when they arrive and what they
       * were booked at is time, which orders nothing here (docs/model.md, "Arbitration") */
      line.rfo_arrive = line.rfo_start = line.rfo_before = line.rfo_busy_end = 0;
      memset (line.rfo_takers, 0, sizeof line.rfo_takers);
      line.rfo_prev = 0;
      line.rfo_load = 0;
      if (view == FL_STATE_OUTCOME)
        {
          memset (line.sharers, 0, sizeof line.sharers);
          line.owner = -1;
          line.owner_state = 0;
        }
      put (&s, &line, sizeof line);
    }
  put (&s, st->vmas, z->nvmas * sizeof (FlVma));
  put (&s, st->tables, z->ntables * sizeof (FlTable));
  for (guint p = 0; p < z->npages; p++)
    {
      FlPage page = st->pages[p];
      if (view == FL_STATE_OUTCOME)
        page.line_owner = 0;
      put (&s, &page, sizeof page);
    }
  put (&s, st->cache, z->ncache * sizeof (FlCacheEntry));
  put (&s, st->cache_index, z->ncache_index * sizeof (guint32));
  for (guint i = 0; i < z->ncbs; i++)
    {
      FlRcuCb cb = st->cbs[i];
      cb.queued_step = 0;
      put (&s, &cb, sizeof cb);
    }
  guint64 h = hash_words (0xcbf29ce484222325ull, s.data, s.len);
  g_free (s.data);

  /* The step stamps were zeroed, but one comparison of two of them is state: whether a reader
   * still in its section began before a callback was queued (rcu_do_batch's early-free
   * check). Keep that order, for each such pair. */
  for (guint c = 0; c < z->ncpus; c++)
    if (st->cpus[c].rcu_nesting > 0)
      for (guint i = 0; i < z->ncbs; i++)
        if (st->cbs[i].obj != 0)
          {
            guint64 before = st->cpus[c].rcu_since_step < st->cbs[i].queued_step;
            h ^= ((guint64) c << 40) + ((guint64) i << 8) + before + 0x9e3779b97f4a7c15ull;
            h *= 0xff51afd7ed558ccdull;
            h ^= h >> 33;
          }

  /* the entries of live tables, the empty ones skipped (most are); a free table's mean
   * nothing (an allocation clears them) */
  for (guint t = 0; t < z->ntables; t++)
    {
      if (st->tables[t].state == FL_OBJ_FREE)
        continue;
      const guint64 *e = fl_table_entries (st, t);
      for (guint i = 0; i < FL_PTRS_PER_TABLE; i++)
        if (e[i] != 0)
          {
            h ^= e[i] + ((guint64) t << 41) + ((guint64) i << 32) * 0x9e3779b97f4a7c15ull;
            h *= 0xff51afd7ed558ccdull;
            h ^= h >> 33;
          }
    }
  return h;
}

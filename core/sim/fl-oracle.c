/* fl-oracle.c — the invariants every run is checked against; a violation is a finding. */
#include "fl-sim-internal.h"

#include <string.h>


static gboolean
writers_active (const FlState *st)
{
  for (guint c = 0; c < st->sizes.ncpus; c++)
    if (st->cpus[c].writer)
      return TRUE;
  return FALSE;
}

/* Is some CPU between two rebalancing steps? Then only the shape rules hold, not colours. */
static gboolean
rebalancing (const FlState *st)
{
  for (guint c = 0; c < st->sizes.ncpus; c++)
    for (guint i = 0; i < st->cpus[c].depth; i++)
      {
        const FlFrame *f = &fl_cpu_stack (st, c)->frames[i];
        if (f->pc == FL_LOC_MMAP_REGION_rb_insert_color || f->pc == FL_LOC_VMA_ADJUST_rb_insert_color
            || f->pc == FL_LOC_DO_MUNMAP_rb_erase || f->pc == FL_LOC_VMA_UNLINK_rb_erase)
          return TRUE;
      }
  return FALSE;
}

/* For the explorer: the checks below read who is a writer and the VMA list and tree. */
static void
note_vmas_read (FlSim *sim)
{
  fl_note_all_cpus (sim, FL_KEY_CPU_WRITER);
  fl_note_vma_list (sim);
}

static void
check_tree (FlSim *sim, guint cpu)
{
  FlState *st = &sim->st;
  note_vmas_read (sim);
  FlRbAccess acc = fl_vma_rb_access (st);
  /* the simulation's own buffer: the check runs after most steps, and an allocation each
   * time was most of a long run's time under the sanitizers */
  GString *why = sim->tree_why;
  g_string_truncate (why, 0);
  gboolean ok = rebalancing (st)
                ? fl_rb_validate_shape (&acc, st->g->mm.root, st->sizes.nvmas - 1, why)
                : fl_rb_validate (&acc, st->g->mm.root, st->sizes.nvmas - 1, why);
  if (!ok)
    {
      fl_finding (sim, cpu, FL_FINDING_TREE_INVARIANT, st->g->mm.root, "VMA tree: %s", why->str);
      return;
    }
  /* the tree and the VMA list must hold the same VMAs in the same order; a writer may be
   * between linking one and the other */
  if (rebalancing (st))
    return;
  for (guint c = 0; c < st->sizes.ncpus; c++)
    if (st->cpus[c].writer && st->cpus[c].mmap_sem_held == 2)
      return;
  guint32 t = fl_rb_first (&acc, st->g->mm.root), l = st->g->mm.mmap;
  while (t && l && t == l)
    {
      t = fl_rb_next (&acc, t);
      l = st->vmas[l].next;
    }
  if (t != l)
    fl_finding (sim, cpu, FL_FINDING_TREE_INVARIANT, t ? t : l,
                "the VMA tree and the VMA list disagree at VMA %u", t ? t : l);
}

/* How a present PTE contradicts its VMA. */
typedef enum { FL_STALE_UNMAPPED, FL_STALE_NO_ACCESS, FL_STALE_READ_ONLY } FlStale;

/* The stale PTE's objects, and who installed it: a fault, either on its own (its VMA forbade
 * the access) or while `cpu`, a writer, changed the VMA under it. */
static void
stale_cause (FlSim *sim, FlFinding *f, guint cpu, guint32 table, guint index, guint32 vma,
             FlStale how)
{
  guint64 pte = fl_table_entries (&sim->st, table)[index], at;
  const char *what = (pte & FL_PTE_WRITE) ? "writable" : "present";
  guint installer;
  if (f == NULL)
    return;
  f->objects.table = table;
  f->objects.pte = (gint32) index;
  f->objects.page = FL_PTE_PAGE (pte);
  if (!fl_cause_pte_installer (sim, table, index, &installer, &at))
    return;
  if (how == FL_STALE_UNMAPPED && installer == cpu)
    fl_finding_caused_by (sim, f, installer, at, FL_DEFECT_RACED_UNMAP,
                          "cpu%u installed a %s PTE where no VMA covers the address", installer, what);
  else if (how == FL_STALE_UNMAPPED)
    fl_finding_caused_by (sim, f, installer, at, FL_DEFECT_RACED_UNMAP,
                          "cpu%u installed a %s PTE after cpu%u's munmap removed its VMA",
                          installer, what, cpu);
  else if (installer == cpu)
    fl_finding_caused_by (sim, f, installer, at, FL_DEFECT_NO_ACCESS_CHECK,
                          "cpu%u installed a %s PTE in VMA %u, which %s", installer, what, vma,
                          how == FL_STALE_NO_ACCESS ? "allows no access" : "is read-only");
  else
    fl_finding_caused_by (sim, f, installer, at, FL_DEFECT_RACED_MPROTECT,
                          "cpu%u installed a %s PTE after cpu%u's mprotect made VMA %u %s",
                          installer, what, cpu, vma,
                          how == FL_STALE_NO_ACCESS ? "inaccessible" : "read-only");
}

/* A present PTE must lie in a live VMA that allows what the PTE grants. */
static gboolean
pte_allowed (FlSim *sim, guint cpu, guint32 table, guint index)
{
  const FlState *st = &sim->st;
  guint64 pte = fl_table_entries (st, table)[index];
  guint64 addr = st->tables[table].base + (guint64) index * FL_PAGE_SIZE;
  FlFinding *f;
  /* a PAGE_NONE entry keeps its page but grants nothing */
  if ((pte & FL_PTE_KIND_MASK) != FL_PTE_PRESENT || (pte & FL_PTE_PROTNONE))
    return TRUE;
  guint32 vma = fl_vma_covering (st, addr);
  if (vma == 0)
    {
      f = fl_finding (sim, cpu, FL_FINDING_STALE_MAPPING, 0,
                      "address 0x%" G_GINT64_MODIFIER "x is still mapped (page %u) but no VMA "
                      "covers it any more", addr, FL_PTE_PAGE (pte));
      stale_cause (sim, f, cpu, table, index, vma, FL_STALE_UNMAPPED);
      return FALSE;
    }
  if (!(st->vmas[vma].flags & (FL_VM_READ | FL_VM_WRITE | FL_VM_EXEC)))
    {
      f = fl_finding (sim, cpu, FL_FINDING_STALE_MAPPING, vma,
                      "address 0x%" G_GINT64_MODIFIER "x is mapped (page %u) but its VMA %u "
                      "allows no access", addr, FL_PTE_PAGE (pte), vma);
      stale_cause (sim, f, cpu, table, index, vma, FL_STALE_NO_ACCESS);
      return FALSE;
    }
  if ((pte & FL_PTE_WRITE) && !(st->vmas[vma].flags & FL_VM_WRITE))
    {
      f = fl_finding (sim, cpu, FL_FINDING_STALE_MAPPING, vma,
                      "address 0x%" G_GINT64_MODIFIER "x is mapped writable but its VMA %u no "
                      "longer allows writes", addr, vma);
      stale_cause (sim, f, cpu, table, index, vma, FL_STALE_READ_ONLY);
      return FALSE;
    }
  return TRUE;
}

/* Every present PTE in a live VMA that allows it; the first that is not is the finding. Only
 * the tables that changed since a check that found nothing are read (fl-oracle-mappings.c):
 * the others are still right, so the first wrong PTE is the same one. */
static void
check_mappings (FlSim *sim, guint cpu)
{
  FlState *st = &sim->st;
  /* every PTE against every VMA: for the explorer, a read of the whole state */
  if (sim->footprint != NULL)
    sim->footprint->everything = TRUE;
  gboolean some = fl_oracle_mappings_begin (sim);
  for (guint t = 1; t < st->sizes.ntables; t++)
    {
      const FlTable *table = &st->tables[t];
      if (table->state != FL_OBJ_LIVE || table->level != 1
          || (some && !fl_oracle_mappings_suspect (sim, t)))
        continue;
      const guint64 *e = fl_table_entries (st, t);
      for (guint i = 0; i < FL_PTRS_PER_TABLE; i++)
        if (e[i] && !pte_allowed (sim, cpu, t, i))
          {
            fl_oracle_mappings_end (sim, FALSE);
            return;
          }
    }
  fl_oracle_mappings_end (sim, TRUE);
}

static gint
compare_pages (gconstpointer a, gconstpointer b)
{
  guint32 x = *(const guint32 *) a, y = *(const guint32 *) b;
  return (x > y) - (x < y);
}

/* How many times @page is in @mapped (sorted). */
static gint32
times_mapped (const GArray *mapped, guint32 page)
{
  const guint32 *m = (const guint32 *) mapped->data;
  guint lo = 0, hi = mapped->len;
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      if (m[mid] < page)
        lo = mid + 1;
      else
        hi = mid;
    }
  guint end = lo;
  while (end < mapped->len && m[end] == page)
    end++;
  return (gint32) (end - lo);
}

/* Page references and RSS counters must balance once nothing is in flight. The pages the
 * PTEs map are listed and sorted, not counted in an array of every page frame: a run's end
 * (every schedule the explorer runs has one) would clear megabytes for a few dozen pages. */
static void
check_counts (FlSim *sim, guint cpu)
{
  FlState *st = &sim->st;
  g_autoptr (GArray) mapped = g_array_new (FALSE, FALSE, sizeof (guint32));
  gint64 anon = 0, file = 0;
  for (guint t = 1; t < st->sizes.ntables; t++)
    {
      if (st->tables[t].state != FL_OBJ_LIVE || st->tables[t].level != 1)
        continue;
      const guint64 *e = fl_table_entries (st, t);
      for (guint i = 0; i < FL_PTRS_PER_TABLE; i++)
        if ((e[i] & FL_PTE_KIND_MASK) == FL_PTE_PRESENT)
          {
            guint32 p = FL_PTE_PAGE (e[i]);
            if (p == st->g->zero_page)
              continue;
            g_array_append_val (mapped, p);
            if (st->pages[p].flags & FL_PAGE_FILE)
              file++;
            else
              anon++;
          }
    }
  g_array_sort (mapped, compare_pages);
  /* only pages marked written can be live: one never written is all zeros, FL_OBJ_FREE (a
   * zone's blocks bring a thousand page frames at once, few of which are ever handed out) */
  const guint64 *written = st->page_marks.written;
  for (guint w = 0; w < (st->sizes.npages + 63) / 64; w++)
    for (guint64 bits = written[w]; bits != 0; bits &= bits - 1)
      {
        guint p = w * 64 + (guint) __builtin_ctzll (bits);
        const FlPage *pg = &st->pages[p];
        if (p == 0 || pg->state != FL_OBJ_LIVE || p == st->g->zero_page
            || (pg->flags & FL_PAGE_TABLE))
          continue;
        gint32 maps = times_mapped (mapped, p);
        if (pg->mapcount != maps + pg->ext_maps || pg->count != maps + pg->ext_refs
            || pg->count < 0)
          {
            fl_finding (sim, cpu, FL_FINDING_REFCOUNT, p,
                        "page %u has %d references and %d mappings, but %d PTEs map it "
                        "(plus %d references held elsewhere)", p, pg->count, pg->mapcount, maps,
                        pg->ext_refs);
            return;
          }
      }
  /* per-thread caches count too: they are folded into the mm when a thread syncs */
  gint64 rss_anon = st->g->mm.rss_anon, rss_file = st->g->mm.rss_file;
  for (guint c = 0; c < st->sizes.ncpus; c++)
    {
      rss_anon += st->cpus[c].rss_anon;
      rss_file += st->cpus[c].rss_file;
    }
  if (rss_anon != anon || rss_file != file)
    fl_finding (sim, cpu, FL_FINDING_RSS_IMBALANCE, 0,
                "RSS counters say %" G_GINT64_FORMAT " anonymous and %" G_GINT64_FORMAT
                " file pages, the page tables map %" G_GINT64_FORMAT " and %" G_GINT64_FORMAT,
                rss_anon, rss_file, anon, file);
}

void
fl_oracle_after_step (FlSim *sim, guint cpu)
{
  fl_oracle_mappings_step (sim);
  if (sim->config.oracle == FL_ORACLE_EVERY_STEP && sim->ev.kind == FL_EV_TREE)
    check_tree (sim, cpu);
}

/* The fault just installed a PTE: if no writer is at work, it must already be right. */
void
fl_oracle_check_pte (FlSim *sim, guint cpu, guint64 addr)
{
  FlState *st = &sim->st;
  note_vmas_read (sim);
  if (writers_active (st))
    return;
  if (G_UNLIKELY (sim->footprint != NULL))
    {
      fl_note (sim, FL_KEY (FL_KEY_LINE, FL_LINE_MM_SEM), FALSE);
      for (guint level = 4; level >= 1; level--)
        {
          guint32 at = fl_lookup_table (st, addr, level);
          if (at)
            fl_note (sim, FL_KEY (FL_KEY_LINE, fl_line_of_table (st, at)), FALSE);
        }
    }
  guint32 t = fl_lookup_table (st, addr, 1);
  if (t && st->tables[t].state == FL_OBJ_LIVE)
    pte_allowed (sim, cpu, t, fl_walk_index (1, addr));
}

/* An operation is over: it must leave no lock, no RCU section and IRQs on. */
void
fl_oracle_op_done (FlSim *sim, guint cpu)
{
  FlState *st = &sim->st;
  const FlCpu *c = &st->cpus[cpu];
  if (c->locks_held || c->rcu_nesting || c->irqs_off || c->mmap_sem_held)
    fl_finding (sim, cpu, FL_FINDING_LOCK_IMBALANCE, cpu,
                "cpu%u finished an operation still holding %u spinlock(s), %u RCU read "
                "section(s), mmap_sem %s, IRQs %s", cpu, c->locks_held, c->rcu_nesting,
                c->mmap_sem_held ? "held" : "free", c->irqs_off ? "off" : "on");
  gboolean was_writer = c->writer;
  if (was_writer)
    FL_CPU_RW (st, cpu, writer) = FALSE;
  if (sim->config.oracle == FL_ORACLE_EVERY_STEP && was_writer && !writers_active (st))
    check_mappings (sim, cpu);
}

void
fl_oracle_full (FlSim *sim, gboolean at_end)
{
  guint cpu = sim->step_cpu;
  check_tree (sim, cpu);
  check_mappings (sim, cpu);
  if (at_end)
    check_counts (sim, cpu);
}

/* Who a parked CPU waits for; running CPUs wait for nobody. */
static guint
waits_for (FlSim *sim, guint cpu, guint *out)
{
  FlState *st = &sim->st;
  const FlCpu *c = &st->cpus[cpu];
  guint n = 0;
  switch (c->status)
    {
    case FL_CPU_SPIN:
      {
        gint32 h = fl_lock_holder (sim, c->wait_obj);
        if (h >= 0)
          out[n++] = h;
        break;
      }
    case FL_CPU_SLEEP:
      if (c->wait_obj == FL_RWSEM_WAIT)
        for (guint i = 0; i < st->sizes.ncpus; i++)
          if (st->cpus[i].mmap_sem_held && i != cpu)
            out[n++] = i;
      /* a writer waiting for a VMA's references waits for the faults holding them */
      if ((c->wait_obj & ~0xffffu) == FL_VMA_REF_WAIT (0))
        n = fl_refcount_holders (st, c->wait_obj & 0xffffu, out);
      break;
    case FL_CPU_IPI_WAIT:
      for (guint i = 0; i < st->sizes.ncpus; i++)
        if (((st->cpus[i].ipi_senders[cpu / 64] >> (cpu % 64)) & 1) && st->cpus[i].irqs_off
            && st->cpus[i].status != FL_CPU_RUNNING)
          out[n++] = i;
      break;
    default:
      break;
    }
  return n;
}

static gboolean
find_cycle (FlSim *sim, guint start, guint at, guint8 *seen, guint *path, guint depth)
{
  guint next[FL_MAX_CPUS];
  guint n = waits_for (sim, at, next);
  path[depth] = at;
  for (guint i = 0; i < n; i++)
    {
      if (next[i] == start)
        {
          path[depth + 1] = start;
          return TRUE;
        }
      if (!seen[next[i]])
        {
          seen[next[i]] = TRUE;
          if (find_cycle (sim, start, next[i], seen, path, depth + 1))
            return TRUE;
        }
    }
  return FALSE;
}

static const char *
why_waiting (FlSim *sim, guint cpu, char *buf, gsize size)
{
  const FlCpu *c = &sim->st.cpus[cpu];
  char lock[64];
  switch (c->status)
    {
    case FL_CPU_SPIN:
      g_snprintf (buf, size, "cpu%u spins on %s with IRQs %s", cpu,
                  fl_lock_name (sim, c->wait_obj, lock, sizeof lock), c->irqs_off ? "off" : "on");
      break;
    case FL_CPU_IPI_WAIT:
      g_snprintf (buf, size, "cpu%u waits for TLB-flush acknowledgements", cpu);
      break;
    case FL_CPU_SLEEP:
      if ((c->wait_obj & ~0xffffu) == FL_VMA_REF_WAIT (0))
        {
          g_snprintf (buf, size, "cpu%u sleeps until VMA %u's references are gone", cpu,
                      c->wait_obj & 0xffffu);
          break;
        }
      g_snprintf (buf, size, "cpu%u sleeps on mmap_sem", cpu);
      break;
    default:
      g_snprintf (buf, size, "cpu%u sleeps on mmap_sem", cpu);
    }
  return buf;
}

/**
 * fl_oracle_fault_allowed:
 * @sim: the simulation
 * @cpu: the CPU whose speculative fault just succeeded
 * @addr: the faulting address
 * @fault_flags: FL_FAULT_* of the fault
 * @vma_ref: the VMA the fault ran on
 *
 * A fault the VMA forbids must end in SIGSEGV. If the VMA's flags did not allow the access
 * when the fault checked the VMA's range (FlCpu.spf_vm_flags), its success is wrong: a write
 * to a read-only page faults again for ever, a read of a PROT_NONE page reads what the
 * program must not see. (A VMA changed after that check is the stale-mapping check's.)
 */
void
fl_oracle_fault_allowed (FlSim *sim, guint cpu, guint64 addr, guint32 fault_flags,
                         guint32 vma_ref)
{
  guint32 seen = sim->st.cpus[cpu].spf_vm_flags;
  if (fl_vm_flags_allow (seen, fault_flags))
    return;
  fl_finding (sim, cpu, FL_FINDING_MISSED_SIGSEGV, fl_ref_id (vma_ref),
              "cpu%u's %s fault at 0x%" G_GINT64_MODIFIER "x succeeded in VMA %u, which did "
              "not allow it: 2.6.32 sends SIGSEGV",
              cpu, (fault_flags & FL_FAULT_WRITE) ? "write" : "read", addr, fl_ref_id (vma_ref));
}

/* The cycle's defect is the CPU that waits with IRQs off (it cannot answer the others' IPIs),
 * else the one that closed the cycle; its lock is the object. */
static void
deadlock_cause (FlSim *sim, FlFinding *f, const guint *path, guint len)
{
  const FlState *st = &sim->st;
  guint cause = f ? f->cpu : 0;
  if (f == NULL)
    return;
  for (guint i = 0; i < len; i++)
    if (st->cpus[path[i]].irqs_off)
      cause = path[i];
  const FlCpu *c = &st->cpus[cause];
  if (c->status == FL_CPU_STUCK && c->wait_obj && FL_LOCK_KIND (c->wait_obj) == FL_LOCK_PTL)
    {
      f->objects.table = FL_LOCK_INDEX (c->wait_obj);
      f->objects.ptl = TRUE;
      f->objects.holder = fl_lock_holder (sim, c->wait_obj);
    }
  if (c->irqs_off && c->wait_obj)
    {
      char lock[64];
      fl_finding_caused_by (sim, f, cause, f->step, FL_DEFECT_SPIN_IRQS_OFF,
                            "cpu%u spins on %s with IRQs off, and the others wait for it", cause,
                            fl_lock_name (sim, c->wait_obj, lock, sizeof lock));
    }
}

/**
 * fl_oracle_deadlock:
 * @sim: the simulation
 * @cpu: a CPU that just parked
 *
 * Follows what @cpu waits for; a path back to @cpu is a deadlock: reported once, and every
 * CPU on it is stuck for good.
 *
 * Returns: %TRUE when a deadlock was found.
 */
gboolean
fl_oracle_deadlock (FlSim *sim, guint cpu)
{
  FlState *st = &sim->st;
  guint8 seen[FL_MAX_CPUS] = { 0 };
  guint path[FL_MAX_CPUS + 2];
  if (st->g->deadlocked || !find_cycle (sim, cpu, cpu, seen, path, 0))
    return FALSE;
  GString *text = g_string_new ("deadlock: ");
  char buf[160];
  guint len = 0;
  while (len == 0 || path[len] != cpu)
    len++;
  for (guint i = 0; i < len; i++)
    {
      g_string_append_printf (text, "%s%s", i ? "; " : "", why_waiting (sim, path[i], buf, sizeof buf));
      fl_cpu_set_status (st, path[i], FL_CPU_STUCK);
    }
  if (st->cpus[cpu].status == FL_CPU_STUCK && st->cpus[path[len - 1]].irqs_off)
    g_string_append (text, " — a CPU spinning with IRQs off never takes the TLB-flush IPI");
  FL_G_RW (st, deadlocked) = TRUE;
  FlFinding *f = fl_finding (sim, cpu, FL_FINDING_DEADLOCK, cpu, "%s", text->str);
  g_string_free (text, TRUE);
  deadlock_cause (sim, f, path, len);
  return TRUE;
}

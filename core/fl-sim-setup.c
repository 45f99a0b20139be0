/* fl-sim-setup.c — building the initial machine from a scenario: sizes, mm, VMAs, pages. */
#include "fl-machine.h"
#include "fl-sim-private.h"

#include <string.h>

#define PCP_SLACK 256u

/* Count the distinct page-table pages a set of ranges can need, level by level. */
static void
count_tables (GHashTable *seen, guint64 start, guint64 end, guint *tables)
{
  static const guint shifts[] = { 39, 30, 21 };   /* a pud, pmd, pte table covers 1 << shift */
  for (guint l = 0; l < G_N_ELEMENTS (shifts); l++)
    for (guint64 a = start >> shifts[l]; a <= (end - 1) >> shifts[l]; a++)
      {
        guint64 key = ((guint64) l << 60) | a;
        if (!g_hash_table_contains (seen, &key))
          {
            g_hash_table_add (seen, g_memdup2 (&key, sizeof key));
            (*tables)++;
          }
      }
}

void
fl_sim_sizes_for (const FlScenario *sc, const FlConfig *config, FlStateSizes *z)
{
  g_autoptr (GHashTable) seen = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  guint tables = 2, vmas = 1, file_pages = 16;
  guint64 pages = 64;

  for (guint i = 0; i < sc->vmas->len; i++)
    {
      const FlScenarioVma *v = &g_array_index (sc->vmas, FlScenarioVma, i);
      count_tables (seen, v->start, v->end, &tables);
      pages += (v->end - v->start) / FL_PAGE_SIZE;
      if (v->kind != FL_MAP_ANON)
        file_pages += (v->end - v->start) / FL_PAGE_SIZE;
      vmas += 2;
    }
  for (guint c = 0; c < sc->programs->len; c++)
    {
      const FlProgram *p = g_ptr_array_index (sc->programs, c);
      for (guint i = 0; i < p->ops->len; i++)
        {
          const FlOp *op = &g_array_index (p->ops, FlOp, i);
          if (op->kind == FL_OP_MMAP || op->kind == FL_OP_MUNMAP || op->kind == FL_OP_MPROTECT)
            vmas += 3;
          if (op->kind == FL_OP_MMAP)
            {
              guint64 start = op->mode == FL_ADDR_BASE ? p->base + op->addr : op->addr;
              if (op->len > 0)
                count_tables (seen, start, start + op->len, &tables);
              pages += op->len / FL_PAGE_SIZE;
              if (op->map_kind != FL_MAP_ANON)
                file_pages += op->len / FL_PAGE_SIZE;
            }
        }
    }
  z->ncpus = config->cpus;
  z->nvmas = MIN (vmas + 16, 0xffffu);
  z->ntables = tables + 8;
  z->npages = (guint) MIN (pages + z->ntables + (guint64) config->cpus * PCP_SLACK, G_MAXUINT32 / 2);
  z->ncache = file_pages;
  z->ncbs = z->nvmas;
  z->nlines = FL_LINE_N_FIXED + z->nvmas + 2 * z->ntables;
}

static void
init_lines (FlState *st)
{
  for (guint i = 0; i < st->sizes.nlines; i++)
    st->lines[i].owner = -1;
  for (guint i = 1; i < st->sizes.nvmas; i++)
    {
      st->lines[fl_line_of_vma (st, i)].kind = FL_LINE_KIND_VMA;
      st->lines[fl_line_of_vma (st, i)].obj = i;
    }
  for (guint i = 1; i < st->sizes.ntables; i++)
    {
      st->lines[fl_line_of_table (st, i)].kind = FL_LINE_KIND_TABLE;
      st->lines[fl_line_of_table (st, i)].obj = i;
      st->lines[fl_line_of_ptl (st, i)].kind = FL_LINE_KIND_PTL;
      st->lines[fl_line_of_ptl (st, i)].obj = i;
    }
}

static guint32
vm_flags_of (guint prot, FlMapKind kind)
{
  guint32 f = 0;
  if (prot & FL_PROT_READ) f |= FL_VM_READ;
  if (prot & FL_PROT_WRITE) f |= FL_VM_WRITE;
  if (prot & FL_PROT_EXEC) f |= FL_VM_EXEC;
  if (kind != FL_MAP_ANON) f |= FL_VM_FILE;
  if (kind == FL_MAP_SHARED) f |= FL_VM_SHARED;
  return f;
}

guint32
fl_sim_vm_flags (guint prot, FlMapKind kind)
{
  return vm_flags_of (prot, kind);
}

/* Insert a VMA into the tree and the sorted list at once: set-up, not a simulated step. */
void
fl_sim_link_vma_now (FlSim *sim, guint32 id)
{
  FlState *st = &sim->st;
  FlRbAccess acc = fl_vma_rb_access (st);
  guint32 prev = 0;
  fl_rb_insert (&acc, &st->g->mm.root, id);
  for (guint32 v = st->g->mm.mmap; v && st->vmas[v].start < st->vmas[id].start; v = st->vmas[v].next)
    prev = v;
  st->vmas[id].next = prev ? st->vmas[prev].next : st->g->mm.mmap;
  if (prev)
    st->vmas[prev].next = id;
  else
    st->g->mm.mmap = id;
  st->g->mm.map_count++;
}

/* Walk from the pgd to the PTE table of addr, creating missing tables (set-up only). */
static guint32
ensure_pte_table (FlSim *sim, guint64 addr)
{
  FlState *st = &sim->st;
  guint32 table = st->g->mm.pgd;
  for (guint level = 4; level > 1; level--)
    {
      guint64 *e = &fl_table_entries (st, table)[fl_walk_index (level, addr)];
      if (*e == 0)
        {
          guint shift = 12 + 9 * (level - 1);
          *e = fl_table_alloc (sim, level - 1, addr >> shift << shift);
          st->tables[table].used++;
        }
      table = (guint32) *e;
    }
  return table;
}

static gboolean
place_pte (FlSim *sim, const FlScenarioPte *p, GError **error)
{
  FlState *st = &sim->st;
  guint32 vma = fl_vma_covering (st, p->addr);
  if (vma == 0)
    {
      g_set_error (error, FL_SIM_ERROR, FL_SIM_ERROR_SCENARIO,
                   "line %u: pte 0x%" G_GINT64_MODIFIER "x is outside every mapping",
                   p->line, p->addr);
      return FALSE;
    }
  guint32 table = ensure_pte_table (sim, p->addr);
  guint64 *e = &fl_table_entries (st, table)[fl_walk_index (1, p->addr)];
  const FlVma *v = &st->vmas[vma];
  guint32 page = 0;
  guint64 bits = 0;

  if (p->state == FL_PTE_INIT_SWAP)
    {
      bits = FL_PTE_SWAP;
      page = 1 + (guint32) ((p->addr / FL_PAGE_SIZE) & 0xffffff);   /* the swap slot */
    }
  else
    {
      if (v->flags & FL_VM_FILE && p->state != FL_PTE_INIT_MIGRATION)
        page = fl_page_cache_get (sim, v->file, (guint32) (v->pgoff + (p->addr - v->start) / FL_PAGE_SIZE));
      else
        {
          page = fl_page_take (sim);
          st->pages[page].flags |= FL_PAGE_ANON;
        }
      if (p->state == FL_PTE_INIT_MIGRATION)
        {
          /* the migrating side holds the only reference while the entry is in place */
          bits = FL_PTE_MIGRATION;
          st->pages[page].count++;
          st->pages[page].ext_refs++;
          st->pages[page].flags |= FL_PAGE_LOCKED;
        }
      else
        {
          bits = FL_PTE_PRESENT | FL_PTE_YOUNG;
          st->pages[page].count++;
          st->pages[page].mapcount++;
          if (p->state == FL_PTE_INIT_READONLY && !(v->flags & FL_VM_SHARED))
            {
              /* shared with a forked child: its mapping and reference live elsewhere */
              st->pages[page].count++;
              st->pages[page].mapcount++;
              st->pages[page].ext_refs++;
              st->pages[page].ext_maps++;
            }
          else if (v->flags & FL_VM_WRITE)
            bits |= FL_PTE_WRITE | FL_PTE_DIRTY;
          fl_rss_add (sim, 0, !(st->pages[page].flags & FL_PAGE_FILE), 1);
        }
    }
  if (*e == 0)
    st->tables[table].used++;
  *e = FL_PTE_MAKE (page, bits);
  return TRUE;
}

gboolean
fl_sim_setup (FlSim *sim, GError **error)
{
  FlState *st = &sim->st;
  FlGlobals *g = st->g;
  const FlScenario *sc = sim->scenario;

  init_lines (st);
  g->rng = sim->seed * 0x9e3779b97f4a7c15ull + 0x2545f4914f6cdd1dull;
  if (g->rng == 0)
    g->rng = 1;
  g->mm.ptl_holder = g->zone_lock_holder = g->lru_lock_holder = -1;
  g->mm.sem.wait_holder = -1;

  /* every page starts in the zone's free list, except the shared zero page */
  for (guint32 p = st->sizes.npages - 1; p >= 1; p--)
    fl_page_give (sim, p);
  g->zero_page = fl_page_take (sim);
  st->pages[g->zero_page].flags = FL_PAGE_ZERO;
  st->pages[g->zero_page].count = 1;
  st->pages[g->zero_page].ext_refs = 1;

  g->mm.pgd = fl_table_alloc (sim, 4, 0);

  for (guint c = 0; c < st->sizes.ncpus; c++)
    {
      FlCpu *cpu = &st->cpus[c];
      const FlProgram *p = c < sc->programs->len ? g_ptr_array_index (sc->programs, c) : NULL;
      cpu->cursor = p ? p->base : 0;
      cpu->in_mm = p != NULL && p->ops->len > 0;
      fl_cpu_set_status (st, c, cpu->in_mm ? FL_CPU_RUNNING : FL_CPU_DONE);
    }

  for (guint i = 0; i < sc->vmas->len; i++)
    {
      const FlScenarioVma *sv = &g_array_index (sc->vmas, FlScenarioVma, i);
      guint32 id = fl_vma_alloc (sim);
      FlVma *v = &st->vmas[id];
      v->start = sv->start;
      v->end = sv->end;
      v->flags = vm_flags_of (sv->prot, sv->kind);
      v->file = sv->kind == FL_MAP_ANON ? 0 : i + 1;
      fl_sim_link_vma_now (sim, id);
    }
  for (guint i = 0; i < sc->ptes->len; i++)
    if (!place_pte (sim, &g_array_index (sc->ptes, FlScenarioPte, i), error))
      return FALSE;
  return TRUE;
}

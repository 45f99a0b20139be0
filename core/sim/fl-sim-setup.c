/* fl-sim-setup.c — building the initial machine from a scenario: sizes, mm, VMAs, pages. */
#include "fl-sim-internal.h"
#include "fl-sim-private.h"

#include <string.h>

#define PCP_SLACK 256u

/* A range of table indices at one level: [first, last]. */
typedef struct {
  guint64 first, last;
} Span;

static gint
by_first (gconstpointer a, gconstpointer b)
{
  const Span *x = a, *y = b;
  return x->first < y->first ? -1 : x->first > y->first;
}

/* Distinct indices the spans cover: sorted and merged, so a mapping of the whole address
 * space costs its number of ranges, not its number of tables. */
static guint64
union_size (GArray *spans)
{
  guint64 n = 0, upto = 0;
  gboolean any = FALSE;
  g_array_sort (spans, by_first);
  for (guint i = 0; i < spans->len; i++)
    {
      const Span *s = &g_array_index (spans, Span, i);
      if (any && s->last <= upto)
        continue;
      guint64 from = any && s->first <= upto ? upto + 1 : s->first;
      n += s->last - from + 1;
      upto = s->last;
      any = TRUE;
    }
  return n;
}

/* The page-table pages a range can need, level by level (a pud, pmd or pte table covers
 * 1 << 39, 30 or 21 bytes). */
static void
add_range (GArray **levels, guint64 start, guint64 end)
{
  static const guint shifts[] = { 39, 30, 21 };
  for (guint l = 0; l < G_N_ELEMENTS (shifts); l++)
    {
      Span s = { start >> shifts[l], (end - 1) >> shifts[l] };
      g_array_append_val (levels[l], s);
    }
}

/* What the machine was sized for before its arrays grew: where the lines of VMAs and page
 * tables lie (events name lines by id, so a scenario keeps the ids it always had), and the
 * size of the zone, whose free count the page allocator's events show. Nothing is
 * allocated from these numbers. */
void
fl_sim_sizes_for (const FlScenario *sc, const FlConfig *config, FlStateSizes *z,
                  guint32 *zone_pages)
{
  GArray *levels[3];
  guint64 tables = 2, vmas = 1, pages = 64;

  for (guint l = 0; l < G_N_ELEMENTS (levels); l++)
    levels[l] = g_array_new (FALSE, FALSE, sizeof (Span));
  for (guint i = 0; i < sc->vmas->len; i++)
    {
      const FlScenarioVma *v = &g_array_index (sc->vmas, FlScenarioVma, i);
      add_range (levels, v->start, v->end);
      pages += (v->end - v->start) / FL_PAGE_SIZE;
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
                add_range (levels, start, start + op->len);
              pages += op->len / FL_PAGE_SIZE;
            }
        }
    }
  for (guint l = 0; l < G_N_ELEMENTS (levels); l++)
    {
      tables += union_size (levels[l]);
      g_array_unref (levels[l]);
    }

  memset (z, 0, sizeof *z);
  z->ncpus = config->cpus;
  z->line_nodes = config->numa == FL_NUMA_PER_SOCKET ? 2 * (MAX (config->sockets, 1u) - 1) : 0;
  z->line_memcg = config->memcg ? FL_MEMCG_N_LINES : 0;
  z->nlines = FL_LINE_N_FIXED + z->line_nodes + z->line_memcg;
  /* slot 0 of each array, "none"; the rest come as the run allocates */
  z->nvmas = z->ntables = z->npages = z->ncache = z->ncbs = 1;
  z->ncache_index = 16;
  z->line_vmas = (guint) MIN (vmas + 16, 0xffffu);
  /* Past the most table ids there can be (16 bits), the old layout named lines no event
   * could hold: such a scenario gets its table lines as its tables come. */
  z->line_tables = tables + 8 <= 0xffffu ? (guint) tables + 8 : 0;
  /* only Kamezawa's design has a line per VMA for its reference count */
  z->line_refs = config->fault_path == FL_FAULT_PATH_SPECULATIVE_REFCOUNT ? z->line_vmas : 0;
  /* the buddy allocator hands out aligned blocks of 2^(FL_MAX_ORDER - 1) pages, the first
   * at that many (fl-buddy.c): room for whole blocks */
  guint64 block = 1u << (FL_MAX_ORDER - 1);
  guint64 needed = pages + tables + 8 + (guint64) config->cpus * PCP_SLACK;
  *zone_pages = (guint32) MIN ((needed + block - 1) / block * block + block, G_MAXUINT32 / 2);
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
  FlRbAccess acc = fl_vma_rb_access_rw (st);
  guint32 prev = 0;
  fl_rb_insert (&acc, &FL_G_RW (st, mm.root), id);
  for (guint32 v = st->g->mm.mmap; v && st->vmas[v].start < st->vmas[id].start; v = st->vmas[v].next)
    prev = v;
  fl_vma_rw (st, id)->next = prev ? st->vmas[prev].next : st->g->mm.mmap;
  if (prev)
    fl_vma_rw (st, prev)->next = id;
  else
    FL_G_RW (st, mm.mmap) = id;
  FL_G_RW (st, mm.map_count)++;
}

/* Whether set-up can allocate `vmas` more VMAs and `tables` more page tables; otherwise an
 * error naming the scenario's line and the limit. */
gboolean
fl_sim_room_for (FlSim *sim, guint vmas, guint tables, guint line, GError **error)
{
  const FlGlobals *g = sim->st.g;
  const FlScenario *sc = sim->scenario;
  const char *what = NULL;
  guint limit = 0;
  if (g->vmas_used + vmas > FL_MAX_VMAS)
    what = "VMAs", limit = FL_MAX_VMAS;
  else if (g->tables_used + tables > FL_MAX_TABLES)
    what = "page tables", limit = FL_MAX_TABLES;
  if (what == NULL)
    return TRUE;
  g_set_error (error, FL_SIM_ERROR, FL_SIM_ERROR_CAPACITY,
               "%s:%u: the scenario needs more than %u %s at the start (the limit)",
               sc->path ? sc->path : sc->id, line, limit, what);
  return FALSE;
}

/* Walk from the pgd to the PTE table of addr, creating missing tables (set-up only). */
static guint32
ensure_pte_table (FlSim *sim, guint64 addr)
{
  FlState *st = &sim->st;
  guint32 table = st->g->mm.pgd;
  for (guint level = 4; level > 1; level--)
    {
      guint32 index = fl_walk_index (level, addr);
      guint64 entry = fl_table_entries (st, table)[index];
      if (entry == 0)
        {
          guint shift = 12 + 9 * (level - 1);
          /* the allocation may move the tables: the entry is found again after it */
          entry = fl_table_alloc (sim, level - 1, addr >> shift << shift);
          fl_table_entries_rw (st, table)[index] = entry;
          fl_table_rw (st, table)->used++;
        }
      table = (guint32) entry;
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
  /* a PTE needs at most a pud, a pmd and a PTE table */
  if (!fl_sim_room_for (sim, 0, 3, p->line, error))
    return FALSE;
  guint32 table = ensure_pte_table (sim, p->addr);
  guint64 *e = &fl_table_entries_rw (st, table)[fl_walk_index (1, p->addr)];
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
          fl_page_rw (st, page)->flags |= FL_PAGE_ANON;
        }
      if (p->state == FL_PTE_INIT_MIGRATION)
        {
          /* the migrating side holds the only reference while the entry is in place */
          bits = FL_PTE_MIGRATION;
          fl_page_rw (st, page)->count++;
          fl_page_rw (st, page)->ext_refs++;
          fl_page_rw (st, page)->flags |= FL_PAGE_LOCKED;
        }
      else
        {
          bits = FL_PTE_PRESENT | FL_PTE_YOUNG;
          fl_page_rw (st, page)->count++;
          fl_page_rw (st, page)->mapcount++;
          if (p->state == FL_PTE_INIT_READONLY && !(v->flags & FL_VM_SHARED))
            {
              /* shared with a forked child: its mapping and reference live elsewhere */
              fl_page_rw (st, page)->count++;
              fl_page_rw (st, page)->mapcount++;
              fl_page_rw (st, page)->ext_refs++;
              fl_page_rw (st, page)->ext_maps++;
            }
          else if (v->flags & FL_VM_WRITE)
            bits |= FL_PTE_WRITE | FL_PTE_DIRTY;
          fl_rss_add (sim, 0, !(st->pages[page].flags & FL_PAGE_FILE), 1);
        }
    }
  if (*e == 0)
    fl_table_rw (st, table)->used++;
  *e = FL_PTE_MAKE (page, bits);
  return TRUE;
}

gboolean
fl_sim_setup (FlSim *sim, guint32 zone_pages, GError **error)
{
  FlState *st = &sim->st;
  FlGlobals *g = fl_globals_rw (st);
  const FlScenario *sc = sim->scenario;

  g->rng = sim->seed * 0x9e3779b97f4a7c15ull + 0x2545f4914f6cdd1dull;
  if (g->rng == 0)
    g->rng = 1;
  g->mm.ptl_holder = -1;
  g->mm.sem.wait_holder = -1;
  g->nodes = sim->config.numa == FL_NUMA_PER_SOCKET ? MIN (sim->config.sockets, FL_MAX_NODES) : 1;
  for (guint n = 0; n < FL_MAX_NODES; n++)
    g->zones[n].lock_holder = g->zones[n].lru_lock_holder = -1;

  /* every page starts free, except the shared zero page; none exists before it is handed out
   * (fl_page_take) */
  g->zone_pages = zone_pages;
  g->page_fresh = 1;
  g->vma_hint = g->table_hint = 1;
  g->zero_page = fl_page_take (sim);
  fl_page_rw (st, g->zero_page)->flags = FL_PAGE_ZERO;
  fl_page_rw (st, g->zero_page)->count = 1;
  fl_page_rw (st, g->zero_page)->ext_refs = 1;

  g->mm.pgd = fl_table_alloc (sim, 4, 0);

  for (guint c = 0; c < st->sizes.ncpus; c++)
    {
      FlCpu *cpu = fl_cpu_rw (st, c);
      const FlProgram *p = c < sc->programs->len ? g_ptr_array_index (sc->programs, c) : NULL;
      cpu->cursor = p ? p->base : 0;
      cpu->in_mm = p != NULL && p->ops->len > 0;
      fl_cpu_set_status (st, c, cpu->in_mm ? FL_CPU_RUNNING : FL_CPU_DONE);
    }

  for (guint i = 0; i < sc->vmas->len; i++)
    {
      const FlScenarioVma *sv = &g_array_index (sc->vmas, FlScenarioVma, i);
      if (!fl_sim_room_for (sim, 1, 0, sv->line, error))
        return FALSE;
      guint32 id = fl_vma_alloc (sim);
      FlVma *v = fl_vma_rw (st, id);
      v->start = sv->start;
      v->end = sv->end;
      v->flags = vm_flags_of (sv->prot, sv->kind);
      v->file = sv->kind == FL_MAP_ANON ? 0 : i + 1;
      v->vm_file = sv->kind == FL_MAP_ANON ? 0 : fl_file_open (sim);
      if (sv->kind != FL_MAP_ANON && v->vm_file == 0)
        {
          g_set_error (error, FL_SIM_ERROR, FL_SIM_ERROR_CAPACITY,
                       "%s:%u: the scenario maps more than %u files at the start (the limit)",
                       sc->path ? sc->path : sc->id, sv->line, FL_MAX_FILES - 1);
          return FALSE;
        }
      fl_sim_link_vma_now (sim, id);
    }
  for (guint i = 0; i < sc->ptes->len; i++)
    if (!place_pte (sim, &g_array_index (sc->ptes, FlScenarioPte, i), error))
      return FALSE;
  return TRUE;
}

/* fl-pte-fault.c — what happens once the PTE is found: handle_pte_fault and the handlers it
 * picks. Each re-takes the PTE lock through pte_map_lock, which on the speculative path also
 * re-checks the VMA: any failure backs out with VM_FAULT_RETRY, releasing what was taken.
 *
 * Every frame here has the fault's locals (FlLocalsFault), handed on whole. */
#include "fl-sim-internal.h"

#define PAGE_OF(f)          ((f)->l.fault.page)
#define SET_PAGE(f, p)      ((f)->l.fault.page = (p))
#define WRITE_FAULT(f)      (((f)->l.fault.flags & FL_FAULT_WRITE) != 0)
#define RESULT(f)           ((guint32) (f)->l.fault.result)
#define SET_RESULT(f, r)    ((f)->l.fault.result = (guint16) (r))

static guint32
table_of (const FlFrame *f)
{
  return fl_ref_id (f->l.fault.table);
}

static const guint64 *
pte_of (FlSim *sim, const FlFrame *f)
{
  return &fl_table_entries (&sim->st, table_of (f))[fl_walk_index (1, f->l.fault.addr)];
}

/* The same PTE, to write. */
static guint64 *
pte_rw (FlSim *sim, const FlFrame *f)
{
  return &fl_table_entries_rw (&sim->st, table_of (f))[fl_walk_index (1, f->l.fault.addr)];
}

static void
unlock_pte (FlSim *sim, guint cpu, const FlFrame *f)
{
  fl_lock_release (sim, cpu, FL_LOCK_ID (FL_LOCK_PTL, table_of (f)));
}

/* Call pte_map_lock for this frame's address, resuming at `next`, which takes the table it
 * returns (fault_locked). */
static void
map_lock (FlSim *sim, guint cpu, FlFrame *f, FlLoc next)
{
  const FlLocalsFault *l = &f->l.fault;
  FlLocalsPteMapLock *lock = &fl_call (sim, cpu, FL_FN_PTE_MAP_LOCK, next,
                                       (guint32) l->addr)->l.pte_map_lock;
  lock->addr = l->addr;
  lock->flags = l->flags;
  lock->vma = l->vma;
  lock->seq = l->seq;
  /* under mmap_sem it locks this table; the speculative fault walks to its own */
  lock->table = (l->flags & FL_FAULT_SPEC) ? 0 : l->table;
}

/* After map_lock: did pte_map_lock lock the PTE? Then its table is the one to use. */
static gboolean
fault_locked (FlFrame *f)
{
  if (f->ret)
    f->l.fault.table = f->ret;
  return f->ret != 0;
}

static void
set_pte (FlSim *sim, guint cpu, FlFrame *f, guint64 value)
{
  FlState *st = &sim->st;
  guint64 *pte = pte_rw (sim, f);
  fl_check_table (sim, cpu, f->l.fault.table);
  fl_touch (sim, cpu, fl_line_of_table (st, table_of (f)), FL_ACCESS_WRITE);
  if (*pte == 0 && value != 0)
    fl_table_rw (st, table_of (f))->used++;
  *pte = value;
  fl_oracle_pte_written (sim, table_of (f));
  fl_ev (sim, FL_EV_PTE, table_of (f), fl_walk_index (1, f->l.fault.addr));
  if (value != 0)
    fl_cause_note_pte (sim, cpu, f->l.fault.addr);  /* a stale PTE's finding names its maker */
}

/* Read the VMA's flags (checking it is still allocated). */
static guint32
vma_flags (FlSim *sim, guint cpu, const FlFrame *f)
{
  guint32 id = fl_ref_id (f->l.fault.vma);
  fl_check_vma (sim, cpu, f->l.fault.vma);
  fl_touch (sim, cpu, fl_line_of_vma (&sim->st, id), FL_ACCESS_READ);
  return sim->st.vmas[id].flags;
}

/* anon_vma_prepare(vma)'s fast path is one load of vma->anon_vma, made with the step before
 * it (the VMA's line is read there already): `next` when the VMA has one, else the step that
 * calls anon_vma_prepare (fl-anon-vma.c). */
static FlLoc
after_anon_vma (FlSim *sim, guint cpu, const FlFrame *f, FlLoc prepare, FlLoc next)
{
  guint32 id = fl_ref_id (f->l.fault.vma);
  fl_touch (sim, cpu, fl_line_of_vma (&sim->st, id), FL_ACCESS_READ);
  return sim->st.vmas[id].anon_vma ? next : prepare;
}

/* After pte_map_lock: back out with VM_FAULT_RETRY when it failed, or quietly (result 0)
 * when someone else changed the PTE meanwhile; otherwise go on to `next`. */
static void
recheck_pte (FlSim *sim, guint cpu, FlFrame *f, guint64 expected, FlLoc release, FlLoc next)
{
  if (!fault_locked (f))
    {
      SET_RESULT (f, FL_VM_FAULT_RETRY);
      fl_ev (sim, FL_EV_CHECK, 0, 0);
      f->pc = release;
      return;
    }
  fl_touch (sim, cpu, fl_line_of_table (&sim->st, table_of (f)), FL_ACCESS_READ);
  fl_ev (sim, FL_EV_CHECK, table_of (f), *pte_of (sim, f) == expected);
  if (*pte_of (sim, f) != expected)
    {
      unlock_pte (sim, cpu, f);
      SET_RESULT (f, 0);
      f->pc = release;
      return;
    }
  f->pc = next;
}

static void
anon_vma_prepare (FlSim *sim, guint cpu, const FlFrame *f, FlLoc next)
{
  guint32 vma = f->l.fault.vma;
  fl_call (sim, cpu, FL_FN_ANON_VMA_PREPARE, next, vma)->l.anon_vma_prepare.vma = vma;
}

static void
alloc_page (FlSim *sim, guint cpu, FlLoc next, gboolean zero)
{
  fl_call (sim, cpu, FL_FN_ALLOC_PAGE, next, zero)->l.alloc_page.zero = zero;
}

static void
tail_call (FlSim *sim, guint cpu, FlFrame *f, FlFn fn)
{
  fl_call (sim, cpu, fn, FL_LOC_NONE, (guint32) f->l.fault.addr)->l.fault = f->l.fault;
}

static void
step_handle_pte_fault (FlSim *sim, guint cpu, FlFrame *f)
{
  FlState *st = &sim->st;
  guint64 entry = f->l.fault.entry;
  switch (f->pc)
    {
    case FL_LOC_HANDLE_PTE_FAULT_classify:
      {
        guint32 flags = vma_flags (sim, cpu, f);
        switch (entry & FL_PTE_KIND_MASK)
          {
          case FL_PTE_NONE:
            tail_call (sim, cpu, f, flags & FL_VM_FILE ? FL_FN_DO_FAULT : FL_FN_DO_ANONYMOUS_PAGE);
            return;
          case FL_PTE_SWAP:
          case FL_PTE_MIGRATION:
            tail_call (sim, cpu, f, FL_FN_DO_SWAP_PAGE);
            return;
          default:
            fl_ev (sim, FL_EV_CHECK, (guint32) entry, 1);
            f->pc = FL_LOC_HANDLE_PTE_FAULT_pte_map_lock;
            return;
          }
      }
    case FL_LOC_HANDLE_PTE_FAULT_pte_map_lock:
      map_lock (sim, cpu, f, FL_LOC_HANDLE_PTE_FAULT_pte_same);
      return;
    case FL_LOC_HANDLE_PTE_FAULT_pte_same:
      if (!fault_locked (f))
        {
          fl_ev (sim, FL_EV_CHECK, 0, 0);
          fl_return (sim, cpu, FL_VM_FAULT_RETRY);
          return;
        }
      fl_touch (sim, cpu, fl_line_of_table (st, table_of (f)), FL_ACCESS_READ);
      fl_ev (sim, FL_EV_CHECK, table_of (f), *pte_of (sim, f) == entry);
      if (*pte_of (sim, f) != entry)
        f->pc = FL_LOC_HANDLE_PTE_FAULT_unlock;       /* someone else handled it */
      else if (WRITE_FAULT (f) && !(entry & FL_PTE_WRITE))
        f->pc = FL_LOC_HANDLE_PTE_FAULT_do_wp_page;
      else
        f->pc = FL_LOC_HANDLE_PTE_FAULT_mkyoung;
      return;
    case FL_LOC_HANDLE_PTE_FAULT_do_wp_page:
      tail_call (sim, cpu, f, FL_FN_DO_WP_PAGE);      /* with the PTE lock held */
      return;
    case FL_LOC_HANDLE_PTE_FAULT_mkyoung:
      set_pte (sim, cpu, f, entry | FL_PTE_YOUNG | (WRITE_FAULT (f) ? FL_PTE_DIRTY : 0));
      f->pc = FL_LOC_HANDLE_PTE_FAULT_unlock;
      return;
    case FL_LOC_HANDLE_PTE_FAULT_unlock:
      unlock_pte (sim, cpu, f);
      fl_return (sim, cpu, 0);
      return;
    default:
      g_assert_not_reached ();
    }
}

/* do_anonymous_page: the zero page for a read, a new zeroed page for a write. The entry is
 * the PTE value to install, computed from the VMA before taking the lock, as the kernel does. */
static void
step_do_anonymous_page (FlSim *sim, guint cpu, FlFrame *f)
{
  FlState *st = &sim->st;
  switch (f->pc)
    {
    case FL_LOC_DO_ANONYMOUS_PAGE_check_write:
      {
        guint32 flags = vma_flags (sim, cpu, f);
        fl_ev (sim, FL_EV_CHECK, fl_ref_id (f->l.fault.vma), WRITE_FAULT (f));
        if (!WRITE_FAULT (f))
          {
            f->l.fault.entry = FL_PTE_MAKE (st->g->zero_page,
                                            FL_PTE_PRESENT | FL_PTE_SPECIAL | FL_PTE_YOUNG);
            f->pc = FL_LOC_DO_ANONYMOUS_PAGE_pte_map_lock;
            return;
          }
        f->l.fault.entry = FL_PTE_PRESENT | FL_PTE_YOUNG
                  | (flags & FL_VM_WRITE ? FL_PTE_WRITE | FL_PTE_DIRTY : 0);
        f->pc = after_anon_vma (sim, cpu, f, FL_LOC_DO_ANONYMOUS_PAGE_anon_vma_prepare,
                                FL_LOC_DO_ANONYMOUS_PAGE_alloc);
        return;
      }
    case FL_LOC_DO_ANONYMOUS_PAGE_anon_vma_prepare:
      anon_vma_prepare (sim, cpu, f, FL_LOC_DO_ANONYMOUS_PAGE_alloc);
      return;
    case FL_LOC_DO_ANONYMOUS_PAGE_alloc:
      alloc_page (sim, cpu, sim->config.memcg ? FL_LOC_DO_ANONYMOUS_PAGE_charge
                                              : FL_LOC_DO_ANONYMOUS_PAGE_pte_map_lock, TRUE);
      return;
    case FL_LOC_DO_ANONYMOUS_PAGE_charge:
      /* mem_cgroup_newpage_charge (fl-memcg.c): it hands the page back */
      fl_call (sim, cpu, FL_FN_MEM_CGROUP_CHARGE, FL_LOC_DO_ANONYMOUS_PAGE_pte_map_lock,
               f->ret)->l.memcg_charge.page = f->ret;
      return;
    case FL_LOC_DO_ANONYMOUS_PAGE_pte_map_lock:
      if (WRITE_FAULT (f))
        {
          SET_PAGE (f, f->ret);
          f->l.fault.entry = FL_PTE_MAKE (f->ret, f->l.fault.entry);
        }
      map_lock (sim, cpu, f, FL_LOC_DO_ANONYMOUS_PAGE_pte_none);
      return;
    case FL_LOC_DO_ANONYMOUS_PAGE_pte_none:
      if (!fault_locked (f))
        {
          SET_RESULT (f, FL_VM_FAULT_RETRY);
          fl_ev (sim, FL_EV_CHECK, 0, 0);
          f->pc = FL_LOC_DO_ANONYMOUS_PAGE_release;
          return;
        }
      fl_touch (sim, cpu, fl_line_of_table (st, table_of (f)), FL_ACCESS_READ);
      fl_ev (sim, FL_EV_CHECK, table_of (f), *pte_of (sim, f) == 0);
      if (*pte_of (sim, f) != 0)
        {
          /* another thread mapped it first: drop ours */
          unlock_pte (sim, cpu, f);
          SET_RESULT (f, 0);
          f->pc = FL_LOC_DO_ANONYMOUS_PAGE_release;
          return;
        }
      f->pc = WRITE_FAULT (f) ? FL_LOC_DO_ANONYMOUS_PAGE_inc_rss : FL_LOC_DO_ANONYMOUS_PAGE_set_pte;
      return;
    case FL_LOC_DO_ANONYMOUS_PAGE_inc_rss:
      if (sim->config.rss == FL_RSS_SHARED_ATOMIC)
        fl_touch (sim, cpu, FL_LINE_MM_RSS, FL_ACCESS_RMW);
      fl_rss_add (sim, cpu, TRUE, 1);
      fl_ev (sim, FL_EV_RMW, 0, 1);
      f->pc = FL_LOC_DO_ANONYMOUS_PAGE_lru_add;
      return;
    case FL_LOC_DO_ANONYMOUS_PAGE_lru_add:
      {
        /* page_add_new_anon_rmap, then lru_cache_add */
        guint32 page = PAGE_OF (f);
        fl_touch_page (sim, cpu, page);
        fl_page_rw (st, page)->flags |= FL_PAGE_ANON;
        fl_page_rw (st, page)->mapcount = 1;
        fl_call (sim, cpu, FL_FN_LRU_CACHE_ADD, FL_LOC_DO_ANONYMOUS_PAGE_set_pte,
                 page)->l.lru_cache_add.page = page;
        return;
      }
    case FL_LOC_DO_ANONYMOUS_PAGE_set_pte:
      set_pte (sim, cpu, f, f->l.fault.entry);
      f->pc = FL_LOC_DO_ANONYMOUS_PAGE_unlock;
      return;
    case FL_LOC_DO_ANONYMOUS_PAGE_unlock:
      unlock_pte (sim, cpu, f);
      fl_oracle_check_pte (sim, cpu, f->l.fault.addr);
      fl_return (sim, cpu, 0);
      return;
    case FL_LOC_DO_ANONYMOUS_PAGE_release:
      if (PAGE_OF (f))
        fl_put_page (sim, cpu, PAGE_OF (f));
      fl_ev (sim, FL_EV_FREE, PAGE_OF (f), RESULT (f));
      fl_return (sim, cpu, RESULT (f));
      return;
    default:
      g_assert_not_reached ();
    }
}

/* __do_fault: a page-cache page (a soft fault: it is cached already); a private write gets
 * its own copy at once. */
static void
step_do_fault (FlSim *sim, guint cpu, FlFrame *f)
{
  FlState *st = &sim->st;
  switch (f->pc)
    {
    case FL_LOC_DO_FAULT_vm_fault:
      {
        guint32 flags = vma_flags (sim, cpu, f);
        const FlVma *v = &st->vmas[fl_ref_id (f->l.fault.vma)];
        /* ->fault (filemap_fault) reads vma->vm_file->f_mapping: is the file still there? */
        fl_check_vm_file (sim, cpu, fl_ref_id (f->l.fault.vma));
        guint32 pgoff = (guint32) (v->pgoff + (f->l.fault.addr - v->start) / FL_PAGE_SIZE);
        guint32 page = fl_page_cache_get (sim, v->file, pgoff);
        fl_page_rw (st, page)->count++;                         /* find_get_page */
        SET_PAGE (f, page);
        fl_ev (sim, FL_EV_LOAD, page, pgoff);
        gboolean cow = WRITE_FAULT (f) && !(flags & FL_VM_SHARED);
        f->l.fault.entry = FL_PTE_PRESENT | FL_PTE_YOUNG
                  | (WRITE_FAULT (f) && (flags & FL_VM_WRITE) ? FL_PTE_WRITE | FL_PTE_DIRTY : 0);
        f->pc = cow ? FL_LOC_DO_FAULT_cow_alloc : FL_LOC_DO_FAULT_pte_map_lock;
        f->ret = 0;
        return;
      }
    case FL_LOC_DO_FAULT_cow_alloc:
      fl_call (sim, cpu, FL_FN_ALLOC_PAGE, FL_LOC_DO_FAULT_pte_map_lock, 0);
      return;
    case FL_LOC_DO_FAULT_pte_map_lock:
      if (f->ret)
        {
          /* copy the cached page into the new anonymous one, drop the cache page */
          fl_charge (sim, cpu, sim->config.cost.zero_page);
          fl_put_page (sim, cpu, PAGE_OF (f));
          fl_page_rw (st, f->ret)->flags |= FL_PAGE_ANON;
          SET_PAGE (f, f->ret);
        }
      f->l.fault.entry = FL_PTE_MAKE (PAGE_OF (f), f->l.fault.entry & 0xffffffffu);
      map_lock (sim, cpu, f, FL_LOC_DO_FAULT_pte_same);
      return;
    case FL_LOC_DO_FAULT_pte_same:
      if (!fault_locked (f))
        {
          SET_RESULT (f, FL_VM_FAULT_RETRY);
          fl_ev (sim, FL_EV_CHECK, 0, 0);
          f->pc = FL_LOC_DO_FAULT_release;
          return;
        }
      fl_touch (sim, cpu, fl_line_of_table (st, table_of (f)), FL_ACCESS_READ);
      fl_ev (sim, FL_EV_CHECK, table_of (f), *pte_of (sim, f) == 0);
      if (*pte_of (sim, f) != 0)
        {
          unlock_pte (sim, cpu, f);
          SET_RESULT (f, 0);
          f->pc = FL_LOC_DO_FAULT_release;
          return;
        }
      f->pc = FL_LOC_DO_FAULT_set_pte;
      return;
    case FL_LOC_DO_FAULT_set_pte:
      {
        guint32 page = PAGE_OF (f);
        gboolean anon = (st->pages[page].flags & FL_PAGE_ANON) != 0;
        fl_page_rw (st, page)->mapcount++;
        if (sim->config.rss == FL_RSS_SHARED_ATOMIC)
          fl_touch (sim, cpu, FL_LINE_MM_RSS, FL_ACCESS_RMW);
        fl_rss_add (sim, cpu, anon, 1);
        set_pte (sim, cpu, f, f->l.fault.entry);
        f->pc = FL_LOC_DO_FAULT_unlock;
        return;
      }
    case FL_LOC_DO_FAULT_unlock:
      unlock_pte (sim, cpu, f);
      fl_oracle_check_pte (sim, cpu, f->l.fault.addr);
      fl_return (sim, cpu, 0);
      return;
    case FL_LOC_DO_FAULT_release:
      fl_put_page (sim, cpu, PAGE_OF (f));
      fl_ev (sim, FL_EV_FREE, PAGE_OF (f), RESULT (f));
      fl_return (sim, cpu, RESULT (f));
      return;
    default:
      g_assert_not_reached ();
    }
}

/* do_wp_page: entered with the PTE lock held on a present, write-protected PTE. */
static void
step_do_wp_page (FlSim *sim, guint cpu, FlFrame *f)
{
  FlState *st = &sim->st;
  guint32 old = FL_PTE_PAGE (f->l.fault.entry);
  gboolean zero = old == st->g->zero_page;
  switch (f->pc)
    {
    case FL_LOC_DO_WP_PAGE_old_page:
      {
        vma_flags (sim, cpu, f);
        gboolean anon = !zero && (st->pages[old].flags & FL_PAGE_ANON);
        fl_ev (sim, FL_EV_CHECK, old, anon);
        f->pc = anon ? FL_LOC_DO_WP_PAGE_trylock_page : FL_LOC_DO_WP_PAGE_unlock;
        return;
      }
    case FL_LOC_DO_WP_PAGE_trylock_page:
      {
        /* trylock_page: a locked bit operation on the page's flags. Held by someone else
         * (a migration), the kernel sleeps in lock_page with the PTE lock dropped and finds
         * the PTE changed after; the model copies instead, and its pte_same after the copy
         * finds the same change (docs/model.md) */
        gboolean got = !(st->pages[old].flags & FL_PAGE_LOCKED);
        fl_touch_page (sim, cpu, old);
        if (got)
          fl_page_rw (st, old)->flags |= FL_PAGE_LOCKED;
        fl_ev (sim, FL_EV_RMW, old, got);
        f->pc = got ? FL_LOC_DO_WP_PAGE_reuse_swap_page : FL_LOC_DO_WP_PAGE_unlock;
        return;
      }
    case FL_LOC_DO_WP_PAGE_reuse_swap_page:
      {
        /* reuse_swap_page: an anonymous page only we map can simply become writable */
        gboolean reuse = st->pages[old].mapcount == 1;
        fl_ev (sim, FL_EV_CHECK, old, reuse);
        SET_RESULT (f, reuse);
        f->pc = FL_LOC_DO_WP_PAGE_unlock_page;
        return;
      }
    case FL_LOC_DO_WP_PAGE_unlock_page:
      {
        gboolean reuse = RESULT (f) != 0;
        fl_touch_page (sim, cpu, old);
        fl_page_rw (st, old)->flags &= ~(guint32) FL_PAGE_LOCKED;
        fl_ev (sim, FL_EV_RMW, old, 0);
        SET_RESULT (f, 0);
        f->pc = reuse ? FL_LOC_DO_WP_PAGE_reuse : FL_LOC_DO_WP_PAGE_unlock;
        return;
      }
    case FL_LOC_DO_WP_PAGE_reuse:
      set_pte (sim, cpu, f, f->l.fault.entry | FL_PTE_WRITE | FL_PTE_DIRTY | FL_PTE_YOUNG);
      SET_RESULT (f, 0);
      SET_PAGE (f, 0);
      f->pc = FL_LOC_DO_WP_PAGE_unlock_done;
      return;
    case FL_LOC_DO_WP_PAGE_unlock:
      if (!zero)
        fl_page_rw (st, old)->count++;                      /* page_cache_get(old_page) */
      unlock_pte (sim, cpu, f);
      f->pc = after_anon_vma (sim, cpu, f, FL_LOC_DO_WP_PAGE_anon_vma_prepare, FL_LOC_DO_WP_PAGE_alloc);
      return;
    case FL_LOC_DO_WP_PAGE_anon_vma_prepare:
      anon_vma_prepare (sim, cpu, f, FL_LOC_DO_WP_PAGE_alloc);
      return;
    case FL_LOC_DO_WP_PAGE_alloc:
      alloc_page (sim, cpu, FL_LOC_DO_WP_PAGE_pte_map_lock, zero);
      return;
    case FL_LOC_DO_WP_PAGE_pte_map_lock:
      if (!zero)
        fl_charge (sim, cpu, sim->config.cost.zero_page);   /* cow_user_page: copy 4 KiB */
      fl_page_rw (st, f->ret)->flags |= FL_PAGE_ANON;
      SET_PAGE (f, f->ret);
      map_lock (sim, cpu, f, FL_LOC_DO_WP_PAGE_pte_same);
      return;
    case FL_LOC_DO_WP_PAGE_pte_same:
      recheck_pte (sim, cpu, f, f->l.fault.entry, FL_LOC_DO_WP_PAGE_release,
                   FL_LOC_DO_WP_PAGE_clear_flush);
      return;
    case FL_LOC_DO_WP_PAGE_clear_flush:
      {
        /* ptep_clear_flush: the old translation must be gone from every TLB before the new
         * page appears, and the IPIs are sent while we still hold the PTE lock */
        guint64 *pte = pte_rw (sim, f);
        fl_touch (sim, cpu, fl_line_of_table (st, table_of (f)), FL_ACCESS_WRITE);
        *pte = 0;
        fl_oracle_pte_written (sim, table_of (f));
        fl_call (sim, cpu, FL_FN_FLUSH_TLB_OTHERS, FL_LOC_DO_WP_PAGE_set_pte, 0);
        return;
      }
    case FL_LOC_DO_WP_PAGE_set_pte:
      {
        guint32 page = PAGE_OF (f);
        fl_page_rw (st, page)->mapcount = 1;
        if (zero || (st->pages[old].flags & FL_PAGE_FILE))
          {
            if (sim->config.rss == FL_RSS_SHARED_ATOMIC)
              fl_touch (sim, cpu, FL_LINE_MM_RSS, FL_ACCESS_RMW);
            fl_rss_add (sim, cpu, TRUE, 1);
            if (!zero)
              fl_rss_add (sim, cpu, FALSE, -1);
          }
        set_pte (sim, cpu, f, FL_PTE_MAKE (page, FL_PTE_PRESENT | FL_PTE_WRITE | FL_PTE_DIRTY
                                                 | FL_PTE_YOUNG));
        if (!zero)
          {
            /* page_remove_rmap, and the mapping's reference goes with it */
            fl_page_rw (st, old)->mapcount--;
            fl_put_page (sim, cpu, old);
          }
        SET_PAGE (f, 0);        /* the new page now belongs to the PTE */
        SET_RESULT (f, 0);
        f->pc = FL_LOC_DO_WP_PAGE_unlock_done;
        return;
      }
    case FL_LOC_DO_WP_PAGE_unlock_done:
      unlock_pte (sim, cpu, f);
      fl_oracle_check_pte (sim, cpu, f->l.fault.addr);
      f->pc = FL_LOC_DO_WP_PAGE_release;
      if (RESULT (f) == 0 && PAGE_OF (f) == 0 && FL_PTE_PAGE (*pte_of (sim, f)) == old)
        {
          fl_return (sim, cpu, 0);      /* reused in place: nothing taken, nothing to drop */
          return;
        }
      return;
    case FL_LOC_DO_WP_PAGE_release:
      if (PAGE_OF (f))
        fl_put_page (sim, cpu, PAGE_OF (f));
      if (!zero)
        fl_put_page (sim, cpu, old);                 /* our page_cache_get */
      fl_ev (sim, FL_EV_FREE, old, RESULT (f));
      fl_return (sim, cpu, RESULT (f));
      return;
    default:
      g_assert_not_reached ();
    }
}

/* do_swap_page: a swap entry reads the page back (a major fault); a migration entry makes a
 * speculative fault retry and a locked one wait for the migration to finish. */
static void
step_do_swap_page (FlSim *sim, guint cpu, FlFrame *f)
{
  FlState *st = &sim->st;
  switch (f->pc)
    {
    case FL_LOC_DO_SWAP_PAGE_entry:
      {
        gboolean migration = (f->l.fault.entry & FL_PTE_KIND_MASK) == FL_PTE_MIGRATION;
        fl_ev (sim, FL_EV_CHECK, (guint32) (f->l.fault.entry & FL_PTE_KIND_MASK), !migration);
        if (migration && (f->l.fault.flags & FL_FAULT_SPEC))
          {
            fl_return (sim, cpu, FL_VM_FAULT_RETRY);
            return;
          }
        f->pc = migration ? FL_LOC_DO_SWAP_PAGE_migration_wait : FL_LOC_DO_SWAP_PAGE_swapin;
        return;
      }
    case FL_LOC_DO_SWAP_PAGE_migration_wait:
      {
        /* migration_entry_wait: sleep until the migrating CPU installs the new page */
        guint32 table = table_of (f), index = fl_walk_index (1, f->l.fault.addr);
        if ((*pte_of (sim, f) & FL_PTE_KIND_MASK) != FL_PTE_MIGRATION)
          {
            fl_ev (sim, FL_EV_CHECK, table, 0);
            fl_return (sim, cpu, FL_VM_FAULT_REFAULT);
            return;
          }
        f->pc = FL_LOC_DO_SWAP_PAGE_release;
        SET_RESULT (f, FL_VM_FAULT_REFAULT);
        SET_PAGE (f, 0);
        fl_park (sim, cpu, FL_CPU_SLEEP, FL_MIGRATION_WAIT (table, index));
        return;
      }
    case FL_LOC_DO_SWAP_PAGE_swapin:
      /* the thread sleeps until the read from swap completes (lock_page) */
      fl_rcu_sleep (sim, cpu, "sleeps for a read from swap");
      fl_charge (sim, cpu, sim->config.cost.swap_io);
      fl_call (sim, cpu, FL_FN_ALLOC_PAGE, FL_LOC_DO_SWAP_PAGE_pte_map_lock, 0);
      return;
    case FL_LOC_DO_SWAP_PAGE_pte_map_lock:
      fl_page_rw (st, f->ret)->flags |= FL_PAGE_ANON;
      SET_PAGE (f, f->ret);
      map_lock (sim, cpu, f, FL_LOC_DO_SWAP_PAGE_pte_same);
      return;
    case FL_LOC_DO_SWAP_PAGE_pte_same:
      recheck_pte (sim, cpu, f, f->l.fault.entry, FL_LOC_DO_SWAP_PAGE_release,
                   FL_LOC_DO_SWAP_PAGE_set_pte);
      return;
    case FL_LOC_DO_SWAP_PAGE_set_pte:
      {
        guint32 page = PAGE_OF (f);
        guint32 flags = st->vmas[fl_ref_id (f->l.fault.vma)].flags;
        fl_page_rw (st, page)->mapcount = 1;
        if (sim->config.rss == FL_RSS_SHARED_ATOMIC)
          fl_touch (sim, cpu, FL_LINE_MM_RSS, FL_ACCESS_RMW);
        fl_rss_add (sim, cpu, TRUE, 1);
        set_pte (sim, cpu, f, FL_PTE_MAKE (page, FL_PTE_PRESENT | FL_PTE_YOUNG
                                           | (WRITE_FAULT (f) && (flags & FL_VM_WRITE)
                                              ? FL_PTE_WRITE | FL_PTE_DIRTY : 0)));
        f->pc = FL_LOC_DO_SWAP_PAGE_unlock;
        return;
      }
    case FL_LOC_DO_SWAP_PAGE_unlock:
      unlock_pte (sim, cpu, f);
      fl_oracle_check_pte (sim, cpu, f->l.fault.addr);
      fl_return (sim, cpu, FL_VM_FAULT_MAJOR);
      return;
    case FL_LOC_DO_SWAP_PAGE_release:
      if (PAGE_OF (f))
        fl_put_page (sim, cpu, PAGE_OF (f));
      fl_ev (sim, FL_EV_FREE, PAGE_OF (f), RESULT (f));
      fl_return (sim, cpu, RESULT (f));
      return;
    default:
      g_assert_not_reached ();
    }
}

const FlStepFn fl_step_handle_pte_fault = step_handle_pte_fault;
const FlStepFn fl_step_do_anonymous_page = step_do_anonymous_page;
const FlStepFn fl_step_do_fault = step_do_fault;
const FlStepFn fl_step_do_wp_page = step_do_wp_page;
const FlStepFn fl_step_do_swap_page = step_do_swap_page;

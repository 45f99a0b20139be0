/* fl-names.c — words for what the simulation does, shared by the trace, the views and tests. */
#include "fl-sim-internal.h"
#include "fl-listing.h"
#include "fl-rbtree.h"

#include <glib/gi18n-lib.h>
#include <stdio.h>

static const char *const finding_names[FL_FINDING_N_KINDS] = {
  "use-after-free", "stale-mapping", "deadlock", "rcu-early-free", "tree-invariant",
  "refcount", "rss-imbalance", "lock-imbalance", "freed-while-locked",
  "missed-sigsegv", "sleep-in-rcu",
};

static const char *const event_names[FL_EV_N_KINDS] = {
  "call", "return", "load", "store", "rmw", "lock", "unlock", "spin", "sleep", "wake", "check",
  "walk", "tree", "pte", "irq", "ipi-send", "ipi-ack", "rcu", "alloc", "free", "user", "op",
  "done", "finding",
};

/* Words for people (the lanes' legend, the views' descriptions): marked for translation
 * here, translated by the views with _(); the core itself prints them as they are. */
static const char *const activity_names[FL_ACT_N] = {
  /* Translators: what a CPU is doing, in the lanes' legend */
  N_("user"), N_("locked fault"), N_("speculative fault"), N_("syscall, kernel work"),
  N_("spinning"), N_("blocked"), N_("IRQs off"), N_("RCU read-side"),
  N_("waiting for IPI acks"), N_("done"), N_("waiting for its turn"), N_("IPI handler"),
};

static const char *const xfer_names[FL_XFER_OWN_COPY + 1] = {
  "", "hit", "from memory", "from a core on this socket", "from the other socket",
  "upgrade, other copies invalidated", "own copy, ahead of the queued requests",
};

const char *
fl_finding_kind_name (FlFindingKind kind)
{
  return kind < FL_FINDING_N_KINDS ? finding_names[kind] : "?";
}

const char *
fl_event_kind_name (FlEventKind kind)
{
  return kind < FL_EV_N_KINDS ? event_names[kind] : "?";
}

const char *
fl_activity_name (FlActivity activity)
{
  return activity < FL_ACT_N ? activity_names[activity] : "?";
}

/**
 * fl_sim_line_name:
 * @sim: a simulation
 * @line: a cache-line id
 * @buf: room for the name of object lines
 * @size: size of @buf
 *
 * Returns: what the line holds, e.g. "mmap_sem" or "PTE lock 3".
 */
const char *
fl_sim_line_name (FlSim *sim, guint line, char *buf, gsize size)
{
  const FlState *st = &sim->st;
  switch (line)
    {
    case FL_LINE_NONE: return "";
    case FL_LINE_MM_MMAP: return "mm->mmap_cache";
    case FL_LINE_MM_SEM:
      return sim->config.rwsem == FL_RWSEM_GENERIC ? "mmap_sem (wait_lock, activity)"
                                                   : "mmap_sem (count)";
    case FL_LINE_MM_RSS: return "mm RSS counters";
    case FL_LINE_ZONE_LOCK: return st->g->nodes > 1 ? "zone->lock (node 0)" : "zone->lock";
    case FL_LINE_LRU_LOCK: return st->g->nodes > 1 ? "zone->lru_lock (node 0)" : "zone->lru_lock";
    case FL_LINE_TLB_FLUSH: return "TLB flush mask";
    case FL_LINE_BARRIER: return "user barrier";
    case FL_LINE_RCU: return "rcu_state";
    default: break;
    }
  if (line >= st->sizes.nlines)
    return "?";
  if (line < fl_line_objects (st) && line >= FL_LINE_N_FIXED + st->sizes.line_nodes)
    {
      static const char *const memcg[FL_MEMCG_N_LINES] = {
        "memcg css refcount", "memcg res_counter", "memcg per-zone LRU",
      };
      return memcg[line - FL_LINE_N_FIXED - st->sizes.line_nodes];
    }
  if (line < fl_line_objects (st))
    {
      guint node = (line - FL_LINE_N_FIXED) / 2 + 1;
      snprintf (buf, size, "%s (node %u)", (line - FL_LINE_N_FIXED) % 2 ? "zone->lru_lock"
                                                                          : "zone->lock", node);
      return buf;
    }
  const FlLine *l = &st->lines[line];
  switch (l->kind)
    {
    case FL_LINE_KIND_VMA: snprintf (buf, size, "VMA %u", l->obj); break;
    case FL_LINE_KIND_PTL: snprintf (buf, size, "PTE lock %u", l->obj); break;
    case FL_LINE_KIND_TABLE: snprintf (buf, size, "page table %u", l->obj); break;
    case FL_LINE_KIND_VMA_REF: snprintf (buf, size, "VMA %u refcount", l->obj); break;
    default: snprintf (buf, size, "line %u", line); break;
    }
  return buf;
}

/* The code of the listing line a step stopped at, without its comment: what a check tests. */
static void
append_code (GString *s, FlLoc loc)
{
  FlListing *listing = fl_listing_get (fl_loc_fn (loc));
  gint line = listing ? fl_listing_line_of (listing, loc) : -1;
  if (line < 0)
    return;
  const char *text = listing->lines[line].text;
  const char *comment = strstr (text, "/*");
  g_autofree char *code = g_strndup (text, comment ? (gsize) (comment - text) : strlen (text));
  g_strstrip (code);
  if (*code)
    g_string_append_printf (s, ": %s", code);
}

/* An ALLOC or FREE event carries only its object's id; the function that emitted it says
 * what the object is, and whether FREE frees it or only drops a reference. */
static void
append_alloc_free (GString *s, const FlEvent *e)
{
  gboolean alloc = e->kind == FL_EV_ALLOC;
  switch (fl_loc_fn (e->loc))
    {
    case FL_FN_PGTABLE_ALLOC:
      g_string_append_printf (s, alloc ? "allocate page table %u"
                                       : "free page table %u (another CPU populated the entry)",
                              e->obj);
      break;
    case FL_FN_DO_MUNMAP:
      if (alloc)   /* a split: the part of the VMA that stays mapped */
        g_string_append_printf (s, "allocate VMA %u for the part that stays", e->obj);
      else if (e->loc == FL_LOC_DO_MUNMAP_remove_vma)
        g_string_append_printf (s, e->val & 1 ? "free VMA %u through call_rcu, after a grace "
                                                "period%s" : "free VMA %u at once%s", e->obj,
                                e->val & 2 ? "; its file put now (fput)" : "");
      else
        g_string_append_printf (s, "free page table %u", e->obj);
      break;
    case FL_FN_VMA_ADJUST:
      g_string_append_printf (s, e->val & 1 ? "free VMA %u, merged away, through call_rcu%s"
                                            : "free VMA %u, merged away, at once%s", e->obj,
                              e->val & 2 ? "; its file put now (fput)" : "");
      break;
    case FL_FN_ALLOC_PAGE:
      g_string_append_printf (s, "allocate page %u%s", e->obj, e->val ? " (zeroed)" : "");
      break;
    case FL_FN_FREE_PAGES:
      g_string_append_printf (s, "free %u page%s to this CPU's free list", e->obj,
                              e->obj == 1 ? "" : "s");
      break;
    case FL_FN_RCU_DO_BATCH:
      g_string_append_printf (s, "free VMA %u (its RCU callback, grace period %u over)", e->obj,
                              e->val);
      break;
    case FL_FN_DO_ANONYMOUS_PAGE:
    case FL_FN_DO_FAULT:
    case FL_FN_DO_WP_PAGE:
    case FL_FN_DO_SWAP_PAGE:
      /* put_page: the page goes back to the allocator only with its last reference */
      if (e->obj)
        g_string_append_printf (s, "drop a reference to page %u", e->obj);
      else
        g_string_append (s, "no page to release");
      break;
    default:
      /* mmap_region's new VMA, the split of mprotect_fixup and vma_adjust */
      g_string_append_printf (s, "%s VMA %u", alloc ? "allocate" : "free", e->obj);
      break;
    }
}

/**
 * fl_sim_describe_event:
 * @sim: a simulation
 * @event: one of its events
 *
 * Returns: (transfer full): one line saying what the step did, for `--trace`.
 */
char *
fl_sim_describe_event (FlSim *sim, const FlEvent *e)
{
  GString *s = g_string_new (NULL);
  char buf[64];
  switch ((FlEventKind) e->kind)
    {
    case FL_EV_CALL:
      g_string_append_printf (s, "call %s", fl_fn_name (e->val));
      break;
    case FL_EV_RETURN:
      g_string_append_printf (s, "return %u", e->val);
      break;
    case FL_EV_LOAD:
    case FL_EV_STORE:
    case FL_EV_RMW:
      g_string_append (s, e->kind == FL_EV_LOAD ? "read" : e->kind == FL_EV_STORE ? "write"
                                                                              : "atomic update");
      if (e->line)
        g_string_append_printf (s, " %s", fl_sim_line_name (sim, e->line, buf, sizeof buf));
      g_string_append_printf (s, " (%u)", e->val);
      break;
    case FL_EV_LOCK:
    case FL_EV_UNLOCK:
    case FL_EV_SPIN:
      g_string_append_printf (s, "%s %s", e->kind == FL_EV_LOCK ? "acquire" : e->kind == FL_EV_UNLOCK
                                                                      ? "release" : "spin on",
                              fl_lock_name (sim, e->obj, buf, sizeof buf));
      break;
    case FL_EV_SLEEP:
      /* what the CPU parked for, from the object it waits on (fl_park) */
      if (fl_loc_fn (e->loc) == FL_FN_FLUSH_TLB_OTHERS)
        g_string_append_printf (s, "wait for %u TLB-flush acknowledgement%s", e->obj,
                                e->obj == 1 ? "" : "s");
      else if (e->obj == FL_RWSEM_WAIT)
        g_string_append (s, "sleep on mmap_sem's wait list");
      else if (e->obj == FL_BARRIER_WAIT)
        g_string_append (s, "wait at the barrier for the other threads");
      else if ((e->obj & 0xf0000000u) == FL_VMA_REF_WAIT (0))
        g_string_append_printf (s, "sleep until VMA %u's references are gone", e->obj & 0xffffu);
      else if ((e->obj & 0xf0000000u) == FL_MIGRATION_WAIT (0, 0))
        g_string_append (s, "sleep until the page's migration ends");
      else
        g_string_append (s, "sleep");
      break;
    case FL_EV_WAKE:
      g_string_append_printf (s, "resume after %u cycles", e->val);
      break;
    case FL_EV_CHECK:
      g_string_append_printf (s, "check %s", (e->val & 1) ? "passed" : "failed");
      append_code (s, e->loc);
      fl_walk_describe (sim, e, s);
      break;
    case FL_EV_WALK:
      g_string_append_printf (s, "walk level %u (table %u)", e->val, e->obj);
      break;
    case FL_EV_TREE:
      if (e->val == FL_RB_ACTION_NONE && e->obj == 0)
        g_string_append (s, "end of the tree walk: no VMA");
      else if (e->val == FL_RB_ACTION_NONE)
        g_string_append_printf (s, "update the VMA tree at VMA %u", e->obj);
      else if (e->val == FL_RB_ACTION_DONE)
        g_string_append (s, "rebalancing done");
      else
        g_string_append_printf (s, "VMA tree: %s at VMA %u", fl_rb_action_name (e->val), e->obj);
      break;
    case FL_EV_PTE:
      g_string_append_printf (s, "PTE %u of table %u", e->val, e->obj);
      break;
    case FL_EV_IRQ:
      g_string_append (s, e->val ? "IRQs off" : "IRQs on");
      break;
    case FL_EV_IPI_SEND:
      g_string_append_printf (s, "send TLB-flush IPIs to %u CPU%s", e->val, e->val == 1 ? "" : "s");
      break;
    case FL_EV_IPI_ACK:
      g_string_append_printf (s, "flush TLB, acknowledge cpu%u", e->obj);
      break;
    case FL_EV_RCU:
      g_string_append_printf (s, "RCU read-side nesting %u", e->val);
      break;
    case FL_EV_ALLOC:
    case FL_EV_FREE:
      append_alloc_free (s, e);
      break;
    case FL_EV_USER:
      g_string_append (s, "user work");
      break;
    case FL_EV_OP:
      g_string_append_printf (s, "start operation %u", e->obj);
      break;
    case FL_EV_DONE:
      g_string_append (s, "program finished");
      break;
    case FL_EV_FINDING:
      g_string_append_printf (s, "FINDING %s", fl_finding_kind_name (e->val));
      break;
    default:
      g_string_append_printf (s, "%s", fl_event_kind_name (e->kind));
      break;
    }
  /* an event read back from a store may carry any byte here */
  if (e->line && e->xfer > FL_XFER_HIT && e->xfer < G_N_ELEMENTS (xfer_names))
    g_string_append_printf (s, " [%s: %s]", fl_sim_line_name (sim, e->line, buf, sizeof buf),
                            xfer_names[e->xfer]);
  return g_string_free (s, FALSE);
}

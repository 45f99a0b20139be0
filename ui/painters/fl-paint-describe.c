/* fl-paint-describe.c — each view in words: the accessible description the widgets keep
 * current, and what a test can compare without looking at pixels. */
#include "fl-paint-private.h"
#include "fl-listing.h"

#include <stdio.h>
#include <string.h>

#define SCAN_BACK 200000

static void
cpu_activities (FlSim *sim, guint64 step, guint ncpus, int *act)
{
  for (guint c = 0; c < ncpus; c++)
    act[c] = -1;
  gsize lo = fl_sim_find_step (sim, step);
  guint missing = ncpus;
  for (gsize i = lo, seen = 0; i-- > 0 && missing > 0 && seen < SCAN_BACK; seen++)
    {
      FlEvent e = fl_sim_get_event (sim, i);
      if (e.cpu < ncpus && act[e.cpu] < 0 && e.kind != FL_EV_FINDING)
        {
          act[e.cpu] = e.activity;
          missing--;
        }
    }
}

static void
describe_lanes (GString *s, FlPaintCtx *p)
{
  guint ncpus = p->st->sizes.ncpus;
  g_string_append_printf (s, "CPU lanes of %u CPU%s at step %" G_GUINT64_FORMAT " of %"
                          G_GUINT64_FORMAT ".", ncpus, ncpus == 1 ? "" : "s", p->step,
                          fl_sim_get_total_steps (p->sim));
  g_autofree int *act = g_new (int, MAX (ncpus, 1u));
  cpu_activities (p->sim, p->step, ncpus, act);
  if (ncpus <= 8)
    for (guint c = 0; c < ncpus; c++)
      g_string_append_printf (s, " cpu%u: %s.", c, act[c] >= 0 ? fl_activity_name (act[c]) : "not started");
  else
    {
      guint count[FL_ACT_N] = { 0 };
      for (guint c = 0; c < ncpus; c++)
        if (act[c] >= 0 && act[c] < FL_ACT_N)
          count[act[c]]++;
      for (guint a = 0; a < FL_ACT_N; a++)
        if (count[a])
          g_string_append_printf (s, " %u %s.", count[a], fl_activity_name (a));
    }
}

static void
describe_vma (GString *s, FlPaintCtx *p)
{
  const FlState *st = p->st;
  guint live = 0;
  GString *ghosts = g_string_new (NULL), *odd = g_string_new (NULL);
  for (guint32 v = 1; v < st->sizes.nvmas; v++)
    {
      if (fl_vma_is_ghost (st, v))
        g_string_append_printf (ghosts, "%s%u", ghosts->len ? ", " : "", v);
      else if (st->vmas[v].state == FL_OBJ_LIVE)
        live++;
      if (st->vmas[v].state != FL_OBJ_FREE && (st->vmas[v].seq & 1))
        g_string_append_printf (odd, "%s%u", odd->len ? ", " : "", v);
    }
  g_string_append_printf (s, "VMA tree with %u VMA%s", live, live == 1 ? "" : "s");
  guint32 root = st->g->mm.root;
  if (root && root < st->sizes.nvmas)
    g_string_append_printf (s, ", root VMA %u (0x%" G_GINT64_MODIFIER "x–0x%" G_GINT64_MODIFIER "x)",
                            root, st->vmas[root].start, st->vmas[root].end);
  g_string_append (s, ".");
  guint32 cache = st->g->mm.mmap_cache & 0xffff;
  if (cache && cache < st->sizes.nvmas)
    g_string_append_printf (s, " mmap_cache points to VMA %u.", cache);
  if (ghosts->len)
    g_string_append_printf (s, " Unlinked, awaiting RCU: VMA %s.", ghosts->str);
  if (odd->len)
    g_string_append_printf (s, " Being written (odd sequence): VMA %s.", odd->str);
  for (guint c = 0; c < st->sizes.ncpus && c < FL_MAX_CPUS; c++)
    {
      FlCpuDoing d;
      fl_cpu_doing (st, c, &d);
      if (d.visiting_vma)
        g_string_append_printf (s, " cpu%u's find_vma visits VMA %u.", c, d.visiting_vma);
      else if (d.held_vma)
        g_string_append_printf (s, " cpu%u's fault works on VMA %u.", c, d.held_vma);
    }
  g_string_free (ghosts, TRUE);
  g_string_free (odd, TRUE);
}

static void
describe_pgtable (GString *s, FlPaintCtx *p)
{
  const FlState *st = p->st;
  guint ptes = 0;
  for (guint32 t = 1; t < st->sizes.ntables; t++)
    if (st->tables[t].state == FL_OBJ_LIVE && st->tables[t].level == 1)
      ptes++;
  g_string_append_printf (s, "Page tables: %u PTE page%s.", ptes, ptes == 1 ? "" : "s");
  for (guint32 t = 1; t < st->sizes.ntables; t++)
    if (st->tables[t].state == FL_OBJ_LIVE && st->tables[t].ptl_holder >= 0)
      g_string_append_printf (s, " cpu%d holds the PTE lock of the page at 0x%" G_GINT64_MODIFIER "x.",
                              st->tables[t].ptl_holder, st->tables[t].base);
  for (guint c = 0; c < st->sizes.ncpus && c < FL_MAX_CPUS; c++)
    {
      FlCpuDoing d;
      fl_cpu_doing (st, c, &d);
      if (d.in_fault && d.walk_table)
        g_string_append_printf (s, " cpu%u walks to 0x%" G_GINT64_MODIFIER "x, at the %s.", c,
                                d.address, d.at_pte ? "PTE" :
                                st->tables[d.walk_table].level == 4 ? "PGD" :
                                st->tables[d.walk_table].level == 3 ? "PUD" :
                                st->tables[d.walk_table].level == 2 ? "PMD" : "PTE page");
    }
}

static void
describe_cache (GString *s, FlPaintCtx *p)
{
  guint rows[12];
  guint n = fl_cache_rows (p->sim, rows, G_N_ELEMENTS (rows));
  FlCounters k;
  fl_sim_get_counters (p->sim, &k);
  g_string_append_printf (s, "Cache lines: %" G_GUINT64_FORMAT " transfers between CPUs.", k.transfers);
  guint told = 0;
  for (guint i = 0; i < n && told < 3; i++)
    {
      const FlLine *l = &p->st->lines[rows[i]];
      if (!l->transfers)
        continue;
      char buf[64];
      g_string_append_printf (s, " %s: %u transfers", fl_sim_line_name (p->sim, rows[i], buf, sizeof buf),
                              l->transfers);
      if (l->last_to)
        g_string_append_printf (s, ", last to cpu%u", l->last_to - 1);
      g_string_append (s, ".");
      told++;
    }
}

static void
describe_rcu (GString *s, FlPaintCtx *p)
{
  const FlState *st = p->st;
  const FlRcu *r = &st->g->rcu;
  if (r->in_progress)
    g_string_append_printf (s, "RCU: grace period %u in progress.", r->gp + 1);
  else
    g_string_append_printf (s, "RCU: %u grace period%s completed, none in progress.", r->gp,
                            r->gp == 1 ? "" : "s");
  for (guint c = 0; c < st->sizes.ncpus && c < FL_MAX_CPUS; c++)
    {
      gboolean owes = r->in_progress && ((r->qs_needed[c / 64] >> (c % 64)) & 1);
      if (st->cpus[c].rcu_nesting || owes)
        g_string_append_printf (s, " cpu%u: %s%s.", c,
                                st->cpus[c].rcu_nesting ? "in a read-side section" : "outside",
                                owes ? ", owes a quiescent state" : "");
    }
  guint pending = 0;
  for (guint i = 1; i < st->sizes.ncbs; i++)
    if (st->cbs[i].obj)
      {
        pending++;
        g_string_append_printf (s, " Callback to free VMA %u%s.", st->cbs[i].obj,
                                st->cbs[i].ready ? " is ready" : " waits");
      }
  if (!pending)
    g_string_append (s, " No callbacks pending.");
}

static void
describe_listing (GString *s, FlPaintCtx *p)
{
  const FlState *st = p->st;
  if (st->sizes.ncpus == 0)
    return;
  const FlCpu *c = &st->cpus[p->selected];
  guint depth = MIN (c->depth, FL_MAX_DEPTH);
  if (depth == 0)
    {
      g_string_append_printf (s, "cpu%u is in user space.", p->selected);
      return;
    }
  FlFn fn = c->frames[depth - 1].fn;
  FlLoc loc = c->frames[depth - 1].pc;
  g_string_append_printf (s, "cpu%u is in %s", p->selected, fl_fn_name (fn));
  FlListing *listing = (guint) fn < FL_FN_N ? fl_listing_get (fn) : NULL;
  gint line = listing ? fl_listing_line_of (listing, loc) : -1;
  if (line >= 0)
    {
      g_autofree char *code = g_strstrip (g_strdup (listing->lines[line].text));
      g_string_append_printf (s, ", next line %d: %s", line + 1, code);
      if (listing->lines[line].why && *listing->lines[line].why)
        g_string_append_printf (s, ". Why: %s", listing->lines[line].why);
    }
  else if (loc != FL_LOC_NONE)
    g_string_append_printf (s, " at %s", fl_loc_tag (loc));
  if (!g_str_has_suffix (s->str, "."))
    g_string_append (s, ".");
}

static void
describe_counters (GString *s, FlPaintCtx *p)
{
  FlCounters k;
  fl_sim_get_counters (p->sim, &k);
  g_string_append_printf (s, "Faults: %" G_GUINT64_FORMAT " total, %" G_GUINT64_FORMAT
                          " speculative, %" G_GUINT64_FORMAT " retried, %" G_GUINT64_FORMAT
                          " locked, %" G_GUINT64_FORMAT " errors; %" G_GUINT64_FORMAT
                          " cycles; %" G_GUINT64_FORMAT " transfers.",
                          k.total, k.speculative, k.retried, k.locked, k.errors, k.cycles,
                          k.transfers);
  GPtrArray *findings = fl_sim_get_findings (p->sim);
  guint n = 0;
  for (guint i = 0; findings && i < findings->len; i++)
    {
      const FlFinding *f = g_ptr_array_index (findings, i);
      if (f->step > p->step)
        continue;
      g_string_append_printf (s, " Finding %s at step %" G_GUINT64_FORMAT " on cpu%u: %s",
                              fl_finding_kind_name (f->kind), f->step, f->cpu, f->message);
      n++;
    }
  if (n == 0)
    g_string_append (s, " No findings.");
}

typedef void (*DescribeFn) (GString *s, FlPaintCtx *p);

static const DescribeFn describers[FL_VIEW_N] = {
  [FL_VIEW_LANES] = describe_lanes,
  [FL_VIEW_VMA] = describe_vma,
  [FL_VIEW_PGTABLE] = describe_pgtable,
  [FL_VIEW_CACHE] = describe_cache,
  [FL_VIEW_RCU] = describe_rcu,
  [FL_VIEW_LISTING] = describe_listing,
  [FL_VIEW_COUNTERS] = describe_counters,
};

/**
 * fl_view_describe:
 * @view: a view
 * @sim: the simulation, at its current step
 * @viewport: (nullable): the viewport (for the selected CPU)
 *
 * Returns: (transfer full): what the view shows, in sentences, for its accessible
 *   description
 */
char *
fl_view_describe (FlView view, FlSim *sim, const FlViewport *viewport)
{
  g_return_val_if_fail ((guint) view < FL_VIEW_N, NULL);
  g_return_val_if_fail (sim != NULL, NULL);
  static const FlPalette none;
  FlViewport vp = { .width = 1, .height = 1, .font_scale = 1 };
  if (viewport)
    vp = *viewport;
  FlPaintCtx p;
  /* describing draws nothing: the context has no Cairo context */
  fl_paint_ctx_init (&p, NULL, sim, &vp, &none);
  GString *s = g_string_new (NULL);
  if (view == FL_VIEW_ALL)
    for (guint v = 0; v < FL_VIEW_ALL; v++)
      {
        if (v)
          g_string_append_c (s, '\n');
        describers[v] (s, &p);
      }
  else
    describers[view] (s, &p);
  return g_string_free (s, FALSE);
}

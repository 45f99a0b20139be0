/* fl-paint-describe.c — each view in words: the accessible description the widgets keep
 * current, and what a test can compare without looking at pixels. */
#include "fl-paint-private.h"
#include "fl-listing.h"

#include <stdio.h>
#include <string.h>

#define SCAN_BACK 200000

/* One sentence more: a space before it unless it starts the text or a view's line. The
 * translatable sentences carry no leading space, so translators need not keep one. */
static void G_GNUC_PRINTF (2, 3)
sentence (GString *s, const char *format, ...)
{
  va_list args;
  if (s->len && s->str[s->len - 1] != '\n')
    g_string_append_c (s, ' ');
  va_start (args, format);
  g_string_append_vprintf (s, format, args);
  va_end (args);
}

static void
cpu_activities (const FlRun *run, guint64 step, guint ncpus, int *act)
{
  for (guint c = 0; c < ncpus; c++)
    act[c] = -1;
  gsize lo = fl_run_find_step (run, step);
  guint missing = ncpus;
  for (gsize i = lo, seen = 0; i-- > 0 && missing > 0 && seen < SCAN_BACK; seen++)
    {
      FlEvent e = fl_run_get_event (run, i);
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
  sentence (s, g_dngettext (NULL, "CPU lanes of %u CPU at step %" PRIu64 " of %" PRIu64 ".",
                            "CPU lanes of %u CPUs at step %" PRIu64 " of %" PRIu64 ".", ncpus),
            ncpus, p->step, fl_cursor_get_total_steps (p->cur));
  /* Translators: the simulated time at the lanes' cursor, as the counters give it */
  sentence (s, _("Cursor at cycle %" PRIu64 "."), fl_lanes_now (p));
  if (p->vp->time_end > p->vp->time_start)
    /* Translators: the lanes show a window of simulated time, not the whole run */
    sentence (s, _("Showing cycles %" PRIu64 " to %" PRIu64 " of %" PRIu64 "."),
              p->vp->time_start, p->vp->time_end, fl_last_cycle (p->run));
  guint first, shown = fl_lanes_shown (p->cur, p->vp, &first);
  if (shown > 0 && shown < ncpus)
    /* Translators: the lanes show only some CPUs at a time, at a readable height */
    sentence (s, _("Lanes of cpu%u to cpu%u shown; scroll for the others."), first,
              first + shown - 1);
  g_autofree int *act = g_new (int, MAX (ncpus, 1u));
  cpu_activities (p->run, p->step, ncpus, act);
  if (ncpus <= 8)
    for (guint c = 0; c < ncpus; c++)
      /* Translators: a CPU and what it does, e.g. "cpu0: fault." */
      sentence (s, _("cpu%u: %s."), c, act[c] >= 0 ? _(fl_activity_name (act[c])) : _("not started"));
  else
    {
      guint count[FL_ACT_N] = { 0 };
      for (guint c = 0; c < ncpus; c++)
        if (act[c] >= 0 && act[c] < FL_ACT_N)
          count[act[c]]++;
      for (guint a = 0; a < FL_ACT_N; a++)
        if (count[a])
          /* Translators: how many CPUs do one thing, e.g. "12 fault." */
          sentence (s, _("%u %s."), count[a], _(fl_activity_name (a)));
    }
}

static void
describe_vma (GString *s, FlPaintCtx *p)
{
  const FlState *st = p->st;
  guint live = 0;
  /* unlinked VMAs: handed to call_rcu, or not yet (munmap still at work, or freed at once) */
  GString *ghosts = g_string_new (NULL), *unfreed = g_string_new (NULL), *odd = g_string_new (NULL);
  for (guint32 v = 1; v < st->sizes.nvmas; v++)
    {
      if (fl_vma_is_ghost (st, v) && st->vmas[v].state == FL_OBJ_RCU_PENDING)
        g_string_append_printf (ghosts, "%s%u", ghosts->len ? ", " : "", v);
      else if (fl_vma_is_ghost (st, v))
        g_string_append_printf (unfreed, "%s%u", unfreed->len ? ", " : "", v);
      else if (st->vmas[v].state == FL_OBJ_LIVE)
        live++;
      if (st->vmas[v].state != FL_OBJ_FREE && (st->vmas[v].seq & 1))
        g_string_append_printf (odd, "%s%u", odd->len ? ", " : "", v);
    }
  guint32 root = st->g->mm.root;
  if (root && root < st->sizes.nvmas)
    sentence (s, g_dngettext (NULL,
                              "VMA tree with %u VMA, root VMA %u (0x%" PRIx64 "–0x%" PRIx64 ").",
                              "VMA tree with %u VMAs, root VMA %u (0x%" PRIx64 "–0x%" PRIx64 ").",
                              live),
              live, root, st->vmas[root].start, st->vmas[root].end);
  else
    sentence (s, g_dngettext (NULL, "VMA tree with %u VMA.", "VMA tree with %u VMAs.", live), live);
  guint32 cache = st->g->mm.mmap_cache & 0xffff;
  if (cache && cache < st->sizes.nvmas)
    sentence (s, _("mmap_cache points to VMA %u."), cache);
  if (ghosts->len)
    /* Translators: %s is a list of VMA numbers, e.g. "3, 7" */
    sentence (s, _("Unlinked, awaiting RCU: VMA %s."), ghosts->str);
  if (unfreed->len)
    /* Translators: %s is a list of VMA numbers, e.g. "3, 7" */
    sentence (s, _("Unlinked, not yet freed: VMA %s."), unfreed->str);
  if (odd->len)
    /* Translators: %s is a list of VMA numbers, e.g. "3, 7" */
    sentence (s, _("Being written (odd sequence): VMA %s."), odd->str);
  for (guint c = 0; c < st->sizes.ncpus && c < FL_MAX_CPUS; c++)
    {
      FlCpuFault d;
      fl_cpu_fault_decode (st, c, &d);
      if (d.visiting_vma)
        sentence (s, _("cpu%u's find_vma visits VMA %u."), c, d.visiting_vma);
      else if (d.held_vma)
        sentence (s, _("cpu%u's fault works on VMA %u."), c, d.held_vma);
    }
  for (guint i = 0; i < p->n_marks; i++)
    if (p->marks[i]->objects.vma)
      sentence (s, _("Marked by the finding: VMA %u."), p->marks[i]->objects.vma);
  g_string_free (ghosts, TRUE);
  g_string_free (unfreed, TRUE);
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
  sentence (s, g_dngettext (NULL, "Page tables: %u PTE page.", "Page tables: %u PTE pages.", ptes),
            ptes);
  for (guint32 t = 1; t < st->sizes.ntables; t++)
    if (st->tables[t].state == FL_OBJ_LIVE && st->tables[t].ptl_holder >= 0)
      sentence (s, _("cpu%d holds the PTE lock of the page at 0x%" PRIx64 "."),
                st->tables[t].ptl_holder, st->tables[t].base);
    else if (st->tables[t].level == 1 && st->tables[t].ptl_holder >= 0)
      /* Translators: the lock lives in the page-table page, which was freed under it */
      sentence (s, _("cpu%d holds the PTE lock of page-table page %u, which is freed."),
                st->tables[t].ptl_holder, t);
  for (guint i = 0; i < p->n_marks; i++)
    {
      const FlFindingObjects *o = &p->marks[i]->objects;
      if (o->table && o->pte >= 0)
        /* Translators: what a finding of this step names, marked in the view */
        sentence (s, _("Marked by the finding: PTE %d of page-table page %u."), o->pte, o->table);
      else if (o->table)
        sentence (s, _("Marked by the finding: page-table page %u."), o->table);
    }
  for (guint c = 0; c < st->sizes.ncpus && c < FL_MAX_CPUS; c++)
    {
      FlCpuFault d;
      fl_cpu_fault_decode (st, c, &d);
      if (!d.in_fault || !d.walk_table)
        continue;
      guint level = st->tables[d.walk_table].level;
      if (d.at_pte || level >= 2)
        /* Translators: %s is a page-table level, one of PGD, PUD, PMD or PTE */
        sentence (s, _("cpu%u walks to 0x%" PRIx64 ", at the %s."), c, d.address,
                  d.at_pte ? "PTE" : level == 4 ? "PGD" : level == 3 ? "PUD" : "PMD");
      else
        sentence (s, _("cpu%u walks to 0x%" PRIx64 ", at the PTE page."), c, d.address);
    }
}

static void
describe_cache (GString *s, FlPaintCtx *p)
{
  guint rows[12];
  guint n = fl_cache_rows (p->cur, rows, G_N_ELEMENTS (rows));
  FlCounters k;
  fl_cursor_get_counters (p->cur, &k);
  sentence (s, g_dngettext (NULL, "Cache lines: %" PRIu64 " transfer between CPUs.",
                            "Cache lines: %" PRIu64 " transfers between CPUs.", k.transfers),
            k.transfers);
  guint told = 0;
  for (guint i = 0; i < n && told < 3; i++)
    {
      const FlLine *l = &p->st->lines[rows[i]];
      if (!l->transfers)
        continue;
      char buf[64];
      /* Translators: a cache line's name and how often it moved between CPUs; a sentence
       * ends after it, or after where it went last */
      sentence (s, g_dngettext (NULL, "%s: %u transfer", "%s: %u transfers", l->transfers),
                fl_cursor_line_name (p->cur, rows[i], buf, sizeof buf), l->transfers);
      if (l->last_to)
        g_string_append_printf (s, _(", last to cpu%u"), l->last_to - 1);
      g_string_append (s, ".");
      told++;
    }
  for (guint i = 0; i < n; i++)
    if (fl_marks_line (p, rows[i]))
      {
        char buf[64];
        sentence (s, _("Marked by the finding: %s."),
                  fl_cursor_line_name (p->cur, rows[i], buf, sizeof buf));
      }
}

static void
describe_rcu (GString *s, FlPaintCtx *p)
{
  const FlState *st = p->st;
  const FlRcu *r = &st->g->rcu;
  if (r->in_progress)
    sentence (s, _("RCU: grace period %u in progress."), r->gp + 1);
  else
    sentence (s, g_dngettext (NULL, "RCU: %u grace period completed, none in progress.",
                              "RCU: %u grace periods completed, none in progress.", r->gp),
              r->gp);
  for (guint c = 0; c < st->sizes.ncpus && c < FL_MAX_CPUS; c++)
    {
      gboolean owes = r->in_progress && ((r->qs_needed[c / 64] >> (c % 64)) & 1);
      if (st->cpus[c].rcu_nesting && owes)
        sentence (s, _("cpu%u: in a read-side section, owes a quiescent state."), c);
      else if (st->cpus[c].rcu_nesting)
        sentence (s, _("cpu%u: in a read-side section."), c);
      else if (owes)
        sentence (s, _("cpu%u: outside, owes a quiescent state."), c);
    }
  guint pending = 0;
  for (guint i = 1; i < st->sizes.ncbs; i++)
    if (st->cbs[i].obj)
      {
        pending++;
        if (st->cbs[i].ready)
          sentence (s, _("Callback to free VMA %u is ready."), st->cbs[i].obj);
        else
          sentence (s, _("Callback to free VMA %u waits."), st->cbs[i].obj);
      }
  if (!pending)
    sentence (s, "%s", _("No callbacks pending."));
}

static void
describe_listing (GString *s, FlPaintCtx *p)
{
  const FlState *st = p->st;
  if (st->sizes.ncpus == 0)
    return;
  FlCpuView v;
  fl_cursor_get_cpu_view (p->cur, p->selected, &v);
  if (v.depth == 0 && !fl_cpu_view_is_waiting (&v))
    sentence (s, _("cpu%u is in user space."), p->selected);
  else
    {
      /* Translators: a CPU and the kernel function it runs; more may follow before the full
       * stop: ", next line …", ", waiting at line …" or " at …" */
      sentence (s, _("cpu%u is in %s"), p->selected, fl_fn_name (v.fn));
      FlListing *listing = fl_cpu_view_listing (&v, p->config);
      gint line = fl_cpu_view_line (&v, p->config);
      if (line >= 0)
        {
          g_autofree char *code = g_strstrip (g_strdup (listing->lines[line].text));
          if (fl_cpu_view_is_waiting (&v))
            /* Translators: the source line a CPU waits at: its number and its code */
            g_string_append_printf (s, _(", waiting at line %d: %s"), line + 1, code);
          else
            /* Translators: the source line a CPU runs next: its number and its code */
            g_string_append_printf (s, _(", next line %d: %s"), line + 1, code);
        }
      else if (v.loc != FL_LOC_NONE)
        /* Translators: where in the function a CPU is, a tag like "retry" */
        g_string_append_printf (s, _(" at %s"), fl_loc_tag (v.loc));
      g_string_append (s, ".");
    }
  g_autofree char *waits = fl_cpu_wait_sentence (st, &v);
  if (waits)
    sentence (s, "%s", waits);
  FlEvent e;
  if (fl_step_event (p->run, p->step, &e))
    {
      g_autofree char *what = fl_cursor_describe_event (p->cur, &e);
      /* Translators: the current step: its number, the CPU that took it, what it did */
      sentence (s, _("Step %" PRIu64 ", cpu%u: %s."), p->step, e.cpu, what);
      g_autofree char *known = fl_run_explain_event (p->run, &e);
      const char *why = known ? known : fl_loc_why (e.loc, p->config);
      if (why && *why)
        /* Translators: why the current step's line does what it does */
        sentence (s, _("Why: %s"), why);
    }
  for (guint i = 0; i < p->n_marks; i++)
    if (p->marks[i]->cause && *p->marks[i]->cause)
      /* Translators: what caused the finding of the current step */
      sentence (s, _("Cause: %s"), p->marks[i]->cause);
}

static void
describe_counters (GString *s, FlPaintCtx *p)
{
  FlCounters k;
  fl_cursor_get_counters (p->cur, &k);
  sentence (s, _("Faults: %" PRIu64 " total, %" PRIu64 " speculative, %" PRIu64 " retried, %"
                 PRIu64 " locked, %" PRIu64 " errors; %" PRIu64 " cycles; %" PRIu64
                 " transfers."),
                          k.total, k.speculative, k.retried, k.locked, k.errors, k.cycles,
                          k.transfers);
  if (k.missed)
    /* Translators: retried faults whose walk of the VMA tree without mmap_sem missed a VMA
     * the tree held all along */
    sentence (s, g_dngettext (NULL, "%" PRIu64 " of the retried missed its VMA in the tree.",
                              "%" PRIu64 " of the retried missed their VMA in the tree.",
                              k.missed), k.missed);
  guint in_fault, in_spec = fl_faults_in_progress (p->st, &in_fault);
  if (in_spec)
    /* Translators: speculative faults under way, not counted until they succeed */
    sentence (s, g_dngettext (NULL, "%u more speculative fault in progress.",
                              "%u more speculative faults in progress.", in_spec), in_spec);
  const GPtrArray *findings = fl_run_get_findings (p->run);
  guint n = 0;
  for (guint i = 0; findings && i < findings->len; i++)
    {
      const FlFinding *f = g_ptr_array_index (findings, i);
      if (f->step > p->step)
        continue;
      /* Translators: a finding's kind (e.g. use-after-free), step, CPU and message */
      sentence (s, _("Finding %s at step %" PRIu64 " on cpu%u: %s"),
                              fl_finding_kind_name (f->kind), f->step, f->cpu, f->message);
      if (f->step == p->step && f->cause && *f->cause)
        /* Translators: which CPU caused a finding and how */
        sentence (s, _("Caused by cpu%u: %s"), f->cause_cpu, f->cause);
      n++;
    }
  if (n == 0)
    sentence (s, "%s", _("No findings."));
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
 * @cur: a cursor at the step to describe
 * @viewport: (nullable): the viewport (for the selected CPU)
 *
 * Returns: (transfer full): what the view shows, in sentences, for its accessible
 *   description
 */
char *
fl_view_describe (FlView view, const FlCursor *cur, const FlViewport *viewport)
{
  g_return_val_if_fail ((guint) view < FL_VIEW_N, NULL);
  g_return_val_if_fail (cur != NULL, NULL);
  static const FlPalette none;
  FlViewport vp = { .width = 1, .height = 1, .font_scale = 1 };
  if (viewport)
    vp = *viewport;
  FlPaintCtx p;
  /* describing draws nothing: the context has no Cairo context */
  fl_paint_ctx_init (&p, NULL, cur, &vp, &none);
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

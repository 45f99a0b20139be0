/* fl-paint-step.c — the box under the listing: what the current step (the one the header
 * counts) did and why, for the CPU that took it, and, when the selected CPU waits, what for
 * and on whom. The same sentences serve the listing's accessible description. */
#include "fl-paint-private.h"

#include <string.h>

/* The event of step `step` (counted from 1, as the header counts), findings aside. */
gboolean
fl_step_event (const FlRun *run, guint64 step, FlEvent *out)
{
  if (step == 0)
    return FALSE;
  for (gsize i = fl_run_find_step (run, step); i-- > 0;)
    {
      FlEvent e = fl_run_get_event (run, i);
      if (e.step + 1 < step)
        return FALSE;
      if (e.kind != FL_EV_FINDING)
        {
          *out = e;
          return TRUE;
        }
    }
  return FALSE;
}

/* The sentence of a listing line: the line a location tags in the listing `config` runs. */
const char *
fl_loc_why (FlLoc loc, const FlConfig *config)
{
  FlFn fn = fl_loc_fn (loc);
  FlListing *listing = (guint) fn < FL_FN_N ? fl_listing_get_for (fn, config) : NULL;
  gint line = listing ? fl_listing_line_of (listing, loc) : -1;
  return line >= 0 ? listing->lines[line].why : NULL;
}

/* "cpu0", "cpu0 and cpu3", "cpu0, cpu2 and 5 more" */
static char *
cpu_list (const FlCpuView *v)
{
  GString *s = g_string_new (NULL);
  guint n = fl_cpu_view_n_waits_on (v), told = 0;
  for (guint c = 0; c < FL_MAX_CPUS && told < 3; c++)
    if (fl_cpu_view_waits_on (v, c))
      {
        if (told)
          g_string_append (s, told + 1 == n ? _(" and ") : ", ");
        g_string_append_printf (s, "cpu%u", c);
        told++;
      }
  if (n > told)
    /* Translators: after a list of CPUs, how many more there are */
    g_string_append_printf (s, g_dngettext (NULL, " and %u more", " and %u more", n - told),
                            n - told);
  return g_string_free (s, FALSE);
}

/**
 * fl_cpu_wait_sentence:
 * @st: the state @v was decoded from
 * @v: a decoded CPU
 *
 * Returns: (transfer full) (nullable): what @v waits for and on whom, as one sentence;
 *   %NULL when it does not wait
 */
char *
fl_cpu_wait_sentence (const FlState *st, const FlCpuView *v)
{
  if (!fl_cpu_view_is_waiting (v))
    return NULL;
  g_autofree char *who = cpu_list (v);
  gboolean none = fl_cpu_view_n_waits_on (v) == 0;
  gboolean holder_irqs_off = v->holder >= 0 && (guint) v->holder < st->sizes.ncpus
                             && st->cpus[v->holder].irqs_off;
  char *s = NULL;
  switch (v->wait)
    {
    case FL_CPU_WAIT_LOCK:
      s = none ? g_strdup_printf (_("cpu%u spins for the %s."), v->cpu, v->wait_name)
               /* Translators: a CPU, a lock, the CPU holding it */
               : g_strdup_printf (_("cpu%u spins for the %s, held by %s."), v->cpu,
                                  v->wait_name, who);
      break;
    case FL_CPU_WAIT_LOCK_RELEASE:
      s = g_strdup_printf (_("cpu%u waits, IRQs on, until %s releases the %s, then walks again."),
                           v->cpu, none ? _("its holder") : who, v->wait_name);
      break;
    case FL_CPU_WAIT_RWSEM:
      s = none ? g_strdup_printf (_("cpu%u sleeps on mmap_sem."), v->cpu)
               : g_strdup_printf (_("cpu%u sleeps on mmap_sem, held by %s."), v->cpu, who);
      break;
    case FL_CPU_WAIT_TLB_ACK:
      s = g_strdup_printf (_("cpu%u waits for %s to acknowledge its TLB-flush IPI."), v->cpu,
                           none ? _("the other CPUs") : who);
      break;
    case FL_CPU_WAIT_MIGRATION:
      s = none ? g_strdup_printf (_("cpu%u sleeps until a page migration finishes."), v->cpu)
               : g_strdup_printf (_("cpu%u sleeps until %s finishes migrating the page."),
                                  v->cpu, who);
      break;
    case FL_CPU_WAIT_BARRIER:
      s = g_strdup_printf (_("cpu%u waits at the barrier for %s."), v->cpu,
                           none ? _("the other threads") : who);
      break;
    case FL_CPU_WAIT_SCHEDULE:
      /* Translators: %s is a schedule entry, "cpu1 until rcu_read_lock" */
      s = g_strdup_printf (_("cpu%u waits for its turn: the scripted schedule runs %s first."),
                           v->cpu, v->wait_name);
      break;
    default:
      return NULL;
    }
  GString *out = g_string_new (s);
  g_free (s);
  if (v->irqs_off && (v->wait == FL_CPU_WAIT_LOCK || v->wait == FL_CPU_WAIT_LOCK_RELEASE))
    g_string_append_printf (out, " %s", _("IRQs are off here, so it cannot take a TLB-flush IPI."));
  else if (v->wait == FL_CPU_WAIT_TLB_ACK && holder_irqs_off)
    g_string_append_printf (out, " %s",
                            _("IRQs are off there, so the acknowledgement never comes."));
  if (v->status == FL_CPU_STUCK)
    g_string_append_printf (out, " %s", _("Deadlocked: it never runs again."));
  return g_string_free (out, FALSE);
}

/* A bold label and a text wrapped under it in at most `lines` lines; returns the height.
 * Measures only when `draw` is FALSE. */
static double
labelled (FlPaintCtx *p, const char *label, const FlRgba *label_color, const char *text,
          const FlRgba *color, double x, double y, double w, int lines, double size,
          gboolean draw)
{
  double lw = fl_text_width (p, FL_FONT_BOLD, size, label);
  g_autoptr (PangoLayout) layout = fl_text_layout (p, FL_FONT_SANS, size, text, w, lines);
  pango_layout_set_indent (layout, (int) (lw * PANGO_SCALE));
  PangoRectangle logical;
  pango_layout_get_pixel_extents (layout, NULL, &logical);
  if (draw)
    {
      fl_text_draw (p, FL_FONT_BOLD, size, label_color, x, y, 0, FL_ALIGN_LEFT, label);
      fl_set_rgba (p->cr, color);
      cairo_move_to (p->cr, x, y);
      pango_cairo_show_layout (p->cr, layout);
      fl_svg_text_note (p->cr, layout, x, y);
    }
  return MAX (logical.height, fl_text_height (p, FL_FONT_BOLD, size));
}

/* The box's paragraphs, laid out from `y` down; returns the height they take. */
static double
paragraphs (FlPaintCtx *p, const FlCpuView *v, double x, double y, double w, gboolean draw)
{
  const FlPalette *pal = p->pal;
  double size = p->fs * 0.92;
  int why_lines = p->h > p->fs * 24 ? 4 : 3;
  double gap = size * 0.25, top = y;
  char label[64];
  FlEvent e;
  if (fl_step_event (p->run, p->step, &e))
    {
      g_autofree char *what = fl_cursor_describe_event (p->cur, &e);
      /* Translators: before what the current step did: its number and the CPU that took it */
      g_snprintf (label, sizeof label, _("Step %" PRIu64 ", cpu%u: "), p->step, e.cpu);
      y += labelled (p, label, fl_palette_cpu (pal, e.cpu), what, &pal->text_dim, x, y, w, 1,
                     size, draw) + gap;
      /* what the model knows of this very step (a walk that missed its VMA, and who hid
       * it) says more than the line's own why */
      g_autofree char *known = fl_run_explain_event (p->run, &e);
      const char *why = known ? known : fl_loc_why (e.loc, p->config);
      if (why && *why)
        /* Translators: before why the current step's line does what it does; keep the space */
        y += labelled (p, _("Why: "), &pal->text, why, &pal->text, x, y, w, why_lines, size,
                       draw) + gap;
    }
  else
    {
      const char *why = fl_loc_why (v->loc, p->config);
      /* Translators: before what the selected CPU's first line will do; keep the space */
      y += labelled (p, _("Next: "), &pal->text, why && *why ? why : fl_loc_tag (v->loc),
                     &pal->text, x, y, w, why_lines, size, draw) + gap;
    }
  /* a finding of this step: what caused it, in the finding colour, before anything else
   * the selected CPU (its cause) is doing */
  for (guint i = 0; i < p->n_marks; i++)
    if (p->marks[i]->cause && *p->marks[i]->cause)
      /* Translators: before the sentence saying what caused a finding; keep the space */
      y += labelled (p, _("Cause: "), &pal->error, p->marks[i]->cause, &pal->text, x, y, w,
                     4, size, draw) + gap;
  g_autofree char *waits = fl_cpu_wait_sentence (p->st, v);
  if (waits)
    /* Translators: before what the selected CPU waits for; keep the space */
    y += labelled (p, _("Waiting: "), fl_palette_cpu (pal, v->cpu), waits, &pal->text, x, y, w,
                   3, size, draw) + gap;
  return y - top - gap;
}

/**
 * fl_paint_step_box:
 * @p: the listing's context
 * @v: the selected CPU
 * @x: the box's left edge
 * @w: its width
 *
 * Draws the box at the bottom of the view, as tall as its text.
 *
 * Returns: the top of the box
 */
double
fl_paint_step_box (FlPaintCtx *p, const FlCpuView *v, double x, double w)
{
  double pad = p->fs * 0.6;
  double inner = w - 2 * pad;
  double box_h = paragraphs (p, v, x + pad, 0, inner, FALSE) + pad * 1.2;
  double box_y = p->h - pad - box_h;
  FlEvent e;
  guint owner = fl_step_event (p->run, p->step, &e) ? e.cpu : v->cpu;
  fl_rounded_rect (p->cr, x, box_y, w, box_h, 6);
  fl_set_rgba (p->cr, &p->pal->surface);
  cairo_fill (p->cr);
  /* the bar in the colour of the CPU the box is about first: the one that took the step */
  cairo_rectangle (p->cr, x, box_y, 4, box_h);
  fl_set_rgba (p->cr, fl_palette_cpu (p->pal, owner));
  cairo_fill (p->cr);
  paragraphs (p, v, x + pad, box_y + pad * 0.6, inner, TRUE);
  return box_y;
}

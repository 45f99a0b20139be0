/* fl-paint-listing.c — the selected CPU's call stack and the annotated pseudo-code of the
 * function it is in, the line it runs next highlighted, with that line's "why" and what its
 * last step did. Listings come from core (fl-listing.h); a function without one still shows
 * its name and location tag. */
#include "fl-paint-private.h"
#include "fl-listing.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define EVENT_SCAN 200000     /* events searched back for the CPU's last step */

/* Translators: what a CPU does, after its name in the listing's subtitle ("cpu1 spinning") */
static const char *const status_names[] = {
  [FL_CPU_RUNNING] = N_("running"),
  [FL_CPU_SPIN] = N_("spinning"),
  [FL_CPU_SLEEP] = N_("asleep"),
  [FL_CPU_IPI_WAIT] = N_("waiting for TLB-flush acknowledgements"),
  [FL_CPU_DONE] = N_("done"),
  [FL_CPU_STUCK] = N_("stuck"),
};

/* The event of `cpu`'s last step before `step`, looked for among the last EVENT_SCAN
 * events; FALSE when there is none. */
static gboolean
last_event_of (FlSim *sim, guint cpu, guint64 step, FlEvent *out)
{
  gsize lo = fl_sim_find_step (sim, step);
  for (gsize i = lo, seen = 0; i-- > 0 && seen < EVENT_SCAN; seen++)
    {
      FlEvent e = fl_sim_get_event (sim, i);
      if (e.cpu == cpu && e.kind != FL_EV_FINDING)
        {
          *out = e;
          return TRUE;
        }
    }
  return FALSE;
}

/* Comment lines are drawn dimmer than code. */
static gboolean
is_comment (const char *text)
{
  if (text == NULL)
    return FALSE;
  while (*text == ' ' || *text == '\t')
    text++;
  return g_str_has_prefix (text, "/*") || g_str_has_prefix (text, "* ")
         || g_str_has_prefix (text, "*/") || strcmp (text, "*") == 0;
}

/* "do_page_fault › handle_speculative_fault › pte_map_lock", dropping outer frames (never
 * cutting a name) until it fits. */
static char *
breadcrumb (FlPaintCtx *p, const FlCpu *c, double size, double width)
{
  guint depth = MIN (c->depth, FL_MAX_DEPTH);
  for (guint from = 0; from < depth; from++)
    {
      GString *s = g_string_new (from ? "… › " : "");
      for (guint i = from; i < depth; i++)
        g_string_append_printf (s, "%s%s", i > from ? " › " : "", fl_fn_name (c->frames[i].fn));
      if (from + 1 == depth || fl_text_width (p, FL_FONT_SANS, size, s->str) <= width)
        return g_string_free (s, FALSE);
      g_string_free (s, TRUE);
    }
  return g_strdup (_("user space"));
}

void
fl_paint_listing (FlPaintCtx *p)
{
  cairo_t *cr = p->cr;
  const FlPalette *pal = p->pal;
  const FlState *st = p->st;
  fl_paint_panel_background (p);
  if (st->sizes.ncpus == 0)
    {
      fl_paint_header (p, _("Listing"), NULL);
      return;
    }
  guint cpu = p->selected;
  const FlCpu *c = &st->cpus[cpu];
  const FlRgba *color = fl_palette_cpu (pal, cpu);
  guint depth = MIN (c->depth, FL_MAX_DEPTH);
  FlFn fn;
  FlLoc loc;
  if (depth > 0)
    {
      fn = c->frames[depth - 1].fn;
      loc = c->frames[depth - 1].pc;
    }
  else
    {
      fn = FL_FN_USER;
      loc = c->status == FL_CPU_DONE ? FL_LOC_USER_done : FL_LOC_USER_next_op;
    }
  if ((guint) fn >= FL_FN_N)
    fn = FL_FN_USER;

  char buf[256];
  g_snprintf (buf, sizeof buf, "cpu%u %s", cpu,
              c->status < G_N_ELEMENTS (status_names) ? _(status_names[c->status]) : "");
  double top = fl_paint_header (p, _("Listing"), buf);
  double pad = p->fs * 0.6;
  double x = pad, w = p->w - 2 * pad;

  /* which CPU, which function, where it came from */
  double size = p->fs;
  g_snprintf (buf, sizeof buf, "cpu%u", cpu);
  double cw = fl_text_draw (p, FL_FONT_BOLD, size * 1.05, color, x, top, 0, FL_ALIGN_LEFT, buf);
  FlListing *listing = fl_listing_get_for (fn, p->config);
  if (listing)
    g_snprintf (buf, sizeof buf, "%s", fl_listing_title (listing));
  else
    g_snprintf (buf, sizeof buf, "%s — %s", fl_fn_name (fn), fl_fn_file (fn));
  fl_text_draw (p, FL_FONT_BOLD, size, &pal->text, x + cw + size * 0.6, top + size * 0.03,
                w - cw - size * 0.6, FL_ALIGN_LEFT, buf);
  top += fl_text_height (p, FL_FONT_BOLD, size * 1.05) + 2;
  g_autofree char *crumbs = breadcrumb (p, c, size * 0.85, w);
  fl_text_draw (p, FL_FONT_SANS, size * 0.85, &pal->text_dim, x, top, w, FL_ALIGN_LEFT, crumbs);
  top += fl_text_height (p, FL_FONT_SANS, size * 0.85) + pad * 0.5;

  /* bottom: the why of the next line and what the last step did */
  FlEvent last_event;
  const FlEvent *last = last_event_of (p->sim, cpu, p->step, &last_event) ? &last_event : NULL;
  gint current = listing ? fl_listing_line_of (listing, loc) : -1;
  const char *why = current >= 0 ? listing->lines[current].why : NULL;
  /* Translators: before what the highlighted source line does; keep the space after it */
  const char *why_label = _("Why: ");
  double why_size = p->fs * 0.92;
  double why_line = fl_text_height (p, FL_FONT_SANS, why_size);
  int why_lines = p->h > p->fs * 24 ? 4 : 3;
  double why_h = why_line;
  if (why && *why)
    {
      g_autoptr (PangoLayout) probe = fl_text_layout (p, FL_FONT_SANS, why_size, why, w - 2 * pad,
                                                      why_lines);
      pango_layout_set_indent (probe, (int) (fl_text_width (p, FL_FONT_BOLD, why_size, why_label)
                                             * PANGO_SCALE));
      PangoRectangle logical;
      pango_layout_get_pixel_extents (probe, NULL, &logical);
      why_h = MAX (why_h, logical.height);
    }
  double box_h = why_h + (last ? why_line : 0) + pad * 1.2;
  double box_y = p->h - pad - box_h;
  fl_rounded_rect (cr, x, box_y, w, box_h, 6);
  fl_set_rgba (cr, &pal->surface);
  cairo_fill (cr);
  cairo_rectangle (cr, x, box_y, 4, box_h);
  fl_set_rgba (cr, color);
  cairo_fill (cr);
  double ty = box_y + pad * 0.6;
  if (last)
    {
      g_autofree char *what = fl_sim_describe_event (p->sim, last);
      /* the event carries the steps before it; the step is numbered as in the header */
      /* Translators: before what the CPU's last step did */
      g_snprintf (buf, sizeof buf, _("Step %u: "), last->step + 1);
      double lw = fl_text_draw (p, FL_FONT_BOLD, why_size, &pal->text_dim, x + pad, ty, 0,
                                FL_ALIGN_LEFT, buf);
      fl_text_draw (p, FL_FONT_SANS, why_size, &pal->text_dim, x + pad + lw, ty,
                    w - 2 * pad - lw, FL_ALIGN_LEFT, what);
      ty += why_line;
    }
  if (why && *why)
    {
      double lw = fl_text_draw (p, FL_FONT_BOLD, why_size, &pal->text, x + pad, ty, 0,
                                FL_ALIGN_LEFT, why_label);
      /* the first line sits beside "Why:", the rest wrap under it */
      g_autoptr (PangoLayout) layout = fl_text_layout (p, FL_FONT_SANS, why_size, why,
                                                       w - 2 * pad, why_lines);
      pango_layout_set_indent (layout, (int) (lw * PANGO_SCALE));
      fl_set_rgba (cr, &pal->text);
      cairo_move_to (cr, x + pad, ty);
      pango_cairo_show_layout (cr, layout);
      fl_svg_text_note (cr, layout, x + pad, ty);
    }
  else
    {
      /* Translators: where the CPU goes next: a kernel function and a place in it */
      g_snprintf (buf, sizeof buf, _("Next: %s:%s"), fl_fn_name (fl_loc_fn (loc)),
                  fl_loc_tag (loc));
      fl_text_draw (p, FL_FONT_SANS, why_size, &pal->text, x + pad, ty, w - 2 * pad,
                    FL_ALIGN_LEFT, loc != FL_LOC_NONE ? buf : "");
    }

  /* the code */
  double code_y = top, code_h = box_y - pad * 0.6 - code_y;
  double code_size = p->fs * 0.88;
  double line_h = fl_text_height (p, FL_FONT_MONO, code_size) + 1;
  guint visible = (guint) MAX (floor (code_h / line_h), 0);
  if (listing == NULL || listing->n_lines == 0)
    {
      g_snprintf (buf, sizeof buf, "%s:%s", fl_fn_name (fn), loc != FL_LOC_NONE ? fl_loc_tag (loc) : "");
      fl_text_draw (p, FL_FONT_MONO, code_size, &pal->text, x, code_y, w, FL_ALIGN_LEFT, buf);
      fl_text_draw (p, FL_FONT_ITALIC, code_size, &pal->text_dim, x, code_y + line_h, w,
                    FL_ALIGN_LEFT, _("(no listing for this function)"));
      return;
    }
  if (visible == 0)
    return;
  guint first = 0;
  if (listing->n_lines > visible && current >= 0)
    {
      gint f = current - (gint) visible / 3;
      f = MAX (f, 0);
      f = MIN (f, (gint) (listing->n_lines - visible));
      first = (guint) f;
    }
  char num[16];
  g_snprintf (num, sizeof num, "%u", listing->n_lines);
  double num_w = fl_text_width (p, FL_FONT_MONO, code_size * 0.85, num) + pad;
  double arrow_w = code_size * 1.2;
  double text_x = x + num_w + arrow_w;
  for (guint i = 0; i < visible && first + i < listing->n_lines; i++)
    {
      guint li = first + i;
      double y = code_y + i * line_h;
      gboolean here = (gint) li == current;
      if (here)
        {
          fl_rounded_rect (cr, x - 2, y - 0.5, w + 4, line_h + 1, 3);
          fl_set_rgba_alpha (cr, color, 0.18);
          cairo_fill (cr);
          cairo_rectangle (cr, x - 2, y - 0.5, 3, line_h + 1);
          fl_set_rgba (cr, color);
          cairo_fill (cr);
          fl_text_draw (p, FL_FONT_MONO_BOLD, code_size, color, x + num_w, y, arrow_w,
                        FL_ALIGN_LEFT, "▶");
        }
      g_snprintf (num, sizeof num, "%u", li + 1);
      fl_text_draw (p, FL_FONT_MONO, code_size * 0.85, &pal->text_dim, x + num_w - pad * 0.6,
                    y + code_size * 0.08, 0, FL_ALIGN_RIGHT, num);
      const char *text = listing->lines[li].text;
      gboolean comment = is_comment (text);
      fl_text_draw (p, here ? FL_FONT_MONO_BOLD : FL_FONT_MONO, code_size,
                    here ? &pal->text : comment ? &pal->text_dim : &pal->text, text_x, y,
                    x + w - text_x, FL_ALIGN_LEFT, text);
    }
}

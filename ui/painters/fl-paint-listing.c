/* fl-paint-listing.c — the selected CPU's call stack and the annotated pseudo-code of the
 * function it is in, as core decodes it (fl-cpu-view.h): its current line highlighted (the
 * line it runs next, or the one it waits at), the line the current step ran marked when it
 * took it, and under the code the step box (fl-paint-step.c). A function without a listing
 * still shows its name and location tag. */
#include "fl-paint-private.h"
#include "fl-listing.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Translators: what a CPU does, after its name in the listing's subtitle ("cpu1 spinning") */
static const char *const status_names[] = {
  [FL_CPU_RUNNING] = N_("running"),
  [FL_CPU_SPIN] = N_("spinning"),
  [FL_CPU_SLEEP] = N_("asleep"),
  [FL_CPU_IPI_WAIT] = N_("waiting for TLB-flush acknowledgements"),
  [FL_CPU_DONE] = N_("done"),
  [FL_CPU_STUCK] = N_("stuck"),
};

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
breadcrumb (FlPaintCtx *p, const FlCpuView *v, double size, double width)
{
  guint depth = v->depth;
  for (guint from = 0; from < depth; from++)
    {
      GString *s = g_string_new (from ? "… › " : "");
      for (guint i = from; i < depth; i++)
        g_string_append_printf (s, "%s%s", i > from ? " › " : "", fl_fn_name (v->frames[i].fn));
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
  FlCpuView view;
  fl_sim_get_cpu_view (p->sim, cpu, &view);
  const FlRgba *color = fl_palette_cpu (pal, cpu);
  FlFn fn = view.fn;
  FlLoc loc = view.loc;

  char buf[256];
  g_snprintf (buf, sizeof buf, "cpu%u %s", cpu,
              view.status < G_N_ELEMENTS (status_names) ? _(status_names[view.status]) : "");
  double top = fl_paint_header (p, _("Listing"), buf);
  double pad = p->fs * 0.6;
  double x = pad, w = p->w - 2 * pad;

  /* which CPU, which function, where it came from */
  double size = p->fs;
  g_snprintf (buf, sizeof buf, "cpu%u", cpu);
  double cw = fl_text_draw (p, FL_FONT_BOLD, size * 1.05, color, x, top, 0, FL_ALIGN_LEFT, buf);
  FlListing *listing = fl_cpu_view_listing (&view, p->config);
  if (listing)
    g_snprintf (buf, sizeof buf, "%s", fl_listing_title (listing));
  else
    g_snprintf (buf, sizeof buf, "%s — %s", fl_fn_name (fn), fl_fn_file (fn));
  fl_text_draw (p, FL_FONT_BOLD, size, &pal->text, x + cw + size * 0.6, top + size * 0.03,
                w - cw - size * 0.6, FL_ALIGN_LEFT, buf);
  top += fl_text_height (p, FL_FONT_BOLD, size * 1.05) + 2;
  g_autofree char *crumbs = breadcrumb (p, &view, size * 0.85, w);
  fl_text_draw (p, FL_FONT_SANS, size * 0.85, &pal->text_dim, x, top, w, FL_ALIGN_LEFT, crumbs);
  top += fl_text_height (p, FL_FONT_SANS, size * 0.85) + pad * 0.5;

  /* bottom: what the current step did and why, and what the selected CPU waits for */
  double box_y = fl_paint_step_box (p, &view, x, w);
  gint current = fl_cpu_view_line (&view, p->config);
  /* the line the current step ran, when the selected CPU took it in this function */
  FlEvent step_event;
  gint ran = listing && fl_step_event (p->sim, p->step, &step_event) && step_event.cpu == cpu
             ? fl_listing_line_of (listing, step_event.loc) : -1;

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
      if ((gint) li == ran && !here)
        {
          /* a faint outline: the line the step box's "why" speaks of */
          fl_rounded_rect (cr, x - 1.5, y, w + 3, line_h, 3);
          fl_set_rgba_alpha (cr, color, 0.5);
          cairo_set_line_width (cr, 1);
          cairo_stroke (cr);
        }
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

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

/* Lines of context a wrapped line must leave the listing (fl_paint_listing) */
#define CONTEXT_LINES 4

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

/* The columns of a line's code, its trailing comment and the spaces before it left out; 0
 * for a comment line. */
static glong
code_columns (const char *text)
{
  if (text == NULL || is_comment (text))
    return 0;
  const char *comment = strstr (text, "/*");
  glong end = comment ? (glong) (comment - text) : (glong) strlen (text);
  while (end > 0 && text[end - 1] == ' ')
    end--;
  return g_utf8_strlen (text, end);
}

/* Where a row of at most @columns characters of @text ends: after the last space, comma or
 * opening parenthesis that keeps it within @columns, or a hard cut when none is in the
 * row's second half; the end of @text when it all fits. */
static const char *
row_end (const char *text, glong columns)
{
  const char *at = text, *best = NULL;
  for (glong n = 0; *at != '\0' && n < columns; n++)
    {
      char c = *at;
      at = g_utf8_next_char (at);
      if ((c == ' ' || c == ',' || c == '(') && n + 1 > columns / 2)
        best = at;
    }
  return *at == '\0' || best == NULL ? at : best;
}

static const char *
skip_spaces (const char *text)
{
  while (*text == ' ')
    text++;
  return text;
}

/* A continuation row is indented past the line's own indentation, as code is. */
static glong
continuation_indent (const char *text)
{
  return (glong) (skip_spaces (text) - text) + 4;
}

/* The rows a line takes when its code is wider than @columns: code is wrapped, not cut (a
 * lecture's larger text must not hide the end of the condition being explained); a trailing
 * comment that does not fit the last row is shortened with "…" (its tooltip has it all). */
static guint
rows_of (const char *text, glong columns)
{
  glong code = code_columns (text), indent = text ? continuation_indent (text) : 0;
  if (code <= columns || columns - indent < 8)
    return 1;
  g_autofree char *rest = g_strndup (text, g_utf8_offset_to_pointer (text, code) - text);
  const char *at = rest;
  guint rows = 1;
  for (glong room = columns; g_utf8_strlen (at, -1) > room; room = columns - indent)
    {
      at = skip_spaces (row_end (at, room));
      rows++;
    }
  return rows;
}

/* The first line shown: the current one about a third of the way down, in rows. */
static guint
first_shown (const FlListing *listing, const guint *rows, gint current, guint visible)
{
  guint total = 0;
  for (guint i = 0; i < listing->n_lines; i++)
    total += rows[i];
  if (total <= visible || current < 0)
    return 0;
  guint first = (guint) current, above = 0;
  while (first > 0 && above + rows[first - 1] <= visible / 3)
    above += rows[--first];
  /* no empty rows at the bottom while lines above could fill them */
  guint below = 0;
  for (guint i = first; i < listing->n_lines; i++)
    below += rows[i];
  while (first > 0 && below + rows[first - 1] <= visible)
    below += rows[--first];
  return first;
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
  fl_cursor_get_cpu_view (p->cur, cpu, &view);
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
  gint ran = listing && fl_step_event (p->run, p->step, &step_event) && step_event.cpu == cpu
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
  char num[16];
  g_snprintf (num, sizeof num, "%u", listing->n_lines);
  double num_w = fl_text_width (p, FL_FONT_MONO, code_size * 0.85, num) + pad;
  double arrow_w = code_size * 1.2;
  double text_x = x + num_w + arrow_w;
  double char_w = fl_text_width (p, FL_FONT_MONO_BOLD, code_size, "0");
  glong columns = char_w > 0 ? (glong) floor ((x + w - text_x) / char_w) : 1000;
  g_autofree guint *rows = g_new (guint, listing->n_lines);
  /* the line the CPU is at and the one the step ran are wrapped to show all their code, as
   * long as the panel keeps CONTEXT_LINES other lines besides; the others keep one row each
   * (cut with "…", whole in the tooltip) so that as many of them show as there are rows */
  guint wrapped = 0;
  for (guint i = 0; i < listing->n_lines; i++)
    {
      rows[i] = 1;
      if ((gint) i == current || (gint) i == ran)
        {
          guint need = rows_of (listing->lines[i].text, columns);
          if (wrapped + need + CONTEXT_LINES <= visible)
            rows[i] = need;
          wrapped += rows[i];
        }
    }
  guint first = first_shown (listing, rows, current, visible);
  for (guint li = first, row = 0; li < listing->n_lines && row < visible; row += rows[li++])
    {
      double y = code_y + row * line_h;
      guint shown_rows = MIN (rows[li], visible - row);
      double h = shown_rows * line_h;
      gboolean here = (gint) li == current;
      if ((gint) li == ran && !here)
        {
          /* a faint outline: the line the step box's "why" speaks of */
          fl_rounded_rect (cr, x - 1.5, y, w + 3, h, 3);
          fl_set_rgba_alpha (cr, color, 0.5);
          cairo_set_line_width (cr, 1);
          cairo_stroke (cr);
        }
      if (here)
        {
          fl_rounded_rect (cr, x - 2, y - 0.5, w + 4, h + 1, 3);
          fl_set_rgba_alpha (cr, color, 0.18);
          cairo_fill (cr);
          cairo_rectangle (cr, x - 2, y - 0.5, 3, h + 1);
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
      FlFont font = here ? FL_FONT_MONO_BOLD : FL_FONT_MONO;
      const FlRgba *ink = here ? &pal->text : comment ? &pal->text_dim : &pal->text;
      /* a wrapped line (rows_of): each row to its break, the last one the rest */
      const char *rest = text;
      double row_x = text_x, indent = continuation_indent (text) * char_w;
      for (guint r = 0; r < shown_rows; r++)
        {
          double ry = y + r * line_h;
          if (r + 1 == rows[li])
            {
              fl_text_draw (p, font, code_size, ink, row_x, ry, x + w - row_x, FL_ALIGN_LEFT,
                            rest);
              break;
            }
          const char *cut = row_end (rest, r == 0 ? columns : columns - (glong) (indent / char_w));
          g_autofree char *piece = g_strndup (rest, cut - rest);
          fl_text_draw (p, font, code_size, ink, row_x, ry, x + w - row_x, FL_ALIGN_LEFT, piece);
          if (r + 1 < shown_rows)   /* the next row goes on with this line */
            fl_text_draw (p, FL_FONT_MONO, code_size * 0.85, &pal->text_dim, x + num_w,
                          ry + line_h, arrow_w, FL_ALIGN_LEFT, "↪");
          rest = skip_spaces (cut);
          row_x = text_x + indent;
        }
    }
}

/* fl-paint-counters.c — the patch's fault counters, simulated time and cache traffic as big
 * numbers, and what the oracle found, each finding with its step and CPU. */
#include "fl-paint-private.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

typedef struct {
  const char *label;
  guint64     value;
  const char *note;
} Tile;

/* The faults under way: all of them (already in the count of faults) into `in_fault`; the
 * speculative ones (not in any count yet) returned. */
guint
fl_faults_in_progress (const FlState *st, guint *in_fault)
{
  guint spec = 0;
  *in_fault = 0;
  for (guint c = 0; c < st->sizes.ncpus; c++)
    {
      FlCpuFault d;
      fl_cpu_fault_decode (st, c, &d);
      *in_fault += d.in_fault;
      spec += d.in_fault && d.speculative;
    }
  return spec;
}

void
fl_paint_counters (FlPaintCtx *p)
{
  cairo_t *cr = p->cr;
  const FlPalette *pal = p->pal;
  FlCounters k;
  fl_cursor_get_counters (p->cur, &k);
  const GPtrArray *all = fl_run_get_findings (p->run);
  /* findings of the steps taken so far; after a seek back the later ones are not yet */
  g_autoptr (GPtrArray) findings = g_ptr_array_new ();
  for (guint i = 0; all && i < all->len; i++)
    {
      FlFinding *f = g_ptr_array_index (all, i);
      if (f->step <= p->step)
        g_ptr_array_add (findings, f);
    }

  fl_paint_panel_background (p);
  char buf[256], num[64];
  if (findings->len)
    g_snprintf (buf, sizeof buf, g_dngettext (NULL, "%u finding", "%u findings", findings->len),
                findings->len);
  else
    g_snprintf (buf, sizeof buf, "%s", _("no findings"));
  double top = fl_paint_header (p, _("Counters and findings"), buf);
  double pad = p->fs * 0.6;

  /* Counts in progress: do_page_fault counts a fault on entry, a speculative one only once
   * it succeeded; a CPU inside handle_speculative_fault is one the tiles do not hold yet. */
  guint in_fault, in_spec = fl_faults_in_progress (p->st, &in_fault);
  char faults_note[64] = "", spec_note[64] = "", retry_note[64] = "";
  if (in_fault)
    /* Translators: under the faults counted: how many of them are still being handled */
    g_snprintf (faults_note, sizeof faults_note, g_dngettext (NULL, "%u in progress",
                                                              "%u in progress", in_fault), in_fault);
  if (in_spec)
    /* Translators: under the speculative faults that succeeded: how many more are under way */
    g_snprintf (spec_note, sizeof spec_note, g_dngettext (NULL, "+%u in progress",
                                                          "+%u in progress", in_spec), in_spec);

  if (k.missed)
    /* Translators: under the retried faults, as short as the tile's label: how many of them
     * retried because their walk of the VMA tree without mmap_sem missed a VMA the tree held
     * (a rotation moved it) */
    g_snprintf (retry_note, sizeof retry_note, g_dngettext (NULL, "%" PRIu64 " tree miss",
                                                            "%" PRIu64 " tree misses",
                                                            k.missed), k.missed);

  char us[64] = "";
  if (p->config->cost.mhz)
    /* Translators: the simulated time the cycles take, in microseconds */
    g_snprintf (us, sizeof us, _("%.2f µs"), (double) k.cycles / p->config->cost.mhz);
  /* Translators: the counters' tiles: faults taken, of them speculative, retried and under
   * mmap_sem, failed ones, simulated cycles and cache-line transfers */
  Tile tiles[] = {
    { _("faults"), k.total, faults_note },
    { _("speculative"), k.speculative, spec_note },
    { _("retried"), k.retried, retry_note },
    { _("locked"), k.locked, NULL },
    { _("errors"), k.errors, NULL },
    { _("cycles"), k.cycles, us },
    { _("transfers"), k.transfers, NULL },
  };
  double big = p->fs * 1.45;
  double label = p->fs * 0.82;
  double big_h = fl_text_height (p, FL_FONT_BOLD, big);
  double label_h = fl_text_height (p, FL_FONT_SANS, label);
  double tile_w = 0;
  for (guint i = 0; i < G_N_ELEMENTS (tiles); i++)
    {
      fl_format_count (tiles[i].value, num, sizeof num);
      tile_w = MAX (tile_w, fl_text_width (p, FL_FONT_BOLD, big, num));
      tile_w = MAX (tile_w, fl_text_width (p, FL_FONT_SANS, label, tiles[i].label));
    }
  tile_w += pad * 1.6;
  double avail = p->w - 2 * pad;
  guint cols = MAX ((guint) floor ((avail + pad * 0.5) / (tile_w + pad * 0.5)), 1u);
  cols = MIN (cols, (guint) G_N_ELEMENTS (tiles));
  /* balance the rows: 7 tiles in rows of 4 and 3, not 6 and 1 */
  guint rows = (G_N_ELEMENTS (tiles) + cols - 1) / cols;
  cols = (G_N_ELEMENTS (tiles) + rows - 1) / rows;
  tile_w = (avail - pad * 0.5 * (cols - 1)) / cols;
  double tile_h = big_h + label_h * 2 + pad * 0.6;
  for (guint i = 0; i < G_N_ELEMENTS (tiles); i++)
    {
      double x = pad + (i % cols) * (tile_w + pad * 0.5);
      double y = top + (i / cols) * (tile_h + pad * 0.5);
      fl_rounded_rect (cr, x, y, tile_w, tile_h, 6);
      fl_set_rgba (cr, &pal->surface);
      cairo_fill (cr);
      const FlRgba *ink = &pal->text;
      if ((i == 2 && tiles[i].value) )
        ink = &pal->warning;
      else if (i == 4 && tiles[i].value)
        ink = &pal->error;
      fl_format_count (tiles[i].value, num, sizeof num);
      fl_text_draw (p, FL_FONT_BOLD, big, ink, x + pad * 0.6, y + pad * 0.3, tile_w - pad * 1.2,
                    FL_ALIGN_LEFT, num);
      fl_text_draw (p, FL_FONT_SANS, label, &pal->text_dim, x + pad * 0.6, y + pad * 0.3 + big_h,
                    tile_w - pad * 1.2, FL_ALIGN_LEFT, tiles[i].label);
      if (tiles[i].note && *tiles[i].note)
        fl_text_draw (p, FL_FONT_SANS, label, &pal->text_dim, x + pad * 0.6,
                      y + pad * 0.3 + big_h + label_h, tile_w - pad * 1.2, FL_ALIGN_LEFT,
                      tiles[i].note);
    }
  double y = top + rows * (tile_h + pad * 0.5) + pad * 0.4;

  /* findings, when the title and one line of them fit under the tiles */
  double size = p->fs * 0.9;
  double line = fl_text_height (p, FL_FONT_SANS, size);
  if (y + 2 * line + 3 > p->h - pad * 0.5)
    return;
  fl_text_draw (p, FL_FONT_BOLD, size, &pal->text_dim, pad, y, avail, FL_ALIGN_LEFT, _("Findings"));
  y += line + 3;
  if (findings->len == 0)
    {
      fl_text_draw (p, FL_FONT_ITALIC, size, &pal->text_dim, pad, y, avail, FL_ALIGN_LEFT,
                    _("None: every invariant held at every step so far."));
      return;
    }
  for (guint i = 0; i < findings->len; i++)
    {
      const FlFinding *f = g_ptr_array_index (findings, i);
      if (y + line * 2 > p->h - pad)
        {
          g_snprintf (buf, sizeof buf, g_dngettext (NULL, "+%u more", "+%u more",
                                                    findings->len - i), findings->len - i);
          fl_text_draw (p, FL_FONT_ITALIC, size, &pal->text_dim, pad, y, avail, FL_ALIGN_LEFT, buf);
          break;
        }
      double x = pad;
      cairo_new_sub_path (cr);
      cairo_move_to (cr, x + line * 0.35, y + line * 0.15);
      cairo_line_to (cr, x + line * 0.7, y + line * 0.5);
      cairo_line_to (cr, x + line * 0.35, y + line * 0.85);
      cairo_line_to (cr, x, y + line * 0.5);
      cairo_close_path (cr);
      fl_set_rgba (cr, &pal->error);
      cairo_fill (cr);
      x += line * 0.95;
      x += fl_text_draw (p, FL_FONT_BOLD, size, &pal->error, x, y, 0, FL_ALIGN_LEFT,
                         fl_finding_kind_name (f->kind));
      /* Translators: between a finding's kind and its CPU */
      g_snprintf (buf, sizeof buf, _("  step %" PRIu64 " · "), f->step);
      x += fl_text_draw (p, FL_FONT_SANS, size, &pal->text_dim, x, y, 0, FL_ALIGN_LEFT, buf);
      g_snprintf (buf, sizeof buf, "cpu%u", f->cpu);
      fl_text_draw (p, FL_FONT_BOLD, size, fl_palette_cpu (pal, f->cpu), x, y, 0, FL_ALIGN_LEFT, buf);
      y += line;
      double room = p->h - pad - y;
      int lines = (int) MIN (2.0, floor (room / line));
      y += fl_text_paragraph (p, FL_FONT_SANS, size, &pal->text, pad + line * 0.95, y,
                              avail - line * 0.95, lines, f->message);
      /* at its own step, what caused it (the step panel says it too) */
      room = p->h - pad - y;
      if (f->step == p->step && f->cause && *f->cause && room >= line)
        y += fl_text_paragraph (p, FL_FONT_ITALIC, size, &pal->text_dim, pad + line * 0.95, y,
                                avail - line * 0.95, (int) MIN (3.0, floor (room / line)),
                                f->cause);
      y += pad * 0.5;
    }
}

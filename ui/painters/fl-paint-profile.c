/* fl-paint-profile.c — where each design's CPU time goes (see fl-paint-profile.h): a column
 * per design, its largest functions and cache lines as bars of their share, the rest summed
 * up, so that a reviewer sees at a glance what 2010's profile showed: the generic rwsem's
 * line taking three quarters of the baseline, and what is left once it is gone. */
#include "fl-paint-profile.h"
#include "fl-paint-private.h"
#include "fl-export-range.h"
#include "fl-workload.h"

#include <string.h>

/* Rows per table at most; fewer when the column is short. */
#define MAX_ROWS 8

/* The design's colour in the benchmark's charts: the table's order, others after. */
static const FlRgba *
design_color (const FlPaintCtx *p, const char *config, guint index)
{
  guint n = 0;
  const FlBenchConfig *known = fl_bench_configs (&n);
  for (guint k = 0; k < n; k++)
    if (g_strcmp0 (known[k].name, config) == 0)
      return &p->pal->series[k % 4];
  return fl_palette_cpu (p->pal, 3 + index);
}

/* One table: a heading, then a row per entry (name, bar, share), the rest in one row.
 * Returns the height used. */
static double
entries_table (FlPaintCtx *p, const char *heading, const GArray *entries, guint64 total,
               guint rows, const FlRgba *color, double x, double y, double w)
{
  double size = p->fs, small = p->fs * 0.92;
  double line = fl_text_height (p, FL_FONT_SANS, small) * 1.25;
  double share_w = fl_text_width (p, FL_FONT_SANS, small, "100.0%");
  double y0 = y;
  fl_text_draw (p, FL_FONT_BOLD, size, &p->pal->text_dim, x, y, w, FL_ALIGN_LEFT, heading);
  y += fl_text_height (p, FL_FONT_BOLD, size) * 1.2;
  guint64 rest = total;
  guint shown = MIN (entries->len, rows);
  /* the rest needs a row of its own only when something is left out */
  if (entries->len > shown && shown > 0)
    shown--;
  for (guint i = 0; i <= shown; i++)
    {
      const char *name;
      guint64 cycles;
      if (i < shown)
        {
          const FlProfileEntry *e = &g_array_index (entries, FlProfileEntry, i);
          name = e->name;
          cycles = e->cycles;
          rest -= MIN (rest, e->cycles);
        }
      else if (entries->len > shown && rest > 0)
        {
          /* Translators: the profile's last row, every function or line not shown above */
          name = _("(the rest)");
          cycles = rest;
        }
      else
        break;
      double share = total ? (double) cycles / (double) total : 0;
      char num[32];
      g_snprintf (num, sizeof num, "%.1f%%", 100.0 * share);
      /* the bar under the name, as wide as the share of the column */
      double bar_w = MAX ((w - share_w - p->fs * 0.5) * share, 1.0);
      fl_set_rgba_alpha (p->cr, color, 0.35);
      fl_rounded_rect (p->cr, x, y + 1, bar_w, line - 2, 2);
      cairo_fill (p->cr);
      /* "(the rest)", "(no shared line)": not a name the kernel has */
      FlFont font = name[0] == '(' ? FL_FONT_ITALIC : FL_FONT_SANS;
      double name_w = w - share_w - p->fs * 0.8;
      /* a long name ("mmap_sem (wait_lock, activity)") is set a little smaller rather than cut */
      double wide = fl_text_width (p, font, small, name);
      double fit = wide > name_w ? MAX (small * name_w / wide, small * 0.8) : small;
      fl_text_draw (p, font, fit, &p->pal->text, x + p->fs * 0.3,
                    y + (line - fl_text_height (p, font, fit)) / 2, name_w, FL_ALIGN_LEFT, name);
      fl_text_draw (p, FL_FONT_SANS, small, &p->pal->text, x + w,
                    y + (line - fl_text_height (p, FL_FONT_SANS, small)) / 2, share_w,
                    FL_ALIGN_RIGHT, num);
      y += line;
    }
  return y - y0;
}

static void
paint_profile (FlPaintCtx *p, const char *workload, const FlBenchProfile *profiles, guint n)
{
  const FlPalette *pal = p->pal;
  fl_set_rgba (p->cr, &pal->background);
  cairo_paint (p->cr);
  double pad = p->fs;
  guint cpus = n ? profiles[0].cpus : 0;
  /* Translators: the benchmark window's profile: workload and CPU count */
  g_autofree char *title = g_strdup_printf (_("Where the CPU time goes: %s at %u CPUs"),
                                            workload ? workload : "", cpus);
  double y = pad;
  fl_text_draw (p, FL_FONT_BOLD, p->fs * 1.3, &pal->text, pad, y, p->w - 2 * pad, FL_ALIGN_LEFT,
                title);
  y += fl_text_height (p, FL_FONT_BOLD, p->fs * 1.3) * 1.15;
  y += fl_text_paragraph (p, FL_FONT_SANS, p->fs * 0.92, &pal->text_dim, pad, y, p->w - 2 * pad, 2,
                          _("The share of every CPU's cycles: a step's time goes to the function "
                            "it is in and to the dearest cache line it touched, a wait to the "
                            "step that ends it (as a sampling profiler finds a spinner in its "
                            "lock).")) + pad * 0.8;
  if (n == 0)
    {
      fl_text_draw (p, FL_FONT_ITALIC, p->fs, &pal->text_dim, p->w / 2, y + pad * 2, p->w,
                    FL_ALIGN_CENTER, _("No profile measured yet."));
      return;
    }
  double gap = pad * 1.2;
  double col_w = (p->w - 2 * pad - gap * (n - 1)) / n;
  /* two tables share the height below the design's heading */
  double head_h = fl_text_height (p, FL_FONT_BOLD, p->fs * 1.1) * 1.2
                  + fl_text_height (p, FL_FONT_SANS, p->fs * 0.92) * 1.3;
  double row_h = fl_text_height (p, FL_FONT_SANS, p->fs * 0.92) * 1.25;
  double table_head = fl_text_height (p, FL_FONT_BOLD, p->fs) * 1.2;
  double room = p->h - y - pad - head_h - 2 * table_head - pad;
  guint rows = (guint) CLAMP (room / (2 * row_h), 2, MAX_ROWS);
  for (guint i = 0; i < n; i++)
    {
      const FlBenchProfile *d = &profiles[i];
      const FlRgba *color = design_color (p, d->config, i);
      double x = pad + i * (col_w + gap), cy = y;
      fl_set_rgba (p->cr, color);
      cairo_rectangle (p->cr, x, cy, col_w, 3);
      cairo_fill (p->cr);
      cy += 6;
      fl_text_draw (p, FL_FONT_BOLD, p->fs * 1.1, color, x, cy, col_w, FL_ALIGN_LEFT, d->config);
      cy += fl_text_height (p, FL_FONT_BOLD, p->fs * 1.1) * 1.2;
      char per_fault[32];
      fl_format_count (d->faults ? d->profile->total / d->faults : 0, per_fault,
                       sizeof per_fault);
      /* Translators: under a design's name in the profile: CPU cycles per fault, all CPUs */
      g_autofree char *sub = g_strdup_printf (_("%s CPU cycles per fault"), per_fault);
      fl_text_draw (p, FL_FONT_SANS, p->fs * 0.92, &pal->text_dim, x, cy, col_w, FL_ALIGN_LEFT,
                    sub);
      cy += fl_text_height (p, FL_FONT_SANS, p->fs * 0.92) * 1.3;
      cy += entries_table (p, _("by function"), d->profile->by_function, d->profile->total, rows,
                           color, x, cy, col_w) + pad * 0.6;
      entries_table (p, _("by cache line"), d->profile->by_line, d->profile->total, rows, color,
                     x, cy, col_w);
    }
}

/**
 * fl_paint_bench_profile:
 * @cr: where to draw: the profile fills (0, 0, width, height)
 * @workload: (nullable): the workload's name, for the title
 * @profiles: (array length=n_profiles): one per design, in the order to show
 * @n_profiles: how many (up to 4 read well)
 * @viewport: size and font scale (the rest is ignored)
 * @palette: colours
 *
 * Leaves @cr as it found it.
 */
void
fl_paint_bench_profile (cairo_t *cr, const char *workload, const FlBenchProfile *profiles,
                        guint n_profiles, const FlViewport *viewport, const FlPalette *palette)
{
  g_return_if_fail (cr != NULL && viewport != NULL && palette != NULL);
  g_return_if_fail (profiles != NULL || n_profiles == 0);
  /* below this the columns cannot hold a function's name: the whole is scaled down */
  FlViewport vp;
  if (!fl_paint_scaled_begin (cr, viewport, 900.0, 480.0, &vp))
    return;
  FlPaintCtx p;
  fl_paint_ctx_init_bare (&p, cr, &vp, palette);
  /* five columns of kernel function names across the width: a smaller type than a view's */
  p.fs *= 0.8;
  paint_profile (&p, workload, profiles, n_profiles);
  cairo_restore (cr);
}

typedef struct {
  const char           *workload;
  const FlBenchProfile *profiles;
  guint                 n;
  const FlViewport     *viewport;
  const FlPalette      *palette;
} ExportData;

static void
draw_profile (cairo_t *cr, gpointer data)
{
  ExportData *d = data;
  fl_paint_bench_profile (cr, d->workload, d->profiles, d->n, d->viewport, d->palette);
}

/**
 * fl_export_bench_profile:
 * @workload: (nullable): the workload's name
 * @profiles: (array length=n_profiles): one per design
 * @n_profiles: how many
 * @viewport: size in pixels (PNG) or points (SVG, PDF) and font scale
 * @palette: colours
 * @format: "png", "svg" or "pdf"
 * @path: the file to write (replaced atomically)
 * @error: return location for a #GError
 *
 * Returns: %TRUE when the file was written
 */
gboolean
fl_export_bench_profile (const char *workload, const FlBenchProfile *profiles, guint n_profiles,
                         const FlViewport *viewport, const FlPalette *palette,
                         const char *format, const char *path, GError **error)
{
  g_return_val_if_fail (profiles != NULL || n_profiles == 0, FALSE);
  g_return_val_if_fail (viewport != NULL && palette != NULL, FALSE);
  ExportData d = { workload, profiles, n_profiles, viewport, palette };
  /* Translators: the title of an exported profile; %s is the workload, e.g. multi-fault */
  g_autofree char *title = g_strdup_printf (_("Faultline: where the CPU time goes, %s"),
                                            workload ? workload : "");
  return fl_export_drawing (draw_profile, &d, viewport->width, viewport->height, title, format,
                            path, error);
}

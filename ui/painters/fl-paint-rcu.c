/* fl-paint-rcu.c — RCU: the grace period and its phase, each CPU's read-side nesting and
 * whether the grace period still waits for it, and the callbacks that will free unlinked
 * VMAs once it ends. This is what keeps a speculative fault's VMA alive across munmap. */
#include "fl-paint-private.h"

#include <math.h>
#include <stdio.h>

static gboolean
owes_qs (const FlState *st, guint cpu)
{
  return st->g->rcu.in_progress && cpu < FL_MAX_CPUS
         && ((st->g->rcu.qs_needed[cpu / 64] >> (cpu % 64)) & 1);
}

static const char *
phase_of (const FlState *st, guint *pending, guint *ready)
{
  *pending = *ready = 0;
  for (guint i = 1; i < st->sizes.ncbs; i++)
    if (st->cbs[i].obj)
      {
        (*pending)++;
        if (st->cbs[i].ready)
          (*ready)++;
      }
  /* Translators: the phase of RCU's grace period, after "Grace period 3: " */
  if (st->g->rcu.in_progress)
    return _("waiting for quiescent states");
  if (*ready)
    return _("over: callbacks ready to run");
  if (*pending)
    return _("callbacks queued");
  return _("idle");
}

typedef struct {
  double x, y, w, h;
} Badge;

/* One CPU as a chip on its background (drawn before, by draw_chips): its name in its colour,
 * a filled badge with the nesting depth while it is inside a read-side section, an empty one
 * (added to `empty`, drawn after) outside, and a mark while the grace period waits for it. */
static void
draw_chip (FlPaintCtx *p, guint c, double x, double y, double w, double h, gboolean words,
           GArray *empty)
{
  cairo_t *cr = p->cr;
  const FlPalette *pal = p->pal;
  const FlState *st = p->st;
  const FlCpu *cpu = &st->cpus[c];
  const FlRgba *color = fl_palette_cpu (pal, c);
  double size = MIN (p->fs * 0.9, h * 0.7);
  double th = fl_text_height (p, FL_FONT_BOLD, size);
  char buf[96];

  cairo_rectangle (cr, x, y, 4, h);
  fl_set_rgba (cr, color);
  cairo_fill (cr);

  g_snprintf (buf, sizeof buf, "cpu%u", c);
  double tx = x + 8;
  tx += fl_text_draw (p, FL_FONT_BOLD, size, color, tx, y + (h - th) / 2, w * 0.4, FL_ALIGN_LEFT, buf);
  tx += size * 0.6;

  const FlRgba *rcu = &pal->activity[FL_ACT_RCU];
  double bh = th * 0.95, bw = words ? size * 2.4 : size * 1.6;
  if (tx + bw > x + w - 2)
    return;
  if (cpu->rcu_nesting)
    {
      fl_rounded_rect (cr, tx, y + (h - bh) / 2, bw, bh, bh / 2);
      fl_set_rgba (cr, rcu);
      cairo_fill (cr);
      g_snprintf (buf, sizeof buf, words ? "R×%u" : "%u", cpu->rcu_nesting);
      fl_text_draw (p, FL_FONT_BOLD, size * 0.85, fl_rgba_text_on (pal, rcu), tx + bw / 2,
                    y + (h - fl_text_height (p, FL_FONT_BOLD, size * 0.85)) / 2, bw, FL_ALIGN_CENTER, buf);
    }
  else
    g_array_append_val (empty, ((Badge) { tx, y + (h - bh) / 2, bw, bh }));
  tx += bw + size * 0.6;

  if (words)
    {
      if (cpu->rcu_nesting)
        g_snprintf (buf, sizeof buf, _("reader since step %u"), cpu->rcu_since_step);
      else
        g_snprintf (buf, sizeof buf, "%s", _("outside read-side sections"));
      const char *owes = _("owes a quiescent state");
      double qs_w = owes_qs (st, c) ? fl_text_width (p, FL_FONT_BOLD, size, owes) + size : 0;
      double room = x + w - tx - qs_w - 6;
      if (room > size * 3)
        {
          fl_text_draw (p, FL_FONT_SANS, size, &pal->text_dim, tx, y + (h - th) / 2, room,
                        FL_ALIGN_LEFT, buf);
          tx += room + size * 0.5;
        }
      if (owes_qs (st, c))
        fl_text_draw (p, FL_FONT_BOLD, size, &pal->warning, x + w - 6, y + (h - th) / 2,
                      x + w - tx, FL_ALIGN_RIGHT, owes);
    }
  else if (owes_qs (st, c))
    {
      double r = MIN (bh * 0.35, x + w - tx);
      if (r > 1)
        {
          cairo_new_sub_path (cr);
          cairo_arc (cr, tx + r, y + h / 2, r, 0, 2 * G_PI);
          fl_set_rgba (cr, &pal->warning);
          cairo_fill (cr);
        }
    }
}

/* CPUs 0 to ncpus − 1 as chips `w` × `h`, `cols` to a row from (x, y), 3 apart. What all
 * chips share is filled once for all of them, with the faster rasterizer: their backgrounds,
 * then the empty badges. At 64 CPUs the badges' thin rounded outlines, stroked one by one,
 * took half of the view's time (callgrind: 6.7 M of 14 M instructions a frame; 3.8 M now). */
static void
draw_chips (FlPaintCtx *p, double x, double y, double w, double h, guint cols, gboolean words)
{
  cairo_t *cr = p->cr;
  guint ncpus = p->st->sizes.ncpus;
  g_autoptr (GArray) empty = g_array_sized_new (FALSE, FALSE, sizeof (Badge), ncpus);

  for (guint c = 0; c < ncpus; c++)
    fl_rounded_rect (cr, x + (c % cols) * (w + 3), y + (c / cols) * (h + 3), w, h, 4);
  fl_set_rgba (cr, &p->pal->surface);
  fl_fill_fast (cr);
  for (guint c = 0; c < ncpus; c++)
    draw_chip (p, c, x + (c % cols) * (w + 3), y + (c / cols) * (h + 3), w, h, words, empty);
  for (guint i = 0; i < empty->len; i++)
    {
      const Badge *b = &g_array_index (empty, Badge, i);
      fl_rounded_outline (cr, b->x, b->y, b->w, b->h, b->h / 2, 1.2);
    }
  fl_set_rgba (cr, &p->pal->grid);
  fl_fill_fast (cr);
}

/* The names of the CPUs that matter to the grace period (inside a read-side section, or
 * owing it a quiescent state), in their colours, as many as fit on one line: at 256 CPUs
 * the grid shows the pattern, and this says who. Returns the height taken. */
static double
draw_names (FlPaintCtx *p, double x, double y, double w, double size)
{
  const FlState *st = p->st;
  guint ncpus = st->sizes.ncpus, named = 0, wanted = 0;
  char buf[48];
  double tx = x, end = x + w;
  for (guint c = 0; c < ncpus; c++)
    wanted += st->cpus[c].rcu_nesting > 0 || owes_qs (st, c);
  if (wanted == 0)
    return 0;
  for (guint c = 0; c < ncpus; c++)
    {
      if (st->cpus[c].rcu_nesting == 0 && !owes_qs (st, c))
        continue;
      g_snprintf (buf, sizeof buf, st->cpus[c].rcu_nesting ? "cpu%u R×%u" : "cpu%u",
                  c, st->cpus[c].rcu_nesting);
      double bw = fl_text_width (p, FL_FONT_BOLD, size, buf) + size * 0.8;
      /* room is kept for the count of those left out */
      if (tx + bw > end - (named + 1 < wanted ? size * 4 : 0))
        {
          g_snprintf (buf, sizeof buf, g_dngettext (NULL, "+%u more", "+%u more", wanted - named),
                      wanted - named);
          fl_text_draw (p, FL_FONT_ITALIC, size, &p->pal->text_dim, tx, y, end - tx,
                        FL_ALIGN_LEFT, buf);
          break;
        }
      tx += fl_text_draw (p, FL_FONT_BOLD, size,
                          owes_qs (st, c) && !st->cpus[c].rcu_nesting ? &p->pal->warning
                                                                      : fl_palette_cpu (p->pal, c),
                          tx, y, bw, FL_ALIGN_LEFT, buf) + size * 0.8;
      named++;
    }
  return fl_text_height (p, FL_FONT_BOLD, size) + 3;
}

/* Many CPUs: a summary line, who reads or holds the grace period up, and one cell per CPU
 * in a grid whose rows are named by their first CPU ("cpu32") and whose columns by the
 * offset from it ("+5"), so every cell can be told at 64 or 256 CPUs. A cell is filled while
 * its CPU reads, bordered in its colour, dotted while the grace period waits for it. */
static double
draw_cells (FlPaintCtx *p, double x, double y, double w, double h)
{
  cairo_t *cr = p->cr;
  const FlPalette *pal = p->pal;
  const FlState *st = p->st;
  guint ncpus = st->sizes.ncpus, readers = 0, owing = 0;
  for (guint c = 0; c < ncpus; c++)
    {
      readers += st->cpus[c].rcu_nesting > 0;
      owing += owes_qs (st, c);
    }
  g_autofree char *reading =
    g_strdup_printf (g_dngettext (NULL, "%u of %u CPU in read-side sections",
                                  "%u of %u CPUs in read-side sections", ncpus), readers, ncpus);
  g_autofree char *owe = g_strdup_printf (g_dngettext (NULL, "%u owes a quiescent state",
                                                       "%u owe a quiescent state", owing), owing);
  g_autofree char *buf = g_strdup_printf ("%s · %s", reading, owe);
  double size = p->fs * 0.9;
  fl_text_draw (p, FL_FONT_SANS, size, &pal->text_dim, x, y, w, FL_ALIGN_LEFT, buf);
  double top = y + fl_text_height (p, FL_FONT_SANS, size) + 3;
  top += draw_names (p, x, top, w, size);

  /* the grid: as many columns (a power of two, so rows start at round numbers) as give the
   * largest cells whose row names still read */
  double lf = MAX (9.5, p->fs * 0.75);
  double lh = fl_text_height (p, FL_FONT_BOLD, lf);
  char name[32];
  g_snprintf (name, sizeof name, "cpu%u", ncpus - 1);
  double label_w = fl_text_width (p, FL_FONT_BOLD, lf, name) + lf * 0.6;
  double head_h = lh + 2;
  double room_h = y + h - top - head_h;
  guint cols = MIN (ncpus, 8u);
  double cell = 0;
  for (guint k = MIN (ncpus, 8u); k <= MAX (ncpus, 8u); k *= 2)
    {
      guint rows = (ncpus + k - 1) / k;
      double c = MIN (MIN ((w - label_w) / k, room_h / rows), p->fs * 2.2);
      /* a row's name may fill its row: the ink of a line is less than its line height */
      if (c > cell + 0.5 && (c >= lh * 0.8 || cell < lh * 0.8))
        {
          cell = c;
          cols = k;
        }
      if (k >= ncpus)
        break;
    }
  guint rows = (ncpus + cols - 1) / cols;
  guint row_stride = cell >= lh * 0.8 ? 1u : (guint) ceil (lh * 0.8 / MAX (cell, 1.0));
  double gx = x + label_w, gy = top + head_h;

  /* column heads, thinned to what their width allows */
  g_snprintf (name, sizeof name, "+%u", cols - 1);
  double head_size = lf * 0.9;
  guint col_stride = 1;
  while (col_stride < cols
         && fl_text_width (p, FL_FONT_SANS, head_size, name) + 3 > cell * col_stride)
    col_stride *= 2;
  for (guint k = 0; k < cols; k += col_stride)
    {
      g_snprintf (name, sizeof name, "+%u", k);
      fl_text_draw (p, FL_FONT_SANS, head_size, &pal->text_dim, gx + (k + 0.5) * cell, top, 0,
                    FL_ALIGN_CENTER, name);
    }
  for (guint r = 0; r < rows; r += row_stride)
    {
      g_snprintf (name, sizeof name, "cpu%u", r * cols);
      fl_text_draw (p, FL_FONT_BOLD, lf, fl_palette_cpu (pal, r * cols), x,
                    gy + r * cell + (cell - lh) / 2, label_w - lf * 0.4, FL_ALIGN_LEFT, name);
    }

  double g = cell >= 8 ? 1.5 : 0.5;
  for (guint c = 0; c < ncpus; c++)
    {
      double cx = gx + (c % cols) * cell, cy = gy + (c / cols) * cell;
      cairo_rectangle (cr, cx + g, cy + g, cell - 2 * g, cell - 2 * g);
      if (st->cpus[c].rcu_nesting)
        fl_set_rgba (cr, &pal->activity[FL_ACT_RCU]);
      else
        fl_set_rgba (cr, &pal->surface);
      cairo_fill_preserve (cr);
      fl_set_rgba (cr, fl_palette_cpu (pal, c));
      cairo_set_line_width (cr, cell >= 12 ? 2 : 1);
      cairo_stroke (cr);
      if (owes_qs (st, c))
        {
          cairo_new_sub_path (cr);
          cairo_arc (cr, cx + cell / 2, cy + cell / 2, MAX (cell * 0.18, 1.0), 0, 2 * G_PI);
          fl_set_rgba (cr, &pal->warning);
          cairo_fill (cr);
        }
    }
  return gy - y + rows * cell;
}

void
fl_paint_rcu (FlPaintCtx *p)
{
  const FlPalette *pal = p->pal;
  const FlState *st = p->st;
  const FlRcu *r = &st->g->rcu;
  guint ncpus = st->sizes.ncpus;
  guint pending, ready;
  const char *phase = phase_of (st, &pending, &ready);

  fl_paint_panel_background (p);
  g_autofree char *subtitle = g_strdup_printf (g_dngettext (NULL, "%u callback pending",
                                                            "%u callbacks pending", pending),
                                               pending);
  double top = fl_paint_header (p, _("RCU"), subtitle);
  double pad = p->fs * 0.6;
  double y = top;
  char buf[160];

  /* the grace period */
  if (r->in_progress)
    /* Translators: the running grace period's number, its phase and the step it began */
    g_snprintf (buf, sizeof buf, _("Grace period %u: %s (since step %u)"), r->gp + 1, phase,
                r->gp_started_step);
  else
    /* Translators: how many grace periods ended, and RCU's phase */
    g_snprintf (buf, sizeof buf, _("Grace periods completed: %u · %s"), r->gp, phase);
  fl_text_draw (p, FL_FONT_BOLD, p->fs, r->in_progress ? &pal->warning : &pal->text, pad, y,
                p->w - 2 * pad, FL_ALIGN_LEFT, buf);
  y += fl_text_height (p, FL_FONT_BOLD, p->fs) + pad * 0.6;

  /* readers: one row per CPU when there is room, else a grid of chips */
  double cbs_min = pending ? (fl_text_height (p, FL_FONT_SANS, p->fs) * 1.3) * MIN (pending, 3u)
                             + fl_text_height (p, FL_FONT_BOLD, p->fs * 0.9) + pad
                           : fl_text_height (p, FL_FONT_SANS, p->fs) * 2;
  double readers_h = MAX (p->h - pad - y - cbs_min, p->fs);
  double row_h = p->fs * 1.9;
  if (ncpus * (row_h + 3) <= readers_h)
    {
      draw_chips (p, pad, y, p->w - 2 * pad, row_h, 1, TRUE);
      y += ncpus * (row_h + 3);
    }
  else if (ncpus > 0)
    {
      double chip_w = p->fs * 7;
      guint cols = MAX ((guint) floor ((p->w - 2 * pad + 3) / (chip_w + 3)), 1u);
      guint rows = (ncpus + cols - 1) / cols;
      double ch = MIN (row_h, readers_h / rows - 3);
      if (ch >= p->fs * 1.35)
        {
          chip_w = (p->w - 2 * pad + 3) / cols - 3;
          draw_chips (p, pad, y, chip_w, ch, cols, FALSE);
          y += rows * (ch + 3);
        }
      else
        y += draw_cells (p, pad, y, p->w - 2 * pad, readers_h);
    }
  y += pad * 0.6;

  /* callbacks */
  fl_text_draw (p, FL_FONT_BOLD, p->fs * 0.9, &pal->text_dim, pad, y, p->w - 2 * pad,
                /* Translators: call_rcu is the kernel's function, keep it */
                FL_ALIGN_LEFT, _("Callbacks (call_rcu)"));
  y += fl_text_height (p, FL_FONT_BOLD, p->fs * 0.9) + 3;
  double line = fl_text_height (p, FL_FONT_SANS, p->fs * 0.9);
  if (pending == 0)
    {
      fl_text_draw (p, FL_FONT_ITALIC, p->fs * 0.9, &pal->text_dim, pad, y, p->w - 2 * pad,
                    /* Translators: under "Callbacks (call_rcu)" when there are none */
                    FL_ALIGN_LEFT, _("none pending"));
      return;
    }
  guint shown = 0;
  for (guint i = 1; i < st->sizes.ncbs; i++)
    {
      const FlRcuCb *cb = &st->cbs[i];
      if (!cb->obj)
        continue;
      if (y + line * 2.4 > p->h - pad)
        {
          g_snprintf (buf, sizeof buf, g_dngettext (NULL, "+%u more", "+%u more", pending - shown),
                      pending - shown);
          fl_text_draw (p, FL_FONT_ITALIC, p->fs * 0.85, &pal->text_dim, pad, y, p->w - 2 * pad,
                        FL_ALIGN_LEFT, buf);
          break;
        }
      double x = pad;
      /* the VMA it frees, as the VMA view would draw its ghost */
      double bw = p->fs * 0.9;
      fl_rounded_rect (p->cr, x, y + (line - bw) / 2, bw, bw, 2);
      fl_set_rgba_alpha (p->cr, &pal->ghost, 0.3);
      cairo_fill_preserve (p->cr);
      fl_set_rgba (p->cr, &pal->ghost);
      cairo_set_line_width (p->cr, 1.2);
      cairo_stroke (p->cr);
      x += bw + 6;
      if (fl_state_vma_holds_file (st, cb->obj))
        /* Translators: an RCU callback that frees a VMA and drops its file's reference
         * (fput): the file stays open until then (vm-file-put=rcu) */
        g_snprintf (buf, sizeof buf, _("free VMA %u (0x%" PRIx64 "–0x%" PRIx64 ") and put its "
                                       "file, held open until then"),
                    cb->obj, st->vmas[cb->obj].start, st->vmas[cb->obj].end);
      else if (cb->obj < st->sizes.nvmas)
        /* Translators: what an RCU callback does: free a VMA, with the range it mapped */
        g_snprintf (buf, sizeof buf, _("free VMA %u (0x%" PRIx64 "–0x%" PRIx64 ")"),
                    cb->obj, st->vmas[cb->obj].start, st->vmas[cb->obj].end);
      else
        g_snprintf (buf, sizeof buf, _("free VMA %u"), cb->obj);
      fl_text_draw (p, FL_FONT_SANS, p->fs * 0.9, &pal->text, x, y, p->w - pad - x, FL_ALIGN_LEFT, buf);
      y += line;
      x = pad + bw + 6;
      g_snprintf (buf, sizeof buf, "cpu%u", cb->cpu);
      x += fl_text_draw (p, FL_FONT_BOLD, p->fs * 0.85, fl_palette_cpu (pal, cb->cpu), x, y, 0,
                         FL_ALIGN_LEFT, buf);
      if (cb->ready)
        /* Translators: after the name of the CPU that queued an RCU callback; keep the
         * leading space */
        g_snprintf (buf, sizeof buf, _(" queued it at step %u · grace period %u over: runs next"),
                    cb->queued_step, cb->gp);
      else if (cb->gp)
        g_snprintf (buf, sizeof buf, _(" queued it at step %u · waits for grace period %u"),
                    cb->queued_step, cb->gp);
      else
        g_snprintf (buf, sizeof buf, _(" queued it at step %u · waits for the next grace period"),
                    cb->queued_step);
      fl_text_draw (p, FL_FONT_SANS, p->fs * 0.85, cb->ready ? &pal->accent : &pal->text_dim, x, y,
                    p->w - pad - x, FL_ALIGN_LEFT, buf);
      y += line * 1.4;
      shown++;
    }
}

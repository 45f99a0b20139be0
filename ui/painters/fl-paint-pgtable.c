/* fl-paint-pgtable.c — the page tables of the mm: pgd → pud → pmd → PTE pages, one column per
 * level, live tables, and freed PTE pages whose lock is still held (the lock lives in the
 * freed page: a bug the view must show, not hide). PTE pages show the slots of the touched range as cells coloured by
 * state; a table whose PTE lock is held is framed in the holder's colour with a padlock; the
 * path each faulting CPU walks is drawn in its colour down to where it stands. */
#include "fl-paint-private.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define MAX_ROWS 6            /* entries listed in an upper-level box */
#define SMALL_MAPPING 64      /* slots of a mapping shown whole in a PTE page */

typedef struct {
  guint32 id;
  double  x, y, w, h;
  guint   lo, hi;             /* PTE pages: slots shown */
  gboolean placed;
  gboolean freed;             /* a freed PTE page still locked, or named by a finding */
} Box;

typedef struct {
  FlPaintCtx *p;
  GArray     *levels[5];      /* Box per level 4..1 */
  FlCpuFault  doing[FL_MAX_CPUS];
  guint32     path[FL_MAX_CPUS][5];   /* tables on each CPU's walk, by level; 0 past its reach */
  double      row_h, size;
} Tables;

static gboolean
live (const FlState *st, guint32 id)
{
  return id && id < st->sizes.ntables && st->tables[id].state == FL_OBJ_LIVE;
}

static void
collect (Tables *t)
{
  const FlState *st = t->p->st;
  g_autofree guint8 *seen = g_malloc0 (MAX (st->sizes.ntables, 1u));
  for (guint l = 1; l <= 4; l++)
    t->levels[l] = g_array_new (FALSE, TRUE, sizeof (Box));
  guint32 pgd = st->g->mm.pgd;
  if (!live (st, pgd))
    return;
  Box b = { .id = pgd };
  seen[pgd] = 1;
  g_array_append_val (t->levels[4], b);
  for (guint level = 4; level > 1; level--)
    for (guint i = 0; i < t->levels[level]->len; i++)
      {
        guint32 id = g_array_index (t->levels[level], Box, i).id;
        const guint64 *e = fl_table_entries (st, id);
        for (guint k = 0; k < FL_PTRS_PER_TABLE; k++)
          {
            guint32 child = (guint32) e[k];
            if (e[k] == 0 || e[k] > G_MAXUINT32 || !live (st, child) || seen[child]
                || st->tables[child].level != level - 1)
              continue;
            seen[child] = 1;
            Box c = { .id = child };
            g_array_append_val (t->levels[level - 1], c);
          }
      }
  /* unhooked and freed, but its lock held or the finding of this step about it: after the
   * live ones, with no edge into it */
  for (guint32 id = 1; id < st->sizes.ntables; id++)
    if (st->tables[id].state == FL_OBJ_FREE && st->tables[id].level == 1 && !seen[id]
        && (st->tables[id].ptl_holder >= 0 || fl_marks (t->p, FL_MARK_TABLE, id, 0)))
      {
        Box c = { .id = id, .freed = TRUE };
        g_array_append_val (t->levels[1], c);
      }
}

static void
walks (Tables *t)
{
  const FlState *st = t->p->st;
  for (guint c = 0; c < st->sizes.ncpus && c < FL_MAX_CPUS; c++)
    {
      FlCpuFault *d = &t->doing[c];
      fl_cpu_fault_decode (st, c, d);
      memset (t->path[c], 0, sizeof t->path[c]);
      if (!d->in_fault || d->walk_table == 0)
        continue;
      guint reach = st->tables[d->walk_table].level;
      guint32 table = st->g->mm.pgd;
      for (guint level = 4; level >= 1 && live (st, table); level--)
        {
          t->path[c][level] = table;
          if (table == d->walk_table || level == reach)
            break;
          table = fl_table_child (st, table, d->address);
        }
    }
}

/* The slots of a PTE page worth showing: what is mapped, what live VMAs cover, and where
 * CPUs are faulting. */
static void
pte_range (Tables *t, guint32 id, guint *lo, guint *hi)
{
  const FlState *st = t->p->st;
  const guint64 *e = fl_table_entries (st, id);
  guint64 base = st->tables[id].base & ~(guint64) (FL_PAGE_SIZE * FL_PTRS_PER_TABLE - 1);
  guint64 end = base + (guint64) FL_PAGE_SIZE * FL_PTRS_PER_TABLE;
  guint a = FL_PTRS_PER_TABLE, b = 0;
  for (guint k = 0; k < FL_PTRS_PER_TABLE; k++)
    if (e[k])
      a = MIN (a, k), b = MAX (b, k);
  /* Small mappings are shown whole, for context; of a large one only what is touched, or
   * its first slots while nothing is. */
  gboolean touched = a <= b;
  for (guint32 v = 1; v < st->sizes.nvmas; v++)
    {
      const FlVma *vma = &st->vmas[v];
      if (vma->state != FL_OBJ_LIVE || vma->end <= base || vma->start >= end)
        continue;
      guint64 s = MAX (vma->start, base), x = MIN (vma->end, end);
      guint first = (guint) ((s - base) / FL_PAGE_SIZE), last = (guint) ((x - base - 1) / FL_PAGE_SIZE);
      if (last - first >= SMALL_MAPPING)
        {
          if (touched)
            continue;
          last = first + SMALL_MAPPING / 4 - 1;
        }
      a = MIN (a, first);
      b = MAX (b, last);
    }
  for (guint c = 0; c < st->sizes.ncpus && c < FL_MAX_CPUS; c++)
    if (t->doing[c].in_fault && t->doing[c].address >= base && t->doing[c].address < end)
      {
        guint k = (guint) ((t->doing[c].address - base) / FL_PAGE_SIZE);
        a = MIN (a, k), b = MAX (b, k);
      }
  if (a > b)
    a = b = 0;
  *lo = a;
  *hi = b;
}

static void
draw_padlock (cairo_t *cr, double x, double y, double s, const FlRgba *color)
{
  fl_set_rgba (cr, color);
  cairo_set_line_width (cr, MAX (1.5, s * 0.14));
  cairo_new_sub_path (cr);
  cairo_arc (cr, x + s / 2, y + s * 0.42, s * 0.26, G_PI, 2 * G_PI);
  cairo_line_to (cr, x + s * 0.76, y + s * 0.5);
  cairo_move_to (cr, x + s * 0.24, y + s * 0.42);
  cairo_line_to (cr, x + s * 0.24, y + s * 0.5);
  cairo_stroke (cr);
  fl_rounded_rect (cr, x + s * 0.1, y + s * 0.48, s * 0.8, s * 0.52, s * 0.08);
  cairo_fill (cr);
}

static const char *const level_names[5] = { "", "PTE", "PMD", "PUD", "PGD" };

/* An upper-level table: a title and one row per entry that points at a live table. */
static void
draw_upper (Tables *t, guint level, Box *b)
{
  FlPaintCtx *p = t->p;
  cairo_t *cr = p->cr;
  const FlState *st = p->st;
  const FlPalette *pal = p->pal;
  fl_rounded_rect (cr, b->x, b->y, b->w, b->h, 4);
  fl_set_rgba (cr, &pal->surface);
  cairo_fill_preserve (cr);
  fl_set_rgba (cr, &pal->grid);
  cairo_set_line_width (cr, 1);
  cairo_stroke (cr);
  char text[48];
  g_snprintf (text, sizeof text, "%s", level_names[level]);
  double tw = fl_text_draw (p, FL_FONT_BOLD, t->size, &pal->text, b->x + 4, b->y + 2, b->w - 8,
                            FL_ALIGN_LEFT, text);
  /* a dot for each CPU whose walk stands on this table now */
  double r = t->size * 0.28, dx = b->x + 4 + tw + r + 4;
  for (guint c = 0; c < st->sizes.ncpus && c < FL_MAX_CPUS; c++)
    if (t->doing[c].walk_table == b->id && dx + r <= b->x + b->w - 2)
      {
        cairo_new_sub_path (cr);
        cairo_arc (cr, dx, b->y + 2 + t->row_h / 2, r, 0, 2 * G_PI);
        fl_set_rgba (cr, fl_palette_cpu (pal, c));
        cairo_fill (cr);
        dx += 2 * r + 2;
      }
  const guint64 *e = fl_table_entries (st, b->id);
  guint rows = 0, more = 0;
  for (guint k = 0; k < FL_PTRS_PER_TABLE; k++)
    {
      guint32 child = (guint32) e[k];
      if (e[k] == 0 || e[k] > G_MAXUINT32 || !live (st, child))
        continue;
      if (rows >= MAX_ROWS)
        {
          more++;
          continue;
        }
      double ry = b->y + t->row_h * (rows + 1);
      /* CPUs walking through this entry: a tint in their colour */
      /* the first CPU walking through this entry tints it in its colour */
      for (guint c = 0; c < st->sizes.ncpus && c < FL_MAX_CPUS; c++)
        if (t->path[c][level] == b->id && t->path[c][level - 1] == child)
          {
            fl_set_rgba_alpha (cr, fl_palette_cpu (pal, c), 0.25);
            cairo_rectangle (cr, b->x + 2, ry, b->w - 4, t->row_h);
            cairo_fill (cr);
            break;
          }
      g_snprintf (text, sizeof text, "[%u]", k);
      fl_text_draw (p, FL_FONT_MONO, t->size * 0.9, &pal->text, b->x + 6, ry + 1, b->w - 10,
                    FL_ALIGN_LEFT, text);
      rows++;
    }
  if (more)
    {
      g_snprintf (text, sizeof text, g_dngettext (NULL, "+%u more", "+%u more", more), more);
      fl_text_draw (p, FL_FONT_SANS, t->size * 0.85, &pal->text_dim, b->x + 6,
                    b->y + t->row_h * (rows + 1) + 1, b->w - 10, FL_ALIGN_LEFT, text);
    }
}

/* Where the row of `child` sits in its parent's box, for the connecting edge. */
static gboolean
row_of (Tables *t, guint level, guint32 parent, guint32 child, double *x, double *y)
{
  for (guint i = 0; i < t->levels[level]->len; i++)
    {
      Box *b = &g_array_index (t->levels[level], Box, i);
      if (b->id != parent || !b->placed)
        continue;
      const guint64 *e = fl_table_entries (t->p->st, parent);
      guint row = 0;
      for (guint k = 0; k < FL_PTRS_PER_TABLE; k++)
        {
          if (e[k] == 0 || e[k] > G_MAXUINT32 || !live (t->p->st, (guint32) e[k]))
            continue;
          if ((guint32) e[k] == child)
            {
              row = MIN (row, (guint) MAX_ROWS);
              *x = b->x + b->w;
              *y = b->y + t->row_h * (row + 1.5);
              return TRUE;
            }
          row++;
        }
    }
  return FALSE;
}

static guint32
parent_of (Tables *t, guint level, guint32 child)
{
  if (level >= 4)
    return 0;
  for (guint i = 0; i < t->levels[level + 1]->len; i++)
    {
      guint32 id = g_array_index (t->levels[level + 1], Box, i).id;
      const guint64 *e = fl_table_entries (t->p->st, id);
      for (guint k = 0; k < FL_PTRS_PER_TABLE; k++)
        if (e[k] == child)
          return id;
    }
  return 0;
}

/* Cell size that fits `n` cells into w × h. */
static double
cell_size (guint n, double w, double h, double max)
{
  for (double s = max; s > 1.5; s -= 0.5)
    {
      guint cols = MAX ((guint) floor (w / s), 1u);
      guint rows = (n + cols - 1) / cols;
      if (rows * s <= h)
        return s;
    }
  return 1.5;
}

/* Room the header of a PTE page needs: its title, the lock holder, the CPUs spinning. */
static double
header_width (Tables *t, guint32 id)
{
  FlPaintCtx *p = t->p;
  const FlState *st = p->st;
  char text[96];
  double w = 12 + fl_text_width (p, FL_FONT_BOLD, t->size, _("PTE page")) + 8;
  gint holder = st->tables[id].ptl_holder;
  if (holder >= 0 && (guint) holder < st->sizes.ncpus)
    {
      g_snprintf (text, sizeof text, "cpu%d", holder);
      w += fl_text_width (p, FL_FONT_BOLD, t->size, text) + t->size * 1.1 + 8;
    }
  for (guint c = 0; c < st->sizes.ncpus && c < FL_MAX_CPUS; c++)
    if (t->doing[c].spin_table == id && (gint) c != holder)
      {
        /* Translators: a CPU busy-waiting for a PTE page's lock */
        g_snprintf (text, sizeof text, _("cpu%u spins"), c);
        w += fl_text_width (p, FL_FONT_SANS, t->size * 0.9, text) + 6;
      }
  return w;
}

/* What stroking the rectangle x, y, w, h with a 1-unit line draws (mitred corners), as four
 * boxes: filling boxes is much cheaper for Cairo than stroking the same outline. */
static void
ring (cairo_t *cr, double x, double y, double w, double h)
{
  cairo_rectangle (cr, x - 0.5, y - 0.5, w + 1, 1);
  cairo_rectangle (cr, x - 0.5, y + h - 0.5, w + 1, 1);
  cairo_rectangle (cr, x - 0.5, y + 0.5, 1, h - 1);
  cairo_rectangle (cr, x + w - 0.5, y + 0.5, 1, h - 1);
}

static void
draw_pte_page (Tables *t, Box *b, double header_h, double cell)
{
  FlPaintCtx *p = t->p;
  cairo_t *cr = p->cr;
  const FlState *st = p->st;
  const FlPalette *pal = p->pal;
  const FlTable *tab = &st->tables[b->id];
  gint holder = tab->ptl_holder;
  gboolean held = holder >= 0 && (guint) holder < st->sizes.ncpus;

  fl_rounded_rect (cr, b->x, b->y, b->w, b->h, 4);
  fl_set_rgba (cr, &pal->surface);
  cairo_fill_preserve (cr);
  if (b->freed)
    {
      /* freed memory: dashed, as the VMA tree draws its ghosts */
      double dash[] = { 5, 3 };
      cairo_set_dash (cr, dash, 2, 0);
    }
  if (held)
    {
      fl_set_rgba (cr, fl_palette_cpu (pal, (guint) holder));
      cairo_set_line_width (cr, 3);
    }
  else
    {
      fl_set_rgba (cr, &pal->grid);
      cairo_set_line_width (cr, 1);
    }
  cairo_stroke (cr);
  cairo_set_dash (cr, NULL, 0, 0);
  if (fl_marks (p, FL_MARK_TABLE, b->id, 0))
    fl_mark_ring (p, b->x, b->y, b->w, b->h, 4);

  /* header: which page of PTEs, what it maps, who holds its lock */
  char text[128];
  guint64 base = tab->base & ~(guint64) (FL_PAGE_SIZE * FL_PTRS_PER_TABLE - 1);
  double x = b->x + 6, right = b->x + b->w - 6;
  if (held)
    {
      char who[32];
      g_snprintf (who, sizeof who, "cpu%d", holder);
      double ww = fl_text_width (p, FL_FONT_BOLD, t->size, who);
      fl_text_draw (p, FL_FONT_BOLD, t->size, fl_palette_cpu (pal, (guint) holder), right, b->y + 3,
                    0, FL_ALIGN_RIGHT, who);
      double s = t->size * 1.1;
      draw_padlock (cr, right - ww - s - 3, b->y + 3, s, fl_palette_cpu (pal, (guint) holder));
      right -= ww + s + 8;
    }
  /* CPUs spinning on the lock: in the header while there is room, else under the slots */
  guint32 spin_in_foot = 0;
  for (guint c = 0; c < st->sizes.ncpus && c < FL_MAX_CPUS; c++)
    if (t->doing[c].spin_table == b->id && (gint) c != holder)
      {
        g_snprintf (text, sizeof text, _("cpu%u spins"), c);
        double ww = fl_text_width (p, FL_FONT_SANS, t->size * 0.9, text);
        if (spin_in_foot
            || right - ww < x + fl_text_width (p, FL_FONT_BOLD, t->size, _("PTE page")) + 6)
          {
            spin_in_foot++;
            continue;
          }
        fl_text_draw (p, FL_FONT_SANS, t->size * 0.9, fl_palette_cpu (pal, c), right, b->y + 4, 0,
                      FL_ALIGN_RIGHT, text);
        right -= ww + 6;
      }
  if (b->freed)
    /* Translators: the title of a PTE page already freed (its lock may still be held) */
    g_snprintf (text, sizeof text, "%s", _("PTE page · freed"));
  else
    /* Translators: the title of the box of one last-level page table */
    g_snprintf (text, sizeof text, "%s", _("PTE page"));
  fl_text_draw (p, FL_FONT_BOLD, t->size, b->freed ? &pal->error : &pal->text, x, b->y + 3,
                right - x, FL_ALIGN_LEFT, text);

  /* the slots */
  guint n = b->hi - b->lo + 1;
  double gx = b->x + 6, gy = b->y + header_h;
  double gw = b->w - 12;
  guint cols = MAX ((guint) floor (gw / cell), 1u);
  double gap = cell >= 8 ? 1.5 : 0;
  const guint64 *e = fl_table_entries (st, b->id);
  /* One path per state for the fills, one per alpha for the thin borders: a fill and a
   * stroke per cell cost most of this view. */
  guint8 state[FL_PTRS_PER_TABLE];
  guint present = 0;
  for (guint k = 0; k < n; k++)
    {
      state[k] = (guint8) fl_pte_state (st, e[b->lo + k]);
      present |= 1u << state[k];
    }
  /* Cells too small for a gap still show as cells: a seam of a fraction of a pixel on their
   * right and lower edges lets the background show faintly between them. */
  double inset = gap > 0 ? gap : MIN (0.3, cell * 0.08);
  double shift = gap / 2;
  for (guint sv = 0; sv < FL_PTE_STATE_N; sv++)
    {
      if (!(present & (1u << sv)))
        continue;
      for (guint k = 0; k < n; k++)
        if (state[k] == sv)
          cairo_rectangle (cr, gx + (k % cols) * cell + shift, gy + (k / cols) * cell + shift,
                           cell - inset, cell - inset);
      FlRgba col = fl_palette_pte (pal, (FlPteState) sv);
      fl_set_rgba (cr, &col);
      cairo_fill (cr);
    }
  if (gap > 0)
    {
      for (guint none = 0; none < 2; none++)
        {
          gboolean any = FALSE;
          for (guint k = 0; k < n; k++)
            if ((state[k] == FL_PTE_STATE_NONE) == (none == 1))
              {
                ring (cr, gx + (k % cols) * cell + gap / 2, gy + (k / cols) * cell + gap / 2,
                      cell - gap, cell - gap);
                any = TRUE;
              }
          if (!any)
            continue;
          fl_set_rgba_alpha (cr, &pal->text, none ? 0.25 : 0.15);
          cairo_fill (cr);
        }
    }
  if (cell >= t->size * 1.7)
    for (guint k = 0; k < n; k++)
      {
        FlPteState sv = (FlPteState) state[k];
        if (sv == FL_PTE_STATE_NONE)
          continue;
        FlRgba col = fl_palette_pte (pal, sv);
        double cx = gx + (k % cols) * cell, cy = gy + (k / cols) * cell;
        fl_text_draw (p, FL_FONT_SANS, cell * 0.36, fl_rgba_text_on (pal, &col), cx + cell / 2,
                      cy + cell * 0.28, cell, FL_ALIGN_CENTER, fl_pte_state_code (sv));
      }
  /* walkers' slots */
  for (guint c = 0; c < st->sizes.ncpus && c < FL_MAX_CPUS; c++)
    {
      const FlCpuFault *d = &t->doing[c];
      if (t->path[c][1] != b->id || !d->in_fault)
        continue;
      guint idx = fl_table_index (1, d->address);
      if (idx < b->lo || idx > b->hi)
        continue;
      guint k = idx - b->lo;
      double cx = gx + (k % cols) * cell, cy = gy + (k / cols) * cell;
      fl_set_rgba (cr, fl_palette_cpu (pal, c));
      cairo_set_line_width (cr, MAX (2.0, MIN (3.0, cell * 0.15)));
      double o = d->at_pte ? 0 : 1.5;
      cairo_rectangle (cr, cx + o, cy + o, cell - 2 * o, cell - 2 * o);
      cairo_stroke (cr);
    }
  /* the PTE a finding of this step names */
  for (guint k = 0; k < n; k++)
    if (fl_marks (p, FL_MARK_PTE, b->id, b->lo + k))
      fl_mark_ring (p, gx + (k % cols) * cell + 1, gy + (k / cols) * cell + 1, cell - 2,
                    cell - 2, 2);
  /* first and last slot shown */
  guint rows = (n + cols - 1) / cols;
  double ly = gy + rows * cell + 2;
  if (ly + fl_text_height (p, FL_FONT_SANS, t->size * 0.8) <= b->y + b->h)
    {
      if (n > 1)
        /* Translators: the entries of a PTE page shown, and the address the first maps */
        g_snprintf (text, sizeof text, _("slots %u–%u of 512 · 0x%" PRIx64),
                    b->lo, b->hi, base + (guint64) b->lo * FL_PAGE_SIZE);
      else
        g_snprintf (text, sizeof text, _("slot %u of 512 · 0x%" PRIx64), b->lo,
                    base + (guint64) b->lo * FL_PAGE_SIZE);
      double fx = gx;
      for (guint c = 0; spin_in_foot && c < st->sizes.ncpus && c < FL_MAX_CPUS; c++)
        if (t->doing[c].spin_table == b->id && (gint) c != holder && fx < gx + gw * 0.6)
          {
            char who[96];
            g_snprintf (who, sizeof who, _("cpu%u spins · "), c);
            fx += fl_text_draw (p, FL_FONT_BOLD, t->size * 0.8, fl_palette_cpu (pal, c), fx, ly,
                                gx + gw - fx, FL_ALIGN_LEFT, who);
          }
      fl_text_draw (p, FL_FONT_SANS, t->size * 0.8, &pal->text_dim, fx, ly, gx + gw - fx,
                    FL_ALIGN_LEFT, text);
    }
}

/* The tables below the header: upper levels in narrow columns, PTE pages in the rest, and
 * the edges between them, at the type size of `p` (fl_paint_pgtable() may zoom it). */
static void
paint_tables (FlPaintCtx *p, Tables *t, double top, double bottom)
{
  cairo_t *cr = p->cr;
  const FlPalette *pal = p->pal;
  const FlState *st = p->st;
  double pad = p->fs * 0.6;

  /* upper levels: narrow columns; PTE pages take the rest of the width */
  double col_w = fl_text_width (p, FL_FONT_MONO, t->size * 0.9, "[511]") + 16;
  col_w = MAX (col_w, fl_text_width (p, FL_FONT_BOLD, t->size, "PGD") + 12);
  double gap = p->fs * 1.4;
  double x = pad;
  double label_h = fl_text_height (p, FL_FONT_SANS, p->fs * 0.8);
  fl_text_draw (p, FL_FONT_SANS, p->fs * 0.8, &pal->text_dim, x, top, col_w + gap,
                FL_ALIGN_LEFT, "mm->pgd");
  double y0 = top + label_h + 2;
  for (guint level = 4; level >= 2; level--)
    {
      double y = y0;
      for (guint i = 0; i < t->levels[level]->len; i++)
        {
          Box *b = &g_array_index (t->levels[level], Box, i);
          guint rows = 0;
          const guint64 *e = fl_table_entries (st, b->id);
          for (guint k = 0; k < FL_PTRS_PER_TABLE; k++)
            if (e[k] && e[k] <= G_MAXUINT32 && live (st, (guint32) e[k]))
              rows++;
          rows = MIN (rows, (guint) MAX_ROWS + 1);
          b->x = x;
          b->y = y;
          b->w = col_w;
          b->h = t->row_h * (rows + 1) + 4;
          if (b->y + b->h > bottom)
            break;
          b->placed = TRUE;
          y += b->h + pad;
        }
      x += col_w + gap;
    }

  /* PTE pages: as many as fit, each with cells sized to its range */
  double px = x, pw = MAX (p->w - pad - px, 40.0);
  double header_h = fl_text_height (p, FL_FONT_BOLD, t->size) + 8;
  double foot_h = fl_text_height (p, FL_FONT_SANS, t->size * 0.8) + 4;
  guint n = t->levels[1]->len;
  double avail = bottom - y0;
  double each = n ? (avail - pad * (n - 1)) / n : avail;
  double min_h = header_h + foot_h + 10;
  guint shown = n;
  if (each < min_h)
    {
      /* as many as fit above a "+N more" line */
      double more_h = fl_text_height (p, FL_FONT_ITALIC, p->fs * 0.85);
      shown = (guint) floor ((avail - more_h + pad) / (min_h + pad));
      shown = CLAMP (shown, 1u, n);
      each = (avail - more_h - pad * shown) / shown;
    }
  double y = y0;
  for (guint i = 0; i < shown; i++)
    {
      Box *b = &g_array_index (t->levels[1], Box, i);
      pte_range (t, b->id, &b->lo, &b->hi);
      guint cells = b->hi - b->lo + 1;
      double grid_h = MAX (each - header_h - foot_h, 4.0);
      double cell = cell_size (cells, pw - 12, grid_h, p->fs * 2.6);
      guint cols = MAX ((guint) floor ((pw - 12) / cell), 1u);
      guint rows = (cells + cols - 1) / cols;
      b->x = px;
      b->y = y;
      /* as wide as its cells, but room for the header and the slot range */
      b->w = MIN (pw, MAX (MAX (MIN (cells, cols) * cell + 12, p->fs * 17),
                           header_width (t, b->id)));
      b->h = MIN (each, header_h + rows * cell + foot_h + 4);
      b->placed = TRUE;
      draw_pte_page (t, b, header_h, cell);
      y += b->h + pad;
    }
  if (shown < n)
    {
      char more[96];
      g_snprintf (more, sizeof more, g_dngettext (NULL, "+%u more PTE page",
                                                  "+%u more PTE pages", n - shown), n - shown);
      fl_text_draw (p, FL_FONT_ITALIC, p->fs * 0.85, &pal->text_dim, px, y, pw, FL_ALIGN_LEFT, more);
    }

  /* edges from each entry to the table it points at; walks in the walker's colour */
  for (guint level = 3; level >= 1; level--)
    for (guint i = 0; i < t->levels[level]->len; i++)
      {
        Box *b = &g_array_index (t->levels[level], Box, i);
        if (!b->placed)
          continue;
        guint32 parent = parent_of (t, level, b->id);
        double ex, ey;
        if (!row_of (t, level + 1, parent, b->id, &ex, &ey))
          continue;
        double tx = b->x, ty = b->y + t->row_h * 0.6;
        const FlRgba *color = &pal->text_dim;
        double width = 1.2;
        for (guint c = 0; c < st->sizes.ncpus && c < FL_MAX_CPUS; c++)
          if (t->path[c][level] == b->id)
            {
              color = fl_palette_cpu (pal, c);
              width = 3;
              break;
            }
        fl_set_rgba (cr, color);
        cairo_set_line_width (cr, width);
        cairo_move_to (cr, ex, ey);
        cairo_curve_to (cr, ex + gap * 0.6, ey, tx - gap * 0.6, ty, tx, ty);
        cairo_stroke (cr);
      }
  for (guint level = 4; level >= 2; level--)
    for (guint i = 0; i < t->levels[level]->len; i++)
      {
        Box *b = &g_array_index (t->levels[level], Box, i);
        if (!b->placed)
          continue;
        draw_upper (t, level, b);
      }
}

/* The width and height the tables need at type size `fs`, PTE cells at their largest: a
 * zoom at which they fit shows nothing smaller than at normal size. */
static void
tables_extent (Tables *t, double fs, double *width, double *height)
{
  FlPaintCtx *p = t->p;
  const FlState *st = p->st;
  double size = fs * 0.9, pad = fs * 0.6;
  double row_h = fl_text_height (p, FL_FONT_MONO, size) + 2;
  double col_w = MAX (fl_text_width (p, FL_FONT_MONO, size * 0.9, "[511]") + 16,
                      fl_text_width (p, FL_FONT_BOLD, size, "PGD") + 12);
  double gap = fs * 1.4, upper_w = 3 * (col_w + gap);
  double label_h = fl_text_height (p, FL_FONT_SANS, fs * 0.8) + 2;
  double header_h = fl_text_height (p, FL_FONT_BOLD, size) + 8;
  double foot_h = fl_text_height (p, FL_FONT_SANS, size * 0.8) + 4;
  double cell = fs * 2.6, pages_w = fs * 17, upper_h = 0, pages_h = 0;
  double pw = p->w - 2 * pad - upper_w;

  for (guint level = 4; level >= 2; level--)
    {
      double h = 0;
      for (guint i = 0; i < t->levels[level]->len; i++)
        {
          const Box *b = &g_array_index (t->levels[level], Box, i);
          const guint64 *e = fl_table_entries (st, b->id);
          guint rows = 0;
          for (guint k = 0; k < FL_PTRS_PER_TABLE; k++)
            if (e[k] && e[k] <= G_MAXUINT32 && live (st, (guint32) e[k]))
              rows++;
          h += row_h * (MIN (rows, (guint) MAX_ROWS + 1) + 1) + 4 + pad;
        }
      upper_h = MAX (upper_h, h);
    }
  for (guint i = 0; i < t->levels[1]->len; i++)
    {
      const Box *b = &g_array_index (t->levels[1], Box, i);
      guint lo, hi;
      pte_range (t, b->id, &lo, &hi);
      guint cells = hi - lo + 1;
      guint cols = MAX ((guint) floor ((pw - 12) / cell), 1u);
      pages_w = MAX (pages_w, MIN (cells, cols) * cell + 12);
      pages_h += header_h + (cells + cols - 1) / cols * cell + foot_h + 4 + pad;
    }
  *width = upper_w + pages_w + 2 * pad;
  *height = label_h + MAX (upper_h, pages_h);
}

void
fl_paint_pgtable (FlPaintCtx *p)
{
  const FlPalette *pal = p->pal;
  const FlState *st = p->st;
  Tables t = { 0 };
  t.p = p;
  t.size = p->fs * 0.9;
  t.row_h = fl_text_height (p, FL_FONT_MONO, t.size) + 2;
  collect (&t);
  walks (&t);

  fl_paint_panel_background (p);
  guint locked = 0, freed = 0;
  for (guint i = 0; i < t.levels[1]->len; i++)
    {
      const Box *b = &g_array_index (t.levels[1], Box, i);
      locked += st->tables[b->id].ptl_holder >= 0;
      freed += b->freed;
    }
  g_autofree char *locks = g_strdup_printf (g_dngettext (NULL, "%u lock held", "%u locks held",
                                                         locked), locked);
  /* the freed ones are not in the mm's count of PTE pages */
  g_autofree char *pages = g_strdup_printf (g_dngettext (NULL, "%u PTE page", "%u PTE pages",
                                                         t.levels[1]->len - freed),
                                            t.levels[1]->len - freed);
  g_autofree char *gone = freed ? g_strdup_printf (g_dngettext (NULL, " (+%u freed)",
                                                                " (+%u freed)", freed), freed)
                                : g_strdup ("");
  g_autofree char *subtitle = g_strdup_printf ("%s%s · %s", pages, gone, locks);
  double top = fl_paint_header (p, _("Page tables"), subtitle);
  double pad = p->fs * 0.6;

  FlLegendItem legend[FL_PTE_STATE_N];
  for (guint s = 0; s < FL_PTE_STATE_N; s++)
    legend[s] = (FlLegendItem) { fl_palette_pte (pal, s), _(fl_pte_state_name (s)), FL_LEGEND_BOX };
  double legend_h = fl_paint_legend (p, pad, 0, p->w - 2 * pad, legend, FL_PTE_STATE_N, FALSE);
  double bottom = p->h - pad - legend_h - pad * 0.5;

  if (t.levels[4]->len == 0)
    fl_text_draw (p, FL_FONT_ITALIC, p->fs, &pal->text_dim, p->w / 2, (top + bottom) / 2, p->w,
                  FL_ALIGN_CENTER, _("no page tables"));
  else
    {
      /* A few tables in a large panel grow, type, boxes and cells, to use the room (at
       * 1920×1080 they filled a tenth of it): the largest zoom at which all of them fit. */
      static const double zooms[] = { 1.8, 1.55, 1.3, 1.15 };
      FlPaintCtx zoomed = *p;
      for (guint z = 0; z < G_N_ELEMENTS (zooms) && !p->vp->measuring; z++)
        {
          double need_w, need_h;
          tables_extent (&t, p->fs * zooms[z], &need_w, &need_h);
          if (need_w <= p->w && need_h <= bottom - top)
            {
              zoomed.fs = p->fs * zooms[z];
              break;
            }
        }
      t.p = &zoomed;
      t.size = zoomed.fs * 0.9;
      t.row_h = fl_text_height (&zoomed, FL_FONT_MONO, t.size) + 2;
      paint_tables (&zoomed, &t, top, bottom);
      t.p = p;
    }

  if (legend_h > 0)
    fl_paint_legend (p, pad, p->h - pad - legend_h, p->w - 2 * pad, legend, FL_PTE_STATE_N, TRUE);
  for (guint l = 1; l <= 4; l++)
    g_array_unref (t.levels[l]);
}

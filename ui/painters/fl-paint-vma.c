/* fl-paint-vma.c — the VMA red-black tree drawn as a tree: nodes in address order left to
 * right, depth top to bottom; the node each CPU's find_vma stands on outlined in that CPU's
 * colour; unlinked VMAs still waiting for their RCU callback drawn faded beside the tree. */
#include "fl-paint-private.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define MAX_DEPTH 48

typedef struct {
  guint32 id;
  guint   depth;
  guint   pos;              /* in-order position */
  gint    parent;           /* index in nodes, -1 for the root */
  double  x, y;             /* centre of the top edge */
} Node;

typedef enum { MODE_FULL, MODE_COMPACT, MODE_DOT } Mode;

typedef struct {
  FlPaintCtx *p;
  GArray     *nodes;        /* Node, in-order */
  GArray     *ghosts;       /* guint32 ids */
  guint       max_depth;
  guint       prefix;       /* hex digits of the address all nodes share, cut when short */
  gboolean    abbreviate;
  Mode        mode;
  double      bw, bh, r;
  double      size;
  FlCpuFault  doing[FL_MAX_CPUS];
  guint32     cache_id;
  /* the VMA this very step's lookup missed (a rotation hid it), and the CPU whose it was */
  guint32     missed_vma;
  guint       missed_by;
} Tree;

/* In-order walk from the root; a corrupted tree (a broken what-if) must not hang or crash
 * the view, so every node is visited at most once and depth is bounded. */
typedef struct {
  guint32  id;
  guint    depth;
  gboolean left_done;
} Visit;

static void
collect (Tree *t)
{
  const FlState *st = t->p->st;
  guint nv = st->sizes.nvmas;
  g_autofree guint8 *seen = g_malloc0 (MAX (nv, 1u));
  g_autofree guint32 *parent_id = g_new0 (guint32, MAX (nv, 1u));
  g_autofree gint *index_of = g_new0 (gint, MAX (nv, 1u));
  Visit stack[MAX_DEPTH + 1];
  guint sp = 0, pos = 0;
  guint32 root = st->g->mm.root;
  if (root != 0 && root < nv)
    {
      stack[sp++] = (Visit) { root, 0, FALSE };
      seen[root] = 1;
    }
  while (sp > 0)
    {
      Visit *top = &stack[sp - 1];
      const FlVma *v = &st->vmas[top->id];
      if (!top->left_done)
        {
          top->left_done = TRUE;
          guint32 left = v->rb.left;
          if (left && left < nv && !seen[left] && sp <= MAX_DEPTH)
            {
              seen[left] = 1;
              parent_id[left] = top->id;
              stack[sp++] = (Visit) { left, top->depth + 1, FALSE };
            }
          continue;
        }
      Node node = { top->id, top->depth, pos++, -1, 0, 0 };
      index_of[top->id] = (gint) t->nodes->len;
      g_array_append_val (t->nodes, node);
      t->max_depth = MAX (t->max_depth, top->depth);
      Visit done = *top;
      sp--;
      guint32 right = v->rb.right;
      if (right && right < nv && !seen[right] && sp <= MAX_DEPTH)
        {
          seen[right] = 1;
          parent_id[right] = done.id;
          stack[sp++] = (Visit) { right, done.depth + 1, FALSE };
        }
    }
  for (guint i = 0; i < t->nodes->len; i++)
    {
      Node *nd = &g_array_index (t->nodes, Node, i);
      if (parent_id[nd->id] != 0)
        nd->parent = index_of[parent_id[nd->id]];
    }
  for (guint32 id = 1; id < nv; id++)
    if (!seen[id] && fl_vma_is_ghost (st, id))
      g_array_append_val (t->ghosts, id);
}

static void
fmt_addr (const Tree *t, guint64 a, char *buf, gsize size)
{
  char full[32];
  g_snprintf (full, sizeof full, "%012" G_GINT64_MODIFIER "x", a);
  if (t->abbreviate)
    g_snprintf (buf, size, "…%s", full + t->prefix);
  else
    g_strlcpy (buf, full, size);
}

static void
range_text (const Tree *t, const FlVma *v, char *buf, gsize size)
{
  char a[32], b[32];
  fmt_addr (t, v->start, a, sizeof a);
  fmt_addr (t, v->end, b, sizeof b);
  g_snprintf (buf, size, "%s–%s", a, b);
}

static void
detail_text (const FlVma *v, char *buf, gsize size)
{
  char perms[8];
  g_snprintf (perms, sizeof perms, "%c%c%c%c", (v->flags & FL_VM_READ) ? 'r' : '-',
              (v->flags & FL_VM_WRITE) ? 'w' : '-', (v->flags & FL_VM_EXEC) ? 'x' : '-',
              (v->flags & FL_VM_SHARED) ? 's' : 'p');
  if (v->seq & 1)
    /* Translators: a VMA whose sequence count (seq, keep it) is odd: a writer is changing it */
    g_snprintf (buf, size, _("seq %u · being written"), v->seq);
  else
    g_snprintf (buf, size, "%s %s · seq %u", perms, (v->flags & FL_VM_FILE) ? "file" : "anon",
                v->seq);
}

/* Hex digits shared by every address shown, so short boxes can drop them. */
static guint
common_prefix (const Tree *t)
{
  const FlState *st = t->p->st;
  char first[32] = "";
  guint prefix = 12;
  for (guint pass = 0; pass < 2; pass++)
    {
      GArray *a = pass ? t->ghosts : t->nodes;
      for (guint i = 0; i < a->len; i++)
        {
          guint32 id = pass ? g_array_index (a, guint32, i) : g_array_index (a, Node, i).id;
          guint64 addrs[2] = { st->vmas[id].start, st->vmas[id].end };
          for (guint k = 0; k < 2; k++)
            {
              char s[32];
              g_snprintf (s, sizeof s, "%012" G_GINT64_MODIFIER "x", addrs[k]);
              if (!*first)
                g_strlcpy (first, s, sizeof first);
              guint j = 0;
              while (j < prefix && s[j] == first[j])
                j++;
              prefix = j;
            }
        }
    }
  return MIN (prefix, 8u);
}

static void
draw_pill (FlPaintCtx *p, double cx, double y, const FlRgba *color, gboolean filled,
           const char *text, double size)
{
  double tw = fl_text_width (p, FL_FONT_BOLD, size, text);
  double th = fl_text_height (p, FL_FONT_BOLD, size);
  double w = tw + size * 0.8, h = th + size * 0.1;
  fl_rounded_rect (p->cr, cx - w / 2, y, w, h, h / 2);
  if (filled)
    {
      fl_set_rgba (p->cr, color);
      cairo_fill (p->cr);
      fl_text_draw (p, FL_FONT_BOLD, size, fl_rgba_text_on (p->pal, color), cx, y + size * 0.05,
                    0, FL_ALIGN_CENTER, text);
    }
  else
    {
      fl_set_rgba (p->cr, &p->pal->background);
      cairo_fill_preserve (p->cr);
      fl_set_rgba (p->cr, color);
      cairo_set_line_width (p->cr, 1.5);
      cairo_stroke (p->cr);
      fl_text_draw (p, FL_FONT_BOLD, size, color, cx, y + size * 0.05, 0, FL_ALIGN_CENTER, text);
    }
}

static double
pill_width (FlPaintCtx *p, const char *text, double size)
{
  return fl_text_width (p, FL_FONT_BOLD, size, text) + size * 0.8;
}

/* One node: a rounded box (or a dot when space is short), outlined in the colour of every
 * CPU whose find_vma stands on it, with pills for the CPUs visiting or holding it. */
/* What the unlinked VMAs wait for: a VMA munmap has taken out of the tree waits for its RCU
 * callback only once remove_vma has queued it; before that (or when VMAs are freed at once)
 * it is simply not freed yet. The RCU view lists the same callbacks. */
static const char *
ghosts_waiting (const FlState *st, const GArray *ghosts)
{
  guint pending = 0;
  for (guint i = 0; i < ghosts->len; i++)
    pending += st->vmas[g_array_index (ghosts, guint32, i)].state == FL_OBJ_RCU_PENDING;
  if (pending == ghosts->len)
    return _("awaiting RCU callback");
  if (pending == 0)
    /* Translators: under "unlinked": VMAs out of the tree, not handed to call_rcu yet */
    return _("not yet freed");
  /* Translators: under "unlinked", when some wait for call_rcu's callback and some not yet */
  return _("some awaiting RCU callback, some not yet freed");
}

static void
draw_node (Tree *t, guint32 id, double cx, double y, gboolean ghost)
{
  FlPaintCtx *p = t->p;
  cairo_t *cr = p->cr;
  const FlPalette *pal = p->pal;
  const FlVma *v = &p->st->vmas[id];
  gboolean odd = (v->seq & 1) != 0;
  const FlRgba *fill = v->rb.color == FL_RB_RED ? &pal->rb_red : &pal->rb_black;
  double x = cx - t->bw / 2;
  double corner = t->mode == MODE_DOT ? t->bh / 2 : MIN (6.0, t->bh * 0.25);

  /* CPUs on this node: outlines from the inside out */
  guint ring = 0;
  for (guint c = 0; c < p->st->sizes.ncpus && c < FL_MAX_CPUS; c++)
    if (t->doing[c].visiting_vma == id)
      {
        double o = 2.5 + ring * 3.5;
        fl_rounded_rect (cr, x - o, y - o, t->bw + 2 * o, t->bh + 2 * o, corner + o);
        fl_set_rgba (cr, fl_palette_cpu (pal, c));
        cairo_set_line_width (cr, 3);
        cairo_stroke (cr);
        ring++;
      }
  /* the VMA a lookup without mmap_sem cannot reach any more, or just missed: dotted in the
   * colour of the CPU whose walk it is (the walk will retry, or has) */
  for (guint c = 0; c < p->st->sizes.ncpus && c < FL_MAX_CPUS; c++)
    if (t->doing[c].hidden_vma == id || (t->missed_vma == id && t->missed_by == c))
      {
        double o = 2.5 + ring * 3.5, dash[] = { 2, 4 };
        fl_rounded_rect (cr, x - o, y - o, t->bw + 2 * o, t->bh + 2 * o, corner + o);
        cairo_set_dash (cr, dash, 2, 0);
        fl_set_rgba (cr, fl_palette_cpu (pal, c));
        cairo_set_line_width (cr, 3);
        cairo_stroke (cr);
        cairo_set_dash (cr, NULL, 0, 0);
        ring++;
      }
  /* the VMA a finding of this step names: outside its visitors, dashed in the finding colour */
  if (fl_marks (p, FL_MARK_VMA, id, 0))
    {
      double o = 2.5 + ring * 3.5 + 1, dash[] = { 6, 3 };
      fl_rounded_rect (cr, x - o, y - o, t->bw + 2 * o, t->bh + 2 * o, corner + o);
      cairo_set_dash (cr, dash, 2, 0);
      fl_set_rgba (cr, &pal->error);
      cairo_set_line_width (cr, 3);
      cairo_stroke (cr);
      cairo_set_dash (cr, NULL, 0, 0);
    }

  fl_rounded_rect (cr, x, y, t->bw, t->bh, corner);
  if (ghost)
    {
      fl_set_rgba_alpha (cr, &pal->ghost, 0.22);
      cairo_fill_preserve (cr);
      double dash[] = { 4, 3 };
      cairo_set_dash (cr, dash, 2, 0);
      fl_set_rgba (cr, &pal->ghost);
      cairo_set_line_width (cr, 1.5);
      cairo_stroke (cr);
      cairo_set_dash (cr, NULL, 0, 0);
    }
  else
    {
      fl_set_rgba (cr, fill);
      cairo_fill (cr);
      if (odd)
        {
          double dash[] = { 5, 3 };
          fl_rounded_rect (cr, x + 1.5, y + 1.5, t->bw - 3, t->bh - 3, MAX (corner - 1.5, 0));
          cairo_set_dash (cr, dash, 2, 0);
          fl_set_rgba (cr, &pal->warning);
          cairo_set_line_width (cr, 3);
          cairo_stroke (cr);
          cairo_set_dash (cr, NULL, 0, 0);
        }
    }

  const FlRgba *ink = ghost ? &pal->text_dim : fl_rgba_text_on (pal, fill);
  double inner = t->bw - t->size * 0.8;
  char text[96];
  if (t->mode == MODE_DOT)
    {
      g_snprintf (text, sizeof text, "%u", id);
      fl_text_draw (p, FL_FONT_BOLD, t->size * 0.85, ink, cx, y + (t->bh - t->size * 1.2) / 2,
                    t->bw, FL_ALIGN_CENTER, text);
    }
  else
    {
      double line = fl_text_height (p, FL_FONT_MONO, t->size);
      double ty = y + (t->bh - line * (t->mode == MODE_FULL ? 2 : 1)) / 2;
      range_text (t, v, text, sizeof text);
      fl_text_draw (p, FL_FONT_MONO, t->size, ink, cx, ty, inner, FL_ALIGN_CENTER, text);
      if (t->mode == MODE_FULL)
        {
          detail_text (v, text, sizeof text);
          fl_text_draw (p, odd ? FL_FONT_BOLD : FL_FONT_SANS, t->size * 0.92, ink, cx, ty + line,
                        inner, FL_ALIGN_CENTER, text);
        }
    }

  /* mmap_cache points here */
  if (id == t->cache_id && !ghost)
    {
      double size = t->size * 0.78;
      double w = pill_width (p, "mmap_cache", size);
      if (t->mode == MODE_DOT)
        /* under the dot: above it is where the CPUs' pills go */
        draw_pill (p, CLAMP (cx, w / 2 + 2, p->w - w / 2 - 2), y + t->bh + 2, &pal->accent, TRUE,
                   "mmap_cache", size);
      else
        /* on the bottom-right corner: pills of CPUs go above, edges leave from the middle */
        draw_pill (p, MIN (x + t->bw - w * 0.35, p->w - w / 2 - 2),
                   y + t->bh - fl_text_height (p, FL_FONT_BOLD, size) * 0.45, &pal->accent,
                   TRUE, "mmap_cache", size);
    }

  /* who is here: pills above the box, as many as fit in about twice its width, then "+N";
   * CPUs visiting (find_vma) first, they are what the outline shows */
  double size = t->size * 0.8;
  double room = MIN (MAX (t->bw * 2, p->fs * 10), p->w - 4);
  guint cpus[8];
  char labels[8][48];
  gboolean filled[8];
  guint nl = 0, more = 0;
  double total = 0;
  /* visiting, then holding, then a walk it is hidden from (or that just missed it) */
  for (int pass = 0; pass < 3; pass++)
    for (guint c = 0; c < p->st->sizes.ncpus && c < FL_MAX_CPUS; c++)
      {
        gboolean visiting = t->doing[c].visiting_vma == id;
        gboolean missed = t->doing[c].hidden_vma == id || (t->missed_vma == id && t->missed_by == c);
        if (pass == 0 ? !visiting
            : pass == 1 ? (visiting || t->doing[c].held_vma != id) : !missed)
          continue;
        char label[48];
        if (pass == 2)
          /* Translators: a pill on a VMA box: cpu0's speculative walk misses this VMA */
          g_snprintf (label, sizeof label, t->mode == MODE_DOT ? _("cpu%u misses") :
                      t->doing[c].hidden_vma == id ? _("out of cpu%u's reach") :
                      _("missed by cpu%u"), c);
        else if (t->mode == MODE_DOT)
          g_snprintf (label, sizeof label, "cpu%u", c);
        else
          g_snprintf (label, sizeof label, visiting ? "cpu%u find_vma" : "cpu%u fault", c);
        double w = pill_width (p, label, size) + 4;
        if (nl < G_N_ELEMENTS (cpus) && total + w <= room - pill_width (p, "+000", size))
          {
            cpus[nl] = c;
            g_strlcpy (labels[nl], label, sizeof labels[nl]);
            filled[nl++] = visiting;
            total += w;
          }
        else
          more++;
      }
  char more_label[16] = "";
  if (more)
    {
      g_snprintf (more_label, sizeof more_label, "+%u", more);
      total += pill_width (p, more_label, size) + 4;
    }
  double px = cx - total / 2;
  double py = y - fl_text_height (p, FL_FONT_BOLD, size) - 7 - ring * 3.5;
  px = CLAMP (px, 2, MAX (2, p->w - total - 2));
  for (guint k = 0; k < nl; k++)
    {
      double w = pill_width (p, labels[k], size);
      draw_pill (p, px + w / 2, py, fl_palette_cpu (pal, cpus[k]), filled[k], labels[k], size);
      px += w + 4;
    }
  if (more)
    draw_pill (p, px + pill_width (p, more_label, size) / 2, py, &pal->text_dim, FALSE, more_label,
               size);
}

/* Whether the tree, laid out at t->size, shows every box whole (range and details, as
 * wide as they need) with the levels at their natural spacing, and the unlinked VMAs' column
 * fits its height: a zoom that does is not too much. */
static gboolean
fl_vma_zoom_fits (const Tree *t, double room, double full_w, double level_h, double pill_h,
                  double height, double ghost_w)
{
  double pad = t->p->fs * 0.6;

  if (t->mode != MODE_FULL || t->abbreviate || (t->nodes->len > 0 && room < full_w))
    return FALSE;
  if (t->nodes->len > 0
      && pill_h + (t->max_depth + 1) * level_h > height + 0.5)
    return FALSE;
  if (t->nodes->len > 0 && level_h < t->bh + pill_h * 1.6 + t->size - 0.5)
    return FALSE;
  if (t->ghosts->len > 0)
    {
      double column = 2 * fl_text_height (t->p, FL_FONT_SANS, t->size / 0.9 * 0.85) + pill_h
                      + t->ghosts->len * (t->bh + pill_h + pad * 0.5);
      if (ghost_w < full_w || column > height)
        return FALSE;
    }
  return TRUE;
}

void
fl_paint_vma (FlPaintCtx *p)
{
  cairo_t *cr = p->cr;
  const FlPalette *pal = p->pal;
  const FlState *st = p->st;
  Tree t = { 0 };
  t.p = p;
  t.nodes = g_array_new (FALSE, FALSE, sizeof (Node));
  t.ghosts = g_array_new (FALSE, FALSE, sizeof (guint32));
  t.size = p->fs * 0.9;
  t.cache_id = st->g->mm.mmap_cache & 0xffff;
  for (guint c = 0; c < st->sizes.ncpus && c < FL_MAX_CPUS; c++)
    fl_cpu_fault_decode (st, c, &t.doing[c]);
  FlEvent e;
  FlSpfMiss miss;
  if (p->cur != NULL && fl_step_event (p->run, p->step, &e)
      && fl_run_get_spf_miss (p->run, p->step, e.cpu, &miss) && fl_state_vma_in_use (st, miss.vma))
    {
      t.missed_vma = miss.vma;
      t.missed_by = miss.cpu;
    }
  collect (&t);

  fl_paint_panel_background (p);
  g_autofree char *subtitle = NULL;
  if (t.cache_id && t.cache_id < st->sizes.nvmas)
    /* Translators: the VMA tree's subtitle: VMAs in the tree, VMAs unlinked and waiting for
     * RCU, and the VMA the mmap_cache (keep the name) points at */
    subtitle = g_strdup_printf (_("%u in the tree · %u unlinked · mmap_cache → VMA %u"),
                                t.nodes->len, t.ghosts->len, t.cache_id);
  else
    subtitle = g_strdup_printf (_("%u in the tree · %u unlinked · mmap_cache empty"),
                                t.nodes->len, t.ghosts->len);
  double top = fl_paint_header (p, _("VMA tree"), subtitle);
  double pad = p->fs * 0.6;

  /* Translators: the VMA tree's legend: the red-black tree's node colours, a VMA unlinked
   * but not yet freed, a VMA whose sequence count (seq) is odd */
  FlLegendItem legend[] = {
    { pal->rb_red, _("red"), FL_LEGEND_BOX },
    { pal->rb_black, _("black"), FL_LEGEND_BOX },
    { pal->ghost, _("ghost: unlinked, not yet freed"), FL_LEGEND_OUTLINE },
    { pal->warning, _("odd seq: being written"), FL_LEGEND_OUTLINE },
    { pal->accent, "mmap_cache", FL_LEGEND_BOX },
  };
  double legend_h = fl_paint_legend (p, pad, 0, p->w - 2 * pad, legend, G_N_ELEMENTS (legend), FALSE);
  double bottom = p->h - pad - legend_h - pad * 0.5;

  if (t.nodes->len == 0 && t.ghosts->len == 0)
    {
      fl_text_draw (p, FL_FONT_ITALIC, p->fs, &pal->text_dim, p->w / 2, (top + bottom) / 2, p->w,
                    FL_ALIGN_CENTER, _("no VMAs mapped"));
    }
  else
    {
      t.prefix = common_prefix (&t);
      /* A few VMAs in a large panel grow, text and boxes, to use the room (a projector at
       * 1920×1080 showed the tree in a tenth of its panel): the largest zoom at which every
       * box still shows its range and details at full height and width. */
      static const double zooms[] = { 1.8, 1.55, 1.3, 1.15, 1.0 };
      double base = t.size, line = 0, range_w = 0, detail_w = 0, full_w = 0, short_w = 0;
      double ghost_w = 0, tree_x0 = 0, tree_x1 = 0, tree_w = 0, slot = 0, spacing = 0;
      double pill_h = 0, level_h = 0;
      guint n = MAX (t.nodes->len, 1u);
      char probe[96];
      /* measured for its natural height, the tree has its normal size: the last zoom */
      for (guint z = p->vp->measuring ? G_N_ELEMENTS (zooms) - 1 : 0; z < G_N_ELEMENTS (zooms); z++)
        {
          t.size = base * zooms[z];
          line = fl_text_height (p, FL_FONT_MONO, t.size);
          const FlVma *widest = &st->vmas[t.nodes->len ? g_array_index (t.nodes, Node, 0).id
                                                       : g_array_index (t.ghosts, guint32, 0)];
          double inner_pad = t.size * 1.2;
          /* the whole range, whatever the last zoom tried decided */
          t.abbreviate = FALSE;
          range_text (&t, widest, probe, sizeof probe);
          range_w = fl_text_width (p, FL_FONT_MONO, t.size, probe) + inner_pad;
          detail_w = fl_text_width (p, FL_FONT_SANS, t.size * 0.92, "rw-p anon · seq 000")
                            + inner_pad;
          full_w = MAX (range_w, detail_w);
          t.abbreviate = TRUE;
          range_text (&t, widest, probe, sizeof probe);
          short_w = fl_text_width (p, FL_FONT_MONO, t.size, probe) + inner_pad;
          t.abbreviate = FALSE;

          /* the ghost column takes room only when there are ghosts */
          ghost_w = t.ghosts->len ? MIN (full_w, p->w * (t.nodes->len ? 0.3 : 0.6)) : 0;
          tree_x0 = pad;
          tree_x1 = p->w - pad - (ghost_w ? ghost_w + 2 * pad : 0);
          tree_w = MAX (tree_x1 - tree_x0, 10.0);

          /* Nodes on one level never overlap: a box may be as wide as the closest two nodes of
           * the same depth are apart. */
          slot = tree_w / n;
          guint min_gap = n;
          for (guint d = 0; d <= t.max_depth; d++)
            {
              gint prev = -1;
              for (guint i = 0; i < t.nodes->len; i++)
                {
                  const Node *nd = &g_array_index (t.nodes, Node, i);
                  if (nd->depth != d)
                    continue;
                  if (prev >= 0)
                    min_gap = MIN (min_gap, nd->pos - (guint) prev);
                  prev = (gint) nd->pos;
                }
            }
          /* Nodes spread from edge to edge: with boxes bw wide, positions are (tree_w - bw) /
           * (n - 1) apart, and the closest two of a level, min_gap positions apart, must not
           * touch. That bounds bw. */
          spacing = pad * 0.8;
          double room = n > 1 ? (min_gap * tree_w / (n - 1) - spacing) / (1.0 + (double) min_gap / (n - 1))
                              : tree_w;
          pill_h = fl_text_height (p, FL_FONT_BOLD, t.size * 0.8) + 10;
          double levels = t.max_depth + 1;
          level_h = (bottom - top - pill_h) / levels;
          double full_h = line * 2 + t.size * 0.7;
          if (t.nodes->len == 0)
            room = full_w;
          /* as much as fits: range and details, the range alone, or a dot */
          if (room >= MAX (short_w, detail_w) && level_h >= full_h + pill_h + 4)
            {
              t.mode = MODE_FULL;
              t.bw = MIN (room, full_w * 1.1);
              t.bh = full_h;
            }
          else if (room >= short_w && level_h >= line + t.size * 0.6 + pill_h)
            {
              t.mode = MODE_COMPACT;
              t.bw = MIN (room, range_w);
              t.bh = line + t.size * 0.6;
            }
          else
            {
              t.mode = MODE_DOT;
              double d = MIN (MIN (room, level_h * 0.6), t.size * 2.2);
              t.bw = t.bh = MAX (d, 6.0);
            }
          t.abbreviate = t.mode != MODE_DOT && t.bw < range_w;
          level_h = MIN (level_h, t.bh + pill_h * 1.6 + t.size);
          if (zooms[z] == 1.0
              || fl_vma_zoom_fits (&t, room, full_w, level_h, pill_h, bottom - top, ghost_w))
            break;
        }

      /* place and draw: edges first, then boxes */
      double y0 = top + pill_h;
      double step = n > 1 ? (tree_w - t.bw) / (n - 1) : 0;
      /* a small tree stays compact around the middle rather than spread thin */
      step = MIN (step, MAX (t.bw + spacing, slot * 0.5) * 1.6);
      double xoff = tree_x0 + (tree_w - step * (n - 1)) / 2;
      for (guint i = 0; i < t.nodes->len; i++)
        {
          Node *nd = &g_array_index (t.nodes, Node, i);
          nd->x = xoff + nd->pos * step;
          nd->y = y0 + nd->depth * level_h;
        }
      fl_set_rgba (cr, &pal->text_dim);
      cairo_set_line_width (cr, 1.5);
      for (guint i = 0; i < t.nodes->len; i++)
        {
          const Node *nd = &g_array_index (t.nodes, Node, i);
          if (nd->parent < 0)
            continue;
          const Node *pn = &g_array_index (t.nodes, Node, nd->parent);
          cairo_move_to (cr, pn->x, pn->y + t.bh);
          cairo_line_to (cr, nd->x, nd->y);
        }
      cairo_stroke (cr);
      for (guint i = 0; i < t.nodes->len; i++)
        {
          const Node *nd = &g_array_index (t.nodes, Node, i);
          draw_node (&t, nd->id, nd->x, nd->y, FALSE);
        }
      if (t.nodes->len == 0)
        fl_text_draw (p, FL_FONT_ITALIC, p->fs, &pal->text_dim, (tree_x0 + tree_x1) / 2,
                      (top + bottom) / 2, tree_w, FL_ALIGN_CENTER, _("the tree is empty"));

      if (t.ghosts->len)
        {
          double gx = p->w - pad - ghost_w;
          fl_set_rgba (cr, &pal->grid);
          cairo_rectangle (cr, gx - pad, top, 1, bottom - top);
          cairo_fill (cr);
          /* the column's words grow with its boxes (t.size is 0.9 of the zoomed type) */
          double small = t.size / 0.9 * 0.85;
          double gy = top;
          fl_text_draw (p, FL_FONT_BOLD, small, &pal->text_dim, gx, gy, ghost_w, FL_ALIGN_LEFT,
                        /* Translators: the title over the VMAs taken out of the tree */
                        _("unlinked"));
          gy += fl_text_height (p, FL_FONT_BOLD, small);
          fl_text_draw (p, FL_FONT_SANS, small, &pal->text_dim, gx, gy, ghost_w, FL_ALIGN_LEFT,
                        ghosts_waiting (st, t.ghosts));
          gy += fl_text_height (p, FL_FONT_SANS, small) + pill_h;
          Tree g = t;
          g.bw = MIN (t.mode == MODE_DOT ? t.bw : ghost_w, ghost_w);
          if (g.mode != MODE_DOT && g.bw < full_w)
            g.abbreviate = TRUE;
          for (guint i = 0; i < t.ghosts->len && gy + g.bh <= bottom; i++)
            {
              draw_node (&g, g_array_index (t.ghosts, guint32, i), gx + ghost_w / 2, gy, TRUE);
              gy += g.bh + pill_h + pad * 0.5;
            }
        }
    }

  if (t.abbreviate)
    {
      /* what the cut digits were */
      char full[32], note[96];
      guint64 any = st->vmas[t.nodes->len ? g_array_index (t.nodes, Node, 0).id
                                          : g_array_index (t.ghosts, guint32, 0)].start;
      g_snprintf (full, sizeof full, "%012" G_GINT64_MODIFIER "x", any);
      full[t.prefix] = '\0';
      /* Translators: the hex digits every address shown starts with, cut from the boxes */
      g_snprintf (note, sizeof note, _("… is 0x%s"), full);
      double small = p->fs * 0.85;
      fl_text_draw (p, FL_FONT_MONO, small, &pal->text_dim, p->w - pad,
                    p->h - pad - legend_h - pad * 0.3 - fl_text_height (p, FL_FONT_MONO, small), 0,
                    FL_ALIGN_RIGHT, note);
    }
  if (legend_h > 0)
    fl_paint_legend (p, pad, p->h - pad - legend_h, p->w - 2 * pad, legend, G_N_ELEMENTS (legend),
                     TRUE);
  g_array_unref (t.nodes);
  g_array_unref (t.ghosts);
}

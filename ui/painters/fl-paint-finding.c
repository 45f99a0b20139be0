/* fl-paint-finding.c — the findings the current step shows, and the objects they name: every
 * view marks those (the VMA, the page table, the PTE and its page, the PTE lock) in the
 * finding colour, so choosing a finding points at its cause wherever it appears. What is
 * marked is what the model recorded in the finding (FlFinding.objects), nothing else. */
#include "fl-paint-private.h"

/* The findings of step `step`: findings are kept in step order. */
void
fl_paint_ctx_find_marks (FlPaintCtx *p)
{
  const GPtrArray *all = fl_run_get_findings (p->run);
  guint lo = 0, hi = all ? all->len : 0;
  p->n_marks = 0;
  if (p->step == 0)
    return;
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      if (((const FlFinding *) g_ptr_array_index (all, mid))->step < p->step)
        lo = mid + 1;
      else
        hi = mid;
    }
  for (guint i = lo; i < all->len && p->n_marks < G_N_ELEMENTS (p->marks); i++)
    {
      const FlFinding *f = g_ptr_array_index (all, i);
      if (f->step != p->step)
        break;
      p->marks[p->n_marks++] = f;
    }
}

/* Does one of the current step's findings name this object? */
gboolean
fl_marks (const FlPaintCtx *p, FlMark what, guint32 id, guint index)
{
  for (guint i = 0; id && i < p->n_marks; i++)
    {
      const FlFindingObjects *o = &p->marks[i]->objects;
      switch (what)
        {
        case FL_MARK_VMA: if (o->vma == id) return TRUE; break;
        case FL_MARK_TABLE: if (o->table == id) return TRUE; break;
        case FL_MARK_PTE: if (o->table == id && o->pte == (gint32) index) return TRUE; break;
        case FL_MARK_PTL: if (o->table == id && o->ptl) return TRUE; break;
        case FL_MARK_PAGE: if (o->page == id) return TRUE; break;
        default: g_assert_not_reached ();
        }
    }
  return FALSE;
}

/* Is `line` the cache line of an object a finding of this step names? */
gboolean
fl_marks_line (const FlPaintCtx *p, guint line)
{
  const FlState *st = p->st;
  for (guint i = 0; line && i < p->n_marks; i++)
    {
      const FlFindingObjects *o = &p->marks[i]->objects;
      if ((o->vma && o->vma < st->sizes.nvmas && fl_line_of_vma (st, o->vma) == line)
          || (o->table && o->table < st->sizes.ntables
              && (fl_line_of_table (st, o->table) == line
                  || (o->ptl && fl_line_of_ptl (st, o->table) == line))))
        return TRUE;
    }
  return FALSE;
}

/* The ring every view draws around a marked object: thick, in the finding colour. */
void
fl_mark_ring (FlPaintCtx *p, double x, double y, double w, double h, double radius)
{
  cairo_t *cr = p->cr;
  double o = 2.5;
  cairo_save (cr);
  fl_rounded_rect (cr, x - o, y - o, w + 2 * o, h + 2 * o, radius + o);
  fl_set_rgba (cr, &p->pal->error);
  cairo_set_line_width (cr, 3);
  cairo_stroke (cr);
  cairo_restore (cr);
}

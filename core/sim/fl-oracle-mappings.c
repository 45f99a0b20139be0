/* fl-oracle-mappings.c — which PTE tables the stale-mapping check must read again.
 *
 * The check (check_mappings in fl-oracle.c) runs whenever the last writer finishes an
 * operation, and a present PTE is wrong only through what changed since the check before:
 * the PTE itself, or the VMA that covers its address. So when that earlier check found every
 * PTE right, only the tables written since, and those a changed VMA overlaps, can hold a wrong
 * one; the others are skipped. Scanning the rest in the same order finds the same first wrong
 * PTE as reading them all, so the findings and their steps do not change. Anything else (the
 * first check, a check that found something, a state restored by a seek) reads every table.
 *
 * What is kept here lives beside the state, not in it: a state copy is bytes, and these marks
 * say how the state moved since a check, which a restore does not keep. A step that does not
 * follow the last one seen is how a restore shows. */
#include "fl-sim-internal.h"

#include <string.h>

/* The part of a VMA the check reads: where it is and which accesses it allows. */
typedef struct {
  guint64 start, end;
  guint32 allows;
} Span;

typedef struct _FlOracleMappings {
  gboolean clean;          /* the last check found every present PTE right */
  gboolean sorted;         /* `now` is sorted and disjoint, so it can be compared */
  gboolean stepped;        /* last_step holds a step */
  guint64  last_step;      /* the last step fl_oracle_mappings_step saw */
  guint64 *written;        /* a bit per PTE table written since the last check */
  guint    nwritten;       /* tables the bitmap has room for */
  GArray  *before, *now;   /* Span: the VMA list at the last check, and at this one */
  GArray  *changed;        /* Span: address ranges whose VMA changed, sorted, disjoint */
} FlOracleMappings;

#define TABLE_SPAN ((guint64) FL_PTRS_PER_TABLE * FL_PAGE_SIZE)

static FlOracleMappings *
get (FlSim *sim)
{
  if (sim->mappings == NULL)
    {
      FlOracleMappings *m = g_new0 (FlOracleMappings, 1);
      m->before = g_array_new (FALSE, FALSE, sizeof (Span));
      m->now = g_array_new (FALSE, FALSE, sizeof (Span));
      m->changed = g_array_new (FALSE, FALSE, sizeof (Span));
      sim->mappings = m;
    }
  return sim->mappings;
}

void
fl_oracle_mappings_clear (FlSim *sim)
{
  FlOracleMappings *m = sim->mappings;
  if (m == NULL)
    return;
  g_free (m->written);
  g_array_unref (m->before);
  g_array_unref (m->now);
  g_array_unref (m->changed);
  g_free (m);
  sim->mappings = NULL;
}

/* Every step passes here (fl_oracle_after_step): a step that does not follow the last one
 * means the state was restored, and what was marked since the last check no longer says
 * what changed. */
void
fl_oracle_mappings_step (FlSim *sim)
{
  FlOracleMappings *m = sim->mappings;
  if (m == NULL)
    return;
  guint64 step = sim->st.g->step;
  if (m->stepped && step != m->last_step + 1)
    m->clean = FALSE;
  m->stepped = TRUE;
  m->last_step = step;
}

/* Called where a PTE (an entry of a level-1 table) is written. Before the first check nothing
 * is kept: that check reads every table anyway. */
void
fl_oracle_pte_written (FlSim *sim, guint32 table)
{
  FlOracleMappings *m = sim->mappings;
  if (m == NULL || !m->clean)
    return;
  if (table >= m->nwritten)
    {
      guint n = MAX (MAX (m->nwritten * 2, 64u), (table / 64 + 1) * 64);
      m->written = g_renew (guint64, m->written, n / 64);
      memset (m->written + m->nwritten / 64, 0, (n - m->nwritten) / 8);
      m->nwritten = n;
    }
  m->written[table / 64] |= G_GUINT64_CONSTANT (1) << (table % 64);
}

/* The VMA list as the check sees it (fl_vma_covering walks it in order); FALSE when it is not
 * sorted and disjoint, where comparing two lists would not say which addresses changed. */
static gboolean
read_vmas (const FlState *st, GArray *out)
{
  g_array_set_size (out, 0);
  guint64 end = 0;
  for (guint32 v = st->g->mm.mmap; v; v = st->vmas[v].next)
    {
      const FlVma *vma = &st->vmas[v];
      Span s = { vma->start, vma->end, vma->flags & (FL_VM_READ | FL_VM_WRITE | FL_VM_EXEC) };
      if (s.start < end || s.end <= s.start)
        return FALSE;
      end = s.end;
      g_array_append_val (out, s);
    }
  return TRUE;
}

static void
add_changed (GArray *changed, const Span *s)
{
  if (changed->len > 0)
    {
      Span *last = &g_array_index (changed, Span, changed->len - 1);
      if (s->start <= last->end)
        {
          last->end = MAX (last->end, s->end);
          return;
        }
    }
  g_array_append_val (changed, *s);
}

/* The ranges covered by a VMA that is in one list and not the other, merged: everywhere else
 * both lists have the same VMA (bounds and access), or none. */
static void
diff_vmas (const GArray *a, const GArray *b, GArray *changed)
{
  g_array_set_size (changed, 0);
  guint i = 0, j = 0;
  while (i < a->len || j < b->len)
    {
      const Span *x = i < a->len ? &g_array_index (a, Span, i) : NULL;
      const Span *y = j < b->len ? &g_array_index (b, Span, j) : NULL;
      if (x != NULL && y != NULL && x->start == y->start && x->end == y->end
          && x->allows == y->allows)
        {
          i++;
          j++;
        }
      else if (x != NULL && (y == NULL || x->start <= y->start))
        {
          add_changed (changed, x);
          i++;
        }
      else if (y != NULL)
        {
          add_changed (changed, y);
          j++;
        }
    }
}

/**
 * fl_oracle_mappings_begin:
 * @sim: the simulation, with no writer at work
 *
 * Starts a check: reads the VMA list and works out what changed since the last check.
 *
 * Returns: %FALSE when every table must be read, %TRUE when fl_oracle_mappings_suspect() says
 *   which.
 */
gboolean
fl_oracle_mappings_begin (FlSim *sim)
{
  FlOracleMappings *m = get (sim);
  m->sorted = read_vmas (&sim->st, m->now);
  if (m->stepped && sim->st.g->step != m->last_step + 1)
    m->clean = FALSE;
  if (!m->clean || !m->sorted)
    return FALSE;
  diff_vmas (m->before, m->now, m->changed);
  return TRUE;
}

/* Was table `t` written, or does a changed range overlap it? */
gboolean
fl_oracle_mappings_suspect (FlSim *sim, guint32 t)
{
  const FlOracleMappings *m = sim->mappings;
  if (t < m->nwritten && (m->written[t / 64] >> (t % 64)) & 1)
    return TRUE;
  guint64 lo = sim->st.tables[t].base, hi = lo + TABLE_SPAN;
  /* the first changed range that ends after lo: a binary search, the ranges are sorted */
  guint a = 0, b = m->changed->len;
  while (a < b)
    {
      guint mid = (a + b) / 2;
      if (g_array_index (m->changed, Span, mid).end <= lo)
        a = mid + 1;
      else
        b = mid;
    }
  return a < m->changed->len && g_array_index (m->changed, Span, a).start < hi;
}

/* The check is over: `clean` when it found no wrong PTE. Only then can the next one skip.
 * The check ran in the step after the last one seen (or after the run's last step). */
void
fl_oracle_mappings_end (FlSim *sim, gboolean clean)
{
  FlOracleMappings *m = sim->mappings;
  GArray *swap = m->before;
  m->before = m->now;
  m->now = swap;
  m->clean = clean && m->sorted;
  if (m->written != NULL)
    memset (m->written, 0, m->nwritten / 8);
  m->stepped = TRUE;
  m->last_step = sim->st.g->step - 1;
}

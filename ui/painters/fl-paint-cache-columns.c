/* fl-paint-cache-columns.c — which CPUs get a column in the cache view when not all of them
 * fit at a readable width. At 64 or 256 CPUs a column per CPU is a few pixels wide and its
 * letter and head are gone; the columns that tell the story are those of the CPUs that hold
 * or last moved the lines shown, so those are kept, and the rest are counted. */
#include "fl-paint-private.h"

#include <stdlib.h>

typedef struct {
  guint8 *taken;
  guint  *cpus;
  guint   n, max, ncpus;
} Pick;

static void
take (Pick *k, gint cpu)
{
  if (cpu < 0 || (guint) cpu >= k->ncpus || k->n >= k->max || k->taken[cpu])
    return;
  k->taken[cpu] = 1;
  k->cpus[k->n++] = (guint) cpu;
}

static int
by_id (const void *a, const void *b)
{
  guint x = *(const guint *) a, y = *(const guint *) b;
  return x < y ? -1 : x > y;
}

/* Whether `cpu` holds a copy of the line (S, E or M). */
gboolean
fl_cache_holds (const FlLine *l, guint cpu)
{
  return l->owner == (gint) cpu
         || (cpu < FL_MAX_CPUS && ((l->sharers[cpu / 64] >> (cpu % 64)) & 1));
}

/**
 * fl_cache_columns:
 * @p: the drawing context
 * @rows: the cache lines shown
 * @nrows: how many
 * @touch_cpu: the CPU whose access the last step made, or -1
 * @max: how many columns fit
 * @cpus: (out caller-allocates): at least @max entries: the CPUs given a column, by id
 *
 * The CPUs most worth a column, first to last: the selected one, the one that took the last
 * step, each shown line's owner and its last move's ends, the lines' sharers, then the rest
 * in order so that a quiet machine shows its first CPUs side by side.
 *
 * Returns: how many CPUs were stored in @cpus
 */
guint
fl_cache_columns (const FlPaintCtx *p, const guint *rows, guint nrows, gint touch_cpu,
                  guint max, guint *cpus)
{
  guint ncpus = p->st->sizes.ncpus;
  g_autofree guint8 *taken = g_malloc0 (MAX (ncpus, 1u));
  Pick k = { taken, cpus, 0, MIN (max, ncpus), ncpus };
  take (&k, (gint) p->selected);
  take (&k, touch_cpu);
  for (guint i = 0; i < nrows; i++)
    {
      const FlLine *l = &p->st->lines[rows[i]];
      take (&k, l->owner);
      take (&k, (gint) l->last_to - 1);
      take (&k, (gint) l->last_from - 1);
    }
  for (guint i = 0; i < nrows; i++)
    for (guint c = 0; c < ncpus && k.n < k.max; c++)
      if (fl_cache_holds (&p->st->lines[rows[i]], c))
        take (&k, (gint) c);
  for (guint c = 0; c < ncpus && k.n < k.max; c++)
    take (&k, (gint) c);
  qsort (cpus, k.n, sizeof *cpus, by_id);
  return k.n;
}

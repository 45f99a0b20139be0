/* fl-profile.c — a run's CPU time by modeled function and by cache line, from its events. */
#include "fl-profile.h"

#include "fl-sim-internal.h"

#include <string.h>

#define CHUNK 4096

/* Object lines (one per VMA, PTE lock, page table) are many and alike: a profile names
 * their kind, as `perf` names a function rather than each address in it. */
static const char *
line_group (FlSim *sim, guint line, char *buf, gsize size)
{
  const FlState *st = fl_sim_get_state (sim);
  if (line == FL_LINE_NONE)
    return "(no shared line)";
  if (line >= st->sizes.nlines)
    return "?";
  switch (st->lines[line].kind)
    {
    case FL_LINE_KIND_VMA: return "VMAs";
    case FL_LINE_KIND_PTL: return "PTE locks";
    case FL_LINE_KIND_TABLE: return "page tables";
    case FL_LINE_KIND_VMA_REF: return "VMA refcounts";
    default: return fl_sim_line_name (sim, line, buf, size);
    }
}

static void
add (GHashTable *table, const char *name, guint64 cycles)
{
  gpointer old = g_hash_table_lookup (table, name);
  guint64 sum = (old ? *(guint64 *) old : 0) + cycles;
  guint64 *value = g_new (guint64, 1);
  *value = sum;
  g_hash_table_insert (table, g_strdup (name), value);
}

static gint
by_cycles_desc (gconstpointer a, gconstpointer b)
{
  const FlProfileEntry *x = a, *y = b;
  if (x->cycles != y->cycles)
    return x->cycles < y->cycles ? 1 : -1;
  return strcmp (x->name, y->name);
}

static GArray *
sorted (GHashTable *table)
{
  GArray *out = g_array_new (FALSE, TRUE, sizeof (FlProfileEntry));
  GHashTableIter it;
  gpointer key, value;
  g_hash_table_iter_init (&it, table);
  while (g_hash_table_iter_next (&it, &key, &value))
    {
      FlProfileEntry e = { g_strdup (key), *(guint64 *) value };
      g_array_append_val (out, e);
    }
  g_array_sort (out, by_cycles_desc);
  return out;
}

/**
 * fl_profile_of_run:
 * @sim: a simulation that has run (its events are read, its cursor is left alone)
 *
 * Each event's cycles since the same CPU's previous event go to the function of its location
 * and to the line it names (the step's most expensive one).
 *
 * Returns: (transfer full): the profile
 */
FlProfile *
fl_profile_of_run (FlSim *sim)
{
  g_return_val_if_fail (sim != NULL, NULL);
  const FlState *st = fl_sim_get_state (sim);
  /* summed by id while reading (a run has millions of events), named and grouped after */
  g_autofree guint64 *by_fn = g_new0 (guint64, FL_FN_N);
  g_autofree guint64 *by_line = g_new0 (guint64, (gsize) st->sizes.nlines + 1);
  g_autofree guint64 *last = g_new0 (guint64, st->sizes.ncpus);
  g_autofree FlEvent *chunk = g_new (FlEvent, CHUNK);
  FlProfile *profile = g_new0 (FlProfile, 1);
  gsize n = fl_sim_get_n_events (sim);
  for (gsize first = 0; first < n; first += CHUNK)
    {
      gsize got = fl_sim_get_events_range (sim, first, CHUNK, chunk);
      for (gsize i = 0; i < got; i++)
        {
          const FlEvent *e = &chunk[i];
          if (e->cpu >= st->sizes.ncpus || e->cycle <= last[e->cpu])
            continue;
          guint64 spent = e->cycle - last[e->cpu];
          last[e->cpu] = e->cycle;
          profile->total += spent;
          FlFn fn = e->loc < FL_LOC_N ? fl_loc_fn (e->loc) : FL_FN_USER;
          by_fn[(guint) fn < FL_FN_N ? fn : FL_FN_USER] += spent;
          /* a line id the state does not have (an event read back) counts under "?" */
          by_line[MIN ((guint) e->line, st->sizes.nlines)] += spent;
        }
      if (got == 0)
        break;
    }
  g_autoptr (GHashTable) fns = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autoptr (GHashTable) lines = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  char buf[64];
  for (guint f = 0; f < FL_FN_N; f++)
    if (by_fn[f])
      add (fns, fl_fn_name (f), by_fn[f]);
  for (guint l = 0; l <= st->sizes.nlines; l++)
    if (by_line[l])
      add (lines, line_group (sim, l, buf, sizeof buf), by_line[l]);
  profile->by_function = sorted (fns);
  profile->by_line = sorted (lines);
  return profile;
}

static void
entries_free (GArray *entries)
{
  for (guint i = 0; entries && i < entries->len; i++)
    g_free (g_array_index (entries, FlProfileEntry, i).name);
  if (entries)
    g_array_unref (entries);
}

void
fl_profile_free (FlProfile *profile)
{
  if (profile == NULL)
    return;
  entries_free (profile->by_function);
  entries_free (profile->by_line);
  g_free (profile);
}

/**
 * fl_profile_share:
 * @entries: (element-type FlProfileEntry): a profile's entries
 * @total: the profile's total
 * @name: an entry's name
 *
 * Returns: the share of @total (0 to 1) that @name took; 0 when it does not appear
 */
double
fl_profile_share (const GArray *entries, guint64 total, const char *name)
{
  for (guint i = 0; entries && total && i < entries->len; i++)
    {
      const FlProfileEntry *e = &g_array_index (entries, FlProfileEntry, i);
      if (strcmp (e->name, name) == 0)
        return (double) e->cycles / (double) total;
    }
  return 0;
}

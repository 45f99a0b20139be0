/* The explorer's "same state" (fl_state_semantic_hash) against its definition, written here
 * the plain way: every object copied, the fields left out zeroed, the bytes compared. The hash
 * reads the objects in place through word masks; it must tell two states apart exactly when
 * these bytes differ. Checked byte by byte (each byte of one object of each kind changed in
 * turn), and over the states random schedules reach. */
#include "fl-footprint.h"
#include "fl-sim.h"
#include "fl-sim-internal.h"

#include <string.h>

/* ---- the definition --------------------------------------------------------------------- */

static void
put (GByteArray *out, const void *data, gsize size)
{
  g_byte_array_append (out, data, (guint) size);
}

/* The state without time as bytes: equal bytes, the same state. */
static GByteArray *
image (const FlState *st, FlStateView view)
{
  const FlStateSizes *z = &st->sizes;
  GByteArray *out = g_byte_array_new ();
  put (out, z, sizeof *z);
  FlGlobals g;
  memcpy (&g, st->g, sizeof g);
  g.step = g.now = g.rng = g.page_transfers = 0;
  g.rcu.gp_started_step = 0;
  g.sched_index = 0;
  g.sched_steps = 0;
  if (view == FL_STATE_OUTCOME)
    for (guint n = 0; n < FL_MAX_NODES; n++)
      memset (g.zones[n].area_owner, 0, sizeof g.zones[n].area_owner);
  put (out, &g, sizeof g);
  for (guint c = 0; c < z->ncpus; c++)
    {
      FlCpu cpu;
      memcpy (&cpu, &st->cpus[c], sizeof cpu);
      cpu.clock = cpu.held_until = cpu.wait_since = cpu.ipi_at = 0;
      cpu.held_line = 0;
      cpu.rcu_since_step = 0;
      /* who hid a walk's VMA only explains a miss: history */
      cpu.spf_hidden_node = cpu.spf_hidden_subject = cpu.spf_hidden_cpu = 0;
      cpu.spf_hidden_action = 0;
      cpu.spf_hidden_step = 0;
      put (out, &cpu, sizeof cpu);
      /* its loops and frames, beside it in the state: all of them */
      put (out, fl_cpu_stack (st, c), sizeof (FlCpuStack));
    }
  for (guint l = 0; l < z->nlines; l++)
    {
      FlLine line;
      memcpy (&line, &st->lines[l], sizeof line);
      line.busy_until = 0;
      line.transfers = line.own_copy = line.overtook = line.last_from = line.last_to = 0;
      line.rfo_arrive = line.rfo_start = line.rfo_before = line.rfo_busy_end = 0;
      memset (line.rfo_takers, 0, sizeof line.rfo_takers);
      line.rfo_prev = 0;
      line.rfo_load = 0;
      if (view == FL_STATE_OUTCOME)
        {
          memset (line.sharers, 0, sizeof line.sharers);
          line.owner = -1;
          line.owner_state = 0;
        }
      put (out, &line, sizeof line);
    }
  put (out, st->vmas, z->nvmas * sizeof (FlVma));
  put (out, st->tables, z->ntables * sizeof (FlTable));
  for (guint p = 0; p < z->npages; p++)
    {
      FlPage page;
      memcpy (&page, &st->pages[p], sizeof page);
      if (view == FL_STATE_OUTCOME)
        page.line_owner = 0;
      put (out, &page, sizeof page);
    }
  put (out, st->cache, z->ncache * sizeof (FlCacheEntry));
  put (out, st->cache_index, z->ncache_index * sizeof (guint32));
  for (guint i = 0; i < z->ncbs; i++)
    {
      FlRcuCb cb;
      memcpy (&cb, &st->cbs[i], sizeof cb);
      cb.queued_step = 0;
      put (out, &cb, sizeof cb);
    }
  /* the one order of step stamps that is state */
  for (guint c = 0; c < z->ncpus; c++)
    if (st->cpus[c].rcu_nesting > 0)
      for (guint i = 0; i < z->ncbs; i++)
        if (st->cbs[i].obj != 0)
          {
            guint32 pair[3] = { c, i, st->cpus[c].rcu_since_step < st->cbs[i].queued_step };
            put (out, pair, sizeof pair);
          }
  /* the non-empty entries of live tables, where they are */
  for (guint32 t = 0; t < z->ntables; t++)
    if (st->tables[t].state != FL_OBJ_FREE)
      for (guint32 i = 0; i < FL_PTRS_PER_TABLE; i++)
        {
          guint64 e = fl_table_entries (st, t)[i];
          if (e != 0)
            {
              guint64 entry[3] = { t, i, e };
              put (out, entry, sizeof entry);
            }
        }
  return out;
}

static gboolean
same_image (GByteArray *a, GByteArray *b)
{
  return a->len == b->len && memcmp (a->data, b->data, a->len) == 0;
}

/* ---- byte by byte ----------------------------------------------------------------------- */

typedef struct {
  const char *name;
  guint8     *base;
  gsize       size;      /* one object */
  guint       count;
  void      (*take) (FlState *st, guint id);   /* its writer's accessor, if it has one */
} Region;

static void
take_line (FlState *st, guint id)
{
  fl_line_rw (st, id);
}

static void
take_page (FlState *st, guint id)
{
  fl_page_rw (st, id);
}

/* Each byte of one object of each region changed in turn: the hash changes exactly when the
 * definition's bytes do, in both views. */
static void
check_every_byte (FlState *st)
{
  Region regions[] = {
    { "globals", (guint8 *) st->g, sizeof (FlGlobals), 1 },
    { "cpus", (guint8 *) st->cpus, sizeof (FlCpu), st->sizes.ncpus },
    { "lines", (guint8 *) st->lines, sizeof (FlLine), st->sizes.nlines, take_line },
    { "vmas", (guint8 *) st->vmas, sizeof (FlVma), st->sizes.nvmas },
    { "tables", (guint8 *) st->tables, sizeof (FlTable), st->sizes.ntables },
    { "pages", (guint8 *) st->pages, sizeof (FlPage), st->sizes.npages, take_page },
    { "cache", (guint8 *) st->cache, sizeof (FlCacheEntry), st->sizes.ncache },
    { "cache index", (guint8 *) st->cache_index, sizeof (guint32), st->sizes.ncache_index },
    { "callbacks", (guint8 *) st->cbs, sizeof (FlRcuCb), st->sizes.ncbs },
  };
  for (FlStateView view = FL_STATE_OUTCOME; view <= FL_STATE_COMMUTE; view++)
    {
      g_autoptr (GByteArray) before = image (st, view);
      guint64 hash = fl_state_semantic_hash (st, view);
      for (guint r = 0; r < G_N_ELEMENTS (regions); r++)
        {
          const Region *g = &regions[r];
          /* the first object, one in the middle and the last: the masks repeat, and a
           * region's last object ends it (an object need not be whole words) */
          guint objects[3] = { 0, g->count / 2, g->count - 1 };
          for (guint o = 0; o < 3; o++)
            for (gsize b = 0; b < g->size; b++)
              {
                guint8 *byte = g->base + objects[o] * g->size + b;
                if (g->take != NULL)
                  g->take (st, objects[o]);
                guint8 was = *byte;
                *byte ^= 0x5a;
                g_autoptr (GByteArray) after = image (st, view);
                gboolean differs = !same_image (before, after);
                gboolean hashes_apart = fl_state_semantic_hash (st, view) != hash;
                if (differs != hashes_apart)
                  g_error ("%s view: byte %" G_GSIZE_FORMAT " of object %u of %s changed: "
                           "the definition says %s, the hash %s",
                           view == FL_STATE_OUTCOME ? "outcome" : "commute", b, objects[o],
                           g->name, differs ? "another state" : "the same",
                           hashes_apart ? "another" : "the same");
                if (g->take != NULL)
                  g->take (st, objects[o]);   /* a write after a hash is marked again */
                *byte = was;
              }
        }
      /* entries of live tables count, those of free ones not */
      static const guint at[] = { 0, 3, 8, 255, FL_PTRS_PER_TABLE - 1 };
      for (guint32 t = 0; t < st->sizes.ntables; t++)
        for (guint i = 0; i < G_N_ELEMENTS (at); i++)
          {
            guint64 was = fl_table_entries (st, t)[at[i]];
            fl_table_entries_rw (st, t)[at[i]] ^= G_GUINT64_CONSTANT (1) << 40;
            gboolean live = st->tables[t].state != FL_OBJ_FREE;
            g_assert_cmpint (fl_state_semantic_hash (st, view) != hash, ==, live);
            fl_table_entries_rw (st, t)[at[i]] = was;
          }
      g_assert_cmpuint (fl_state_semantic_hash (st, view), ==, hash);
    }
}

static FlSim *
sim_of (const char *id, const char *key, const char *value)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (FlScenario) sc = fl_scenario_load_builtin (id, &error);
  g_assert_no_error (error);
  FlConfig config = sc->config;
  if (key != NULL)
    g_assert_true (fl_config_set (&config, key, value, &error));
  config.cost.hold = 0;
  FlSim *sim = fl_sim_new (sc, &config, sc->seed, &error);
  g_assert_no_error (error);
  fl_sim_set_policy (sim, FL_SCHED_EXTERNAL);
  return sim;
}

static guint64
xorshift (guint64 *s)
{
  *s ^= *s << 13;
  *s ^= *s >> 7;
  *s ^= *s << 17;
  return *s;
}

/* A step of a CPU picked at random among those that can; FALSE at the end. */
static gboolean
random_step (FlSim *sim, guint ncpus, guint64 *rng)
{
  guint start = (guint) (xorshift (rng) % ncpus);
  for (guint k = 0; k < ncpus; k++)
    if (fl_sim_step_cpu (sim, (start + k) % ncpus))
      return TRUE;
  fl_sim_step (sim);
  return FALSE;
}

/* States in the middle of a race (an RCU callback queued, page tables live, lines held),
 * every byte of them changed in turn. */
static void
test_every_byte (gconstpointer data)
{
  const char *id = data;
  g_autoptr (FlSim) sim = sim_of (id, NULL, NULL);
  guint ncpus = fl_sim_get_config (sim)->cpus;
  guint64 rng = 7;
  for (guint i = 0; i < 60 && random_step (sim, ncpus, &rng); i++)
    ;
  FlState copy = { 0 };
  fl_state_copy (&copy, fl_sim_get_state (sim));
  check_every_byte (&copy);
  fl_state_clear (&copy);
}

/* What lets checkpoints and the hash skip a line or a table unread: it is at rest unless it
 * was taken for writing since it was last known at rest (FlState.lines_written). */
static void
unmarked_at_rest (const FlState *st)
{
  for (guint l = 0; l < st->sizes.nlines; l++)
    if (!fl_line_maybe_written (st, l))
      {
        FlLine rest;
        fl_state_line_at_rest (st, l, &rest);
        g_assert_cmpmem (&st->lines[l], sizeof rest, &rest, sizeof rest);
      }
  for (guint32 t = 0; t < st->sizes.ntables; t++)
    if (!fl_table_maybe_written (st, t))
      for (guint i = 0; i < FL_PTRS_PER_TABLE; i++)
        g_assert_cmpuint (fl_table_entries (st, t)[i], ==, 0);
}

/* The states of random schedules, seeks back included: the hash partitions them as the
 * definition does. */
static void
test_reached_states (gconstpointer data)
{
  const char *id = data;
  for (FlStateView view = FL_STATE_OUTCOME; view <= FL_STATE_COMMUTE; view++)
    {
      g_autoptr (FlSim) sim = sim_of (id, NULL, NULL);
      guint ncpus = fl_sim_get_config (sim)->cpus;
      g_autoptr (GHashTable) by_image = g_hash_table_new_full (g_bytes_hash, g_bytes_equal,
                                                               (GDestroyNotify) g_bytes_unref,
                                                               g_free);
      g_autoptr (GHashTable) by_hash = g_hash_table_new_full (g_int64_hash, g_int64_equal,
                                                              g_free, NULL);
      guint64 rng = 11;
      for (guint run = 0; run < 40; run++)
        {
          fl_sim_seek (sim, xorshift (&rng) % (fl_sim_get_step (sim) + 1));
          do
            {
              unmarked_at_rest (fl_sim_get_state (sim));
              guint64 hash = fl_state_semantic_hash (fl_sim_get_state (sim), view);
              GByteArray *bytes = image (fl_sim_get_state (sim), view);
              GBytes *key = g_byte_array_free_to_bytes (bytes);
              guint64 *known = g_hash_table_lookup (by_image, key);
              if (known != NULL)
                {
                  g_assert_cmpuint (*known, ==, hash);
                  g_bytes_unref (key);
                  continue;
                }
              /* a new state: no other may have its hash */
              g_assert_false (g_hash_table_contains (by_hash, &hash));
              g_hash_table_add (by_hash, g_memdup2 (&hash, sizeof hash));
              g_hash_table_insert (by_image, key, g_memdup2 (&hash, sizeof hash));
            }
          while (random_step (sim, ncpus, &rng));
        }
      /* the runs met again states they had seen, and saw many */
      g_assert_cmpuint (g_hash_table_size (by_image), >, 100);
    }
}

/* A state copied over another (of another scenario, then of the same one a few steps on)
 * is the one copied, for both hashes, and what is known of its slots holds. */
static void
test_copy_over (void)
{
  g_autoptr (FlSim) a = sim_of ("spf-vs-munmap", NULL, NULL);
  g_autoptr (FlSim) b = sim_of ("refcount-vs-munmap", NULL, NULL);
  guint64 rng = 5;
  for (guint i = 0; i < 40 && random_step (a, 2, &rng); i++)
    ;
  for (guint i = 0; i < 70 && random_step (b, 2, &rng); i++)
    ;
  FlState copy = { 0 };
  fl_state_copy (&copy, fl_sim_get_state (b));
  for (guint round = 0; round < 2; round++)
    {
      fl_state_copy (&copy, fl_sim_get_state (a));
      unmarked_at_rest (&copy);
      g_assert_cmpuint (fl_state_hash (&copy), ==, fl_state_hash (fl_sim_get_state (a)));
      for (FlStateView view = FL_STATE_OUTCOME; view <= FL_STATE_COMMUTE; view++)
        g_assert_cmpuint (fl_state_semantic_hash (&copy, view), ==,
                          fl_state_semantic_hash (fl_sim_get_state (a), view));
      for (guint i = 0; i < 30 && random_step (a, 2, &rng); i++)
        ;
    }
  fl_state_clear (&copy);
}

/* The commute view reads again only what changed since it last hashed the state (what it
 * keeps beside it, FlState.plain_hash): along random schedules with seeks back (which take
 * the arrays' sizes back too), it gives what a copy of the state that nothing was kept for
 * gives, read whole. */
static void
test_kept_as_fresh (gconstpointer data)
{
  const char *id = data;
  g_autoptr (FlSim) sim = sim_of (id, NULL, NULL);
  guint ncpus = fl_sim_get_config (sim)->cpus;
  guint64 rng = 23;
  for (guint run = 0; run < 8; run++)
    {
      fl_sim_seek (sim, xorshift (&rng) % (fl_sim_get_step (sim) + 1));
      gboolean more;
      do
        {
          more = random_step (sim, ncpus, &rng);
          FlState fresh = { 0 };
          fl_state_copy (&fresh, fl_sim_get_state (sim));
          g_assert_cmpuint (fl_state_semantic_hash (fl_sim_get_state (sim), FL_STATE_COMMUTE),
                            ==, fl_state_semantic_hash (&fresh, FL_STATE_COMMUTE));
          fl_state_clear (&fresh);
        }
      while (more);
    }
}

/* The same with the marks on (FlPlainMarks), as the explorer's states search has them: steps
 * journaled, some taken back by their journals (and the hash's copy with them, @back),
 * seeks when a step grew an array. The hash then reads again only the blocks marked since it
 * last read the state: a write that escaped the marks, or a copy taken back wrong, would
 * leave its copy stale, and it would differ from a fresh copy's. @kept is the view the hash
 * keeps (the states search keeps the outcome view); the walk switches to it after a few
 * steps, as the search does after the bounds, and asks it at every step. */
static void
marked_walk (const char *id, gboolean back, FlStateView kept)
{
  g_autoptr (FlSim) sim = sim_of (id, NULL, NULL);
  guint ncpus = fl_sim_get_config (sim)->cpus;
  GPtrArray *journals = g_ptr_array_new_with_free_func ((GDestroyNotify) fl_state_journal_free);
  g_autoptr (GArray) points = g_array_new (FALSE, FALSE, sizeof (FlHashPoint));
  guint64 rng = 31;
  for (guint i = 0; i < 40 && random_step (sim, ncpus, &rng); i++)
    fl_state_semantic_hash (fl_sim_get_state (sim), FL_STATE_COMMUTE);
  fl_state_semantic_hash_keep (fl_sim_get_state (sim), kept);
  fl_state_semantic_hash_log (fl_sim_get_state (sim), back);
  guint undone = 0, taken_back = 0;
  guint base = (guint) fl_sim_get_step (sim);
  fl_state_semantic_hash (fl_sim_get_state (sim), kept);
  g_array_set_size (points, base + 1);
  g_array_index (points, FlHashPoint, base) = fl_state_semantic_hash_point (fl_sim_get_state (sim));
  for (guint i = 0; i < 1200; i++)
    {
      guint depth = (guint) fl_sim_get_step (sim);
      if (depth > base && xorshift (&rng) % 4 == 0)
        {
          guint at = depth - 1 - (guint) (xorshift (&rng) % MIN (depth - base, 3));
          undone += fl_sim_undo_steps (sim, (FlStateJournal *const *) journals->pdata + at,
                                       depth - at);
          if (fl_sim_get_step (sim) != at)
            g_assert_true (fl_sim_seek (sim, at));
          if (back)
            taken_back += fl_state_semantic_hash_back (fl_sim_get_state (sim),
                                                       &g_array_index (points, FlHashPoint, at));
        }
      else
        {
          while (journals->len <= depth)
            g_ptr_array_add (journals, fl_state_journal_new ());
          fl_sim_step_cpu_journaled (sim, (guint) (xorshift (&rng) % ncpus),
                                    g_ptr_array_index (journals, depth));
        }
      g_assert_true (fl_sim_get_state (sim)->plain.on);
      FlState fresh = { 0 };
      fl_state_copy (&fresh, fl_sim_get_state (sim));
      g_assert_false (fresh.plain.on);
      g_assert_cmpuint (fl_state_semantic_hash (fl_sim_get_state (sim), kept),
                        ==, fl_state_semantic_hash (&fresh, kept));
      fl_state_clear (&fresh);
      guint now = (guint) fl_sim_get_step (sim);
      g_array_set_size (points, now + 1);
      g_array_index (points, FlHashPoint, now) = fl_state_semantic_hash_point (fl_sim_get_state (sim));
    }
  /* the walk went back by journals, not only by seeks, and the copy with them */
  g_assert_cmpuint (undone, >, 50);
  if (back)
    g_assert_cmpuint (taken_back, >, 50);
  fl_sim_end_journal (sim);
  g_ptr_array_unref (journals);
}

static void
test_marked_as_fresh (gconstpointer data)
{
  marked_walk (data, FALSE, FL_STATE_COMMUTE);
}

static void
test_taken_back_as_fresh (gconstpointer data)
{
  marked_walk (data, TRUE, FL_STATE_COMMUTE);
}

static void
test_outcome_kept_as_fresh (gconstpointer data)
{
  marked_walk (data, TRUE, FL_STATE_OUTCOME);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  static const char *const ids[] = { "spf-vs-munmap", "spf-tlb-ipi", "spf-mmap-cache-race",
                                     "spf-two-vs-munmap", "refcount-vs-munmap" };
  for (guint i = 0; i < G_N_ELEMENTS (ids); i++)
    {
      g_autofree char *bytes = g_strdup_printf ("/semantic-hash/every-byte/%s", ids[i]);
      g_autofree char *states = g_strdup_printf ("/semantic-hash/reached-states/%s", ids[i]);
      g_test_add_data_func (bytes, ids[i], test_every_byte);
      g_test_add_data_func (states, ids[i], test_reached_states);
      g_autofree char *kept = g_strdup_printf ("/semantic-hash/kept-as-fresh/%s", ids[i]);
      g_test_add_data_func (kept, ids[i], test_kept_as_fresh);
    }
  /* every built-in of two or three CPUs: each exercises other writers of the plain arrays */
  static const char *const marked[] = {
    "spf-vs-munmap", "spf-tlb-ipi", "spf-mmap-cache-race", "spf-two-vs-munmap",
    "refcount-vs-munmap", "spf-vs-mprotect", "spf-vs-merge", "spf-vs-split",
    "spf-vs-mprotect-munmap", "spf-file-vs-munmap", "spf-ptl-vs-munmap", "spf-vs-rotation",
    "spf-migration-retry", "spf-rcu-classic", "cow-write-fault", "will-it-scale-pf1",
  };
  for (guint i = 0; i < G_N_ELEMENTS (marked); i++)
    {
      g_autofree char *path = g_strdup_printf ("/semantic-hash/marked-as-fresh/%s", marked[i]);
      g_test_add_data_func (path, marked[i], test_marked_as_fresh);
      g_autofree char *back = g_strdup_printf ("/semantic-hash/taken-back-as-fresh/%s", marked[i]);
      g_test_add_data_func (back, marked[i], test_taken_back_as_fresh);
      g_autofree char *outcome = g_strdup_printf ("/semantic-hash/outcome-kept-as-fresh/%s",
                                                  marked[i]);
      g_test_add_data_func (outcome, marked[i], test_outcome_kept_as_fresh);
    }
  g_test_add_func ("/semantic-hash/copy-over", test_copy_over);
  return g_test_run ();
}

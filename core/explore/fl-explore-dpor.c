/* fl-explore-dpor.c — every interleaving, one or a few per equivalence class: source-DPOR
 * with sleep sets (Abdulla, Aronis, Jonsson, Sagonas, "Optimal dynamic partial order
 * reduction", POPL 2014, Algorithm 1), on the dynamic footprints of fl-footprint.c.
 *
 * Two steps of different CPUs are dependent when their footprints conflict; happens-before is
 * program order plus dependence, kept as one vector clock per step. After each new step the
 * search finds the earlier steps it races with (dependent, another CPU, nothing between them
 * in happens-before) and, at the state before each, schedules a CPU that can start the
 * reversed order (an initial of the steps that do not happen after the earlier one). A CPU
 * whose subtree is done sleeps until a dependent step wakes it, so no order is run twice.
 * Stateless: going back is a seek of the one simulation (checkpoint, then replay). */
#include "fl-explore-private.h"

#include <string.h>

typedef struct {
  guint64 enabled;      /* CPUs that could step here */
  guint64 backtrack;    /* CPUs to run from here (those already run included) */
  guint64 sleep;        /* CPUs not to run from here: covered by a sibling's subtree */
  guint8  cpu;          /* the step taken from here: event `index` of the schedule */
} Node;

typedef struct {
  guint8  cpu;
  guint32 lidx;         /* its CPU's steps up to and including it, from 1 */
  FlFootprint fp;
} Event;

/* Who touched a key last: the last write and, per CPU, its last read since. */
typedef struct {
  guint32 *keys;        /* 0: empty slot */
  gint32  *last_write;
  gint32  *last_read;   /* size * ncpus */
  guint    size, used;
} KeyMap;

typedef struct {
  FlExplorer *x;
  guint    ncpus;
  guint    len, cap;    /* events in the schedule being run, room for */
  Node    *nodes;       /* cap + 1: node i is the state before event i */
  Event   *events;
  guint32 *vc;          /* cap * ncpus: event i's vector clock */
  FlFootprint *sleep_fp;/* (cap + 1) * ncpus: the next step of each sleeping CPU */
  KeyMap   map;
  gint32  *cpu_last;    /* per CPU: its last event, -1 */
  gint32  *cpu_last_all;/* per CPU: its last event that depends on everything, -1 */
  guint32 *cpu_count;   /* per CPU: its events so far */
  guint8  *choices;     /* cap: the CPUs of the schedule, for the leaf */
  gint32  *deps;        /* scratch: the direct dependences of one event */
  guint    max_deps;
  FlFootprintSnapshot snap;
} Dpor;

#define BIT(c) (G_GUINT64_CONSTANT (1) << (c))

/* ---- keys ---------------------------------------------------------------------------- */

static guint
key_slot (const KeyMap *m, guint32 key)
{
  guint32 h = key * 0x9e3779b1u;
  guint j = (h ^ (h >> 15)) & (m->size - 1);
  while (m->keys[j] != 0 && m->keys[j] != key)
    j = (j + 1) & (m->size - 1);
  return j;
}

static void
map_reset (KeyMap *m, guint ncpus)
{
  if (m->size == 0)
    {
      m->size = 256;
      m->keys = g_new0 (guint32, m->size);
      m->last_write = g_new (gint32, m->size);
      m->last_read = g_new (gint32, (gsize) m->size * ncpus);
    }
  memset (m->keys, 0, m->size * sizeof (guint32));
  m->used = 0;
}

static void
map_grow (KeyMap *m, guint ncpus)
{
  KeyMap old = *m;
  m->size *= 2;
  m->keys = g_new0 (guint32, m->size);
  m->last_write = g_new (gint32, m->size);
  m->last_read = g_new (gint32, (gsize) m->size * ncpus);
  for (guint i = 0; i < old.size; i++)
    if (old.keys[i] != 0)
      {
        guint j = key_slot (m, old.keys[i]);
        m->keys[j] = old.keys[i];
        m->last_write[j] = old.last_write[i];
        memcpy (&m->last_read[(gsize) j * ncpus], &old.last_read[(gsize) i * ncpus],
                ncpus * sizeof (gint32));
      }
  g_free (old.keys);
  g_free (old.last_write);
  g_free (old.last_read);
}

/* The slot of @key, made when it has none. Keys are never 0: a kind is never 0. */
static guint
map_entry (KeyMap *m, guint32 key, guint ncpus)
{
  if ((m->used + 1) * 2 > m->size)
    map_grow (m, ncpus);
  guint j = key_slot (m, key);
  if (m->keys[j] == 0)
    {
      m->keys[j] = key;
      m->last_write[j] = -1;
      for (guint c = 0; c < ncpus; c++)
        m->last_read[(gsize) j * ncpus + c] = -1;
      m->used++;
    }
  return j;
}

/* ---- the schedule's events --------------------------------------------------------- */

static void
ensure (Dpor *d, guint n)
{
  if (n < d->cap)
    return;
  guint cap = MAX (d->cap * 2, 256u);
  while (cap <= n)
    cap *= 2;
  d->nodes = g_renew (Node, d->nodes, cap + 1);
  d->events = g_renew (Event, d->events, cap);
  d->vc = g_renew (guint32, d->vc, (gsize) cap * d->ncpus);
  d->sleep_fp = g_renew (FlFootprint, d->sleep_fp, (gsize) (cap + 1) * d->ncpus);
  d->choices = g_renew (guint8, d->choices, cap);
  d->cap = cap;
}

static gboolean
happens_before (const Dpor *d, guint before, guint after)
{
  const Event *e = &d->events[before];
  return d->vc[(gsize) after * d->ncpus + e->cpu] >= e->lidx;
}

/* Event n joins the key map and the per-CPU tables (its vector clock is already set). */
static void
account (Dpor *d, guint n)
{
  const Event *e = &d->events[n];
  guint nc = d->ncpus;
  for (guint i = 0; i < e->fp.n; i++)
    {
      guint j = map_entry (&d->map, e->fp.key[i], nc);
      if (e->fp.write[i])
        {
          d->map.last_write[j] = (gint32) n;
          for (guint c = 0; c < nc; c++)
            d->map.last_read[(gsize) j * nc + c] = -1;
        }
      else
        d->map.last_read[(gsize) j * nc + e->cpu] = (gint32) n;
    }
  d->cpu_last[e->cpu] = (gint32) n;
  if (e->fp.everything)
    d->cpu_last_all[e->cpu] = (gint32) n;
  d->cpu_count[e->cpu] = e->lidx;
}

/* After a seek back to node n: the tables as the first n events left them. */
static void
rebuild (Dpor *d, guint n)
{
  map_reset (&d->map, d->ncpus);
  for (guint c = 0; c < d->ncpus; c++)
    {
      d->cpu_last[c] = d->cpu_last_all[c] = -1;
      d->cpu_count[c] = 0;
    }
  for (guint i = 0; i < n; i++)
    account (d, i);
}

/* The earlier events event n depends on directly: per key it touches, the last write and
 * (when it writes) the reads since; what depends on everything; with everything, each
 * other CPU's last event. */
static guint
direct_deps (Dpor *d, guint n, gint32 *out, guint max)
{
  const Event *e = &d->events[n];
  guint nc = d->ncpus, k = 0;
#define ADD(idx) do { if ((idx) >= 0 && d->events[(idx)].cpu != e->cpu && k < max) out[k++] = (idx); } while (0)
  for (guint c = 0; c < nc; c++)
    {
      ADD (d->cpu_last_all[c]);
      if (e->fp.everything)
        ADD (d->cpu_last[c]);
    }
  for (guint i = 0; i < e->fp.n; i++)
    {
      guint j = key_slot (&d->map, e->fp.key[i]);
      if (d->map.keys[j] == 0)
        continue;
      ADD (d->map.last_write[j]);
      if (e->fp.write[i])
        for (guint c = 0; c < nc; c++)
          ADD (d->map.last_read[(gsize) j * nc + c]);
    }
#undef ADD
  return k;
}

/* The CPUs that can start the order with event n before event j: the initials of the events
 * after j that do not happen after it, followed by event n's CPU. */
static guint64
initials (Dpor *d, guint j, guint n)
{
  guint nc = d->ncpus;
  guint32 first[FL_EXPLORE_MAX_CPUS] = { 0 };   /* each CPU's first event in v (lidx), 0 none */
  guint64 init = 0;
  for (guint i = j + 1; i <= n; i++)
    {
      if (i < n && happens_before (d, j, i))
        continue;
      const Event *x = &d->events[i];
      if (first[x->cpu] == 0)
        {
          gboolean initial = TRUE;
          for (guint r = 0; r < nc && initial; r++)
            if (r != x->cpu && first[r] != 0 && d->vc[(gsize) i * nc + r] >= first[r])
              initial = FALSE;
          if (initial)
            init |= BIT (x->cpu);
          first[x->cpu] = x->lidx;
        }
    }
  return init;
}

/* Event n races with event j: make sure the state before j tries the other order. */
static void
reverse (Dpor *d, guint j, guint n)
{
  Node *node = &d->nodes[j];
  guint64 init = initials (d, j, n);
  if (init & node->backtrack)
    return;
  guint64 can = init & node->enabled;
  if (can == 0)
    return;     /* only event n's CPU, which event j woke: the order cannot be reversed */
  guint64 awake = can & ~node->sleep;
  guint64 pick = awake ? awake : can;
  node->backtrack |= BIT (__builtin_ctzll (pick));
  d->x->r->dpor_races++;
}

/* Event n was just taken: its clock, then its races. */
static void
arrive (Dpor *d, guint n)
{
  Event *e = &d->events[n];
  guint nc = d->ncpus;
  guint32 *vc = &d->vc[(gsize) n * nc];
  gint32 prev = d->cpu_last[e->cpu];
  e->lidx = d->cpu_count[e->cpu] + 1;
  if (prev >= 0)
    memcpy (vc, &d->vc[(gsize) prev * nc], nc * sizeof (guint32));
  else
    memset (vc, 0, nc * sizeof (guint32));

  gint32 *deps = d->deps;
  guint k = direct_deps (d, n, deps, d->max_deps);
  for (guint i = 0; i < k; i++)
    for (guint r = 0; r < nc; r++)
      vc[r] = MAX (vc[r], d->vc[(gsize) deps[i] * nc + r]);
  vc[e->cpu] = e->lidx;

  /* a race is a direct dependence with nothing of the others between: no other direct
   * predecessor (the CPU's own previous event included) comes after it in happens-before */
  for (guint i = 0; i < k; i++)
    {
      guint j = (guint) deps[i];
      gboolean immediate = !(prev >= 0 && (guint) prev > j && happens_before (d, j, (guint) prev));
      for (guint m = 0; m < k && immediate; m++)
        if (m != i && (guint) deps[m] > j && happens_before (d, j, (guint) deps[m]))
          immediate = FALSE;
      if (immediate)
        reverse (d, j, n);
    }
  account (d, n);
}

/* ---- the search ---------------------------------------------------------------------- */

static guint
preemptions (const Dpor *d, guint n)
{
  guint pre = 0;
  for (guint i = 1; i < n; i++)
    pre += fl_explore_preempts (d->events[i - 1].cpu, d->events[i].cpu, d->nodes[i].enabled);
  return pre;
}

static void
open_node (Dpor *d, guint n)
{
  Node *node = &d->nodes[n];
  node->enabled = fl_explorer_enabled (d->x);
  node->backtrack = 0;
  node->cpu = 0;
  /* the sleepers of the parent whose step is independent of the one taken stay asleep */
  node->sleep = 0;
  if (n == 0)
    return;
  const Node *parent = &d->nodes[n - 1];
  const FlFootprint *taken = &d->events[n - 1].fp;
  for (guint64 s = parent->sleep; s; s &= s - 1)
    {
      guint q = (guint) __builtin_ctzll (s);
      const FlFootprint *fq = &d->sleep_fp[(gsize) (n - 1) * d->ncpus + q];
      if (!fl_footprint_conflict (fq, taken))
        {
          node->sleep |= BIT (q);
          d->sleep_fp[(gsize) n * d->ncpus + q] = *fq;
        }
    }
}

static void
leaf (Dpor *d, guint n, gboolean cut)
{
  FlExploreResult *r = d->x->r;
  r->executions++;
  r->dpor_schedules++;
  r->cut_unbounded += cut;
  for (guint i = 0; i < n; i++)
    d->choices[i] = d->events[i].cpu;
  guint pre = preemptions (d, n);
  r->dpor_max_preemptions = MAX (r->dpor_max_preemptions, pre);
  fl_explorer_leaf (d->x, d->choices, n, pre);
}

/* Runs the schedule on from node d->len until no CPU may step, or every CPU left sleeps. */
static void
descend (Dpor *d)
{
  FlExplorer *x = d->x;
  for (;;)
    {
      guint n = d->len;
      Node *node = &d->nodes[n];
      guint64 avail = node->enabled & ~node->sleep;
      if (avail == 0)
        {
          if (node->enabled != 0)
            {
              x->r->dpor_blocked++;   /* every CPU left is asleep: covered elsewhere */
              return;
            }
          /* nobody can step: finishing runs the checks of the end (a deadlock among them) */
          fl_sim_step (x->sim);
          leaf (d, n, FALSE);
          return;
        }
      if ((x->budget && n >= x->budget) || n >= FL_EXPLORE_DPOR_MAX_STEPS)
        {
          leaf (d, n, TRUE);
          return;
        }
      if ((node->backtrack & avail) == 0)
        {
          /* first visit: the CPU that ran last goes on if it can (no preemption) */
          guint prev = n ? d->events[n - 1].cpu : 0;
          guint p = n && (avail & BIT (prev)) ? prev : (guint) __builtin_ctzll (avail);
          node->backtrack |= BIT (p);
        }
      guint p = (guint) __builtin_ctzll (node->backtrack & avail);
      node->cpu = (guint8) p;
      ensure (d, n + 1);
      Event *e = &d->events[n];
      e->cpu = (guint8) p;
      if (!fl_explore_step (x->sim, p, &e->fp, &d->snap))
        {
          leaf (d, n, TRUE);   /* a limit of the machine stopped the step */
          return;
        }
      x->r->steps++;
      arrive (d, n);
      d->len = n + 1;
      open_node (d, n + 1);
    }
}

/* Back to the deepest node with a CPU left to run: TRUE when there is one. */
static gboolean
back (Dpor *d)
{
  while (d->len > 0)
    {
      guint n = d->len - 1;
      Node *node = &d->nodes[n];
      guint p = node->cpu;
      node->sleep |= BIT (p);
      d->sleep_fp[(gsize) n * d->ncpus + p] = d->events[n].fp;
      d->len = n;
      if (node->backtrack & node->enabled & ~node->sleep)
        {
          if (!fl_sim_seek (d->x->sim, n))
            return FALSE;
          rebuild (d, n);
          return TRUE;
        }
    }
  return FALSE;
}

void
fl_explore_dpor (FlExplorer *x)
{
  Dpor d = { .x = x, .ncpus = x->ncpus };
  d.cpu_last = g_new (gint32, d.ncpus);
  d.cpu_last_all = g_new (gint32, d.ncpus);
  d.cpu_count = g_new (guint32, d.ncpus);
  /* per key a write and a read per CPU, and two per CPU for what depends on everything */
  d.max_deps = FL_FOOTPRINT_MAX * (1 + d.ncpus) + 2 * d.ncpus;
  d.deps = g_new (gint32, d.max_deps);
  ensure (&d, 0);
  fl_sim_seek (x->sim, 0);
  rebuild (&d, 0);
  open_node (&d, 0);
  do
    {
      descend (&d);
      gsize own = (gsize) d.cap * (sizeof (Node) + sizeof (Event) + 1
                                   + d.ncpus * (sizeof (guint32) + sizeof (FlFootprint)))
                  + (gsize) d.map.size * (8 + 4 * d.ncpus);
      x->r->peak_bytes = MAX (x->r->peak_bytes, own + x->outcomes.size * sizeof (guint64));
    }
  while (!fl_explorer_out_of_budget (x) && back (&d));

  fl_footprint_snapshot_clear (&d.snap);
  g_free (d.nodes);
  g_free (d.events);
  g_free (d.vc);
  g_free (d.sleep_fp);
  g_free (d.choices);
  g_free (d.map.keys);
  g_free (d.map.last_write);
  g_free (d.map.last_read);
  g_free (d.cpu_last);
  g_free (d.cpu_last_all);
  g_free (d.cpu_count);
  g_free (d.deps);
}

/* ---- one step with its footprint ---------------------------------------------------- */

gboolean
fl_explore_step (FlSim *sim, guint cpu, FlFootprint *fp, FlFootprintSnapshot *snap)
{
  fl_footprint_clear (fp);
  fl_footprint_snapshot (snap, &sim->st);
  /* a step reads its own CPU's fields, which other CPUs' steps may have written */
  static const FlKeyKind groups[] = {
    FL_KEY_CPU_SCHED, FL_KEY_CPU_WRITER, FL_KEY_CPU_RCU, FL_KEY_CPU_TLB, FL_KEY_CPU_MEM,
    FL_KEY_CPU_OTHER,
  };
  for (guint i = 0; i < G_N_ELEMENTS (groups); i++)
    fl_footprint_add (fp, FL_KEY (groups[i], cpu), FALSE);
  sim->footprint = fp;
  /* a writer holds mmap_sem for writing and reads the VMA list and tree as it likes (the
   * neighbours vma_merge looks at, what split and unlink rewrite) */
  if (sim->st.cpus[cpu].writer)
    fl_note_vma_list (sim);
  gboolean stepped = fl_sim_step_cpu (sim, cpu);
  sim->footprint = NULL;
  if (stepped)
    fl_footprint_add_changes (fp, snap, &sim->st, cpu);
  return stepped;
}

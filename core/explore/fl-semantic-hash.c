/* fl-semantic-hash.c — the state without time: what the explorer calls "the same state".
 *
 * Two states are the same when their sizes and every byte of every object are equal, padding
 * included, except the fields listed below (left_out_*). Those are left out because they are
 * time or history, which the explorer does not order by (costs are charged, but any CPU may
 * step next):
 *   - the step, `now`, the CPUs' clocks (clock, held_until, wait_since, ipi_at) and the line
 *     each last wrote (held_line: the hold, which the explorer turns off), a line's
 *     busy_until and the arbitration's record of the requests still crossing to it (rfo_*:
 *     when they arrive, what they were booked at, whose they are, whether one is a load:
 *     docs/model.md, "Arbitration");
 *   - statistics: line transfers, own_copy, overtook, last_from/last_to, page_transfers;
 *   - who hid a speculative walk's VMA (spf_hidden_*): it explains a miss, decides nothing;
 *   - the dice and the script's position (rng, sched_index, sched_steps: the search picks
 *     every step);
 *   - step stamps (rcu_since_step, queued_step, gp_started_step), but for the one comparison
 *     of two of them that is state: whether a reader still in its section began before a
 *     callback was queued (rcu_do_batch's early-free check), hashed for each such pair.
 * FL_STATE_OUTCOME, what a run leaves as its result, also leaves out who holds which line
 * (a line's sharers, owner, owner_state; a page's line_owner; a zone's free areas'
 * area_owner). FL_STATE_COMMUTE keeps it:
 * two orders of independent steps leave the same lines.
 *
 * Page tables' entries count only for live tables (a free table's mean nothing: an allocation
 * clears them), each non-empty one with its table and index.
 *
 * How, so that the explorer can ask at every state it reaches: the objects are hashed where
 * they lie, each kind through a mask per 64-bit word built once from the offsetof and sizeof
 * of the fields left out; the words are summed in pairs, a pair of zeros adding nothing. The
 * lines and the tables' entries are most of the state's bytes, and most of them are at rest
 * (untouched, or empty): what is kept beside the state (FlTracked) says which may not be,
 * without reading them, and what each of those added when the hash last read it, so only
 * the few written since are read again. The other arrays (globals, CPUs and their stacks,
 * VMAs, tables, page cache, callbacks) have no such marks: the kept view (the one a search
 * asks at every state, fl_state_semantic_hash_keep) keeps a copy of their bytes as it last
 * read them and compares (fl-semantic-hash-kept.c), pairing again only the words that
 * changed. */
#include "fl-semantic-hash-private.h"

#include <stddef.h>

/* ---- which bytes count ----------------------------------------------------------------- */

typedef struct {
  gsize offset, size;
} Field;

#define OUT(type, member) { offsetof (type, member), sizeof (((type *) 0)->member) }

#define AREA_OWNER(n) OUT (FlGlobals, zones[n].area_owner)
static const Field left_out_globals[] = {
  OUT (FlGlobals, step), OUT (FlGlobals, now), OUT (FlGlobals, rng),
  OUT (FlGlobals, page_transfers), OUT (FlGlobals, rcu.gp_started_step),
  OUT (FlGlobals, sched_index), OUT (FlGlobals, sched_steps),
  /* FL_STATE_OUTCOME only from here: who last wrote each zone's free areas */
  AREA_OWNER (0), AREA_OWNER (1), AREA_OWNER (2), AREA_OWNER (3),
  AREA_OWNER (4), AREA_OWNER (5), AREA_OWNER (6), AREA_OWNER (7),
};
#define GLOBALS_OUTCOME_ONLY FL_MAX_NODES
G_STATIC_ASSERT (FL_MAX_NODES == 8);

static const Field left_out_cpu[] = {
  OUT (FlCpu, clock), OUT (FlCpu, held_until), OUT (FlCpu, wait_since), OUT (FlCpu, ipi_at),
  OUT (FlCpu, held_line), OUT (FlCpu, rcu_since_step),
  /* who hid a walk's VMA only explains a miss (fl-oracle-walk.c): history */
  OUT (FlCpu, spf_hidden_node), OUT (FlCpu, spf_hidden_subject), OUT (FlCpu, spf_hidden_cpu),
  OUT (FlCpu, spf_hidden_action), OUT (FlCpu, spf_hidden_step),
};

static const Field left_out_line[] = {
  OUT (FlLine, busy_until), OUT (FlLine, transfers), OUT (FlLine, own_copy),
  OUT (FlLine, overtook), OUT (FlLine, last_from), OUT (FlLine, last_to),
  OUT (FlLine, rfo_arrive), OUT (FlLine, rfo_start), OUT (FlLine, rfo_before),
  OUT (FlLine, rfo_busy_end), OUT (FlLine, rfo_takers), OUT (FlLine, rfo_prev),
  OUT (FlLine, rfo_load),
  /* FL_STATE_OUTCOME only from here */
  OUT (FlLine, sharers), OUT (FlLine, owner), OUT (FlLine, owner_state),
};
#define LINE_OUTCOME_ONLY 3

static const Field left_out_page_outcome[] = { OUT (FlPage, line_owner) };

static const Field left_out_cb[] = { OUT (FlRcuCb, queued_step) };

static void
build_mask (Mask *m, gsize object_size, const Field *out, guint n_out)
{
  /* the smallest whole number of objects that is a whole number of words */
  gsize objects = 1;
  while ((objects * object_size) % 8 != 0)
    objects++;
  gsize bytes = objects * object_size;
  g_assert (bytes / 8 <= MASK_MAX_WORDS);
  guint8 keep[MASK_MAX_WORDS * 8];
  memset (keep, 0xff, bytes);
  for (gsize o = 0; o < objects; o++)
    for (guint i = 0; i < n_out; i++)
      memset (keep + o * object_size + out[i].offset, 0, out[i].size);
  m->period = (guint) (bytes / 8);
  m->n = 0;
  for (guint w = 0; w < m->period; w++)
    {
      guint64 bits;
      memcpy (&bits, keep + w * 8, 8);
      m->all[w] = bits;
      if (bits != 0)
        m->word[m->n++] = (Word) { w * 8, bits, 0 };
    }
}

/* The bits of a line's kind and object, which differ from line to line at rest. */
static void
mark_identity (Mask *m)
{
  guint8 bytes[sizeof (FlLine)] = { 0 };
  memset (bytes + offsetof (FlLine, kind), 0xff, sizeof (((FlLine *) 0)->kind));
  memset (bytes + offsetof (FlLine, obj), 0xff, sizeof (((FlLine *) 0)->obj));
  for (guint k = 0; k < m->n; k++)
    {
      guint64 bits;
      memcpy (&bits, bytes + m->word[k].offset, 8);
      m->word[k].identity = bits & m->word[k].keep;
    }
}

const Masks *
fl_semantic_hash_masks (void)
{
  static Masks m;
  static gsize ready = 0;
  if (g_once_init_enter (&ready))
    {
      build_mask (&m.globals[FL_STATE_COMMUTE], sizeof (FlGlobals), left_out_globals,
                  G_N_ELEMENTS (left_out_globals) - GLOBALS_OUTCOME_ONLY);
      build_mask (&m.globals[FL_STATE_OUTCOME], sizeof (FlGlobals), left_out_globals,
                  G_N_ELEMENTS (left_out_globals));
      build_mask (&m.cpu, sizeof (FlCpu), left_out_cpu, G_N_ELEMENTS (left_out_cpu));
      build_mask (&m.line[FL_STATE_COMMUTE], sizeof (FlLine), left_out_line,
                  G_N_ELEMENTS (left_out_line) - LINE_OUTCOME_ONLY);
      build_mask (&m.line[FL_STATE_OUTCOME], sizeof (FlLine), left_out_line,
                  G_N_ELEMENTS (left_out_line));
      mark_identity (&m.line[FL_STATE_COMMUTE]);
      mark_identity (&m.line[FL_STATE_OUTCOME]);
      build_mask (&m.page[FL_STATE_COMMUTE], sizeof (FlPage), NULL, 0);
      build_mask (&m.page[FL_STATE_OUTCOME], sizeof (FlPage), left_out_page_outcome,
                  G_N_ELEMENTS (left_out_page_outcome));
      build_mask (&m.cb, sizeof (FlRcuCb), left_out_cb, G_N_ELEMENTS (left_out_cb));
      g_once_init_leave (&ready, 1);
    }
  return &m;
}

/* ---- the hash of the words kept ------------------------------------------------------- */

/* The running sum and the next pair's key, passed and returned by value so that both stay
 * in registers (the words are read through a byte pointer, which may alias anything). */
typedef struct {
  guint64 key, sum;
} Pairs;

/* A pair of zero words adds nothing (most of the state is zeros: empty wait queues, frames
 * past the depth, slots not in use), and every other pair adds what its position and value
 * give: the sum still tells the words apart, since where each non-zero pair lies is in it. */
static inline Pairs
pairs_add (Pairs ps, guint64 a, guint64 b)
{
  if ((a | b) != 0)
    ps.sum += mul_fold (a + ps.key, b + (ps.key ^ KEY_ODD));
  ps.key += KEY_STEP;
  return ps;
}

/* @n words from @p, each masked by @keep (NULL: all its bits), paired in order; four at a time
 * first, which are mostly all zero. */
static inline Pairs
pairs_words (Pairs ps, const guint8 *p, gsize n, const guint64 *keep)
{
  gsize i = 0;
  for (; i + 4 <= n; i += 4)
    {
      guint64 a = load (p + 8 * i), b = load (p + 8 * i + 8), c = load (p + 8 * i + 16),
              d = load (p + 8 * i + 24);
      if (keep != NULL)
        a &= keep[i], b &= keep[i + 1], c &= keep[i + 2], d &= keep[i + 3];
      if ((a | b | c | d) == 0)
        {
          ps.key += 2 * KEY_STEP;
          continue;
        }
      ps = pairs_add (ps, a, b);
      ps = pairs_add (ps, c, d);
    }
  for (; i < n; i += 2)
    {
      guint64 a = load (p + 8 * i), b = i + 1 < n ? load (p + 8 * i + 8) : 0;
      if (keep != NULL)
        a &= keep[i], b &= i + 1 < n ? keep[i + 1] : 0;
      ps = pairs_add (ps, a, b);
    }
  return ps;
}

/* The lines and the tables' entries are summed apart, each line and each table from its own
 * keys (two more Weyl sequences: digits of pi start them), so that what one adds is the same
 * wherever the others stand, and can be kept (FlTracked). */
#define LINE_KEYS  0x243f6a8885a308d3ull
#define ENTRY_KEYS 0x13198a2e03707344ull
#define PAGE_KEYS  0xa4093822299f31d0ull

/* What line @l adds: nothing at rest (as fl_state_line_at_rest() makes it: nothing touched
 * it), else the words @m keeps, keyed by its id. A line at rest is @plain (line 0's) but for
 * its kind and object, which follow from its id: compared last, as most lines differ before. */
static guint64
line_adds (const FlState *st, guint l, const Mask *m, const FlLine *plain)
{
  const guint8 *line = (const guint8 *) &st->lines[l];
  guint64 differs = 0;
  for (guint k = 0; k < m->n; k++)
    differs |= (load (line + m->word[k].offset)
                ^ load ((const guint8 *) plain + m->word[k].offset))
               & m->word[k].keep & ~m->word[k].identity;
  if (differs == 0)
    {
      guint8 kind;
      guint32 obj;
      fl_state_line_identity (st, l, &kind, &obj);
      if (st->lines[l].kind == kind && st->lines[l].obj == obj)
        return 0;
    }
  Pairs ps = { LINE_KEYS + l * ((m->n + 1) / 2 * KEY_STEP), 0 };
  const Word *w = m->word;
  guint k = 0;
  for (; k + 2 <= m->n; k += 2)
    ps = pairs_add (ps, load (line + w[k].offset) & w[k].keep,
                    load (line + w[k + 1].offset) & w[k + 1].keep);
  if (k < m->n)
    ps = pairs_add (ps, load (line + w[k].offset) & w[k].keep, 0);
  return ps.sum;
}

/* What table @t's entries add: each non-empty one, keyed by where it is. */
static guint64
entries_add (const FlState *st, guint t)
{
  Pairs ps = { ENTRY_KEYS + t * (FL_PTRS_PER_TABLE / 2 * KEY_STEP), 0 };
  return pairs_words (ps, (const guint8 *) fl_table_entries (st, t), FL_PTRS_PER_TABLE,
                      NULL).sum;
}

/* What page @p adds: the words @m keeps of its struct page (whole words: FlPage's size is a
 * multiple of 8), keyed by its id; nothing at rest (all zeros). */
static guint64
page_adds (const FlState *st, guint32 p, const Mask *m)
{
  Pairs ps = { PAGE_KEYS + p * ((sizeof (FlPage) / 8 + 1) / 2 * KEY_STEP), 0 };
  return pairs_words (ps, (const guint8 *) &st->pages[p], sizeof (FlPage) / 8, m->all).sum;
}

static guint64
slot_adds (const FlState *st, guint slot, const Mask *m, const FlLine *plain)
{
  return plain != NULL ? line_adds (st, slot, m, plain) : page_adds (st, slot, m);
}

/* What the lines (@plain: line 0 at rest) or the struct pages (@plain NULL) of @t add: only
 * the slots that may not be at rest. The kept view (@kept) reads a slot again only when it
 * was written since it was last read (FlTracked.unhashed), else takes what it added then,
 * and with @k, keeps 64 slots' total and the sum of all, taken again only for the words of
 * the bitmaps touched since (FlTracked.touched); the other view, asked once per schedule,
 * reads its own. */
static guint64
marked_add (const FlState *st, const FlTracked *t, guint count, gboolean kept,
            const Mask *m, const FlLine *plain, Totals *k)
{
  guint words = (count + 63) / 64;
  if (!kept)
    {
      guint64 sum = 0;
      for (guint w = 0; w < words; w++)
        for (guint64 bits = t->written[w]; bits != 0; bits &= bits - 1)
          sum += slot_adds (st, w * 64 + (guint) __builtin_ctzll (bits), m, plain);
      return sum;
    }
  if (k->words != words)
    {
      /* another size: every total taken again */
      k->written = g_renew (guint64, k->written, words);
      k->total = g_renew (guint64, k->total, words);
      k->words = words;
      k->grand = 0;
      for (guint w = 0; w < words; w++)
        {
          k->written[w] = ~t->written[w];
          k->total[w] = 0;
        }
      for (guint s = 0; s < (words + 63) / 64; s++)
        t->touched[s] = G_MAXUINT64;
    }
  /* only the words touched since: the others hold the same slots, none written since */
  for (guint s = 0; s < (words + 63) / 64; s++)
    {
      for (guint64 touched = t->touched[s]; touched != 0; touched &= touched - 1)
        {
          guint w = s * 64 + (guint) __builtin_ctzll (touched);
          if (w >= words)
            break;
          guint64 fresh = t->unhashed[w];
          if ((fresh | (k->written[w] ^ t->written[w])) == 0)
            continue;
          for (guint64 bits = fresh; bits != 0; bits &= bits - 1)
            {
              guint slot = w * 64 + (guint) __builtin_ctzll (bits);
              t->sum[slot] = slot_adds (st, slot, m, plain);
            }
          t->unhashed[w] = 0;
          guint64 total = 0;
          for (guint64 bits = t->written[w]; bits != 0; bits &= bits - 1)
            total += t->sum[w * 64 + (guint) __builtin_ctzll (bits)];
          k->grand += total - k->total[w];
          k->total[w] = total;
          k->written[w] = t->written[w];
        }
      t->touched[s] = 0;
    }
  return k->grand;
}

/* Only live tables' entries count: a free table's mean nothing (an allocation clears them). */
static guint64
entries_of_live_tables (const FlState *st)
{
  const FlTracked *t = &st->pte_marks;
  guint words = (st->sizes.ntables + 63) / 64;
  guint64 sum = 0;
  for (guint w = 0; w < words; w++)
    {
      for (guint64 bits = t->unhashed[w]; bits != 0; bits &= bits - 1)
        {
          guint k = w * 64 + (guint) __builtin_ctzll (bits);
          t->sum[k] = entries_add (st, k);
        }
      t->unhashed[w] = 0;
    }
  for (guint w = 0; w < words; w++)
    for (guint64 bits = t->written[w]; bits != 0; bits &= bits - 1)
      {
        guint k = w * 64 + (guint) __builtin_ctzll (bits);
        if (st->tables[k].state != FL_OBJ_FREE)
          sum += t->sum[k];
      }
  return sum;
}

static guint64
pairs_finish (Pairs ps)
{
  guint64 h = ps.sum;
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdull;
  h ^= h >> 33;
  return h;
}

/* One more value into a chained hash: for the few items hashed one by one below. */
static inline guint64
chain (guint64 h, guint64 v)
{
  h ^= v;
  h *= 0xff51afd7ed558ccdull;
  return h ^ (h >> 33);
}

void
fl_semantic_hash_plain (const FlState *st, FlStateView view, Plain *p)
{
  const Masks *mk = fl_semantic_hash_masks ();
  const FlStateSizes *z = &st->sizes;
  const Plain r = {
    { (const guint8 *) z, (const guint8 *) st->g, (const guint8 *) st->cpus,
      (const guint8 *) st->stacks, (const guint8 *) st->vmas, (const guint8 *) st->tables,
      (const guint8 *) st->cache, (const guint8 *) st->cache_index, (const guint8 *) st->cbs },
    { sizeof *z, sizeof (FlGlobals), z->ncpus * sizeof (FlCpu), z->ncpus * sizeof (FlCpuStack),
      z->nvmas * sizeof (FlVma), z->ntables * sizeof (FlTable),
      z->ncache * sizeof (FlCacheEntry), z->ncache_index * sizeof (guint32),
      z->ncbs * sizeof (FlRcuCb) },
    { NULL, &mk->globals[view], &mk->cpu, NULL, NULL, NULL, NULL, NULL, &mk->cb },
  };
  *p = r;
}

/* What the arrays read whole add, through the copies kept beside @st
 * (fl-semantic-hash-kept.c): the kept view's, which the search asks at every state and the
 * marks keep, and the other view's, asked once per schedule and compared whole. */
static guint64
plain_sum (const FlState *st, FlStateView view, HashKept *kept)
{
  Plain p;
  fl_semantic_hash_plain (st, view, &p);
  return view == fl_hash_kept_view (kept) ? fl_hash_kept_plain (kept, st, &p)
                                          : fl_hash_kept_plain_other (kept, st, &p);
}

/* Every slot @t says may not be at rest read again at the next hash: what it added was of
 * the other view. */
static void
forget_sums (const FlTracked *t, guint count)
{
  FlTracked *w = (FlTracked *) t;   /* bookkeeping beside the state, as marked_add's */
  guint words = (count + 63) / 64;
  for (guint i = 0; i < words; i++)
    w->unhashed[i] |= w->written[i];
  for (guint s = 0; s < (words + 63) / 64; s++)
    w->touched[s] = G_MAXUINT64;
}

/**
 * fl_state_semantic_hash_keep:
 * @st: the state
 * @view: the view the hash keeps its sums, its copy and its log for
 *
 * A search that asks one view at every state has it kept: the commute view by default (the
 * partial-order checks), the outcome view for the states search, which matches states by
 * it. Changing it drops what was kept; the next hash reads every array again.
 */
void
fl_state_semantic_hash_keep (const FlState *st, FlStateView view)
{
  HashKept *kept = fl_hash_kept_of (st);
  if (fl_hash_kept_view (kept) == view)
    return;
  fl_hash_kept_reset (kept, view);
  forget_sums (&st->line_marks, st->sizes.nlines);
  forget_sums (&st->page_marks, st->sizes.npages);
}

/* Keeps what lines, tables and pages added beside @st (FlTracked), and what the other arrays
 * added (plain_sum): one state is hashed by one thread at a time (each of the explorer's has
 * its own simulation). */
guint64
fl_state_semantic_hash (const FlState *st, FlStateView view)
{
  const Masks *mk = fl_semantic_hash_masks ();
  const FlStateSizes *z = &st->sizes;
  HashKept *kept = fl_hash_kept_of (st);
  FlLine plain;
  fl_state_line_at_rest (st, FL_LINE_NONE, &plain);
  Pairs ps = { 0, plain_sum (st, view, kept) };
  gboolean is_kept = view == fl_hash_kept_view (kept);
  ps.sum += marked_add (st, &st->line_marks, z->nlines, is_kept, &mk->line[view], &plain,
                        fl_hash_kept_totals (kept, TRUE))
            + entries_of_live_tables (st)
            + marked_add (st, &st->page_marks, z->npages, is_kept, &mk->page[view], NULL,
                          fl_hash_kept_totals (kept, FALSE));
  guint64 h = pairs_finish (ps);

  /* the one order of step stamps that is state (see the top of the file) */
  for (guint c = 0; c < z->ncpus; c++)
    if (st->cpus[c].rcu_nesting > 0)
      for (guint i = 0; i < z->ncbs; i++)
        if (st->cbs[i].obj != 0)
          {
            guint64 before = st->cpus[c].rcu_since_step < st->cbs[i].queued_step;
            h = chain (h, ((guint64) c << 40) + ((guint64) i << 8) + before
                          + 0x9e3779b97f4a7c15ull);
          }
  return h;
}

/* fl-semantic-hash-kept.c — what the explorer's state hash keeps beside a state between two
 * hashes, so that the next reads only what changed.
 *
 * Besides the lines, entries and pages, the hash reads the sizes, the globals, the CPUs with
 * their stacks, the VMAs, tables, page cache and callbacks: about 7 KB at two CPUs, masked
 * and paired word by word, which was most of the explorer's time when it read them at every
 * state. A step writes a few words of them. So the state keeps beside it (FlState.plain_hash)
 * the bytes as the hash last read them and what their pairs added: the next hash compares
 * the bytes with that copy, a block at a time, and takes again only the pairs of the words
 * that differ. The sum is the same sum, pair for pair, so the hash is the same number. */
#include "fl-semantic-hash-private.h"

#define NO_WORD G_MAXUINT32

/* Word @w of a region of @bytes (the last one zero-extended, as load_tail() reads it). */
static inline guint64
region_word (const guint8 *base, gsize bytes, gsize w)
{
  return (w + 1) * 8 <= bytes ? load (base + w * 8) : load_tail (base + w * 8, bytes - w * 8);
}

/* One pair of the sum: its words in the copy (NO_WORD: a zero) and its key. */
typedef struct {
  guint32 a, b;
  guint64 key;
} Pair;

/* One block (g_free frees it): the layout of the sizes it was made for, then its arrays. */
typedef struct {
  FlStateSizes sizes;
  guint64  sum;                     /* what the pairs add */
  gsize    first[PLAIN_REGIONS];    /* each region's first word in the copy */
  gsize    words, npairs;
  struct _Log *log;                 /* HashKept.log while this layout is the one in use */
  guint64 *copy;                    /* the regions' bytes as last hashed, tails zero-extended */
  guint64 *keep;                    /* per word, the bits that count */
  guint32 *pair_of;                 /* per word, its pair */
  Pair    *pairs;
} PlainHash;

static inline guint64
pair_adds (const PlainHash *h, const Pair *p)
{
  guint64 a = p->a == NO_WORD ? 0 : h->copy[p->a] & h->keep[p->a];
  guint64 b = p->b == NO_WORD ? 0 : h->copy[p->b] & h->keep[p->b];
  return (a | b) != 0 ? mul_fold (a + p->key, b + (p->key ^ KEY_ODD)) : 0;
}

/* The layout pairs_words() gives: pairs in order, the last alone when @n is odd. Counts only
 * when @h is NULL. */
static void
lay_words (PlainHash *h, gsize *pair, guint64 *key, gsize word, gsize n, const guint64 *keep)
{
  for (gsize i = 0; i < n; i += 2, (*pair)++, *key += KEY_STEP)
    if (h != NULL)
      {
        guint32 b = i + 1 < n ? (guint32) (word + i + 1) : NO_WORD;
        h->pairs[*pair] = (Pair) { (guint32) (word + i), b, *key };
        h->keep[word + i] = keep ? keep[i] : G_MAXUINT64;
        h->pair_of[word + i] = (guint32) *pair;
        if (b != NO_WORD)
          {
            h->keep[b] = keep ? keep[i + 1] : G_MAXUINT64;
            h->pair_of[b] = (guint32) *pair;
          }
      }
}

/* How a region's words pair: a mask's periods one after the other (a mask repeats per slot
 * of the array), what is left of the last, then the tail's pair, the bytes past the last
 * whole word (whose key is taken even when there is no tail). Without a mask, every word. */
static void
lay_region (PlainHash *h, gsize *pair, guint64 *key, gsize word, gsize bytes, const Mask *m)
{
  gsize period = m ? m->period : 0, whole = m ? bytes / (period * 8) : 0;
  for (gsize o = 0; o < whole; o++, word += period)
    lay_words (h, pair, key, word, period, m->all);
  gsize rest = bytes - whole * period * 8;
  lay_words (h, pair, key, word, rest / 8, m ? m->all : NULL);
  word += rest / 8;
  if (h != NULL)
    {
      guint32 tail = rest % 8 ? (guint32) word : NO_WORD;
      h->pairs[*pair] = (Pair) { tail, NO_WORD, *key };
      if (tail != NO_WORD)
        {
          h->keep[tail] = m ? m->all[rest / 8] : G_MAXUINT64;
          h->pair_of[tail] = (guint32) *pair;
        }
    }
  (*pair)++;
  *key += KEY_STEP;
}

/* A copy of @st's regions laid out for its sizes, and their sum. */
static PlainHash *
plain_hash_new (const FlState *st, const Plain *p)
{
  gsize words = 0, npairs = 0, first[PLAIN_REGIONS];
  guint64 key = 0;
  for (guint r = 0; r < PLAIN_REGIONS; r++)
    {
      first[r] = words;
      words += (p->bytes[r] + 7) / 8;
      lay_region (NULL, &npairs, &key, 0, p->bytes[r], p->mask[r]);
    }
  gsize head = (sizeof (PlainHash) + 15) & ~(gsize) 15;
  guint8 *block = g_malloc (head + words * (8 + 8 + 4) + 8 + npairs * sizeof (Pair));
  PlainHash *h = (PlainHash *) block;
  h->sizes = st->sizes;
  h->words = words;
  h->log = NULL;
  h->npairs = npairs;
  memcpy (h->first, first, sizeof first);
  h->copy = (guint64 *) (block + head);
  h->keep = h->copy + words;
  h->pair_of = (guint32 *) (h->keep + words);
  h->pairs = (Pair *) (block + ((head + words * 20 + 7) & ~(gsize) 7));
  gsize pair = 0;
  key = PLAIN_FIRST_KEY;
  for (guint r = 0; r < PLAIN_REGIONS; r++)
    {
      lay_region (h, &pair, &key, first[r], p->bytes[r], p->mask[r]);
      for (gsize w = 0; w < (p->bytes[r] + 7) / 8; w++)
        h->copy[first[r] + w] = region_word (p->base[r], p->bytes[r], w);
    }
  h->sum = 0;
  for (gsize i = 0; i < npairs; i++)
    h->sum += pair_adds (h, &h->pairs[i]);
  return h;
}

/* Word @w of region @r changed to @now: its pair taken out of the sum, the copy updated, taken
 * back in. The pair's other word, if it changed too, is met in its turn: the sum always
 * matches the copy. */
/* A word of the copy as it was before a hash changed it (HashKept.log). */
typedef struct {
  guint64 was;
  gsize   word;
} Undo;

/* The words the hashes changed, oldest first: a stack, pushed for every word a hash takes
 * again (tens a step), so pushed inline. */
typedef struct _Log {
  Undo *undo;
  gsize len, room;
} Log;

static G_GNUC_NO_INLINE void
log_grow (Log *log)
{
  log->room = MAX (2 * log->room, 256);
  log->undo = g_renew (Undo, log->undo, log->room);
}

static inline void
plain_word_changed (PlainHash *h, guint r, gsize w, guint64 now)
{
  gsize at = h->first[r] + w;
  Log *log = h->log;
  if (log != NULL)
    {
      if (G_UNLIKELY (log->len == log->room))
        log_grow (log);
      log->undo[log->len++] = (Undo) { h->copy[at], at };
    }
  /* only bits left out changed (a clock, the step): the pair adds what it added */
  if (((now ^ h->copy[at]) & h->keep[at]) == 0)
    {
      h->copy[at] = now;
      return;
    }
  const Pair *pair = &h->pairs[h->pair_of[at]];
  h->sum -= pair_adds (h, pair);
  h->copy[at] = now;
  h->sum += pair_adds (h, pair);
}

/* Compared a block at a time (memcmp, vectorized), then four words at a time: a step leaves
 * most blocks as they were, and changes a few words in the others. */
#define BLOCK_BYTES 256

/* The regions' words that differ from the copy, taken again. */
static void
plain_hash_update (PlainHash *h, const Plain *p)
{
  for (guint r = 0; r < PLAIN_REGIONS; r++)
    {
      const guint8 *base = p->base[r];
      gsize bytes = p->bytes[r], whole = bytes / 8;
      const guint64 *copy = h->copy + h->first[r];
      for (gsize at = 0; at < bytes; at += BLOCK_BYTES)
        {
          gsize len = MIN (BLOCK_BYTES, bytes - at);
          if (memcmp (base + at, (const guint8 *) copy + at, len) == 0)
            continue;
          gsize w = at / 8, end = MIN (whole, (at + len) / 8);
          for (; w + 4 <= end; w += 4)
            {
              const guint8 *q = base + w * 8;
              guint64 a = load (q), b = load (q + 8), c = load (q + 16), d = load (q + 24);
              if (((a ^ copy[w]) | (b ^ copy[w + 1]) | (c ^ copy[w + 2]) | (d ^ copy[w + 3])) == 0)
                continue;
              guint64 now[4] = { a, b, c, d };
              for (guint i = 0; i < 4; i++)
                if (now[i] != copy[w + i])
                  plain_word_changed (h, r, w + i, now[i]);
            }
          /* the block's last few words, and the region's tail */
          for (; w < (at + len + 7) / 8; w++)
            {
              guint64 now = region_word (base, bytes, w);
              if (now != copy[w])
                plain_word_changed (h, r, w, now);
            }
        }
    }
}

/* The words of the blocks marked written since the last hash (FlPlainMarks) that differ from
 * the copy, taken again, the marks cleared: what a step wrote, not the 7 KB. The hash's
 * regions are the sizes (the same: the layout is), then the plain arrays in their order. */
static void
plain_hash_update_marked (PlainHash *h, const Plain *p, FlPlainMarks *m)
{
  /* only the arrays with a block marked: a step writes two or three of the eight */
  for (guint dirty = m->dirty; dirty != 0; dirty &= dirty - 1)
    {
      guint a = (guint) __builtin_ctz (dirty);
      guint r = a + 1;
      const guint8 *base = p->base[r];
      gsize bytes = p->bytes[r], words = (bytes + 7) / 8;
      const guint64 *copy = h->copy + h->first[r];
      guint64 *marks = m->unhashed[a];
      gsize n = ((bytes + FL_PLAIN_BLOCK - 1) / FL_PLAIN_BLOCK + 63) / 64;
      for (gsize k = 0; k < n; k++)
        {
          for (guint64 bits = marks[k]; bits != 0; bits &= bits - 1)
            {
              gsize w = (k * 64 + (gsize) __builtin_ctzll (bits)) * (FL_PLAIN_BLOCK / 8);
              gsize end = MIN (w + FL_PLAIN_BLOCK / 8, words);
              /* a whole block: its eight words compared at once into a bit each (a marked
               * block changes few of them), then those bits; else word by word to the
               * region's tail */
              if ((w + FL_PLAIN_BLOCK / 8) * 8 <= bytes)
                {
                  const guint8 *q = base + w * 8;
                  guint64 now[FL_PLAIN_BLOCK / 8];
                  guint differ = 0;
                  for (guint i = 0; i < FL_PLAIN_BLOCK / 8; i++)
                    {
                      now[i] = load (q + 8 * i);
                      differ |= (guint) (now[i] != copy[w + i]) << i;
                    }
                  for (; differ != 0; differ &= differ - 1)
                    {
                      guint i = (guint) __builtin_ctz (differ);
                      plain_word_changed (h, r, w + i, now[i]);
                    }
                  continue;
                }
              for (; w < end; w++)
                {
                  guint64 now = region_word (base, bytes, w);
                  if (now != copy[w])
                    plain_word_changed (h, r, w, now);
                }
            }
          marks[k] = 0;
        }
    }
  m->dirty = 0;
}

/* Whether the marks are on and fitted to the arrays @p reads: then they say what changed. */
static gboolean
marks_fit (const FlState *st, const Plain *p)
{
  if (!st->plain.on)
    return FALSE;
  for (guint a = 0; a < FL_PLAIN_N; a++)
    if (st->plain.bytes[a] != p->bytes[a + 1])
      return FALSE;
  return TRUE;
}

/* Every mark cleared: the copy is the arrays as they are. The marks are the hash's
 * bookkeeping kept beside the state, not the state, hence the casts from const here. */
static void
marks_clear (const FlState *st)
{
  FlPlainMarks *m = (FlPlainMarks *) &st->plain;
  for (guint dirty = m->dirty; dirty != 0; dirty &= dirty - 1)
    {
      guint a = (guint) __builtin_ctz (dirty);
      memset (m->unhashed[a], 0,
              ((m->bytes[a] + FL_PLAIN_BLOCK - 1) / FL_PLAIN_BLOCK + 63) / 64 * sizeof (guint64));
    }
  m->dirty = 0;
}

/* A search seeks back past the steps that grew an array (a checkpoint from before takes the
 * sizes back), so a state goes back and forth between a few layouts: a copy is kept for each
 * of the last few, the one used last first. */
#define LAYOUTS 4

struct _HashKept {
  /* which view the marks, the log and the totals serve: the commute view unless a search
   * chose another (the states search matches states by the outcome view) */
  gboolean   outcome_kept;
  PlainHash *layout[LAYOUTS];
  /* the other view's copies, read once per schedule: compared whole, never by the marks,
   * which are the kept view's */
  PlainHash *other[LAYOUTS];
  Totals     lines, pages;
  /* while logging: the words each hash changed in layout[0]'s copy, oldest first, and a
   * number that changes whenever layout[0] does (a point from before is no good then) */
  Log       *log;
  guint64    epoch;
};

HashKept *
fl_hash_kept_of (const FlState *st)
{
  if (st->plain_hash == NULL)
    /* beside the state, as FlTracked's sums are: not part of it (fl_state_clear frees it) */
    ((FlState *) st)->plain_hash = g_new0 (HashKept, 1);
  return st->plain_hash;
}

Totals *
fl_hash_kept_totals (HashKept *kept, gboolean lines)
{
  return lines ? &kept->lines : &kept->pages;
}

FlStateView
fl_hash_kept_view (const HashKept *kept)
{
  return kept->outcome_kept ? FL_STATE_OUTCOME : FL_STATE_COMMUTE;
}

void
fl_hash_kept_reset (HashKept *kept, FlStateView view)
{
  kept->outcome_kept = view == FL_STATE_OUTCOME;
  for (guint i = 0; i < LAYOUTS; i++)
    {
      g_clear_pointer (&kept->layout[i], g_free);
      g_clear_pointer (&kept->other[i], g_free);
    }
  /* 0 words: the next hash takes every total again */
  kept->lines.words = 0;
  kept->pages.words = 0;
  kept->epoch++;
  if (kept->log != NULL)
    kept->log->len = 0;
}

/* The copy among @layouts for @st's sizes, in @h, at index @at: made when there is none (in
 * the first free slot, else in place of the one used least recently). Returns whether it
 * was there, and so must be brought up to date. */
static gboolean
layout_take (PlainHash **layouts, const FlState *st, const Plain *p, PlainHash **h, guint *at)
{
  guint i = 0;
  while (i < LAYOUTS && layouts[i] != NULL
         && memcmp (&layouts[i]->sizes, &st->sizes, sizeof st->sizes) != 0)
    i++;
  if (i < LAYOUTS && layouts[i] != NULL)
    {
      *h = layouts[i];
      *at = i;
      return TRUE;
    }
  *at = MIN (i, LAYOUTS - 1);
  g_free (layouts[*at]);
  *h = plain_hash_new (st, p);
  return FALSE;
}

/* @h, at index @at of @layouts, first: the one used last. */
static void
layout_to_front (PlainHash **layouts, guint at, PlainHash *h)
{
  memmove (&layouts[1], &layouts[0], at * sizeof layouts[0]);
  layouts[0] = h;
}

guint64
fl_hash_kept_plain_other (HashKept *kept, const FlState *st, const Plain *p)
{
  PlainHash *h;
  guint i;
  if (layout_take (kept->other, st, p, &h, &i))
    plain_hash_update (h, p);
  layout_to_front (kept->other, i, h);
  return h->sum;
}

guint64
fl_hash_kept_plain (HashKept *kept, const FlState *st, const Plain *p)
{
  PlainHash *h;
  guint i;
  gboolean marked = marks_fit (st, p);
  if (layout_take (kept->layout, st, p, &h, &i))
    {
      /* the layout hashed last: its copy is of the last hash, and the marks say what was
       * written since */
      if (i == 0 && marked)
        {
          /* which clears the marks it read */
          plain_hash_update_marked (h, p, (FlPlainMarks *) &st->plain);
          marked = FALSE;
        }
      else
        plain_hash_update (h, p);
    }
  if (marked)
    marks_clear (st);
  if (i != 0)
    {
      /* another layout in use: what the log holds is of the one before */
      kept->epoch++;
      if (kept->layout[0] != NULL)
        kept->layout[0]->log = NULL;
      if (kept->log != NULL)
        kept->log->len = 0;
    }
  layout_to_front (kept->layout, i, h);
  h->log = kept->log;
  return h->sum;
}

void
fl_state_semantic_hash_log (const FlState *st, gboolean on)
{
  HashKept *kept = fl_hash_kept_of (st);
  if (on && kept->log == NULL)
    kept->log = g_new0 (Log, 1);
  else if (!on && kept->log != NULL)
    {
      g_free (kept->log->undo);
      g_clear_pointer (&kept->log, g_free);
    }
  kept->epoch++;
  if (kept->layout[0] != NULL)
    kept->layout[0]->log = kept->log;
}

FlHashPoint
fl_state_semantic_hash_point (const FlState *st)
{
  HashKept *kept = fl_hash_kept_of (st);
  FlHashPoint point = { kept->log ? kept->log->len : 0,
                        kept->layout[0] ? kept->layout[0]->sum : 0, kept->epoch };
  return point;
}

gboolean
fl_state_semantic_hash_back (const FlState *st, const FlHashPoint *point)
{
  HashKept *kept = fl_hash_kept_of (st);
  PlainHash *h = kept->layout[0];
  if (kept->log == NULL || h == NULL || point->epoch != kept->epoch
      || point->len > kept->log->len || !st->plain.on
      || memcmp (&h->sizes, &st->sizes, sizeof st->sizes) != 0)
    return FALSE;
  const Undo *u = kept->log->undo;
  for (gsize i = kept->log->len; i > point->len; i--)
    h->copy[u[i - 1].word] = u[i - 1].was;
  kept->log->len = point->len;
  h->sum = point->sum;
  marks_clear (st);
  return TRUE;
}

/* What fl_state_clear() calls to free FlState.plain_hash. */
void
fl_state_semantic_hash_clear (FlState *st)
{
  HashKept *kept = st->plain_hash;
  if (kept == NULL)
    return;
  for (guint i = 0; i < LAYOUTS; i++)
    {
      g_free (kept->layout[i]);
      g_free (kept->other[i]);
    }
  if (kept->log != NULL)
    g_free (kept->log->undo);
  g_free (kept->log);
  g_free (kept->lines.written);
  g_free (kept->lines.total);
  g_free (kept->pages.written);
  g_free (kept->pages.total);
  g_clear_pointer (&st->plain_hash, g_free);
}

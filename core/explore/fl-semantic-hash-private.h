#pragma once

/* What the explorer's state hash (fl-semantic-hash.c) shares with what it keeps beside a
 * state between two hashes (fl-semantic-hash-kept.c): the masks of the words that count, the
 * pairs' arithmetic, and the arrays read whole. Internal to the core. */

#include "fl-footprint.h"

#include <string.h>

G_BEGIN_DECLS

/* The bits of an array of objects the hash reads, as a pattern that repeats every `period`
 * words: objects whose size is not a multiple of 8 repeat their
 * pattern every few objects. The words with something kept are listed too: a line is read
 * by those. */
#define MASK_MAX_WORDS 512

typedef struct {
  guint32 offset;                 /* of the word in the period, bytes */
  guint64 keep;                   /* its bits that count */
  guint64 identity;               /* of those, a line's kind and object (lines only) */
} Word;

typedef struct {
  guint   period;                 /* words */
  guint64 all[MASK_MAX_WORDS];    /* the bits that count of each word of the period */
  guint   n;                      /* the words with some, listed (for lines) */
  Word    word[MASK_MAX_WORDS];
} Mask;

typedef struct {
  Mask globals[2], cpu, line[2], page[2], cb;
} Masks;

/* Built once, then only read (fl-semantic-hash.c). */
const Masks *fl_semantic_hash_masks (void);

/* The words two at a time: each pair offset by keys that change with its position,
 * multiplied into 128 bits, the two halves folded into one (wyhash's "mum"), and the folds
 * summed. One multiply per two words and no chain from one pair to the next, so the
 * multiplies overlap (one chained multiply per word was most of the explorer's time); the
 * keys are a Weyl sequence, so a value moved to another position changes the sum, and the
 * fold makes what one pair adds look random, so changes at two places do not cancel. */
#define KEY_STEP 0x9e3779b97f4a7c15ull   /* the Weyl sequence's increment: 2^64 / phi, odd */
#define KEY_ODD  0xbf58476d1ce4e5b9ull   /* the second word's key: the first's, xored */

static inline guint64
mul_fold (guint64 a, guint64 b)
{
#if defined(__SIZEOF_INT128__)
  unsigned __int128 p = (unsigned __int128) a * b;
  return (guint64) p ^ (guint64) (p >> 64);
#else
  guint64 al = (guint32) a, ah = a >> 32, bl = (guint32) b, bh = b >> 32;
  guint64 ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
  guint64 mid = (ll >> 32) + (guint32) lh + (guint32) hl;
  guint64 lo = (mid << 32) | (guint32) ll, hi = hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
  return lo ^ hi;
#endif
}

static inline guint64
load (const guint8 *p)
{
  guint64 w;
  memcpy (&w, p, 8);
  return w;
}

/* The last `bytes` (< 8) of a region, zero-extended: never read past its end. */
static inline guint64
load_tail (const guint8 *p, gsize bytes)
{
  guint64 w = 0;
  memcpy (&w, p, bytes);
  return w;
}

/* The arrays read whole (all but the lines, entries and pages), in the order hashed: where,
 * how many bytes, which bits count. */
#define PLAIN_REGIONS 9
/* the key of the first pair: the sizes' first two words */
#define PLAIN_FIRST_KEY 0xcbf29ce484222325ull

typedef struct {
  const guint8 *base[PLAIN_REGIONS];
  gsize         bytes[PLAIN_REGIONS];
  const Mask   *mask[PLAIN_REGIONS];   /* NULL: every bit */
} Plain;

void     fl_semantic_hash_plain (const FlState *st, FlStateView view, Plain *p);

/* Per 64 slots of a tracked array, the commute view keeps which were marked and what they
 * added in all when it last summed them, and the sum of those: that holds while the same
 * slots are marked and none was written since (FlTracked.unhashed), as for most of them at
 * most states, and FlTracked.touched says for which it may not. */
typedef struct {
  guint64 *written, *total;
  guint64  grand;               /* the totals summed */
  guint    words;
} Totals;

/* What the kept view (the commute view unless a search chose another:
 * fl_state_semantic_hash_keep) keeps beside a state (FlState.plain_hash), made on first use. */
typedef struct _HashKept HashKept;
HashKept *fl_hash_kept_of     (const FlState *st);
FlStateView fl_hash_kept_view (const HashKept *kept);
/* What the arrays of @p add, taken again only where they differ from the kept copy. */
guint64   fl_hash_kept_plain  (HashKept *kept, const FlState *st, const Plain *p);
/* The same for the other view's masks, from a copy of its own compared whole (the marks say
 * what changed since the kept view's last hash, not since this one's). */
guint64   fl_hash_kept_plain_other (HashKept *kept, const FlState *st, const Plain *p);
Totals   *fl_hash_kept_totals (HashKept *kept, gboolean lines);
/* The copies and totals dropped, for a new kept view (fl_state_semantic_hash_keep). */
void      fl_hash_kept_reset  (HashKept *kept, FlStateView view);

G_END_DECLS

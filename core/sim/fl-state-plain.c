/* fl-state-plain.c — which blocks of the plain arrays were written (FlPlainMarks).
 *
 * The globals, CPUs, stacks, VMAs, tables, page cache and callbacks are about 7 KB at two
 * CPUs, of which a step writes a few words. The explorer asks after every step what changed:
 * its hash compared all of them with a copy, and a step's journal copied all of them, three
 * passes over 7 KB per step, most of its time. While the marks are on, every pointer that
 * the accessors of fl-state.h hand out for writing marks its 64-byte blocks instead: the
 * hash compares only those, and the journal keeps only those (fl_state_journal_block). The
 * marks are exact because the arrays are const in FlState: nothing writes them but through
 * an accessor, or here, in fl-state.c (which marks what it writes whole), and in the journal
 * (which marks what it puts back). */
#include "fl-state.h"

#include <string.h>

static gsize
blocks_of (gsize bytes)
{
  return (bytes + FL_PLAIN_BLOCK - 1) / FL_PLAIN_BLOCK;
}

static gsize
words_of (gsize bytes)
{
  return MAX ((blocks_of (bytes) + 63) / 64, 1);
}

/* Every block of array @a marked (the bits past its last block stay clear). */
static void
mark_whole (FlPlainMarks *m, guint a)
{
  gsize blocks = blocks_of (m->bytes[a]);
  m->dirty |= 1u << a;
  memset (m->unhashed[a], 0xff, words_of (m->bytes[a]) * sizeof (guint64));
  if (blocks % 64)
    m->unhashed[a][blocks / 64] = (G_GUINT64_CONSTANT (1) << (blocks % 64)) - 1;
  else if (blocks == 0)
    m->unhashed[a][0] = 0;
}

/* The bitmaps sized to the arrays as they are: an array whose size changed is marked whole
 * (a grown one has new slots, a shrunk one was reallocated); which journal keeps each block
 * is kept for the blocks an array keeps, so that no block is kept twice in one journal. */
static void
fit (FlState *st, gboolean all)
{
  guint8 *base[FL_STATE_UNTRACKED_MAX];
  gsize bytes[FL_STATE_UNTRACKED_MAX];
  guint n = fl_state_untracked (st, base, bytes);
  FlPlainMarks *m = &st->plain;
  g_assert (n == FL_PLAIN_N);
  for (guint a = 0; a < FL_PLAIN_N; a++)
    {
      /* the state's block order (fl-state.c) is FlPlainArray's */
      gsize len;
      const guint8 *first = fl_state_plain_block (st, a, 0, &len);
      g_assert (first == base[a]);
      if (!all && m->unhashed[a] != NULL && bytes[a] == m->bytes[a])
        continue;
      gsize had = m->unhashed[a] != NULL ? blocks_of (m->bytes[a]) : 0;
      gsize blocks = blocks_of (bytes[a]);
      m->unhashed[a] = g_renew (guint64, m->unhashed[a], words_of (bytes[a]));
      m->journaled[a] = g_renew (guint32, m->journaled[a], MAX (blocks, 1));
      if (blocks > had)
        memset (m->journaled[a] + had, 0, (blocks - had) * sizeof (guint32));
      m->bytes[a] = bytes[a];
      mark_whole (m, a);
    }
}

void
fl_state_plain_marking (FlState *st, gboolean on)
{
  st->plain.on = on;
  if (on)
    fit (st, TRUE);
}

void
fl_state_plain_resized (FlState *st)
{
  if (st->plain.on)
    fit (st, FALSE);
}

void
fl_state_plain_mark_all (FlState *st)
{
  if (st->plain.on)
    fit (st, TRUE);
}

void
fl_state_plain_clear (FlState *st)
{
  for (guint a = 0; a < FL_PLAIN_N; a++)
    {
      g_clear_pointer (&st->plain.unhashed[a], g_free);
      g_clear_pointer (&st->plain.journaled[a], g_free);
    }
  memset (&st->plain, 0, sizeof st->plain);
}

guint8 *
fl_state_plain_block (FlState *st, FlPlainArray a, gsize block, gsize *len)
{
  const void *base;
  switch (a)
    {
    case FL_PLAIN_GLOBALS: base = st->g; break;
    case FL_PLAIN_CPUS: base = st->cpus; break;
    case FL_PLAIN_STACKS: base = st->stacks; break;
    case FL_PLAIN_VMAS: base = st->vmas; break;
    case FL_PLAIN_TABLES: base = st->tables; break;
    case FL_PLAIN_CACHE: base = st->cache; break;
    case FL_PLAIN_CACHE_INDEX: base = st->cache_index; break;
    case FL_PLAIN_CBS: default: base = st->cbs; break;
    }
  gsize at = block * FL_PLAIN_BLOCK;
  *len = at < st->plain.bytes[a] ? MIN (FL_PLAIN_BLOCK, st->plain.bytes[a] - at) : 0;
  return (guint8 *) base + at;
}

guint32
fl_state_plain_journal_begin (FlState *st)
{
  FlPlainMarks *m = &st->plain;
  if (!m->on)
    fl_state_plain_marking (st, TRUE);
  /* a new number for the new journal: no block is kept by it yet (0 is none's) */
  if (++m->journal == 0)
    {
      for (guint a = 0; a < FL_PLAIN_N; a++)
        memset (m->journaled[a], 0, MAX (blocks_of (m->bytes[a]), 1) * sizeof (guint32));
      m->journal = 1;
    }
  return m->journal;
}

void
fl_plain_mark (FlState *st, FlPlainArray a, const void *base, gsize offset, gsize bytes)
{
  FlPlainMarks *m = &st->plain;
  if (bytes == 0)
    return;
  gsize first = offset / FL_PLAIN_BLOCK, last = (offset + bytes - 1) / FL_PLAIN_BLOCK;
  m->dirty |= 1u << a;
  for (gsize b = first; b <= last; b++)
    {
      m->unhashed[a][b / 64] |= G_GUINT64_CONSTANT (1) << (b % 64);
      if (st->journal != NULL && m->journaled[a][b] != m->journal)
        {
          m->journaled[a][b] = m->journal;
          fl_state_journal_block (st, a, base, b);
        }
    }
}

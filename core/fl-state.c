/* fl-state.c — the machine state as one block of plain data. */
#include "fl-state.h"

#include <string.h>

/* Lay the arrays out one after the other, each aligned to 16 bytes, inside one block. */
static gsize
place (gsize *offset, gsize count, gsize size)
{
  gsize at = (*offset + 15) & ~(gsize) 15;
  *offset = at + count * size;
  return at;
}

static void
point (FlState *st)
{
  gsize off = 0;
  const FlStateSizes *z = &st->sizes;
  guint8 *b = st->block;
  st->g = (FlGlobals *) (b + place (&off, 1, sizeof (FlGlobals)));
  st->cpus = (FlCpu *) (b + place (&off, z->ncpus, sizeof (FlCpu)));
  st->lines = (FlLine *) (b + place (&off, z->nlines, sizeof (FlLine)));
  st->vmas = (FlVma *) (b + place (&off, z->nvmas, sizeof (FlVma)));
  st->tables = (FlTable *) (b + place (&off, z->ntables, sizeof (FlTable)));
  st->ptes = (guint64 *) (b + place (&off, (gsize) z->ntables * FL_PTRS_PER_TABLE, sizeof (guint64)));
  st->pages = (FlPage *) (b + place (&off, z->npages, sizeof (FlPage)));
  st->cache = (FlCacheEntry *) (b + place (&off, z->ncache, sizeof (FlCacheEntry)));
  st->cbs = (FlRcuCb *) (b + place (&off, z->ncbs, sizeof (FlRcuCb)));
  st->bytes = off;
}

/**
 * fl_state_init:
 * @st: the state to lay out
 * @sizes: how many of each object it holds
 *
 * Allocates one zeroed block for everything. Id 0 of every array is reserved for "none".
 */
void
fl_state_init (FlState *st, const FlStateSizes *sizes)
{
  memset (st, 0, sizeof *st);
  st->sizes = *sizes;
  point (st);
  st->block = g_malloc0 (st->bytes);
  point (st);
}

void
fl_state_clear (FlState *st)
{
  g_clear_pointer (&st->block, g_free);
}

/* Both states must have the same sizes: they come from the same simulation. */
void
fl_state_copy (FlState *dst, const FlState *src)
{
  g_assert (dst->bytes == src->bytes);
  memcpy (dst->block, src->block, src->bytes);
}

/**
 * fl_state_hash:
 * @st: a state
 *
 * Returns: a 64-bit hash of every byte of the state; equal states hash equal.
 */
guint64
fl_state_hash (const FlState *st)
{
  guint64 h = 0xcbf29ce484222325ull;
  const guint64 *words = (const guint64 *) st->block;
  gsize n = st->bytes / 8;
  for (gsize i = 0; i < n; i++)
    {
      h ^= words[i];
      h *= 0x100000001b3ull;
      h ^= h >> 29;
    }
  for (gsize i = n * 8; i < st->bytes; i++)
    h = (h ^ st->block[i]) * 0x100000001b3ull;
  return h;
}

/* fl-state.c — the machine state as plain data: one array per kind of object, grown on
 * demand, and the one block a checkpoint copies. */
#include "fl-state.h"
#include "fl-footprint.h"

#include <stddef.h>
#include <string.h>

/* Arrays at least double when they grow, so a run of n allocations copies O(n) slots. */
#define FIRST_CAPACITY 16u

/* What a slot of an array holds before anything wrote it: zeros, or for a line what
 * fl_state_line_at_rest() says. Whether a slot is so, and making it so. */
typedef struct {
  gboolean (*is) (const FlState *st, gsize slot, const guint8 *bytes);
  void     (*make) (const FlState *st, gsize slot, guint8 *bytes);
} Rest;

static gboolean line_is_at_rest (const FlState *st, gsize slot, const guint8 *bytes);
static void line_make_rest (const FlState *st, gsize slot, guint8 *bytes);
static const Rest line_rest = { line_is_at_rest, line_make_rest };

/* One array of the state as a region of the block: where, how many, how big. The lines and
 * the page tables' entries are most of the state's bytes (a line 144, a table 4 KiB, for the
 * capacity past those in use too), and most of their slots stay as they were made: those two
 * are tracked (FlTracked), with their `rest`. */
typedef struct {
  gpointer  *base;
  gsize      count;
  gsize      size;
  FlTracked *tracked;       /* NULL: a plain region */
  const Rest *rest;         /* NULL: zeros */
} Region;

#define FL_STATE_REGIONS 11

/* Filled in place, field by field: every checkpoint and seek asks twice, and a table built
 * on the stack and copied out was 7% of their instructions. */
static guint
regions (FlState *st, const FlStateSizes *z, Region out[FL_STATE_REGIONS])
{
  out[0] = (Region) { (gpointer *) &st->g, 1, sizeof (FlGlobals), NULL, NULL };
  out[1] = (Region) { (gpointer *) &st->cpus, z->ncpus, sizeof (FlCpu), NULL, NULL };
  out[2] = (Region) { (gpointer *) &st->stacks, z->ncpus, sizeof (FlCpuStack), NULL, NULL };
  out[3] = (Region) { (gpointer *) &st->lines, z->nlines, sizeof (FlLine), &st->line_marks,
                      &line_rest };
  out[4] = (Region) { (gpointer *) &st->vmas, z->nvmas, sizeof (FlVma), NULL, NULL };
  out[5] = (Region) { (gpointer *) &st->tables, z->ntables, sizeof (FlTable), NULL, NULL };
  out[6] = (Region) { (gpointer *) &st->ptes, z->ntables, FL_PTRS_PER_TABLE * sizeof (guint64),
                      &st->pte_marks, NULL };
  out[7] = (Region) { (gpointer *) &st->pages, z->npages, sizeof (FlPage), &st->page_marks,
                      NULL };
  out[8] = (Region) { (gpointer *) &st->cache, z->ncache, sizeof (FlCacheEntry), NULL, NULL };
  out[9] = (Region) { (gpointer *) &st->cache_index, z->ncache_index, sizeof (guint32), NULL,
                      NULL };
  out[10] = (Region) { (gpointer *) &st->cbs, z->ncbs, sizeof (FlRcuCb), NULL, NULL };
  return FL_STATE_REGIONS;
}

guint
fl_state_untracked (FlState *st, guint8 **base, gsize *bytes)
{
  Region r[FL_STATE_REGIONS];
  guint n = 0;
  regions (st, &st->sizes, r);
  for (guint i = 0; i < FL_STATE_REGIONS; i++)
    if (r[i].tracked == NULL)
      {
        base[n] = *r[i].base;
        bytes[n++] = r[i].count * r[i].size;
      }
  g_assert (n <= FL_STATE_UNTRACKED_MAX);
  return n;
}

gboolean
fl_state_shrink_untracked (FlState *st, const FlStateSizes *to)
{
  Region now[FL_STATE_REGIONS], was[FL_STATE_REGIONS];
  regions (st, &st->sizes, now);
  regions (st, to, was);
  /* the lines' layout and the tracked arrays must be as they were */
  FlStateSizes same = *to;
  same.ncbs = st->sizes.ncbs;
  same.ncache = st->sizes.ncache;
  same.ncache_index = st->sizes.ncache_index;
  if (memcmp (&same, &st->sizes, sizeof same) != 0)
    return FALSE;
  for (guint i = 0; i < FL_STATE_REGIONS; i++)
    {
      g_assert (now[i].tracked == NULL || now[i].count == was[i].count);
      if (now[i].count != was[i].count)
        *now[i].base = g_realloc (*now[i].base, MAX (was[i].count * was[i].size, 1));
    }
  st->sizes = *to;
  fl_state_plain_resized (st);
  return TRUE;
}

/* Each array begins 16-byte aligned in the block. */
static gsize
align (gsize offset)
{
  return (offset + 15) & ~(gsize) 15;
}

/* A region with a bitmap is, in the block, a bit per slot, set for the slots that follow, in
 * order; the others are at rest. Which slots may not be is known without reading them, so a
 * checkpoint reads, and a seek writes, only those. */
static gsize
bitmap_bytes (gsize count)
{
  return (count + 63) / 64 * 8;
}

static gboolean
is_marked (const guint64 *bits, gsize k)
{
  return (bits[k / 64] >> (k % 64)) & 1;
}

/* Every word of the bitmaps of @count slots touched: what the hash kept of them is stale. */
static void
touch_all (FlTracked *t, gsize count)
{
  gsize words = (count + 4095) / 4096;
  t->touched = g_realloc_n (t->touched, MAX (words, 1), sizeof (guint64));
  memset (t->touched, 0xff, MAX (words, 1) * sizeof (guint64));
}

/* The bits and sums of @count slots, the bits clear (slots at rest add nothing to the hash),
 * or grown from @have slots to @count (the new ones at rest too; bits past the slots are
 * always clear). */
static void
tracked_grow (FlTracked *t, gsize have, gsize count)
{
  gsize was = bitmap_bytes (have), bytes = MAX (bitmap_bytes (count), 8);
  t->written = g_realloc (t->written, bytes);
  t->unhashed = g_realloc (t->unhashed, bytes);
  memset ((guint8 *) t->written + was, 0, bytes - was);
  memset ((guint8 *) t->unhashed + was, 0, bytes - was);
  t->sum = g_realloc_n (t->sum, MAX (count, 1), sizeof (guint64));
  memset (t->sum + have, 0, (MAX (count, 1) - have) * sizeof (guint64));
  touch_all (t, count);
  t->version = g_realloc_n (t->version, MAX (count, 1), sizeof (guint64));
  memset (t->version + have, 0, (MAX (count, 1) - have) * sizeof (guint64));
}

static void
tracked_clear (FlTracked *t)
{
  g_clear_pointer (&t->written, g_free);
  g_clear_pointer (&t->unhashed, g_free);
  g_clear_pointer (&t->touched, g_free);
  g_clear_pointer (&t->sum, g_free);
  g_clear_pointer (&t->version, g_free);
}

/* A number no other state of the process has had. */
static guint64
new_identity (void)
{
  static guint64 last;
  return __atomic_add_fetch (&last, 1, __ATOMIC_RELAXED);
}

/* The block begins with the state's identity and a version for each of its tracked slots
 * (those of the slots kept): fl_state_hash leaves them out, being no part of the state. */
static gsize
header_bytes (const FlStateSizes *z)
{
  return align (8 + 8 * ((gsize) z->nlines + z->ntables + z->npages));
}

static const guint64 zero_slot[FL_PTRS_PER_TABLE];

/* Whether slot @k of @r is as it was made (zeros: memcmp, which the C library vectorizes at
 * any optimization level). */
static gboolean
at_rest (const FlState *st, const Region *r, gsize k, const guint8 *slot)
{
  if (r->rest != NULL)
    return r->rest->is (st, k, slot);
  g_assert (r->size <= sizeof zero_slot);
  return memcmp (slot, zero_slot, r->size) == 0;
}

static void
make_rest (const FlState *st, const Region *r, gsize k, guint8 *slot)
{
  if (r->rest != NULL)
    r->rest->make (st, k, slot);
  else
    memset (slot, 0, r->size);
}

/* The most a block of the state takes: every slot kept. */
gsize
fl_state_bytes (const FlStateSizes *sizes)
{
  FlState dummy;
  Region r[FL_STATE_REGIONS];
  gsize off = header_bytes (sizes);
  guint n = regions (&dummy, sizes, r);
  for (guint i = 0; i < n; i++)
    off = align (off) + (r[i].tracked ? bitmap_bytes (r[i].count) : 0) + r[i].count * r[i].size;
  return off;
}

/**
 * fl_state_init:
 * @st: the state to lay out
 * @sizes: how many of each object it holds at first
 *
 * Allocates every array zeroed, the lines set up. Id 0 of every array is reserved for "none".
 */
void
fl_state_init (FlState *st, const FlStateSizes *sizes)
{
  Region r[FL_STATE_REGIONS];
  memset (st, 0, sizeof *st);
  st->sizes = *sizes;
  st->identity = new_identity ();
  guint n = regions (st, sizes, r);
  for (guint i = 0; i < n; i++)
    {
      *r[i].base = g_malloc0 (MAX (r[i].count * r[i].size, 1));
      if (r[i].tracked == NULL)
        continue;
      tracked_grow (r[i].tracked, 0, r[i].count);
      for (gsize k = 0; r[i].rest != NULL && k < r[i].count; k++)
        make_rest (st, &r[i], k, (guint8 *) *r[i].base + k * r[i].size);
    }
}

void
fl_state_clear (FlState *st)
{
  Region r[FL_STATE_REGIONS];
  guint n = regions (st, &st->sizes, r);
  for (guint i = 0; i < n; i++)
    {
      g_clear_pointer (r[i].base, g_free);
      if (r[i].tracked)
        tracked_clear (r[i].tracked);
    }
  fl_state_plain_clear (st);
  fl_state_semantic_hash_clear (st);
}

/* Writes at most fl_state_bytes(): fewer when lines and page tables are at rest.
 * Returns: the bytes written; the state's own start at @content. */
static gsize
save (const FlState *st, guint8 *block, gsize *content)
{
  Region r[FL_STATE_REGIONS];
  gsize off = header_bytes (&st->sizes);
  guint64 *versions = (guint64 *) block;   /* only the kept slots' are written, and read */
  versions[0] = st->identity;
  versions++;
  *content = off;
  guint n = regions ((FlState *) st, &st->sizes, r);
  for (guint i = 0; i < n; i++)
    {
      gsize at = align (off), len = r[i].count * r[i].size;
      memset (block + off, 0, at - off);
      off = at;
      if (!r[i].tracked)
        {
          memcpy (block + off, *r[i].base, len);
          off += len;
          continue;
        }
      guint64 *kept = (guint64 *) (block + off);
      memset (kept, 0, bitmap_bytes (r[i].count));
      off += bitmap_bytes (r[i].count);
      const guint8 *slots = *r[i].base;
      /* only the slots marked written may not be at rest: a word of the bitmap at a time */
      for (gsize w = 0; w < (r[i].count + 63) / 64; w++)
        for (guint64 bits = r[i].tracked->written[w]; bits != 0; bits &= bits - 1)
          {
            gsize k = w * 64 + (gsize) __builtin_ctzll (bits);
            if (at_rest (st, &r[i], k, slots + k * r[i].size))
              continue;
            kept[k / 64] |= G_GUINT64_CONSTANT (1) << (k % 64);
            versions[k] = r[i].tracked->version[k];
            memcpy (block + off, slots + k * r[i].size, r[i].size);
            off += r[i].size;
          }
      versions += r[i].count;
    }
  return off;
}

void
fl_state_save (const FlState *st, guint8 *block)
{
  gsize content;
  save (st, block, &content);
}

/* Takes the sizes of the block: a checkpoint from before an array grew shrinks it back, so
 * the state after a seek is the one the run had, capacities included. */
void
fl_state_restore (FlState *st, const FlStateSizes *sizes, const guint8 *block)
{
  Region r[FL_STATE_REGIONS], had[FL_STATE_REGIONS];
  gsize off = header_bytes (sizes);
  const guint64 *versions = (const guint64 *) block;
  /* where the lines lie is set once per simulation (fl_line_of_*): another layout is
   * another machine, nothing of whose slots is known */
  gboolean fresh = st->g == NULL || st->sizes.line_vmas != sizes->line_vmas
                   || st->sizes.line_tables != sizes->line_tables
                   || st->sizes.line_refs != sizes->line_refs
                   || st->sizes.line_nodes != sizes->line_nodes
                   || st->sizes.line_memcg != sizes->line_memcg;
  /* a journal holds one step from the state as it was: not from this one */
  st->journal = NULL;
  if (st->g == NULL)
    st->identity = new_identity ();
  /* a checkpoint of this state's: its versions are comparable with the state's */
  gboolean own = versions[0] == st->identity;
  versions++;
  regions (st, &st->sizes, had);
  st->sizes = *sizes;
  guint n = regions (st, sizes, r);
  for (guint i = 0; i < n; i++)
    {
      gsize len = r[i].count * r[i].size;
      off = align (off);
      /* a seek back within the same capacity of an array (the explorer's, thousands a second)
       * keeps it where it is, and what is known of its slots */
      gboolean same = !fresh && had[i].count == r[i].count;
      if (!same)
        *r[i].base = g_realloc (*r[i].base, MAX (len, 1));
      if (!r[i].tracked)
        {
          memcpy (*r[i].base, block + off, len);
          off += len;
          continue;
        }
      /* a slot the restore writes is marked for the hash; one the same already is not (most
       * are: a seek goes back a few steps, and its versions say so), nor one at rest that
       * stays so. Slots from another state take new versions. */
      FlTracked *t = r[i].tracked;
      gsize bits = bitmap_bytes (r[i].count);
      if (!same)
        {
          tracked_grow (t, 0, r[i].count);
          for (gsize k = 0; k < r[i].count; k++)   /* new slots hold anything */
            t->unhashed[k / 64] |= G_GUINT64_CONSTANT (1) << (k % 64);
        }
      const guint64 *kept = (const guint64 *) (block + off);
      off += bits;
      guint8 *slots = *r[i].base;
      /* the same array keeps its slots: only those kept or marked written can differ, a
       * word of the bitmaps at a time; another array takes every slot */
      for (gsize w = 0; w < (r[i].count + 63) / 64; w++)
        {
          guint64 todo = same ? kept[w] | t->written[w] : G_MAXUINT64;
          for (; todo != 0; todo &= todo - 1)
            {
              gsize k = w * 64 + (gsize) __builtin_ctzll (todo);
              if (k >= r[i].count)
                break;
              guint8 *slot = slots + k * r[i].size;
              if (is_marked (kept, k))
                {
                  if (!same || !own || t->version[k] != versions[k])
                    {
                      memcpy (slot, block + off, r[i].size);
                      t->unhashed[k / 64] |= G_GUINT64_CONSTANT (1) << (k % 64);
                      t->version[k] = own ? versions[k] : ++t->next;
                    }
                  off += r[i].size;
                }
              else if (!same || !at_rest (st, &r[i], k, slot))
                {
                  make_rest (st, &r[i], k, slot);
                  t->unhashed[k / 64] |= G_GUINT64_CONSTANT (1) << (k % 64);
                  t->version[k] = 0;
                }
            }
        }
      memcpy (t->written, kept, bits);
      touch_all (t, r[i].count);
      versions += r[i].count;
    }
  /* the plain arrays were written whole */
  fl_state_plain_mark_all (st);
}

/* @dst takes the sizes of @src: states of one simulation differ in size as its arrays grow. */
void
fl_state_copy (FlState *dst, const FlState *src)
{
  gsize bytes = fl_state_bytes (&src->sizes);
  g_autofree guint8 *block = g_malloc (bytes);
  fl_state_save (src, block);
  fl_state_restore (dst, &src->sizes, block);
}

/**
 * fl_state_hash:
 * @st: a state
 *
 * Returns: a 64-bit hash of the state as fl_state_save() writes it, sizes included: equal
 *   states hash equal (the block is the same bytes for the same state).
 */
guint64
fl_state_hash (const FlState *st)
{
  g_autofree guint8 *whole = g_malloc (fl_state_bytes (&st->sizes));
  gsize content, end = save (st, whole, &content);
  const guint8 *block = whole + content;
  gsize bytes = end - content;
  guint64 h = 0xcbf29ce484222325ull;
  const guint64 *words = (const guint64 *) block;
  gsize n = bytes / 8;
  for (gsize i = 0; i < n; i++)
    {
      h ^= words[i];
      h *= 0x100000001b3ull;
      h ^= h >> 29;
    }
  for (gsize i = n * 8; i < bytes; i++)
    h = (h ^ block[i]) * 0x100000001b3ull;
  return h;
}

/* The capacity that holds `id`: doubled until it does, never past `max` + 1 slots. */
static guint
grown (guint have, guint32 id, guint max)
{
  guint cap = MAX (have, FIRST_CAPACITY);
  while (cap <= id && cap <= max)
    cap = cap > G_MAXUINT / 2 ? G_MAXUINT : cap * 2;
  return MIN (cap, max + 1);
}

static gpointer
resize (gpointer array, gsize size, guint have, guint cap)
{
  array = g_realloc_n (array, cap, size);
  memset ((guint8 *) array + (gsize) have * size, 0, (gsize) (cap - have) * size);
  return array;
}

/* A line's kind and object follow from its id (fl_line_of_*). */
void
fl_state_line_identity (const FlState *st, guint l, guint8 *kind, guint32 *obj)
{
  const FlStateSizes *z = &st->sizes;
  guint first = fl_line_objects (st);
  *kind = FL_LINE_KIND_FIXED;
  *obj = 0;
  if (l < first)
    return;   /* fixed lines and the nodes' zone lines */
  if (l < first + z->line_vmas)
    *kind = FL_LINE_KIND_VMA, *obj = l - first;
  else if (l < first + z->line_vmas + z->line_tables)
    *kind = FL_LINE_KIND_TABLE, *obj = l - first - z->line_vmas;
  else if (l < first + z->line_vmas + 2 * z->line_tables)
    *kind = FL_LINE_KIND_PTL, *obj = l - first - z->line_vmas - z->line_tables;
  else if (l < fl_line_extra (st))
    *kind = FL_LINE_KIND_VMA_REF, *obj = l - first - z->line_vmas - 2 * z->line_tables;
  else
    {
      static const guint8 kinds[4] = { FL_LINE_KIND_VMA, FL_LINE_KIND_TABLE, FL_LINE_KIND_PTL,
                                       FL_LINE_KIND_VMA_REF };
      guint stride = fl_line_stride (st);
      guint k = (l - fl_line_extra (st)) / stride, which = (l - fl_line_extra (st)) % stride;
      *kind = kinds[which];
      *obj = k + (which == 0 ? z->line_vmas : which == 3 ? z->line_refs : z->line_tables);
    }
  /* id 0 of VMAs and tables is "none": its lines stay plain */
  if (*obj == 0)
    *kind = FL_LINE_KIND_FIXED;
}

/* Nobody holds it, and all but its kind and object is zero (padding too: static storage). */
static const FlLine untouched = { .owner = -1 };

void
fl_state_line_at_rest (const FlState *st, guint l, FlLine *line)
{
  memcpy (line, &untouched, sizeof *line);
  fl_state_line_identity (st, l, &line->kind, &line->obj);
}

/* The bytes before the kind and after the object first: a line anyone touched differs there
 * at once (its busy_until, its holders). */
static gboolean
line_is_at_rest (const FlState *st, gsize slot, const guint8 *bytes)
{
  const gsize kind = offsetof (FlLine, kind), past = offsetof (FlLine, obj) + sizeof (guint32);
  G_STATIC_ASSERT (offsetof (FlLine, obj) > offsetof (FlLine, kind));
  if (memcmp (bytes, &untouched, kind) != 0
      || memcmp (bytes + past, (const guint8 *) &untouched + past, sizeof (FlLine) - past) != 0)
    return FALSE;
  FlLine rest;
  fl_state_line_at_rest (st, (guint) slot, &rest);
  return memcmp (bytes + kind, (const guint8 *) &rest + kind, past - kind) == 0;
}

static void
line_make_rest (const FlState *st, gsize slot, guint8 *bytes)
{
  FlLine rest;
  fl_state_line_at_rest (st, (guint) slot, &rest);
  memcpy (bytes, &rest, sizeof rest);
}

/* Grows *array, of *n slots of `size` bytes, to hold slot `id` (at most `max`).
 * Returns: whether it grew. */
static gboolean
need (gpointer *array, guint *n, gsize size, guint32 id, guint max)
{
  guint have = *n;
  g_assert (id <= max);
  if (id < have)
    return FALSE;
  guint cap = grown (have, id, max);
  *array = resize (*array, size, have, cap);
  *n = cap;
  return TRUE;
}

static void
need_line (FlState *st, guint l)
{
  guint have = st->sizes.nlines;
  if (!need ((gpointer *) &st->lines, &st->sizes.nlines, sizeof (FlLine), l, G_MAXUINT - 1))
    return;
  for (guint i = have; i < st->sizes.nlines; i++)
    fl_state_line_at_rest (st, i, (FlLine *) &st->lines[i]);
  tracked_grow (&st->line_marks, have, st->sizes.nlines);
}

/* Lines exist for every slot below a capacity: the painters and counters walk them all. */
void
fl_state_need_vma (FlState *st, guint32 id)
{
  if (need ((gpointer *) &st->vmas, &st->sizes.nvmas, sizeof (FlVma), id, FL_MAX_VMAS))
    {
      fl_state_plain_resized (st);
      need_line (st, fl_line_of_vma (st, st->sizes.nvmas - 1));
      if (st->sizes.line_refs)
        need_line (st, fl_line_of_vma_ref (st, st->sizes.nvmas - 1));
    }
}

void
fl_state_need_table (FlState *st, guint32 id)
{
  guint have = st->sizes.ntables;
  if (!need ((gpointer *) &st->tables, &st->sizes.ntables, sizeof (FlTable), id, FL_MAX_TABLES))
    return;
  fl_state_plain_resized (st);
  st->ptes = resize (st->ptes, FL_PTRS_PER_TABLE * sizeof (guint64), have, st->sizes.ntables);
  tracked_grow (&st->pte_marks, have, st->sizes.ntables);
  need_line (st, fl_line_of_table (st, st->sizes.ntables - 1));
  need_line (st, fl_line_of_ptl (st, st->sizes.ntables - 1));
}

void
fl_state_need_page (FlState *st, guint32 id)
{
  guint have = st->sizes.npages;
  if (need ((gpointer *) &st->pages, &st->sizes.npages, sizeof (FlPage), id, FL_MAX_PAGES))
    tracked_grow (&st->page_marks, have, st->sizes.npages);
}

/* A cache entry has a page of its own, an RCU callback a VMA of its own. */
void
fl_state_need_cache (FlState *st, guint32 id)
{
  if (need ((gpointer *) &st->cache, &st->sizes.ncache, sizeof (FlCacheEntry), id, FL_MAX_PAGES))
    fl_state_plain_resized (st);
}

void
fl_state_need_cb (FlState *st, guint32 id)
{
  if (need ((gpointer *) &st->cbs, &st->sizes.ncbs, sizeof (FlRcuCb), id, FL_MAX_VMAS))
    fl_state_plain_resized (st);
}

void
fl_state_index_cache (FlState *st, guint32 used)
{
  guint size = MAX (st->sizes.ncache_index, FIRST_CAPACITY);
  while (size < 2 * (used + 1))
    size *= 2;
  guint32 *index = g_renew (guint32, (guint32 *) st->cache_index, size);
  memset (index, 0, size * sizeof (guint32));
  st->cache_index = index;
  st->sizes.ncache_index = size;
  for (guint32 i = 1; i <= used; i++)
    {
      guint32 h = fl_cache_hash (st->cache[i].file, st->cache[i].pgoff) & (size - 1);
      while (index[h] != 0)
        h = (h + 1) & (size - 1);
      index[h] = i;
    }
  /* written whole */
  fl_state_plain_mark_all (st);
}

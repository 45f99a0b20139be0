/* fl-event-log.c — the run's events, packed in chunks (see fl-event-log.h). */
#include "fl-event-log.h"
#include "fl-spare.h"

#include <string.h>
#include <sys/mman.h>

typedef struct {
  guint64 index;
  guint64 cycle;
} FlEventCycle;

void
fl_event_log_advise_huge (gpointer block, gsize size)
{
#ifdef MADV_HUGEPAGE
  guintptr start = ((guintptr) block + 4095) & ~(guintptr) 4095;
  guintptr end = ((guintptr) block + size) & ~(guintptr) 4095;
  if (end > start)
    madvise ((gpointer) start, end - start, MADV_HUGEPAGE);
#endif
}

/* A chunk, from the blocks finished simulations left (fl-spare.h) or new. Not zeroed: every
 * event is written before it is read, and untouched pages cost nothing. Huge pages where the
 * kernel gives them: one page fault per 2 MB instead of per 4 KB. */
static FlEventChunk *
chunk_new (void)
{
  FlEventChunk *c = fl_spare_alloc (sizeof *c);
  fl_event_log_advise_huge (c, sizeof *c);
  return c;
}

static void
chunk_free (FlEventChunk *c)
{
  fl_spare_free (c, sizeof *c);
}

void
fl_event_log_init (FlEventLog *log)
{
  memset (log, 0, sizeof *log);
  log->aside = g_array_new (FALSE, FALSE, sizeof (FlEventCycle));
  log->flat = g_array_new (FALSE, FALSE, sizeof (FlEvent));
}

void
fl_event_log_clear (FlEventLog *log)
{
  for (guint i = 0; i < log->n_chunks; i++)
    chunk_free (log->chunks[i]);
  g_clear_pointer (&log->chunks, g_free);
  g_clear_pointer (&log->aside, g_array_unref);
  g_clear_pointer (&log->flat, g_array_unref);
  log->n_chunks = log->max_chunks = 0;
  log->len = 0;
}

/* Called when the current chunk is full: the chunk's base is its first event's step and
 * cycle (or the step's start, whichever is earlier, so the deltas of its events are small). */
void
fl_event_log_new_chunk (FlEventLog *log, const FlEvent *first)
{
  if (log->n_chunks == log->max_chunks)
    {
      log->max_chunks = MAX (16, log->max_chunks * 2);
      log->chunks = g_renew (FlEventChunk *, log->chunks, log->max_chunks);
    }
  FlEventChunk *c = chunk_new ();
  c->base_cycle = first->cycle;
  c->base_step = first->step;
  log->chunks[log->n_chunks++] = c;
}

/* A cycle that does not fit its 32-bit delta (a CPU far ahead or behind the others). */
void
fl_event_log_set_aside (FlEventLog *log, guint64 cycle)
{
  FlEventCycle e = { log->len, cycle };
  g_array_append_val (log->aside, e);
}

static guint64
aside_cycle (const FlEventLog *log, gsize index)
{
  guint lo = 0, hi = log->aside->len;
  while (lo < hi)
    {
      guint mid = (lo + hi) / 2;
      if (g_array_index (log->aside, FlEventCycle, mid).index < index)
        lo = mid + 1;
      else
        hi = mid;
    }
  g_assert (lo < log->aside->len);
  return g_array_index (log->aside, FlEventCycle, lo).cycle;
}

void
fl_event_log_get (const FlEventLog *log, gsize index, FlEvent *out)
{
  const FlEventChunk *c = log->chunks[index >> FL_EVENT_CHUNK_SHIFT];
  const FlPackedEvent *p = &c->ev[index & FL_EVENT_CHUNK_MASK];
  out->cycle = p->cycle == FL_EVENT_CYCLE_ASIDE ? aside_cycle (log, index)
                                                : c->base_cycle + p->cycle;
  out->step = c->base_step + (p->step_cpu >> 8);
  out->cpu = p->step_cpu & 0xff;
  out->loc = p->loc;
  out->kind = p->kind;
  out->xfer = p->xfer;
  out->mesi = p->mesi;
  out->activity = p->activity;
  out->line = p->line;
  out->reserved = 0;
  out->obj = p->obj;
  out->val = p->val;
}

/* Drop the events from `len` on (a new branch of the run starts there). */
void
fl_event_log_truncate (FlEventLog *log, gsize len)
{
  if (len >= log->len)
    return;
  guint keep = (guint) ((len + FL_EVENT_CHUNK - 1) >> FL_EVENT_CHUNK_SHIFT);
  for (guint i = keep; i < log->n_chunks; i++)
    chunk_free (log->chunks[i]);
  log->n_chunks = keep;
  log->len = len;
  guint n = log->aside->len;
  while (n > 0 && g_array_index (log->aside, FlEventCycle, n - 1).index >= len)
    n--;
  g_array_set_size (log->aside, n);
  if (log->flat->len > len)
    g_array_set_size (log->flat, len);
  if (log->max_upto > len)
    log->max_cycle = log->max_upto = 0;
}

/* The first @len events of @src (all, when it has fewer) appended to @dst, an empty log:
 * what a branch of a run keeps of it. Appended one by one, so the chunks start where they
 * started in @src and pack the same. */
void
fl_event_log_copy (FlEventLog *dst, const FlEventLog *src, gsize len)
{
  len = MIN (len, src->len);
  for (gsize i = 0; i < len; i++)
    {
      FlEvent e;
      fl_event_log_get (src, i, &e);
      fl_event_log_append (dst, &e);
    }
}

/* The latest cycle any event reached. Worked out over the events added since the last call
 * only: the views ask on every frame of a growing run. */
guint64
fl_event_log_max_cycle (FlEventLog *log)
{
  guint64 max = log->max_cycle;
  for (gsize i = log->max_upto; i < log->len;)
    {
      const FlEventChunk *c = log->chunks[i >> FL_EVENT_CHUNK_SHIFT];
      gsize end = MIN (log->len, ((i >> FL_EVENT_CHUNK_SHIFT) + 1) << FL_EVENT_CHUNK_SHIFT);
      guint32 delta = 0;
      for (; i < end; i++)
        {
          guint32 d = c->ev[i & FL_EVENT_CHUNK_MASK].cycle;
          if (G_UNLIKELY (d == FL_EVENT_CYCLE_ASIDE))
            max = MAX (max, aside_cycle (log, i));
          else
            delta = MAX (delta, d);
        }
      max = MAX (max, c->base_cycle + delta);
    }
  log->max_cycle = max;
  log->max_upto = log->len;
  return max;
}

/* The events as one FlEvent array, for callers that want them so: decoded once, then only
 * the events added since the last call. It costs 32 bytes per event more, so the simulation
 * itself never asks for it. */
const FlEvent *
fl_event_log_flat (FlEventLog *log, gsize *len)
{
  gsize have = log->flat->len;
  if (have < log->len)
    {
      g_array_set_size (log->flat, log->len);
      for (gsize i = have; i < log->len; i++)
        fl_event_log_get (log, i, &g_array_index (log->flat, FlEvent, i));
    }
  if (len)
    *len = log->len;
  return (const FlEvent *) log->flat->data;
}

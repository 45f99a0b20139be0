#pragma once

/* The run's events as the simulation keeps them: 24 bytes each instead of FlEvent's 32, in
 * fixed-size chunks that are never copied when the run grows. Private to core/. */

#include "fl-event.h"

G_BEGIN_DECLS

#define FL_EVENT_CHUNK_SHIFT 18
#define FL_EVENT_CHUNK       (1u << FL_EVENT_CHUNK_SHIFT)
#define FL_EVENT_CHUNK_MASK  (FL_EVENT_CHUNK - 1)
/* a cycle too far from its chunk's base for 32 bits is kept aside, looked up by index */
#define FL_EVENT_CYCLE_ASIDE G_MAXUINT32

/* FlEvent less what a chunk shares: the cycle and the step relative to the chunk's base (a
 * chunk holds 2^18 events and each adds at most one step, so 24 bits), the CPU in 8 bits
 * (FL_MAX_CPUS is 256), and no `reserved`, which is always 0. */
typedef struct {
  guint32 cycle;
  guint32 step_cpu;         /* step delta << 8 | cpu */
  guint16 loc;
  guint8  kind, xfer, mesi, activity;
  guint16 line;
  guint32 obj, val;
} FlPackedEvent;

G_STATIC_ASSERT (sizeof (FlPackedEvent) == 24);

typedef struct {
  guint64       base_cycle;
  guint32       base_step;
  FlPackedEvent ev[FL_EVENT_CHUNK];
} FlEventChunk;

typedef struct {
  FlEventChunk **chunks;
  guint          n_chunks, max_chunks;
  gsize          len;
  GArray        *aside;     /* FlEventCycle, by increasing index */
  GArray        *flat;      /* FlEvent: the decoded copy fl_event_log_flat hands out */
  guint64        max_cycle; /* the latest cycle of the first max_upto events */
  gsize          max_upto;
} FlEventLog;

void           fl_event_log_init     (FlEventLog *log);
void           fl_event_log_clear    (FlEventLog *log);
void           fl_event_log_truncate (FlEventLog *log, gsize len);
void           fl_event_log_copy     (FlEventLog *dst, const FlEventLog *src, gsize len);
void           fl_event_log_get      (const FlEventLog *log, gsize index, FlEvent *out);
const FlEvent *fl_event_log_flat     (FlEventLog *log, gsize *len);
guint64        fl_event_log_max_cycle (FlEventLog *log);
void           fl_event_log_new_chunk (FlEventLog *log, const FlEvent *first);
void           fl_event_log_set_aside (FlEventLog *log, guint64 cycle);
void           fl_event_log_advise_huge (gpointer block, gsize size);

/* Once per step: a store into the current chunk. */
static inline void
fl_event_log_append (FlEventLog *log, const FlEvent *ev)
{
  if (G_UNLIKELY ((log->len >> FL_EVENT_CHUNK_SHIFT) >= log->n_chunks))
    fl_event_log_new_chunk (log, ev);
  FlEventChunk *c = log->chunks[log->len >> FL_EVENT_CHUNK_SHIFT];
  FlPackedEvent *p = &c->ev[log->len & FL_EVENT_CHUNK_MASK];
  guint64 cycle = ev->cycle - c->base_cycle;
  g_assert (ev->reserved == 0 && ev->cpu < 256 && ev->step - c->base_step < (1u << 24));
  if (G_LIKELY (ev->cycle >= c->base_cycle && cycle < FL_EVENT_CYCLE_ASIDE))
    p->cycle = (guint32) cycle;
  else
    {
      p->cycle = FL_EVENT_CYCLE_ASIDE;
      fl_event_log_set_aside (log, ev->cycle);
    }
  p->step_cpu = (ev->step - c->base_step) << 8 | ev->cpu;
  p->loc = ev->loc;
  p->kind = ev->kind;
  p->xfer = ev->xfer;
  p->mesi = ev->mesi;
  p->activity = ev->activity;
  p->line = ev->line;
  p->obj = ev->obj;
  p->val = ev->val;
  log->len++;
}

static inline guint32
fl_event_log_step (const FlEventLog *log, gsize index)
{
  const FlEventChunk *c = log->chunks[index >> FL_EVENT_CHUNK_SHIFT];
  return c->base_step + (c->ev[index & FL_EVENT_CHUNK_MASK].step_cpu >> 8);
}

static inline guint
fl_event_log_cpu (const FlEventLog *log, gsize index)
{
  return log->chunks[index >> FL_EVENT_CHUNK_SHIFT]->ev[index & FL_EVENT_CHUNK_MASK].step_cpu & 0xff;
}

G_END_DECLS

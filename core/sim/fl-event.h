#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* What one step did. Every step emits exactly one event; a finding adds one more event at the
 * same step. Fixed size (32 bytes) so a run of millions of steps stays small and seekable. */

typedef enum {
  FL_EV_CALL,         /* entered a modeled function (obj0 = argument, e.g. the address) */
  FL_EV_RETURN,       /* left it (val = return value) */
  FL_EV_LOAD,         /* read a modeled field (line = its cache line) */
  FL_EV_STORE,        /* wrote one */
  FL_EV_RMW,          /* locked read-modify-write */
  FL_EV_LOCK,         /* acquired a lock (obj0 = lock object) */
  FL_EV_UNLOCK,
  FL_EV_SPIN,         /* parked spinning on a lock (obj0 = lock object) */
  FL_EV_SLEEP,        /* parked asleep on the rwsem or a barrier */
  FL_EV_WAKE,         /* resumed after waiting (val = cycles waited) */
  FL_EV_CHECK,        /* took a check (val = 1 passed, 0 failed) */
  FL_EV_WALK,         /* walked one page-table level (obj0 = table, val = level) */
  FL_EV_TREE,         /* visited or changed one rb-tree node (obj0 = vma) */
  FL_EV_PTE,          /* read or wrote a PTE (obj0 = PTE page, val = index) */
  FL_EV_IRQ,          /* IRQs disabled (val = 1) or enabled (val = 0) */
  FL_EV_IPI_SEND,     /* sent TLB-flush IPIs (obj0 = val = how many CPUs; the targets get IPI_ACK) */
  FL_EV_IPI_ACK,      /* obj0 = first sender, val = how many senders it acknowledged */
  FL_EV_RCU,          /* read-side enter/exit, quiescent state, grace period, callback */
  FL_EV_ALLOC,        /* allocated an object (obj0 = id) */
  FL_EV_FREE,         /* freed one */
  FL_EV_USER,         /* user-space work between operations */
  FL_EV_OP,           /* started a scenario operation (obj0 = op index) */
  FL_EV_DONE,         /* the CPU's program is over */
  FL_EV_FINDING,      /* the oracle found something (val = FlFindingKind, obj = objects) */
  FL_EV_N_KINDS
} FlEventKind;

/* Cache-line transition of a step, packed in `xfer`: how the line was obtained. */
typedef enum {
  FL_XFER_NONE,       /* no line touched */
  FL_XFER_HIT,        /* already held in a usable state */
  FL_XFER_MEMORY,     /* nobody had it: from DRAM */
  FL_XFER_LOCAL,      /* from a core on the same socket */
  FL_XFER_REMOTE,     /* from the other socket */
  FL_XFER_UPGRADE,    /* held shared, others invalidated */
  FL_XFER_OWN_COPY,   /* its own copy, just written, served ahead of requests queued for it
                       * (the hold, core/sim/fl-coherence.c); last so stored numbers keep meaning */
} FlXfer;

typedef struct {
  guint64 cycle;      /* the CPU's clock after the step */
  guint32 step;       /* steps taken before it: the events of step N (docs/model.md) carry N - 1 */
  guint16 cpu;
  guint16 loc;        /* listing location (FlLoc): function + line */
  guint8  kind;       /* FlEventKind */
  guint8  xfer;       /* FlXfer */
  guint8  mesi;       /* the line's state on this CPU after the step (FlMesi) */
  guint8  activity;   /* FlActivity of the CPU after the step, for the lanes */
  guint16 line;       /* cache line id, 0 = none */
  guint16 reserved;
  guint32 obj;        /* main object of the step (vma, table, page, lock, cpu...) */
  guint32 val;        /* value read or written, result of a check, ... */
} FlEvent;

G_STATIC_ASSERT (sizeof (FlEvent) == 32);

G_END_DECLS

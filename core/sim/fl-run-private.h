#pragma once

/* Between FlRun and FlCursor (fl-run.c, fl-cursor.c): what a finished run holds. */

#include "fl-run.h"
#include "fl-sim-internal.h"

G_BEGIN_DECLS

struct _FlRun {
  gatomicrefcount ref;
  FlRecord     *rec;            /* what the simulation recorded: read only from here on */
  FlConfig      config;
  FlSchedPolicy policy;
  guint64       checkpoint_every;   /* the spacing it had: a branch goes on with it */
  FlStopReason  stop;
  char         *stop_message;
  gboolean      finished;       /* it reached its natural end */
  /* built once, when the run was finished: getters never fill caches */
  guint64       total_steps;
  guint64       last_cycle;
  FlCounters    counters;       /* at its end */
  /* the state it ended in: after the last step, the end's own checks (a deadlock found,
   * its CPUs stuck), which no replay of the steps repeats */
  FlStateSizes  end_sizes;
  gsize         end_bytes;
  guint8       *end_block;
  /* fl_run_get_events()'s decoded copy: made on first use, under g_once_init_enter() */
  FlEvent      *flat;
  /* fl_run_get_index(): built once each, under the lock */
  GMutex        index_lock;
  GArray       *indexes;        /* FlRunIndex */
};

G_END_DECLS

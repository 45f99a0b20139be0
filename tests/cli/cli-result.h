#pragma once

/* What a run of faultline-cli gave: shared by the cli tests. */

#include <glib.h>

typedef struct {
  int   status;    /* exit status; -1 when a signal ended it (a crash, or a timeout) */
  char *out;
  char *err;
} Result;

static inline void
result_clear (Result *r)
{
  g_free (r->out);
  g_free (r->err);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Result, result_clear)

#pragma once

/* Big blocks kept for reuse within the process (private to core/): a simulation's event
 * chunks and checkpoints are megabytes each, and fresh memory costs the kernel's zeroing on
 * first touch (slow on a virtual machine). A finished simulation leaves its blocks here for
 * the next one of the same machine size: a re-run after a switch, compare mode's second run,
 * a benchmark's repeated runs. At most FL_SPARE_BYTES are kept. */

#include <glib.h>

G_BEGIN_DECLS

#define FL_SPARE_BYTES (96u << 20)

/* A block of `size` bytes, not zeroed: a kept one of that size, else new memory. */
gpointer fl_spare_alloc       (gsize size);
/* Keeps `block` (of `size` bytes) for a later fl_spare_alloc(), or frees it when full. */
void     fl_spare_free        (gpointer block, gsize size);
/* Frees every kept block. */
void     fl_spare_release_all (void);

/* One simulation's own dropped blocks, taken back without the process-wide lock: the
 * explorer seeks back a few steps and drops the checkpoints beyond thousands of times a
 * second on every thread, and a scan of the process's pool under one mutex for each
 * would serialise the threads. Holds at most FL_SPARE_POOL_BLOCKS; not thread-safe (one
 * simulation, one thread). */
#define FL_SPARE_POOL_BLOCKS 16u

typedef struct {
  guint    n;
  gpointer block[FL_SPARE_POOL_BLOCKS];
  gsize    size[FL_SPARE_POOL_BLOCKS];
} FlSparePool;

/* A block of `size` bytes: the pool's most recently given one of that size, else
 * fl_spare_alloc(). */
gpointer fl_spare_pool_take   (FlSparePool *pool, gsize size);
/* Keeps `block` in the pool; when the pool is full, its oldest block goes to fl_spare_free. */
void     fl_spare_pool_give   (FlSparePool *pool, gpointer block, gsize size);
/* Hands every block of the pool to fl_spare_free and empties it. */
void     fl_spare_pool_clear  (FlSparePool *pool);

G_END_DECLS

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

G_END_DECLS

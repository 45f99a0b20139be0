/* fl-spare.c — big blocks kept for reuse (see fl-spare.h). */
#include "fl-spare.h"

#include <string.h>

typedef struct {
  gpointer block;
  gsize    size;
} Spare;

static GMutex spare_lock;
static GArray *spares;          /* Spare, the most recently kept last */
static gsize spare_bytes;

gpointer
fl_spare_alloc (gsize size)
{
  gpointer block = NULL;
  g_mutex_lock (&spare_lock);
  for (guint i = spares ? spares->len : 0; i-- > 0;)
    {
      Spare *s = &g_array_index (spares, Spare, i);
      if (s->size == size)
        {
          block = s->block;
          spare_bytes -= size;
          g_array_remove_index_fast (spares, i);
          break;
        }
    }
  g_mutex_unlock (&spare_lock);
  return block != NULL ? block : g_malloc (size);
}

void
fl_spare_free (gpointer block, gsize size)
{
  if (block == NULL)
    return;
  g_mutex_lock (&spare_lock);
  if (spare_bytes + size <= FL_SPARE_BYTES)
    {
      Spare s = { block, size };
      if (spares == NULL)
        spares = g_array_new (FALSE, FALSE, sizeof (Spare));
      g_array_append_val (spares, s);
      spare_bytes += size;
      block = NULL;
    }
  g_mutex_unlock (&spare_lock);
  g_free (block);
}

void
fl_spare_release_all (void)
{
  g_mutex_lock (&spare_lock);
  for (guint i = 0; spares != NULL && i < spares->len; i++)
    g_free (g_array_index (spares, Spare, i).block);
  if (spares != NULL)
    g_array_set_size (spares, 0);
  spare_bytes = 0;
  g_mutex_unlock (&spare_lock);
}

gpointer
fl_spare_pool_take (FlSparePool *pool, gsize size)
{
  for (guint i = pool->n; i-- > 0;)
    if (pool->size[i] == size)
      {
        gpointer block = pool->block[i];
        pool->n--;
        memmove (pool->block + i, pool->block + i + 1, (pool->n - i) * sizeof *pool->block);
        memmove (pool->size + i, pool->size + i + 1, (pool->n - i) * sizeof *pool->size);
        return block;
      }
  return fl_spare_alloc (size);
}

void
fl_spare_pool_give (FlSparePool *pool, gpointer block, gsize size)
{
  if (block == NULL)
    return;
  if (pool->n == FL_SPARE_POOL_BLOCKS)
    {
      fl_spare_free (pool->block[0], pool->size[0]);
      pool->n--;
      memmove (pool->block, pool->block + 1, pool->n * sizeof *pool->block);
      memmove (pool->size, pool->size + 1, pool->n * sizeof *pool->size);
    }
  pool->block[pool->n] = block;
  pool->size[pool->n] = size;
  pool->n++;
}

void
fl_spare_pool_clear (FlSparePool *pool)
{
  for (guint i = 0; i < pool->n; i++)
    fl_spare_free (pool->block[i], pool->size[i]);
  pool->n = 0;
}

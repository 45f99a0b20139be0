/* fl-export-png-series.c — a range of steps as numbered PNGs. Encoding a frame costs about
 * twice what drawing it does, so the frames are drawn in step order on the calling thread
 * (one cursor walks the run once) while the machine's other cores encode the ones already
 * drawn; the calling thread encodes too when it has drawn far enough ahead. Files are written
 * on the calling thread in step order, so what lands on disk, the progress calls and the
 * error reported are those of drawing and writing one frame after another: after a cancel or
 * a failure no later file has been touched. */
#include "fl-export-private.h"
#include "fl-png.h"

#include <math.h>

/* Frames drawn ahead of the one being written, at most: enough to keep every core busy, and
 * never more than this much memory in images. */
#define FRAMES_AHEAD_PER_CORE 2
#define IMAGE_MEMORY ((gsize) 512 << 20)

typedef struct {
  cairo_surface_t *image;   /* drawn, until encoded */
  GByteArray      *png;     /* encoded, until written */
  GError          *error;   /* when encoding failed */
  gboolean         done;    /* encoded or failed: png or error is set */
} Frame;

typedef struct {
  GMutex   lock;
  GCond    wake;      /* a frame drawn or encoded, or quit */
  Frame   *frames;
  guint64  drawn;     /* frames [0, drawn) have been drawn */
  guint64  taken;     /* frames [0, taken) are being or have been encoded */
  gboolean quit;
} Pipeline;

/* Called with the lock held; returns with it held. */
static void
encode_taken (Pipeline *pl, Frame *f)
{
  g_mutex_unlock (&pl->lock);
  GByteArray *png = g_byte_array_new ();
  GError *error = NULL;
  if (!fl_png_encode (f->image, png, &error))
    g_clear_pointer (&png, g_byte_array_unref);
  g_clear_pointer (&f->image, cairo_surface_destroy);
  g_mutex_lock (&pl->lock);
  f->png = png;
  f->error = error;
  f->done = TRUE;
  g_cond_broadcast (&pl->wake);
}

static gpointer
encoder (gpointer data)
{
  Pipeline *pl = data;
  g_mutex_lock (&pl->lock);
  for (;;)
    {
      while (!pl->quit && pl->taken == pl->drawn)
        g_cond_wait (&pl->wake, &pl->lock);
      if (pl->quit)
        break;
      encode_taken (pl, &pl->frames[pl->taken++]);
    }
  g_mutex_unlock (&pl->lock);
  return NULL;
}

/* Until frame @i is encoded: encode whatever is drawn and not yet taken, else wait. */
static void
wait_encoded (Pipeline *pl, guint64 i)
{
  g_mutex_lock (&pl->lock);
  while (!pl->frames[i].done)
    {
      if (pl->taken < pl->drawn)
        encode_taken (pl, &pl->frames[pl->taken++]);
      else
        g_cond_wait (&pl->wake, &pl->lock);
    }
  g_mutex_unlock (&pl->lock);
}

static GPtrArray *
start_encoders (Pipeline *pl)
{
  GPtrArray *threads = g_ptr_array_new ();
  guint wanted = MIN (g_get_num_processors (), 16) - 1;
  for (guint i = 0; i < wanted; i++)
    {
      /* fewer cores than asked for only means a slower export: the caller encodes too */
      GThread *t = g_thread_try_new ("fl-png-encoder", encoder, pl, NULL);
      if (t == NULL)
        break;
      g_ptr_array_add (threads, t);
    }
  return threads;
}

static void
stop_encoders (Pipeline *pl, GPtrArray *threads)
{
  g_mutex_lock (&pl->lock);
  pl->quit = TRUE;
  g_cond_broadcast (&pl->wake);
  g_mutex_unlock (&pl->lock);
  for (guint i = 0; i < threads->len; i++)
    g_thread_join (g_ptr_array_index (threads, i));
  g_ptr_array_unref (threads);
}

gboolean
fl_export_png_series (FlView view, FlCursor *cur, guint64 first, guint64 last,
                      const FlViewport *viewport, const FlPalette *palette, const char *prefix,
                      FlExportProgress progress, gpointer user_data, GError **error)
{
  guint64 n = last - first + 1;
  Pipeline pl = { .frames = g_new0 (Frame, n) };
  g_mutex_init (&pl.lock);
  g_cond_init (&pl.wake);
  GPtrArray *threads = start_encoders (&pl);
  gsize image_bytes = (gsize) ceil (viewport->width) * (gsize) ceil (viewport->height) * 4;
  guint64 ahead = MAX (1, MIN ((guint64) FRAMES_AHEAD_PER_CORE * (threads->len + 1),
                               IMAGE_MEMORY / MAX (image_bytes, 1)));

  gboolean ok = TRUE;
  for (guint64 i = 0; i < n && ok; i++)
    {
      while (pl.drawn < n && pl.drawn < i + ahead)
        {
          fl_cursor_seek (cur, first + pl.drawn);
          cairo_surface_t *image = fl_paint_view_image (view, cur, viewport, palette);
          g_mutex_lock (&pl.lock);
          pl.frames[pl.drawn++].image = image;
          g_cond_broadcast (&pl.wake);
          g_mutex_unlock (&pl.lock);
        }
      wait_encoded (&pl, i);
      Frame *f = &pl.frames[i];
      g_autofree char *path = fl_export_range_file_name (prefix, first + i, "png");
      if (f->error != NULL)
        {
          g_propagate_prefixed_error (error, g_steal_pointer (&f->error), "%s: ", path);
          ok = FALSE;
        }
      else
        ok = fl_export_write_bytes (f->png, path, error);
      g_clear_pointer (&f->png, g_byte_array_unref);
      if (ok && progress && !progress (i + 1, n, user_data))
        {
          g_set_error (error, FL_EXPORT_RANGE_ERROR, FL_EXPORT_RANGE_ERROR_CANCELLED,
                       _("The export was cancelled after “%s”"), path);
          ok = FALSE;
        }
    }

  stop_encoders (&pl, threads);
  for (guint64 i = 0; i < pl.drawn; i++)
    {
      g_clear_pointer (&pl.frames[i].image, cairo_surface_destroy);
      g_clear_pointer (&pl.frames[i].png, g_byte_array_unref);
      g_clear_error (&pl.frames[i].error);
    }
  g_free (pl.frames);
  g_mutex_clear (&pl.lock);
  g_cond_clear (&pl.wake);
  return ok;
}

/* The fuzz targets without libFuzzer: each argument, a file or a folder of files, is read and
 * given to LLVMFuzzerTestOneInput, so `make test` replays the regression inputs and the seed
 * corpora through the normal build. A folder is read in name order, so a failure repeats. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fuzz-harness.h"

static guint
replay_file (const char *path)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *data = NULL;
  gsize size = 0;
  if (!g_file_get_contents (path, &data, &size, &error))
    {
      fprintf (stderr, "%s\n", error->message);
      exit (1);
    }
  LLVMFuzzerTestOneInput ((const uint8_t *) data, size);
  return 1;
}

static gint
compare_names (gconstpointer a, gconstpointer b)
{
  return strcmp (*(char *const *) a, *(char *const *) b);
}

static guint
replay_folder (const char *path)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GDir) dir = g_dir_open (path, 0, &error);
  if (dir == NULL)
    {
      fprintf (stderr, "%s\n", error->message);
      exit (1);
    }
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *name;
  while ((name = g_dir_read_name (dir)) != NULL)
    g_ptr_array_add (names, g_build_filename (path, name, NULL));
  g_ptr_array_sort (names, compare_names);
  guint n = 0;
  for (guint i = 0; i < names->len; i++)
    if (g_file_test (g_ptr_array_index (names, i), G_FILE_TEST_IS_REGULAR))
      n += replay_file (g_ptr_array_index (names, i));
  return n;
}

int
main (int argc, char **argv)
{
  if (argc < 2)
    {
      fprintf (stderr, "usage: %s FILE-OR-FOLDER...\n", argv[0]);
      return 2;
    }
  for (int i = 1; i < argc; i++)
    {
      guint n = g_file_test (argv[i], G_FILE_TEST_IS_DIR) ? replay_folder (argv[i])
                                                          : replay_file (argv[i]);
      /* an empty or renamed folder would pass while testing nothing */
      if (n == 0)
        {
          fprintf (stderr, "%s: no inputs\n", argv[i]);
          return 1;
        }
      printf ("%s: %u inputs\n", argv[i], n);
    }
  return 0;
}

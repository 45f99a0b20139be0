/* fl-cli-db-files.c — `db import` and `db export`: scenarios between .fault files and the
 * store, byte for byte. */
#include "fl-cli-db.h"

#include <string.h>
#include <glib/gstdio.h>

/* -o names the store itself (perhaps by another path): writing there would replace the whole
 * library with one scenario's text. */
static gboolean
is_same_file (const char *a, const char *b)
{
  GStatBuf sa, sb;
  return g_stat (a, &sa) == 0 && g_stat (b, &sb) == 0 && sa.st_dev == sb.st_dev &&
         sa.st_ino == sb.st_ino;
}

int
fl_cli_db_import (int argc, char **argv)
{
  g_auto (FlCliStoreOptions) o = { 0 };
  g_auto (GStrv) tags = NULL;
  GOptionEntry entries[] = {
    { "tag", 0, 0, G_OPTION_ARG_STRING_ARRAY, &tags, "Add a tag to the file's own (repeatable)", "TAG" },
    { NULL }
  };
  g_autoptr (GOptionContext) context = g_option_context_new ("FILE.fault - add a scenario file to the store");
  g_option_context_add_main_entries (context, entries, NULL);
  fl_cli_store_add_options (context, &o, FALSE);
  g_option_context_set_description (context,
    "The file is parsed first: one that is not a valid scenario is refused with the parser's\n"
    "FILE:LINE: message, and nothing is written. A valid one is stored exactly as written,\n"
    "named after the file (foo.fault → foo), with its title and tags. Importing the same\n"
    "file again finds the same scenario. The store is created if it does not exist.\n"
    "Exit status: 0 imported, 2 usage or input error.");
  if (!fl_cli_parse (context, &argc, &argv))
    return FL_EXIT_USAGE;
  if (argc != 2)
    return fl_cli_fail ("import needs exactly one FILE.fault");

  g_autoptr (FlStore) store = fl_cli_store_open_options (&o, FL_CLI_STORE_CREATE);
  if (store == NULL)
    return FL_EXIT_USAGE;
  g_autoptr (GError) error = NULL;
  gint64 id = 0;
  if (!fl_store_import_scenario_tagged (store, argv[1], (const char *const *) tags, &id, &error))
    return fl_cli_fail ("%s", error->message);
  g_autoptr (FlStoredScenario) scenario = fl_store_get_scenario (store, id, &error);
  if (scenario == NULL)
    return fl_cli_fail ("%s", error->message);
  printf ("Imported %s as scenario %" G_GINT64_FORMAT ": %s — %s\n", argv[1], id, scenario->name,
          scenario->title);
  return FL_EXIT_OK;
}

int
fl_cli_db_export (int argc, char **argv)
{
  g_auto (FlCliStoreOptions) o = { 0 };
  g_autofree char *output = NULL;
  GOptionEntry entries[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, "The .fault file to write (default: standard output)", "FILE" },
    { NULL }
  };
  g_autoptr (GOptionContext) context = g_option_context_new ("SCENARIO_ID - write a stored scenario as a .fault file");
  g_option_context_add_main_entries (context, entries, NULL);
  fl_cli_store_add_options (context, &o, FALSE);
  g_option_context_set_description (context,
    "Writes the scenario's text byte for byte as it was stored (`faultline-cli db list` shows\n"
    "the ids). An existing FILE is replaced in one step.\n"
    "Exit status: 0 written, 2 usage or input error (such as an unknown scenario).");
  if (!fl_cli_parse (context, &argc, &argv))
    return FL_EXIT_USAGE;
  if (argc != 2)
    return fl_cli_fail ("export needs exactly one SCENARIO_ID");
  gint64 id;
  if (!fl_cli_parse_id (argv[1], "scenario", &id))
    return FL_EXIT_USAGE;

  g_autoptr (FlStore) store = fl_cli_store_open_options (&o, FL_CLI_STORE_READ);
  if (store == NULL)
    return FL_EXIT_USAGE;
  g_autoptr (GError) error = NULL;
  if (output != NULL)
    {
      if (is_same_file (output, fl_store_get_path (store)))
        return fl_cli_fail ("-o %s is the store itself; name a .fault file", output);
      if (!fl_store_export_scenario (store, id, output, &error))
        return fl_cli_fail ("%s", error->message);
      printf ("Exported scenario %" G_GINT64_FORMAT " to %s\n", id, output);
      return FL_EXIT_OK;
    }
  g_autoptr (FlStoredScenario) scenario = fl_store_get_scenario (store, id, &error);
  if (scenario == NULL)
    return fl_cli_fail ("%s", error->message);
  gsize length = strlen (scenario->text);
  if (fwrite (scenario->text, 1, length, stdout) != length || fflush (stdout) != 0)
    return fl_cli_fail ("cannot write scenario %" G_GINT64_FORMAT " to standard output", id);
  return FL_EXIT_OK;
}

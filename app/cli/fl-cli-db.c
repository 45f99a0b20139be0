/* fl-cli-db.c — `db`: the sub-command dispatcher, and the commands that look after the store
 * file as a whole: check, upgrade, delete-run, delete-scenario. */
#include "fl-cli-db.h"

#include <string.h>

static const FlCliCommand subcommands[] = {
  { "list", "The stored scenarios (--search TEXT to filter)", fl_cli_db_list },
  { "runs", "The recorded runs, of one scenario or all", fl_cli_db_runs },
  { "show", "One run: configuration, hash, findings, bookmarks", fl_cli_db_show },
  { "explorations", "The recorded explorations and the runs they found", fl_cli_db_explorations },
  { "bookmarks", "List, add, edit or delete the bookmarks of a run", fl_cli_db_bookmarks },
  { "import", "Add a .fault file to the store", fl_cli_db_import },
  { "export", "Write a stored scenario as a .fault file", fl_cli_db_export },
  { "check", "Check the whole file: its schema, every page, every value", fl_cli_db_check },
  { "upgrade", "Bring a store of an older Faultline to this one's schema", fl_cli_db_upgrade },
  { "delete-run", "Delete a run with its events, findings and bookmarks", fl_cli_db_delete_run },
  { "delete-scenario", "Delete a scenario with all its runs", fl_cli_db_delete_scenario },
  { "delete-exploration", "Delete an exploration (its runs stay)", fl_cli_db_delete_exploration },
};

static void
usage (FILE *out)
{
  fprintf (out, "Usage: faultline-cli db SUBCOMMAND [OPTION…]\n\nSub-commands:\n");
  for (guint i = 0; i < G_N_ELEMENTS (subcommands); i++)
    fprintf (out, "  %-18s %s\n", subcommands[i].name, subcommands[i].summary);
  fprintf (out,
           "\nEvery sub-command takes --db PATH (default: $XDG_DATA_HOME/faultline/faultline.db)\n"
           "and --untrusted (for a file received from someone); `faultline-cli db SUBCOMMAND\n"
           "--help` describes each. Reading sub-commands never change the file. `import`\n"
           "creates the store on first use; the other writing ones (bookmarks --add, --edit,\n"
           "--delete, delete-run, delete-scenario, delete-exploration, upgrade) need one that\n"
           "exists.\n"
           "Exit status: 0 success, 2 usage or input error (a corrupt store for check).\n");
}

int
fl_cli_db (int argc, char **argv)
{
  if (argc < 2)
    {
      usage (stderr);
      return FL_EXIT_USAGE;
    }
  if (strcmp (argv[1], "--help") == 0 || strcmp (argv[1], "-h") == 0 ||
      strcmp (argv[1], "help") == 0)
    {
      usage (stdout);
      return FL_EXIT_OK;
    }
  for (guint i = 0; i < G_N_ELEMENTS (subcommands); i++)
    if (strcmp (argv[1], subcommands[i].name) == 0)
      {
        g_autofree char *prgname = g_strdup_printf ("faultline-cli db %s", subcommands[i].name);
        g_set_prgname (prgname);
        return subcommands[i].run (argc - 1, argv + 1);
      }
  g_autoptr (GString) names = g_string_new (NULL);
  for (guint i = 0; i < G_N_ELEMENTS (subcommands); i++)
    g_string_append_printf (names, "%s%s", i ? ", " : "", subcommands[i].name);
  return fl_cli_fail ("unknown db sub-command '%s' (sub-commands: %s)", argv[1], names->str);
}

/* ---- check --------------------------------------------------------------------------------- */

int
fl_cli_db_check (int argc, char **argv)
{
  g_auto (FlCliStoreOptions) o = { 0 };
  g_autoptr (GOptionContext) context = g_option_context_new ("- check the whole store file");
  fl_cli_store_add_options (context, &o, FALSE);
  g_option_context_set_description (context,
    "Compares the file's schema with the one Faultline creates and lists every table, index,\n"
    "trigger or view that is not Faultline's (or is missing), one line each; then runs\n"
    "SQLite's integrity_check (every page, every index), the foreign-key check and the\n"
    "store's own consistency checks. The file is always opened read-only and as untrusted.\n"
    "Exit status: 0 the store is sound, 2 it is not (the reasons, one a line) or usage error.");
  if (!fl_cli_parse (context, &argc, &argv))
    return FL_EXIT_USAGE;
  if (argc != 1)
    return fl_cli_fail ("check takes no arguments (got '%s')", argv[1]);
  /* The schema first, all of it: opening stops at the first foreign object, and the person
   * holding a file in doubt wants to see every one. */
  g_autofree char *fallback = o.db ? NULL : fl_store_default_path ();
  const char *path = o.db ? o.db : fallback;
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) foreign = fl_store_list_foreign (path, &error);
  if (foreign != NULL && foreign[0] != NULL)
    {
      guint n = g_strv_length (foreign);
      fprintf (stderr, "faultline-cli: '%s' is not a store as Faultline writes it: %u "
               "difference%s from Faultline's schema (it was not changed):\n", path, n,
               n == 1 ? "" : "s");
      for (guint i = 0; i < n; i++)
        fprintf (stderr, "  %s\n", foreign[i]);
      return FL_EXIT_USAGE;
    }
  g_clear_error (&error);
  /* Untrusted whatever the flag says: this is the command for a file in doubt. */
  o.untrusted = TRUE;
  g_autoptr (FlStore) store = fl_cli_store_open_options (&o, FL_CLI_STORE_READ);
  if (store == NULL)
    return FL_EXIT_USAGE;
  if (!fl_store_check (store, &error))
    return fl_cli_fail ("%s", error->message);
  g_autoptr (GPtrArray) scenarios = fl_store_list_scenarios (store, &error);
  g_autoptr (GPtrArray) runs = scenarios ? fl_store_list_runs (store, 0, &error) : NULL;
  if (runs == NULL)
    return fl_cli_fail ("%s", error->message);
  printf ("%s: ok (%u scenario%s, %u run%s)\n", fl_store_get_path (store), scenarios->len,
          scenarios->len == 1 ? "" : "s", runs->len, runs->len == 1 ? "" : "s");
  return FL_EXIT_OK;
}

/* ---- upgrade -------------------------------------------------------------------------------- */

int
fl_cli_db_upgrade (int argc, char **argv)
{
  g_auto (FlCliStoreOptions) o = { 0 };
  g_autoptr (GOptionContext) context =
    g_option_context_new ("- bring the store to this Faultline's schema");
  fl_cli_store_add_options (context, &o, FALSE);
  g_option_context_set_description (context,
    "A store of an older Faultline opens read-only only once it is upgraded; any writing\n"
    "command upgrades it too. The migrations run in one transaction each and keep every row;\n"
    "an older Faultline then reads the file as far as it knows it, and cannot change it.\n"
    "Exit status: 0 upgraded (or already current), 2 usage or input error (such as a store\n"
    "of a newer Faultline).");
  if (!fl_cli_parse (context, &argc, &argv))
    return FL_EXIT_USAGE;
  if (argc != 1)
    return fl_cli_fail ("upgrade takes no arguments (got '%s')", argv[1]);
  g_autoptr (FlStore) store = fl_cli_store_open_options (&o, FL_CLI_STORE_EDIT);
  if (store == NULL)
    return FL_EXIT_USAGE;
  gint64 from = fl_store_get_opened_version (store);
  if (from < FL_STORE_SCHEMA_VERSION)
    printf ("Upgraded %s from schema version %" G_GINT64_FORMAT " to %d\n",
            fl_store_get_path (store), from, FL_STORE_SCHEMA_VERSION);
  else
    printf ("%s is at schema version %d already: nothing to do\n", fl_store_get_path (store),
            FL_STORE_SCHEMA_VERSION);
  return FL_EXIT_OK;
}

/* ---- delete-run, delete-scenario ------------------------------------------------------------ */

int
fl_cli_db_delete_run (int argc, char **argv)
{
  g_auto (FlCliStoreOptions) o = { 0 };
  g_autoptr (GOptionContext) context = g_option_context_new ("RUN_ID - delete a recorded run");
  fl_cli_store_add_options (context, &o, FALSE);
  g_option_context_set_description (context,
    "Deletes the run with its events, findings and bookmarks, in one transaction.\n"
    "Exit status: 0 deleted, 2 usage or input error (such as an unknown run).");
  gint64 run_id;
  if (!fl_cli_parse (context, &argc, &argv))
    return FL_EXIT_USAGE;
  if (argc != 2)
    return fl_cli_fail ("delete-run needs exactly one RUN_ID");
  if (!fl_cli_parse_id (argv[1], "run", &run_id))
    return FL_EXIT_USAGE;
  g_autoptr (FlStore) store = fl_cli_store_open_options (&o, FL_CLI_STORE_EDIT);
  if (store == NULL)
    return FL_EXIT_USAGE;
  g_autoptr (GError) error = NULL;
  if (!fl_store_delete_run (store, run_id, &error))
    return fl_cli_fail ("%s", error->message);
  printf ("Deleted run %" G_GINT64_FORMAT " with its events, findings and bookmarks\n", run_id);
  return FL_EXIT_OK;
}

int
fl_cli_db_delete_scenario (int argc, char **argv)
{
  g_auto (FlCliStoreOptions) o = { 0 };
  g_autoptr (GOptionContext) context =
    g_option_context_new ("SCENARIO_ID - delete a stored scenario and its runs");
  fl_cli_store_add_options (context, &o, FALSE);
  g_option_context_set_description (context,
    "Deletes the scenario with every run recorded from it (their events, findings and\n"
    "bookmarks too) and its explorations, in one transaction. `faultline-cli db list`\n"
    "shows the ids.\n"
    "Exit status: 0 deleted, 2 usage or input error (such as an unknown scenario).");
  gint64 id;
  if (!fl_cli_parse (context, &argc, &argv))
    return FL_EXIT_USAGE;
  if (argc != 2)
    return fl_cli_fail ("delete-scenario needs exactly one SCENARIO_ID");
  if (!fl_cli_parse_id (argv[1], "scenario", &id))
    return FL_EXIT_USAGE;
  g_autoptr (FlStore) store = fl_cli_store_open_options (&o, FL_CLI_STORE_EDIT);
  if (store == NULL)
    return FL_EXIT_USAGE;
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) runs = fl_store_list_runs (store, id, &error);
  g_autoptr (GPtrArray) explorations = runs ? fl_store_list_explorations (store, id, &error)
                                            : NULL;
  if (explorations == NULL || !fl_store_delete_scenario (store, id, &error))
    return fl_cli_fail ("%s", error->message);
  printf ("Deleted scenario %" G_GINT64_FORMAT " with its %u run%s", id, runs->len,
          runs->len == 1 ? "" : "s");
  if (explorations->len > 0)
    printf (" and %u exploration%s", explorations->len, explorations->len == 1 ? "" : "s");
  printf ("\n");
  return FL_EXIT_OK;
}

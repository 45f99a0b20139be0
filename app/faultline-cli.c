/* faultline-cli — Faultline without a window: list, show, run, bench, compare, explore, export,
 * replay, db. */
#include "cli/fl-cli.h"

#include <glib/gi18n.h>
#include <locale.h>
#include <stdio.h>
#include <string.h>

static const FlCliCommand commands[] = {
  { "list", "List the built-in scenarios", fl_cli_list },
  { "show", "Print a scenario as written", fl_cli_show },
  { "run", "Simulate a scenario and report what happened", fl_cli_run },
  { "bench", "Reproduce the 2010 fault-rate table from the model", fl_cli_bench },
  { "compare", "One scenario under two sets of switches, side by side", fl_cli_compare },
  { "explore", "Run every interleaving within a preemption bound: a verdict, counterexamples", fl_cli_explore },
  { "export", "Draw a view at a step or a range of steps as PNG, SVG or PDF", fl_cli_export },
  { "replay", "Simulate a recorded run again and compare", fl_cli_replay },
  { "db", "Look into and edit a store: scenarios, runs, bookmarks", fl_cli_db },
};

static void
usage (FILE *out)
{
  fprintf (out, "Usage: faultline-cli COMMAND [OPTION…]\n\nCommands:\n");
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    fprintf (out, "  %-8s %s\n", commands[i].name, commands[i].summary);
  fprintf (out, "\n`faultline-cli COMMAND --help` describes each command.\n"
                "Exit status: 0 success, 1 the run produced findings, 2 usage or input error.\n");
}

int
main (int argc, char **argv)
{
  /* the exported drawings speak the user's language, as the window does (app/faultline.c) */
  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);
  if (argc < 2)
    {
      usage (stderr);
      return FL_EXIT_USAGE;
    }
  if (strcmp (argv[1], "--help") == 0 || strcmp (argv[1], "-h") == 0 || strcmp (argv[1], "help") == 0)
    {
      usage (stdout);
      return FL_EXIT_OK;
    }
  if (strcmp (argv[1], "--version") == 0)
    {
      printf ("faultline-cli %s\n", FL_VERSION);
      return FL_EXIT_OK;
    }
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    if (strcmp (argv[1], commands[i].name) == 0)
      {
        /* the command sees itself as argv[0], as GOptionContext expects */
        g_autofree char *prgname = g_strdup_printf ("faultline-cli %s", commands[i].name);
        g_set_prgname (prgname);
        return commands[i].run (argc - 1, argv + 1);
      }
  GString *names = g_string_new (NULL);
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    g_string_append_printf (names, "%s%s", i ? ", " : "", commands[i].name);
  fl_cli_fail ("unknown command '%s' (commands: %s)", argv[1], names->str);
  g_string_free (names, TRUE);
  return FL_EXIT_USAGE;
}

/* faultline: the GTK application. All behaviour lives in FlApplication (ui/). */

#include <glib/gi18n.h>
#include <locale.h>

#include "fl-application.h"

/* Run straight from the build tree (`make run`, build/app/faultline) the settings schema is not
 * installed yet, but the build compiled it into build/data: point GSettings there. Installed,
 * ../data has no compiled schemas and nothing changes. */
static void
fl_use_build_tree_schemas (void)
{
  g_autofree char *exe = g_file_read_link ("/proc/self/exe", NULL);
  g_autofree char *exe_dir = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *compiled = NULL;

  if (exe == NULL || g_getenv ("GSETTINGS_SCHEMA_DIR") != NULL)
    return;

  exe_dir = g_path_get_dirname (exe);
  dir = g_build_filename (exe_dir, "..", "data", NULL);
  compiled = g_build_filename (dir, "gschemas.compiled", NULL);
  if (g_file_test (compiled, G_FILE_TEST_IS_REGULAR))
    g_setenv ("GSETTINGS_SCHEMA_DIR", dir, TRUE);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(FlApplication) app = NULL;

  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  fl_use_build_tree_schemas ();

  app = fl_application_new (G_APPLICATION_DEFAULT_FLAGS);
  return g_application_run (G_APPLICATION (app), argc, argv);
}

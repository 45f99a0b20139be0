#pragma once

/* Running faultline-cli as a user would, for the cli suite's programs: its exit status and
 * output, its JSON, and temporary folders. */

#include <json-glib/json-glib.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/wait.h>
#include "cli-result.h"

/* faultline-cli with the arguments in `args` (NULL-terminated), in the environment `envp`
 * (NULL: this one). */
static inline void
cli_env (Result *r, char **envp, const char *const *args)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autoptr (GError) error = NULL;
  g_ptr_array_add (argv, (char *) g_getenv ("FL_CLI"));
  for (guint i = 0; args[i]; i++)
    g_ptr_array_add (argv, (char *) args[i]);
  g_ptr_array_add (argv, NULL);
  int wait = 0;
  g_assert_true (g_spawn_sync (NULL, (char **) argv->pdata, envp, G_SPAWN_DEFAULT, NULL, NULL,
                               &r->out, &r->err, &wait, &error));
  g_assert_no_error (error);
  r->status = WIFEXITED (wait) ? WEXITSTATUS (wait) : -1;
}

static inline void
cli_strv (Result *r, const char *const *args)
{
  cli_env (r, NULL, args);
}

static inline void
cli (Result *r, ...)
{
  va_list args;
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  va_start (args, r);
  for (const char *a = va_arg (args, const char *); a; a = va_arg (args, const char *))
    g_ptr_array_add (argv, (char *) a);
  va_end (args);
  g_ptr_array_add (argv, NULL);
  cli_strv (r, (const char *const *) argv->pdata);
}

static inline JsonObject *
parse_json (const char *text, JsonParser **keep)
{
  g_autoptr (GError) error = NULL;
  *keep = json_parser_new ();
  g_assert_true (json_parser_load_from_data (*keep, text, -1, &error));
  g_assert_no_error (error);
  return json_node_get_object (json_parser_get_root (*keep));
}

static inline gboolean
has_finding (JsonObject *run, const char *kind)
{
  JsonArray *findings = json_object_get_array_member (run, "findings");
  for (guint i = 0; i < json_array_get_length (findings); i++)
    if (strcmp (json_object_get_string_member (json_array_get_object_element (findings, i), "kind"),
                kind) == 0)
      return TRUE;
  return FALSE;
}

static inline void
remove_tree (const char *path)
{
  GDir *dir = g_dir_open (path, 0, NULL);
  if (dir != NULL)
    {
      for (const char *name; (name = g_dir_read_name (dir)) != NULL;)
        {
          g_autofree char *child = g_build_filename (path, name, NULL);
          remove_tree (child);
        }
      g_dir_close (dir);
      g_rmdir (path);
    }
  else
    g_unlink (path);
}

static inline void
assert_one_line (const char *text)
{
  g_assert_cmpuint (strlen (text), >, 0);
  g_assert_true (strchr (text, '\n') == text + strlen (text) - 1);
}

static inline char *
make_tmp (void)
{
  g_autoptr (GError) error = NULL;
  char *dir = g_dir_make_tmp ("faultline-cli-tmp-XXXXXX", &error);
  g_assert_no_error (error);
  return dir;
}

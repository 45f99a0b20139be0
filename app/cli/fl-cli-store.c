/* fl-cli-store.c — opening a store from the command line, ids, dates and JSON for the
 * `db` and `replay` commands. */
#include "fl-cli.h"
#include "fl-cli-store.h"

#include <string.h>

void
fl_cli_store_add_options (GOptionContext *context, FlCliStoreOptions *options,
                          gboolean with_json)
{
  GOptionEntry entries[] = {
    { "db", 0, 0, G_OPTION_ARG_FILENAME, &options->db,
      "The store (default: $XDG_DATA_HOME/faultline/faultline.db)", "PATH" },
    { "untrusted", 0, 0, G_OPTION_ARG_NONE, &options->untrusted,
      "A file received from someone: integrity_check of every page and index", NULL },
    { "json", 0, 0, G_OPTION_ARG_NONE, &options->json, "Print JSON", NULL },
    { NULL }
  };
  if (!with_json)
    memset (&entries[2], 0, sizeof entries[2]);
  g_option_context_add_main_entries (context, entries, NULL);
}

void
fl_cli_store_options_clear (FlCliStoreOptions *options)
{
  g_clear_pointer (&options->db, g_free);
}

/*
 * Reading commands open the file read-only: looking into a store, yours or a colleague's,
 * never changes a byte of it. Every file's schema must be Faultline's exactly (no trigger or
 * view, where hostile SQL would hide), every value is checked as it is read and every
 * statement has a budget; --untrusted adds a full integrity_check instead of quick_check, and
 * with a writing command the file is checked that way first and then written. Only a command
 * that adds something from nothing (import) creates a missing store: deleting or bookmarking
 * in a file that is not there is a mistake in the path, and should say so.
 */
FlStore *
fl_cli_store_open (const char *path, gboolean untrusted, FlCliStoreAccess access)
{
  FlStoreOpenFlags flags = access == FL_CLI_STORE_READ ? FL_STORE_OPEN_READ_ONLY
                         : access == FL_CLI_STORE_CREATE ? FL_STORE_OPEN_CREATE
                         : FL_STORE_OPEN_NONE;
  if (untrusted)
    flags |= FL_STORE_OPEN_UNTRUSTED;
  g_autoptr (GError) error = NULL;
  FlStore *store = fl_store_open (path, flags, &error);
  if (store != NULL && fl_store_get_schema_version (store) > FL_STORE_SCHEMA_VERSION)
    fprintf (stderr, "faultline-cli: note: '%s' was written by a newer Faultline (schema version "
             "%" G_GINT64_FORMAT "; this one knows up to %d): it is read as far as this "
             "version knows it, and cannot be changed by it\n", path,
             fl_store_get_schema_version (store), FL_STORE_SCHEMA_VERSION);
  if (store != NULL)
    return store;
  if (g_error_matches (error, FL_STORE_ERROR, FL_STORE_ERROR_NEWER_SCHEMA))
    fl_cli_fail ("%s (reading commands such as `db list` and `replay` can)", error->message);
  else if (g_error_matches (error, FL_STORE_ERROR, FL_STORE_ERROR_OLDER_SCHEMA))
    fl_cli_fail ("%s (`faultline-cli db upgrade --db %s` upgrades it, as does any writing "
                 "command)", error->message, path);
  else if (g_error_matches (error, FL_STORE_ERROR, FL_STORE_ERROR_NOT_FOUND))
    fl_cli_fail ("%s (no store there yet: `run --record`, `explore --record` and `db import` create one)",
                 error->message);
  else
    fl_cli_fail ("%s", error->message);
  return NULL;
}

FlStore *
fl_cli_store_open_options (const FlCliStoreOptions *options, FlCliStoreAccess access)
{
  g_autofree char *fallback = options->db ? NULL : fl_store_default_path ();
  return fl_cli_store_open (options->db ? options->db : fallback, options->untrusted, access);
}

/* @what names the id in the message: "run", "scenario", "bookmark". */
gboolean
fl_cli_parse_id (const char *text, const char *what, gint64 *out_id)
{
  gint64 value = 0;
  if (!g_ascii_string_to_signed (text, 10, 1, G_MAXINT64, &value, NULL))
    {
      fl_cli_fail ("'%s' is not %s %s id (expected a whole number from 1)", text,
                   strchr ("aeiou", what[0]) ? "an" : "a", what);
      return FALSE;
    }
  *out_id = value;
  return TRUE;
}

/* Local time to the minute: what a person scanning a list needs. JSON keeps the seconds. */
char *
fl_cli_format_time (gint64 unix_seconds)
{
  g_autoptr (GDateTime) time = g_date_time_new_from_unix_local (unix_seconds);
  if (time == NULL)
    return g_strdup ("?");
  return g_date_time_format (time, "%Y-%m-%d %H:%M");
}

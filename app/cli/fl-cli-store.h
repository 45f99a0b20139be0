#pragma once

/* What the commands that read or write a store share: --db and --untrusted, opening a store
 * with one-line errors, ids on the command line, dates and JSON output. */

#include "fl-cli-json.h"
#include <stdio.h>
#include "fl-store.h"

G_BEGIN_DECLS

typedef struct {
  char     *db;          /* --db PATH; NULL = fl_store_default_path() */
  gboolean  untrusted;   /* --untrusted: a file received from someone */
  gboolean  json;        /* --json, for the commands that have it */
} FlCliStoreOptions;

typedef enum {
  FL_CLI_STORE_READ,     /* never writes, not even the WAL switch; a missing file is an error */
  FL_CLI_STORE_EDIT,     /* writes to a store that must exist (deleting, bookmarking) */
  FL_CLI_STORE_CREATE,   /* writes, creating the file (and its folder) on first use */
} FlCliStoreAccess;

void      fl_cli_store_add_options (GOptionContext           *context,
                                    FlCliStoreOptions        *options,
                                    gboolean                  with_json);
void      fl_cli_store_options_clear (FlCliStoreOptions      *options);
FlStore  *fl_cli_store_open        (const char               *path,
                                    gboolean                  untrusted,
                                    FlCliStoreAccess          access);
FlStore  *fl_cli_store_open_options (const FlCliStoreOptions *options,
                                    FlCliStoreAccess          access);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (FlCliStoreOptions, fl_cli_store_options_clear)

gboolean  fl_cli_parse_id          (const char               *text,
                                    const char               *what,
                                    gint64                   *out_id);
char     *fl_cli_format_time       (gint64                    unix_seconds);

G_END_DECLS

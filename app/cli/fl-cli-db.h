#pragma once

/* The sub-commands of `faultline-cli db`, one function each, as the dispatcher in
 * fl-cli-db.c calls them: argv[0] is the sub-command itself. */

#include "fl-cli.h"
#include "fl-cli-store.h"

G_BEGIN_DECLS

int fl_cli_db_list            (int argc, char **argv);
int fl_cli_db_runs            (int argc, char **argv);
int fl_cli_db_show            (int argc, char **argv);
int fl_cli_db_bookmarks       (int argc, char **argv);
int fl_cli_db_import          (int argc, char **argv);
int fl_cli_db_export          (int argc, char **argv);
int fl_cli_db_check           (int argc, char **argv);
int fl_cli_db_upgrade         (int argc, char **argv);
int fl_cli_db_delete_run      (int argc, char **argv);
int fl_cli_db_delete_scenario (int argc, char **argv);
int fl_cli_db_explorations    (int argc, char **argv);
int fl_cli_db_delete_exploration (int argc, char **argv);

FlStore *fl_cli_db_open_for_scenario (const FlCliStoreOptions *o, int argc, char **argv,
                                      gint64 *out_id);

G_END_DECLS

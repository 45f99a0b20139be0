#pragma once

/* Shared by the faultline-cli commands: option parsing helpers, loading, exit codes. */

#include <glib.h>
#include "fl-sim.h"

G_BEGIN_DECLS

/* 1 means "the answer is no": a run with findings, a replay that differs. */
enum { FL_EXIT_OK = 0, FL_EXIT_FINDINGS = 1, FL_EXIT_DIFFERS = 1, FL_EXIT_USAGE = 2 };

typedef struct {
  const char *name;
  const char *summary;
  int (*run) (int argc, char **argv);
} FlCliCommand;

int          fl_cli_fail             (const char *format, ...) G_GNUC_PRINTF (1, 2);
gboolean     fl_cli_parse            (GOptionContext *context, int *argc, char ***argv);
FlScenario  *fl_cli_load_scenario    (const char *id_or_path);
FlScenario  *fl_cli_load_with_sets   (const char *id_or_path, char **sets, FlConfig *out_config);
gboolean     fl_cli_apply_sets       (FlConfig *config, char **sets);
char        *fl_cli_switches_help    (void);
gboolean     fl_cli_parse_policy     (const char *name, FlSchedPolicy *policy);
int          fl_cli_on_one_scenario  (GOptionContext *context, const char *about, int argc,
                                      char **argv,
                                      int (*body) (gconstpointer options, const char *id),
                                      gconstpointer options);
const char  *fl_cli_decimal          (double value, guint decimals, char *buf, gsize size);

int fl_cli_list    (int argc, char **argv);
int fl_cli_show    (int argc, char **argv);
int fl_cli_run     (int argc, char **argv);
int fl_cli_bench   (int argc, char **argv);
int fl_cli_compare (int argc, char **argv);
int fl_cli_explore (int argc, char **argv);
/* explore --merge A.json B.json ...: the shards of one exploration added up */
int fl_cli_explore_merge (int argc, char **argv);
int fl_cli_export  (int argc, char **argv);
int fl_cli_replay  (int argc, char **argv);
int fl_cli_db      (int argc, char **argv);

G_END_DECLS

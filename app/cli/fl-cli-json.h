#pragma once

/* One JSON member per call: the commands' --json output reads like the list of its keys. */

#include <json-glib/json-glib.h>
#include <stdio.h>

G_BEGIN_DECLS

void fl_cli_json_int        (JsonBuilder *builder, const char *name, gint64 value);
void fl_cli_json_double     (JsonBuilder *builder, const char *name, double value);
void fl_cli_json_bool       (JsonBuilder *builder, const char *name, gboolean value);
void fl_cli_json_string     (JsonBuilder *builder, const char *name, const char *value);
void fl_cli_json_nullable   (JsonBuilder *builder, const char *name, const char *value);
void fl_cli_print_json_root (JsonBuilder *builder, FILE *out);

G_END_DECLS

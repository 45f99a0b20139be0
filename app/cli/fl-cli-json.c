/* fl-cli-json.c — small JsonBuilder helpers shared by the commands with --json. */
#include "fl-cli-json.h"

void
fl_cli_json_int (JsonBuilder *builder, const char *name, gint64 value)
{
  json_builder_set_member_name (builder, name);
  json_builder_add_int_value (builder, value);
}

void
fl_cli_json_double (JsonBuilder *builder, const char *name, double value)
{
  json_builder_set_member_name (builder, name);
  json_builder_add_double_value (builder, value);
}

void
fl_cli_json_bool (JsonBuilder *builder, const char *name, gboolean value)
{
  json_builder_set_member_name (builder, name);
  json_builder_add_boolean_value (builder, value);
}

/* NULL is written as an empty string: every string key is always present. */
void
fl_cli_json_string (JsonBuilder *builder, const char *name, const char *value)
{
  json_builder_set_member_name (builder, name);
  json_builder_add_string_value (builder, value ? value : "");
}

/* A string that may be absent, such as why a run stopped: null then. */
void
fl_cli_json_nullable (JsonBuilder *builder, const char *name, const char *value)
{
  json_builder_set_member_name (builder, name);
  if (value != NULL)
    json_builder_add_string_value (builder, value);
  else
    json_builder_add_null_value (builder);
}

void
fl_cli_print_json_root (JsonBuilder *builder, FILE *out)
{
  g_autoptr (JsonNode) root = json_builder_get_root (builder);
  g_autofree char *text = json_to_string (root, TRUE);
  fprintf (out, "%s\n", text);
}

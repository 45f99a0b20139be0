/* The scenario editor's check; see fl-editor-check.h. */

#include "fl-editor-check.h"

#include <glib/gi18n.h>

/* The name the text is parsed under: never shown, since the line is taken out of the message
 * by fl_scenario_error_get_line() and the rest is shown after "Line N:". */
#define FL_EDITOR_SOURCE "editor"

static guint
fl_editor_count_ops (const FlScenario *scenario)
{
  guint n = 0;

  for (guint i = 0; i < scenario->programs->len; i++)
    {
      const FlProgram *program = g_ptr_array_index (scenario->programs, i);
      n += program->ops->len;
    }
  return n;
}

FlScenario *
fl_editor_check_text (const char *text, guint *out_line, char **out_status)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(FlScenario) scenario = NULL;
  const char *what = NULL;
  guint line = 0;

  g_return_val_if_fail (text != NULL, NULL);
  g_return_val_if_fail (out_line != NULL && out_status != NULL, NULL);

  scenario = fl_scenario_parse (text, FL_EDITOR_SOURCE, &error);
  if (scenario != NULL)
    {
      guint cpus = scenario->config.cpus;
      guint ops = fl_editor_count_ops (scenario);
      /* Translators: part of "Valid scenario: 2 CPUs, 3 operations". */
      g_autofree char *cpus_text = g_strdup_printf (ngettext ("%u CPU", "%u CPUs", cpus), cpus);
      /* Translators: part of "Valid scenario: 2 CPUs, 3 operations". */
      g_autofree char *ops_text = g_strdup_printf (ngettext ("%u operation", "%u operations",
                                                             ops), ops);

      *out_line = 0;
      /* Translators: the editor's status for text that parses; the first %s is "2 CPUs",
       * the second "3 operations". */
      *out_status = g_strdup_printf (_("Valid scenario: %s, %s"), cpus_text, ops_text);
      return g_steal_pointer (&scenario);
    }

  if (fl_scenario_error_get_line (error, FL_EDITOR_SOURCE, &line, &what))
    {
      *out_line = line;
      /* Translators: the editor's status for text with a mistake; %u is the line, %s what is
       * wrong there (in English, from the parser). */
      *out_status = g_strdup_printf (_("Line %u: %s"), line, what);
    }
  else
    {
      *out_line = 0;
      *out_status = g_strdup (error->message);
    }
  return NULL;
}

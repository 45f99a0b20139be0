/* Fuzz target: the scenario parser and its canonical text. Whatever parses must write a text
 * that parses to an equal scenario and writes the same text again (as the round trip of
 * tests/core/test-scenario.c checks for the good corpus). */

#include "fl-scenario.h"
#include "fuzz-harness.h"

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  g_autoptr (FlScenario) scenario = fl_fuzz_parse (data, size);
  if (scenario == NULL)
    return 0;

  g_autofree char *text = fl_scenario_to_text (scenario);
  g_autoptr (GError) again_error = NULL;
  g_autoptr (FlScenario) again = fl_scenario_parse (text, "canonical.fault", &again_error);
  if (again == NULL)
    fl_fuzz_fail ("the canonical text does not parse: %s\n%s", again_error->message, text);
  if (!fl_scenario_equal (scenario, again))
    fl_fuzz_fail ("the canonical text parses to another scenario:\n%s", text);
  g_autofree char *text2 = fl_scenario_to_text (again);
  if (g_strcmp0 (text, text2) != 0)
    fl_fuzz_fail ("the canonical text is not stable:\n%s\n---\n%s", text, text2);
  return 0;
}

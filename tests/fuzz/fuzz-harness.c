#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include "fuzz-harness.h"

void
fl_fuzz_fail (const char *format, ...)
{
  va_list args;
  va_start (args, format);
  fputs ("fuzz: ", stderr);
  vfprintf (stderr, format, args);
  fputc ('\n', stderr);
  va_end (args);
  abort ();
}

/* FNV-1a: any fixed mixing of every byte does; this one is short. */
guint64
fl_fuzz_input_hash (const uint8_t *data, size_t size)
{
  guint64 hash = G_GUINT64_CONSTANT (0xcbf29ce484222325);
  for (size_t i = 0; i < size; i++)
    {
      hash ^= data[i];
      hash *= G_GUINT64_CONSTANT (0x100000001b3);
    }
  return hash;
}

FlScenario *
fl_fuzz_parse (const uint8_t *data, size_t size)
{
  g_autoptr (GError) error = NULL;
  FlScenario *scenario = fl_scenario_parse_data ((const char *) data, size, "fuzz.fault", &error);
  if (scenario == NULL && error == NULL)
    fl_fuzz_fail ("the parser refused the input without saying why");
  return scenario;
}

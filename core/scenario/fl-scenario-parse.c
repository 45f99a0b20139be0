/* fl-scenario-parse.c — reading the `.fault` text format (docs/scenario-format.md).
 *
 * A small line-oriented reader rather than GKeyFile: GKeyFile keeps only the last of
 * repeated keys (`vma=`, `ops=` repeat on purpose) and its errors lose the line number once
 * a value is read back. Here every line is handled as it is read, so each error, syntactic
 * or semantic, names FILE:LINE. Checks that need the whole file (overlaps, CPU counts,
 * addresses relative to a base given later) run at the end (fl-scenario-check.c) with the
 * lines kept aside. */
#include "fl-scenario-private.h"
#include "fl-loc.h"

#include <string.h>

typedef enum {
  SECTION_NONE,
  SECTION_SCENARIO,
  SECTION_CONFIG,
  SECTION_MM,
  SECTION_CPU,
  SECTION_SCHEDULE,
  N_SECTIONS
} Section;

static const char *const section_names[N_SECTIONS] = {
  NULL, "scenario", "config", "mm", "cpu", "schedule",
};

typedef struct {
  guint      header_line;
  guint      base_line;   /* 0 until base= */
  FlProgram *program;
  GArray    *open;        /* guint: indices of the REPEAT ops whose '}' is still to come */
} CpuState;

typedef struct {
  FlScenarioReader r;                        /* source, error, line: for messages */
  FlScenario *s;
  gboolean    seen_anything;
  Section     section;
  guint       cpu;                           /* SECTION_CPU: which one */
  guint       section_line[N_SECTIONS];      /* header lines; 0 when absent */
  CpuState   *cpus[FL_MAX_CPUS];
  GHashTable *seen;                          /* key → first line, in the current section */
  GPtrArray  *config_keys;
  guint       topology_line;                 /* last of cpus, sockets, cores-per-socket */
  GString    *description, *expect;          /* prose lines joined as they come */
} Parser;

/* Short forms for the many messages below. */
static gboolean fail (Parser *p, FlScenarioError code, const char *format, ...)
  G_GNUC_PRINTF (3, 4);
static gboolean fail_at (Parser *p, guint line, FlScenarioError code, const char *format, ...)
  G_GNUC_PRINTF (4, 5);

static gboolean
fail (Parser *p, FlScenarioError code, const char *format, ...)
{
  va_list args;
  va_start (args, format);
  fl_scenario_fail_valist (&p->r, p->r.line, code, format, args);
  va_end (args);
  return FALSE;
}

static gboolean
fail_at (Parser *p, guint line, FlScenarioError code, const char *format, ...)
{
  va_list args;
  va_start (args, format);
  fl_scenario_fail_valist (&p->r, line, code, format, args);
  va_end (args);
  return FALSE;
}

static const char *
q (Parser *p, const char *text)
{
  return fl_scenario_quote (&p->r, text);
}

static const char *
section_label (Parser *p)
{
  if (p->section != SECTION_CPU)
    return section_names[p->section];
  char *label = g_strdup_printf ("cpu%u", p->cpu);
  g_ptr_array_add (p->r.scratch, label);
  return label;
}

static gboolean
once (Parser *p, const char *key)
{
  guint first = GPOINTER_TO_UINT (g_hash_table_lookup (p->seen, key));
  if (first != 0)
    return fail (p, FL_SCENARIO_ERROR_PARSE,
                 "duplicate key '%s' in [%s] (first set on line %u; expected once)",
                 key, section_label (p), first);
  g_hash_table_insert (p->seen, g_strdup (key), GUINT_TO_POINTER (p->r.line));
  return TRUE;
}

/* ---- [scenario] --------------------------------------------------------------------------- */

/* A GString, not repeated concatenation: a megabyte of description= lines must not take
 * quadratic time. */
static void
append_prose (GString *field, const char *value)
{
  g_autofree char *piece = g_strstrip (g_strdup (value));
  if (*piece == '\0')
    return;
  if (field->len > 0)
    g_string_append_c (field, ' ');
  g_string_append (field, piece);
}

static gboolean
parse_tags (Parser *p, const char *value)
{
  g_auto (GStrv) pieces = g_strsplit (value, ";", -1);
  g_autoptr (GStrvBuilder) tags = g_strv_builder_new ();
  for (guint i = 0; pieces[i] != NULL; i++)
    {
      char *tag = g_strstrip (pieces[i]);
      if (*tag == '\0')
        continue;
      for (const char *c = tag; *c != '\0'; c++)
        if (!g_ascii_isalnum (*c) && *c != '-' && *c != '_' && *c != '.')
          return fail (p, FL_SCENARIO_ERROR_PARSE,
                       "invalid tag '%s' (expected words of letters, digits, '-', '_' or '.' "
                       "separated by ';')", q (p, tag));
      g_strv_builder_add (tags, tag);
    }
  g_strfreev (p->s->tags);
  p->s->tags = g_strv_builder_end (tags);
  return TRUE;
}

static gboolean
scenario_key (Parser *p, const char *key, const char *raw)
{
  FlScenario *s = p->s;

  if (strcmp (key, "title") == 0)
    {
      g_autofree char *title = g_strstrip (g_strdup (raw));
      if (!once (p, key))
        return FALSE;
      if (*title == '\0')
        return fail (p, FL_SCENARIO_ERROR_INVALID,
                     "empty title (expected a one-line title)");
      s->title = g_steal_pointer (&title);
      return TRUE;
    }
  if (strcmp (key, "description") == 0)
    {
      append_prose (p->description, raw);
      return TRUE;
    }
  if (strcmp (key, "expect") == 0)
    {
      append_prose (p->expect, raw);
      return TRUE;
    }

  g_autofree char *value = fl_scenario_strip_comment (raw);
  if (strcmp (key, "tags") == 0)
    return once (p, key) && parse_tags (p, value);
  if (strcmp (key, "seed") == 0)
    {
      if (!once (p, key))
        return FALSE;
      if (!fl_scenario_parse_number (value, FALSE, &s->seed))
        return fail (p, FL_SCENARIO_ERROR_PARSE,
                     "invalid seed '%s' (expected a whole number, decimal or 0x hex)",
                     q (p, value));
      return TRUE;
    }
  if (fl_config_valid_values (key) != NULL)
    return fail (p, FL_SCENARIO_ERROR_PARSE,
                 "configuration key '%s' in [scenario] (expected it in [config])", key);
  return fail (p, FL_SCENARIO_ERROR_PARSE,
               "unknown key '%s' in [scenario] (expected title, description, expect, tags "
               "or seed)", q (p, key));
}

/* ---- [config] ----------------------------------------------------------------------------- */

static gboolean
config_key (Parser *p, const char *key, const char *raw)
{
  g_autofree char *value = fl_scenario_strip_comment (raw);
  g_autoptr (GError) config_error = NULL;

  if (fl_config_valid_values (key) == NULL)
    {
      g_autofree char *keys = g_strjoinv (", ", (char **) fl_config_keys ());
      return fail (p, FL_SCENARIO_ERROR_PARSE,
                   "unknown configuration key '%s' (expected one of %s)", q (p, key), keys);
    }
  if (!once (p, key))
    return FALSE;
  if (!fl_config_set (&p->s->config, key, value, &config_error))
    return fail (p, FL_SCENARIO_ERROR_PARSE, "%s", config_error->message);
  /* a preset (spf, machine) is recorded as the keys it set, so the file writes back as it
   * reads */
  g_auto (GStrv) preset = fl_config_preset_keys (key, value);
  for (guint i = 0; preset ? preset[i] != NULL : i == 0; i++)
    {
      const char *set = preset ? preset[i] : key;
      gboolean known = FALSE;
      for (guint k = 0; k < p->config_keys->len && !known; k++)
        known = strcmp (g_ptr_array_index (p->config_keys, k), set) == 0;
      if (!known)
        g_ptr_array_add (p->config_keys, g_strdup (set));
    }
  if (strcmp (key, "cpus") == 0 || strcmp (key, "sockets") == 0
      || strcmp (key, "cores-per-socket") == 0)
    p->topology_line = p->r.line;
  return TRUE;
}

/* ---- [mm] --------------------------------------------------------------------------------- */

static gboolean
parse_vma (Parser *p, const char *value)
{
  g_auto (GStrv) words = fl_scenario_split_words (value);
  FlScenarioVma vma = { .line = p->r.line };
  char *dash;

  if (g_strv_length (words) != 3 || (dash = strchr (words[0], '-')) == NULL)
    return fail (p, FL_SCENARIO_ERROR_PARSE,
                 "invalid vma '%s' (expected START-END PERMS KIND, such as "
                 "vma=0x7f0000000000-0x7f0000004000 rw- anon)", q (p, value));
  *dash = '\0';
  if (!fl_scenario_want_address (&p->r, words[0], "VMA start", FALSE, &vma.start)
      || !fl_scenario_want_address (&p->r, dash + 1, "VMA end", TRUE, &vma.end)
      || !fl_scenario_want_prot (&p->r, words[1], &vma.prot)
      || !fl_scenario_want_map_kind (&p->r, words[2], &vma.kind))
    return FALSE;
  if (vma.end <= vma.start)
    return fail (p, FL_SCENARIO_ERROR_INVALID,
                 "VMA end 0x%" G_GINT64_MODIFIER "x is not above its start 0x%"
                 G_GINT64_MODIFIER "x (expected START-END with START < END)", vma.end, vma.start);
  g_array_append_val (p->s->vmas, vma);
  return TRUE;
}

static gboolean
parse_pte (Parser *p, const char *value)
{
  g_auto (GStrv) words = fl_scenario_split_words (value);
  FlScenarioPte pte = { .line = p->r.line };

  if (g_strv_length (words) != 2)
    return fail (p, FL_SCENARIO_ERROR_PARSE,
                 "invalid pte '%s' (expected ADDR STATE, such as pte=0x7f0000001000 swap)",
                 q (p, value));
  if (!fl_scenario_want_address (&p->r, words[0], "PTE address", FALSE, &pte.addr))
    return FALSE;
  for (pte.state = FL_PTE_INIT_PRESENT; pte.state <= FL_PTE_INIT_MIGRATION; pte.state++)
    if (strcmp (words[1], fl_scenario_pte_init_name (pte.state)) == 0)
      {
        g_array_append_val (p->s->ptes, pte);
        return TRUE;
      }
  return fail (p, FL_SCENARIO_ERROR_PARSE,
               "invalid PTE state '%s' (expected present, readonly, swap or migration)",
               q (p, words[1]));
}

static gboolean
mm_key (Parser *p, const char *key, const char *raw)
{
  g_autofree char *value = fl_scenario_strip_comment (raw);
  if (strcmp (key, "vma") == 0)
    return parse_vma (p, value);
  if (strcmp (key, "pte") == 0)
    return parse_pte (p, value);
  return fail (p, FL_SCENARIO_ERROR_PARSE,
               "unknown key '%s' in [mm] (expected vma or pte)", q (p, key));
}

static gboolean
cpu_key (Parser *p, const char *key, const char *raw)
{
  CpuState *cpu = p->cpus[p->cpu];
  g_autofree char *value = fl_scenario_strip_comment (raw);

  if (strcmp (key, "ops") == 0)
    return fl_scenario_parse_ops (&p->r, cpu->program, cpu->open, value);
  if (strcmp (key, "base") == 0)
    {
      if (!once (p, key)
          || !fl_scenario_want_address (&p->r, value, "base", FALSE, &cpu->program->base))
        return FALSE;
      cpu->base_line = p->r.line;
      return TRUE;
    }
  return fail (p, FL_SCENARIO_ERROR_PARSE,
               "unknown key '%s' in [cpu%u] (expected base or ops)", q (p, key), p->cpu);
}

/* ---- [schedule] --------------------------------------------------------------------------- */

/* `function` or `function:tag`: the spelling; parse_step() then asks the table of modeled
 * functions whether such a place exists. */
static gboolean
is_stop_point (const char *target)
{
  const char *c = target;
  if (!(g_ascii_islower (*c) || *c == '_'))
    return FALSE;
  while (g_ascii_islower (*c) || g_ascii_isdigit (*c) || *c == '_')
    c++;
  if (*c == '\0')
    return TRUE;
  if (*c++ != ':' || *c == '\0')
    return FALSE;
  for (; *c != '\0'; c++)
    if (!g_ascii_isalnum (*c) && *c != '_' && *c != '-' && *c != '.')
      return FALSE;
  return TRUE;
}

static gboolean
parse_step (Parser *p, const char *text)
{
  g_auto (GStrv) words = fl_scenario_split_words (text);
  FlScheduleStep step = { .line = p->r.line };

  if (g_strv_length (words) != 3)
    return fail (p, FL_SCENARIO_ERROR_PARSE,
                 "invalid schedule step '%s' (expected cpuN until TARGET or cpuN for STEPS)",
                 q (p, text));
  if (!fl_scenario_parse_cpu_name (words[0], &step.cpu))
    return fail (p, FL_SCENARIO_ERROR_PARSE,
                 "invalid CPU '%s' in the schedule (expected cpu0, cpu1, ...)", q (p, words[0]));
  if (strcmp (words[1], "for") == 0)
    {
      if (!fl_scenario_parse_number (words[2], FALSE, &step.steps) || step.steps == 0)
        return fail (p, FL_SCENARIO_ERROR_PARSE,
                     "invalid step count '%s' (expected a whole number of steps, at least 1)",
                     q (p, words[2]));
      step.kind = FL_UNTIL_STEPS;
    }
  else if (strcmp (words[1], "until") == 0)
    {
      if (strcmp (words[2], "end") == 0)
        step.kind = FL_UNTIL_END;
      else if (is_stop_point (words[2]))
        {
          /* a point no step can stop at would silently leave the CPU running to its end */
          if (!fl_loc_target_exists (words[2]))
            {
              g_autofree char *nearest = fl_loc_target_nearest (words[2]);
              return fail (p, FL_SCENARIO_ERROR_PARSE,
                           "unknown stop point '%s' (expected a modeled function or listing "
                           "location; the nearest are %s)", q (p, words[2]), nearest);
            }
          step.kind = strchr (words[2], ':') ? FL_UNTIL_LOCATION : FL_UNTIL_FUNCTION;
          step.target = g_strdup (words[2]);
        }
      else
        return fail (p, FL_SCENARIO_ERROR_PARSE,
                     "invalid stop point '%s' (expected end, a function name such as "
                     "rcu_read_lock, or function:tag)", q (p, words[2]));
    }
  else
    return fail (p, FL_SCENARIO_ERROR_PARSE,
                 "'%s' after %s (expected until or for)", q (p, words[1]), words[0]);
  g_array_append_val (p->s->schedule, step);
  return TRUE;
}

static gboolean
schedule_key (Parser *p, const char *key, const char *raw)
{
  g_autofree char *value = fl_scenario_strip_comment (raw);
  if (strcmp (key, "steps") != 0)
    return fail (p, FL_SCENARIO_ERROR_PARSE,
                 "unknown key '%s' in [schedule] (expected steps)", q (p, key));
  g_auto (GStrv) steps = g_strsplit (value, ";", -1);
  for (guint i = 0; steps[i] != NULL; i++)
    if (*g_strstrip (steps[i]) != '\0' && !parse_step (p, steps[i]))
      return FALSE;
  return TRUE;
}

/* ---- lines and sections ------------------------------------------------------------------- */

static gboolean
finish_section (Parser *p)
{
  if (p->section != SECTION_CPU)
    return TRUE;
  CpuState *cpu = p->cpus[p->cpu];
  if (cpu->open->len == 0)
    return TRUE;
  guint index = g_array_index (cpu->open, guint, cpu->open->len - 1);
  return fail_at (p, g_array_index (cpu->program->ops, FlOp, index).line,
                  FL_SCENARIO_ERROR_PARSE,
                  "repeat block never closed (expected '}' before the end of [cpu%u])", p->cpu);
}

static gboolean
parse_header (Parser *p, const char *text)
{
  const char *close = strchr (text, ']');
  if (close == NULL)
    return fail (p, FL_SCENARIO_ERROR_PARSE,
                 "unclosed section header '%s' (expected [name])", q (p, text));
  const char *after = close + 1;
  while (fl_scenario_is_blank (*after))
    after++;
  if (*after != '\0' && *after != '#')
    return fail (p, FL_SCENARIO_ERROR_PARSE,
                 "text after the section header '%s' (expected nothing or a # comment)",
                 q (p, after));

  g_autofree char *name = g_strndup (text + 1, close - text - 1);
  Section section = SECTION_NONE;
  guint cpu = 0;
  for (Section i = SECTION_SCENARIO; i < N_SECTIONS; i++)
    if (i != SECTION_CPU && strcmp (name, section_names[i]) == 0)
      section = i;
  if (section == SECTION_NONE && fl_scenario_parse_cpu_name (name, &cpu))
    {
      if (cpu >= FL_MAX_CPUS)
        return fail (p, FL_SCENARIO_ERROR_INVALID,
                     "[%s] is beyond the last CPU a scenario can have (expected cpu0 to "
                     "cpu%u)", name, FL_MAX_CPUS - 1);
      section = SECTION_CPU;
    }
  if (section == SECTION_NONE)
    return fail (p, FL_SCENARIO_ERROR_PARSE,
                 "unknown section [%s] (expected [scenario], [config], [mm], [cpuN] or "
                 "[schedule])", q (p, name));

  guint first = section == SECTION_CPU ? (p->cpus[cpu] ? p->cpus[cpu]->header_line : 0)
                                       : p->section_line[section];
  if (first != 0)
    return fail (p, FL_SCENARIO_ERROR_PARSE,
                 "duplicate section [%s] (first on line %u; expected each section once)",
                 name, first);

  if (!finish_section (p))
    return FALSE;
  p->section = section;
  p->cpu = cpu;
  g_hash_table_remove_all (p->seen);
  if (section == SECTION_CPU)
    {
      CpuState *state = g_new0 (CpuState, 1);
      state->header_line = p->r.line;
      state->program = fl_program_new ();
      state->open = g_array_new (FALSE, FALSE, sizeof (guint));
      p->cpus[cpu] = state;
    }
  else
    p->section_line[section] = p->r.line;
  return TRUE;
}

static gboolean
is_key (const char *key)
{
  if (*key == '\0')
    return FALSE;
  for (const char *c = key; *c != '\0'; c++)
    if (!g_ascii_islower (*c) && !g_ascii_isdigit (*c) && *c != '-' && *c != '.')
      return FALSE;
  return TRUE;
}

static gboolean
parse_line (Parser *p, char *text)
{
  for (const guchar *c = (const guchar *) text; *c != '\0'; c++)
    if ((*c < 0x20 && *c != '\t') || *c == 0x7f)
      return fail (p, FL_SCENARIO_ERROR_PARSE,
                   "control character 0x%02x (expected printable text; only tabs are allowed)",
                   *c);

  while (fl_scenario_is_blank (*text))
    text++;
  if (*text == '\0' || *text == '#')
    return TRUE;
  p->seen_anything = TRUE;
  if (*text == '[')
    return parse_header (p, text);

  char *equals = strchr (text, '=');
  if (equals == NULL)
    return fail (p, FL_SCENARIO_ERROR_PARSE,
                 "'%s' is not a setting (expected key=value, a [section] header or a "
                 "# comment)", q (p, g_strchomp (text)));
  *equals = '\0';
  const char *key = g_strchomp (text);
  const char *value = equals + 1;
  if (!is_key (key))
    return fail (p, FL_SCENARIO_ERROR_PARSE,
                 "invalid key '%s' (expected a lower-case name such as title or vma before "
                 "'=')", q (p, key));

  switch (p->section)
    {
    case SECTION_SCENARIO: return scenario_key (p, key, value);
    case SECTION_CONFIG:   return config_key (p, key, value);
    case SECTION_MM:       return mm_key (p, key, value);
    case SECTION_CPU:      return cpu_key (p, key, value);
    case SECTION_SCHEDULE: return schedule_key (p, key, value);
    case SECTION_NONE:
    case N_SECTIONS:
    default:
      return fail (p, FL_SCENARIO_ERROR_PARSE,
                   "key '%s' outside any section (expected a section header such as "
                   "[scenario] before it)", q (p, key));
    }
}

static guint
line_of (const char *data, const char *at)
{
  guint line = 1;
  for (const char *c = data; c < at; c++)
    line += *c == '\n';
  return line;
}

/* Whole-input checks first: the line reader below may then trust it is text. */
static gboolean
check_bytes (Parser *p, const char *data, gsize length, gsize limit)
{
  const char *bad;

  if (length > limit)
    return fail_at (p, line_of (data, data + limit), FL_SCENARIO_ERROR_INVALID,
                    "the scenario is larger than %" G_GSIZE_FORMAT " MiB (expected a "
                    "hand-written file)", limit / (1024 * 1024));
  if ((bad = memchr (data, '\0', length)) != NULL)
    return fail_at (p, line_of (data, bad), FL_SCENARIO_ERROR_PARSE,
                    "NUL byte (expected UTF-8 text)");
  if (!g_utf8_validate_len (data, length, &bad))
    return fail_at (p, line_of (data, bad), FL_SCENARIO_ERROR_PARSE,
                    "invalid UTF-8 byte 0x%02x (expected UTF-8 text)", (guchar) *bad);
  return TRUE;
}

static gboolean
read_lines (Parser *p, const char *data, gsize length)
{
  const char *pos = data, *end = data + length;

  /* Editors on some systems start UTF-8 files with a byte-order mark. */
  if (length >= 3 && memcmp (data, "\xEF\xBB\xBF", 3) == 0)
    pos += 3;
  while (pos < end)
    {
      const char *newline = memchr (pos, '\n', end - pos);
      const char *stop = newline ? newline : end;
      gsize len = stop - pos;
      if (len > 0 && pos[len - 1] == '\r')
        len--;
      g_autofree char *text = g_strndup (pos, len);
      p->r.line++;
      if (!parse_line (p, text))
        return FALSE;
      pos = newline ? newline + 1 : end;
    }
  return finish_section (p);
}

static gboolean
check_whole (Parser *p)
{
  FlScenario *s = p->s;
  g_autoptr (GError) config_error = NULL;
  guint base_lines[FL_MAX_CPUS] = { 0 };

  if (p->section_line[SECTION_SCENARIO] == 0)
    return fail_at (p, 1, FL_SCENARIO_ERROR_INVALID,
                    "%s (expected a [scenario] section with a title=)",
                    p->seen_anything ? "no [scenario] section" : "empty scenario");
  if (s->title == NULL)
    return fail_at (p, p->section_line[SECTION_SCENARIO], FL_SCENARIO_ERROR_INVALID,
                    "[scenario] has no title (expected a title= line)");
  if (!fl_config_validate (&s->config, &config_error))
    return fail_at (p, MAX (p->topology_line, 1), FL_SCENARIO_ERROR_INVALID, "%s",
                    config_error->message);

  guint cpus = s->config.cpus;
  for (guint i = cpus; i < FL_MAX_CPUS; i++)
    if (p->cpus[i] != NULL)
      return fail_at (p, p->cpus[i]->header_line, FL_SCENARIO_ERROR_INVALID,
                      "[cpu%u] but the scenario has %u CPU%s (expected cpu0 to "
                      "cpu%u, or a larger cpus= in [config])", i, cpus,
                      cpus == 1 ? "" : "s", cpus - 1);

  /* The programs move into the scenario here; parser_clear() frees what is left. */
  for (guint i = 0; i < cpus; i++)
    {
      CpuState *cpu = p->cpus[i];
      g_ptr_array_add (s->programs, cpu ? g_steal_pointer (&cpu->program) : fl_program_new ());
      base_lines[i] = cpu ? cpu->base_line : 0;
    }
  s->description = p->description->len ? g_strdup (p->description->str) : NULL;
  s->expect = p->expect->len ? g_strdup (p->expect->str) : NULL;
  g_strfreev (s->config_keys);
  g_ptr_array_add (p->config_keys, NULL);
  s->config_keys = (GStrv) g_ptr_array_free (g_steal_pointer (&p->config_keys), FALSE);

  return fl_scenario_check (&p->r, s, base_lines);
}

static void
parser_clear (Parser *p)
{
  for (guint i = 0; i < FL_MAX_CPUS; i++)
    if (p->cpus[i] != NULL)
      {
        g_clear_pointer (&p->cpus[i]->program, fl_program_free);
        g_array_unref (p->cpus[i]->open);
        g_clear_pointer (&p->cpus[i], g_free);
      }
  g_clear_pointer (&p->seen, g_hash_table_unref);
  g_clear_pointer (&p->config_keys, g_ptr_array_unref);
  g_clear_pointer (&p->r.scratch, g_ptr_array_unref);
  g_string_free (p->description, TRUE);
  g_string_free (p->expect, TRUE);
}

static char *
id_of (const char *source_name)
{
  g_autofree char *base = g_path_get_basename (source_name);
  if (g_str_has_suffix (base, ".fault") && strlen (base) > strlen (".fault"))
    base[strlen (base) - strlen (".fault")] = '\0';
  return g_steal_pointer (&base);
}

static const char *
source_of (const char *source_name)
{
  return source_name ? source_name : "<text>";
}

/* The one parser behind every entry point; they differ only in the size they accept. */
FlScenario *
fl_scenario_parse_limited (const char *data, gsize length, const char *source_name,
                           gsize limit, GError **error)
{
  g_autoptr (FlScenario) scenario = fl_scenario_new ();
  Parser p = {
    .r = {
      .source = source_of (source_name),
      .error = error,
      .scratch = g_ptr_array_new_with_free_func (g_free),
    },
    .s = scenario,
    .seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL),
    .config_keys = g_ptr_array_new_with_free_func (g_free),
    .description = g_string_new (NULL),
    .expect = g_string_new (NULL),
  };
  gboolean ok = check_bytes (&p, data, length, limit) && read_lines (&p, data, length)
                && check_whole (&p);
  parser_clear (&p);
  if (!ok)
    return NULL;

  scenario->id = source_name ? id_of (source_name) : NULL;
  scenario->text = g_strndup (data, length);
  return g_steal_pointer (&scenario);
}

/**
 * fl_scenario_parse_data:
 * @data: the text of a scenario; need not be nul-terminated
 * @length: its length in bytes
 * @source_name: (nullable): the file name used in messages and for the scenario's id
 * @error: return location for an error
 *
 * Like fl_scenario_parse(), for input that may hold NUL bytes (a file, a fuzzer's bytes),
 * which are then reported instead of silently ending the text. Text longer than 4 MiB is
 * refused (files are refused beyond 1 MiB when loaded).
 *
 * Returns: (transfer full) (nullable): the scenario, or %NULL and @error set.
 */
FlScenario *
fl_scenario_parse_data (const char *data, gsize length, const char *source_name,
                        GError **error)
{
  g_return_val_if_fail (data != NULL || length == 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);
  return fl_scenario_parse_limited (data, length, source_name, FL_SCENARIO_MAX_TEXT, error);
}

/**
 * fl_scenario_parse:
 * @text: the text of a scenario (docs/scenario-format.md)
 * @source_name: (nullable): the file name used in messages (`FILE:LINE: ...`) and, without
 *   its directory and `.fault`, as the scenario's id
 * @error: return location for an error: %FL_SCENARIO_ERROR_PARSE when a line does not
 *   follow the format, %FL_SCENARIO_ERROR_INVALID when it does but the scenario is
 *   inconsistent (overlapping VMAs, unaligned addresses, a CPU that does not exist, ...)
 *
 * Parses a scenario. Never half-loads: on any error nothing is returned.
 *
 * Returns: (transfer full) (nullable): the scenario, or %NULL and @error set.
 */
FlScenario *
fl_scenario_parse (const char *text, const char *source_name, GError **error)
{
  g_return_val_if_fail (text != NULL, NULL);
  return fl_scenario_parse_data (text, strlen (text), source_name, error);
}


/**
 * fl_scenario_error_get_line:
 * @error: an error from fl_scenario_parse() or fl_scenario_parse_data()
 * @source_name: (nullable): the source name that parse was given
 * @out_line: (out) (optional): the line the error points at, 1-based
 * @out_what: (out) (optional) (transfer none): what is wrong, without the "SOURCE:LINE: "
 *   prefix; points into @error's message
 *
 * Every scenario error reads "SOURCE:LINE: what (expected ...)" (docs/scenario-format.md).
 * Knowing SOURCE, the split is exact even when the source name holds colons or digits, so an
 * editor can mark the line without guessing at the message.
 *
 * Returns: %TRUE when @error is a %FL_SCENARIO_ERROR of that form.
 */
gboolean
fl_scenario_error_get_line (const GError *error, const char *source_name, guint *out_line,
                            const char **out_what)
{
  const char *source = source_of (source_name);
  const char *at;
  char *end = NULL;
  guint64 line;

  g_return_val_if_fail (error != NULL, FALSE);

  if (error->domain != FL_SCENARIO_ERROR || !g_str_has_prefix (error->message, source))
    return FALSE;
  at = error->message + strlen (source);
  if (at[0] != ':' || !g_ascii_isdigit (at[1]))
    return FALSE;
  line = g_ascii_strtoull (at + 1, &end, 10);
  if (end[0] != ':' || end[1] != ' ' || line == 0 || line > G_MAXUINT)
    return FALSE;
  if (out_line != NULL)
    *out_line = (guint) line;
  if (out_what != NULL)
    *out_what = end + 2;
  return TRUE;
}

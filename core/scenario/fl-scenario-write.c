/* fl-scenario-write.c — the canonical text of a scenario. One layout for everything, so
 * writing what was parsed from the canonical text gives the same bytes, and a scenario
 * saved from the window diffs cleanly against the file it came from. */
#include "fl-scenario-private.h"

#include <string.h>

/* Columns for wrapped prose, `key=` included. */
#define WRAP_COLUMNS 96

#define HEX "0x%" G_GINT64_MODIFIER "x"

/* Long prose goes on several `key=` lines, which the parser strips (g_strstrip: any ASCII
 * white space) and joins with one space. Breaking only at a single space between two
 * characters that are not white space keeps that join exact: a tab next to the break would
 * be stripped off its line. */
static void
append_prose (GString *out, const char *key, const char *text)
{
  gsize width = WRAP_COLUMNS - strlen (key) - 1;
  const char *rest = text;
  gsize left = strlen (text);

  while (left > width)
    {
      gssize cut = -1;
      for (gsize i = 1; rest[i] != '\0' && rest[i + 1] != '\0'; i++)
        {
          if (rest[i] != ' ' || g_ascii_isspace (rest[i - 1])
              || g_ascii_isspace (rest[i + 1]))
            continue;
          if (i > width && cut >= 0)
            break;
          cut = (gssize) i;
          if (i > width)
            break;
        }
      if (cut < 0)
        break;
      g_string_append_printf (out, "%s=%.*s\n", key, (int) cut, rest);
      rest += cut + 1;
      left -= (gsize) cut + 1;
    }
  g_string_append_printf (out, "%s=%s\n", key, rest);
}

static void
append_address (GString *out, const FlOp *op)
{
  switch (op->mode)
    {
    case FL_ADDR_BASE:
      g_string_append (out, "base");
      if (op->addr != 0)
        g_string_append_printf (out, "+" HEX, op->addr);
      break;
    case FL_ADDR_CURSOR:
      g_string_append_printf (out, "+%" G_GUINT64_FORMAT, op->step);
      break;
    case FL_ADDR_ABSOLUTE:
    default:
      g_string_append_printf (out, HEX, op->addr);
      break;
    }
}

/* The op at *i, with its whole body for a repeat; *i moves past it. */
static void
append_op (GString *out, const GArray *ops, guint *i)
{
  const FlOp *op = &g_array_index (ops, FlOp, *i);
  (*i)++;

  g_string_append (out, fl_scenario_op_name (op->kind));
  if (op->kind == FL_OP_REPEAT)
    {
      guint end = MIN (*i + op->body, ops->len);
      g_string_append_printf (out, " %u {", op->count);
      for (gboolean first = TRUE; *i < end; first = FALSE)
        {
          g_string_append (out, first ? " " : "; ");
          append_op (out, ops, i);
        }
      g_string_append (out, " }");
      return;
    }
  if (op->kind == FL_OP_BARRIER)
    return;

  g_string_append_c (out, ' ');
  append_address (out, op);
  switch (op->kind)
    {
    case FL_OP_FAULT:
      g_string_append (out, op->write ? " write" : " read");
      break;
    case FL_OP_MMAP:
    case FL_OP_MPROTECT:
      g_string_append_printf (out, " " HEX " ", op->len);
      fl_scenario_append_prot (out, op->prot);
      if (op->kind == FL_OP_MMAP)
        g_string_append_printf (out, " %s", fl_scenario_map_kind_name (op->map_kind));
      break;
    case FL_OP_MUNMAP:
    case FL_OP_MADVISE_DONTNEED:
    case FL_OP_FORK_WP:
      g_string_append_printf (out, " " HEX, op->len);
      break;
    case FL_OP_SWAP_OUT:
    case FL_OP_MIGRATE:
    case FL_OP_BARRIER:
    case FL_OP_REPEAT:
    default:
      break;
    }
}

static gboolean
uses_base (const FlProgram *program)
{
  for (guint i = 0; i < program->ops->len; i++)
    if (g_array_index (program->ops, FlOp, i).kind != FL_OP_REPEAT
        && g_array_index (program->ops, FlOp, i).mode == FL_ADDR_BASE)
      return TRUE;
  return FALSE;
}

static void
append_program (GString *out, guint cpu, const FlProgram *program)
{
  gboolean base = program->base != 0 || uses_base (program);

  /* An idle CPU needs no section: a missing [cpuN] is an empty program. */
  if (!base && program->ops->len == 0)
    return;
  g_string_append_printf (out, "\n[cpu%u]\n", cpu);
  if (base)
    g_string_append_printf (out, "base=" HEX "\n", program->base);
  /* One top-level operation per line, repeat blocks whole on theirs. */
  for (guint i = 0; i < program->ops->len;)
    {
      g_string_append (out, "ops=");
      append_op (out, program->ops, &i);
      g_string_append_c (out, '\n');
    }
}

static void
append_step (GString *out, const FlScheduleStep *step)
{
  g_string_append_printf (out, "steps=cpu%u ", step->cpu);
  switch (step->kind)
    {
    case FL_UNTIL_STEPS:
      g_string_append_printf (out, "for %" G_GUINT64_FORMAT "\n", step->steps);
      break;
    case FL_UNTIL_END:
      g_string_append (out, "until end\n");
      break;
    case FL_UNTIL_FUNCTION:
    case FL_UNTIL_LOCATION:
    default:
      g_string_append_printf (out, "until %s\n", step->target ? step->target : "end");
      break;
    }
}

/**
 * fl_scenario_to_text:
 * @scenario: a scenario
 *
 * Writes @scenario in the canonical layout: sections in the order [scenario], [config],
 * [mm], [cpuN], [schedule]; only the configuration keys the scenario set; one operation and
 * one schedule step per line; addresses and lengths in hex, cursor steps in decimal; no
 * comments. fl_scenario_parse() of the result is fl_scenario_equal() to @scenario, and
 * writing that again gives the same text.
 *
 * Returns: (transfer full): the text.
 */
char *
fl_scenario_to_text (const FlScenario *scenario)
{
  g_return_val_if_fail (scenario != NULL, NULL);

  const FlScenario *s = scenario;
  GString *out = g_string_new ("[scenario]\n");

  g_string_append_printf (out, "title=%s\n", s->title ? s->title : "");
  if (s->description != NULL && *s->description != '\0')
    append_prose (out, "description", s->description);
  if (s->expect != NULL && *s->expect != '\0')
    append_prose (out, "expect", s->expect);
  if (s->tags != NULL && s->tags[0] != NULL)
    {
      g_autofree char *tags = g_strjoinv (";", s->tags);
      g_string_append_printf (out, "tags=%s\n", tags);
    }
  g_string_append_printf (out, "seed=%" G_GUINT64_FORMAT "\n", s->seed);

  if (s->config_keys != NULL && s->config_keys[0] != NULL)
    {
      g_string_append (out, "\n[config]\n");
      for (guint i = 0; s->config_keys[i] != NULL; i++)
        {
          g_autofree char *value = fl_config_get (&s->config, s->config_keys[i]);
          if (value != NULL)
            g_string_append_printf (out, "%s=%s\n", s->config_keys[i], value);
        }
    }

  if (s->vmas->len > 0 || s->ptes->len > 0)
    g_string_append (out, "\n[mm]\n");
  for (guint i = 0; i < s->vmas->len; i++)
    {
      const FlScenarioVma *vma = &g_array_index (s->vmas, FlScenarioVma, i);
      g_string_append_printf (out, "vma=" HEX "-" HEX " ", vma->start, vma->end);
      fl_scenario_append_prot (out, vma->prot);
      g_string_append_printf (out, " %s\n", fl_scenario_map_kind_name (vma->kind));
    }
  for (guint i = 0; i < s->ptes->len; i++)
    {
      const FlScenarioPte *pte = &g_array_index (s->ptes, FlScenarioPte, i);
      g_string_append_printf (out, "pte=" HEX " %s\n", pte->addr,
                              fl_scenario_pte_init_name (pte->state));
    }

  for (guint i = 0; i < s->programs->len; i++)
    append_program (out, i, g_ptr_array_index (s->programs, i));

  if (s->schedule->len > 0)
    g_string_append (out, "\n[schedule]\n");
  for (guint i = 0; i < s->schedule->len; i++)
    append_step (out, &g_array_index (s->schedule, FlScheduleStep, i));

  return g_string_free (out, FALSE);
}

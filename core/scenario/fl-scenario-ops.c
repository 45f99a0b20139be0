/* fl-scenario-ops.c — the words of the `.fault` format: numbers, addresses, permissions,
 * and the operations language of `ops=` lines. fl-scenario-parse.c reads the file's
 * lines and sections and hands values here. */
#include "fl-scenario-private.h"

#include <string.h>

/* ---- errors ------------------------------------------------------------------------------ */

/* Each returns FALSE, so callers can `return fl_scenario_fail (...)`. */
gboolean
fl_scenario_fail_valist (FlScenarioReader *r, guint line, FlScenarioError code,
                         const char *format, va_list args)
{
  g_autofree char *what = g_strdup_vprintf (format, args);
  g_set_error (r->error, FL_SCENARIO_ERROR, code, "%s:%u: %s", r->source, line, what);
  return FALSE;
}

gboolean
fl_scenario_fail_at (FlScenarioReader *r, guint line, FlScenarioError code, const char *format,
                     ...)
{
  va_list args;
  va_start (args, format);
  fl_scenario_fail_valist (r, line, code, format, args);
  va_end (args);
  return FALSE;
}

/* At the line being read. */
gboolean
fl_scenario_fail (FlScenarioReader *r, FlScenarioError code, const char *format, ...)
{
  va_list args;
  va_start (args, format);
  fl_scenario_fail_valist (r, r->line, code, format, args);
  va_end (args);
  return FALSE;
}

/* Input is quoted back in messages; a 100 KiB token must not become a 100 KiB message.
 * The copies live as long as the reader, so callers pass them straight to fl_scenario_fail(). */
const char *
fl_scenario_quote (FlScenarioReader *r, const char *text)
{
  char *copy;
  if (g_utf8_strlen (text, 48) < 48)
    copy = g_strdup (text);
  else
    {
      g_autofree char *head = g_utf8_substring (text, 0, 40);
      copy = g_strconcat (head, "…", NULL);
    }
  g_ptr_array_add (r->scratch, copy);
  return copy;
}

/* ---- words and numbers ------------------------------------------------------------------ */

/* Splits on blanks; never returns empty words. */
GStrv
fl_scenario_split_words (const char *text)
{
  g_autoptr (GStrvBuilder) builder = g_strv_builder_new ();
  const char *c = text;
  while (*c != '\0')
    {
      while (fl_scenario_is_blank (*c))
        c++;
      const char *start = c;
      while (*c != '\0' && !fl_scenario_is_blank (*c))
        c++;
      if (c > start)
        {
          g_autofree char *word = g_strndup (start, c - start);
          g_strv_builder_add (builder, word);
        }
    }
  return g_strv_builder_end (builder);
}

/* Decimal, or hex after 0x; decimal may end in K, M or G (KiB, MiB, GiB). No sign, no
 * overflow: anything else is FALSE. */
gboolean
fl_scenario_parse_number (const char *word, gboolean suffixes, guint64 *out)
{
  const char *c = word;
  guint base = 10;
  guint64 value = 0;

  if (c[0] == '0' && (c[1] == 'x' || c[1] == 'X'))
    {
      base = 16;
      c += 2;
    }
  if (!(base == 16 ? g_ascii_isxdigit (*c) : g_ascii_isdigit (*c)))
    return FALSE;
  for (; *c != '\0'; c++)
    {
      int digit = base == 16 ? g_ascii_xdigit_value (*c) : g_ascii_digit_value (*c);
      if (digit < 0)
        break;
      if (value > (G_MAXUINT64 - (guint) digit) / base)
        return FALSE;
      value = value * base + (guint) digit;
    }
  if (*c != '\0')
    {
      guint shift = *c == 'K' ? 10 : *c == 'M' ? 20 : *c == 'G' ? 30 : 0;
      if (!suffixes || base != 10 || shift == 0 || c[1] != '\0' || value > G_MAXUINT64 >> shift)
        return FALSE;
      value <<= shift;
    }
  *out = value;
  return TRUE;
}

static gboolean
is_aligned (guint64 value)
{
  return (value & (FL_SCENARIO_PAGE_SIZE - 1)) == 0;
}

/* An absolute address: 0x hex, page aligned, inside user space (@end_ok: may equal its end,
 * as a VMA's end does). */
gboolean
fl_scenario_want_address (FlScenarioReader *r, const char *word, const char *what,
                          gboolean end_ok, guint64 *out)
{
  if (!(word[0] == '0' && (word[1] == 'x' || word[1] == 'X'))
      || !fl_scenario_parse_number (word, FALSE, out))
    return fl_scenario_fail (r, FL_SCENARIO_ERROR_PARSE,
                             "invalid %s '%s' (expected a hex address such as 0x7f0000000000)",
                             what, fl_scenario_quote (r, word));
  if (!is_aligned (*out))
    return fl_scenario_fail (r, FL_SCENARIO_ERROR_INVALID,
                             "%s 0x%" G_GINT64_MODIFIER "x is not page aligned (expected a "
                             "multiple of 0x1000)",
                             what, *out);
  if (end_ok ? *out > FL_SCENARIO_USER_END : *out >= FL_SCENARIO_USER_END)
    return fl_scenario_fail (r, FL_SCENARIO_ERROR_INVALID,
                             "%s 0x%" G_GINT64_MODIFIER "x is outside user space (expected "
                             "an address below 0x800000000000)", what, *out);
  return TRUE;
}

/* A byte count or offset: page aligned, at most the size of user space. */
gboolean
fl_scenario_want_size (FlScenarioReader *r, const char *word, const char *what, gboolean zero_ok,
                       guint64 *out)
{
  if (!fl_scenario_parse_number (word, TRUE, out))
    return fl_scenario_fail (r, FL_SCENARIO_ERROR_PARSE,
                             "invalid %s '%s' (expected a number of bytes such as 4096, "
                             "0x4000 or 16K)",
                             what, fl_scenario_quote (r, word));
  if (*out == 0 && !zero_ok)
    return fl_scenario_fail (r, FL_SCENARIO_ERROR_INVALID,
                             "%s is 0 (expected at least one page, 4096)", what);
  if (!is_aligned (*out))
    return fl_scenario_fail (r, FL_SCENARIO_ERROR_INVALID,
                             "%s %s is not page aligned (expected a multiple of 4096)", what, word);
  if (*out > FL_SCENARIO_USER_END)
    return fl_scenario_fail (r, FL_SCENARIO_ERROR_INVALID,
                             "%s %s is larger than user space (expected at most 0x800000000000)",
                             what, word);
  return TRUE;
}

gboolean
fl_scenario_want_prot (FlScenarioReader *r, const char *word, guint *out)
{
  static const char letters[] = "rwx";
  *out = 0;
  for (guint i = 0; i < 3; i++)
    {
      if (word[i] == letters[i])
        *out |= 1u << i;
      else if (word[i] != '-')
        break;
      if (i == 2 && word[3] == '\0')
        return TRUE;
    }
  return fl_scenario_fail (r, FL_SCENARIO_ERROR_PARSE,
                           "invalid permissions '%s' (expected three letters r, w, x "
                           "or '-' in that order, such as rw-, r-x or ---)",
                           fl_scenario_quote (r, word));
}

gboolean
fl_scenario_want_map_kind (FlScenarioReader *r, const char *word, FlMapKind *out)
{
  for (FlMapKind kind = FL_MAP_ANON; kind <= FL_MAP_SHARED; kind++)
    if (strcmp (word, fl_scenario_map_kind_name (kind)) == 0)
      {
        *out = kind;
        return TRUE;
      }
  return fl_scenario_fail (r, FL_SCENARIO_ERROR_PARSE,
                           "invalid mapping kind '%s' (expected anon, file or shared)",
                           fl_scenario_quote (r, word));
}

/* "cpu" and a number without leading zeros. */
gboolean
fl_scenario_parse_cpu_name (const char *word, guint *out)
{
  guint64 value;
  if (!g_str_has_prefix (word, "cpu") || !g_ascii_isdigit (word[3])
      || (word[3] == '0' && word[4] != '\0') || strlen (word) > 12
      || !fl_scenario_parse_number (word + 3, FALSE, &value))
    return FALSE;
  *out = (guint) value;
  return TRUE;
}

/* Keys of structured values may carry a trailing comment; prose keys keep their '#'. */
char *
fl_scenario_strip_comment (const char *value)
{
  const char *hash = strchr (value, '#');
  char *copy = hash ? g_strndup (value, hash - value) : g_strdup (value);
  return g_strstrip (copy);
}

/* ---- [cpuN] ------------------------------------------------------------------------------- */

typedef struct {
  const char *name;
  FlOpKind    kind;
  guint       args;
  const char *usage;
} OpInfo;

static const OpInfo op_table[] = {
  { "fault", FL_OP_FAULT, 2, "fault ADDR read|write" },
  { "mmap", FL_OP_MMAP, 4, "mmap ADDR LEN PERMS anon|file|shared" },
  { "munmap", FL_OP_MUNMAP, 2, "munmap ADDR LEN" },
  { "mprotect", FL_OP_MPROTECT, 3, "mprotect ADDR LEN PERMS" },
  { "madvise-dontneed", FL_OP_MADVISE_DONTNEED, 2, "madvise-dontneed ADDR LEN" },
  { "fork-wp", FL_OP_FORK_WP, 2, "fork-wp ADDR LEN" },
  { "swap-out", FL_OP_SWAP_OUT, 1, "swap-out ADDR" },
  { "migrate", FL_OP_MIGRATE, 1, "migrate ADDR" },
  { "barrier", FL_OP_BARRIER, 0, "barrier" },
  { "repeat", FL_OP_REPEAT, 1, "repeat N { OPS }" },
};

static gboolean
want_op_address (FlScenarioReader *r, const char *word, FlOp *op)
{
  if (word[0] == '0' && (word[1] == 'x' || word[1] == 'X'))
    {
      op->mode = FL_ADDR_ABSOLUTE;
      return fl_scenario_want_address (r, word, "address", FALSE, &op->addr);
    }
  if (strcmp (word, "base") == 0)
    {
      op->mode = FL_ADDR_BASE;
      return TRUE;
    }
  if (g_str_has_prefix (word, "base+"))
    {
      op->mode = FL_ADDR_BASE;
      return fl_scenario_want_size (r, word + 5, "offset from base", TRUE, &op->addr);
    }
  if (word[0] == '+')
    {
      op->mode = FL_ADDR_CURSOR;
      return fl_scenario_want_size (r, word + 1, "cursor step", TRUE, &op->step);
    }
  return fl_scenario_fail (r, FL_SCENARIO_ERROR_PARSE,
                           "invalid address '%s' (expected 0xADDRESS, base, base+OFFSET or +STEP)",
                           fl_scenario_quote (r, word));
}

static gboolean
add_op (FlScenarioReader *r, FlProgram *program, GPtrArray *words)
{
  const char *name = g_ptr_array_index (words, 0);
  const OpInfo *info = NULL;
  FlOp op = { .line = r->line };
  guint args = words->len - 1;
  char **arg = (char **) words->pdata + 1;

  for (guint i = 0; i < G_N_ELEMENTS (op_table); i++)
    if (strcmp (name, op_table[i].name) == 0)
      info = &op_table[i];
  if (info == NULL)
    return fl_scenario_fail (r, FL_SCENARIO_ERROR_PARSE,
                             "unknown operation '%s' (expected fault, mmap, munmap, mprotect, "
                             "madvise-dontneed, fork-wp, swap-out, migrate, barrier or repeat)",
                             fl_scenario_quote (r, name));
  if (info->kind == FL_OP_REPEAT)
    return fl_scenario_fail (r, FL_SCENARIO_ERROR_PARSE,
                             "repeat without a block (expected repeat N { OPS })");
  if (args != info->args)
    return fl_scenario_fail (r, FL_SCENARIO_ERROR_PARSE,
                             "'%s' takes %u argument%s, found %u (expected %s)", name, info->args,
                             info->args == 1 ? "" : "s", args, info->usage);

  op.kind = info->kind;
  if (args > 0 && !want_op_address (r, arg[0], &op))
    return FALSE;
  /* Arguments checked left to right, so the first mistake on the line is the one named. */
  if (op.kind == FL_OP_FAULT)
    {
      if (strcmp (arg[1], "read") != 0 && strcmp (arg[1], "write") != 0)
        return fl_scenario_fail (r, FL_SCENARIO_ERROR_PARSE,
                                 "invalid access '%s' (expected read or write)",
                                 fl_scenario_quote (r, arg[1]));
      op.write = strcmp (arg[1], "write") == 0;
    }
  else if (args >= 2)
    {
      if (!fl_scenario_want_size (r, arg[1], "length", FALSE, &op.len))
        return FALSE;
      if (args >= 3 && !fl_scenario_want_prot (r, arg[2], &op.prot))
        return FALSE;
      if (args >= 4 && !fl_scenario_want_map_kind (r, arg[3], &op.map_kind))
        return FALSE;
    }
  g_array_append_val (program->ops, op);
  return TRUE;
}

static gboolean
open_repeat (FlScenarioReader *r, FlProgram *program, GArray *open, GPtrArray *words)
{
  FlOp op = { .kind = FL_OP_REPEAT, .line = r->line };
  guint64 count;

  if (words->len == 0)
    return fl_scenario_fail (r, FL_SCENARIO_ERROR_PARSE,
                             "'{' without 'repeat N' before it (expected repeat N { OPS })");
  if (strcmp (g_ptr_array_index (words, 0), "repeat") != 0 || words->len != 2)
    return fl_scenario_fail (r, FL_SCENARIO_ERROR_PARSE,
                             "'{' after '%s' (expected repeat N { OPS })",
                             fl_scenario_quote (r, g_ptr_array_index (words, 0)));
  if (!fl_scenario_parse_number (g_ptr_array_index (words, 1), FALSE, &count))
    return fl_scenario_fail (r, FL_SCENARIO_ERROR_PARSE,
                             "invalid repeat count '%s' (expected a whole number from 1 to %u)",
                             fl_scenario_quote (r, g_ptr_array_index (words, 1)),
                             FL_SCENARIO_MAX_REPEAT);
  if (count < 1 || count > FL_SCENARIO_MAX_REPEAT)
    return fl_scenario_fail (r, FL_SCENARIO_ERROR_INVALID,
                             "repeat count %" G_GUINT64_FORMAT " is out of range (expected 1 "
                             "to %u)",
                             count, FL_SCENARIO_MAX_REPEAT);
  if (open->len >= FL_SCENARIO_MAX_DEPTH)
    return fl_scenario_fail (r, FL_SCENARIO_ERROR_INVALID,
                             "repeat blocks nested more than %u deep (expected at most %u levels)",
                             FL_SCENARIO_MAX_DEPTH, FL_SCENARIO_MAX_DEPTH);
  op.count = (guint) count;
  g_array_append_val (program->ops, op);
  guint index = program->ops->len - 1;
  g_array_append_val (open, index);
  return TRUE;
}

static gboolean
close_repeat (FlScenarioReader *r, FlProgram *program, GArray *open)
{
  if (open->len == 0)
    return fl_scenario_fail (r, FL_SCENARIO_ERROR_PARSE,
                             "unbalanced '}' (expected it only to close a repeat block)");
  guint index = g_array_index (open, guint, open->len - 1);
  g_array_set_size (open, open->len - 1);
  FlOp *repeat = &g_array_index (program->ops, FlOp, index);
  repeat->body = program->ops->len - index - 1;
  if (repeat->body == 0)
    return fl_scenario_fail (r, FL_SCENARIO_ERROR_INVALID,
                             "empty repeat block (expected at least one operation between "
                             "'{' and '}')");
  return TRUE;
}

/* One ops= value: operations separated by ';', with '{' and '}' as tokens of their own so
 * `repeat 4 {fault +4096 write}` needs no spaces. A block may span several ops= lines. */
gboolean
fl_scenario_parse_ops (FlScenarioReader *r, FlProgram *program, GArray *open,
                       const char *value)
{
  g_autoptr (GPtrArray) words = g_ptr_array_new_with_free_func (g_free);
  gboolean after_close = FALSE;
  const char *c = value;

  for (;;)
    {
      while (fl_scenario_is_blank (*c))
        c++;
      char token = *c;
      if (token != '\0' && token != ';' && token != '{' && token != '}')
        {
          const char *start = c;
          while (*c != '\0' && !fl_scenario_is_blank (*c) && *c != ';' && *c != '{' && *c != '}')
            c++;
          g_autofree char *word = g_strndup (start, c - start);
          if (after_close)
            return fl_scenario_fail (r, FL_SCENARIO_ERROR_PARSE,
                                     "'%s' right after '}' (expected ';' between operations)",
                                     fl_scenario_quote (r, word));
          g_ptr_array_add (words, g_steal_pointer (&word));
          continue;
        }
      if (token == '{')
        {
          if (after_close)
            return fl_scenario_fail (r, FL_SCENARIO_ERROR_PARSE,
                                     "'{' right after '}' (expected ';' between operations)");
          if (!open_repeat (r, program, open, words))
            return FALSE;
        }
      else if (words->len > 0 && !add_op (r, program, words))
        return FALSE;
      g_ptr_array_set_size (words, 0);
      if (token == '}' && !close_repeat (r, program, open))
        return FALSE;
      after_close = token == '}';
      if (token == '\0')
        return TRUE;
      c++;
    }
}


#pragma once

/* What the scenario files share and the public API does not show: fl-scenario.c (the value,
 * loading), fl-scenario-parse.c (lines and sections), fl-scenario-ops.c (values and the
 * operations language), fl-scenario-check.c (whole-file checks), fl-scenario-write.c. */

#include "fl-scenario.h"

G_BEGIN_DECLS

/* 4 KiB pages: every address and length in a scenario is a multiple. */
#define FL_SCENARIO_PAGE_SIZE   G_GUINT64_CONSTANT (0x1000)
/* End of x86-64 user space with 4-level page tables (47 bits); nothing may reach past it. */
#define FL_SCENARIO_USER_END    G_GUINT64_CONSTANT (0x800000000000)
/* Scenario files are written by hand: anything larger is a mistake or an attack on the
 * parser. Text handed to the parser directly may be larger, so the canonical rewrite of any
 * file that loads (at most 2.5 times as long: `ops=` and hex spelled out) parses again. */
#define FL_SCENARIO_MAX_BYTES   (1024 * 1024)
#define FL_SCENARIO_MAX_TEXT    (4 * 1024 * 1024)
#define FL_SCENARIO_MAX_REPEAT  10000000u

FlScenario *fl_scenario_new     (void);
FlProgram  *fl_program_new      (void);
void        fl_program_free     (FlProgram *program);

const char *fl_scenario_op_name (FlOpKind kind);
const char *fl_scenario_map_kind_name (FlMapKind kind);
const char *fl_scenario_pte_init_name (FlPteInit state);
void        fl_scenario_append_prot   (GString *out,
                                       guint    prot);

/* ---- reading ---------------------------------------------------------------------------- */

/* Where a reader is, for messages: every error is "SOURCE:LINE: what (expected ...)". */
typedef struct {
  const char *source;
  GError    **error;
  guint       line;
  GPtrArray  *scratch;      /* strings quoted in messages, freed with the reader */
} FlScenarioReader;

gboolean    fl_scenario_fail          (FlScenarioReader *r,
                                       FlScenarioError   code,
                                       const char       *format,
                                       ...) G_GNUC_PRINTF (3, 4);
gboolean    fl_scenario_fail_at       (FlScenarioReader *r,
                                       guint             line,
                                       FlScenarioError   code,
                                       const char       *format,
                                       ...) G_GNUC_PRINTF (4, 5);
gboolean    fl_scenario_fail_valist   (FlScenarioReader *r,
                                       guint             line,
                                       FlScenarioError   code,
                                       const char       *format,
                                       va_list           args) G_GNUC_PRINTF (4, 0);
const char *fl_scenario_quote         (FlScenarioReader *r,
                                       const char       *text);

GStrv       fl_scenario_split_words   (const char *text);
char       *fl_scenario_strip_comment (const char *value);
gboolean    fl_scenario_parse_number  (const char *word,
                                       gboolean    suffixes,
                                       guint64    *out);
gboolean    fl_scenario_parse_cpu_name(const char *word,
                                       guint      *out);
gboolean    fl_scenario_want_address  (FlScenarioReader *r,
                                       const char       *word,
                                       const char       *what,
                                       gboolean          end_ok,
                                       guint64          *out);
gboolean    fl_scenario_want_size     (FlScenarioReader *r,
                                       const char       *word,
                                       const char       *what,
                                       gboolean          zero_ok,
                                       guint64          *out);
gboolean    fl_scenario_want_prot     (FlScenarioReader *r,
                                       const char       *word,
                                       guint            *out);
gboolean    fl_scenario_want_map_kind (FlScenarioReader *r,
                                       const char       *word,
                                       FlMapKind        *out);
gboolean    fl_scenario_parse_ops     (FlScenarioReader *r,
                                       FlProgram        *program,
                                       GArray           *open,
                                       const char       *value);

/* fl_scenario_parse_data() with a size limit of its own. */
FlScenario *fl_scenario_parse_limited (const char *data,
                                       gsize       length,
                                       const char *source_name,
                                       gsize       limit,
                                       GError    **error);

/* The checks that need the whole file. @base_lines: per CPU, the line of its base=, 0 when
 * it has none. */
gboolean    fl_scenario_check         (FlScenarioReader *r,
                                       const FlScenario *scenario,
                                       const guint      *base_lines);

static inline gboolean
fl_scenario_is_blank (char c)
{
  return c == ' ' || c == '\t';
}

/* Saturating: reach computations over ten-million-fold repeats must not wrap around. */
static inline guint64
fl_scenario_sat_add (guint64 a, guint64 b)
{
  return a > G_MAXUINT64 - b ? G_MAXUINT64 : a + b;
}

static inline guint64
fl_scenario_sat_mul (guint64 a, guint64 b)
{
  return b != 0 && a > G_MAXUINT64 / b ? G_MAXUINT64 : a * b;
}

G_END_DECLS

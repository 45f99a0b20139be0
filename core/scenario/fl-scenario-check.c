/* fl-scenario-check.c — the checks that need the whole scenario: overlapping mappings, PTEs
 * outside them, ranges relative to a base given anywhere in the section, how far a cursor
 * walks over nested repeats, CPUs named in the schedule. Each error points at the line of
 * the item at fault. */
#include "fl-scenario-private.h"

#define ADDR "0x%" G_GINT64_MODIFIER "x"

static int
compare_vmas (gconstpointer a, gconstpointer b)
{
  const FlScenarioVma *x = *(const FlScenarioVma *const *) a;
  const FlScenarioVma *y = *(const FlScenarioVma *const *) b;
  return x->start < y->start ? -1 : x->start > y->start ? 1 : (int) x->line - (int) y->line;
}

static int
compare_ptes (gconstpointer a, gconstpointer b)
{
  const FlScenarioPte *x = *(const FlScenarioPte *const *) a;
  const FlScenarioPte *y = *(const FlScenarioPte *const *) b;
  return x->addr < y->addr ? -1 : x->addr > y->addr ? 1 : (int) x->line - (int) y->line;
}

/* Sorted views, so a file of thousands of mappings is checked in n log n. */
static GPtrArray *
sorted (GArray *array, gsize size, GCompareFunc compare)
{
  GPtrArray *out = g_ptr_array_sized_new (array->len);
  for (guint i = 0; i < array->len; i++)
    g_ptr_array_add (out, array->data + i * size);
  g_ptr_array_sort (out, compare);
  return out;
}

static gboolean
check_vmas (FlScenarioReader *r, GPtrArray *vmas)
{
  const FlScenarioVma *furthest = NULL;   /* of the VMAs so far, the one ending highest */

  for (guint i = 0; i < vmas->len; i++)
    {
      const FlScenarioVma *vma = g_ptr_array_index (vmas, i);
      if (furthest != NULL && furthest->end > vma->start)
        {
          /* Point at whichever of the two was written second: that is the one added. */
          const FlScenarioVma *later = furthest->line > vma->line ? furthest : vma;
          const FlScenarioVma *other = later == vma ? furthest : vma;
          return fl_scenario_fail_at (r, later->line, FL_SCENARIO_ERROR_INVALID,
                                      "VMA " ADDR "-" ADDR " overlaps " ADDR "-" ADDR
                                      " on line %u (expected VMAs that do not overlap)",
                                      later->start, later->end, other->start, other->end,
                                      other->line);
        }
      if (furthest == NULL || vma->end > furthest->end)
        furthest = vma;
    }
  return TRUE;
}

static gboolean
check_ptes (FlScenarioReader *r, GPtrArray *vmas, GPtrArray *ptes)
{
  guint v = 0;

  /* Both sorted and the VMAs disjoint: one walk finds each PTE's VMA. */
  for (guint i = 0; i < ptes->len; i++)
    {
      const FlScenarioPte *pte = g_ptr_array_index (ptes, i);
      const FlScenarioPte *prev = i > 0 ? g_ptr_array_index (ptes, i - 1) : NULL;
      if (prev != NULL && prev->addr == pte->addr)
        return fl_scenario_fail_at (r, pte->line, FL_SCENARIO_ERROR_INVALID,
                                    "second pte= for " ADDR " (first on line %u; expected "
                                    "one state per page)", pte->addr, prev->line);
      while (v < vmas->len && ((const FlScenarioVma *) vmas->pdata[v])->end <= pte->addr)
        v++;
      const FlScenarioVma *vma = v < vmas->len ? vmas->pdata[v] : NULL;
      if (vma == NULL || vma->start > pte->addr)
        return fl_scenario_fail_at (r, pte->line, FL_SCENARIO_ERROR_INVALID,
                                    "pte " ADDR " is outside every VMA (expected a page "
                                    "inside a vma= range)", pte->addr);
      if (vma->kind == FL_MAP_SHARED && pte->state == FL_PTE_INIT_SWAP)
        return fl_scenario_fail_at (r, pte->line, FL_SCENARIO_ERROR_INVALID,
                                    "pte " ADDR " is a swap entry in a shared mapping "
                                    "(expected present, readonly or migration: shared "
                                    "pages go back to their file, not to swap)", pte->addr);
    }
  return TRUE;
}

/* How far a stretch of a program moves the cursor and what it reaches, so a repeat of ten
 * million iterations is checked without running it. A stretch either sets the cursor to an
 * address somewhere (`reset`: an absolute or base-relative operation) or only moves the
 * cursor it was handed. Stretches compose: reach_then (a, b) is a followed by b. */
typedef struct {
  gboolean reset;
  guint64  advance;     /* !reset: how far the cursor moves */
  guint64  rel_max;     /* furthest end reached before any reset, from the starting cursor */
  guint64  end_abs;     /* reset: the cursor at the end */
  guint64  abs_max;     /* reset: furthest end reached from the first reset on */
} Reach;

static Reach
reach_then (Reach a, Reach b)
{
  Reach r;
  if (!a.reset)
    {
      r = b;
      r.rel_max = MAX (a.rel_max, fl_scenario_sat_add (a.advance, b.rel_max));
      if (!b.reset)
        r.advance = fl_scenario_sat_add (a.advance, b.advance);
      return r;
    }
  r = a;
  r.abs_max = MAX (a.abs_max, fl_scenario_sat_add (a.end_abs, b.rel_max));
  if (b.reset)
    {
      r.end_abs = b.end_abs;
      r.abs_max = MAX (r.abs_max, b.abs_max);
    }
  else
    r.end_abs = fl_scenario_sat_add (a.end_abs, b.advance);
  return r;
}

/* The bytes an operation touches from its address. */
static guint64
op_extent (const FlOp *op)
{
  switch (op->kind)
    {
    case FL_OP_FAULT:
    case FL_OP_SWAP_OUT:
    case FL_OP_MIGRATE:
      return FL_SCENARIO_PAGE_SIZE;
    case FL_OP_BARRIER:
    case FL_OP_REPEAT:
      return 0;
    case FL_OP_MMAP:
    case FL_OP_MUNMAP:
    case FL_OP_MPROTECT:
    case FL_OP_MADVISE_DONTNEED:
    case FL_OP_FORK_WP:
    default:
      return op->len;
    }
}

/* The reach of the op at *i, with its body for a repeat; *i moves past both. Recursion is
 * as deep as the nesting, which the parser bounds. */
static Reach
reach_of (const FlProgram *program, guint *i)
{
  const FlOp *op = &g_array_index (program->ops, FlOp, *i);
  Reach r = { 0 };
  (*i)++;

  if (op->kind == FL_OP_REPEAT)
    {
      Reach body = { 0 };
      guint end = MIN (*i + op->body, program->ops->len);
      while (*i < end)
        body = reach_then (body, reach_of (program, i));
      if (body.reset)
        /* Every iteration after the first starts where the second does. */
        return op->count > 1 ? reach_then (body, body) : body;
      guint64 before_last = fl_scenario_sat_mul (body.advance, op->count - 1);
      r.advance = fl_scenario_sat_mul (body.advance, op->count);
      r.rel_max = fl_scenario_sat_add (before_last, body.rel_max);
      return r;
    }
  if (op->kind == FL_OP_BARRIER)
    return r;
  if (op->mode == FL_ADDR_CURSOR)
    {
      r.advance = op->step;
      r.rel_max = op_extent (op);
      return r;
    }
  r.reset = TRUE;
  r.end_abs = op->mode == FL_ADDR_BASE ? fl_scenario_sat_add (program->base, op->addr)
                                       : op->addr;
  r.abs_max = fl_scenario_sat_add (r.end_abs, op_extent (op));
  return r;
}

static gboolean
check_program (FlScenarioReader *r, guint cpu, const FlProgram *program, guint base_line)
{
  for (guint i = 0; i < program->ops->len; i++)
    {
      const FlOp *op = &g_array_index (program->ops, FlOp, i);
      if (op->kind == FL_OP_REPEAT || op->kind == FL_OP_BARRIER || op->mode == FL_ADDR_CURSOR)
        continue;
      if (op->mode == FL_ADDR_BASE && base_line == 0)
        return fl_scenario_fail_at (r, op->line, FL_SCENARIO_ERROR_INVALID,
                                    "%s relative to base, but [cpu%u] has no base= "
                                    "(expected base=0x... in the section)",
                                    fl_scenario_op_name (op->kind), cpu);
      guint64 start = op->mode == FL_ADDR_BASE ? fl_scenario_sat_add (program->base, op->addr)
                                               : op->addr;
      if (fl_scenario_sat_add (start, op_extent (op)) > FL_SCENARIO_USER_END)
        return fl_scenario_fail_at (r, op->line, FL_SCENARIO_ERROR_INVALID,
                                    "%s at " ADDR " reaches past the end of user space "
                                    "(expected a range below 0x800000000000)",
                                    fl_scenario_op_name (op->kind), start);
    }

  /* Top-level operations one at a time, so the error names the one that goes too far. */
  Reach so_far = { 0 };
  for (guint i = 0; i < program->ops->len;)
    {
      guint line = g_array_index (program->ops, FlOp, i).line;
      so_far = reach_then (so_far, reach_of (program, &i));
      guint64 furthest = fl_scenario_sat_add (program->base, so_far.rel_max);
      if (so_far.reset)
        furthest = MAX (furthest, so_far.abs_max);
      if (furthest > FL_SCENARIO_USER_END)
        return fl_scenario_fail_at (r, line, FL_SCENARIO_ERROR_INVALID,
                                    "the cursor of cpu%u runs past the end of user space "
                                    "0x800000000000 (expected +STEP and repeat counts that "
                                    "stay below it)", cpu);
    }
  return TRUE;
}

gboolean
fl_scenario_check (FlScenarioReader *r, const FlScenario *s, const guint *base_lines)
{
  g_autoptr (GPtrArray) vmas = sorted (s->vmas, sizeof (FlScenarioVma), compare_vmas);
  g_autoptr (GPtrArray) ptes = sorted (s->ptes, sizeof (FlScenarioPte), compare_ptes);

  if (!check_vmas (r, vmas) || !check_ptes (r, vmas, ptes))
    return FALSE;
  for (guint i = 0; i < s->programs->len; i++)
    if (!check_program (r, i, g_ptr_array_index (s->programs, i), base_lines[i]))
      return FALSE;
  for (guint i = 0; i < s->schedule->len; i++)
    {
      const FlScheduleStep *step = &g_array_index (s->schedule, FlScheduleStep, i);
      if (step->cpu >= s->programs->len)
        return fl_scenario_fail_at (r, step->line, FL_SCENARIO_ERROR_INVALID,
                                    "the schedule names cpu%u but the scenario has %u CPU%s "
                                    "(expected cpu0 to cpu%u)", step->cpu, s->programs->len,
                                    s->programs->len == 1 ? "" : "s", s->programs->len - 1);
    }
  return TRUE;
}

/* fl-paint-compare-words.c — B against A in words. A bare "2.49×" beside "cycles" leaves the
 * reader to work out whether B is better or worse, and at which moment; the table and the
 * description say it: "B is 2.9× faster", "2.5× fewer: better". */
#include "fl-paint-compare-private.h"

/* "2.9", "12.5", "150", "1.04": as many digits as a slide needs, more only near 1 where
 * one decimal would say "1.0× faster". */
static void
format_factor (double r, char *buf, gsize size)
{
  g_snprintf (buf, size, r >= 100 ? "%.0f" : r >= 1.095 ? "%.1f" : "%.2f", r);
}

/* Within a percent: a rate or a run's length that close is no verdict; a design is not
 * "1.00× faster". Counts are exact and compared exactly. */
static gboolean
about_equal (guint64 a, guint64 b)
{
  return (double) MAX (a, b) <= (double) MIN (a, b) * 1.01;
}

/**
 * fl_compare_words:
 * @better: which way the row is better
 * @rate: the row is a rate (faults per second): more is faster
 * @a: run A's value
 * @b: run B's value
 * @verdict: (out) (optional): 1 when B is better, -1 when B is worse, 0 when neither
 *
 * Returns: (transfer full): B against A in plain words
 */
char *
fl_compare_words (FlBetter better, gboolean rate, guint64 a, guint64 b, int *verdict)
{
  int v = 0;
  char f[32];
  char *text;

  if (a == b || (rate && about_equal (a, b)))
    {
      /* Translators: B against A in the compare table when both are equal (a rate: within
       * a percent) */
      text = g_strdup (rate ? _("same speed") : _("same"));
    }
  else if (a == 0 || b == 0)
    {
      gboolean more = b > a;
      v = better == FL_BETTER_NEITHER ? 0 : (more == (better == FL_BETTER_HIGHER) ? 1 : -1);
      /* Translators: B against A when one of them is zero: only B has any, or B has none */
      text = g_strdup (more ? (v > 0 ? _("only B: better") : v < 0 ? _("only B: worse")
                                                                   : _("only B"))
                            : (v > 0 ? _("none in B: better") : v < 0 ? _("none in B: worse")
                                                                      : _("none in B")));
    }
  else
    {
      gboolean more = b > a;
      double r = more ? (double) b / (double) a : (double) a / (double) b;
      format_factor (r, f, sizeof f);
      v = better == FL_BETTER_NEITHER ? 0 : (more == (better == FL_BETTER_HIGHER) ? 1 : -1);
      if (rate)
        /* Translators: B against A for a rate; %s is a factor such as 2.9 */
        text = g_strdup_printf (more ? _("B is %s× faster") : _("B is %s× slower"), f);
      else if (v > 0)
        /* Translators: B against A for a count where B's is better; %s is a factor */
        text = g_strdup_printf (more ? _("%s× more: better") : _("%s× fewer: better"), f);
      else if (v < 0)
        /* Translators: B against A for a count where B's is worse; %s is a factor */
        text = g_strdup_printf (more ? _("%s× more: worse") : _("%s× fewer: worse"), f);
      else
        /* Translators: B against A for a count that is neither better nor worse */
        text = g_strdup_printf (more ? _("%s× more") : _("%s× fewer"), f);
    }
  if (verdict)
    *verdict = v;
  return text;
}

/**
 * fl_compare_finish_words:
 * @a: the cycles run A took from start to end
 * @b: run B's
 * @verdict: (out) (optional): 1 when B finishes sooner, -1 when later, 0 when as soon
 *
 * Returns: (transfer full): how the whole runs' lengths compare, in words
 */
char *
fl_compare_finish_words (guint64 a, guint64 b, int *verdict)
{
  char f[32];
  int v = about_equal (a, b) || a == 0 || b == 0 ? 0 : b < a ? 1 : -1;
  if (verdict)
    *verdict = v;
  if (v == 0)
    /* Translators: two compared runs took as long as each other, within a percent */
    return g_strdup (_("Both runs take about as long."));
  format_factor (v > 0 ? (double) a / (double) b : (double) b / (double) a, f, sizeof f);
  /* Translators: how the whole runs compare; %s is a factor such as 2.9 */
  return g_strdup_printf (v > 0 ? _("B is done %s× sooner: faster") : _("B takes %s× as long: slower"),
                          f);
}

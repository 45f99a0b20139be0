/* fl-loc.c — names of modeled functions and listing locations. */
#include "fl-loc.h"

#include <string.h>

static const char *const fn_names[FL_FN_N] = {
#define FL_FN(id, name, file, kinds, step) name,
#define FL_LOC(fn, tag)
#include "fl-locs.def"
#undef FL_FN
#undef FL_LOC
};

static const char *const fn_files[FL_FN_N] = {
#define FL_FN(id, name, file, kinds, step) file,
#define FL_LOC(fn, tag)
#include "fl-locs.def"
#undef FL_FN
#undef FL_LOC
};

const guint8 fl_fn_kinds_of[FL_FN_N] = {
#define FL_FN(id, name, file, kinds, step) kinds,
#define FL_LOC(fn, tag)
#include "fl-locs.def"
#undef FL_FN
#undef FL_LOC
};

/* The X-macro's ID itself, "DO_PAGE_FAULT": unique where listing names are not. */
static const char *const fn_ids[FL_FN_N] = {
#define FL_FN(id, name, file, kinds, step) #id,
#define FL_LOC(fn, tag)
#include "fl-locs.def"
#undef FL_FN
#undef FL_LOC
};

static const guint8 loc_fns[FL_LOC_N] = {
  0,
#define FL_FN(id, name, file, kinds, step)
#define FL_LOC(fn, tag) FL_FN_##fn,
#include "fl-locs.def"
#undef FL_FN
#undef FL_LOC
};

static const char *const loc_tags[FL_LOC_N] = {
  "",
#define FL_FN(id, name, file, kinds, step)
#define FL_LOC(fn, tag) #tag,
#include "fl-locs.def"
#undef FL_FN
#undef FL_LOC
};

G_STATIC_ASSERT (FL_FN_N < 256);

const char *
fl_fn_name (FlFn fn)
{
  return fn < FL_FN_N ? fn_names[fn] : "?";
}

const char *
fl_fn_id (FlFn fn)
{
  return fn < FL_FN_N ? fn_ids[fn] : "?";
}

const char *
fl_fn_file (FlFn fn)
{
  return fn < FL_FN_N ? fn_files[fn] : "?";
}

/* Several functions share a listing name with another variant (the generic and the xadd
 * rwsem both have a __down_read): the first one wins, callers needing the variant use ids. */
FlFn
fl_fn_lookup (const char *name)
{
  for (guint i = 0; i < FL_FN_N; i++)
    if (strcmp (fn_names[i], name) == 0)
      return i;
  return FL_FN_N;
}

FlFn
fl_loc_fn (FlLoc loc)
{
  return loc < FL_LOC_N ? loc_fns[loc] : FL_FN_N;
}

const char *
fl_loc_tag (FlLoc loc)
{
  return loc < FL_LOC_N ? loc_tags[loc] : "?";
}

/* Every call of a modeled function asks for its first line: a table made once instead of a
 * search through every location per call. */
FlLoc
fl_loc_first (FlFn fn)
{
  static guint16 first[FL_FN_N + 1];
  static gsize made = 0;
  if (g_once_init_enter (&made))
    {
      for (guint i = FL_LOC_N - 1; i >= 1; i--)
        first[loc_fns[i]] = i;
      g_once_init_leave (&made, 1);
    }
  return fn < FL_FN_N ? first[fn] : FL_LOC_NONE;
}

FlLoc
fl_loc_lookup (const char *fn_name, const char *tag)
{
  for (guint i = 1; i < FL_LOC_N; i++)
    if (strcmp (loc_tags[i], tag) == 0 && strcmp (fn_names[loc_fns[i]], fn_name) == 0)
      return i;
  return FL_LOC_NONE;
}

/**
 * fl_loc_target_exists:
 * @target: a schedule stop point: a function name, a listing tag, or function:tag
 *
 * Returns: whether some modeled function or listing location answers to @target, so that a
 * schedule can ever stop there.
 */
gboolean
fl_loc_target_exists (const char *target)
{
  const char *colon = strchr (target, ':');
  if (colon != NULL)
    {
      g_autofree char *fn = g_strndup (target, colon - target);
      return fl_loc_lookup (fn, colon + 1) != FL_LOC_NONE;
    }
  if (fl_fn_lookup (target) != FL_FN_N)
    return TRUE;
  for (guint i = 1; i < FL_LOC_N; i++)
    if (strcmp (loc_tags[i], target) == 0)
      return TRUE;
  return FALSE;
}

/* Levenshtein distance, on two rows: names here are short (under 64 bytes), longer ones are
 * cut, which only makes them look less alike. */
static guint
distance (const char *a, const char *b)
{
  guint la = MIN (strlen (a), 63u), lb = MIN (strlen (b), 63u);
  guint row[64], prev[64];
  for (guint j = 0; j <= lb; j++)
    prev[j] = j;
  for (guint i = 1; i <= la; i++)
    {
      row[0] = i;
      for (guint j = 1; j <= lb; j++)
        {
          guint sub = prev[j - 1] + (a[i - 1] != b[j - 1]);
          row[j] = MIN (sub, MIN (prev[j], row[j - 1]) + 1);
        }
      memcpy (prev, row, sizeof (guint) * (lb + 1));
    }
  return prev[lb];
}

#define NEAREST 3

static void
consider (const char *name, guint d, const char **best, guint *best_d)
{
  for (guint k = 0; k < NEAREST; k++)
    if (best[k] != NULL && strcmp (best[k], name) == 0)
      return;
  for (guint k = 0; k < NEAREST; k++)
    if (best[k] == NULL || d < best_d[k])
      {
        for (guint m = NEAREST - 1; m > k; m--)
          {
            best[m] = best[m - 1];
            best_d[m] = best_d[m - 1];
          }
        best[k] = name;
        best_d[k] = d;
        return;
      }
}

/**
 * fl_loc_target_nearest:
 * @target: a stop point that fl_loc_target_exists() refused
 *
 * The valid stop points spelt most like @target, for an error message: of the same form
 * (function:tag for function:tag, else function names and tags), closest first, ties in the
 * order of the listings.
 *
 * Returns: (transfer full): up to three names, e.g. "handle_pte_fault, handle_mm_fault or
 * __do_fault".
 */
char *
fl_loc_target_nearest (const char *target)
{
  const char *best[NEAREST] = { NULL };
  guint best_d[NEAREST] = { 0 };
  g_autoptr (GPtrArray) pairs = g_ptr_array_new_with_free_func (g_free);

  if (strchr (target, ':') != NULL)
    for (guint i = 1; i < FL_LOC_N; i++)
      {
        char *pair = g_strdup_printf ("%s:%s", fn_names[loc_fns[i]], loc_tags[i]);
        g_ptr_array_add (pairs, pair);
        consider (pair, distance (target, pair), best, best_d);
      }
  else
    {
      for (guint i = 0; i < FL_FN_N; i++)
        consider (fn_names[i], distance (target, fn_names[i]), best, best_d);
      for (guint i = 1; i < FL_LOC_N; i++)
        consider (loc_tags[i], distance (target, loc_tags[i]), best, best_d);
    }
  GString *out = g_string_new (NULL);
  guint n = 0;
  while (n < NEAREST && best[n] != NULL)
    n++;
  for (guint k = 0; k < n; k++)
    g_string_append_printf (out, "%s%s", k == 0 ? "" : k == n - 1 ? " or " : ", ", best[k]);
  return g_string_free (out, FALSE);
}

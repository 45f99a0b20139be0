/* fl-loc.c — names of modeled functions and listing locations. */
#include "fl-loc.h"

#include <string.h>

static const char *const fn_names[FL_FN_N] = {
#define FL_FN(id, name, file) name,
#define FL_LOC(fn, tag)
#include "fl-locs.def"
#undef FL_FN
#undef FL_LOC
};

static const char *const fn_files[FL_FN_N] = {
#define FL_FN(id, name, file) file,
#define FL_LOC(fn, tag)
#include "fl-locs.def"
#undef FL_FN
#undef FL_LOC
};

/* The X-macro's ID itself, "DO_PAGE_FAULT": unique where listing names are not. */
static const char *const fn_ids[FL_FN_N] = {
#define FL_FN(id, name, file) #id,
#define FL_LOC(fn, tag)
#include "fl-locs.def"
#undef FL_FN
#undef FL_LOC
};

static const guint8 loc_fns[FL_LOC_N] = {
  0,
#define FL_FN(id, name, file)
#define FL_LOC(fn, tag) FL_FN_##fn,
#include "fl-locs.def"
#undef FL_FN
#undef FL_LOC
};

static const char *const loc_tags[FL_LOC_N] = {
  "",
#define FL_FN(id, name, file)
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

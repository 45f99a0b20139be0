#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Modeled functions and listing locations, generated from fl-locs.def. */

typedef enum {
#define FL_FN(id, name, file) FL_FN_##id,
#define FL_LOC(fn, tag)
#include "fl-locs.def"
#undef FL_FN
#undef FL_LOC
  FL_FN_N
} FlFn;

typedef enum {
  FL_LOC_NONE,
#define FL_FN(id, name, file)
#define FL_LOC(fn, tag) FL_LOC_##fn##_##tag,
#include "fl-locs.def"
#undef FL_FN
#undef FL_LOC
  FL_LOC_N
} FlLoc;

const char *fl_fn_name      (FlFn fn);
const char *fl_fn_id        (FlFn fn);
const char *fl_fn_file      (FlFn fn);
FlFn        fl_fn_lookup    (const char *name);
FlFn        fl_loc_fn       (FlLoc loc);
const char *fl_loc_tag      (FlLoc loc);
FlLoc       fl_loc_lookup   (const char *fn_name, const char *tag);
FlLoc       fl_loc_first    (FlFn fn);
gboolean    fl_loc_target_exists  (const char *target);
char       *fl_loc_target_nearest (const char *target);

G_END_DECLS

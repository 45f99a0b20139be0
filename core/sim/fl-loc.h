#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Modeled functions and listing locations, generated from fl-locs.def. */

/* What a modeled function is part of, as the views and the oracle ask (fl_fn_kinds). */
enum {
  FL_FN_KIND_FAULT       = 1 << 0,  /* a page fault, from its entry to the PTE it installs */
  FL_FN_KIND_SPECULATIVE = 1 << 1,  /* the fault's path without mmap_sem (v2's or Kamezawa's) */
  FL_FN_KIND_WRITER      = 1 << 2,  /* an operation that changes the address space (syscall) */
  FL_FN_KIND_IPI         = 1 << 3,  /* an interrupt handler */
};

typedef enum {
#define FL_FN(id, name, file, kinds, step) FL_FN_##id,
#define FL_LOC(fn, tag)
#include "fl-locs.def"
#undef FL_FN
#undef FL_LOC
  FL_FN_N
} FlFn;

typedef enum {
  FL_LOC_NONE,
#define FL_FN(id, name, file, kinds, step)
#define FL_LOC(fn, tag) FL_LOC_##fn##_##tag,
#include "fl-locs.def"
#undef FL_FN
#undef FL_LOC
  FL_LOC_N
} FlLoc;

/* FL_FN_KIND_* of each function, from its row in fl-locs.def: fl_fn_kinds() reads it inline,
 * since every step asks it of every frame of the CPU's stack (what the CPU is doing). */
extern const guint8 fl_fn_kinds_of[FL_FN_N];

/* FL_FN_KIND_* of @fn; 0 for an id out of range. */
static inline guint
fl_fn_kinds (FlFn fn)
{
  return fn < FL_FN_N ? fl_fn_kinds_of[fn] : 0;
}

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

/* fl-steps.c — which step function runs each modeled function. */
#include "fl-sim-internal.h"

/* The step functions fl-locs.def names, each defined beside its steps; fl_step_none for
 * what is never a frame (user space, rcu_do_batch and flush_tlb_func: fl_sim_take_step
 * runs those itself). */
const FlStepFn fl_step_none = NULL;
#define FL_FN(id, name, file, kinds, step) extern const FlStepFn step;
#define FL_LOC(fn, tag)
#include "fl-locs.def"
#undef FL_FN
#undef FL_LOC

static const FlStepFn *const step_fns[FL_FN_N] = {
#define FL_FN(id, name, file, kinds, step) [FL_FN_##id] = &(step),
#define FL_LOC(fn, tag)
#include "fl-locs.def"
#undef FL_FN
#undef FL_LOC
};

FlStepFn
fl_step_fn_of (FlFn fn)
{
  FlStepFn step = (guint) fn < FL_FN_N ? *step_fns[fn] : NULL;
  if (step == NULL)
    g_error ("%s is not run as a frame", fl_fn_name (fn));
  return step;
}

/* The write variants of the rwsem functions share their steps with the read variants: the
 * frame's pc names a read-variant line, shown at the same place of the write listing. */
FlFn
fl_fn_steps_of (FlFn fn)
{
  switch (fn)
    {
    case FL_FN_GENERIC_DOWN_WRITE: return FL_FN_GENERIC_DOWN;
    case FL_FN_GENERIC_UP_WRITE: return FL_FN_GENERIC_UP;
    case FL_FN_XADD_DOWN_WRITE: return FL_FN_XADD_DOWN;
    case FL_FN_XADD_UP_WRITE: return FL_FN_XADD_UP;
    default: return fn;
    }
}

FlLoc
fl_frame_loc (const FlFrame *f)
{
  FlFn base = fl_fn_steps_of (f->fn);
  if (base == f->fn || fl_loc_fn (f->pc) != base)
    return f->pc;
  return f->pc - fl_loc_first (base) + fl_loc_first (f->fn);
}

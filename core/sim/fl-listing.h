#pragma once

#include <glib.h>

#include "fl-config.h"
#include "fl-loc.h"

G_BEGIN_DECLS

/* A listing: the project's own annotated pseudo-code of one modeled function, shown with the
 * line of the current step highlighted. It comes from data/listings/<file>.txt in the core
 * GResource, where <file> is the function's id lower-cased with '_' turned into '-'.
 *
 * File format: a first line `# <listing name> — <kernel file> (Faultline model)`, then one
 * line of pseudo-code per line. A line where a step stops ends with two spaces, `@tag`,
 * ` -- ` and one sentence saying what the step does and why it matters:
 *
 *     rcu_read_lock();  @rcu_read_lock -- Enter an RCU read-side section: ...
 *
 * Where a design switch changes a function's steps, the other code has its own listing,
 * `<file>.<value>.txt`, with the same locations (fl_listing_get_for()). A line that only
 * one value of a switch runs starts with `?key=value ` and carries no tag:
 *
 *     ?spf-access-check=on     if (!access_permitted(vma, flags))
 */

#define FL_LISTING_ERROR (fl_listing_error_quark ())
GQuark fl_listing_error_quark (void);

typedef enum {
  FL_LISTING_ERROR_ENCODING,    /* not UTF-8 */
  FL_LISTING_ERROR_HEADER,      /* the first line is not a `# ` header */
} FlListingError;

typedef struct {
  char *text;   /* the code, without the `@tag -- why` part */
  char *tag;    /* the location's tag; NULL if no step stops on this line */
  char *why;    /* the sentence for the step ("" if a tag came without one); NULL if no tag */
  char *when;   /* "key=value": shown only when that switch has that value; NULL: always */
} FlListingLine;

/* Read-only for users: listings from fl_listing_get() belong to a process-wide cache. */
typedef struct {
  FlFn           fn;
  char          *title;     /* the header without its "# " */
  FlListingLine *lines;     /* the lines after the header */
  guint          n_lines;
} FlListing;

char       *fl_listing_file_name (FlFn fn);
FlListing  *fl_listing_get       (FlFn fn);
FlListing  *fl_listing_get_for   (FlFn fn, const FlConfig *config);
char       *fl_listing_file_name_for (FlFn fn, const FlConfig *config);
gboolean    fl_listing_variant_at (guint index, FlFn *fn, const char **key, const char **value);
const char *fl_listing_variant_unrun (guint index);
FlListing  *fl_listing_parse     (FlFn fn, const char *text, gssize length, GError **error);
void        fl_listing_free      (FlListing *listing);
const char *fl_listing_title     (const FlListing *listing);
gint        fl_listing_line_of   (const FlListing *listing, FlLoc loc);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (FlListing, fl_listing_free)

G_END_DECLS

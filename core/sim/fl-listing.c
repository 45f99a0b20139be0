/* fl-listing.c — the annotated pseudo-code listings: file names, parsing, and a cache of the
 * listings compiled into the core GResource. */
#include "fl-listing.h"

#include <gio/gio.h>
#include <string.h>

#include "fl-core-resources.h"

#define LISTING_FOLDER FL_RESOURCE_BASE "/listings/"
#define MARKER         "  @"
#define WHY_SEPARATOR  " -- "
#define CONDITION      '?'

G_DEFINE_QUARK (fl-listing-error-quark, fl_listing_error)

/**
 * fl_listing_file_name:
 * @fn: a modeled function
 *
 * The listing's file name, from the function's id in fl-locs.def: DO_PAGE_FAULT is
 * `do-page-fault.txt`. Ids are unique where listing names are not (the generic and the xadd
 * rwsem both have a `__down_read`).
 *
 * Returns: (transfer full): the file name, without folder
 */
char *
fl_listing_file_name (FlFn fn)
{
  g_return_val_if_fail ((guint) fn < FL_FN_N, NULL);
  char *name = g_ascii_strdown (fl_fn_id (fn), -1);
  g_strdelimit (name, "_", '-');
  char *file = g_strconcat (name, ".txt", NULL);
  g_free (name);
  return file;
}

static gboolean
is_tag_char (char c)
{
  return g_ascii_isalnum (c) || c == '_';
}

/* The first "  @tag -- why" (or a bare "  @tag" ending the line) in `line`: its start, and in
 * *tag_end where the tag stops. An '@' elsewhere in the code is not a marker. */
static const char *
find_marker (const char *line, const char **tag_end)
{
  for (const char *p = strstr (line, MARKER); p != NULL; p = strstr (p + 1, MARKER))
    {
      const char *tag = p + strlen (MARKER), *end = tag;
      while (is_tag_char (*end))
        end++;
      if (end == tag)
        continue;
      if (*end == '\0' || g_str_has_prefix (end, WHY_SEPARATOR))
        {
          *tag_end = end;
          return p;
        }
    }
  return NULL;
}

static gboolean
is_blank (const char *line)
{
  for (; *line; line++)
    if (!g_ascii_isspace (*line))
      return FALSE;
  return TRUE;
}

static void
parse_line (FlListingLine *out, char *line)
{
  const char *tag_end = NULL;
  g_strchomp (line);
  if (line[0] == CONDITION && strchr (line, ' ') != NULL)
    {
      char *space = strchr (line, ' ');
      out->when = g_strndup (line + 1, (gsize) (space - line - 1));
      line = space + 1;
    }
  const char *marker = find_marker (line, &tag_end);
  if (marker == NULL)
    {
      out->text = g_strdup (line);
      return;
    }
  const char *tag = marker + strlen (MARKER);
  out->text = g_strchomp (g_strndup (line, (gsize) (marker - line)));
  out->tag = g_strndup (tag, (gsize) (tag_end - tag));
  out->why = *tag_end ? g_strstrip (g_strdup (tag_end + strlen (WHY_SEPARATOR))) : g_strdup ("");
}

/**
 * fl_listing_parse:
 * @fn: the function the listing is of
 * @text: the file's contents
 * @length: the length of @text, or -1 if it is nul-terminated
 * @error: return location for a #GError
 *
 * Parses a listing file. Tags are not checked against fl-locs.def here: the test does that.
 *
 * Returns: (transfer full) (nullable): the listing, or %NULL with @error set
 */
FlListing *
fl_listing_parse (FlFn fn, const char *text, gssize length, GError **error)
{
  g_return_val_if_fail ((guint) fn < FL_FN_N, NULL);
  g_return_val_if_fail (text != NULL || length == 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (length < 0)
    length = (gssize) strlen (text);
  if (!g_utf8_validate_len (text, (gsize) length, NULL))
    {
      g_set_error (error, FL_LISTING_ERROR, FL_LISTING_ERROR_ENCODING,
                   "The listing of %s is not valid UTF-8", fl_fn_name (fn));
      return NULL;
    }
  g_autofree char *copy = g_strndup (text, (gsize) length);
  g_auto (GStrv) lines = g_strsplit (copy, "\n", -1);
  guint n = g_strv_length (lines);
  /* the newline ending the file, and any blank lines before it, are not lines */
  while (n > 0 && is_blank (lines[n - 1]))
    n--;
  if (n == 0 || !g_str_has_prefix (lines[0], "# "))
    {
      g_set_error (error, FL_LISTING_ERROR, FL_LISTING_ERROR_HEADER,
                   "The listing of %s does not start with a “# ” header line", fl_fn_name (fn));
      return NULL;
    }

  FlListing *listing = g_new0 (FlListing, 1);
  listing->fn = fn;
  listing->title = g_strstrip (g_strdup (lines[0] + 2));
  listing->n_lines = n - 1;
  listing->lines = g_new0 (FlListingLine, listing->n_lines);
  for (guint i = 1; i < n; i++)
    parse_line (&listing->lines[i - 1], lines[i]);
  return listing;
}

void
fl_listing_free (FlListing *listing)
{
  if (listing == NULL)
    return;
  for (guint i = 0; i < listing->n_lines; i++)
    {
      g_free (listing->lines[i].text);
      g_free (listing->lines[i].tag);
      g_free (listing->lines[i].why);
      g_free (listing->lines[i].when);
    }
  g_free (listing->lines);
  g_free (listing->title);
  g_free (listing);
}

/* A function whose code differs with a design switch has a listing per variant: its usual
 * file for the default, and `<file>.<value>.txt` (before `.txt` goes the switch's value) for
 * each value listed here. The step function follows the same switch. */
typedef struct {
  FlFn        fn;
  const char *key, *value;
  const char *unrun;        /* tags of locations the variant's code never stops at */
} FlListingVariant;

static const FlListingVariant variants[] = {
  { FL_FN_HANDLE_SPECULATIVE_FAULT, "spf-find-vma", "under-pte-lock", "" },
  { FL_FN_MPROTECT_FIXUP, "mprotect-seqcount", "unbracketed", "" },
  /* a plain spin_lock never goes round the trylock loop */
  { FL_FN_PTE_MAP_LOCK, "pte-map-lock", "spin-irqs-off", "retry" },
  /* Kamezawa's design: its do_page_fault, and his two versions of the reference count */
  { FL_FN_DO_PAGE_FAULT, "fault-path", "speculative-refcount", "" },
  { FL_FN_FIND_VMA_SPECULATIVE, "vma-refcount", "as-posted", "put_back" },
  { FL_FN_VMA_PUT, "vma-refcount", "as-posted", "" },
  { FL_FN_INVALIDATE_VMA, "vma-refcount", "as-posted", "" },
  { FL_FN_INVALIDATE_VMA, "vma-refcount", "no-wait", "wait woken" },
};

/**
 * fl_listing_variant_at:
 * @index: 0, 1, … over the variants
 * @fn: (out): the function
 * @key: (out): the switch that selects the variant
 * @value: (out): its value that does
 *
 * Returns: %FALSE once @index is past the last variant
 */
gboolean
fl_listing_variant_at (guint index, FlFn *fn, const char **key, const char **value)
{
  if (index >= G_N_ELEMENTS (variants))
    return FALSE;
  *fn = variants[index].fn;
  *key = variants[index].key;
  *value = variants[index].value;
  return TRUE;
}

/**
 * fl_listing_variant_unrun:
 * @index: a variant, as for fl_listing_variant_at()
 *
 * Returns: the tags, separated by spaces, of the function's locations that the variant's
 *   code never stops at, so its listing has no line for them ("" for none)
 */
const char *
fl_listing_variant_unrun (guint index)
{
  g_return_val_if_fail (index < G_N_ELEMENTS (variants), "");
  return variants[index].unrun;
}

static char *
variant_file_name (guint index)
{
  g_autofree char *file = fl_listing_file_name (variants[index].fn);
  file[strlen (file) - strlen (".txt")] = '\0';
  return g_strconcat (file, ".", variants[index].value, ".txt", NULL);
}

/* The variant of @fn that @config selects, or -1 for the usual listing. */
static gint
variant_of (FlFn fn, const FlConfig *config)
{
  for (guint i = 0; config && i < G_N_ELEMENTS (variants); i++)
    if (variants[i].fn == fn)
      {
        g_autofree char *value = fl_config_get (config, variants[i].key);
        if (g_strcmp0 (value, variants[i].value) == 0)
          return (gint) i;
      }
  return -1;
}

/**
 * fl_listing_file_name_for:
 * @fn: a modeled function
 * @config: (nullable): the design switches of the run; %NULL for the defaults' listing
 *
 * Returns: (transfer full): the file name of the listing of @fn as @config runs it
 */
char *
fl_listing_file_name_for (FlFn fn, const FlConfig *config)
{
  g_return_val_if_fail ((guint) fn < FL_FN_N, NULL);
  gint v = variant_of (fn, config);
  return v < 0 ? fl_listing_file_name (fn) : variant_file_name ((guint) v);
}

static FlListing *
load (FlFn fn, const char *file)
{
  g_autofree char *path = g_strconcat (LISTING_FOLDER, file, NULL);
  g_autoptr (GError) error = NULL;
  /* referencing the generated getter keeps the resource object in the static library */
  g_autoptr (GBytes) bytes = g_resource_lookup_data (fl_core_get_resource (), path,
                                                     G_RESOURCE_LOOKUP_FLAGS_NONE, &error);
  if (bytes == NULL)
    {
      g_debug ("No listing for %s: %s", fl_fn_id (fn), error->message);
      return NULL;
    }
  gsize size = 0;
  const char *data = g_bytes_get_data (bytes, &size);
  FlListing *listing = fl_listing_parse (fn, data, (gssize) size, &error);
  if (listing == NULL)
    g_warning ("%s: %s", path, error->message);
  return listing;
}

/* Does @config run the code of a line shown only `?key=value`? */
static gboolean
line_shown (const FlListingLine *line, const FlConfig *config)
{
  if (line->when == NULL)
    return TRUE;
  g_auto (GStrv) kv = g_strsplit (line->when, "=", 2);
  g_autofree char *value = kv[0] && kv[1] ? fl_config_get (config, kv[0]) : NULL;
  return g_strcmp0 (value, kv[1]) == 0;
}

/* The lines of @full that @config runs, as a listing of its own. */
static FlListing *
filter (const FlListing *full, const FlConfig *config)
{
  FlListing *listing = g_new0 (FlListing, 1);
  listing->fn = full->fn;
  listing->title = g_strdup (full->title);
  listing->lines = g_new0 (FlListingLine, full->n_lines);
  for (guint i = 0; i < full->n_lines; i++)
    if (line_shown (&full->lines[i], config))
      {
        FlListingLine *to = &listing->lines[listing->n_lines++];
        to->text = g_strdup (full->lines[i].text);
        to->tag = g_strdup (full->lines[i].tag);
        to->why = g_strdup (full->lines[i].why);
        to->when = g_strdup (full->lines[i].when);
      }
  return listing;
}

/* Which conditional lines of @full @config shows, as text: the cache key of its filtered
 * listing ("" when the listing has no conditions). */
static char *
shown_key (const FlListing *full, const FlConfig *config)
{
  GString *key = g_string_new (NULL);
  for (guint i = 0; full && i < full->n_lines; i++)
    if (full->lines[i].when)
      g_string_append_c (key, line_shown (&full->lines[i], config) ? '1' : '0');
  return g_string_free (key, FALSE);
}

G_LOCK_DEFINE_STATIC (cache);
/* Listings by file name as read ("file"), and filtered by their conditions ("file#0110"):
 * NULL values remember a file that is missing. Never freed: views hold on to listings. */
static GHashTable *cache;

static FlListing *
cached_file (FlFn fn, const char *file)
{
  gpointer found = NULL;
  if (!g_hash_table_lookup_extended (cache, file, NULL, &found))
    {
      found = load (fn, file);
      g_hash_table_insert (cache, g_strdup (file), found);
    }
  return found;
}

/**
 * fl_listing_get:
 * @fn: a modeled function
 *
 * The listing of @fn as the default configuration runs it, loaded from the GResource the
 * first time and kept for the life of the process. Safe to call from any thread.
 *
 * Returns: (transfer none) (nullable): the listing, or %NULL if there is none (yet)
 */
FlListing *
fl_listing_get (FlFn fn)
{
  return fl_listing_get_for (fn, NULL);
}

/**
 * fl_listing_get_for:
 * @fn: a modeled function
 * @config: (nullable): the design switches of the run; %NULL for the defaults
 *
 * Like fl_listing_get(), but the listing of the code @config runs: where a switch changes
 * the function's steps (spf-find-vma for handle_speculative_fault), its variant file, and
 * only the lines marked `?key=value` whose switch has that value.
 *
 * Returns: (transfer none) (nullable): the listing, or %NULL if there is none (yet)
 */
FlListing *
fl_listing_get_for (FlFn fn, const FlConfig *config)
{
  g_return_val_if_fail ((guint) fn < FL_FN_N, NULL);
  FlConfig defaults;
  if (config == NULL)
    {
      fl_config_init_defaults (&defaults);
      config = &defaults;
    }
  g_autofree char *file = fl_listing_file_name_for (fn, config);
  G_LOCK (cache);
  if (cache == NULL)
    cache = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  FlListing *listing = cached_file (fn, file);
  g_autofree char *shown = shown_key (listing, config);
  if (strchr (shown, '0') != NULL)
    {
      g_autofree char *key = g_strconcat (file, "#", shown, NULL);
      FlListing *filtered = g_hash_table_lookup (cache, key);
      if (filtered == NULL)
        {
          filtered = filter (listing, config);
          g_hash_table_insert (cache, g_steal_pointer (&key), filtered);
        }
      listing = filtered;
    }
  G_UNLOCK (cache);
  return listing;
}

const char *
fl_listing_title (const FlListing *listing)
{
  g_return_val_if_fail (listing != NULL, NULL);
  return listing->title;
}

/**
 * fl_listing_line_of:
 * @listing: a listing
 * @loc: a location
 *
 * Returns: the index in @listing->lines of the line tagged for @loc, or -1 if @loc is not a
 *   location of @listing's function or no line carries its tag
 */
gint
fl_listing_line_of (const FlListing *listing, FlLoc loc)
{
  g_return_val_if_fail (listing != NULL, -1);
  if (loc == FL_LOC_NONE || (guint) loc >= FL_LOC_N || fl_loc_fn (loc) != listing->fn)
    return -1;
  const char *tag = fl_loc_tag (loc);
  for (guint i = 0; i < listing->n_lines; i++)
    if (listing->lines[i].tag != NULL && strcmp (listing->lines[i].tag, tag) == 0)
      return (gint) i;
  return -1;
}

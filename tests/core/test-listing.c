/* Tests of the listings: the parser, and every function of fl-locs.def against its listing in
 * the GResource (one line per location, in order, each with its sentence; no stray tags). */
#include <gio/gio.h>
#include <string.h>
#include "fl-listing.h"

#define MAX_TEXT_CHARS 100      /* the code part of a line, as the listing view shows it */
#define MAX_WHY_CHARS  200
#define LISTING_FOLDER FL_RESOURCE_BASE "/listings/"

static void
test_file_names_come_from_ids (void)
{
  g_autofree char *a = fl_listing_file_name (FL_FN_DO_PAGE_FAULT);
  g_autofree char *b = fl_listing_file_name (FL_FN_GENERIC_DOWN);
  g_autofree char *c = fl_listing_file_name (FL_FN_XADD_DOWN);
  g_autofree char *d = fl_listing_file_name (FL_FN_HANDLE_SPECULATIVE_FAULT);
  g_assert_cmpstr (a, ==, "do-page-fault.txt");
  g_assert_cmpstr (b, ==, "generic-down.txt");
  g_assert_cmpstr (c, ==, "xadd-down.txt");
  g_assert_cmpstr (d, ==, "handle-speculative-fault.txt");
  /* same listing name, different files */
  g_assert_cmpstr (fl_fn_name (FL_FN_GENERIC_DOWN), ==, fl_fn_name (FL_FN_XADD_DOWN));

  g_autoptr (GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  for (guint fn = 0; fn < FL_FN_N; fn++)
    g_assert_true (g_hash_table_add (seen, fl_listing_file_name (fn)));
}

static void
test_parse_lines (void)
{
  const char *text = "# f — x.c (Faultline model)\r\n"
                     "f() {\n"
                     "    a = b;  @step -- Does a thing.\n"
                     "    x = y@z;   /* an '@' in code is no marker */\n"
                     "    c();  @bare\n"
                     "    d();  @two_words here -- Not a marker: text follows the tag.\n"
                     "}\n"
                     "\n";
  g_autoptr (GError) error = NULL;
  g_autoptr (FlListing) l = fl_listing_parse (FL_FN_USER, text, -1, &error);
  g_assert_no_error (error);
  g_assert_nonnull (l);
  g_assert_cmpstr (fl_listing_title (l), ==, "f — x.c (Faultline model)");
  g_assert_cmpuint (l->n_lines, ==, 6);
  g_assert_cmpstr (l->lines[0].text, ==, "f() {");
  g_assert_null (l->lines[0].tag);
  g_assert_null (l->lines[0].why);
  g_assert_cmpstr (l->lines[1].text, ==, "    a = b;");
  g_assert_cmpstr (l->lines[1].tag, ==, "step");
  g_assert_cmpstr (l->lines[1].why, ==, "Does a thing.");
  g_assert_null (l->lines[2].tag);
  g_assert_cmpstr (l->lines[3].tag, ==, "bare");
  g_assert_cmpstr (l->lines[3].why, ==, "");         /* a tag without its sentence shows */
  g_assert_null (l->lines[4].tag);
  g_assert_cmpstr (l->lines[5].text, ==, "}");

  g_autoptr (GError) e1 = NULL;
  g_assert_null (fl_listing_parse (FL_FN_USER, "no header\n", -1, &e1));
  g_assert_error (e1, FL_LISTING_ERROR, FL_LISTING_ERROR_HEADER);
  g_autoptr (GError) e2 = NULL;
  g_assert_null (fl_listing_parse (FL_FN_USER, "# t\n\xff\n", -1, &e2));
  g_assert_error (e2, FL_LISTING_ERROR, FL_LISTING_ERROR_ENCODING);
  g_autoptr (GError) e3 = NULL;
  g_assert_null (fl_listing_parse (FL_FN_USER, "", 0, &e3));
  g_assert_error (e3, FL_LISTING_ERROR, FL_LISTING_ERROR_HEADER);
}

/* Every FL_LOC of the function has exactly one line (in the order of fl-locs.def for the
 * usual listing; a variant runs the same locations in another order); every tagged line is a
 * location of the function and carries one short sentence. */
static void
check_listing (FlFn fn, const FlConfig *config, gboolean in_def_order, const char *unrun)
{
  g_auto (GStrv) unrun_tags = g_strsplit (unrun, " ", -1);
  g_autofree char *file = fl_listing_file_name_for (fn, config);
  FlListing *l = fl_listing_get_for (fn, config);
  if (l == NULL)
    {
      g_test_message ("data/listings/%s is missing (or not registered in "
                      "data/faultline-core.gresource.xml)", file);
      g_test_fail ();
      return;
    }
  g_assert_true (fl_listing_get_for (fn, config) == l);     /* cached */
  g_assert_true (l->fn == fn);

  g_autofree char *title = g_strdup_printf ("%s — %s (Faultline model)", fl_fn_name (fn),
                                            fl_fn_file (fn));
  g_assert_cmpstr (fl_listing_title (l), ==, title);

  gint previous = -1;
  guint n_locs = 0;
  for (guint loc = 1; loc < FL_LOC_N; loc++)
    {
      if (fl_loc_fn (loc) != fn)
        continue;
      guint count = 0;
      for (guint i = 0; i < l->n_lines; i++)
        count += l->lines[i].tag && strcmp (l->lines[i].tag, fl_loc_tag (loc)) == 0;
      /* a location the variant's code never stops at has no line in it */
      guint expected = g_strv_contains ((const char *const *) unrun_tags, fl_loc_tag (loc))
                       ? 0 : 1;
      if (count != expected)
        g_test_message ("%s: @%s appears %u times", file, fl_loc_tag (loc), count);
      g_assert_cmpuint (count, ==, expected);
      if (expected == 0)
        continue;
      n_locs++;
      gint line = fl_listing_line_of (l, loc);
      g_assert_cmpint (line, >=, 0);
      if (in_def_order && line <= previous)
        g_test_message ("%s: @%s comes before the location listed ahead of it", file,
                        fl_loc_tag (loc));
      if (in_def_order)
        g_assert_cmpint (line, >, previous);
      previous = line;
    }
  g_assert_cmpuint (n_locs, >, 0);

  guint n_tagged = 0;
  for (guint i = 0; i < l->n_lines; i++)
    {
      const FlListingLine *line = &l->lines[i];
      if (line->when)
        {
          /* a line some configurations skip is not where a step stops, and names a switch */
          g_auto (GStrv) kv = g_strsplit (line->when, "=", 2);
          FlConfig probe;
          fl_config_init_defaults (&probe);
          if (line->tag || !kv[1] || !fl_config_set (&probe, kv[0], kv[1], NULL))
            g_test_message ("%s:%u: ?%s must name a switch and a value, on a line with no tag",
                            file, i + 2, line->when);
          g_assert_null (line->tag);
          g_assert_nonnull (kv[1]);
          g_assert_true (kv[1] && fl_config_set (&probe, kv[0], kv[1], NULL));
        }
      glong text_chars = g_utf8_strlen (line->text, -1);
      if (text_chars > MAX_TEXT_CHARS)
        g_test_message ("%s:%u: the code is %ld characters long", file, i + 2, text_chars);
      g_assert_cmpint (text_chars, <=, MAX_TEXT_CHARS);
      g_assert_null (strchr (line->text, '\t'));
      if (line->tag == NULL)
        continue;
      n_tagged++;
      FlLoc loc = FL_LOC_NONE;
      for (guint k = 1; k < FL_LOC_N && loc == FL_LOC_NONE; k++)
        if (fl_loc_fn (k) == fn && strcmp (fl_loc_tag (k), line->tag) == 0)
          loc = k;
      if (loc == FL_LOC_NONE)
        g_test_message ("%s:%u: @%s is not a location of %s in fl-locs.def", file, i + 2,
                        line->tag, fl_fn_id (fn));
      g_assert_cmpint (loc, !=, FL_LOC_NONE);

      glong why_chars = g_utf8_strlen (line->why, -1);
      if (why_chars == 0 || why_chars > MAX_WHY_CHARS || !g_str_has_suffix (line->why, "."))
        g_test_message ("%s:%u: the sentence for @%s must be 1 to %d characters ending with "
                        "a period (it has %ld)", file, i + 2, line->tag, MAX_WHY_CHARS,
                        why_chars);
      g_assert_cmpint (why_chars, >, 0);
      g_assert_cmpint (why_chars, <=, MAX_WHY_CHARS);
      g_assert_true (g_str_has_suffix (line->why, "."));
      g_assert_cmpstr (line->text, !=, "");
    }
  g_assert_cmpuint (n_tagged, ==, n_locs);
}

static void
test_function_listing (gconstpointer data)
{
  check_listing (GPOINTER_TO_UINT (data), NULL, TRUE, "");
}

/* The configuration that selects variant `index`: the defaults with its switch set. */
static void
variant_config (guint index, FlConfig *config, FlFn *fn)
{
  const char *key, *value;
  g_assert_true (fl_listing_variant_at (index, fn, &key, &value));
  fl_config_init_defaults (config);
  g_assert_true (fl_config_set (config, key, value, NULL));
}

static void
test_variant_listing (gconstpointer data)
{
  FlConfig config;
  FlFn fn;
  variant_config (GPOINTER_TO_UINT (data), &config, &fn);
  check_listing (fn, &config, FALSE, fl_listing_variant_unrun (GPOINTER_TO_UINT (data)));
  /* a variant is its own listing, not the usual one under another name */
  g_assert_true (fl_listing_get_for (fn, &config) != fl_listing_get (fn));
}

/* v2 locks the PTE before it looks the VMA up; the repaired default does the opposite. */
static void
test_listing_follows_the_switch (void)
{
  FlConfig config;
  fl_config_init_defaults (&config);
  FlListing *repaired = fl_listing_get_for (FL_FN_HANDLE_SPECULATIVE_FAULT, &config);
  g_assert_true (fl_config_set (&config, "spf", "v2-as-posted", NULL));
  FlListing *v2 = fl_listing_get_for (FL_FN_HANDLE_SPECULATIVE_FAULT, &config);
  g_assert_nonnull (repaired);
  g_assert_nonnull (v2);
  g_assert_cmpint (fl_listing_line_of (repaired, FL_LOC_HANDLE_SPECULATIVE_FAULT_find_vma), <,
                   fl_listing_line_of (repaired, FL_LOC_HANDLE_SPECULATIVE_FAULT_pte_map_lock));
  g_assert_cmpint (fl_listing_line_of (v2, FL_LOC_HANDLE_SPECULATIVE_FAULT_pte_map_lock), <,
                   fl_listing_line_of (v2, FL_LOC_HANDLE_SPECULATIVE_FAULT_find_vma));
}

static gboolean
has_line (const FlListing *l, const char *code)
{
  for (guint i = 0; i < l->n_lines; i++)
    if (strstr (l->lines[i].text, code))
      return TRUE;
  return FALSE;
}

/* The access check's lines are shown exactly when the run makes the check. */
static void
test_conditional_lines (void)
{
  FlConfig config;
  fl_config_init_defaults (&config);
  FlListing *with = fl_listing_get_for (FL_FN_HANDLE_SPECULATIVE_FAULT, &config);
  g_assert_true (fl_config_set (&config, "spf-access-check", "off", NULL));
  FlListing *without = fl_listing_get_for (FL_FN_HANDLE_SPECULATIVE_FAULT, &config);
  g_assert_true (fl_listing_get_for (FL_FN_HANDLE_SPECULATIVE_FAULT, &config) == without);
  g_assert_true (has_line (with, "VM_WRITE"));
  g_assert_false (has_line (without, "VM_WRITE"));
  g_assert_cmpuint (without->n_lines, ==, with->n_lines - 2);
  /* every step still has its line */
  for (guint loc = 1; loc < FL_LOC_N; loc++)
    if (fl_loc_fn (loc) == FL_FN_HANDLE_SPECULATIVE_FAULT)
      g_assert_cmpint (fl_listing_line_of (without, loc), >=, 0);
  g_assert_true (fl_config_set (&config, "spf", "v2-as-posted", NULL));
  g_assert_false (has_line (fl_listing_get_for (FL_FN_HANDLE_SPECULATIVE_FAULT, &config),
                            "VM_WRITE"));
}

/* Every listing in the resource belongs to a function: no file under a stale name. */
static void
test_no_orphan_listings (void)
{
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) names = g_resources_enumerate_children (LISTING_FOLDER,
                                                         G_RESOURCE_LOOKUP_FLAGS_NONE, &error);
  g_assert_no_error (error);
  g_assert_nonnull (names);
  for (char **name = names; *name; name++)
    {
      gboolean known = FALSE;
      for (guint fn = 0; fn < FL_FN_N && !known; fn++)
        {
          g_autofree char *file = fl_listing_file_name (fn);
          known = strcmp (file, *name) == 0;
        }
      FlFn fn;
      const char *key, *value;
      for (guint v = 0; fl_listing_variant_at (v, &fn, &key, &value) && !known; v++)
        {
          FlConfig config;
          variant_config (v, &config, &fn);
          g_autofree char *file = fl_listing_file_name_for (fn, &config);
          known = strcmp (file, *name) == 0;
        }
      if (!known)
        g_test_message ("%s%s matches no FL_FN in core/sim/fl-locs.def", LISTING_FOLDER, *name);
      g_assert_true (known);
    }
}

static void
test_line_of_other_locations (void)
{
  FlListing *l = fl_listing_get (FL_FN_FIND_VMA);
  g_assert_nonnull (l);
  g_assert_cmpint (fl_listing_line_of (l, FL_LOC_NONE), ==, -1);
  g_assert_cmpint (fl_listing_line_of (l, FL_LOC_DO_PAGE_FAULT_find_vma), ==, -1);
  g_assert_cmpint (fl_listing_line_of (l, FL_LOC_FIND_VMA_walk), >,
                   fl_listing_line_of (l, FL_LOC_FIND_VMA_cache));
  /* the generic and xadd variants share a listing name, not a listing */
  FlListing *generic = fl_listing_get (FL_FN_GENERIC_DOWN);
  FlListing *xadd = fl_listing_get (FL_FN_XADD_DOWN);
  g_assert_nonnull (generic);
  g_assert_nonnull (xadd);
  g_assert_true (generic != xadd);
  g_assert_cmpint (fl_listing_line_of (generic, FL_LOC_XADD_DOWN_woken), ==, -1);
  g_assert_cmpint (fl_listing_line_of (xadd, FL_LOC_XADD_DOWN_woken), >=, 0);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  /* report every listing's problems, not only the first one's */
  g_test_set_nonfatal_assertions ();
  g_test_add_func ("/core/listing/file-names", test_file_names_come_from_ids);
  g_test_add_func ("/core/listing/parse", test_parse_lines);
  for (guint fn = 0; fn < FL_FN_N; fn++)
    {
      g_autofree char *file = fl_listing_file_name (fn);
      g_autofree char *path = g_strdup_printf ("/core/listing/function/%.*s",
                                               (int) (strlen (file) - strlen (".txt")), file);
      g_test_add_data_func (path, GUINT_TO_POINTER (fn), test_function_listing);
    }
  FlFn fn;
  const char *key, *value;
  for (guint v = 0; fl_listing_variant_at (v, &fn, &key, &value); v++)
    {
      /* one switch may select variants of several functions */
      g_autofree char *file = fl_listing_file_name (fn);
      g_autofree char *path = g_strdup_printf ("/core/listing/variant/%s=%s/%.*s", key, value,
                                               (int) (strlen (file) - strlen (".txt")), file);
      g_test_add_data_func (path, GUINT_TO_POINTER (v), test_variant_listing);
    }
  g_test_add_func ("/core/listing/follows-the-switch", test_listing_follows_the_switch);
  g_test_add_func ("/core/listing/conditional-lines", test_conditional_lines);
  g_test_add_func ("/core/listing/no-orphans", test_no_orphan_listings);
  g_test_add_func ("/core/listing/line-of", test_line_of_other_locations);
  return g_test_run ();
}

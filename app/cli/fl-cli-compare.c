/* fl-cli-compare.c — `compare`: one scenario under two sets of switches, A and B; both
 * runs' counters and cache-line transfers with the difference, as text or JSON, and with -o
 * the compare view drawn by the window's painter. */
#include "fl-cli.h"
#include "fl-cli-json.h"
#include "fl-paint-compare.h"

#include <stdio.h>
#include <string.h>

typedef struct {
  char    *a, *b;
  char    *step;
  char    *output;
  char    *layout;
  gint     width, height;
  gboolean dark, json;
} CompareOptions;

/* "--a KEY=VALUE[,KEY=VALUE]" onto a copy of the scenario's switches; the first bad pair
 * is reported on one line naming the option. */
static gboolean
apply_switches (FlConfig *config, const char *option, const char *text)
{
  g_auto (GStrv) pairs = g_strsplit (text ? text : "", ",", -1);
  for (guint i = 0; pairs[i]; i++)
    {
      g_autoptr (GError) error = NULL;
      const char *pair = g_strstrip (pairs[i]);
      if (*pair == '\0')
        continue;
      const char *eq = strchr (pair, '=');
      if (eq == NULL || eq == pair)
        {
          fl_cli_fail ("%s '%s': expected KEY=VALUE[,KEY=VALUE…]", option, pair);
          return FALSE;
        }
      g_autofree char *key = g_strndup (pair, eq - pair);
      if (!fl_config_set (config, key, eq + 1, &error))
        {
          fl_cli_fail ("%s: %s", option, error->message);
          return FALSE;
        }
    }
  g_autoptr (GError) error = NULL;
  if (!fl_config_validate (config, &error))
    {
      fl_cli_fail ("%s: %s", option, error->message);
      return FALSE;
    }
  return TRUE;
}

static FlRun *
run_to_end (const FlScenario *scenario, const FlConfig *config)
{
  g_autoptr (GError) error = NULL;
  FlSim *sim = fl_sim_new (scenario, config, scenario->seed, &error);
  if (sim == NULL)
    {
      fl_cli_fail ("%s", error->message);
      return NULL;
    }
  fl_sim_run_in_budget (sim, 0);
  return fl_run_new_from_sim (sim);
}

static const char *
format_of (const char *path)
{
  const char *dot = strrchr (path, '.');
  if (dot && strchr (dot, '/') == NULL
      && (g_ascii_strcasecmp (dot + 1, "png") == 0 || g_ascii_strcasecmp (dot + 1, "svg") == 0
          || g_ascii_strcasecmp (dot + 1, "pdf") == 0))
    return dot + 1;
  return NULL;
}

static gboolean
has_kind (const FlCursor *cur, FlFindingKind kind)
{
  const GPtrArray *all = fl_run_get_findings (fl_cursor_get_run (cur));
  guint64 step = fl_cursor_get_step (cur);
  for (guint i = 0; i < all->len; i++)
    {
      const FlFinding *f = g_ptr_array_index (all, i);
      if (f->kind == kind && f->step <= step)
        return TRUE;
    }
  return FALSE;
}

static void
print_text (FlCompare *cmp, GArray *rows)
{
  const FlCursor *cur[2] = { fl_compare_get_cursor (cmp, 0), fl_compare_get_cursor (cmp, 1) };
  const FlRun *run_of[2] = { fl_cursor_get_run (cur[0]), fl_cursor_get_run (cur[1]) };
  const FlScenario *sc = fl_run_get_scenario (run_of[0]);
  g_autofree char *sa = fl_compare_switches (cmp, 0);
  g_autofree char *sb = fl_compare_switches (cmp, 1);
  printf ("Scenario   %s — %s\n", sc->id, sc->title);
  printf ("A          %s\n", sa);
  printf ("B          %s\n", sb);
  printf ("Steps      A %" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT ", B %" G_GUINT64_FORMAT
          " of %" G_GUINT64_FORMAT " (B at A's moment: the same simulated cycle)\n",
          fl_cursor_get_step (cur[0]), fl_run_get_total_steps (run_of[0]),
          fl_cursor_get_step (cur[1]), fl_run_get_total_steps (run_of[1]));
  /* a run the budget or a limit ended early is compared as far as it went */
  for (guint run = 0; run < 2; run++)
    if (fl_run_get_stop_message (run_of[run]) != NULL)
      printf ("Stopped    %c %s\n", "AB"[run], fl_run_get_stop_message (run_of[run]));
  printf ("\n");
  printf ("%-34s %12s %12s %12s %8s\n", "", "A", "B", "B - A", "B / A");
  gboolean lines = FALSE;
  for (guint i = 0; i < rows->len; i++)
    {
      const FlCompareRow *r = &g_array_index (rows, FlCompareRow, i);
      if (r->line && !lines)
        {
          printf ("cache-line transfers\n");
          lines = TRUE;
        }
      gint64 delta = (gint64) r->value[1] - (gint64) r->value[0];
      char ratio[32];
      if (r->value[0])
        fl_cli_decimal ((double) r->value[1] / (double) r->value[0], 2, ratio, sizeof ratio);
      else
        g_strlcpy (ratio, r->value[1] ? "new" : "-", sizeof ratio);
      g_autofree char *label = g_strdup_printf ("%s%s", r->line ? "  " : "", r->label);
      printf ("%-34s %12" G_GUINT64_FORMAT " %12" G_GUINT64_FORMAT " %+12" G_GINT64_FORMAT
              " %8s\n", label, r->value[0], r->value[1], delta, ratio);
    }
  for (guint run = 0; run < 2; run++)
    {
      const GPtrArray *all = fl_run_get_findings (run_of[run]);
      guint64 step = fl_cursor_get_step (cur[run]);
      guint shown = 0;
      for (guint i = 0; i < all->len; i++)
        {
          const FlFinding *f = g_ptr_array_index (all, i);
          if (f->step > step)
            continue;
          printf ("%s %s at step %" G_GUINT64_FORMAT " on cpu%u%s: %s\n",
                  shown++ ? "          " : run ? "Findings B" : "\nFindings A",
                  fl_finding_kind_name (f->kind), f->step, f->cpu,
                  has_kind (cur[1 - run], f->kind) ? "" : (run ? " (only in B)" : " (only in A)"),
                  f->message);
        }
      if (shown == 0)
        printf ("%s none\n", run ? "Findings B" : "\nFindings A");
    }
}

static void
json_run (JsonBuilder *b, FlCompare *cmp, guint run, GArray *rows)
{
  const FlCursor *cur = fl_compare_get_cursor (cmp, run);
  const FlCursor *other = fl_compare_get_cursor (cmp, 1 - run);
  const FlRun *mine_run = fl_cursor_get_run (cur);
  json_builder_begin_object (b);
  /* the switches that make this run differ, then the whole configuration */
  json_builder_set_member_name (b, "switches");
  json_builder_begin_object (b);
  const FlConfig *mine = fl_run_get_config (mine_run);
  const FlConfig *theirs = fl_run_get_config (fl_cursor_get_run (other));
  for (const char *const *key = fl_config_keys (); *key; key++)
    {
      g_autofree char *v = fl_config_get (mine, *key);
      g_autofree char *w = fl_config_get (theirs, *key);
      if (g_strcmp0 (v, w) != 0)
        fl_cli_json_string (b, *key, v);
    }
  json_builder_end_object (b);
  g_autofree char *config = fl_config_describe (mine);
  fl_cli_json_string (b, "config", config);
  fl_cli_json_int (b, "step", (gint64) fl_cursor_get_step (cur));
  fl_cli_json_int (b, "steps", (gint64) fl_run_get_total_steps (mine_run));
  fl_cli_json_nullable (b, "stopped", fl_run_get_stop_message (mine_run));
  json_builder_set_member_name (b, "counters");
  json_builder_begin_object (b);
  for (guint i = 0; i < rows->len; i++)
    {
      const FlCompareRow *r = &g_array_index (rows, FlCompareRow, i);
      if (!r->line)
        fl_cli_json_int (b, r->label, (gint64) r->value[run]);
    }
  json_builder_end_object (b);
  json_builder_set_member_name (b, "transfers");
  json_builder_begin_object (b);
  for (guint i = 0; i < rows->len; i++)
    {
      const FlCompareRow *r = &g_array_index (rows, FlCompareRow, i);
      if (r->line)
        fl_cli_json_int (b, r->label, (gint64) r->value[run]);
    }
  json_builder_end_object (b);
  json_builder_set_member_name (b, "findings");
  json_builder_begin_array (b);
  const GPtrArray *all = fl_run_get_findings (mine_run);
  for (guint i = 0; i < all->len; i++)
    {
      const FlFinding *f = g_ptr_array_index (all, i);
      if (f->step > fl_cursor_get_step (cur))
        continue;
      json_builder_begin_object (b);
      fl_cli_json_string (b, "kind", fl_finding_kind_name (f->kind));
      fl_cli_json_int (b, "step", (gint64) f->step);
      fl_cli_json_int (b, "cpu", f->cpu);
      fl_cli_json_string (b, "message", f->message);
      fl_cli_json_bool (b, "only_here", !has_kind (other, f->kind));
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_end_object (b);
}

static void
print_json (FlCompare *cmp, GArray *rows)
{
  const FlRun *a = fl_cursor_get_run (fl_compare_get_cursor (cmp, 0));
  g_autoptr (JsonBuilder) b = json_builder_new ();
  json_builder_begin_object (b);
  fl_cli_json_string (b, "scenario", fl_run_get_scenario (a)->id);
  fl_cli_json_string (b, "aligned_by", "operation");
  json_builder_set_member_name (b, "a");
  json_run (b, cmp, 0, rows);
  json_builder_set_member_name (b, "b");
  json_run (b, cmp, 1, rows);
  json_builder_set_member_name (b, "difference");
  json_builder_begin_object (b);
  for (guint i = 0; i < rows->len; i++)
    {
      const FlCompareRow *r = &g_array_index (rows, FlCompareRow, i);
      g_autofree char *name = r->line ? g_strdup_printf ("transfers: %s", r->label)
                                      : g_strdup (r->label);
      json_builder_set_member_name (b, name);
      json_builder_begin_object (b);
      fl_cli_json_int (b, "a", (gint64) r->value[0]);
      fl_cli_json_int (b, "b", (gint64) r->value[1]);
      fl_cli_json_int (b, "delta", (gint64) r->value[1] - (gint64) r->value[0]);
      if (r->value[0])
        fl_cli_json_double (b, "ratio", (double) r->value[1] / (double) r->value[0]);
      json_builder_end_object (b);
    }
  json_builder_end_object (b);
  json_builder_end_object (b);
  fl_cli_print_json_root (b, stdout);
}

static int
compare (const CompareOptions *o, const char *id)
{
  if (o->a == NULL || o->b == NULL)
    return fl_cli_fail ("compare needs both --a and --b (KEY=VALUE[,KEY=VALUE…])");
  const char *format = NULL;
  if (o->output && (format = format_of (o->output)) == NULL)
    return fl_cli_fail ("-o '%s': the file name must end in .png, .svg or .pdf", o->output);
  FlCompareLayout layout = FL_COMPARE_STACKED;
  if (o->layout && strcmp (o->layout, "split") == 0)
    layout = FL_COMPARE_SPLIT;
  else if (o->layout && strcmp (o->layout, "stacked") != 0)
    return fl_cli_fail ("--layout '%s': expected stacked or split", o->layout);
  if (o->width < 1 || o->height < 1 || o->width > 16384 || o->height > 16384)
    return fl_cli_fail ("--width and --height must be between 1 and 16384");
  gboolean to_end = o->step == NULL || strcmp (o->step, "end") == 0;
  guint64 step = 0;
  if (!to_end && !g_ascii_string_to_unsigned (o->step, 10, 0, G_MAXUINT64, &step, NULL))
    return fl_cli_fail ("--step '%s': expected a step number or 'end'", o->step);

  g_autoptr (FlScenario) scenario = fl_cli_load_scenario (id);
  if (scenario == NULL)
    return FL_EXIT_USAGE;
  FlConfig ca = scenario->config, cb = scenario->config;
  if (!apply_switches (&ca, "--a", o->a) || !apply_switches (&cb, "--b", o->b))
    return FL_EXIT_USAGE;
  g_autoptr (FlRun) a = run_to_end (scenario, &ca);
  if (a == NULL)
    return FL_EXIT_USAGE;
  g_autoptr (FlRun) b = run_to_end (scenario, &cb);
  if (b == NULL)
    return FL_EXIT_USAGE;
  if (!to_end && step > fl_run_get_total_steps (a))
    return fl_cli_fail ("--step %" G_GUINT64_FORMAT ": run A ends at step %" G_GUINT64_FORMAT,
                        step, fl_run_get_total_steps (a));

  g_autoptr (FlCompare) cmp = fl_compare_new (a, b);
  fl_compare_set_layout (cmp, layout);
  /* at the end, both runs' ends; at a step, B at the same moment */
  fl_compare_seek (cmp, to_end ? fl_run_get_total_steps (a) : step);
  g_autoptr (GArray) rows = fl_compare_rows (cmp);
  if (o->json)
    print_json (cmp, rows);
  else
    print_text (cmp, rows);

  if (o->output)
    {
      FlPalette palette;
      if (o->dark)
        fl_palette_init_dark (&palette);
      else
        fl_palette_init_light (&palette);
      double scale = MAX (1.0, MIN (o->width / 1280.0, o->height / 720.0));
      FlViewport viewport = { .width = o->width, .height = o->height, .font_scale = scale };
      g_autoptr (GError) error = NULL;
      if (!fl_export_compare (cmp, &viewport, &palette, format, o->output, &error))
        return fl_cli_fail ("compare: %s", error->message);
    }
  return fl_run_get_findings (a)->len || fl_run_get_findings (b)->len ? FL_EXIT_FINDINGS
                                                                       : FL_EXIT_OK;
}

int
fl_cli_compare (int argc, char **argv)
{
  CompareOptions o = { .width = 1280, .height = 720 };
  GOptionEntry entries[] = {
    { "a", 0, 0, G_OPTION_ARG_STRING, &o.a, "Switches of run A over the scenario's", "KEY=VALUE[,KEY=VALUE]" },
    { "b", 0, 0, G_OPTION_ARG_STRING, &o.b, "Switches of run B over the scenario's", "KEY=VALUE[,KEY=VALUE]" },
    { "step", 0, 0, G_OPTION_ARG_STRING, &o.step, "Compare after N steps of A (B at the same moment), or at the end (default)", "N|end" },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &o.output, "Also draw the compare view into FILE (.png, .svg or .pdf)", "FILE" },
    { "layout", 0, 0, G_OPTION_ARG_STRING, &o.layout, "stacked (default: A's lanes above B's) or split (side by side)", "LAYOUT" },
    { "width", 0, 0, G_OPTION_ARG_INT, &o.width, "Width of the drawing, default 1280", "W" },
    { "height", 0, 0, G_OPTION_ARG_INT, &o.height, "Height, default 720", "H" },
    { "dark", 0, 0, G_OPTION_ARG_NONE, &o.dark, "Draw in the dark style", NULL },
    { "json", 0, 0, G_OPTION_ARG_NONE, &o.json, "Print JSON", NULL },
    { NULL }
  };
  g_autoptr (GOptionContext) context = g_option_context_new ("SCENARIO - one scenario under two sets of switches");
  g_option_context_add_main_entries (context, entries, NULL);
  g_autofree char *switches = fl_cli_switches_help ();
  g_autofree char *description = g_strconcat (
    "Runs SCENARIO twice, with --a's switches and with --b's, and prints both runs'\n"
    "counters and cache-line transfers with B - A and B / A, and each run's findings.\n"
    "The two runs are lined up by scenario operation: at --step N of A, B is at the\n"
    "same operation's moment.\n"
    "Example: faultline-cli compare spf-vs-munmap --a vma-free=rcu --b vma-free=immediate\n"
    "Exit status: 0 neither run has findings, 1 one has, 2 usage or input error.",
    "\n\n", switches, NULL);
  g_option_context_set_description (context, description);
  int status;
  if (!fl_cli_parse (context, &argc, &argv))
    status = FL_EXIT_USAGE;
  else if (argc != 2)
    status = fl_cli_fail ("compare needs exactly one SCENARIO (a built-in id or a .fault path)");
  else
    status = compare (&o, argv[1]);
  g_free (o.a);
  g_free (o.b);
  g_free (o.step);
  g_free (o.output);
  g_free (o.layout);
  return status;
}

/* fl-cli-export.c — `export`: draw a view of a scenario at a step into PNG, SVG or PDF with
 * the window's own painters, or every step of a range as a numbered series or one
 * multi-page PDF (slides); no display needed. */
#include "fl-cli.h"
#include "fl-export-range.h"
#include "fl-paint.h"

#include <stdio.h>
#include <string.h>

typedef struct {
  char   **sets;
  char    *view;
  char    *step;
  char    *from, *to;
  char    *format;
  char    *output;
  gint     width;
  char    *height;     /* as typed: NULL for the view's own */
  gint     cpu;
  gboolean dark;
} ExportOptions;

static const char *
format_of (const ExportOptions *o)
{
  if (o->format)
    return o->format;
  const char *dot = o->output ? strrchr (o->output, '.') : NULL;
  return dot ? dot + 1 : NULL;
}

static gboolean
parse_step (const char *text, gboolean *to_end, guint64 *step)
{
  *to_end = text == NULL || strcmp (text, "end") == 0;
  if (*to_end)
    return TRUE;
  return g_ascii_string_to_unsigned (text, 10, 0, G_MAXUINT64, step, NULL);
}

static int
export_scenario (const ExportOptions *o, const char *id)
{
  FlView view = fl_view_lookup (o->view);
  if (o->view == NULL || view == FL_VIEW_N)
    {
      GString *names = g_string_new (NULL);
      for (guint v = 0; v < FL_VIEW_N; v++)
        g_string_append_printf (names, "%s%s", v ? ", " : "", fl_view_name (v));
      int status = o->view == NULL
                   ? fl_cli_fail ("export needs --view VIEW, the view to draw: one of %s", names->str)
                   : fl_cli_fail ("--view '%s': expected one of %s", o->view, names->str);
      g_string_free (names, TRUE);
      return status;
    }
  /* the file comes first: without it there is no name to take the format from either */
  if (o->output == NULL)
    return fl_cli_fail ("export needs -o FILE, the file to write (.png, .svg or .pdf)");
  const char *format = format_of (o);
  if (format == NULL)
    return fl_cli_fail ("-o %s: the name has no .png, .svg or .pdf ending (or give --format)",
                        o->output);
  if (g_ascii_strcasecmp (format, "png") && g_ascii_strcasecmp (format, "svg")
      && g_ascii_strcasecmp (format, "pdf"))
    return fl_cli_fail ("%s '%s': expected png, svg or pdf", o->format ? "--format" : "-o",
                        o->format ? o->format : o->output);
  gboolean range = o->from || o->to;
  if (range && o->step)
    return fl_cli_fail ("--step draws one step, --from/--to a range: use one or the other");
  gboolean to_end;
  guint64 step = 0, first = 0, last = 0;
  gboolean last_is_end = FALSE;
  if (!parse_step (o->step, &to_end, &step))
    return fl_cli_fail ("--step '%s': expected a step number or 'end'", o->step);
  if (o->from && !g_ascii_string_to_unsigned (o->from, 10, 0, G_MAXUINT64, &first, NULL))
    return fl_cli_fail ("--from '%s': expected a step number", o->from);
  if (o->to && !parse_step (o->to, &last_is_end, &last))
    return fl_cli_fail ("--to '%s': expected a step number or 'end'", o->to);
  if (o->to == NULL)
    last_is_end = TRUE;
  if (range && !last_is_end && first > last)
    return fl_cli_fail ("--from %" G_GUINT64_FORMAT " --to %" G_GUINT64_FORMAT
                        ": the first step is after the last", first, last);
  if (range && !last_is_end && last - first >= FL_EXPORT_RANGE_MAX_PAGES)
    return fl_cli_fail ("--from %" G_GUINT64_FORMAT " --to %" G_GUINT64_FORMAT
                        ": %" G_GUINT64_FORMAT " steps, at most %d at once", first, last,
                        last - first + 1, FL_EXPORT_RANGE_MAX_PAGES);
  guint64 height = 0;
  if (o->height && !g_ascii_string_to_unsigned (o->height, 10, 1, 16384, &height, NULL))
    return fl_cli_fail ("--height %s: expected a whole number from 1 to 16384", o->height);
  if (o->width < 1 || o->width > 16384)
    return fl_cli_fail ("--width %d: expected a whole number from 1 to 16384", o->width);
  if (o->cpu < 0)
    return fl_cli_fail ("--cpu must not be negative");

  g_autoptr (FlScenario) scenario = fl_cli_load_scenario (id);
  if (scenario == NULL)
    return FL_EXIT_USAGE;
  FlConfig config = scenario->config;
  if (!fl_cli_apply_sets (&config, o->sets))
    return FL_EXIT_USAGE;
  if ((guint) o->cpu >= config.cpus)
    return fl_cli_fail ("--cpu %d: the scenario has %u CPUs", o->cpu, config.cpus);
  g_autoptr (GError) error = NULL;
  FlSim *sim = fl_sim_new (scenario, &config, scenario->seed, &error);
  if (sim == NULL)
    return fl_cli_fail ("%s", error->message);
  /* the whole run, as the window has it: a step drawn in the middle of it shows the run's
   * length ("step 30 of 92") and the lanes' future, not a run cut short at that step */
  fl_sim_run_in_budget (sim, 0);
  g_autoptr (FlRun) run = fl_run_new_from_sim (sim);
  g_autoptr (FlCursor) cursor = fl_cursor_new (run);
  guint64 taken = fl_run_get_total_steps (run);
  if (range && (last_is_end || last > taken))
    {
      if (!last_is_end)
        return fl_cli_fail ("--to %" G_GUINT64_FORMAT ": the run ends at step %" G_GUINT64_FORMAT,
                            last, taken);
      last = taken;
      if (first > last)
        return fl_cli_fail ("--from %" G_GUINT64_FORMAT ": the run ends at step %"
                            G_GUINT64_FORMAT, first, taken);
    }
  if (!range && !to_end && taken < step)
    return fl_cli_fail ("--step %" G_GUINT64_FORMAT ": the run ends at step %" G_GUINT64_FORMAT,
                        step, taken);
  if (!fl_cursor_seek (cursor, range || to_end ? taken : step))
    return fl_cli_fail ("--step %" G_GUINT64_FORMAT ": cannot go back to it", step);

  FlPalette palette;
  if (o->dark)
    fl_palette_init_dark (&palette);
  else
    fl_palette_init_light (&palette);
  /* text grows with the image, so a 4K export reads like the window at 1280×720 */
  double scale = MAX (1.0, MIN (o->width / 1280.0, (height ? height : 720) / 720.0));
  FlViewport viewport = {
    .width = o->width, .height = height ? height : 720, .font_scale = scale,
    .selected_cpu = (guint) o->cpu,
  };
  /* One view alone is as tall as its content, with the text the width gives it: at 720 the
   * lanes, a small tree or the counters would leave most of the image blank. A range keeps
   * one height for all its pages, the lanes' (whose height does not change with the step)
   * or the default. */
  if (height == 0 && view != FL_VIEW_ALL && (!range || view == FL_VIEW_LANES))
    {
      if (view != FL_VIEW_LANES)
        viewport.font_scale = MAX (scale, CLAMP (o->width / 800.0, 1.0, 1.5));
      viewport.height = fl_view_natural_height (view, cursor, &viewport);
    }
  if (range)
    {
      if (!fl_export_range (view, run, first, last, &viewport, &palette, format, o->output, NULL,
                            NULL, &error))
        return fl_cli_fail ("export: %s", error->message);
      return FL_EXIT_OK;
    }
  if (!fl_export_view (view, cursor, &viewport, &palette, format, o->output, &error))
    return fl_cli_fail ("export: %s", error->message);
  return FL_EXIT_OK;
}

int
fl_cli_export (int argc, char **argv)
{
  ExportOptions o = { .width = 1280 };
  GOptionEntry entries[] = {
    { "view", 0, 0, G_OPTION_ARG_STRING, &o.view, "lanes, vma, pgtable, cache, rcu, listing, counters or all", "VIEW" },
    { "step", 0, 0, G_OPTION_ARG_STRING, &o.step, "Draw the state after N steps, or at the end (default)", "N|end" },
    { "from", 0, 0, G_OPTION_ARG_STRING, &o.from, "Draw every step from N (default 0)…", "N" },
    { "to", 0, 0, G_OPTION_ARG_STRING, &o.to, "…to M (default the end): a PDF page or a numbered file per step", "M|end" },
    { "format", 0, 0, G_OPTION_ARG_STRING, &o.format, "png, svg or pdf (default: from the file name)", "FORMAT" },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &o.output, "The file to write; with --from/--to and png or svg, the prefix of the numbered files", "FILE" },
    { "set", 0, 0, G_OPTION_ARG_STRING_ARRAY, &o.sets, "Override a switch of the scenario", "KEY=VALUE" },
    { "width", 0, 0, G_OPTION_ARG_INT, &o.width, "Width in pixels (points for SVG and PDF), default 1280", "W" },
    { "height", 0, 0, G_OPTION_ARG_STRING, &o.height, "Height, default: as tall as the view needs (all: 720)", "H" },
    { "cpu", 0, 0, G_OPTION_ARG_INT, &o.cpu, "The selected CPU, whose listing is shown (default 0)", "N" },
    { "dark", 0, 0, G_OPTION_ARG_NONE, &o.dark, "Use the dark style", NULL },
    { NULL }
  };
  g_autoptr (GOptionContext) context = g_option_context_new ("SCENARIO - draw a view of a scenario at a step");
  g_option_context_add_main_entries (context, entries, NULL);
  g_autofree char *switches = fl_cli_switches_help ();
  g_autofree char *description = g_strconcat (
    "SCENARIO is a built-in id (see `faultline-cli list`) or a path to a .fault file.\n"
    "The image is drawn by the same painters as the window.\n"
    "With --from N --to M every step from N to M is drawn: one PDF with a page per step,\n"
    "or PREFIX-000N.png … (six digits, zero-padded) for png and svg; at most 5000 steps.\n"
    "Exit status: 0 written, 2 usage or input error.",
    "\n\n", switches, NULL);
  g_option_context_set_description (context, description);
  int status;
  if (!fl_cli_parse (context, &argc, &argv))
    status = FL_EXIT_USAGE;
  else if (argc != 2)
    status = fl_cli_fail ("export needs exactly one SCENARIO (a built-in id or a .fault path)");
  else
    status = export_scenario (&o, argv[1]);
  g_strfreev (o.sets);
  g_free (o.view);
  g_free (o.step);
  g_free (o.from);
  g_free (o.to);
  g_free (o.format);
  g_free (o.output);
  g_free (o.height);
  return status;
}

/* fl-cli-report.c — a run as text: the summary, JSON, a trace line per step, and the Trace
 * Event Format for Perfetto / chrome://tracing. */
#include "fl-cli.h"
#include "fl-cli-json.h"
#include "fl-cli-report.h"

#include <json-glib/json-glib.h>
#include <string.h>

/* "function:line" of a location, the line counted in the function's listing. */
static char *
where (FlLoc loc)
{
  FlFn fn = fl_loc_fn (loc);
  return g_strdup_printf ("%s:%s", fl_fn_name (fn), fl_loc_tag (loc));
}

gsize
fl_cli_print_trace (FlSim *sim, gsize from, FILE *out)
{
  gsize n = fl_sim_get_n_events (sim);
  if (from == 0 && n > 0)
    fprintf (out, "%8s %12s  %-6s %-40s %s\n", "step", "cycle", "cpu", "function:tag",
             "what the step did [cache line: where it came from]");
  for (gsize i = from; i < n; i++)
    {
      FlEvent event = fl_sim_get_event (sim, i);
      const FlEvent *e = &event;
      g_autofree char *at = where (e->loc);
      g_autofree char *what = fl_sim_describe_event (sim, e);
      /* step N's events carry N - 1 (the steps before them): the row says N, the number the
       * window, the findings and --max-steps use for the state after it */
      fprintf (out, "%8u %12" G_GUINT64_FORMAT "  cpu%-3u %-40s %s\n", e->step + 1, e->cycle,
               e->cpu, at, what);
    }
  return n;
}

typedef struct {
  guint   line;
  guint32 transfers;
} LineCount;

static gint
by_transfers (gconstpointer a, gconstpointer b)
{
  const LineCount *x = a, *y = b;
  if (x->transfers != y->transfers)
    return x->transfers < y->transfers ? 1 : -1;
  return x->line < y->line ? -1 : x->line > y->line;
}

/* The struct page lines are too many to list one by one: they are counted together. */
#define STRUCT_PAGES G_MAXUINT

static const char *
line_label (FlSim *sim, guint line, char *buf, gsize size)
{
  return line == STRUCT_PAGES ? "struct pages" : fl_sim_line_name (sim, line, buf, size);
}

/* The lines that moved between CPUs, busiest first. */
static GArray *
hot_lines (FlSim *sim)
{
  const FlState *st = fl_sim_get_state (sim);
  GArray *lines = g_array_new (FALSE, FALSE, sizeof (LineCount));
  for (guint l = 1; l < st->sizes.nlines; l++)
    if (st->lines[l].transfers)
      {
        LineCount c = { l, st->lines[l].transfers };
        g_array_append_val (lines, c);
      }
  if (st->g->page_transfers)
    {
      LineCount c = { STRUCT_PAGES, (guint32) MIN (st->g->page_transfers, G_MAXUINT32) };
      g_array_append_val (lines, c);
    }
  g_array_sort (lines, by_transfers);
  return lines;
}

/* The busiest lines the summary names one by one; --json has them all. */
#define SUMMARY_LINES 8u

static const char *const policy_names[] = { "time", "script", "random", "external" };

void
fl_cli_print_summary (FlSim *sim, guint64 seed, FlSchedPolicy policy, gboolean hit_limit, FILE *out)
{
  const FlScenario *sc = fl_sim_get_scenario (sim);
  const FlConfig *cfg = fl_sim_get_config (sim);
  FlCounters k;
  fl_sim_get_counters (sim, &k);
  g_autofree char *config = fl_config_describe (cfg);
  GPtrArray *findings = fl_sim_get_findings (sim);
  char buf[64];

  fprintf (out, "Scenario   %s — %s\n", sc->id, sc->title);
  fprintf (out, "Config     %s\n", config);
  g_autofree char *machine = fl_config_get (cfg, "machine");
  fprintf (out, "Machine    %s: %u socket%s × %u cores, %u MHz\n", machine, cfg->sockets,
           cfg->sockets == 1 ? "" : "s", cfg->cores_per_socket, cfg->cost.mhz);
  fprintf (out, "Seed       %" G_GUINT64_FORMAT ", schedule %s\n", seed, policy_names[policy]);
  const char *stopped = fl_sim_get_stop_message (sim);
  if (stopped != NULL)
    fprintf (out, "Steps      %" G_GUINT64_FORMAT ", %s\n", fl_sim_get_step (sim), stopped);
  else
    fprintf (out, "Steps      %" G_GUINT64_FORMAT "%s\n", fl_sim_get_step (sim),
             hit_limit ? " (stopped by --max-steps before the end)" : "");
  char us[G_ASCII_DTOSTR_BUF_SIZE];
  fprintf (out, "Cycles     %" G_GUINT64_FORMAT " (%s µs at %u MHz)\n", k.cycles,
           fl_cli_decimal ((double) k.cycles / cfg->cost.mhz, 1, us, sizeof us), cfg->cost.mhz);
  /* the missed lookups are among the retried: walks without mmap_sem that a rotation misled */
  fprintf (out, "Faults     total %" G_GUINT64_FORMAT ", speculative %" G_GUINT64_FORMAT
           ", retried %" G_GUINT64_FORMAT ", locked %" G_GUINT64_FORMAT ", errors %"
           G_GUINT64_FORMAT "; PGFAULT counted %" G_GUINT64_FORMAT "; missed VMA lookups %"
           G_GUINT64_FORMAT "\n", k.total, k.speculative, k.retried, k.locked, k.errors,
           k.pgfault, k.missed);
  g_autoptr (GArray) lines = hot_lines (sim);
  fprintf (out, "Transfers  %" G_GUINT64_FORMAT " cache-line transfers between CPUs%s\n",
           k.transfers, lines->len ? ":" : "");
  guint64 rest = 0;
  for (guint i = 0; i < lines->len; i++)
    {
      const LineCount *c = &g_array_index (lines, LineCount, i);
      if (i < SUMMARY_LINES)
        fprintf (out, "           %8u  %s\n", c->transfers, line_label (sim, c->line, buf, sizeof buf));
      else
        rest += c->transfers;
    }
  /* the rows add up to the total: the quieter lines together in one */
  if (lines->len > SUMMARY_LINES)
    fprintf (out, "           %8" G_GUINT64_FORMAT "  %u more line%s\n", rest,
             lines->len - SUMMARY_LINES, lines->len - SUMMARY_LINES == 1 ? "" : "s");
  if (findings->len == 0)
    fprintf (out, "Findings   none\n");
  for (guint i = 0; i < findings->len; i++)
    {
      const FlFinding *f = g_ptr_array_index (findings, i);
      fprintf (out, "%s %s at step %" G_GUINT64_FORMAT " on cpu%u: %s\n",
               i ? "          " : "Findings  ", fl_finding_kind_name (f->kind), f->step, f->cpu,
               f->message);
      if (f->cause != NULL && f->cause[0] != '\0')
        fprintf (out, "             cause (cpu%u, step %" G_GUINT64_FORMAT "): %s\n", f->cause_cpu,
                 f->cause_step, f->cause);
    }
  GArray *unreached = fl_sim_get_unreached (sim);
  for (guint i = 0; i < unreached->len; i++)
    {
      g_autofree char *text = fl_sim_describe_unreached (sim, &g_array_index (unreached,
                                                                           FlScheduleMiss, i));
      fprintf (out, "%s %s\n", i ? "          " : "Warning   ", text);
    }
  fprintf (out, "Hash       %016" G_GINT64_MODIFIER "x\n", fl_sim_get_hash (sim));
}

void
fl_cli_print_json (FlSim *sim, guint64 seed, gboolean hit_limit, FILE *out)
{
  const FlScenario *sc = fl_sim_get_scenario (sim);
  FlCounters k;
  fl_sim_get_counters (sim, &k);
  g_autoptr (JsonBuilder) b = json_builder_new ();
  char buf[64];

  json_builder_begin_object (b);
  fl_cli_json_string (b, "scenario", sc->id);
  json_builder_set_member_name (b, "config");
  json_builder_begin_object (b);
  g_autofree char *machine = fl_config_get (fl_sim_get_config (sim), "machine");
  fl_cli_json_string (b, "machine", machine);
  for (const char *const *key = fl_config_keys (); *key; key++)
    {
      if (g_str_has_prefix (*key, "cost."))
        continue;
      g_autofree char *value = fl_config_get (fl_sim_get_config (sim), *key);
      fl_cli_json_string (b, *key, value);
    }
  json_builder_end_object (b);
  fl_cli_json_int (b, "seed", (gint64) seed);
  fl_cli_json_int (b, "steps", (gint64) fl_sim_get_step (sim));
  fl_cli_json_bool (b, "finished", !hit_limit);
  /* why it ended early, when the budget or a limit of the machine ended it */
  fl_cli_json_nullable (b, "stopped", fl_sim_get_stop_message (sim));
  fl_cli_json_int (b, "cycles", (gint64) k.cycles);
  g_snprintf (buf, sizeof buf, "%016" G_GINT64_MODIFIER "x", fl_sim_get_hash (sim));
  fl_cli_json_string (b, "hash", buf);
  json_builder_set_member_name (b, "faults");
  json_builder_begin_object (b);
  const struct { const char *name; guint64 value; } faults[] = {
    { "total", k.total }, { "speculative", k.speculative }, { "retried", k.retried },
    { "locked", k.locked }, { "errors", k.errors }, { "pgfault", k.pgfault },
    { "missed", k.missed },
  };
  for (guint i = 0; i < G_N_ELEMENTS (faults); i++)
    {
      fl_cli_json_int (b, faults[i].name, (gint64) faults[i].value);
    }
  json_builder_end_object (b);
  json_builder_set_member_name (b, "transfers");
  json_builder_begin_object (b);
  g_autoptr (GArray) lines = hot_lines (sim);
  for (guint i = 0; i < lines->len; i++)
    {
      const LineCount *c = &g_array_index (lines, LineCount, i);
      fl_cli_json_int (b, line_label (sim, c->line, buf, sizeof buf), c->transfers);
    }
  json_builder_end_object (b);
  json_builder_set_member_name (b, "findings");
  json_builder_begin_array (b);
  GPtrArray *findings = fl_sim_get_findings (sim);
  for (guint i = 0; i < findings->len; i++)
    {
      const FlFinding *f = g_ptr_array_index (findings, i);
      json_builder_begin_object (b);
      fl_cli_json_string (b, "kind", fl_finding_kind_name (f->kind));
      fl_cli_json_int (b, "step", (gint64) f->step);
      fl_cli_json_int (b, "cpu", f->cpu);
      fl_cli_json_string (b, "message", f->message);
      fl_cli_json_int (b, "cause-cpu", f->cause_cpu);
      fl_cli_json_int (b, "cause-step", (gint64) f->cause_step);
      fl_cli_json_string (b, "cause", f->cause);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  /* the stop points the script gave up on: the interleaving they set up did not happen */
  json_builder_set_member_name (b, "unreached");
  json_builder_begin_array (b);
  GArray *unreached = fl_sim_get_unreached (sim);
  for (guint i = 0; i < unreached->len; i++)
    {
      const FlScheduleMiss *m = &g_array_index (unreached, FlScheduleMiss, i);
      const FlScheduleStep *s = &g_array_index (sc->schedule, FlScheduleStep, m->index);
      g_autofree char *point = g_strdup_printf ("cpu%u until %s", s->cpu, s->target);
      g_autofree char *message = fl_sim_describe_unreached (sim, m);
      json_builder_begin_object (b);
      fl_cli_json_string (b, "point", point);
      fl_cli_json_int (b, "line", s->line);
      fl_cli_json_string (b, "message", message);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_end_object (b);
  g_autoptr (JsonNode) root = json_builder_get_root (b);
  g_autofree char *text = json_to_string (root, TRUE);
  fprintf (out, "%s\n", text);
}

/* One track per CPU; a span for each stretch of steps in the same function; findings as
 * instant events. Times in microseconds of simulated time. */
gboolean
fl_cli_write_chrome_trace (FlSim *sim, const char *path)
{
  gsize n = fl_sim_get_n_events (sim);
  const FlState *st = fl_sim_get_state (sim);
  double mhz = fl_sim_get_config (sim)->cost.mhz;
  g_autoptr (GString) out = g_string_new ("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n");
  g_autofree guint *fn = g_new0 (guint, st->sizes.ncpus);
  g_autofree guint64 *since = g_new0 (guint64, st->sizes.ncpus);
  gboolean first = TRUE;
  char ts[G_ASCII_DTOSTR_BUF_SIZE], dur[G_ASCII_DTOSTR_BUF_SIZE];

  for (guint c = 0; c < st->sizes.ncpus; c++)
    {
      g_string_append_printf (out, "%s{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":1,\"tid\":%u,"
                              "\"args\":{\"name\":\"cpu%u\"}}", first ? "" : ",\n", c, c);
      first = FALSE;
      fn[c] = FL_FN_N;
    }
  for (gsize i = 0; i <= n; i++)
    {
      FlEvent event = i < n ? fl_sim_get_event (sim, i) : (FlEvent) { 0 };
      const FlEvent *e = i < n ? &event : NULL;
      for (guint c = 0; c < st->sizes.ncpus; c++)
        {
          if (e && e->cpu != c)
            continue;
          guint now = e ? fl_loc_fn (e->loc) : FL_FN_N;
          guint64 at = e ? e->cycle : since[c];
          if (now != fn[c] && fn[c] != FL_FN_N && fn[c] != FL_FN_USER)
            g_string_append_printf (out, ",\n{\"ph\":\"X\",\"name\":\"%s\",\"pid\":1,\"tid\":%u,"
                                    "\"ts\":%s,\"dur\":%s}", fl_fn_name (fn[c]), c,
                                    fl_cli_decimal (since[c] / mhz, 4, ts, sizeof ts),
                                    fl_cli_decimal ((at - since[c]) / mhz, 4, dur, sizeof dur));
          if (now != fn[c])
            {
              fn[c] = now;
              since[c] = at;
            }
        }
      if (e && e->kind == FL_EV_FINDING)
        g_string_append_printf (out, ",\n{\"ph\":\"i\",\"s\":\"g\",\"name\":\"%s\",\"pid\":1,"
                                "\"tid\":%u,\"ts\":%s}", fl_finding_kind_name (e->val), e->cpu,
                                fl_cli_decimal (e->cycle / mhz, 4, ts, sizeof ts));
    }
  g_string_append (out, "\n]}\n");
  g_autoptr (GError) error = NULL;
  if (!g_file_set_contents (path, out->str, out->len, &error))
    {
      fl_cli_fail ("--chrome-trace: %s", error->message);
      return FALSE;
    }
  return TRUE;
}

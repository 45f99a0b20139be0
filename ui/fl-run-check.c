/* Does the replay in the window equal the recording? See fl-run-check.h. */

#include "fl-run-check.h"

#include <glib/gi18n.h>
#include <string.h>

#include "fl-scenario-about.h"
#include "fl-store-record.h"

#define FL_RUN_CHECK_KEY "fl-run-check"

typedef struct {
  GWeakRef        window;
  GWeakRef        target;
  FlRunCheckFunc  func;
  FlSession      *session;   /* the check is data of the session: it cannot outlive it */
  gulong          handler;
  gint64          run_id;
  char           *text;
  guint64         seed;
  guint64         steps;
  char           *hash;
} FlRunCheck;

static void
fl_run_check_free (gpointer data)
{
  FlRunCheck *check = data;

  g_clear_signal_handler (&check->handler, check->session);
  g_weak_ref_clear (&check->window);
  g_weak_ref_clear (&check->target);
  g_free (check->text);
  g_free (check->hash);
  g_free (check);
}

static void
fl_run_check_report (FlRunCheck *check, gboolean matches, const char *message)
{
  g_autoptr(FlWindow) window = g_weak_ref_get (&check->window);
  g_autoptr(GObject) target = g_weak_ref_get (&check->target);

  if (window != NULL)
    {
      fl_window_show_message (window, message);
      /* the message goes after a while; that this is a replay, and of which run, stays */
      fl_scenario_about_set_replay (fl_window_get_scenario_about (window), message);
    }
  if (target != NULL && check->func != NULL)
    check->func (target, check->run_id, matches, message);
}

static void
fl_run_check_loading_changed (FlSession *session, GParamSpec *pspec, FlRunCheck *check)
{
  const FlRun *run;
  gboolean mine;

  if (fl_session_is_loading (session))
    return;
  run = fl_session_get_run (session);
  /* A failed load is told by the window already; another scenario loaded meanwhile is not
   * the run this check is about. */
  mine = run != NULL && fl_run_get_seed (run) == check->seed
         && strcmp (fl_run_get_scenario (run)->text, check->text) == 0;
  if (mine)
    {
      g_autofree char *hash = fl_store_run_hash_text (run);
      guint64 steps = fl_run_get_total_steps (run);
      g_autofree char *id = g_strdup_printf ("%" G_GINT64_FORMAT, check->run_id);
      g_autofree char *replayed = g_strdup_printf ("%" G_GUINT64_FORMAT, steps);
      g_autofree char *recorded = g_strdup_printf ("%" G_GUINT64_FORMAT, check->steps);
      g_autofree char *message = NULL;
      gboolean matches = steps == check->steps && strcmp (hash, check->hash) == 0;

      if (matches)
        /* Translators: after opening a recorded run; the run's number, its step count and
         * its event-stream hash (hex). */
        message = g_strdup_printf (_("Run %s replayed: identical to its recording "
                                     "(%s steps, hash %s)."), id, replayed, hash);
      else
        /* Translators: after opening a recorded run that this build simulates differently:
         * the run's number, then steps and hash recorded, then steps and hash replayed. */
        message = g_strdup_printf (_("Run %s does not replay as recorded: the recording has "
                                     "%s steps with hash %s, this replay %s steps with hash "
                                     "%s. The window shows the replay, not the recording."),
                                   id, recorded, check->hash, replayed, hash);
      fl_run_check_report (check, matches, message);
    }
  /* Over: free it, unless the report already started a newer check in its place. */
  if (g_object_get_data (G_OBJECT (session), FL_RUN_CHECK_KEY) == check)
    g_object_set_data (G_OBJECT (session), FL_RUN_CHECK_KEY, NULL);
}

void
fl_run_check_start (FlWindow *window, const FlStoredRun *run, GObject *target,
                    FlRunCheckFunc func)
{
  FlRunCheck *check;
  FlSession *session;

  g_return_if_fail (FL_IS_WINDOW (window));
  g_return_if_fail (run != NULL);

  session = fl_window_get_session (window);
  check = g_new0 (FlRunCheck, 1);
  g_weak_ref_init (&check->window, window);
  g_weak_ref_init (&check->target, target);
  check->func = func;
  check->session = session;
  check->run_id = run->id;
  /* The simulation keeps the canonical text of what it ran: compare like with like, or a
   * stored text written by hand (not as Faultline writes it) would never be reported on. */
  {
    g_autoptr(FlScenario) parsed = fl_scenario_parse (run->scenario_text, "stored", NULL);
    check->text = parsed != NULL ? fl_scenario_to_text (parsed) : g_strdup (run->scenario_text);
  }
  check->seed = run->seed;
  check->steps = run->steps;
  check->hash = g_strdup (run->hash);
  check->handler = g_signal_connect (session, "notify::loading",
                                     G_CALLBACK (fl_run_check_loading_changed), check);
  /* replaces (and so disconnects) an earlier check that has not finished */
  g_object_set_data_full (G_OBJECT (session), FL_RUN_CHECK_KEY, check, fl_run_check_free);
}

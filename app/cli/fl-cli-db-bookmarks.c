/* fl-cli-db-bookmarks.c — `db bookmarks`: the annotated steps of a run, listed or edited. */
#include "fl-cli-db.h"
#include "fl-cli-json.h"

/* Not 0 or -1: both are values a user may type, and must be told about. */
#define UNSET G_MININT64

typedef struct {
  gint64  add;      /* --add STEP; UNSET = not given */
  gint64  edit;     /* --edit ID; 0 = not given */
  gint64  remove;   /* --delete ID; 0 = not given */
  gint64  step;     /* --step N with --edit; UNSET = keep */
  char   *title;
  char   *note;
} BookmarkOptions;

static void
bookmark_options_clear (BookmarkOptions *o)
{
  g_clear_pointer (&o->title, g_free);
  g_clear_pointer (&o->note, g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (BookmarkOptions, bookmark_options_clear)

static void
list_json (GPtrArray *marks)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();
  json_builder_begin_array (b);
  for (guint i = 0; i < marks->len; i++)
    {
      const FlStoredBookmark *m = marks->pdata[i];
      json_builder_begin_object (b);
      fl_cli_json_int (b, "id", m->id);
      fl_cli_json_int (b, "run", m->run_id);
      fl_cli_json_int (b, "step", m->step);
      fl_cli_json_string (b, "title", m->title);
      fl_cli_json_string (b, "note", m->note);
      fl_cli_json_int (b, "created", m->created);
      fl_cli_json_int (b, "updated", m->updated);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  fl_cli_print_json_root (b, stdout);
}

static void
list_text (gint64 run_id, GPtrArray *marks)
{
  if (marks->len == 0)
    {
      printf ("Run %" G_GINT64_FORMAT " has no bookmarks.\n", run_id);
      return;
    }
  printf ("%5s %8s  %s\n", "ID", "STEP", "TITLE (and note)");
  for (guint i = 0; i < marks->len; i++)
    {
      const FlStoredBookmark *m = marks->pdata[i];
      printf ("%5" G_GINT64_FORMAT " %8u  %s\n", m->id, m->step, m->title);
      /* A note may hold paragraphs: each of its lines under the title. */
      g_auto (GStrv) lines = g_strsplit (m->note, "\n", -1);
      for (guint l = 0; lines[l] && *m->note; l++)
        printf ("%15s %s\n", "", lines[l]);
    }
}

/* A bookmark marks the state after a step: from 0 up to the run's last. */
static gboolean
check_step (const FlStoredRun *run, gint64 step)
{
  if (step < 0 || (guint64) step > run->steps)
    {
      fl_cli_fail ("step %" G_GINT64_FORMAT " is not in run %" G_GINT64_FORMAT " (its steps go "
                   "from 0 to %" G_GUINT64_FORMAT ")", step, run->id, run->steps);
      return FALSE;
    }
  return TRUE;
}

/* --edit and --delete name a bookmark by its own id; it must belong to the run named too,
 * so that a wrong id in a script fails instead of changing another run's notes. */
static FlStoredBookmark *
bookmark_of_run (FlStore *store, gint64 id, const FlStoredRun *run)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (FlStoredBookmark) mark = fl_store_get_bookmark (store, id, &error);
  if (mark == NULL)
    {
      fl_cli_fail ("%s", error->message);
      return NULL;
    }
  if (mark->run_id != run->id)
    {
      fl_cli_fail ("bookmark %" G_GINT64_FORMAT " belongs to run %" G_GINT64_FORMAT ", not to run "
                   "%" G_GINT64_FORMAT, id, mark->run_id, run->id);
      return NULL;
    }
  return g_steal_pointer (&mark);
}

static int
change (FlStore *store, const FlStoredRun *run, const BookmarkOptions *o, const char *title)
{
  g_autoptr (GError) error = NULL;
  if (o->add != UNSET)
    {
      gint64 id = 0;
      if (title == NULL)
        return fl_cli_fail ("--add needs a TITLE (after RUN_ID, or with --title)");
      if (!check_step (run, o->add))
        return FL_EXIT_USAGE;
      if (!fl_store_add_bookmark (store, run->id, (guint32) o->add, title, o->note, &id, &error))
        return fl_cli_fail ("%s", error->message);
      printf ("Added bookmark %" G_GINT64_FORMAT " at step %" G_GINT64_FORMAT " of run %"
              G_GINT64_FORMAT "\n", id, o->add, run->id);
      return FL_EXIT_OK;
    }

  gint64 id = o->edit ? o->edit : o->remove;
  g_autoptr (FlStoredBookmark) mark = bookmark_of_run (store, id, run);
  if (mark == NULL)
    return FL_EXIT_USAGE;
  if (o->remove)
    {
      if (!fl_store_delete_bookmark (store, id, &error))
        return fl_cli_fail ("%s", error->message);
      printf ("Deleted bookmark %" G_GINT64_FORMAT " of run %" G_GINT64_FORMAT "\n", id, run->id);
      return FL_EXIT_OK;
    }
  /* Only what was given changes. */
  gint64 step = o->step != UNSET ? o->step : mark->step;
  if (!check_step (run, step))
    return FL_EXIT_USAGE;
  if (!fl_store_edit_bookmark (store, id, (guint32) step, title ? title : mark->title,
                               o->note ? o->note : mark->note, &error))
    return fl_cli_fail ("%s", error->message);
  printf ("Edited bookmark %" G_GINT64_FORMAT " of run %" G_GINT64_FORMAT "\n", id, run->id);
  return FL_EXIT_OK;
}

int
fl_cli_db_bookmarks (int argc, char **argv)
{
  g_auto (FlCliStoreOptions) so = { 0 };
  g_auto (BookmarkOptions) o = { .add = UNSET, .step = UNSET };
  GOptionEntry entries[] = {
    { "add", 0, 0, G_OPTION_ARG_INT64, &o.add, "Add a bookmark at step STEP", "STEP" },
    { "edit", 0, 0, G_OPTION_ARG_INT64, &o.edit, "Change bookmark ID (--step, --title, --note)", "ID" },
    { "delete", 0, 0, G_OPTION_ARG_INT64, &o.remove, "Delete bookmark ID", "ID" },
    { "step", 0, 0, G_OPTION_ARG_INT64, &o.step, "With --edit: the step it marks", "N" },
    { "title", 0, 0, G_OPTION_ARG_STRING, &o.title, "The title (or give it after RUN_ID)", "TEXT" },
    { "note", 0, 0, G_OPTION_ARG_STRING, &o.note, "The note shown in presentation mode", "TEXT" },
    { NULL }
  };
  g_autoptr (GOptionContext) context =
    g_option_context_new ("RUN_ID [TITLE] - list, add, edit or delete the bookmarks of a run");
  g_option_context_add_main_entries (context, entries, NULL);
  fl_cli_store_add_options (context, &so, TRUE);
  g_option_context_set_description (context,
    "Without an action, lists the bookmarks of the run in step order. The actions:\n"
    "  --add STEP TITLE [--note TEXT]                     a new bookmark\n"
    "  --edit ID [--step N] [--title TEXT] [--note TEXT]  change only what is given\n"
    "  --delete ID                                        remove it\n"
    "Steps go from 0 to the run's step count (`faultline-cli db show RUN_ID`).\n"
    "Exit status: 0 done, 2 usage or input error (such as an unknown run or bookmark).");
  if (!fl_cli_parse (context, &argc, &argv))
    return FL_EXIT_USAGE;
  guint actions = (o.add != UNSET) + (o.edit != 0) + (o.remove != 0);
  if (actions > 1)
    return fl_cli_fail ("--add, --edit and --delete do not go together: one action at a time");
  if (argc < 2 || argc > 3)
    return fl_cli_fail ("bookmarks needs a RUN_ID%s", actions ? " (and at most a TITLE)" : "");
  if (argc == 3 && (actions == 0 || o.remove))
    return fl_cli_fail ("unexpected '%s' (a TITLE goes with --add or --edit)", argv[2]);
  if (argc == 3 && o.title)
    return fl_cli_fail ("two titles: '%s' and --title '%s'", argv[2], o.title);
  if (actions == 0 && (o.title || o.note || o.step != UNSET))
    return fl_cli_fail ("--step, --title and --note go with --add or --edit");
  if (o.remove && (o.title || o.note))
    return fl_cli_fail ("--delete takes no --title or --note");
  if (o.step != UNSET && !o.edit)
    return fl_cli_fail ("--step goes with --edit (--add takes the step itself)");
  if (o.edit < 0 || o.remove < 0)
    return fl_cli_fail ("bookmark ids are whole numbers from 1");
  gint64 run_id;
  if (!fl_cli_parse_id (argv[1], "run", &run_id))
    return FL_EXIT_USAGE;

  g_autoptr (FlStore) store =
    fl_cli_store_open_options (&so, actions ? FL_CLI_STORE_EDIT : FL_CLI_STORE_READ);
  if (store == NULL)
    return FL_EXIT_USAGE;
  g_autoptr (GError) error = NULL;
  g_autoptr (FlStoredRun) run = fl_store_get_run (store, run_id, &error);
  if (run == NULL)
    return fl_cli_fail ("%s", error->message);
  if (actions)
    return change (store, run, &o, argc == 3 ? argv[2] : o.title);

  g_autoptr (GPtrArray) marks = fl_store_list_bookmarks (store, run_id, &error);
  if (marks == NULL)
    return fl_cli_fail ("%s", error->message);
  if (so.json)
    list_json (marks);
  else
    list_text (run_id, marks);
  return FL_EXIT_OK;
}

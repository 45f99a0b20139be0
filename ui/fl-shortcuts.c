/* Single-key shortcuts that yield to text and value widgets; see fl-shortcuts.h. */

#include "fl-shortcuts.h"

typedef struct {
  const char *trigger;
  const char *action;     /* a window action */
  int         cpu;        /* win.select-cpu's parameter, or -1 */
} FlShortcutEntry;

static const FlShortcutEntry fl_shortcut_entries[] = {
  { "space", "win.play", -1 },
  { "Right", "win.step-forward", -1 },
  { "Left", "win.step-back", -1 },
  { "<Shift>Right", "win.step-cpu", -1 },
  { "Home", "win.start", -1 },
  { "End", "win.end", -1 },
  { "Page_Down", "win.next-bookmark", -1 },
  { "Page_Up", "win.previous-bookmark", -1 },
  { "1", "win.select-cpu", 0 },
  { "2", "win.select-cpu", 1 },
  { "3", "win.select-cpu", 2 },
  { "4", "win.select-cpu", 3 },
  { "5", "win.select-cpu", 4 },
  { "6", "win.select-cpu", 5 },
  { "7", "win.select-cpu", 6 },
  { "8", "win.select-cpu", 7 },
  { "9", "win.select-cpu", 8 },
};

gboolean
fl_shortcuts_focus_wants_keys (GtkWidget *focus)
{
  for (GtkWidget *w = focus; w != NULL; w = gtk_widget_get_parent (w))
    {
      /* text fields (GtkText inside entries and spin buttons), text views, sliders */
      if (GTK_IS_EDITABLE (w) || GTK_IS_TEXT_VIEW (w) || GTK_IS_RANGE (w))
        return TRUE;
      /* a popover (a menu, the design switches) navigates with these keys itself */
      if (GTK_IS_POPOVER (w))
        return TRUE;
    }
  return FALSE;
}

static gboolean
fl_shortcuts_activate (GtkWidget *widget,
                       GVariant  *args,
                       gpointer   user_data)
{
  const FlShortcutEntry *entry = user_data;
  GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (widget));

  /* FALSE lets the key go on to the focused widget, as if there were no shortcut. */
  if (fl_shortcuts_focus_wants_keys (focus))
    return FALSE;
  if (entry->cpu >= 0)
    gtk_widget_activate_action (widget, entry->action, "u", (guint32) entry->cpu);
  else
    gtk_widget_activate_action (widget, entry->action, NULL);
  /* Taken even when the action is disabled (Right at the end of the run): otherwise the key
   * would fall through to moving the focus, which no one pressing Right meant. */
  return TRUE;
}

void
fl_shortcuts_install (GtkWindow *window)
{
  GtkEventController *controller = gtk_shortcut_controller_new ();

  gtk_event_controller_set_name (controller, "fl-transport-shortcuts");
  /* Capture: before a focused button takes Space or the window's arrow keys move the focus. */
  gtk_event_controller_set_propagation_phase (controller, GTK_PHASE_CAPTURE);
  for (guint i = 0; i < G_N_ELEMENTS (fl_shortcut_entries); i++)
    {
      const FlShortcutEntry *entry = &fl_shortcut_entries[i];
      GtkShortcutTrigger *trigger = gtk_shortcut_trigger_parse_string (entry->trigger);
      GtkShortcutAction *action =
        gtk_callback_action_new (fl_shortcuts_activate, (gpointer) entry, NULL);

      g_assert (trigger != NULL);
      gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (controller),
                                            gtk_shortcut_new (trigger, action));
    }
  gtk_widget_add_controller (GTK_WIDGET (window), controller);
}

/* FlPanels: see fl-panels.h. The layout is chosen from the allocation itself, so a resize
 * lands in one mode or the other within the same frame; what a panel shows is its painter's
 * business, the panels only hand out rectangles. Panels not shown are child-invisible: not
 * drawn, not focusable, not under the pointer. */

#include "fl-panels.h"

#include <math.h>

#include "fl-view-area.h"

/* Below this width three columns cut the cache view's columns and the listing's code. */
#define WIDE_MIN_WIDTH 1180
/* A grid row shorter than this (in pixels at text scale 1) leaves the listing three or four
 * lines under its step box and the cache view without its last rows or column (1280×800
 * with the scenario's description shown): the listing then takes the whole height. */
#define WIDE_MIN_ROW 240
/* The tabs' share of the width when compact; the listing has the rest. */
#define TABS_SHARE 0.5
#define SPACING 1

struct _FlPanels
{
  GtkWidget  parent_instance;

  GtkWidget *tab_bar;     /* linked toggle buttons, one a tab */
  GPtrArray *tabs;        /* the tabbed panels, in order (borrowed: they are children) */
  GPtrArray *buttons;     /* their toggle buttons */
  GtkWidget *side;        /* the listing */
  guint      current;
  gboolean   compact;
};

static void fl_panels_buildable_init (GtkBuildableIface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (FlPanels, fl_panels, GTK_TYPE_WIDGET,
                               G_IMPLEMENT_INTERFACE (GTK_TYPE_BUILDABLE, fl_panels_buildable_init))

static GtkBuildableIface *parent_buildable_iface;

/* The first painter view in a panel: its title names the tab, its font scale is the text's. */
static FlViewArea *
fl_panels_first_view (GtkWidget *widget)
{
  if (FL_IS_VIEW_AREA (widget))
    return FL_VIEW_AREA (widget);
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      FlViewArea *view = fl_panels_first_view (child);
      if (view != NULL)
        return view;
    }
  return NULL;
}

static void
fl_panels_button_toggled (GtkToggleButton *button, FlPanels *self)
{
  guint index;

  if (!gtk_toggle_button_get_active (button) || !g_ptr_array_find (self->buttons, button, &index))
    return;
  fl_panels_set_tab (self, index);
}

static void
fl_panels_add_tab (FlPanels *self, GtkWidget *panel)
{
  FlViewArea *view = fl_panels_first_view (panel);
  GtkWidget *button = gtk_toggle_button_new_with_label (
    view != NULL ? fl_view_get_title (fl_view_area_get_view (view)) : "");

  if (self->buttons->len > 0)
    gtk_toggle_button_set_group (GTK_TOGGLE_BUTTON (button), self->buttons->pdata[0]);
  else
    gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (button), TRUE);
  g_signal_connect_object (button, "toggled", G_CALLBACK (fl_panels_button_toggled), self, 0);
  gtk_box_append (GTK_BOX (self->tab_bar), button);
  g_ptr_array_add (self->buttons, button);
  g_ptr_array_add (self->tabs, panel);
  gtk_widget_insert_before (panel, GTK_WIDGET (self), NULL);
}

static void
fl_panels_buildable_add_child (GtkBuildable *buildable, GtkBuilder *builder, GObject *child,
                               const char *type)
{
  FlPanels *self = FL_PANELS (buildable);

  if (!GTK_IS_WIDGET (child))
    {
      parent_buildable_iface->add_child (buildable, builder, child, type);
      return;
    }
  if (g_strcmp0 (type, "side") == 0)
    {
      g_return_if_fail (self->side == NULL);
      self->side = GTK_WIDGET (child);
      gtk_widget_insert_before (self->side, GTK_WIDGET (self), NULL);
    }
  else
    fl_panels_add_tab (self, GTK_WIDGET (child));
}

static void
fl_panels_buildable_init (GtkBuildableIface *iface)
{
  parent_buildable_iface = g_type_interface_peek_parent (iface);
  iface->add_child = fl_panels_buildable_add_child;
}

/* Whether a width × height allocation is too small for the grid. */
static gboolean
fl_panels_wants_compact (FlPanels *self, int width, int height)
{
  FlViewArea *view = self->side != NULL ? fl_panels_first_view (self->side) : NULL;
  double scale = 1.0;

  if (view != NULL)
    {
      FlViewport viewport;
      fl_view_area_get_viewport (view, &viewport);
      scale = MAX (viewport.font_scale, 1.0);
    }
  return width < WIDE_MIN_WIDTH || (height - SPACING) / 2.0 < WIDE_MIN_ROW * scale;
}

static void
fl_panels_measure (GtkWidget *widget, GtkOrientation orientation, int for_size, int *minimum,
                   int *natural, int *minimum_baseline, int *natural_baseline)
{
  FlPanels *self = FL_PANELS (widget);
  int bar_min = 0, bar_nat = 0, side_min = 0, side_nat = 0, tab_min = 0, tab_nat = 0;

  /* the least is the compact layout's: the tab bar and one panel beside the listing */
  gtk_widget_measure (self->tab_bar, orientation, -1, &bar_min, &bar_nat, NULL, NULL);
  if (self->side != NULL)
    gtk_widget_measure (self->side, orientation, -1, &side_min, &side_nat, NULL, NULL);
  for (guint i = 0; i < self->tabs->len; i++)
    {
      int m = 0, n = 0;
      gtk_widget_measure (self->tabs->pdata[i], orientation, -1, &m, &n, NULL, NULL);
      tab_min = MAX (tab_min, m);
      tab_nat = MAX (tab_nat, n);
    }
  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      *minimum = MAX (bar_min, tab_min) + SPACING + side_min;
      *natural = 3 * MAX (tab_nat, side_nat) + 2 * SPACING;
    }
  else
    {
      *minimum = MAX (bar_min + tab_min, side_min);
      *natural = 2 * MAX (tab_nat, side_nat) + SPACING;
    }
}

static void
fl_panels_place (GtkWidget *child, int x, int y, int width, int height)
{
  gtk_widget_set_child_visible (child, TRUE);
  gtk_widget_size_allocate (child, &(GtkAllocation) { x, y, MAX (width, 0), MAX (height, 0) }, -1);
}

static void
fl_panels_size_allocate (GtkWidget *widget, int width, int height, int baseline)
{
  FlPanels *self = FL_PANELS (widget);

  self->compact = fl_panels_wants_compact (self, width, height);
  if (self->compact)
    {
      int left = (int) round (width * TABS_SHARE), bar = 0;

      gtk_widget_measure (self->tab_bar, GTK_ORIENTATION_VERTICAL, left, NULL, &bar, NULL, NULL);
      fl_panels_place (self->tab_bar, 0, 0, left, bar);
      for (guint i = 0; i < self->tabs->len; i++)
        if (i == self->current)
          fl_panels_place (self->tabs->pdata[i], 0, bar + SPACING, left, height - bar - SPACING);
        else
          gtk_widget_set_child_visible (self->tabs->pdata[i], FALSE);
      if (self->side != NULL)
        fl_panels_place (self->side, left + SPACING, 0, width - left - SPACING, height);
      return;
    }

  /* the grid: row 0 the first two tabs and the listing, row 1 the other three */
  gtk_widget_set_child_visible (self->tab_bar, FALSE);
  {
    double col_w = (width - 2.0 * SPACING) / 3, row_h = (height - (double) SPACING) / 2;
    GtkWidget *cells[6] = { NULL };

    for (guint i = 0, c = 0; c < 6; c++)
      cells[c] = c == 2 ? self->side : i < self->tabs->len ? self->tabs->pdata[i++] : NULL;
    for (guint c = 0; c < 6; c++)
      {
        int col = c % 3, row = c / 3;
        int x0 = (int) round (col * (col_w + SPACING)), x1 = (int) round (col * (col_w + SPACING) + col_w);
        int y0 = (int) round (row * (row_h + SPACING)), y1 = (int) round (row * (row_h + SPACING) + row_h);

        if (cells[c] != NULL)
          fl_panels_place (cells[c], x0, y0, x1 - x0, y1 - y0);
      }
  }
}

static void
fl_panels_dispose (GObject *object)
{
  FlPanels *self = FL_PANELS (object);
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);
  self->side = NULL;
  self->tab_bar = NULL;
  g_clear_pointer (&self->tabs, g_ptr_array_unref);
  g_clear_pointer (&self->buttons, g_ptr_array_unref);
  G_OBJECT_CLASS (fl_panels_parent_class)->dispose (object);
}

static void
fl_panels_class_init (FlPanelsClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = fl_panels_dispose;
  widget_class->measure = fl_panels_measure;
  widget_class->size_allocate = fl_panels_size_allocate;
  gtk_widget_class_set_css_name (widget_class, "flpanels");
}

static void
fl_panels_init (FlPanels *self)
{
  self->tabs = g_ptr_array_new ();
  self->buttons = g_ptr_array_new ();
  self->tab_bar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);
  gtk_widget_add_css_class (self->tab_bar, "linked");
  gtk_widget_add_css_class (self->tab_bar, "fl-panel-tabs");
  gtk_widget_set_parent (self->tab_bar, GTK_WIDGET (self));
  gtk_widget_set_child_visible (self->tab_bar, FALSE);
}

gboolean
fl_panels_is_compact (FlPanels *self)
{
  g_return_val_if_fail (FL_IS_PANELS (self), FALSE);
  return self->compact;
}

guint
fl_panels_get_tab (FlPanels *self)
{
  g_return_val_if_fail (FL_IS_PANELS (self), 0);
  return self->current;
}

void
fl_panels_set_tab (FlPanels *self, guint tab)
{
  g_return_if_fail (FL_IS_PANELS (self));
  g_return_if_fail (tab < self->tabs->len);

  if (!gtk_toggle_button_get_active (self->buttons->pdata[tab]))
    gtk_toggle_button_set_active (self->buttons->pdata[tab], TRUE);
  if (self->current == tab)
    return;
  self->current = tab;
  gtk_widget_queue_allocate (GTK_WIDGET (self));
}

int
fl_panels_tab_of (FlPanels *self, GtkWidget *widget)
{
  g_return_val_if_fail (FL_IS_PANELS (self), -1);

  for (GtkWidget *w = widget; w != NULL && w != GTK_WIDGET (self); w = gtk_widget_get_parent (w))
    {
      guint index;
      if (g_ptr_array_find (self->tabs, w, &index))
        return (int) index;
    }
  return -1;
}

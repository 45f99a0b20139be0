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
/* From this width on, tabs come in two groups side by side (the tree and page tables, the
 * rest), so a lecture shows the VMA beside the grace period that keeps it alive. */
#define TWO_GROUPS_MIN_WIDTH 1500
/* with two groups, each group's share of the width; the listing, whose lines are long, has
 * the rest */
#define GROUP_SHARE 0.3
/* the first group's tabs: the grid's first row but the listing */
#define SPLIT 2
#define SPACING 1

typedef enum { LAYOUT_GRID, LAYOUT_TABS, LAYOUT_TWO_GROUPS } Layout;
/* the tab bars: every tab (LAYOUT_TABS), the first group's, the second group's */
enum { BAR_ALL, BAR_FIRST, BAR_SECOND, N_BARS };

struct _FlPanels
{
  GtkWidget  parent_instance;

  GtkWidget *bars[N_BARS];    /* linked toggle buttons, one a tab */
  GPtrArray *buttons[N_BARS]; /* each bar's buttons, in its tabs' order */
  GPtrArray *tabs;            /* the tabbed panels, in order (borrowed: they are children) */
  GtkWidget *side;            /* the listing */
  guint      current;         /* the tab shown with one bar */
  guint      shown[2];        /* the tab shown in each group with two */
  Layout     layout;
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
  if (gtk_toggle_button_get_active (button))
    fl_panels_set_tab (self, GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (button), "fl-tab")));
}

/* The tab's button in `bar`, or NULL when the bar does not have that tab. */
static GtkToggleButton *
fl_panels_button (FlPanels *self, guint bar, guint tab)
{
  guint first = bar == BAR_SECOND ? SPLIT : 0;

  if (tab < first || tab - first >= self->buttons[bar]->len)
    return NULL;
  return self->buttons[bar]->pdata[tab - first];
}

static void
fl_panels_add_tab (FlPanels *self, GtkWidget *panel)
{
  FlViewArea *view = fl_panels_first_view (panel);
  guint tab = self->tabs->len;

  for (guint bar = 0; bar < N_BARS; bar++)
    {
      GtkWidget *button;

      if ((bar == BAR_FIRST && tab >= SPLIT) || (bar == BAR_SECOND && tab < SPLIT))
        continue;
      {
        /* a tab's name gives way (whole in its tooltip) before the window grows wider than
         * the screen, as five tabs at a large text scale on 1024 pixels would make it */
        const char *title = view != NULL ? fl_view_get_title (fl_view_area_get_view (view)) : "";
        GtkWidget *label = gtk_label_new (title);

        gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
        gtk_label_set_width_chars (GTK_LABEL (label), 3);
        button = gtk_toggle_button_new ();
        gtk_button_set_child (GTK_BUTTON (button), label);
        gtk_widget_set_tooltip_text (button, title);
      }
      g_object_set_data (G_OBJECT (button), "fl-tab", GUINT_TO_POINTER (tab));
      if (self->buttons[bar]->len > 0)
        gtk_toggle_button_set_group (GTK_TOGGLE_BUTTON (button), self->buttons[bar]->pdata[0]);
      else
        gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (button), TRUE);
      g_signal_connect_object (button, "toggled", G_CALLBACK (fl_panels_button_toggled), self, 0);
      gtk_box_append (GTK_BOX (self->bars[bar]), button);
      g_ptr_array_add (self->buttons[bar], button);
    }
  if (tab == SPLIT)
    self->shown[1] = SPLIT;
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

/* The layout for a width × height allocation: the grid unless it is too small for it. */
static Layout
fl_panels_choose_layout (FlPanels *self, int width, int height)
{
  FlViewArea *view = self->side != NULL ? fl_panels_first_view (self->side) : NULL;
  double scale = 1.0;

  if (view != NULL)
    {
      FlViewport viewport;
      fl_view_area_get_viewport (view, &viewport);
      scale = MAX (viewport.font_scale, 1.0);
    }
  if (width >= WIDE_MIN_WIDTH && (height - SPACING) / 2.0 >= WIDE_MIN_ROW * scale)
    return LAYOUT_GRID;
  return width >= TWO_GROUPS_MIN_WIDTH ? LAYOUT_TWO_GROUPS : LAYOUT_TABS;
}

static void
fl_panels_measure (GtkWidget *widget, GtkOrientation orientation, int for_size, int *minimum,
                   int *natural, int *minimum_baseline, int *natural_baseline)
{
  FlPanels *self = FL_PANELS (widget);
  int bar_min = 0, bar_nat = 0, side_min = 0, side_nat = 0, tab_min = 0, tab_nat = 0;

  /* the least is the compact layout's: the tab bar and one panel beside the listing */
  gtk_widget_measure (self->bars[BAR_ALL], orientation, -1, &bar_min, &bar_nat, NULL, NULL);
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

/* A tab bar over the one panel of its group it shows, in x .. x + width; the group's other
 * panels are not drawn. */
static void
fl_panels_place_group (FlPanels *self, guint bar, guint shown, int x, int width, int height)
{
  int bar_h = 0;

  gtk_widget_measure (self->bars[bar], GTK_ORIENTATION_VERTICAL, width, NULL, &bar_h, NULL, NULL);
  fl_panels_place (self->bars[bar], x, 0, width, bar_h);
  for (guint i = 0; i < self->tabs->len; i++)
    if (i == shown)
      fl_panels_place (self->tabs->pdata[i], x, bar_h + SPACING, width, height - bar_h - SPACING);
    else if (fl_panels_button (self, bar, i) != NULL)
      gtk_widget_set_child_visible (self->tabs->pdata[i], FALSE);
}

static void
fl_panels_size_allocate (GtkWidget *widget, int width, int height, int baseline)
{
  FlPanels *self = FL_PANELS (widget);

  self->layout = fl_panels_choose_layout (self, width, height);
  for (guint bar = 0; bar < N_BARS; bar++)
    gtk_widget_set_child_visible (self->bars[bar], FALSE);
  if (self->layout == LAYOUT_TABS)
    {
      int left = (int) round (width * TABS_SHARE);

      fl_panels_place_group (self, BAR_ALL, self->current, 0, left, height);
      if (self->side != NULL)
        fl_panels_place (self->side, left + SPACING, 0, width - left - SPACING, height);
      return;
    }
  if (self->layout == LAYOUT_TWO_GROUPS)
    {
      int x1 = (int) round (width * GROUP_SHARE), x2 = (int) round (width * GROUP_SHARE * 2) + SPACING;

      fl_panels_place_group (self, BAR_FIRST, self->shown[0], 0, x1, height);
      fl_panels_place_group (self, BAR_SECOND, self->shown[1], x1 + SPACING, x2 - x1 - 2 * SPACING,
                             height);
      if (self->side != NULL)
        fl_panels_place (self->side, x2, 0, width - x2, height);
      return;
    }

  /* the grid: row 0 the first two tabs and the listing, row 1 the other three */
  {
    double col_w = (width - 2.0 * SPACING) / 3, row_h = (height - (double) SPACING) / 2;
    GtkWidget *cells[6] = { NULL };

    for (guint i = 0, c = 0; c < 6; c++)
      cells[c] = c == SPLIT ? self->side : i < self->tabs->len ? self->tabs->pdata[i++] : NULL;
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
  for (guint bar = 0; bar < N_BARS; bar++)
    {
      self->bars[bar] = NULL;
      g_clear_pointer (&self->buttons[bar], g_ptr_array_unref);
    }
  g_clear_pointer (&self->tabs, g_ptr_array_unref);
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
  for (guint bar = 0; bar < N_BARS; bar++)
    {
      self->buttons[bar] = g_ptr_array_new ();
      self->bars[bar] = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);
      gtk_widget_add_css_class (self->bars[bar], "linked");
      gtk_widget_add_css_class (self->bars[bar], "fl-panel-tabs");
      gtk_widget_set_parent (self->bars[bar], GTK_WIDGET (self));
      gtk_widget_set_child_visible (self->bars[bar], FALSE);
    }
}

gboolean
fl_panels_is_compact (FlPanels *self)
{
  g_return_val_if_fail (FL_IS_PANELS (self), FALSE);
  return self->layout != LAYOUT_GRID;
}

gboolean
fl_panels_is_shown (FlPanels *self, guint tab)
{
  g_return_val_if_fail (FL_IS_PANELS (self), FALSE);

  switch (self->layout)
    {
    case LAYOUT_TABS:
      return tab == self->current;
    case LAYOUT_TWO_GROUPS:
      return tab == self->shown[tab < SPLIT ? 0 : 1];
    case LAYOUT_GRID:
    default:
      return tab < self->tabs->len;
    }
}

void
fl_panels_set_tab (FlPanels *self, guint tab)
{
  g_return_if_fail (FL_IS_PANELS (self));
  g_return_if_fail (tab < self->tabs->len);

  if (self->current == tab && self->shown[tab < SPLIT ? 0 : 1] == tab)
    return;
  self->current = tab;
  self->shown[tab < SPLIT ? 0 : 1] = tab;
  /* every bar that has the tab shows it chosen (a toggle re-enters here and returns) */
  for (guint bar = 0; bar < N_BARS; bar++)
    {
      GtkToggleButton *button = fl_panels_button (self, bar, tab);
      if (button != NULL)
        gtk_toggle_button_set_active (button, TRUE);
    }
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

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define FL_TYPE_APPLICATION (fl_application_get_type ())
G_DECLARE_FINAL_TYPE (FlApplication, fl_application, FL, APPLICATION, GtkApplication)

/* @extra_flags is or-ed into the application's own flags; tests pass
 * G_APPLICATION_NON_UNIQUE so they never talk to a running instance. */
FlApplication *fl_application_new (GApplicationFlags extra_flags);

G_END_DECLS

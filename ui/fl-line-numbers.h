#pragma once

/* FlLineNumbers: the line numbers beside a GtkTextView, for its left gutter
 * (gtk_text_view_set_gutter). One line can be marked as the one at fault: its number is drawn
 * in the error colour, bold. Decorative to assistive technologies: the editor says the line
 * in its status and accessible description. */

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define FL_TYPE_LINE_NUMBERS (fl_line_numbers_get_type ())
G_DECLARE_FINAL_TYPE (FlLineNumbers, fl_line_numbers, FL, LINE_NUMBERS, GtkWidget)

/* Puts itself into `view`'s left gutter and follows its buffer and scrolling. */
GtkWidget *fl_line_numbers_new            (GtkTextView   *view);
/* 1-based; 0 marks none. */
void       fl_line_numbers_set_error_line (FlLineNumbers *self,
                                           guint          line);

G_END_DECLS

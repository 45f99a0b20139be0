/* fl-store-row.c — every value checked as it is read. SQLite keeps any value in any column,
 * whatever the column's declared type, so a file someone made by hand can hold NULL, a blob or
 * a gigabyte where Faultline writes a short text or a small number. Each reader here refuses
 * what Faultline never writes, with a message naming the table, the row and the column. */
#include "fl-store-private.h"

#include <math.h>
#include <string.h>

static const char *
type_name (int type)
{
  switch (type)
    {
    case SQLITE_INTEGER: return "an integer";
    case SQLITE_FLOAT:   return "a real number";
    case SQLITE_TEXT:    return "text";
    case SQLITE_BLOB:    return "a blob";
    default:             return "NULL";
    }
}

static void
refuse (FlStoreRow *row, const char *column, const char *format, ...) G_GNUC_PRINTF (3, 4);

static void
refuse (FlStoreRow *row, const char *column, const char *format, ...)
{
  va_list args;
  va_start (args, format);
  g_autofree char *what = g_strdup_vprintf (format, args);
  va_end (args);
  row->failed = TRUE;
  g_set_error (row->error, FL_STORE_ERROR, FL_STORE_ERROR_BAD_VALUE,
               "'%s' holds a value Faultline never writes: table %s, row %s, column %s %s",
               row->store->path, row->table, row->label, column, what);
}

void
fl_store_row_init (FlStoreRow *row, FlStore *store, sqlite3_stmt *stmt, GError **error)
{
  memset (row, 0, sizeof *row);
  row->store = store;
  row->stmt = stmt;
  row->error = error;
  row->table = "?";
  g_strlcpy (row->label, "?", sizeof row->label);
}

void
fl_store_row_label (FlStoreRow *row, const char *table, const char *format, ...)
{
  va_list args;
  va_start (args, format);
  row->table = table;
  g_vsnprintf (row->label, sizeof row->label, format, args);
  va_end (args);
}

static gboolean
has_type (FlStoreRow *row, int col, const char *column, int wanted)
{
  if (row->failed)
    return FALSE;
  int type = sqlite3_column_type (row->stmt, col);
  if (type == wanted)
    return TRUE;
  refuse (row, column, "is %s (Faultline writes %s there)", type_name (type), type_name (wanted));
  return FALSE;
}

/* The id of a row names it in every later message: read it first. A row whose id is itself
 * wrong is named by its position in the query's answer. */
gint64
fl_store_row_key (FlStoreRow *row, int col, const char *table)
{
  if (row->failed)
    return 0;
  row->table = table;
  g_strlcpy (row->label, "?", sizeof row->label);
  gint64 id = fl_store_row_int (row, col, "id", 1, G_MAXINT64);
  if (!row->failed)
    g_snprintf (row->label, sizeof row->label, "%" G_GINT64_FORMAT, id);
  return id;
}

gint64
fl_store_row_int (FlStoreRow *row, int col, const char *column, gint64 min, gint64 max)
{
  if (!has_type (row, col, column, SQLITE_INTEGER))
    return 0;
  gint64 value = sqlite3_column_int64 (row->stmt, col);
  if (value >= min && value <= max)
    return value;
  refuse (row, column, "is %" G_GINT64_FORMAT ", outside %" G_GINT64_FORMAT " to %"
          G_GINT64_FORMAT, value, min, max);
  return 0;
}

/* A REAL column keeps a whole number as an integer on disk; both read back as a number. */
double
fl_store_row_real (FlStoreRow *row, int col, const char *column)
{
  if (row->failed)
    return 0;
  int type = sqlite3_column_type (row->stmt, col);
  if (type != SQLITE_FLOAT && type != SQLITE_INTEGER)
    {
      refuse (row, column, "is %s (Faultline writes a real number there)", type_name (type));
      return 0;
    }
  double value = sqlite3_column_double (row->stmt, col);
  if (isfinite (value) && value >= 0)
    return value;
  refuse (row, column, "is %g (Faultline writes a finite number from 0)", value);
  return 0;
}

/* An escape sequence in a title that `db list` prints would steer the user's terminal. Tabs
 * and line ends are text (a note has lines; a title typed on the command line may too). */
const char *
fl_store_find_control (const char *text, gsize length)
{
  for (gsize i = 0; i < length; i++)
    {
      guchar c = (guchar) text[i];
      if ((c < 0x20 || c == 0x7f) && c != '\t' && c != '\n' && c != '\r')
        return text + i;
    }
  return NULL;
}

static char *
read_text (FlStoreRow *row, int col, const char *column, gsize max)
{
  /* the length before the text: a long value is refused without being copied */
  gsize length = (gsize) sqlite3_column_bytes (row->stmt, col);
  if (length > max)
    {
      refuse (row, column, "holds %" G_GSIZE_FORMAT " bytes, more than the %" G_GSIZE_FORMAT
              " Faultline writes there", length, max);
      return NULL;
    }
  const char *text = (const char *) sqlite3_column_text (row->stmt, col);
  if (text == NULL)
    {
      /* out of memory, or a value beyond SQLITE_LIMIT_LENGTH */
      refuse (row, column, "cannot be read (%s)", sqlite3_errmsg (row->store->db));
      return NULL;
    }
  if (memchr (text, '\0', length) != NULL)
    {
      refuse (row, column, "holds a NUL byte");
      return NULL;
    }
  if (!g_utf8_validate_len (text, length, NULL))
    {
      refuse (row, column, "is not valid UTF-8");
      return NULL;
    }
  const char *control = fl_store_find_control (text, length);
  if (control != NULL)
    {
      refuse (row, column, "holds the control character 0x%02x", (guchar) *control);
      return NULL;
    }
  return g_strndup (text, length);
}

/* Text is never NULL: a NULL result is always an error, so callers can rely on the string. */
char *
fl_store_row_text (FlStoreRow *row, int col, const char *column, gsize max)
{
  if (!has_type (row, col, column, SQLITE_TEXT))
    return NULL;
  return read_text (row, col, column, max);
}

char *
fl_store_row_text_or_null (FlStoreRow *row, int col, const char *column, gsize max)
{
  if (row->failed || sqlite3_column_type (row->stmt, col) == SQLITE_NULL)
    return NULL;
  return fl_store_row_text (row, col, column, max);
}

gboolean
fl_store_row_ok (FlStoreRow *row)
{
  return !row->failed;
}

/* fl-config-presets.h — the tables behind the preset keys (`spf`, `machine`); fl-config.c
 * applies them and names the one a configuration matches. Private to core/. */
#pragma once

#include <glib.h>
#include <glib/gi18n-lib.h>

G_BEGIN_DECLS

typedef struct {
  const char *key, *value;
} FlSetting;

typedef struct {
  const char      *name;
  const char      *about;     /* marked for translation */
  const FlSetting *settings;  /* ends with { NULL, NULL } */
} FlPresetValue;

typedef struct {
  const char          *key;
  const char          *values;   /* "a|b", in the order of @values */
  const char          *about;    /* marked for translation */
  const FlPresetValue *values_of;
  guint                n_values;
  const char          *unmatched; /* what fl_config_get() says when no value matches */
} FlPreset;

const FlPreset      *fl_preset_lookup (const char *key);
const FlPreset      *fl_preset_nth    (guint i);
const FlPresetValue *fl_preset_value  (const FlPreset *preset,
                                       const char     *value);

G_END_DECLS

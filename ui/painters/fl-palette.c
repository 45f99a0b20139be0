/* fl-palette.c — the one palette every view draws with, in a light and a dark style. Each
 * CPU keeps one colour everywhere it appears; activity colours say what a lane is doing. */
#include "fl-paint-private.h"

static FlRgba
hex (guint32 rgb)
{
  return (FlRgba) { ((rgb >> 16) & 0xff) / 255.0, ((rgb >> 8) & 0xff) / 255.0,
                    (rgb & 0xff) / 255.0, 1.0 };
}

/* CPU colours are inks, activity colours are fills, and the two never meet: a CPU's colour
 * is a deep shade in the light style (a pale one in the dark style) of a hue family the
 * lane fills leave alone, so cpu0's label is not read as "speculative". Eight families, far
 * apart for the first eight CPUs (cpu0 and cpu1, the pair most scenarios race, furthest);
 * beyond eight each family comes again a little darker (paler), so up to 64 CPUs every
 * colour differs and the label, always beside it, names the CPU (docs/palette.md). The
 * distances are checked in CIE Lab by tests/ui/test-painters.c. */
static const guint32 cpu_family_light[FL_CPU_FAMILIES] = {
  0x3f2d8c, 0x0b5c57, 0x8a1c3b, 0x6b5d00, 0x2f6b1f, 0x7a1f6b, 0x0c4a6e, 0x37474f,
};
static const guint32 cpu_family_dark[FL_CPU_FAMILIES] = {
  0xb9aefc, 0x9ee8dc, 0xffbcc9, 0xece0a0, 0xc0eeae, 0xefb6e8, 0xa9d8ff, 0xc3cad1,
};

/* cpu = family + 8 × shade: shade k moves the family's ink k × 8% towards the style's
 * text, away from the fills. */
static void
init_cpus (FlPalette *palette, const guint32 *families, guint32 towards)
{
  FlRgba to = hex (towards);
  for (guint i = 0; i < FL_PALETTE_CPUS; i++)
    {
      FlRgba base = hex (families[i % FL_CPU_FAMILIES]);
      palette->cpu[i] = fl_rgba_mix (&base, &to, 0.08 * (i / FL_CPU_FAMILIES));
    }
}

/* The benchmark's configurations as its charts have always drawn them: grey, orange, blue,
 * green. They are curves of one chart, not CPUs, so they keep their own colours. */
static const guint32 series_light[4] = { 0x495057, 0xd9480f, 0x1f5fbf, 0x2b8a3e };
static const guint32 series_dark[4] = { 0xced4da, 0xff9a57, 0x74a8ff, 0x69db7c };

static const guint32 activity_light[FL_ACT_N] = {
  [FL_ACT_USER] = 0xb8c4ce,
  [FL_ACT_LOCKED_FAULT] = 0xf08c00,
  [FL_ACT_SPEC_FAULT] = 0x228be6,
  [FL_ACT_SYSCALL] = 0x9c36b5,
  [FL_ACT_SPIN] = 0xe03131,
  [FL_ACT_BLOCKED] = 0x5c3d2e,
  [FL_ACT_IRQS_OFF] = 0xfcc419,
  [FL_ACT_RCU] = 0x12b886,
  [FL_ACT_IPI] = 0xe64980,
  [FL_ACT_DONE] = 0xeef1f4,
  [FL_ACT_TURN] = 0x868e96,
  [FL_ACT_IPI_HANDLER] = 0x15aabf,
};
static const guint32 activity_dark[FL_ACT_N] = {
  [FL_ACT_USER] = 0x56606b,
  [FL_ACT_LOCKED_FAULT] = 0xf59f00,
  [FL_ACT_SPEC_FAULT] = 0x4dabf7,
  [FL_ACT_SYSCALL] = 0xcc5de8,
  [FL_ACT_SPIN] = 0xff6b6b,
  [FL_ACT_BLOCKED] = 0xa1887f,
  [FL_ACT_IRQS_OFF] = 0xffe066,
  [FL_ACT_RCU] = 0x38d9a9,
  [FL_ACT_IPI] = 0xf783ac,
  [FL_ACT_DONE] = 0x2c3036,
  [FL_ACT_TURN] = 0x909aa4,
  [FL_ACT_IPI_HANDLER] = 0x3bc9db,
};

void
fl_palette_init_light (FlPalette *palette)
{
  g_return_if_fail (palette != NULL);
  palette->background = hex (0xffffff);
  palette->surface = hex (0xf1f3f5);
  palette->text = hex (0x1b1e23);
  palette->text_dim = hex (0x5c6370);
  palette->grid = hex (0xd0d5dc);
  palette->accent = hex (0x1c7ed6);
  palette->warning = hex (0xb35c00);
  palette->error = hex (0xc92a2a);
  palette->rb_red = hex (0xc62828);
  palette->rb_black = hex (0x25282d);
  palette->ghost = hex (0x8f99a3);
  palette->mesi[FL_MESI_I] = hex (0xe9ecef);
  palette->mesi[FL_MESI_S] = hex (0x9fd3f5);
  palette->mesi[FL_MESI_E] = hex (0x9de0ad);
  palette->mesi[FL_MESI_M] = hex (0xffb070);
  for (guint i = 0; i < FL_ACT_N; i++)
    palette->activity[i] = hex (activity_light[i]);
  init_cpus (palette, cpu_family_light, 0x000000);
  for (guint i = 0; i < G_N_ELEMENTS (series_light); i++)
    palette->series[i] = hex (series_light[i]);
}

void
fl_palette_init_dark (FlPalette *palette)
{
  g_return_if_fail (palette != NULL);
  palette->background = hex (0x1b1d21);
  palette->surface = hex (0x272a30);
  palette->text = hex (0xe9ecef);
  palette->text_dim = hex (0xa3abb5);
  palette->grid = hex (0x3c4149);
  palette->accent = hex (0x4dabf7);
  palette->warning = hex (0xffa94d);
  palette->error = hex (0xff6b6b);
  palette->rb_red = hex (0xd64545);
  palette->rb_black = hex (0x0b0c0e);
  palette->ghost = hex (0x7d8590);
  palette->mesi[FL_MESI_I] = hex (0x343a40);
  palette->mesi[FL_MESI_S] = hex (0x1f6391);
  palette->mesi[FL_MESI_E] = hex (0x2b7a3d);
  palette->mesi[FL_MESI_M] = hex (0xb35c00);
  for (guint i = 0; i < FL_ACT_N; i++)
    palette->activity[i] = hex (activity_dark[i]);
  init_cpus (palette, cpu_family_dark, 0xffffff);
  for (guint i = 0; i < G_N_ELEMENTS (series_dark); i++)
    palette->series[i] = hex (series_dark[i]);
}

/* Beyond 64 CPUs the colours repeat; labels still tell them apart. */
const FlRgba *
fl_palette_cpu (const FlPalette *palette, guint cpu)
{
  g_return_val_if_fail (palette != NULL, NULL);
  return &palette->cpu[cpu % G_N_ELEMENTS (palette->cpu)];
}

void
fl_set_rgba (cairo_t *cr, const FlRgba *c)
{
  cairo_set_source_rgba (cr, c->r, c->g, c->b, c->a);
}

void
fl_set_rgba_alpha (cairo_t *cr, const FlRgba *c, double alpha)
{
  cairo_set_source_rgba (cr, c->r, c->g, c->b, c->a * alpha);
}

FlRgba
fl_rgba_mix (const FlRgba *a, const FlRgba *b, double t)
{
  return (FlRgba) { a->r + (b->r - a->r) * t, a->g + (b->g - a->g) * t,
                    a->b + (b->b - a->b) * t, a->a + (b->a - a->a) * t };
}

/* The palette's text colour or background colour, whichever reads better on `bg`. */
const FlRgba *
fl_rgba_text_on (const FlPalette *pal, const FlRgba *bg)
{
  static const FlRgba white = { 1, 1, 1, 1 }, black = { 0.08, 0.09, 0.1, 1 };
  double luma = 0.2126 * bg->r + 0.7152 * bg->g + 0.0722 * bg->b;
  return luma > 0.55 ? &black : &white;
}

/* PTE colours come from the palette's own colours, so both styles stay consistent. */
FlRgba
fl_palette_pte (const FlPalette *pal, FlPteState state)
{
  switch (state)
    {
    case FL_PTE_STATE_RW: return pal->accent;
    case FL_PTE_STATE_RO: return fl_rgba_mix (&pal->accent, &pal->background, 0.55);
    case FL_PTE_STATE_ZERO: return fl_rgba_mix (&pal->text_dim, &pal->background, 0.35);
    case FL_PTE_STATE_SWAP: return pal->mesi[FL_MESI_M];
    case FL_PTE_STATE_MIGRATION: return pal->activity[FL_ACT_SYSCALL];
    case FL_PTE_STATE_NONE:
    default: return pal->background;
    }
}

/* Translators: the states of a page-table entry in the page tables' legend: empty, mapped
 * read-only or read-write (ro and rw stay as they are), the shared zero page, swapped out,
 * under migration. The view translates them where it draws them. */
static const char *const pte_names[FL_PTE_STATE_N] = {
  N_("none"), N_("present ro"), N_("present rw"), N_("zero page"), N_("swap"), N_("migration"),
};
static const char *const pte_codes[FL_PTE_STATE_N] = {
  "", "ro", "rw", "0", "sw", "mg",
};

const char *
fl_pte_state_name (FlPteState state)
{
  return state < FL_PTE_STATE_N ? pte_names[state] : "?";
}

const char *
fl_pte_state_code (FlPteState state)
{
  return state < FL_PTE_STATE_N ? pte_codes[state] : "?";
}

FlPteState
fl_pte_state (const FlState *st, guint64 pte)
{
  switch (pte & FL_PTE_KIND_MASK)
    {
    case FL_PTE_SWAP: return FL_PTE_STATE_SWAP;
    case FL_PTE_MIGRATION: return FL_PTE_STATE_MIGRATION;
    case FL_PTE_PRESENT:
      if (st->g->zero_page && FL_PTE_PAGE (pte) == st->g->zero_page)
        return FL_PTE_STATE_ZERO;
      return (pte & FL_PTE_WRITE) ? FL_PTE_STATE_RW : FL_PTE_STATE_RO;
    default: return FL_PTE_STATE_NONE;
    }
}

/* fl-state-journal.c — one step of the state, kept so that it can be taken back.
 *
 * The explorer's states search goes back one step about every other step it takes (a child
 * state seen before, a CPU left to try): a seek restored the last checkpoint and replayed up
 * to seven steps, a third of the search's time. A journal instead holds the state as it was
 * before one step: the arrays no FlTracked covers (globals, CPUs, stacks, VMAs, tables, page
 * cache, callbacks: a few KB, copied whole when the step begins), and each line, struct page
 * or table of entries as it was when the step first took it for writing (fl_line_rw() and the
 * others call fl_state_journal_slot(): every write goes through them, see FlTracked), with its
 * version and written bit. Undoing puts all of it back, so the state is the one the step
 * began from byte for byte, and what is known of its slots holds: a slot's version goes with
 * its bytes (versions are never handed out twice), and the slots put back are marked for the
 * explorer's hash. A step that grew an untracked array (the first RCU callback queued) has
 * it shrunk back; one that grew lines, tables or pages changed what FlTracked knows: it
 * cannot be undone, and the search seeks instead. */
#include "fl-state.h"

#include <string.h>

typedef struct {
  guint32 kind;             /* FlJournalKind */
  guint32 slot;
  guint64 version;
  guint32 written;          /* its bit in FlTracked.written */
  guint32 pad;
} SlotHead;                 /* followed by the slot's bytes */

struct _FlStateJournal {
  FlStateSizes sizes;       /* the layout the step began from */
  guint64  mark[3];         /* each kind's FlTracked.next then: a slot above was taken since */
  guint8  *plain;           /* the untracked arrays, one after the other */
  gsize    plain_bytes, plain_room;
  guint8  *slots;           /* SlotHead and bytes, one after the other */
  gsize    slots_bytes, slots_room;
};

static FlTracked *
tracked_of (FlState *st, FlJournalKind kind)
{
  return kind == FL_JOURNAL_LINE ? &st->line_marks
         : kind == FL_JOURNAL_TABLE ? &st->pte_marks : &st->page_marks;
}

static gsize
slot_size (FlJournalKind kind)
{
  return kind == FL_JOURNAL_LINE ? sizeof (FlLine)
         : kind == FL_JOURNAL_TABLE ? FL_PTRS_PER_TABLE * sizeof (guint64) : sizeof (FlPage);
}

static guint8 *
slot_bytes (FlState *st, FlJournalKind kind, guint slot)
{
  switch (kind)
    {
    case FL_JOURNAL_LINE: return (guint8 *) &st->lines[slot];
    case FL_JOURNAL_TABLE: return (guint8 *) (st->ptes + (gsize) slot * FL_PTRS_PER_TABLE);
    case FL_JOURNAL_PAGE: default: return (guint8 *) &st->pages[slot];
    }
}

/* Room for @more bytes past @used in *@buf (doubled as it grows: journals are reused). */
static void
room (guint8 **buf, gsize *have, gsize used, gsize more)
{
  if (used + more <= *have)
    return;
  *have = MAX (used + more, 2 * *have);
  *buf = g_realloc (*buf, *have);
}

FlStateJournal *
fl_state_journal_new (void)
{
  return g_new0 (FlStateJournal, 1);
}

void
fl_state_journal_free (FlStateJournal *j)
{
  if (j == NULL)
    return;
  g_free (j->plain);
  g_free (j->slots);
  g_free (j);
}

gsize
fl_state_journal_bytes (const FlStateJournal *j)
{
  return sizeof *j + j->plain_room + j->slots_room;
}

void
fl_state_journal_begin (FlState *st, FlStateJournal *j)
{
  guint8 *base[FL_STATE_UNTRACKED_MAX];
  gsize bytes[FL_STATE_UNTRACKED_MAX];
  guint n = fl_state_untracked (st, base, bytes);
  j->sizes = st->sizes;
  for (FlJournalKind k = FL_JOURNAL_LINE; k <= FL_JOURNAL_PAGE; k++)
    j->mark[k] = tracked_of (st, k)->next;
  j->plain_bytes = 0;
  for (guint i = 0; i < n; i++)
    {
      room (&j->plain, &j->plain_room, j->plain_bytes, bytes[i]);
      memcpy (j->plain + j->plain_bytes, base[i], bytes[i]);
      j->plain_bytes += bytes[i];
    }
  j->slots_bytes = 0;
  st->journal = j;
}

void
fl_state_journal_slot (FlState *st, FlJournalKind kind, guint slot)
{
  FlStateJournal *j = st->journal;
  FlTracked *t = tracked_of (st, kind);
  /* taken since the step began: its old contents are in the journal already */
  if (t->version[slot] > j->mark[kind])
    return;
  gsize size = slot_size (kind);
  room (&j->slots, &j->slots_room, j->slots_bytes, sizeof (SlotHead) + size);
  SlotHead head = { kind, slot, t->version[slot], fl_tracked_bit (t->written, slot), 0 };
  memcpy (j->slots + j->slots_bytes, &head, sizeof head);
  memcpy (j->slots + j->slots_bytes + sizeof head, slot_bytes (st, kind, slot), size);
  j->slots_bytes += sizeof head + size;
}

gboolean
fl_state_journal_undo (FlState *st, FlStateJournal *j, gboolean plain)
{
  if (st->journal == j)
    st->journal = NULL;
  /* a step that queued the first RCU callback grew their array: back to the size it had */
  if (memcmp (&st->sizes, &j->sizes, sizeof j->sizes) != 0
      && !fl_state_shrink_untracked (st, &j->sizes))
    return FALSE;
  guint8 *base[FL_STATE_UNTRACKED_MAX];
  gsize bytes[FL_STATE_UNTRACKED_MAX];
  guint n = plain ? fl_state_untracked (st, base, bytes) : 0;
  gsize at = 0;
  for (guint i = 0; i < n; i++)
    {
      memcpy (base[i], j->plain + at, bytes[i]);
      at += bytes[i];
    }
  for (gsize off = 0; off < j->slots_bytes;)
    {
      SlotHead head;
      memcpy (&head, j->slots + off, sizeof head);
      gsize size = slot_size (head.kind);
      memcpy (slot_bytes (st, head.kind, head.slot), j->slots + off + sizeof head, size);
      FlTracked *t = tracked_of (st, head.kind);
      guint64 bit = G_GUINT64_CONSTANT (1) << (head.slot % 64);
      t->version[head.slot] = head.version;
      t->written[head.slot / 64] = (t->written[head.slot / 64] & ~bit) | (head.written ? bit : 0);
      t->unhashed[head.slot / 64] |= bit;
      off += sizeof head + size;
    }
  return TRUE;
}

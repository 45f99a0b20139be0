/* fl-state-journal.c — one step of the state, kept so that it can be taken back.
 *
 * The explorer's states search goes back one step about every other step it takes (a child
 * state seen before, a CPU left to try): a seek restored the last checkpoint and replayed up
 * to seven steps, a third of the search's time. A journal instead holds what one step wrote
 * as it was before: each line, struct page or table of entries as the step first took it for
 * writing (fl_line_rw() and the others call fl_state_journal_slot(): every write goes through
 * them, see FlTracked), with its version and written bit, and each 64-byte block of the plain
 * arrays (globals, CPUs, stacks, VMAs, tables, page cache, callbacks) as the step first
 * marked it (fl_plain_mark(), see FlPlainMarks). Undoing puts all of it back, so the state is
 * the one the step began from byte for byte, and what is known of its slots holds: a slot's
 * version goes with its bytes (versions are never handed out twice), and the slots and blocks
 * put back are marked for the explorer's hash. A step that grew a plain array (the first RCU
 * callback queued) has it shrunk back; one that grew lines, tables or pages changed what
 * FlTracked knows: it cannot be undone, and the search seeks instead. */
#include "fl-state.h"

#include <string.h>

typedef struct {
  guint32 kind;             /* FlJournalKind */
  guint32 slot;
  guint64 version;
  guint32 written;          /* its bit in FlTracked.written */
  /* named, so that the heads' initializers zero it: a journal's bytes are all set */
  /* cppcheck-suppress unusedStructMember */
  guint32 pad;
} SlotHead;                 /* followed by the slot's bytes */

struct _FlStateJournal {
  FlStateSizes sizes;       /* the layout the step began from */
  guint64  mark[3];         /* each kind's FlTracked.next then: a slot above was taken since */
  guint8  *slots;           /* SlotHead and bytes, one after the other */
  gsize    slots_bytes, slots_room;
};

/* A block of a plain array is kept as a slot: its array for the slot, its index for the
 * version, and FL_PLAIN_BLOCK bytes (past the array's end, zeros). */

static FlTracked *
tracked_of (FlState *st, FlJournalKind kind)
{
  return kind == FL_JOURNAL_LINE ? &st->line_marks
         : kind == FL_JOURNAL_TABLE ? &st->pte_marks : &st->page_marks;
}

static gsize
slot_size (FlJournalKind kind)
{
  switch (kind)
    {
    case FL_JOURNAL_LINE: return sizeof (FlLine);
    case FL_JOURNAL_TABLE: return FL_PTRS_PER_TABLE * sizeof (guint64);
    case FL_JOURNAL_PAGE: return sizeof (FlPage);
    case FL_JOURNAL_PLAIN: default: return FL_PLAIN_BLOCK;
    }
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
  g_free (j->slots);
  g_free (j);
}

gsize
fl_state_journal_bytes (const FlStateJournal *j)
{
  return sizeof *j + j->slots_room;
}

void
fl_state_journal_begin (FlState *st, FlStateJournal *j)
{
  fl_state_plain_journal_begin (st);
  j->sizes = st->sizes;
  for (FlJournalKind k = FL_JOURNAL_LINE; k <= FL_JOURNAL_PAGE; k++)
    j->mark[k] = tracked_of (st, k)->next;
  j->slots_bytes = 0;
  st->journal = j;
}

/* Room for a slot of @size bytes at the end of @j's slots, its head written. */
static guint8 *
append (FlStateJournal *j, const SlotHead *head, gsize size)
{
  room (&j->slots, &j->slots_room, j->slots_bytes, sizeof *head + size);
  guint8 *at = j->slots + j->slots_bytes;
  memcpy (at, head, sizeof *head);
  j->slots_bytes += sizeof *head + size;
  return at + sizeof *head;
}

void
fl_state_journal_block (FlState *st, FlPlainArray a, const void *base, gsize block)
{
  FlStateJournal *j = st->journal;
  SlotHead head = { FL_JOURNAL_PLAIN, a, block, 0, 0 };
  gsize at = block * FL_PLAIN_BLOCK, bytes = st->plain.bytes[a];
  guint8 *to = append (j, &head, FL_PLAIN_BLOCK);
  const guint8 *from = (const guint8 *) base + at;
  /* a whole block: a copy of a size the compiler knows, a few moves */
  if (at + FL_PLAIN_BLOCK <= bytes)
    memcpy (to, from, FL_PLAIN_BLOCK);
  else
    {
      gsize len = at < bytes ? bytes - at : 0;
      memcpy (to, from, len);
      memset (to + len, 0, FL_PLAIN_BLOCK - len);
    }
}

void
fl_state_journal_slot (FlState *st, FlJournalKind kind, guint slot)
{
  FlStateJournal *j = st->journal;
  FlTracked *t = tracked_of (st, kind);
  /* taken since the step began: its old contents are in the journal already */
  if (t->version[slot] > j->mark[kind])
    return;
  SlotHead head = { kind, slot, t->version[slot], fl_tracked_bit (t->written, slot), 0 };
  gsize size = slot_size (kind);
  memcpy (append (j, &head, size), slot_bytes (st, kind, slot), size);
}

gboolean
fl_state_journal_undo (FlState *st, FlStateJournal *j)
{
  if (st->journal == j)
    st->journal = NULL;
  /* a step that queued the first RCU callback grew their array: back to the size it had */
  if (memcmp (&st->sizes, &j->sizes, sizeof j->sizes) != 0
      && !fl_state_shrink_untracked (st, &j->sizes))
    return FALSE;
  for (gsize off = 0; off < j->slots_bytes;)
    {
      SlotHead head;
      memcpy (&head, j->slots + off, sizeof head);
      gsize size = slot_size (head.kind);
      const guint8 *was = j->slots + off + sizeof head;
      off += sizeof head + size;
      if (head.kind == FL_JOURNAL_PLAIN)
        {
          /* past the end of an array shrunk back: gone with it */
          gsize len;
          guint8 *to = fl_state_plain_block (st, head.slot, head.version, &len);
          if (len == FL_PLAIN_BLOCK)
            memcpy (to, was, FL_PLAIN_BLOCK);
          else
            memcpy (to, was, len);
          if (len > 0)
            {
              st->plain.unhashed[head.slot][head.version / 64]
                |= G_GUINT64_CONSTANT (1) << (head.version % 64);
              st->plain.dirty |= 1u << head.slot;
            }
          continue;
        }
      memcpy (slot_bytes (st, head.kind, head.slot), was, size);
      FlTracked *t = tracked_of (st, head.kind);
      guint64 bit = G_GUINT64_CONSTANT (1) << (head.slot % 64);
      t->version[head.slot] = head.version;
      t->written[head.slot / 64] = (t->written[head.slot / 64] & ~bit) | (head.written ? bit : 0);
      t->unhashed[head.slot / 64] |= bit;
      t->touched[head.slot / 4096] |= G_GUINT64_CONSTANT (1) << (head.slot / 64 % 64);
    }
  return TRUE;
}

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* A red-black tree over plain data, modelled on lib/rbtree.c of Linux 2.6.32.
 *
 * Nodes live inside the caller's records (the VMAs) and are named by 32-bit ids, so the tree
 * is part of a machine state that is snapshotted with memcpy and hashed byte by byte: no
 * pointers are stored, and FlRbNode has no implicit padding. Id 0 is nil.
 *
 * RB_CLEAR_NODE is modelled as in 2.6.32: a cleared node's parent link points to itself.
 * rb_erase leaves the erased node's left and right links as they were, because a speculative
 * reader standing on it must still be able to walk on; only the parent link says "dead". */

#define FL_RB_RED   0
#define FL_RB_BLACK 1

typedef struct {
  guint32 parent;     /* 0 at the root; the node's own id once cleared */
  guint32 left;
  guint32 right;
  guint8  color;      /* FL_RB_RED or FL_RB_BLACK */
  guint8  reserved[3];/* explicit, so state hashes never see uninitialised padding */
} FlRbNode;

G_STATIC_ASSERT (sizeof (FlRbNode) == 16);

/* Where the nodes are: record i starts at base + i * stride, its FlRbNode at node_offset and
 * its guint64 sort key (the VMA start) at key_offset. Record 0 is never touched. */
typedef struct {
  guint8 *base;
  gsize   stride;
  gsize   node_offset;
  gsize   key_offset;
} FlRbAccess;

/* 0 and 1, so the other side is !side. */
typedef enum {
  FL_RB_LEFT = 0,
  FL_RB_RIGHT = 1
} FlRbSide;

/* What one step of a rebalancing loop did, for the narration. */
typedef enum {
  FL_RB_ACTION_NONE,
  FL_RB_ACTION_RECOLOR,      /* subject = the node turned red (insert: grandparent, erase: sibling) */
  FL_RB_ACTION_ROTATE_LEFT,  /* subject = the pivot, the node that goes down */
  FL_RB_ACTION_ROTATE_RIGHT,
  FL_RB_ACTION_UNLINK,       /* erase: subject = the erased node, spliced out directly */
  FL_RB_ACTION_SUCCESSOR,    /* erase: subject = the successor that took the erased node's place */
  FL_RB_ACTION_DONE          /* loop over; subject = the node set black (0 if none) */
} FlRbAction;

typedef enum {
  FL_RB_PHASE_DONE,
  FL_RB_PHASE_INSERT,
  FL_RB_PHASE_ERASE
} FlRbPhase;

/* The locals of rb_insert_color / __rb_erase_color between two steps. Kept in the caller's
 * frame, so it is plain data too. */
typedef struct {
  guint32 node;       /* insert: the red node; erase: the node carrying the extra black (may be 0) */
  guint32 parent;     /* erase only: node's parent, needed because node may be nil */
  guint32 subject;    /* what the last step acted on */
  guint8  action;     /* FlRbAction of the last step */
  guint8  phase;      /* FlRbPhase */
  guint8  reserved[2];
} FlRbCursor;

G_STATIC_ASSERT (sizeof (FlRbCursor) <= 16);

static inline FlRbNode *
fl_rb_node (const FlRbAccess *acc,
            guint32           id)
{
  return (FlRbNode *) (gpointer) (acc->base + (gsize) id * acc->stride + acc->node_offset);
}

static inline guint64
fl_rb_key (const FlRbAccess *acc,
           guint32           id)
{
  return *(const guint64 *) (gconstpointer) (acc->base + (gsize) id * acc->stride + acc->key_offset);
}

/* Nil is black. */
static inline gboolean
fl_rb_is_red (const FlRbAccess *acc,
              guint32           id)
{
  return id != 0 && fl_rb_node (acc, id)->color == FL_RB_RED;
}

void        fl_rb_link               (const FlRbAccess *acc,
                                      guint32          *root,
                                      guint32           node,
                                      guint32           parent,
                                      FlRbSide          side);
void        fl_rb_insert_color_begin (FlRbCursor       *cur,
                                      guint32           node);
gboolean    fl_rb_insert_color_step  (const FlRbAccess *acc,
                                      guint32          *root,
                                      FlRbCursor       *cur);
gboolean    fl_rb_erase_begin        (const FlRbAccess *acc,
                                      guint32          *root,
                                      guint32           node,
                                      FlRbCursor       *cur);
gboolean    fl_rb_erase_color_step   (const FlRbAccess *acc,
                                      guint32          *root,
                                      FlRbCursor       *cur);

gboolean    fl_rb_insert             (const FlRbAccess *acc,
                                      guint32          *root,
                                      guint32           node);
void        fl_rb_erase              (const FlRbAccess *acc,
                                      guint32          *root,
                                      guint32           node);

void        fl_rb_clear_node         (const FlRbAccess *acc,
                                      guint32           node);
gboolean    fl_rb_empty_node         (const FlRbAccess *acc,
                                      guint32           node);

guint32     fl_rb_first              (const FlRbAccess *acc,
                                      guint32           root);
guint32     fl_rb_last               (const FlRbAccess *acc,
                                      guint32           root);
guint32     fl_rb_next               (const FlRbAccess *acc,
                                      guint32           node);
guint32     fl_rb_prev               (const FlRbAccess *acc,
                                      guint32           node);
guint32     fl_rb_lookup             (const FlRbAccess *acc,
                                      guint32           root,
                                      guint64           key);

gboolean    fl_rb_validate           (const FlRbAccess *acc,
                                      guint32           root,
                                      guint32           max_id,
                                      GString          *why);
gboolean    fl_rb_validate_shape     (const FlRbAccess *acc,
                                      guint32           root,
                                      guint32           max_id,
                                      GString          *why);
const char *fl_rb_action_name        (FlRbAction        action);

G_END_DECLS

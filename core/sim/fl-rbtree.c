/* fl-rbtree.c — the VMA red-black tree of 2.6.32, one visible action per step. */
#include "fl-rbtree.h"

#define N(id) fl_rb_node (acc, (id))

/* The mirror cases of the kernel's loops are one code path over a side: 0 left, 1 right. */
static inline guint32 *
child_of (FlRbNode *n,
          guint     side)
{
  return side == FL_RB_LEFT ? &n->left : &n->right;
}

static inline void
set_child (const FlRbAccess *acc,
           guint32          *root,
           guint32           parent,
           guint32           old_child,
           guint32           new_child)
{
  if (parent == 0)
    *root = new_child;
  else if (N (parent)->left == old_child)
    N (parent)->left = new_child;
  else
    N (parent)->right = new_child;
}

/* __rb_rotate_left (side = left) or __rb_rotate_right: the child on the other side of @node
 * takes its place and @node goes down on @side. */
static void
rotate (const FlRbAccess *acc,
        guint32          *root,
        guint32           node,
        guint             side)
{
  guint32 up = *child_of (N (node), !side);
  guint32 parent = N (node)->parent;
  guint32 inner = *child_of (N (up), side);

  *child_of (N (node), !side) = inner;
  if (inner)
    N (inner)->parent = node;
  *child_of (N (up), side) = node;
  N (up)->parent = parent;
  set_child (acc, root, parent, node, up);
  N (node)->parent = up;
}

static inline gboolean
report (FlRbCursor *cur,
        FlRbAction  action,
        guint32     subject)
{
  cur->action = action;
  cur->subject = subject;
  if (action == FL_RB_ACTION_DONE)
    cur->phase = FL_RB_PHASE_DONE;
  return action == FL_RB_ACTION_DONE;
}

static inline FlRbAction
rotation (guint side)
{
  return side == FL_RB_LEFT ? FL_RB_ACTION_ROTATE_LEFT : FL_RB_ACTION_ROTATE_RIGHT;
}

/**
 * fl_rb_link:
 * @acc: where the nodes are
 * @root: the tree's root id
 * @node: the new node
 * @parent: the leaf the caller's walk ended at, or 0 for an empty tree
 * @side: which child of @parent @node becomes
 *
 * rb_link_node: hangs @node, red and childless, at a nil position the caller found by
 * walking. The tree may then have a red-red pair; rebalance with fl_rb_insert_color_step().
 */
void
fl_rb_link (const FlRbAccess *acc,
            guint32          *root,
            guint32           node,
            guint32           parent,
            FlRbSide          side)
{
  FlRbNode *n;

  g_return_if_fail (acc != NULL && root != NULL && node != 0);

  n = N (node);
  n->parent = parent;
  n->left = n->right = 0;
  n->color = FL_RB_RED;
  if (parent == 0)
    *root = node;
  else if (side == FL_RB_LEFT)
    N (parent)->left = node;
  else
    N (parent)->right = node;
}

/**
 * fl_rb_insert_color_begin:
 * @cur: the cursor to start
 * @node: the node just linked by fl_rb_link()
 *
 * Sets up the locals of rb_insert_color. Performs no action on the tree.
 */
void
fl_rb_insert_color_begin (FlRbCursor *cur,
                          guint32     node)
{
  g_return_if_fail (cur != NULL);
  *cur = (FlRbCursor) { .node = node, .phase = FL_RB_PHASE_INSERT };
}

/**
 * fl_rb_insert_color_step:
 * @acc: where the nodes are
 * @root: the tree's root id
 * @cur: the cursor from fl_rb_insert_color_begin()
 *
 * One iteration of rb_insert_color: a recolouring (red uncle) or one rotation, reported in
 * @cur->action and @cur->subject. The kernel does the inner-child case as a rotation and
 * then the outer-child case in the same iteration; here they are two steps, which reach the
 * same tree because the loop condition still holds in between. The step that finds the loop
 * over sets the root black and reports %FL_RB_ACTION_DONE.
 *
 * Returns: %TRUE when the rebalancing is complete
 */
gboolean
fl_rb_insert_color_step (const FlRbAccess *acc,
                         guint32          *root,
                         FlRbCursor       *cur)
{
  guint32 node, parent, gparent, uncle;
  guint side;

  g_return_val_if_fail (acc != NULL && root != NULL && cur != NULL, TRUE);
  if (cur->phase != FL_RB_PHASE_INSERT)
    return report (cur, FL_RB_ACTION_DONE, 0);

  node = cur->node;
  parent = N (node)->parent;
  if (!fl_rb_is_red (acc, parent))
    {
      N (*root)->color = FL_RB_BLACK;
      return report (cur, FL_RB_ACTION_DONE, *root);
    }

  /* A red parent is never the root, which stays black between insertions. */
  gparent = N (parent)->parent;
  g_assert (gparent != 0);
  side = N (gparent)->left == parent ? FL_RB_LEFT : FL_RB_RIGHT;

  uncle = *child_of (N (gparent), !side);
  if (fl_rb_is_red (acc, uncle))
    {
      N (uncle)->color = FL_RB_BLACK;
      N (parent)->color = FL_RB_BLACK;
      N (gparent)->color = FL_RB_RED;
      cur->node = gparent;
      return report (cur, FL_RB_ACTION_RECOLOR, gparent);
    }
  if (*child_of (N (parent), !side) == node)
    {
      /* Turn the inner child into an outer one; the old parent is now the red child. */
      rotate (acc, root, parent, side);
      cur->node = parent;
      return report (cur, rotation (side), parent);
    }
  N (parent)->color = FL_RB_BLACK;
  N (gparent)->color = FL_RB_RED;
  rotate (acc, root, gparent, !side);
  return report (cur, rotation (!side), gparent);
}

/**
 * fl_rb_erase_begin:
 * @acc: where the nodes are
 * @root: the tree's root id
 * @node: the node to erase
 * @cur: the cursor to start for fl_rb_erase_color_step()
 *
 * The unlinking half of rb_erase, as one step: a node with at most one child is spliced out;
 * a node with two children is replaced by its in-order successor, which takes over its parent,
 * children and colour. @node's own links are left as they were (RB_CLEAR_NODE is the
 * caller's separate step). If the colour taken out of the tree was black, the cursor is left
 * in the erase phase at the position that now lacks a black.
 *
 * Returns: %TRUE when no rebalancing is needed
 */
gboolean
fl_rb_erase_begin (const FlRbAccess *acc,
                   guint32          *root,
                   guint32           node,
                   FlRbCursor       *cur)
{
  guint32 child, parent, succ;
  guint8 color;
  FlRbAction action;

  g_return_val_if_fail (acc != NULL && root != NULL && cur != NULL && node != 0, TRUE);

  if (N (node)->left == 0 || N (node)->right == 0)
    {
      child = N (node)->left ? N (node)->left : N (node)->right;
      parent = N (node)->parent;
      color = N (node)->color;
      if (child)
        N (child)->parent = parent;
      set_child (acc, root, parent, node, child);
      action = FL_RB_ACTION_UNLINK;
      succ = node;
    }
  else
    {
      guint32 left;
      succ = N (node)->right;
      while ((left = N (succ)->left) != 0)
        succ = left;

      set_child (acc, root, N (node)->parent, node, succ);
      child = N (succ)->right;
      parent = N (succ)->parent;
      color = N (succ)->color;

      if (parent == node)
        parent = succ;  /* the successor keeps its right subtree; the hole is below it */
      else
        {
          if (child)
            N (child)->parent = parent;
          N (parent)->left = child;
          N (succ)->right = N (node)->right;
          N (N (node)->right)->parent = succ;
        }
      N (succ)->parent = N (node)->parent;
      N (succ)->color = N (node)->color;
      N (succ)->left = N (node)->left;
      N (N (node)->left)->parent = succ;
      action = FL_RB_ACTION_SUCCESSOR;
    }

  /* Taking out a red node leaves every black height as it was. */
  *cur = (FlRbCursor) {
    .node = child,
    .parent = parent,
    .phase = color == FL_RB_BLACK ? FL_RB_PHASE_ERASE : FL_RB_PHASE_DONE,
  };
  report (cur, action, succ);
  return cur->phase == FL_RB_PHASE_DONE;
}

/**
 * fl_rb_erase_color_step:
 * @acc: where the nodes are
 * @root: the tree's root id
 * @cur: the cursor from fl_rb_erase_begin()
 *
 * One iteration of __rb_erase_color: a rotation toward the missing black (red sibling, or
 * sibling with an inner red child, or the final outer-red-child rotation), or a recolouring
 * that moves the deficit up. Each rotation of a kernel iteration is its own step; the loop
 * condition still holds between them, so the tree reached is the kernel's. The step that
 * finds the loop over sets the current node black and reports %FL_RB_ACTION_DONE.
 *
 * Returns: %TRUE when the rebalancing is complete
 */
gboolean
fl_rb_erase_color_step (const FlRbAccess *acc,
                        guint32          *root,
                        FlRbCursor       *cur)
{
  guint32 node, parent, other, near, far;
  guint side;

  g_return_val_if_fail (acc != NULL && root != NULL && cur != NULL, TRUE);
  if (cur->phase != FL_RB_PHASE_ERASE)
    return report (cur, FL_RB_ACTION_DONE, 0);

  node = cur->node;
  parent = cur->parent;
  if (fl_rb_is_red (acc, node) || node == *root)
    {
      if (node)
        N (node)->color = FL_RB_BLACK;
      return report (cur, FL_RB_ACTION_DONE, node);
    }

  side = N (parent)->left == node ? FL_RB_LEFT : FL_RB_RIGHT;
  other = *child_of (N (parent), !side);
  if (fl_rb_is_red (acc, other))
    {
      /* Make the sibling black so one of the cases below applies. */
      N (other)->color = FL_RB_BLACK;
      N (parent)->color = FL_RB_RED;
      rotate (acc, root, parent, side);
      return report (cur, rotation (side), parent);
    }
  near = *child_of (N (other), side);
  far = *child_of (N (other), !side);
  if (!fl_rb_is_red (acc, near) && !fl_rb_is_red (acc, far))
    {
      /* Both sides lose a black: the deficit moves up to the parent. */
      N (other)->color = FL_RB_RED;
      cur->node = parent;
      cur->parent = N (parent)->parent;
      return report (cur, FL_RB_ACTION_RECOLOR, other);
    }
  if (!fl_rb_is_red (acc, far))
    {
      N (near)->color = FL_RB_BLACK;
      N (other)->color = FL_RB_RED;
      rotate (acc, root, other, !side);
      return report (cur, rotation (!side), other);
    }
  N (other)->color = N (parent)->color;
  N (parent)->color = FL_RB_BLACK;
  N (far)->color = FL_RB_BLACK;
  rotate (acc, root, parent, side);
  /* The kernel breaks out with node = root; the next step finds the loop over. */
  cur->node = *root;
  cur->parent = 0;
  return report (cur, rotation (side), parent);
}

/**
 * fl_rb_insert:
 * @acc: where the nodes are
 * @root: the tree's root id
 * @node: the node to insert, its key already set
 *
 * Walks from the root by key, links @node at the leaf found and runs every rebalancing step:
 * for setting up initial states and for tests, not for the stepped simulation.
 *
 * Returns: %FALSE (and leaves the tree alone) if a node with the same key is in the tree
 */
gboolean
fl_rb_insert (const FlRbAccess *acc,
              guint32          *root,
              guint32           node)
{
  guint64 key;
  guint32 parent = 0, at;
  FlRbSide side = FL_RB_LEFT;
  FlRbCursor cur;

  g_return_val_if_fail (acc != NULL && root != NULL && node != 0, FALSE);

  key = fl_rb_key (acc, node);
  for (at = *root; at != 0; )
    {
      guint64 k = fl_rb_key (acc, at);
      if (key == k)
        return FALSE;
      parent = at;
      side = key < k ? FL_RB_LEFT : FL_RB_RIGHT;
      at = side == FL_RB_LEFT ? N (at)->left : N (at)->right;
    }
  fl_rb_link (acc, root, node, parent, side);
  fl_rb_insert_color_begin (&cur, node);
  while (!fl_rb_insert_color_step (acc, root, &cur))
    ;
  return TRUE;
}

/**
 * fl_rb_erase:
 * @acc: where the nodes are
 * @root: the tree's root id
 * @node: a node of the tree
 *
 * rb_erase in one go: fl_rb_erase_begin() and every fl_rb_erase_color_step().
 */
void
fl_rb_erase (const FlRbAccess *acc,
             guint32          *root,
             guint32           node)
{
  FlRbCursor cur;

  g_return_if_fail (acc != NULL && root != NULL && node != 0);

  if (fl_rb_erase_begin (acc, root, node, &cur))
    return;
  while (!fl_rb_erase_color_step (acc, root, &cur))
    ;
}

/**
 * fl_rb_clear_node:
 * @acc: where the nodes are
 * @node: an erased node
 *
 * RB_CLEAR_NODE of 2.6.32: the parent link points to the node itself, which is how the
 * speculative fault path tells that a VMA it found has been unmapped since.
 */
void
fl_rb_clear_node (const FlRbAccess *acc,
                  guint32           node)
{
  g_return_if_fail (acc != NULL && node != 0);
  N (node)->parent = node;
}

/**
 * fl_rb_empty_node:
 * @acc: where the nodes are
 * @node: a node
 *
 * RB_EMPTY_NODE: whether fl_rb_clear_node() marked @node.
 *
 * Returns: %TRUE if @node's parent link points to itself
 */
gboolean
fl_rb_empty_node (const FlRbAccess *acc,
                  guint32           node)
{
  g_return_val_if_fail (acc != NULL && node != 0, FALSE);
  return N (node)->parent == node;
}

static guint32
extreme (const FlRbAccess *acc,
         guint32           node,
         guint             side)
{
  if (node != 0)
    while (*child_of (N (node), side))
      node = *child_of (N (node), side);
  return node;
}

/* rb_next (side = right) and rb_prev: down the subtree on @side if there is one, else up
 * while we come from that side, since those ancestors are on the wrong side of us. */
static guint32
neighbour (const FlRbAccess *acc,
           guint32           node,
           guint             side)
{
  guint32 parent;

  if (N (node)->parent == node)
    return 0;
  if (*child_of (N (node), side))
    return extreme (acc, *child_of (N (node), side), !side);
  while ((parent = N (node)->parent) != 0 && node == *child_of (N (parent), side))
    node = parent;
  return parent;
}

/**
 * fl_rb_first:
 * @acc: where the nodes are
 * @root: the tree's root id
 *
 * Returns: the node with the smallest key, 0 if the tree is empty
 */
guint32
fl_rb_first (const FlRbAccess *acc,
             guint32           root)
{
  g_return_val_if_fail (acc != NULL, 0);
  return extreme (acc, root, FL_RB_LEFT);
}

/**
 * fl_rb_last:
 * @acc: where the nodes are
 * @root: the tree's root id
 *
 * Returns: the node with the largest key, 0 if the tree is empty
 */
guint32
fl_rb_last (const FlRbAccess *acc,
            guint32           root)
{
  g_return_val_if_fail (acc != NULL, 0);
  return extreme (acc, root, FL_RB_RIGHT);
}

/**
 * fl_rb_next:
 * @acc: where the nodes are
 * @node: a node of the tree
 *
 * rb_next: the in-order successor. A cleared node has none, as in 2.6.32.
 *
 * Returns: the next node, or 0
 */
guint32
fl_rb_next (const FlRbAccess *acc,
            guint32           node)
{
  g_return_val_if_fail (acc != NULL && node != 0, 0);
  return neighbour (acc, node, FL_RB_RIGHT);
}

/**
 * fl_rb_prev:
 * @acc: where the nodes are
 * @node: a node of the tree
 *
 * rb_prev: the in-order predecessor. A cleared node has none.
 *
 * Returns: the previous node, or 0
 */
guint32
fl_rb_prev (const FlRbAccess *acc,
            guint32           node)
{
  g_return_val_if_fail (acc != NULL && node != 0, 0);
  return neighbour (acc, node, FL_RB_LEFT);
}

/**
 * fl_rb_lookup:
 * @acc: where the nodes are
 * @root: the tree's root id
 * @key: the key to find
 *
 * Returns: the node whose key is exactly @key, or 0
 */
guint32
fl_rb_lookup (const FlRbAccess *acc,
              guint32           root,
              guint64           key)
{
  g_return_val_if_fail (acc != NULL, 0);
  while (root != 0 && fl_rb_key (acc, root) != key)
    root = key < fl_rb_key (acc, root) ? N (root)->left : N (root)->right;
  return root;
}

static G_GNUC_PRINTF (2, 3) gboolean
fail (GString    *why,
      const char *format,
      ...)
{
  if (why != NULL)
    {
      va_list args;
      g_string_truncate (why, 0);
      va_start (args, format);
      g_string_append_vprintf (why, format, args);
      va_end (args);
    }
  return FALSE;
}

/* Checks the link from @parent to @child before the walk steps onto it. Because every step
 * down is checked against the child's parent link, and the root's parent is nil, no node can
 * be reached twice: a cycle always shows up here, and the walk back up is safe. */
static gboolean
check_child (const FlRbAccess *acc,
             guint32           parent,
             guint32           child,
             const char       *side,
             guint32           max_id,
             gboolean          colors,
             GString          *why)
{
  if (child > max_id)
    return fail (why, "Node %u has %s child %u, outside the valid ids 1..%u.",
                 parent, side, child, max_id);
  if (N (child)->parent == child)
    return fail (why, "Node %u is reachable as the %s child of node %u but was cleared "
                 "by RB_CLEAR_NODE.", child, side, parent);
  if (N (child)->parent != parent)
    {
      guint32 up;
      for (up = parent; up != 0 && up <= max_id && up != child; up = N (up)->parent)
        ;
      if (up == child)
        return fail (why, "Node %u links back to its ancestor %u as its %s child: "
                     "the tree has a cycle.", parent, child, side);
      return fail (why, "Node %u is the %s child of node %u but its parent link points "
                   "to %u.", child, side, parent, N (child)->parent);
    }
  if (N (child)->color > FL_RB_BLACK)
    return fail (why, "Node %u has colour %u, neither red nor black.",
                 child, N (child)->color);
  if (colors && fl_rb_is_red (acc, parent) && fl_rb_is_red (acc, child))
    return fail (why, "Node %u and its parent %u are both red.", child, parent);
  return TRUE;
}

/* An iterative in-order walk that follows only links it has checked, so it needs no stack
 * and no allocation and terminates on any corruption. Black heights are compared at every
 * nil leaf: equal root-to-leaf black counts is the red-black rule for every subtree at once. */
static gboolean
validate (const FlRbAccess *acc,
          guint32           root,
          guint32           max_id,
          gboolean          colors,
          GString          *why)
{
  enum { ARRIVED, LEFT_DONE, RIGHT_DONE } from = ARRIVED;
  guint32 x = root, prev = 0, visits = 0, child;
  gint depth, leaf_depth = -1;

  g_return_val_if_fail (acc != NULL, FALSE);
  if (root == 0)
    return TRUE;
  if (root > max_id)
    return fail (why, "The root id %u is outside the valid ids 1..%u.", root, max_id);
  if (N (root)->parent == root)
    return fail (why, "The root node %u was cleared by RB_CLEAR_NODE.", root);
  if (N (root)->parent != 0)
    return fail (why, "The root node %u has parent link %u instead of nil.",
                 root, N (root)->parent);
  if (N (root)->color > FL_RB_BLACK)
    return fail (why, "Node %u has colour %u, neither red nor black.", root, N (root)->color);
  if (colors && N (root)->color != FL_RB_BLACK)
    return fail (why, "The root node %u is red.", root);
  depth = N (root)->color == FL_RB_BLACK;

  while (x != 0)
    {
      FlRbNode *n = N (x);

      if (from == ARRIVED)
        {
          if (n->left != 0 && n->left == n->right)
            return fail (why, "Node %u has node %u as both its left and right child.",
                         x, n->left);
          if ((child = n->left) != 0)
            {
              if (!check_child (acc, x, child, "left", max_id, colors, why))
                return FALSE;
              depth += N (child)->color == FL_RB_BLACK;
              x = child;
              continue;
            }
          if (colors && leaf_depth >= 0 && depth != leaf_depth)
            return fail (why, "The nil leaf left of node %u has black height %d where "
                         "other leaves have %d.", x, depth, leaf_depth);
          leaf_depth = depth;
          from = LEFT_DONE;
        }
      if (from == LEFT_DONE)
        {
          if (++visits > max_id)
            return fail (why, "More than %u nodes are reachable from the root, the last "
                         "being node %u: the tree has a cycle.", max_id, x);
          if (prev != 0 && fl_rb_key (acc, prev) >= fl_rb_key (acc, x))
            return fail (why, "Node %u (key 0x%" G_GINT64_MODIFIER "x) follows node %u "
                         "(key 0x%" G_GINT64_MODIFIER "x) in order but its key is not "
                         "larger.", x, fl_rb_key (acc, x), prev, fl_rb_key (acc, prev));
          prev = x;
          if ((child = n->right) != 0)
            {
              if (!check_child (acc, x, child, "right", max_id, colors, why))
                return FALSE;
              depth += N (child)->color == FL_RB_BLACK;
              x = child;
              from = ARRIVED;
              continue;
            }
          if (colors && depth != leaf_depth)
            return fail (why, "The nil leaf right of node %u has black height %d where "
                         "other leaves have %d.", x, depth, leaf_depth);
        }
      depth -= n->color == FL_RB_BLACK;
      from = n->parent != 0 && N (n->parent)->left == x ? LEFT_DONE : RIGHT_DONE;
      x = n->parent;
    }
  return TRUE;
}

/**
 * fl_rb_validate:
 * @acc: where the nodes are
 * @root: the tree's root id
 * @max_id: the largest valid node id
 * @why: (nullable): replaced by one sentence naming the node of the first violation
 *
 * The oracle's check of a tree at rest: ids in range, parent and child links agree, no
 * cycle, no cleared node reachable, keys strictly increasing in order, root black, no red
 * node with a red child, the same black height on every path. In the middle of a
 * rebalancing only fl_rb_validate_shape() holds.
 *
 * Returns: %TRUE if every invariant holds
 */
gboolean
fl_rb_validate (const FlRbAccess *acc,
                guint32           root,
                guint32           max_id,
                GString          *why)
{
  return validate (acc, root, max_id, TRUE, why);
}

/**
 * fl_rb_validate_shape:
 * @acc: where the nodes are
 * @root: the tree's root id
 * @max_id: the largest valid node id
 * @why: (nullable): replaced by one sentence naming the node of the first violation
 *
 * The invariants that hold between any two steps, even in the middle of a rebalancing:
 * those of fl_rb_validate() except the three colour rules.
 *
 * Returns: %TRUE if the tree is a well-linked binary search tree
 */
gboolean
fl_rb_validate_shape (const FlRbAccess *acc,
                      guint32           root,
                      guint32           max_id,
                      GString          *why)
{
  return validate (acc, root, max_id, FALSE, why);
}

/**
 * fl_rb_action_name:
 * @action: a #FlRbAction
 *
 * Returns: a short untranslated name for traces ("rotate-left")
 */
const char *
fl_rb_action_name (FlRbAction action)
{
  static const char *const names[] = {
    "none", "recolor", "rotate-left", "rotate-right", "unlink", "successor", "done"
  };
  g_return_val_if_fail ((guint) action < G_N_ELEMENTS (names), "?");
  return names[action];
}

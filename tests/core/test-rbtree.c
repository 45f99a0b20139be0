/* Tests of the plain-data red-black tree: kernel-shaped rebalancing one step at a time, the
 * validator's sentences, and a long random run against a sorted reference. */
#include <string.h>
#include "fl-rbtree.h"

/* The node sits after the key, as vm_rb sits inside a vm_area_struct. */
typedef struct {
  guint64  start;
  FlRbNode rb;
} TestVma;

#define MAX_VMAS 2048

typedef struct {
  TestVma    vma[MAX_VMAS + 1];   /* index 0 is nil and never touched */
  guint32    root;
  FlRbAccess acc;
} Tree;

static void
tree_init (Tree *t)
{
  memset (t, 0, sizeof *t);
  t->acc = (FlRbAccess) { (guint8 *) t->vma, sizeof (TestVma),
                          G_STRUCT_OFFSET (TestVma, rb), G_STRUCT_OFFSET (TestVma, start) };
}

static Tree *
tree_new (void)
{
  Tree *t = g_new (Tree, 1);
  tree_init (t);
  return t;
}

static void
assert_valid (Tree *t)
{
  g_autoptr (GString) why = g_string_new (NULL);
  if (!fl_rb_validate (&t->acc, t->root, MAX_VMAS, why))
    g_error ("invalid tree: %s", why->str);
}

static void
assert_shape (Tree *t)
{
  g_autoptr (GString) why = g_string_new (NULL);
  if (!fl_rb_validate_shape (&t->acc, t->root, MAX_VMAS, why))
    g_error ("badly linked tree mid-rebalance: %s", why->str);
}

/* Walks like find_vma_prepare, links, then rebalances one step at a time checking the shape
 * between steps. Returns the number of steps, actions recorded in @log if not NULL. */
static guint
insert_stepwise (Tree *t, guint32 id, guint64 key, GString *log)
{
  guint32 parent = 0, at = t->root;
  FlRbSide side = FL_RB_LEFT;
  FlRbCursor cur;
  guint steps = 0;
  gboolean done;

  t->vma[id].start = key;
  while (at)
    {
      parent = at;
      side = key < t->vma[at].start ? FL_RB_LEFT : FL_RB_RIGHT;
      at = side == FL_RB_LEFT ? t->vma[at].rb.left : t->vma[at].rb.right;
    }
  fl_rb_link (&t->acc, &t->root, id, parent, side);
  assert_shape (t);
  fl_rb_insert_color_begin (&cur, id);
  do
    {
      done = fl_rb_insert_color_step (&t->acc, &t->root, &cur);
      steps++;
      assert_shape (t);
      if (log)
        g_string_append_printf (log, "%s%s@%u", log->len ? " " : "",
                                fl_rb_action_name (cur.action), cur.subject);
    }
  while (!done);
  assert_valid (t);
  return steps;
}

static void
erase_stepwise (Tree *t, guint32 id, GString *log)
{
  FlRbCursor cur;
  gboolean done = fl_rb_erase_begin (&t->acc, &t->root, id, &cur);

  if (log)
    g_string_append_printf (log, "%s@%u", fl_rb_action_name (cur.action), cur.subject);
  assert_shape (t);
  while (!done)
    {
      done = fl_rb_erase_color_step (&t->acc, &t->root, &cur);
      assert_shape (t);
      if (log)
        g_string_append_printf (log, " %s@%u", fl_rb_action_name (cur.action), cur.subject);
    }
  assert_valid (t);
}

/* An independent model of the 2.6.32 loops, written the way the kernel runs them: whole
 * iterations, the inner-child double rotation inside one iteration, the early break after the
 * last erase case. The stepped library must reach the same bytes. */
#define RB(id) (t->vma[id].rb)
#define RED(id) ((id) != 0 && RB (id).color == FL_RB_RED)

static void
ref_replace (Tree *t, guint32 parent, guint32 old, guint32 new)
{
  if (!parent)
    t->root = new;
  else if (RB (parent).left == old)
    RB (parent).left = new;
  else
    RB (parent).right = new;
}

static void
ref_rotate_left (Tree *t, guint32 x)
{
  guint32 y = RB (x).right;
  RB (x).right = RB (y).left;
  if (RB (y).left)
    RB (RB (y).left).parent = x;
  RB (y).parent = RB (x).parent;
  ref_replace (t, RB (x).parent, x, y);
  RB (y).left = x;
  RB (x).parent = y;
}

static void
ref_rotate_right (Tree *t, guint32 x)
{
  guint32 y = RB (x).left;
  RB (x).left = RB (y).right;
  if (RB (y).right)
    RB (RB (y).right).parent = x;
  RB (y).parent = RB (x).parent;
  ref_replace (t, RB (x).parent, x, y);
  RB (y).right = x;
  RB (x).parent = y;
}

static void
ref_insert (Tree *t, guint32 node, guint64 key)
{
  guint32 parent = 0, at = t->root, gparent, uncle, tmp;

  t->vma[node].start = key;
  while (at)
    {
      parent = at;
      at = key < t->vma[at].start ? RB (at).left : RB (at).right;
    }
  RB (node) = (FlRbNode) { .parent = parent, .color = FL_RB_RED };
  if (!parent)
    t->root = node;
  else if (key < t->vma[parent].start)
    RB (parent).left = node;
  else
    RB (parent).right = node;

  while (RED (parent = RB (node).parent))
    {
      gparent = RB (parent).parent;
      if (parent == RB (gparent).left)
        {
          uncle = RB (gparent).right;
          if (RED (uncle))
            {
              RB (uncle).color = RB (parent).color = FL_RB_BLACK;
              RB (gparent).color = FL_RB_RED;
              node = gparent;
              continue;
            }
          if (RB (parent).right == node)
            {
              ref_rotate_left (t, parent);
              tmp = parent, parent = node, node = tmp;
            }
          RB (parent).color = FL_RB_BLACK;
          RB (gparent).color = FL_RB_RED;
          ref_rotate_right (t, gparent);
        }
      else
        {
          uncle = RB (gparent).left;
          if (RED (uncle))
            {
              RB (uncle).color = RB (parent).color = FL_RB_BLACK;
              RB (gparent).color = FL_RB_RED;
              node = gparent;
              continue;
            }
          if (RB (parent).left == node)
            {
              ref_rotate_right (t, parent);
              tmp = parent, parent = node, node = tmp;
            }
          RB (parent).color = FL_RB_BLACK;
          RB (gparent).color = FL_RB_RED;
          ref_rotate_left (t, gparent);
        }
    }
  RB (t->root).color = FL_RB_BLACK;
}

static void
ref_erase_color (Tree *t, guint32 node, guint32 parent)
{
  guint32 other;

  while (!RED (node) && node != t->root)
    {
      if (RB (parent).left == node)
        {
          other = RB (parent).right;
          if (RED (other))
            {
              RB (other).color = FL_RB_BLACK;
              RB (parent).color = FL_RB_RED;
              ref_rotate_left (t, parent);
              other = RB (parent).right;
            }
          if (!RED (RB (other).left) && !RED (RB (other).right))
            {
              RB (other).color = FL_RB_RED;
              node = parent;
              parent = RB (node).parent;
              continue;
            }
          if (!RED (RB (other).right))
            {
              RB (RB (other).left).color = FL_RB_BLACK;
              RB (other).color = FL_RB_RED;
              ref_rotate_right (t, other);
              other = RB (parent).right;
            }
          RB (other).color = RB (parent).color;
          RB (parent).color = FL_RB_BLACK;
          RB (RB (other).right).color = FL_RB_BLACK;
          ref_rotate_left (t, parent);
        }
      else
        {
          other = RB (parent).left;
          if (RED (other))
            {
              RB (other).color = FL_RB_BLACK;
              RB (parent).color = FL_RB_RED;
              ref_rotate_right (t, parent);
              other = RB (parent).left;
            }
          if (!RED (RB (other).left) && !RED (RB (other).right))
            {
              RB (other).color = FL_RB_RED;
              node = parent;
              parent = RB (node).parent;
              continue;
            }
          if (!RED (RB (other).left))
            {
              RB (RB (other).right).color = FL_RB_BLACK;
              RB (other).color = FL_RB_RED;
              ref_rotate_left (t, other);
              other = RB (parent).left;
            }
          RB (other).color = RB (parent).color;
          RB (parent).color = FL_RB_BLACK;
          RB (RB (other).left).color = FL_RB_BLACK;
          ref_rotate_right (t, parent);
        }
      node = t->root;
      break;
    }
  if (node)
    RB (node).color = FL_RB_BLACK;
}

static void
ref_erase (Tree *t, guint32 node)
{
  guint32 child, parent, old, succ;
  guint8 color;

  if (!RB (node).left || !RB (node).right)
    {
      child = RB (node).left ? RB (node).left : RB (node).right;
      parent = RB (node).parent;
      color = RB (node).color;
      if (child)
        RB (child).parent = parent;
      ref_replace (t, parent, node, child);
    }
  else
    {
      old = node;
      for (succ = RB (old).right; RB (succ).left; succ = RB (succ).left)
        ;
      ref_replace (t, RB (old).parent, old, succ);
      child = RB (succ).right;
      parent = RB (succ).parent;
      color = RB (succ).color;
      if (parent == old)
        parent = succ;
      else
        {
          if (child)
            RB (child).parent = parent;
          RB (parent).left = child;
          RB (succ).right = RB (old).right;
          RB (RB (old).right).parent = succ;
        }
      RB (succ).parent = RB (old).parent;
      RB (succ).color = RB (old).color;
      RB (succ).left = RB (old).left;
      RB (RB (old).left).parent = succ;
    }
  if (color == FL_RB_BLACK)
    ref_erase_color (t, child, parent);
}

static void
assert_in_order (Tree *t, const guint64 *keys, guint n)
{
  guint32 x = fl_rb_first (&t->acc, t->root);
  for (guint i = 0; i < n; i++, x = fl_rb_next (&t->acc, x))
    {
      g_assert_cmpuint (x, !=, 0);
      g_assert_cmpuint (t->vma[x].start, ==, keys[i]);
    }
  g_assert_cmpuint (x, ==, 0);
  x = fl_rb_last (&t->acc, t->root);
  for (guint i = n; i > 0; i--, x = fl_rb_prev (&t->acc, x))
    g_assert_cmpuint (t->vma[x].start, ==, keys[i - 1]);
  g_assert_cmpuint (x, ==, 0);
}

static void
shuffle (GRand *rand, guint32 *ids, guint n)
{
  for (guint i = n; i > 1; i--)
    {
      guint j = g_rand_int_range (rand, 0, i);
      guint32 tmp = ids[i - 1];
      ids[i - 1] = ids[j];
      ids[j] = tmp;
    }
}

static void
test_accessor_sizes (void)
{
  g_assert_cmpuint (sizeof (FlRbNode), ==, 16);
  g_assert_cmpuint (sizeof (FlRbCursor), <=, 16);
}

static void
check_inserts (const char *order)
{
  g_autofree Tree *t = tree_new ();
  g_autoptr (GRand) rand = g_rand_new_with_seed (42);
  guint32 ids[500];
  guint64 keys[500];
  const guint n = G_N_ELEMENTS (ids);

  for (guint i = 0; i < n; i++)
    ids[i] = strcmp (order, "descending") == 0 ? n - i : i + 1;
  if (strcmp (order, "random") == 0)
    shuffle (rand, ids, n);
  for (guint i = 0; i < n; i++)
    {
      /* Page-aligned starts, so the key order is the id order. */
      insert_stepwise (t, ids[i], 0x400000 + (guint64) ids[i] * 0x1000, NULL);
      g_assert_true (fl_rb_lookup (&t->acc, t->root, 0x400000 + (guint64) ids[i] * 0x1000) == ids[i]);
    }
  for (guint i = 0; i < n; i++)
    keys[i] = 0x400000 + (guint64) (i + 1) * 0x1000;
  assert_in_order (t, keys, n);
}

static void test_insert_ascending (void) { check_inserts ("ascending"); }
static void test_insert_descending (void) { check_inserts ("descending"); }
static void test_insert_random (void) { check_inserts ("random"); }

static void
test_erase_random_orders (void)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (7);
  g_autofree Tree *t = tree_new ();
  guint32 ids[300];
  const guint n = G_N_ELEMENTS (ids);

  for (guint round = 0; round < 20; round++)
    {
      tree_init (t);
      for (guint i = 0; i < n; i++)
        ids[i] = i + 1;
      shuffle (rand, ids, n);
      for (guint i = 0; i < n; i++)
        {
          t->vma[ids[i]].start = (guint64) ids[i] << 12;
          g_assert_true (fl_rb_insert (&t->acc, &t->root, ids[i]));
        }
      assert_valid (t);
      shuffle (rand, ids, n);
      for (guint i = 0; i < n; i++)
        {
          erase_stepwise (t, ids[i], NULL);
          fl_rb_clear_node (&t->acc, ids[i]);
          g_assert_cmpuint (fl_rb_lookup (&t->acc, t->root, (guint64) ids[i] << 12), ==, 0);
        }
      g_assert_cmpuint (t->root, ==, 0);
    }
}

/* Three trees under the same random inserts and erases: stepped, one-shot, and the
 * whole-iteration model of 2.6.32. All three must be byte-identical after every operation:
 * splitting the kernel's iterations into steps changes nothing, and snapshots hash equal. */
static void
test_stepwise_matches_kernel (void)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (2010);
  g_autofree Tree *a = tree_new ();
  g_autofree Tree *b = tree_new ();
  g_autofree Tree *k = tree_new ();
  guint32 ids[MAX_VMAS];
  const guint n = G_N_ELEMENTS (ids);

  for (guint i = 0; i < n; i++)
    ids[i] = i + 1;
  shuffle (rand, ids, n);
  for (guint i = 0; i < n; i++)
    {
      guint64 key = (guint64) g_rand_int (rand) << 12 | ids[i];
      insert_stepwise (a, ids[i], key, NULL);
      b->vma[ids[i]].start = key;
      g_assert_true (fl_rb_insert (&b->acc, &b->root, ids[i]));
      ref_insert (k, ids[i], key);
      g_assert_cmpuint (a->root, ==, b->root);
      g_assert_cmpuint (a->root, ==, k->root);
      g_assert_cmpmem (a->vma, sizeof a->vma, b->vma, sizeof b->vma);
      g_assert_cmpmem (a->vma, sizeof a->vma, k->vma, sizeof k->vma);
    }
  shuffle (rand, ids, n);
  for (guint i = 0; i < n; i++)
    {
      erase_stepwise (a, ids[i], NULL);
      fl_rb_erase (&b->acc, &b->root, ids[i]);
      ref_erase (k, ids[i]);
      g_assert_cmpuint (a->root, ==, b->root);
      g_assert_cmpuint (a->root, ==, k->root);
      g_assert_cmpmem (a->vma, sizeof a->vma, b->vma, sizeof b->vma);
      g_assert_cmpmem (a->vma, sizeof a->vma, k->vma, sizeof k->vma);
    }
}

static void
test_insert_rotations (void)
{
  g_autofree Tree *t = tree_new ();
  g_autoptr (GString) log = g_string_new (NULL);

  /* 1, 2, 3: the outer-child case at the root rotates left around node 1. */
  insert_stepwise (t, 1, 1, NULL);
  insert_stepwise (t, 2, 2, NULL);
  insert_stepwise (t, 3, 3, log);
  g_assert_cmpstr (log->str, ==, "rotate-left@1 done@2");
  g_assert_cmpuint (t->root, ==, 2);
  g_assert_cmpuint (t->vma[2].rb.color, ==, FL_RB_BLACK);
  g_assert_cmpuint (t->vma[1].rb.color, ==, FL_RB_RED);

  /* 4: red uncle, so recolouring only; the grandparent is the root and ends black again. */
  g_string_truncate (log, 0);
  insert_stepwise (t, 4, 4, log);
  g_assert_cmpstr (log->str, ==, "recolor@2 done@2");

  /* 3, 1, 2: the inner-child case takes two steps, left at 1 then right at 3. */
  tree_init (t);
  insert_stepwise (t, 3, 3, NULL);
  insert_stepwise (t, 1, 1, NULL);
  g_string_truncate (log, 0);
  insert_stepwise (t, 2, 2, log);
  g_assert_cmpstr (log->str, ==, "rotate-left@1 rotate-right@3 done@2");
  g_assert_cmpuint (t->root, ==, 2);

  /* 3, 2, 1: mirror of the first case. */
  tree_init (t);
  insert_stepwise (t, 3, 3, NULL);
  insert_stepwise (t, 2, 2, NULL);
  g_string_truncate (log, 0);
  insert_stepwise (t, 1, 1, log);
  g_assert_cmpstr (log->str, ==, "rotate-right@3 done@2");
}

static void
test_erase_cases (void)
{
  g_autofree Tree *t = tree_new ();
  g_autoptr (GString) log = g_string_new (NULL);

  /* Tree 2(B) with children 1(R) 3(R): erasing a red leaf needs no rebalancing. */
  for (guint32 i = 1; i <= 3; i++)
    insert_stepwise (t, i, i, NULL);
  erase_stepwise (t, 3, log);
  g_assert_cmpstr (log->str, ==, "unlink@3");

  /* Erasing the root with two children: its successor takes its place and colour. */
  tree_init (t);
  for (guint32 i = 1; i <= 3; i++)
    insert_stepwise (t, i, i, NULL);
  g_string_truncate (log, 0);
  erase_stepwise (t, 2, log);
  g_assert_cmpstr (log->str, ==, "successor@3");
  g_assert_cmpuint (t->root, ==, 3);
  g_assert_cmpuint (t->vma[3].rb.color, ==, FL_RB_BLACK);
  g_assert_cmpuint (t->vma[3].rb.left, ==, 1);
  /* rb_erase leaves the erased node's own links alone, for readers standing on it. */
  g_assert_cmpuint (t->vma[2].rb.left, ==, 1);
  g_assert_cmpuint (t->vma[2].rb.right, ==, 3);

  /* 1..4 then erase 1: black leaf, sibling 3(B) with far red child 4 rotates left at 2. */
  tree_init (t);
  for (guint32 i = 1; i <= 4; i++)
    insert_stepwise (t, i, i, NULL);
  g_string_truncate (log, 0);
  erase_stepwise (t, 1, log);
  g_assert_cmpstr (log->str, ==, "unlink@1 rotate-left@2 done@3");
  g_assert_cmpuint (t->root, ==, 3);

  /* 1..3 with 3 black-sibling and no red nephews: recolouring moves the deficit to the root. */
  tree_init (t);
  for (guint32 i = 1; i <= 4; i++)
    insert_stepwise (t, i, i, NULL);
  fl_rb_erase (&t->acc, &t->root, 4);   /* 2(B) 1(B) 3(B) */
  assert_valid (t);
  g_string_truncate (log, 0);
  erase_stepwise (t, 1, log);
  g_assert_cmpstr (log->str, ==, "unlink@1 recolor@3 done@2");
}

static void
test_clear_node (void)
{
  g_autofree Tree *t = tree_new ();
  g_autoptr (GString) why = g_string_new (NULL);

  for (guint32 i = 1; i <= 7; i++)
    insert_stepwise (t, i, i * 0x1000, NULL);
  g_assert_false (fl_rb_empty_node (&t->acc, 5));
  fl_rb_erase (&t->acc, &t->root, 5);
  /* Erased but not cleared: the kernel cannot tell, and neither can we. */
  g_assert_false (fl_rb_empty_node (&t->acc, 5));
  fl_rb_clear_node (&t->acc, 5);
  g_assert_true (fl_rb_empty_node (&t->acc, 5));
  g_assert_cmpuint (fl_rb_next (&t->acc, 5), ==, 0);
  g_assert_cmpuint (fl_rb_prev (&t->acc, 5), ==, 0);
  assert_valid (t);

  /* A cleared node still linked in is the bug the oracle must name. */
  fl_rb_clear_node (&t->acc, 7);
  g_assert_false (fl_rb_validate (&t->acc, t->root, MAX_VMAS, why));
  g_assert_nonnull (strstr (why->str, "Node 7 "));
  g_assert_nonnull (strstr (why->str, "RB_CLEAR_NODE"));
}

static void
expect_finding (Tree *t, const char *node, const char *words)
{
  g_autoptr (GString) why = g_string_new (NULL);
  g_assert_false (fl_rb_validate (&t->acc, t->root, MAX_VMAS, why));
  g_test_message ("finding: %s", why->str);
  g_assert_nonnull (strstr (why->str, node));
  g_assert_nonnull (strstr (why->str, words));
  g_assert_cmpint (why->str[why->len - 1], ==, '.');
}

static void
build_15 (Tree *t)
{
  tree_init (t);
  for (guint32 i = 1; i <= 15; i++)
    insert_stepwise (t, i, i * 0x1000, NULL);
}

static void
test_validate_catches_corruption (void)
{
  g_autofree Tree *t = tree_new ();
  guint32 leaf;

  /* 1..15 ascending: find a red node with a black parent and paint the parent red. */
  build_15 (t);
  for (leaf = 1; leaf <= 15; leaf++)
    if (t->vma[leaf].rb.color == FL_RB_RED && t->vma[leaf].rb.parent != t->root)
      break;
  g_assert_cmpuint (leaf, <=, 15);
  t->vma[t->vma[leaf].rb.parent].rb.color = FL_RB_RED;
  expect_finding (t, "red", "both red");

  build_15 (t);
  t->vma[t->root].rb.color = FL_RB_RED;
  expect_finding (t, "root node", "is red");

  build_15 (t);
  t->vma[9].start = 2 * 0x1000;
  expect_finding (t, "Node 9 ", "not larger");

  build_15 (t);
  t->vma[3].rb.parent = 12;
  expect_finding (t, "Node 3 ", "parent link points to 12");

  build_15 (t);
  leaf = fl_rb_first (&t->acc, t->root);
  t->vma[leaf].rb.left = t->root;
  expect_finding (t, "cycle", "links back");

  build_15 (t);
  t->vma[15].rb.color = FL_RB_RED == t->vma[15].rb.color ? FL_RB_BLACK : FL_RB_RED;
  expect_finding (t, "black height", "nil leaf");

  build_15 (t);
  t->vma[fl_rb_last (&t->acc, t->root)].rb.right = MAX_VMAS + 5;
  expect_finding (t, "2053", "outside the valid ids");
}

/* 10,000 random inserts and erases, stepwise, each followed by the full check and a
 * comparison with a sorted array of the keys that should be present. */
static void
test_random_operations (void)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (0x5eed);
  g_autofree Tree *t = tree_new ();
  g_autoptr (GArray) ref = g_array_new (FALSE, FALSE, sizeof (guint64));
  g_autofree guint32 *free_ids = g_new (guint32, MAX_VMAS);
  guint n_free = 0, inserts = 0, erases = 0;

  for (guint32 id = MAX_VMAS; id >= 1; id--)
    free_ids[n_free++] = id;

  for (guint op = 0; op < 10000; op++)
    {
      gboolean insert = ref->len == 0 || (n_free > 0 && g_rand_int_range (rand, 0, 100) < 55);
      if (insert)
        {
          guint64 key = (guint64) g_rand_int_range (rand, 0, 4096) << 12;
          guint pos;
          if (fl_rb_lookup (&t->acc, t->root, key))
            continue;
          for (pos = 0; pos < ref->len && g_array_index (ref, guint64, pos) < key; pos++)
            ;
          g_array_insert_val (ref, pos, key);
          insert_stepwise (t, free_ids[--n_free], key, NULL);
          inserts++;
        }
      else
        {
          guint pos = g_rand_int_range (rand, 0, ref->len);
          guint32 id = fl_rb_lookup (&t->acc, t->root, g_array_index (ref, guint64, pos));
          g_assert_cmpuint (id, !=, 0);
          erase_stepwise (t, id, NULL);
          fl_rb_clear_node (&t->acc, id);
          g_assert_true (fl_rb_empty_node (&t->acc, id));
          g_array_remove_index (ref, pos);
          free_ids[n_free++] = id;
          erases++;
        }
      assert_in_order (t, (const guint64 *) (gpointer) ref->data, ref->len);
    }
  g_test_message ("%u inserts, %u erases, %u nodes left", inserts, erases, ref->len);
  g_assert_cmpuint (erases, >, 3000);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/core/rbtree/sizes", test_accessor_sizes);
  g_test_add_func ("/core/rbtree/insert-ascending", test_insert_ascending);
  g_test_add_func ("/core/rbtree/insert-descending", test_insert_descending);
  g_test_add_func ("/core/rbtree/insert-random", test_insert_random);
  g_test_add_func ("/core/rbtree/erase-random-orders", test_erase_random_orders);
  g_test_add_func ("/core/rbtree/stepwise-matches-kernel", test_stepwise_matches_kernel);
  g_test_add_func ("/core/rbtree/insert-rotations", test_insert_rotations);
  g_test_add_func ("/core/rbtree/erase-cases", test_erase_cases);
  g_test_add_func ("/core/rbtree/clear-node", test_clear_node);
  g_test_add_func ("/core/rbtree/validate-catches-corruption", test_validate_catches_corruption);
  g_test_add_func ("/core/rbtree/random-operations", test_random_operations);
  return g_test_run ();
}

-- An impossible count.
-- expect: bad-value table run, row 1, column steps is -1
UPDATE run SET steps = -1 WHERE id = 1;

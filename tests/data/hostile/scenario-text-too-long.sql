-- A valid scenario padded past the size of a .fault file (1 MiB): a file that size is refused.
-- expect: bad-value table scenario, row 1, column text holds
UPDATE scenario SET text = text || '#' || printf('%1048576s', '') || char(10) WHERE id = 1;

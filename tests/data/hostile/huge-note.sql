-- A 3 MiB note: more than Faultline writes, less than SQLite is allowed to load.
-- expect: bad-value table bookmark, row 1, column note holds 3145728 bytes
UPDATE bookmark SET note = printf('%3145728s', '') WHERE id = 1;

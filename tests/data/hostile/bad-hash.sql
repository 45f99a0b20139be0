-- A hash that no run could have.
-- expect: bad-value table run, row 1, column hash is 'not a hash; DROP TABLE run'
UPDATE run SET hash = 'not a hash; DROP TABLE run' WHERE id = 1;

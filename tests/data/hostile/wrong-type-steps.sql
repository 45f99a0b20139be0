-- Text where a count belongs.
-- expect: bad-value table run, row 1, column steps is text
UPDATE run SET steps = 'many' WHERE id = 1;

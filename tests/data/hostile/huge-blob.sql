-- A 6 MiB blob for a scenario's text: refused before it is copied.
-- expect: bad-value table scenario, row 1, column text is a blob
UPDATE scenario SET text = zeroblob(6291456) WHERE id = 1;

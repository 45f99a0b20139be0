-- A 6 MiB text for a scenario's text.
-- expect: bad-value table scenario, row 1, column text holds 6291456 bytes
UPDATE scenario SET text = printf('%6291456s', '') WHERE id = 1;

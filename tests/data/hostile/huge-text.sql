-- A 24 MiB text for a scenario's text.
-- expect: bad-value table scenario, row 1, column text holds 25165824 bytes
UPDATE scenario SET text = printf('%25165824s', '') WHERE id = 1;

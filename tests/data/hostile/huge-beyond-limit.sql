-- A 9 MiB note: beyond what SQLite may load on a store's connection (SQLITE_LIMIT_LENGTH).
-- expect: bad-value larger than Faultline ever writes
UPDATE bookmark SET note = printf('%9437184s', '') WHERE id = 1;

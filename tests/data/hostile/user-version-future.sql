-- A store of a newer Faultline, with a table this one does not know: read-only.
-- expect: newer schema version 3
CREATE TABLE later (x INTEGER);
PRAGMA user_version = 3;

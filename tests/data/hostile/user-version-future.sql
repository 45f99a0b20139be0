-- A store of a newer Faultline, with a table this one does not know: read-only.
-- expect: newer schema version 4
CREATE TABLE later (x INTEGER);
PRAGMA user_version = 4;

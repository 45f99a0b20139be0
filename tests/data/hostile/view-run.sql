-- The table run replaced by a view of its rows.
-- expect: foreign 'run' is a view, where Faultline creates a table
PRAGMA foreign_keys = OFF;
PRAGMA legacy_alter_table = ON;
ALTER TABLE run RENAME TO run_data;
CREATE VIEW run AS SELECT * FROM run_data;

-- The table exploration replaced by a view of its rows.
-- expect: foreign 'exploration' is a view, where Faultline creates a table
PRAGMA foreign_keys = OFF;
PRAGMA legacy_alter_table = ON;
ALTER TABLE exploration RENAME TO exploration_data;
CREATE VIEW exploration AS SELECT * FROM exploration_data;

-- The table bench replaced by a view of its rows.
-- expect: foreign 'bench' is a view, where Faultline creates a table
PRAGMA foreign_keys = OFF;
PRAGMA legacy_alter_table = ON;
ALTER TABLE bench RENAME TO bench_data;
CREATE VIEW bench AS SELECT * FROM bench_data;

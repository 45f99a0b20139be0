-- The table finding replaced by a view of its rows.
-- expect: foreign 'finding' is a view, where Faultline creates a table
PRAGMA foreign_keys = OFF;
PRAGMA legacy_alter_table = ON;
ALTER TABLE finding RENAME TO finding_data;
CREATE VIEW finding AS SELECT * FROM finding_data;

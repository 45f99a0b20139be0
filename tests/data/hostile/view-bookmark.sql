-- The table bookmark replaced by a view of its rows.
-- expect: foreign 'bookmark' is a view, where Faultline creates a table
PRAGMA foreign_keys = OFF;
PRAGMA legacy_alter_table = ON;
ALTER TABLE bookmark RENAME TO bookmark_data;
CREATE VIEW bookmark AS SELECT * FROM bookmark_data;

-- The table event replaced by a view of its rows.
-- expect: foreign 'event' is a view, where Faultline creates a table
PRAGMA foreign_keys = OFF;
PRAGMA legacy_alter_table = ON;
ALTER TABLE event RENAME TO event_data;
CREATE VIEW event AS SELECT * FROM event_data;

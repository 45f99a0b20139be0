-- The view of the issue: `scenario` replaced by a recursive view hung every db command.
-- expect: foreign 'scenario' is a view, where Faultline creates a table
PRAGMA foreign_keys = OFF;
PRAGMA legacy_alter_table = ON;
ALTER TABLE scenario RENAME TO a_scenario;
CREATE VIEW scenario AS
  WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r)
  SELECT i AS id, 'name' AS name, 'title' AS title, '' AS tags, '' AS text, 0 AS created FROM r;

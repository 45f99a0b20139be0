-- bookmark.title without its NOT NULL, and a NULL title in it: the segfault of the issue.
-- expect: foreign the table 'bookmark' is not the one Faultline creates
PRAGMA writable_schema = ON;
UPDATE sqlite_schema SET sql = replace(sql, 'title    TEXT NOT NULL', 'title    TEXT')
  WHERE name = 'bookmark';
PRAGMA writable_schema = RESET;
UPDATE bookmark SET title = NULL;

-- The segfault of the issue with the schema put back as Faultline writes it: a NULL title.
-- expect: corrupt NULL value in bookmark.title; table bookmark, row 1, column title is NULL
PRAGMA writable_schema = ON;
UPDATE sqlite_schema SET sql = replace(sql, 'title    TEXT NOT NULL', 'title    TEXT')
  WHERE name = 'bookmark';
PRAGMA writable_schema = RESET;
UPDATE bookmark SET title = NULL WHERE id = 1;
PRAGMA writable_schema = ON;
UPDATE sqlite_schema SET sql = replace(sql, 'title    TEXT,', 'title    TEXT NOT NULL,')
  WHERE name = 'bookmark';
PRAGMA writable_schema = RESET;

-- A store that claims to be new (user_version 0) but holds tables: no migration runs in it.
-- expect: foreign the table 'bench', which Faultline never creates
PRAGMA user_version = 0;

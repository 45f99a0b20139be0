-- A table Faultline does not make.
-- expect: foreign the table 'notes', which Faultline never creates
CREATE TABLE notes (text TEXT);

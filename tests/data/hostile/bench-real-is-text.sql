-- Text where a rate belongs.
-- expect: bad-value table bench, row 1, column faults_per_sec is text
UPDATE bench SET faults_per_sec = 'fast' WHERE id = 1;

-- A title that is not UTF-8.
-- expect: bad-value table scenario, row 1, column title is not valid UTF-8
UPDATE scenario SET title = CAST(x'4f6bc328' AS TEXT) WHERE id = 1;

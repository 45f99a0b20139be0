-- A name with a NUL byte in it, which would end it early in C.
-- expect: bad-value table scenario, row 1, column name holds a NUL byte
UPDATE scenario SET name = CAST(x'7370660061' AS TEXT) WHERE id = 1;

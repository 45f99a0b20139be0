-- A configuration this build does not know.
-- expect: replay cpus
UPDATE run SET config = 'cpus=100000' WHERE id = 1;

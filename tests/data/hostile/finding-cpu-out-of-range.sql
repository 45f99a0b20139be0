-- A finding on a CPU no run can have.
-- expect: bad-value table finding, row 1, column cpu is 70000
UPDATE finding SET cpu = 70000 WHERE id = 1;

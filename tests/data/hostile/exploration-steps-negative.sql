-- An exploration that claims to have taken a negative number of steps.
-- expect: bad-value table exploration, row 1, column steps is -5
UPDATE exploration SET steps = -5 WHERE id = 1;

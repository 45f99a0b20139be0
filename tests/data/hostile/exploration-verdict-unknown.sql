-- An exploration whose verdict is none of the three `explore` gives.
-- expect: bad-value table exploration, row 1, column verdict is 'probably fine'
UPDATE exploration SET verdict = 'probably fine' WHERE id = 1;

-- A run that claims four billion steps its events do not hold: a replay would run for minutes.
-- expect: replay events end before step
UPDATE run SET steps = 4000000000 WHERE id = 1;

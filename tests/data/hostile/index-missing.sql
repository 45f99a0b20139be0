-- An index the queries rely on, dropped: a scan of every run for each lookup.
-- expect: foreign the index 'run_by_scenario' is missing
DROP INDEX run_by_scenario;

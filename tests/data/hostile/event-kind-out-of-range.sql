-- An event kind no event has, read when the replay compares the streams.
-- expect: bad-value table event, row (run 1, step 5, sub 0), column kind is 300
UPDATE event SET kind = 300 WHERE run_id = 1 AND step = 5 AND sub = 0;
UPDATE run SET hash = '00' WHERE id = 1;

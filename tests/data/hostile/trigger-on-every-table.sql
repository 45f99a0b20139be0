-- One trigger on each table: `db check` lists all six.
-- expect: foreign which Faultline never creates, and 5 more
CREATE TRIGGER t_scenario AFTER INSERT ON scenario BEGIN DELETE FROM bookmark; END;
CREATE TRIGGER t_run BEFORE UPDATE ON run BEGIN DELETE FROM bookmark; END;
CREATE TRIGGER t_event AFTER INSERT ON event BEGIN DELETE FROM bookmark; END;
CREATE TRIGGER t_finding AFTER DELETE ON finding BEGIN DELETE FROM bookmark; END;
CREATE TRIGGER t_bookmark AFTER UPDATE ON bookmark BEGIN DELETE FROM scenario; END;
CREATE TRIGGER t_bench AFTER INSERT ON bench BEGIN DELETE FROM bookmark; END;

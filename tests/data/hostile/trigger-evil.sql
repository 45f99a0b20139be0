-- The trigger of the issue: recording a run into this store deleted every bookmark and finding.
-- expect: foreign the trigger 'evil' on table 'run'
CREATE TRIGGER evil AFTER INSERT ON run BEGIN DELETE FROM bookmark; DELETE FROM finding; END;

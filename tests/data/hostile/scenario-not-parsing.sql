-- A stored text the parser refuses, as it would refuse the file.
-- expect: replay spf-vs-munmap:2:
UPDATE scenario SET text = '[scenario]' || char(10) || 'title' || char(10) WHERE id = 1;

-- The 16 TiB VMA of the issue: a replay must not trust it more than the same file on disk.
-- expect: as-file
UPDATE scenario SET text = '[scenario]' || char(10) || 'title=huge' || char(10)
  || '[mm]' || char(10) || 'vma=0x6f0000000000-0x7f0000000000 rw- anon' || char(10)
  || '[cpu0]' || char(10) || 'ops=fault 0x6f0000001000 write' || char(10)
  WHERE id = 1;

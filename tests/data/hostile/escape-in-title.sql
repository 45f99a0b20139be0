-- A title carrying a terminal escape sequence, which `db list` would print to the terminal.
-- expect: bad-value table scenario, row 1, column title holds the control character 0x1b
UPDATE scenario SET title = 'clear' || char(27) || '[2J' || char(27) || ']0;owned' || char(7)
  WHERE id = 1;

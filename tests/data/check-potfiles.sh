#!/bin/sh
# po/POTFILES.in must list exactly the files that hold translatable strings, sorted, so a
# string added anywhere (core/ included) cannot silently stay out of the translations.
# Usage: check-potfiles.sh SOURCE_ROOT
set -eu

cd "${1:?usage: check-potfiles.sh SOURCE_ROOT}"

listed=$(mktemp)
found=$(mktemp)
trap 'rm -f "$listed" "$found"' EXIT
status=0

grep -v -e '^#' -e '^[[:space:]]*$' po/POTFILES.in > "$listed"
if ! LC_ALL=C sort -c -u "$listed" 2>/dev/null; then
  echo "po/POTFILES.in is not sorted, or lists a file twice (LC_ALL=C sort -u)"
  status=1
fi

{
  # C: the keywords of meson's glib gettext preset, as whole words.
  find app ui core -type f \( -name '*.c' -o -name '*.h' \) -print0 |
    xargs -0 -r grep -lE '(^|[^A-Za-z0-9_])(_|N_|C_|NC_|g_dngettext|ngettext) ?\('
  find app ui core data -type f -name '*.ui' -print0 |
    xargs -0 -r grep -l 'translatable="yes"'
  # Desktop and AppStream files always carry a translatable name.
  find data -maxdepth 1 -type f \( -name '*.desktop.in' -o -name '*.metainfo.xml.in' \)
  find data -maxdepth 1 -type f -name '*.gschema.xml' -print0 |
    xargs -0 -r grep -lE '<(summary|description)>'
} | LC_ALL=C sort -u > "$found"

missing=$(LC_ALL=C sort -u "$listed" | LC_ALL=C comm -23 "$found" -)
extra=$(LC_ALL=C sort -u "$listed" | LC_ALL=C comm -13 "$found" -)

if [ -n "$missing" ]; then
  echo "Files with translatable strings missing from po/POTFILES.in:"
  printf '  %s\n' $missing
  status=1
fi
if [ -n "$extra" ]; then
  echo "Listed in po/POTFILES.in but without translatable strings (or gone):"
  printf '  %s\n' $extra
  status=1
fi

[ "$status" -eq 0 ] && echo "po/POTFILES.in: $(wc -l < "$listed") files, sorted and complete"
exit "$status"

#!/bin/sh
# Every language in po/LINGUAS translates every current string: the template is regenerated
# from the sources (not taken from the .po), so a string added since the last merge counts
# as untranslated. Usage: check-translations.sh SOURCE_ROOT
set -eu

cd "${1:?usage: check-translations.sh SOURCE_ROOT}"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0

# The keywords and flags of meson's `preset: 'glib'`, which builds the real template.
xgettext --package-name=faultline --from-code=UTF-8 --add-comments \
  --keyword=_ --keyword=N_ --keyword=C_:1c,2 --keyword=NC_:1c,2 \
  --keyword=g_dcgettext:2 --keyword=g_dngettext:2,3 --keyword=g_dpgettext2:2c,3 \
  --files-from=po/POTFILES.in -o "$tmp/faultline.pot"

for lang in $(grep -v '^#' po/LINGUAS); do
  msgmerge --quiet -o "$tmp/$lang.po" "po/$lang.po" "$tmp/faultline.pot"
  stats=$(LC_ALL=C msgfmt --check --statistics -o /dev/null "$tmp/$lang.po" 2>&1)
  echo "po/$lang.po: $stats"
  case "$stats" in
    *untranslated*|*fuzzy*)
      echo "  incomplete: run 'meson compile -C build faultline-update-po', then translate"
      status=1
      ;;
  esac
done

exit "$status"

#!/bin/sh
# make preview: renders every workbook under an out folder to PNG pages, as a
# person would see them printed, through LibreOffice headless (xlsx -> pdf)
# and poppler (pdf -> png).
#
#   scripts/preview.sh [OUT] [DEST]     OUT defaults to reports/, DEST to preview/
#
# DEST/<folder of the workbook>/<name>-N.png, one file per page.
# Installs libreoffice-calc and poppler-utils when soffice or pdftoppm is missing.
# PREVIEW_DPI sets the resolution (default 100, small print stays readable).
set -eu

OUT=${1:-reports}
DEST=${2:-preview}
DPI=${PREVIEW_DPI:-100}

if [ ! -d "$OUT" ]; then
  echo "preview: no folder '$OUT' (run 'make run' first, or give the out folder)" >&2
  exit 66
fi

if ! command -v soffice >/dev/null 2>&1 || ! command -v pdftoppm >/dev/null 2>&1; then
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
  echo "Installing: libreoffice-calc poppler-utils"
  $SUDO apt-get update -qq
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libreoffice-calc poppler-utils
fi

WORK=$(mktemp -d "${TMPDIR:-/tmp}/tally-preview.XXXXXX")
trap 'rm -rf "$WORK"' EXIT INT TERM
# A profile of its own, so a LibreOffice already open (or another preview) does not take the conversion over.
PROFILE="file://$WORK/profile"

count=0
find "$OUT" -name '*.xlsx' -type f | sort > "$WORK/list"
while IFS= read -r book; do
  relative=${book#"$OUT"/}
  name=$(basename "${relative%.xlsx}")
  target="$DEST/$(dirname "$relative")"
  mkdir -p "$target" "$WORK/pdf"
  rm -f "$target/$name"-*.png
  soffice "-env:UserInstallation=$PROFILE" --headless --convert-to pdf --outdir "$WORK/pdf" "$book" >/dev/null 2>&1 || {
    echo "preview: LibreOffice could not convert $book" >&2
    exit 1
  }
  pdf="$WORK/pdf/$(basename "${book%.xlsx}").pdf"
  pdftoppm -png -r "$DPI" "$pdf" "$target/$name"
  pages=$(find "$target" -name "$name-*.png" | wc -l)
  echo "$book: $pages pages -> $target/$name-*.png"
  rm -f "$pdf"
  count=$((count + 1))
done < "$WORK/list"
echo "preview: $count workbooks rendered into $DEST/"

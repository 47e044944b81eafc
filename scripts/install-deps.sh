#!/usr/bin/env bash
# Installs the Debian packages typeset needs, only those missing. Safe to run again.
# Build: Pango/Cairo headers (and fribidi's, which Pango's pull in: joining types for broken Arabic words). Runtime: the default font. Tests: poppler/qpdf/mupdf to read PDFs back.
# Examples: Linux Libertine O, whose OpenType features (onum, smcp, f-ligatures) Examples/typography.rt shows.
# Symbola: outline emoji and symbols (✅ 🎉 ➡) that READMEs are full of, as real text (vector, extractable).
set -euo pipefail
packages=(
  pkg-config libpango1.0-dev libfribidi-dev libcairo2-dev libjpeg-dev libpng-dev librsvg2-dev
  fonts-dejavu-core fonts-dejavu-extra fonts-linuxlibertine fonts-symbola hyphen-en-us
  hyphen-de hyphen-fr hyphen-es hyphen-it hyphen-nl hyphen-pt-pt hyphen-pt-br hyphen-sv hyphen-da hyphen-no
  hyphen-pl hyphen-cs hyphen-hu hyphen-ro hyphen-ru hyphen-uk hyphen-el
  poppler-utils qpdf mupdf-tools
  libqpdf-dev icc-profiles-free
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "Installing missing packages: ${missing[*]}"
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"

#!/bin/sh
# Brings the real photographs listed in LIST (default: photos.txt beside this script) into DIR (flat, by
# their listed names), from Debian's wallpaper packages (about 150 MB of .deb files for photos.txt, 200 MB
# for Benchmarks/visitor/photos.txt): apt-get download, then dpkg-deb -x, so nothing is installed. A line
# may end with a crop, WxH+X+Y, made by jpegtran's lossless crop (libjpeg-turbo-progs). A photo whose
# bytes differ from the listed sha256 (a newer package) is still used, with a warning, since the figures
# then differ from the docs'. make decides when to run it (DIR/.done).
set -eu
dir=$1
here=$(dirname "$0")
list=${2:-"$here/photos.txt"}
label=$(basename "$(dirname "$list")")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
packages=$(grep -v '^#' "$list" | cut -d' ' -f1 | sort -u)
download() { (cd "$work" && apt-get download $packages >/dev/null 2>&1); }
download || { apt-get update -qq && download; } || {
    echo "bench-$label: could not download $packages" >&2; exit 1; }
for deb in "$work"/*.deb; do
    dpkg-deb -x "$deb" "$work/x"
done
mkdir -p "$dir"
grep -v '^#' "$list" | while read -r package path sha name crop; do
    if [ -n "$crop" ]; then
        jpegtran -copy all -crop "$crop" -outfile "$dir/$name" "$work/x$path"
    else
        cp "$work/x$path" "$dir/$name"
    fi
    actual=$(sha256sum "$dir/$name" | cut -c1-16)
    [ "$actual" = "$sha" ] || echo "bench-$label: $name ($package) has changed (sha256 $actual, listed $sha)" >&2
done
touch "$dir/.done"

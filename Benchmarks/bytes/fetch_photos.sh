#!/bin/sh
# Brings the real photographs listed in photos.txt into DIR (flat, by their listed names), from Debian's
# wallpaper packages (about 150 MB of .deb files): apt-get download, then dpkg-deb -x, so nothing is
# installed. A photo whose bytes differ from the listed sha256 (a newer package) is still used, with a
# warning, since the figures then differ from the docs'. make decides when to run it (DIR/.done).
set -eu
dir=$1
here=$(dirname "$0")
list="$here/photos.txt"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
packages=$(grep -v '^#' "$list" | cut -d' ' -f1 | sort -u)
download() { (cd "$work" && apt-get download $packages >/dev/null 2>&1); }
download || { apt-get update -qq && download; } || {
    echo "bench-bytes: could not download $packages" >&2; exit 1; }
for deb in "$work"/*.deb; do
    dpkg-deb -x "$deb" "$work/x"
done
mkdir -p "$dir"
grep -v '^#' "$list" | while read -r package path sha name; do
    cp "$work/x$path" "$dir/$name"
    actual=$(sha256sum "$dir/$name" | cut -c1-16)
    [ "$actual" = "$sha" ] || echo "bench-bytes: $name ($package) has changed (sha256 $actual, listed $sha)" >&2
done
touch "$dir/.done"

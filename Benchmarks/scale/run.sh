#!/usr/bin/env bash
# `make bench-scale`: a first build and a no-change rebuild of generated libraries of 10,000 and 100,000
# photos; wall time and peak resident memory of each. Prints figures; asserts nothing.
set -euo pipefail
waterfall=$1 data=$2
printf '\n%-10s %-22s %10s %12s %16s\n' photos build seconds "peak RSS" "RSS per 10k"
for count in 10000 100000; do
    library="$data/library-$count"
    if [ ! -f "$library/.done" ]; then
        rm -rf "$library"
        python3 "$(dirname "$0")/generate.py" "$library" "$count" >/dev/null
        touch "$library/.done"
    fi
    site="$data/site-$count"
    rm -rf "$site"
    for kind in "first build" "nothing changed"; do
        stats=$( { /usr/bin/time -f '%e %M' "$waterfall" build "$library" -o "$site" --quiet >/dev/null; } 2>&1 | tail -n 1)
        seconds=${stats% *} kilobytes=${stats#* }
        printf '%-10s %-22s %10s %9d MB %13d MB\n' "$count" "$kind" "$seconds" $((kilobytes / 1024)) \
            $((kilobytes / 1024 * 10000 / count))
    done
done

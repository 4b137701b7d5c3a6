#!/usr/bin/env python3
"""`make bench-headers`: times header reading over camera-like files, against the I/O floor and imagesize.

    run.py WATERFALL IO_FLOOR DATA_DIR FIXTURES_DIR [HEIC_DIR [METADATA_DIR]]

HEIC_DIR holds iPhone-like HEICs (generate_heic.py): timed apart, against the same floor and vipsheader
(libvips reading the header through libheif). METADATA_DIR holds JPEGs with XMP and IPTC and TIFFs
(generate_metadata.py): `inspect --metadata` against the bytes that metadata lives in, and exiftool.

All commands get the same explicit file list; each is run several times and the median wall-clock time is
reported. Each table is timed twice: with a warm page cache, where the floor is little more than the system
calls and every reader's own CPU shows, and cold, each file's cached pages dropped (posix_fadvise
DONTNEED) before every run, as a first build reads photos just copied off a card or out of a download: the
I/O floor proper. Prints figures and ratios; asserts nothing about speed.
"""
import json
import os
import shutil
import statistics
import subprocess
import sys
import time

RUNS = 5


def evict(files):
    """Drops the files' pages from the page cache, so the next read goes to the disk."""
    for path in files:
        fd = os.open(path, os.O_RDONLY)
        try:
            os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
        finally:
            os.close(fd)


def timed(command, cold=None, **kwargs):
    """The median wall-clock time of RUNS runs; with `cold` (a file list), those files evicted before each."""
    samples = []
    for _ in range(RUNS):
        if cold:
            evict(cold)
        start = time.perf_counter()
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL, **kwargs)
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def imagesize_accuracy(waterfall, fixtures):
    """How often imagesize's display size disagrees with Waterfall's on the header fixtures it can read."""
    import imagesize
    files = sorted(os.path.join(fixtures, f) for f in os.listdir(fixtures))
    ours = json.loads(subprocess.run([waterfall, "inspect", "--json", *files], capture_output=True, text=True).stdout)
    wrong = []
    for entry in ours:
        try:
            theirs = imagesize.get(entry["path"])
        except Exception as error:  # imagesize raises on some hostile files
            theirs = ("error", type(error).__name__)
        expected = (entry["width"], entry["height"]) if "width" in entry else None
        if expected is None and theirs[0] not in (-1, "error"):
            wrong.append((os.path.basename(entry["path"]), "gave %s, file is unreadable" % (theirs,)))
        elif expected is not None and tuple(theirs) != expected:
            wrong.append((os.path.basename(entry["path"]), "gave %s, display size is %s" % (theirs, expected)))
    return len(ours), wrong


def listed(data, name):
    """The folder's files, written to a list file for the C floor, with the page cache warmed."""
    files = sorted(os.path.join(data, f) for f in os.listdir(data) if not f.startswith("."))
    listing = os.path.join(data, "..", name)
    with open(listing, "w") as f:
        f.write("\n".join(files) + "\n")
    for path in files:
        with open(path, "rb") as f:
            f.read()
    return files, listing


def table(title, results, n, baseline_row):
    floor_time, baseline = results[0][1], results[baseline_row][1]
    print(f"\n{title}:\n")
    print(f"  {'command':<42} {'total':>9} {'per file':>10} {'vs floor':>9} {'vs inspect -j1':>15}")
    for name, seconds in results:
        print(f"  {name:<42} {seconds:8.3f}s {seconds / n * 1e6:8.1f}µs {seconds / floor_time:8.2f}× "
              f"{seconds / baseline:14.2f}×")


def heic(waterfall, floor, data):
    files, listing = listed(data, "heic.list")
    for cold in (None, files):
        results = [
            ("I/O floor (C: open, read 4 KiB, close)", timed([floor, listing], cold)),
            ("waterfall inspect --json --jobs 1", timed([waterfall, "inspect", "--json", "--jobs", "1", *files], cold)),
            ("waterfall inspect --json (all cores)", timed([waterfall, "inspect", "--json", *files], cold)),
        ]
        if shutil.which("vipsheader") and not cold:
            results.append(("vipsheader (libvips + libheif)", timed(["vipsheader", *files])))
        table(f"HEIC header reading, {len(files)} iPhone-like files (4032×3024 grids, Exif, ICC; "
              f"{os.cpu_count()} cores, {'cold' if cold else 'warm'} cache, median of {RUNS})", results, len(files), 1)


def metadata(waterfall, floor, data):
    files, listing = listed(data, "metadata.list")
    jpegs = sum(1 for f in files if f.endswith(".jpg"))
    title = (f"Header and metadata reading, {jpegs} JPEGs with Exif, a 6 KB XMP packet and IPTC, and {len(files) - jpegs} "
             f"TIFFs (half with their IFD after the pixels) ({os.cpu_count()} cores, %s cache, median of {RUNS})")
    for cold in (None, files):
        results = [
            ("I/O floor (C: read the metadata's bytes)", timed([floor, "--metadata", listing], cold)),
            ("waterfall inspect --metadata --jobs 1",
             timed([waterfall, "inspect", "--json", "--metadata", "--jobs", "1", *files], cold)),
            ("waterfall inspect --metadata (all cores)", timed([waterfall, "inspect", "--json", "--metadata", *files], cold)),
        ]
        if shutil.which("exiftool") and not cold:  # 30 s a run: warm only
            results.append(("exiftool -fast -j (XMP, IPTC, EXIF)", timed(["exiftool", "-fast", "-j", "-q", "-@", listing])))
        table(title % ("cold" if cold else "warm"), results, len(files), 1)


def main():
    waterfall, floor, data, fixtures = sys.argv[1:5]
    files, listing = listed(data, "headers.list")
    n = len(files)
    script = ("import imagesize,sys\nfor p in open(sys.argv[1]).read().split():\n    imagesize.get(p)\n")
    for cold in (None, files):
        results = [
            ("I/O floor (C: open, read 4 KiB, close)", timed([floor, listing], cold)),
            ("segment walker (C: hop to SOF, no libjpeg)", timed([floor, "--walk", listing], cold)),
            ("waterfall inspect --json --jobs 1", timed([waterfall, "inspect", "--json", "--jobs", "1", *files], cold)),
            ("waterfall inspect --json (all cores)", timed([waterfall, "inspect", "--json", *files], cold)),
            ("python imagesize 2.0.1 (get)", timed([sys.executable, "-c", script, listing], cold)),
        ]
        table(f"Header reading, {n} camera-like files ({os.cpu_count()} cores, {'cold' if cold else 'warm'} cache, "
              f"median of {RUNS})", results, n, 2)
    if len(sys.argv) > 5:
        heic(waterfall, floor, sys.argv[5])
    if len(sys.argv) > 6:
        metadata(waterfall, floor, sys.argv[6])
    total, wrong = imagesize_accuracy(waterfall, fixtures)
    print(f"\nimagesize disagrees with Waterfall on {len(wrong)} of {total} header fixtures:")
    for name, what in wrong:
        print(f"  {name}: {what}")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""`make bench-thumbs`: derived-image throughput against vipsthumbnail, ImageMagick and sigal, measured in
one run on the same files with a warm page cache, and the whole build against the floor of any build that
decodes each photo and writes its largest image (issue 14): libjpeg-turbo's own `djpeg` of every photo plus
`cjpeg` of every view image at the same quality, on all cores. Prints figures and ratios; asserts nothing.

    run.py WATERFALL DATA_DIR WORK_DIR [HEIC_DIR]

HEIC_DIR holds iPhone-like 12-megapixel HEICs (generate_heic.py): Waterfall against heif-convert followed
by vipsthumbnail (the libheif command-line route), and against vipsthumbnail reading the HEIC directly.
"""
import json
import os
import shutil
import subprocess
import sys
import time

WIDTH, QUALITY = 800, 82


def timed(command, **kwargs):
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, **kwargs)
    return time.perf_counter() - start


def fresh(path):
    shutil.rmtree(path, ignore_errors=True)
    os.makedirs(path)
    return path


def sigal_config(work, data, site):
    path = os.path.join(work, "sigal.conf.py")
    with open(path, "w") as f:
        f.write(f"""source = {data!r}
destination = {site!r}
img_size = (2048, 2048)
thumb_size = (1000, 1000)
thumb_fit = False
jpg_options = {{'quality': {QUALITY}, 'optimize': True}}
copy_exif_data = False
autorotate_images = True
keep_orig = False
""")
    return path


def warm(files):
    for path in files:
        with open(path, "rb") as f:
            f.read()


def floor(files, views, work, cores):
    """(decode, encode, encode with -optimize) seconds: djpeg of every photo to nowhere, cjpeg of every view
    image (made beforehand as PPM from the build's own view JPEGs, untimed), each across `cores` processes."""
    ppm = fresh(os.path.join(work, "floor-ppm"))
    for view in views:
        subprocess.run(["djpeg", "-outfile", os.path.join(ppm, os.path.basename(view) + ".ppm"), view], check=True)
    ppms = sorted(os.path.join(ppm, f) for f in os.listdir(ppm))
    warm(ppms)

    def across(command, inputs):  # `command` on every input, split over `cores` shells run at once
        chunks = [inputs[k::cores] for k in range(cores)]
        start = time.perf_counter()
        shells = [subprocess.Popen(["sh", "-c", f'for f; do {command} || exit 1; done', "_", *chunk],
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) for chunk in chunks if chunk]
        if any([shell.wait() != 0 for shell in shells]):  # wait for every shell
            raise RuntimeError(f"{command}: failed")
        return time.perf_counter() - start
    decode = across('djpeg -outfile /dev/null "$f"', files)
    encode = across(f'cjpeg -quality {QUALITY} -outfile /dev/null "$f"', ppms)
    optimized = across(f'cjpeg -quality {QUALITY} -optimize -outfile /dev/null "$f"', ppms)
    shutil.rmtree(ppm)  # about 10 MB per view
    return decode, encode, optimized


def print_rows(title, rows, n):
    print(f"\n{title}:\n")
    base = rows[0][1]
    print(f"  {'command':<48} {'time':>8} {'images/s':>9} {'waterfall is':>13}")
    for name, seconds in rows:
        print(f"  {name:<48} {seconds:7.2f}s {n / seconds:9.1f} {seconds / base:11.2f}×")


def print_split(split, wall, cores, djpeg):
    """Where the first build's work went (its --report `work`, seconds summed over the cores)."""
    total = sum(split.values())
    print(f"\nWhere the first build's work went (CPU seconds summed over {cores} cores; {wall:.2f} s of wall time):\n")
    for stage, seconds in split.items():
        print(f"  {stage:<12} {seconds:8.2f}s {100 * seconds / total:6.1f}%")
    print(f"  {'total':<12} {total:8.2f}s")
    print(f"  (djpeg decoded the same photos in {djpeg * cores:.2f} CPU seconds: the build's decode is "
          f"{split['decode'] / (djpeg * cores):.2f}× that)")


def heic(waterfall, data, work):
    files = sorted(os.path.join(data, f) for f in os.listdir(data) if f.endswith(".HEIC"))
    warm(files)
    cores = os.cpu_count()
    rows = []
    out = fresh(os.path.join(work, "heic-waterfall"))
    rows.append(("waterfall resize (all cores)", timed([waterfall, "resize", *files, "-o", out, "--width", str(WIDTH),
                                                        "--quality", str(QUALITY)])))
    out = fresh(os.path.join(work, "heic-waterfall-1"))
    rows.append(("waterfall resize --jobs 1", timed([waterfall, "resize", *files, "-o", out, "--width", str(WIDTH),
                                                     "--quality", str(QUALITY), "--jobs", "1"])))
    # heif-convert writes a full-size JPEG (quality 95, its fastest lossy route), vipsthumbnail shrinks it.
    out = fresh(os.path.join(work, "heic-convert"))
    rows.append((f"heif-convert + vipsthumbnail, {cores} processes",
                 timed(["sh", "-c", f'printf "%s\\n" "$@" | xargs -P {cores} -I{{}} sh -c \'b=$(basename "$1" .HEIC); '
                        f'heif-convert --quiet -q 95 "$1" "{out}/$b.full.jpg" && vipsthumbnail "{out}/$b.full.jpg" '
                        f'-s {WIDTH}x100000 -o "{out}/$b.jpg[Q={QUALITY},strip]" && rm "{out}/$b.full.jpg"\' _ {{}}',
                        "sh", *files])))
    out = fresh(os.path.join(work, "heic-vips"))
    rows.append(("vipsthumbnail on the HEIC (one process, threads)",
                 timed(["vipsthumbnail", *files, "-s", f"{WIDTH}x100000", "-o", os.path.join(out, f"%s.jpg[Q={QUALITY},strip]")])))
    out = fresh(os.path.join(work, "heic-vips-p"))
    rows.append((f"vipsthumbnail on the HEIC, {cores} processes",
                 timed(["sh", "-c", f'printf "%s\\n" "$@" | xargs -P {cores} -n 5 vipsthumbnail -s {WIDTH}x100000 '
                        f'-o "{out}/%s.jpg[Q={QUALITY},strip]"', "sh", *files])))
    print_rows(f"One {WIDTH}-px-wide JPEG (quality {QUALITY}) from each of {len(files)} iPhone-like 12-megapixel HEICs "
               f"(grids of 512-px tiles; {cores} cores, warm cache)", rows, len(files))


def main():
    waterfall, data, work = (os.path.abspath(p) for p in sys.argv[1:4])
    files = sorted(os.path.join(data, f) for f in os.listdir(data) if f.endswith(".jpg"))
    n = len(files)
    warm(files)
    cores = os.cpu_count()
    rows = []

    out = fresh(os.path.join(work, "waterfall"))
    rows.append(("waterfall resize (all cores)", timed([waterfall, "resize", *files, "-o", out, "--width", str(WIDTH),
                                                        "--quality", str(QUALITY)])))
    out = fresh(os.path.join(work, "waterfall-1"))
    rows.append(("waterfall resize --jobs 1", timed([waterfall, "resize", *files, "-o", out, "--width", str(WIDTH),
                                                     "--quality", str(QUALITY), "--jobs", "1"])))
    out = fresh(os.path.join(work, "vips"))
    rows.append(("vipsthumbnail (one process, its own threads)",
                 timed(["vipsthumbnail", *files, "-s", f"{WIDTH}x100000", "-o", os.path.join(out, f"%s.jpg[Q={QUALITY},strip]")])))
    out = fresh(os.path.join(work, "vips-p"))
    rows.append((f"vipsthumbnail, {cores} processes (xargs -P)",
                 timed(["sh", "-c", f'printf "%s\\n" "$@" | xargs -P {cores} -n 10 vipsthumbnail -s {WIDTH}x100000 '
                        f'-o "{out}/%s.jpg[Q={QUALITY},strip]"', "sh", *files])))
    out = fresh(os.path.join(work, "magick"))
    rows.append((f"ImageMagick convert -thumbnail, {cores} processes",
                 timed(["sh", "-c", f'printf "%s\\n" "$@" | xargs -P {cores} -I{{}} sh -c \'/usr/bin/convert -define '
                        f'jpeg:size={2 * WIDTH}x{2 * WIDTH} "$1" -auto-orient -thumbnail {WIDTH}x -strip -quality {QUALITY} '
                        f'"{out}/$(basename "$1")"\' _ {{}}', "sh", *files])))

    print_rows(f"One {WIDTH}-px-wide JPEG (quality {QUALITY}) from each of {n} camera-like 12-megapixel JPEGs "
               f"({cores} cores, warm cache)", rows, n)

    site = fresh(os.path.join(work, "site"))
    report_file = os.path.join(work, "build-report.json")
    build = timed([waterfall, "build", data, "-o", site, "--quiet", "--report", report_file])
    with open(report_file) as f:
        work_split = json.load(f)["work"]
    rebuild = timed([waterfall, "build", data, "-o", site, "--quiet"])
    sigal_site = fresh(os.path.join(work, "sigal-site"))
    sigal = os.path.join(os.path.dirname(sys.executable), "sigal")
    conf = sigal_config(work, data, sigal_site)
    sigal_time = timed([sigal, "build", "-c", conf, "-n", str(cores)])
    sigal_again = timed([sigal, "build", "-c", conf, "-n", str(cores)])
    print(f"\nWhole gallery from the same {n} photos (Waterfall: tile images of 500 and 1000 px and a 2048-px view "
          f"image each; sigal 2.5: a 1000-px thumbnail and a 2048-px image each; both quality {QUALITY}, all cores):\n")
    print(f"  {'waterfall build':<48} {build:7.2f}s {n / build:9.1f} photos/s")
    print(f"  {'sigal build':<48} {sigal_time:7.2f}s {n / sigal_time:9.1f} photos/s   waterfall is "
          f"{sigal_time / build:.1f}× faster")
    print(f"  {'waterfall build, nothing changed':<48} {rebuild:7.3f}s")
    print(f"  {'sigal build, nothing changed':<48} {sigal_again:7.3f}s")

    views = sorted(os.path.join(site, "images", "view", f) for f in os.listdir(os.path.join(site, "images", "view")))
    decode, encode, optimized = floor(files, views, work, cores)
    print(f"\nThe floor (issue 14): libjpeg-turbo's djpeg of every photo plus cjpeg -quality {QUALITY} of every view "
          f"image, {cores} processes:\n")
    print(f"  {'djpeg, every photo':<48} {decode:7.2f}s")
    print(f"  {'cjpeg, every view image':<48} {encode:7.2f}s")
    print(f"  {'cjpeg -optimize, every view image':<48} {optimized:7.2f}s   (Waterfall's encoder optimises too)")
    print(f"  {'floor: djpeg + cjpeg':<48} {decode + encode:7.2f}s   waterfall build is "
          f"{build / (decode + encode):.2f}× the floor (goal 1.3×), {build / (decode + optimized):.2f}× with -optimize")
    print_split(work_split, build, cores, decode)
    if len(sys.argv) > 4:
        heic(waterfall, os.path.abspath(sys.argv[4]), work)


if __name__ == "__main__":
    main()

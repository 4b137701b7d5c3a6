#!/usr/bin/env python3
"""`make bench-thumbs`: derived-image throughput against vipsthumbnail, ImageMagick and sigal, measured in
one run on the same files with a warm page cache, and the whole build against the floor of any build that
decodes each photo and writes its largest image (issue 14): libjpeg-turbo's own `djpeg` of every photo plus
`cjpeg` of every view image at the same quality, on all cores. Prints figures and ratios; asserts nothing.

    run.py WATERFALL DATA_DIR WORK_DIR [HEIC_DIR] [--avif DIR] [--webp DIR] [--png DIR --png-decoder PATH]
           [--gif DIR] [--formats-only]

HEIC_DIR holds iPhone-like 12-megapixel HEICs (generate_heic.py): Waterfall against heif-convert followed
by vipsthumbnail (the libheif command-line route), and against vipsthumbnail reading the HEIC directly.

Issue 14's goal holds for every format the build reads, so each other format gets the JPEG gallery's
treatment too (galleries from generate_formats.py; HEIC_DIR for HEIC): a first build into a fresh output
folder against that format's floor, its reference decoder on every photo plus cjpeg of every view image,
then the build's work split, and a table of every format's ratio at the end. --formats-only skips the JPEG
comparisons and the HEIC peers (to work on this part alone); `make bench-thumbs` runs everything.
"""
import argparse
import json
import os
import resource
import shlex
import shutil
import subprocess
import sys
import time

WIDTH, QUALITY = 800, 82


def timed(command, **kwargs):
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, **kwargs)
    return time.perf_counter() - start


def children_cpu():
    """CPU seconds (user and system) of every finished child process so far, and of the children they waited for."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def measured(function, *args):
    """(what `function` returns, the CPU seconds of the processes it ran)."""
    start = children_cpu()
    result = function(*args)
    return result, children_cpu() - start


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


def across(command, inputs, cores):
    """Seconds for the shell `command` on every input ("$f"), the inputs split over `cores` shells run at once."""
    chunks = [inputs[k::cores] for k in range(cores)]
    start = time.perf_counter()
    shells = [subprocess.Popen(["sh", "-c", f'for f; do {command} || exit 1; done', "_", *chunk],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) for chunk in chunks if chunk]
    if any([shell.wait() != 0 for shell in shells]):  # wait for every shell
        raise RuntimeError(f"{command}: failed")
    return time.perf_counter() - start


def floor(decode, files, views, work, cores):
    """(decode, encode, encode with -optimize) seconds, then the same three in CPU seconds: the shell command
    `decode` on every photo ("$f"), cjpeg of every view image (made beforehand as PPM from the build's own view
    JPEGs, untimed), each across `cores` processes."""
    ppm = fresh(os.path.join(work, "floor-ppm"))
    for view in views:
        subprocess.run(["djpeg", "-outfile", os.path.join(ppm, os.path.basename(view) + ".ppm"), view], check=True)
    ppms = sorted(os.path.join(ppm, f) for f in os.listdir(ppm))
    warm(ppms)
    runs = [measured(across, command, inputs, cores) for command, inputs in (
        (decode, files), (f'cjpeg -quality {QUALITY} -outfile /dev/null "$f"', ppms),
        (f'cjpeg -quality {QUALITY} -optimize -outfile /dev/null "$f"', ppms))]
    shutil.rmtree(ppm)  # about 10 MB per view
    return tuple(wall for wall, _ in runs), tuple(cpu for _, cpu in runs)


def print_rows(title, rows, n):
    print(f"\n{title}:\n")
    base = rows[0][1]
    print(f"  {'command':<48} {'time':>8} {'images/s':>9} {'waterfall is':>13}")
    for name, seconds in rows:
        print(f"  {name:<48} {seconds:7.2f}s {n / seconds:9.1f} {seconds / base:11.2f}×")


def print_split(split, wall, cores, decoded, decoder="djpeg"):
    """Where the first build's work went (its --report `work`, seconds summed over the cores); `decoded`: the
    wall time of the floor's decode across the cores."""
    total = sum(split.values())
    print(f"\nWhere the first build's work went (CPU seconds summed over {cores} cores; {wall:.2f} s of wall time):\n")
    for stage, seconds in split.items():
        print(f"  {stage:<12} {seconds:8.2f}s {100 * seconds / total:6.1f}%")
    print(f"  {'total':<12} {total:8.2f}s")
    print(f"  ({decoder} decoded the same photos in {decoded * cores:.2f} CPU seconds: the build's decode is "
          f"{split['decode'] / (decoded * cores):.2f}× that)")


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


def jpeg(waterfall, data, work):
    """The JPEG gallery: derived images against the peers, the whole build against sigal and against the floor.
    Returns the summary row (format, photos, build seconds, floor seconds, floor with -optimize, the build's
    CPU time over the floor's)."""
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
    build, build_cpu = measured(timed, [waterfall, "build", data, "-o", site, "--quiet", "--report", report_file])
    with open(report_file) as f:
        work_split = json.load(f)["work"]
    rebuild = timed([waterfall, "build", data, "-o", site, "--quiet"])
    sigal_site = fresh(os.path.join(work, "sigal-site"))
    sigal = os.path.join(os.path.dirname(sys.executable), "sigal")
    conf = sigal_config(work, data, sigal_site)
    sigal_time = timed([sigal, "build", "-c", conf, "-n", str(cores)])
    sigal_again = timed([sigal, "build", "-c", conf, "-n", str(cores)])
    print(f"\nWhole gallery from the same {n} photos (Waterfall: tile images at the layout's six widths, 217 to 1000 px, and a "
          f"2048-px view image each; sigal 2.5: a 1000-px thumbnail and a 2048-px image each; both quality {QUALITY}, all cores):\n")
    print(f"  {'waterfall build':<48} {build:7.2f}s {n / build:9.1f} photos/s")
    print(f"  {'sigal build':<48} {sigal_time:7.2f}s {n / sigal_time:9.1f} photos/s   waterfall is "
          f"{sigal_time / build:.1f}× faster")
    print(f"  {'waterfall build, nothing changed':<48} {rebuild:7.3f}s")
    print(f"  {'sigal build, nothing changed':<48} {sigal_again:7.3f}s")

    views = sorted(os.path.join(site, "images", "view", f) for f in os.listdir(os.path.join(site, "images", "view")))
    (decode, encode, optimized), (decode_cpu, encode_cpu, _) = floor('djpeg -outfile /dev/null "$f"', files, views,
                                                                     work, cores)
    print(f"\nThe floor (issue 14): libjpeg-turbo's djpeg of every photo plus cjpeg -quality {QUALITY} of every view "
          f"image, {cores} processes:\n")
    print(f"  {'djpeg, every photo':<48} {decode:7.2f}s")
    print(f"  {'cjpeg, every view image':<48} {encode:7.2f}s")
    print(f"  {'cjpeg -optimize, every view image':<48} {optimized:7.2f}s   (Waterfall's encoder optimises too)")
    print(f"  {'floor: djpeg + cjpeg':<48} {decode + encode:7.2f}s   waterfall build is "
          f"{build / (decode + encode):.2f}× the floor (goal 1.3×), {build / (decode + optimized):.2f}× with -optimize")
    print_cpu(build_cpu, decode_cpu + encode_cpu)
    print_split(work_split, build, cores, decode)
    return "JPEG", n, build, decode + encode, decode + optimized, build_cpu / (decode_cpu + encode_cpu)


# The other formats the build reads, each against its own floor (issue 14). A floor's decode is the format's
# reference decoder on every photo, and it stops where decoding stops: it writes the planes as they are coded
# where the tool can (no conversion to RGB) and encodes nothing, its output going to /dev/null ({null}: a
# link to /dev/null named .y4m, for the tools that choose their output format by the name). The JPEG floor's
# djpeg does convert to RGB (it cannot write YCbCr), so these floors are, if anything, the stricter ones.
#   key: (name, the photos, the floor's decoder, its shell command on "$f", [(label, command)] for reference)
FORMATS = {
    # libheif's heif-convert 1.15 with libde265: parses the file, decodes every 512-px tile, assembles the grid
    # and applies irot (the portraits turned at full size, as the build's own libheif decode does; the tool
    # has no switch to skip it), then writes the 4:2:0 planes, asked for as YCbCr 4:2:0: no RGB.
    "heic": ("HEIC", "iPhone-like 12-megapixel HEICs (grids of 512-px tiles coded by x265, half of them turned "
             "by irot)", "heif-convert to Y4M", 'heif-convert --quiet "$f" {null}', []),
    # libavif's avifdec 0.11 with dav1d on one thread (its default): decodes the AV1 image and writes its 4:2:0
    # planes as decoded (irot is a property it reports, not a turn it makes). The build decodes AVIF through
    # libheif, which also uses dav1d.
    "avif": ("AVIF", "camera-like 12-megapixel AVIFs (libaom, 4:2:0, 8 bits, half of them turned by irot)",
             "avifdec to Y4M", 'avifdec "$f" {null}', []),
    # libwebp's dwebp: decodes the VP8 image and writes its Y, U and V planes as decoded (-yuv). -ppm, timed for
    # reference, adds the conversion to RGB with libwebp's fancy upsampling: the output the build asks for.
    "webp": ("WebP", "camera-like 12-megapixel WebPs (cwebp -q 85, half of them stored as portraits)",
             "dwebp -yuv", 'dwebp -quiet -yuv "$f" -o /dev/null',
             [("dwebp -ppm (RGB), every photo", 'dwebp -quiet -ppm "$f" -o /dev/null')]),
    # libpng through png_decode.c: every row as 8-bit samples (a palette expanded, 16 bits scaled), nothing
    # written. netpbm's pngtopam, timed for reference, spends about half its time formatting its output.
    "png": ("PNG", "PNGs (16 screenshots of 2 to 4 megapixels, 4 renders, 4 camera-like 12-megapixel photos)",
            "libpng (png_decode)", '{png_decoder} "$f"', [("netpbm pngtopam, every photo", 'pngtopam "$f" >/dev/null')]),
    # giflib's gif2rgb: decodes the LZW image and maps it through the palette to RGB (a GIF has no other
    # output), written to /dev/null. These GIFs are 2 megapixels, so most of their floor is cjpeg.
    "gif": ("GIF", "still GIFs (10 dithered photos of 1600×1200, 10 screenshot-like graphics of 1920×1080)",
            "gif2rgb", 'gif2rgb -1 -o /dev/null "$f"', []),
}


def other_format(key, waterfall, data, work, png_decoder):
    """One format's gallery: the first build (fresh output folder, all cores) against the format's floor, and
    the build's work split. Returns the summary row, as jpeg() does."""
    name, what, decoder, command, references = FORMATS[key]
    files = sorted(os.path.join(data, f) for f in os.listdir(data) if not f.startswith("."))
    n, cores = len(files), os.cpu_count()
    warm(files)
    site = fresh(os.path.join(work, f"{key}-site"))
    report_file = os.path.join(work, f"{key}-report.json")
    build, build_cpu = measured(timed, [waterfall, "build", data, "-o", site, "--quiet", "--report", report_file])
    with open(report_file) as f:
        report = json.load(f)
    view_folder = os.path.join(site, "images", "view")
    views = sorted(os.path.join(view_folder, f) for f in os.listdir(view_folder))
    if report["photos"] != n or len(views) != n or not all(view.endswith(".jpg") for view in views):
        raise RuntimeError(f"{name}: {report['photos']} of {n} photos read, {len(views)} view images: the floor "
                           f"needs one JPEG view image per photo")
    null = os.path.join(work, "NULL.y4m")
    if not os.path.islink(null):
        os.symlink(os.devnull, null)
    command = command.format(null=shlex.quote(null), png_decoder=shlex.quote(png_decoder or ""))
    (decode, encode, optimized), (decode_cpu, encode_cpu, _) = floor(command, files, views, work, cores)
    timed_references = [(label, across(reference, files, cores)) for label, reference in references]
    size = sum(os.path.getsize(f) for f in files) / n / 1e6
    print(f"\n{name}: the whole gallery of {n} {what}, {size:.1f} MB each, against its floor: {decoder} of every "
          f"photo plus cjpeg -quality {QUALITY} of every view image, {cores} processes:\n")
    print(f"  {'waterfall build (fresh output, all cores)':<48} {build:7.2f}s {n / build:9.1f} photos/s")
    print(f"  {decoder + ', every photo':<48} {decode:7.2f}s")
    for label, seconds in timed_references:
        print(f"  {label:<48} {seconds:7.2f}s   (for reference, not in the floor)")
    print(f"  {'cjpeg, every view image':<48} {encode:7.2f}s")
    print(f"  {'cjpeg -optimize, every view image':<48} {optimized:7.2f}s")
    print(f"  {'floor: ' + decoder + ' + cjpeg':<48} {decode + encode:7.2f}s   waterfall build is "
          f"{build / (decode + encode):.2f}× the floor (goal 1.3×), {build / (decode + optimized):.2f}× with -optimize")
    print_cpu(build_cpu, decode_cpu + encode_cpu)
    print_split(report["work"], build, cores, decode, decoder)
    return name, n, build, decode + encode, decode + optimized, build_cpu / (decode_cpu + encode_cpu)


def print_cpu(build, floor_cpu):
    """The build's CPU time against the floor's (cjpeg without -optimize): the machine's other load moves it
    less than the wall times, but it cannot see a core the build leaves idle."""
    print(f"  {'CPU time: build, floor':<48} {build:7.2f}s {floor_cpu:7.2f}s   the build took {build / floor_cpu:.2f}× "
          f"the floor's CPU time")


def print_summary(rows):
    print(f"\nEvery format's first build against its floor (issue 14's goal: within 1.3× of the wall time; "
          f"{os.cpu_count()} cores):\n")
    print(f"  {'format':<8} {'photos':>6} {'build':>9} {'floor':>9} {'ratio':>7} {'with -optimize':>15} {'in CPU time':>12}")
    for name, n, build, plain, optimized, cpu in rows:
        print(f"  {name:<8} {n:6d} {build:8.2f}s {plain:8.2f}s {build / plain:6.2f}× {build / optimized:14.2f}× "
              f"{cpu:11.2f}×")


def main():
    parser = argparse.ArgumentParser(description="make bench-thumbs: derived images and whole builds against "
                                                 "their peers and against each format's floor (issue 14)")
    parser.add_argument("waterfall")
    parser.add_argument("data", help="the camera-like JPEGs (generate.py)")
    parser.add_argument("work", help="scratch folder for outputs")
    parser.add_argument("heic", nargs="?", help="the iPhone-like HEICs (generate_heic.py)")
    for key in ("avif", "webp", "png", "gif"):
        parser.add_argument(f"--{key}", metavar="DIR", help=f"the {FORMATS[key][0]} gallery (generate_formats.py)")
    parser.add_argument("--png-decoder", metavar="PATH", help="png_decode, built from png_decode.c (with --png)")
    parser.add_argument("--formats-only", action="store_true",
                        help="only the formats other than JPEG against their floors (no JPEG part, no HEIC peers)")
    args = parser.parse_args()
    if args.png and not args.png_decoder:
        parser.error("--png needs --png-decoder")
    waterfall, work = os.path.abspath(args.waterfall), os.path.abspath(args.work)
    os.makedirs(work, exist_ok=True)
    summary = []
    if not args.formats_only:
        summary.append(jpeg(waterfall, os.path.abspath(args.data), work))
        if args.heic:
            heic(waterfall, os.path.abspath(args.heic), work)
    for key in FORMATS:
        data = args.heic if key == "heic" else getattr(args, key)
        if data:
            summary.append(other_format(key, waterfall, os.path.abspath(data), work,
                                        args.png_decoder and os.path.abspath(args.png_decoder)))
    print_summary(summary)


if __name__ == "__main__":
    main()

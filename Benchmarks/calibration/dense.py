#!/usr/bin/env python3
"""Issue 27: how much lower the JPEG quality of tiles that only dense screens take may be.

For each photo: a lossless reference at a width (Waterfall's own decode and Lanczos-3, ./harness ref), the
gallery's JPEG of it at each quality (./harness enc jpeg), and SSIMULACRA2 (PyPI ssimulacra2) of the JPEG
against the reference as a screen of density d shows it: both scaled down by d (Pillow's Lanczos), since a
d× screen puts d×d device pixels where a 1× screen puts one. Printed: the median and 10th percentile score
and the bytes per (width, density, quality).

    .venv/bin/python Benchmarks/calibration/dense.py HARNESS PHOTO_FOLDER WORK_FOLDER

(make bench-bytes builds the harness at .bench/calibration-harness; the photos of bench-visitor are in
.bench/visitor-photos.) About 8 minutes on 2 cores for 40 photos.
"""
import glob, os, statistics, subprocess, sys
from multiprocessing import Pool

from PIL import Image
from ssimulacra2 import compute_ssimulacra2

QUALITIES = [82, 78, 75, 72, 70, 68, 65]
# (width, densities): the 1× tile of a 1440-px desktop, and the phone's 3× tile seen at 1×, 2× and 3×.
CASES = [(276, (1,)), (540, (1, 2, 3)), (810, (2, 3))]


def scores(job):
    harness, photo, work = job
    name = os.path.splitext(os.path.basename(photo))[0]
    out = {}
    for width, densities in CASES:
        ref = f"{work}/{name}.{width}.png"
        subprocess.run([harness, "ref", photo, ref, str(width), "100000"], check=True, capture_output=True)
        reference = Image.open(ref).convert("RGB")
        for quality in QUALITIES:
            jpeg = f"{work}/{name}.{width}.q{quality}.jpg"
            subprocess.run([harness, "enc", "jpeg", ref, jpeg, "1", str(quality)], check=True, capture_output=True)
            image = Image.open(jpeg).convert("RGB")
            for density in densities:
                size = (round(reference.width / density), round(reference.height / density))
                seen_ref, seen = f"{work}/{name}.{width}.d{density}.ref.png", f"{work}/{name}.{width}.q{quality}.d{density}.png"
                reference.resize(size, Image.LANCZOS).save(seen_ref)
                image.resize(size, Image.LANCZOS).save(seen)
                out[(width, quality, density)] = (compute_ssimulacra2(seen_ref, seen), os.path.getsize(jpeg))
    return out


def main():
    harness, photos, work = sys.argv[1:4]
    os.makedirs(work, exist_ok=True)
    jobs = [(harness, p, work) for p in sorted(glob.glob(os.path.join(photos, "*.jpg")))]
    with Pool(os.cpu_count()) as pool:
        results = pool.map(scores, jobs)
    print("| width | density | quality | median SSIMULACRA2 | 10th percentile | bytes |")
    print("|---:|---:|---:|---:|---:|---:|")
    for width, densities in CASES:
        for density in densities:
            for quality in QUALITIES:
                values = sorted(r[(width, quality, density)][0] for r in results)
                total = sum(r[(width, quality, density)][1] for r in results)
                print(f"| {width} | {density}× | {quality} | {statistics.median(values):.2f} | "
                      f"{values[len(values) // 10]:.2f} | {total} |")


if __name__ == "__main__":
    main()

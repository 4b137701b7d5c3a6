#!/usr/bin/env python3
"""Issue 13, second calibration: real camera-size photos (both tile and view downscaled), AVIF encoder variants.

The first study (calibrate.py) had no photo over 2048 px. This one uses the photographs in Debian's wallpaper
packages (fetched by `fetch_photos.sh`, not committed), 1920-6028 px wide, so every tile (500 px wide) and every
view (long edge 2048) is a real downscale, as for a camera's photos.

For each photo, size and AVIF variant it bisects the highest quantizer (fewest bytes) whose SSIMULACRA2 is at
least the JPEG q82's on that photo, and reports the bytes against the JPEG. Then one quantizer per variant (the
median-score rule of calibrate.py) and its bytes and encode time.

  realphotos.py PHOTO_DIR WORK_DIR tile|view VARIANT...      VARIANT = s9 | s9:tune=ssim | s6:444 | s10:rav1e | webp4 ...
  realphotos.py PHOTO_DIR WORK_DIR tile|view --fixed VARIANT@Q ...   (Q: AVIF quantizer, WebP quality)

Needs a Python with ssimulacra2 and Pillow (`make bench-bytes` puts both in .venv), avifdec and dwebp, and the
harness (HARNESS, default ./harness; `make bench-bytes` builds it as .bench/calibration-harness). For example:
    HARNESS=.bench/calibration-harness .venv/bin/python Benchmarks/calibration/realphotos.py .bench/photos \
        /tmp/work tile s9:enable-qm=1 webp4
"""
import json
import multiprocessing as mp
import os
import statistics
import subprocess
import sys
import tempfile

HARNESS = os.environ.get("HARNESS", os.path.join(os.path.dirname(os.path.abspath(__file__)), "harness"))
SIZES = {"tile": (500, 0), "view": (2048, 2048)}


def run(args, env=None):
    return subprocess.run(args, check=True, capture_output=True, text=True, env=env).stdout.strip()


def parse_variant(v):
    """'s9:tune=ssim:444' -> ('avif', 9, {'AVIF_OPTS': 'tune=ssim', 'AVIF_YUV': '444'}); 'webp4' -> ('webp', 4, {})."""
    if v.startswith("webp"):
        return "webp", int(v[4:]), {}
    parts = v.split(":")
    env, opts = {}, []
    for p in parts[1:]:
        if p in ("rav1e", "svt"):
            env["AVIF_CODEC"] = p
        elif p == "444":
            env["AVIF_YUV"] = "444"
        elif p == "10bit":
            env["AVIF_DEPTH"] = "10"
        else:
            opts.append(p)
    if opts:
        env["AVIF_OPTS"] = ",".join(opts)
    return "avif", int(parts[0][1:]), env


def evaluate(job):
    """(ref, fmt, param, env, q, work) -> (bytes, score, cpu seconds)."""
    ref, fmt, param, extra, q, work = job
    from ssimulacra2 import compute_ssimulacra2
    env = dict(os.environ, **extra)
    with tempfile.TemporaryDirectory(dir=work) as d:
        out = os.path.join(d, "o." + fmt)
        if fmt == "jpeg":
            line = run([HARNESS, "enc", "jpeg", ref, out, "1", str(q)])
            dec = out
        elif fmt == "webp":
            line = run([HARNESS, "enc", "webp", ref, out, "1", str(q), str(param)])
            dec = os.path.join(d, "d.png")
            run(["dwebp", "-quiet", out, "-o", dec])
        else:
            line = run([HARNESS, "enc", "avif", ref, out, "1", str(q), str(param), env.get("AVIF_CODEC", "aom")], env=env)
            dec = os.path.join(d, "d.png")
            run(["avifdec", "-j", "1", "-d", "8", out, dec])  # 8-bit PNG whatever the AVIF's depth
        f = line.split()
        return int(f[0]), float(compute_ssimulacra2(ref, dec)), float(f[1])


class Study:
    def __init__(self, photos, work, size):
        self.work, self.size = work, size
        self.cache_path = os.path.join(work, f"cache-{size}.json")
        self.cache = json.load(open(self.cache_path)) if os.path.exists(self.cache_path) else {}
        self.refs = {}
        os.makedirs(os.path.join(work, "refs"), exist_ok=True)
        for name in sorted(n for n in os.listdir(photos) if n.lower().endswith((".jpg", ".jpeg", ".png"))):
            label = os.path.splitext(name)[0]
            ref = os.path.join(work, "refs", f"{label}.{size}.png")
            if not os.path.exists(ref):
                w, h = SIZES[size]
                run([HARNESS, "ref", os.path.join(photos, name), ref, str(w), str(h)])
            self.refs[label] = ref
        self.pool = mp.Pool(2)

    def many(self, keys):
        """keys: [(label, variant, q)] -> evaluates what is not cached, in parallel."""
        todo = [k for k in dict.fromkeys(keys) if "|".join(map(str, k)) not in self.cache]
        jobs = []
        for label, variant, q in todo:
            fmt, param, env = ("jpeg", 0, {}) if variant == "jpeg" else parse_variant(variant)
            jobs.append((self.refs[label], fmt, param, env, q, self.work))
        for k, r in zip(todo, self.pool.map(evaluate, jobs)):
            self.cache["|".join(map(str, k))] = r
        if todo:
            json.dump(self.cache, open(self.cache_path, "w"))
        return [self.cache["|".join(map(str, k))] for k in keys]

    def match(self, variant):
        """Per photo: the lowest quality whose score >= the JPEG's. Bisection, all photos stepped together."""
        labels = list(self.refs)
        jpeg = dict(zip(labels, self.many([(l, "jpeg", 82) for l in labels])))
        avif = not variant.startswith("webp")
        # AVIF: higher quantizer = fewer bytes; WebP: lower quality = fewer bytes. lo is always "good enough".
        lo = {l: (0 if avif else 100) for l in labels}
        hi = {l: (63 if avif else 30) for l in labels}
        while any(abs(hi[l] - lo[l]) > 1 for l in labels):
            mids = {l: (lo[l] + hi[l]) // 2 for l in labels if abs(hi[l] - lo[l]) > 1}
            res = dict(zip(mids, self.many([(l, variant, q) for l, q in mids.items()])))
            for l, q in mids.items():
                if res[l][1] >= jpeg[l][1]:
                    lo[l] = q
                else:
                    hi[l] = q
        got = dict(zip(labels, self.many([(l, variant, lo[l]) for l in labels])))
        return jpeg, lo, got

    def global_setting(self, variant, matched):
        """One quality for all photos: the cheapest for which median score >= JPEG median and median delta >= 0."""
        labels = list(self.refs)
        jpeg = dict(zip(labels, self.many([(l, "jpeg", 82) for l in labels])))
        jmed = statistics.median(v[1] for v in jpeg.values())
        avif = not variant.startswith("webp")
        q = int(statistics.median(matched.values()))
        step = -1 if avif else 1  # towards higher quality

        def ok(q):
            r = dict(zip(labels, self.many([(l, variant, q) for l in labels])))
            return (statistics.median(v[1] for v in r.values()) >= jmed
                    and statistics.median(r[l][1] - jpeg[l][1] for l in labels) >= 0), r
        good, r = ok(q)
        while not good:
            q += step
            if not 0 <= q <= 100:
                raise RuntimeError(f"{variant}: no quality reaches the JPEG's median")
            good, r = ok(q)
        while True:
            g2, r2 = ok(q - step)
            if not g2:
                break
            q, r = q - step, r2
        return q, jpeg, r


def fixed(s, settings):
    """Each VARIANT@Q as it is (no search): its scores and bytes against the JPEG's."""
    labels = list(s.refs)
    jpeg = dict(zip(labels, s.many([(l, "jpeg", 82) for l in labels])))
    jmed = statistics.median(v[1] for v in jpeg.values())
    print(f"## {s.size}: {len(labels)} photos, fixed settings against JPEG q82\n")
    print("| setting | median S2 (JPEG) | median Δ S2 / min Δ | bytes vs JPEG: median / total | encode CPU vs JPEG (sum) |")
    print("|---|---|---|---|---|")
    for setting in settings:
        variant, q = setting.split("@")
        r = dict(zip(labels, s.many([(l, variant, int(q)) for l in labels])))
        deltas = [r[l][1] - jpeg[l][1] for l in labels]
        ratios = [r[l][0] / jpeg[l][0] for l in labels]
        tot = sum(r[l][0] for l in labels) / sum(jpeg[l][0] for l in labels)
        tratio = sum(r[l][2] for l in labels) / sum(jpeg[l][2] for l in labels)
        print(f"| {setting} | {statistics.median(v[1] for v in r.values()):.2f} ({jmed:.2f}) | "
              f"{statistics.median(deltas):+.2f} / {min(deltas):+.2f} | {statistics.median(ratios):.3f} / {tot:.3f} | {tratio:.1f} |",
              flush=True)


def main():
    photos, work, size, variants = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
    s = Study(photos, work, size)
    if variants and variants[0] == "--fixed":
        return fixed(s, variants[1:])
    labels = list(s.refs)
    print(f"## {size}: {len(labels)} photos, JPEG q82 as the bar\n")
    print("| variant | matched q: median (min-max) | bytes vs JPEG at per-photo match: median / total "
          "| one setting | its median S2 (JPEG) | its bytes vs JPEG: median / total | encode CPU vs JPEG (sum) |")
    print("|---|---|---|---|---|---|---|")
    for v in variants:
        jpeg, q, got = s.match(v)
        ratios = [got[l][0] / jpeg[l][0] for l in labels]
        tot = sum(got[l][0] for l in labels) / sum(jpeg[l][0] for l in labels)
        gq, _, gr = s.global_setting(v, q)
        gratios = [gr[l][0] / jpeg[l][0] for l in labels]
        gtot = sum(gr[l][0] for l in labels) / sum(jpeg[l][0] for l in labels)
        jmed = statistics.median(jpeg[l][1] for l in labels)
        gmed = statistics.median(gr[l][1] for l in labels)
        tratio = sum(gr[l][2] for l in labels) / sum(jpeg[l][2] for l in labels)
        qs = list(q.values())
        print(f"| {v} | {statistics.median(qs):g} ({min(qs)}-{max(qs)}) | {statistics.median(ratios):.3f} / {tot:.3f} "
              f"| {gq} | {gmed:.2f} ({jmed:.2f}) | {statistics.median(gratios):.3f} / {gtot:.3f} | {tratio:.1f} |", flush=True)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Issue 13 calibration: AVIF and WebP qualities that score like today's JPEG q82 on SSIMULACRA2.

Reproducible: a fixed photo list, the gallery's own decoder + Lanczos-3 (Waterfall's CImageIO linked into
./harness, built from harness.c against a clone of /work/main) for the lossless references, the gallery's exact
libjpeg settings for the JPEG, libwebp / libavif through their C APIs in the same harness (single thread,
input already in memory), avifdec / dwebp for decoding back to PNG, PyPI ssimulacra2 for the scores.

    ./calibrate.py refs        make refs/ (tile 500 wide, view long edge 2048; never upscaled) + JPEG q82
    ./calibrate.py search      per photo: bisection for the quality that matches the JPEG's score, per setting;
                               then one quality per setting (the lowest whose median score and median
                               score-minus-JPEG are >= the JPEG's on BOTH tile and view sets)
    ./calibrate.py search-downscaled   the same choice made on the downscaled tiles only (see results.md)
    ./calibrate.py time        encode times (best of N, serial) for JPEG q82 and each setting's chosen quality
    ./calibrate.py retime      interleaved re-timing; keeps the minimum over all passes
    ./calibrate.py build       cost model of a first build of SampleGallery (decode+resample+JPEG vs extra encodes)
    ./calibrate.py report      results-tables.md (results.md = the written summary + these tables)
Everything evaluated is cached in cache.json, so each step can be re-run and resumed.
"""
import hashlib, json, os, statistics, subprocess, sys, tempfile
from multiprocessing import Pool

HERE = os.path.dirname(os.path.abspath(__file__))
HARNESS = os.path.join(HERE, "harness")
SG = os.path.join(HERE, "..", "..", "SampleGallery")
CONF = os.environ.get("CALIBRATION_CONFORMANCE", "/work/shared/conformance/exif-orientation")
CACHE = os.path.join(HERE, "cache.json")
REFS = os.path.join(HERE, "refs")
WORK = os.path.join(HERE, "work")

# (label, path, note). 12 distinct scenes + the Phone album's two HEICs (astronaut-grid is the astronaut scene
# through the HEIC decoder; rocket-gantry-turned is a rotated crop of the rocket scene, through HEIC + irot).
PHOTOS = [
    ("astronaut-heic", f"{SG}/Phone/astronaut-grid.heic", "skimage astronaut (NASA), 512x512, HEIC grid"),
    ("rocket-launch", f"{SG}/Space/rocket-launch.jpg", "skimage rocket (SpaceX), 640x427"),
    ("rocket-gantry-heic", f"{SG}/Phone/rocket-gantry-turned.heic", "crop of the rocket, 240x426 HEIC (not distinct)"),
    ("hubble", f"{SG}/Space/Hubble/hubble-deep-field.jpg", "skimage hubble_deep_field, 1000x872"),
    ("chelsea", f"{SG}/chelsea-the-cat.jpg", "skimage chelsea (cat), 451x300"),
    ("coffee", f"{SG}/coffee-cup.jpg", "skimage coffee, 600x400"),
    ("cameraman", f"{SG}/cameraman.jpg", "skimage camera, 512x512 grey"),
    ("retina", f"{SG}/retina-fundus.jpg", "skimage retina, 1411x1411"),
    ("brick", f"{SG}/brick-wall.jpg", "skimage brick, 512x512 grey texture"),
    ("gravel", f"{SG}/gravel.png", "skimage gravel, 512x384 grey texture (PNG source)"),
    ("clock", f"{SG}/clock-motion-blur.jpg", "skimage clock, 400x300 grey"),
    ("hubble-galaxy", f"{SG}/Space/Hubble/hubble-galaxy-10.png", "crop of hubble, 340x220 (PNG source; not distinct)"),
    ("landscape", f"{CONF}/Landscape_1.jpg", "exif-orientation-examples waterfall landscape, 1800x1200"),
    ("portrait", f"{CONF}/Portrait_1.jpg", "exif-orientation-examples waterfall portrait, 1200x1800"),
]
SIZES = {"tile": (500, 0), "view": (2048, 2048)}

# Settings searched. WebP: libwebp quality 0-100, method M. AVIF: libaom, quantizer 0-63 (min = max), speed S.
SETTINGS = [("webp", 4), ("webp", 6), ("avif", 4), ("avif", 6), ("avif", 8), ("avif", 9)]
RANGE = {"webp": (30, 100), "avif": (0, 55)}  # bisection bounds


def skey(fmt, param):
    return f"{fmt}-{'m' if fmt == 'webp' else 's'}{param}"


def load_cache():
    if os.path.exists(CACHE):
        with open(CACHE) as f:
            return json.load(f)
    return {"refs": {}, "evals": {}, "match": {}, "chosen": {}, "times": {}, "build": {}}


def save_cache(c):
    tmp = CACHE + ".tmp"
    with open(tmp, "w") as f:
        json.dump(c, f, indent=1, sort_keys=True)
    os.replace(tmp, CACHE)


def run(args):
    return subprocess.run(args, check=True, capture_output=True, text=True).stdout.strip()


def ssim2(ref, dist):
    from ssimulacra2 import compute_ssimulacra2
    return float(compute_ssimulacra2(ref, dist))


def ref_path(label, size):
    return os.path.join(REFS, f"{label}.{size}.png")


def encode_and_score(label, size, fmt, param, q, reps=1):
    """Encode the reference with the harness, decode back to PNG, score. -> (bytes, score, seconds)."""
    ref = ref_path(label, size)
    os.makedirs(WORK, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=WORK) as d:
        out = os.path.join(d, f"o.{fmt}")
        if fmt == "jpeg":
            line = run([HARNESS, "enc", "jpeg", ref, out, str(reps), str(q)])
            dec = out
        elif fmt == "webp":
            line = run([HARNESS, "enc", "webp", ref, out, str(reps), str(q), str(param)])
            dec = os.path.join(d, "d.png")
            run(["dwebp", "-quiet", out, "-o", dec])
        else:
            line = run([HARNESS, "enc", "avif", ref, out, str(reps), str(q), str(param)])
            dec = os.path.join(d, "d.png")
            run(["avifdec", "-j", "1", out, dec])
        size_b, tmin = int(line.split()[0]), float(line.split()[1])
        return size_b, ssim2(ref, dec), tmin


# ---------------------------------------------------------------- refs

def cmd_refs():
    c = load_cache()
    os.makedirs(REFS, exist_ok=True)
    for label, path, _ in PHOTOS:
        for size, (w, h) in SIZES.items():
            out = ref_path(label, size)
            dims = run([HARNESS, "ref", path, out, str(w), str(h)]).split()
            with open(out, "rb") as f:
                digest = hashlib.sha1(f.read()).hexdigest()
            c["refs"][f"{label}.{size}"] = {"w": int(dims[0]), "h": int(dims[1]), "channels": int(dims[2]),
                                             "dct_scale": int(dims[3]), "sha1": digest}
    save_cache(c)
    # JPEG q82 of every ref (the gallery's encoder, byte-identical to `waterfall resize`)
    jobs = [(l, s) for l, _, _ in PHOTOS for s in SIZES]
    with Pool(2) as pool:
        res = pool.starmap(_jpeg_job, jobs)
    for (l, s), (b, sc, _) in zip(jobs, res):
        c["evals"][f"{l}.{s}|jpeg|82"] = [b, sc]
        print(f"{l:20s} {s:5s} {c['refs'][f'{l}.{s}']['w']}x{c['refs'][f'{l}.{s}']['h']} jpeg82 {b:7d} B  ssimulacra2 {sc:6.2f}")
    save_cache(c)


def _jpeg_job(label, size):
    return encode_and_score(label, size, "jpeg", 0, 82)


# ---------------------------------------------------------------- search

def _eval(evals, label, size, fmt, param, q):
    key = f"{label}.{size}|{skey(fmt, param)}|{q}"
    if key not in evals:
        b, s, _ = encode_and_score(label, size, fmt, param, q)
        evals[key] = [b, s]
    return evals[key]


def better(fmt, q):  # the next-higher-quality setting
    return q - 1 if fmt == "avif" else q + 1


def _match_job(label, size, fmt, param, target, evals):
    """Bisection: the lowest quality (webp: smallest q; avif: largest quantizer) scoring >= target."""
    lo, hi = RANGE[fmt]
    new = {}
    view = new_or(evals, new)
    get = lambda q: _eval(view, label, size, fmt, param, q)
    if fmt == "webp":  # find smallest q in [lo, hi] with score >= target
        if get(hi)[1] < target:
            return hi, new, False
        while hi - lo > 1:
            mid = (lo + hi) // 2
            if get(mid)[1] >= target: hi = mid
            else: lo = mid
        return hi, new, True
    else:  # avif: largest quantizer in [lo, hi] with score >= target
        if get(lo)[1] < target:
            return lo, new, False
        while hi - lo > 1:
            mid = (lo + hi) // 2
            if get(mid)[1] >= target: lo = mid
            else: hi = mid
        return lo, new, True


class new_or(dict):
    """A dict view: reads from base and new, writes to new (so workers return only what they computed)."""
    def __init__(self, base, new):
        super().__init__()
        self.base, self.new = base, new
    def __contains__(self, k): return k in self.new or k in self.base
    def __getitem__(self, k): return self.new[k] if k in self.new else self.base[k]
    def __setitem__(self, k, v): self.new[k] = v


def _global_eval_job(label, size, fmt, param, q, evals):
    new = {}
    _eval(new_or(evals, new), label, size, fmt, param, q)
    return new


def criterion(c, fmt, param, q):
    """For each size: median score, min score, median and min of (score - JPEG score)."""
    out = {}
    for size in SIZES:
        sc, d = [], []
        for label, _, _ in PHOTOS:
            b, s = c["evals"][f"{label}.{size}|{skey(fmt, param)}|{q}"]
            j = c["evals"][f"{label}.{size}|jpeg|82"][1]
            sc.append(s); d.append(s - j)
        jm = statistics.median(c["evals"][f"{l}.{size}|jpeg|82"][1] for l, _, _ in PHOTOS)
        out[size] = {"median": statistics.median(sc), "min": min(sc), "jpeg_median": jm,
                     "median_delta": statistics.median(d), "min_delta": min(d), "max_delta": max(d),
                     "ok": statistics.median(sc) >= jm and statistics.median(d) >= 0}
    return out


# The decision is made on the TILE set: every tile is a Lanczos downscale, as views of real (camera-size) photos
# are. In this photo set no view is downscaled (no photo has a long edge over 2048), so the view set measures
# re-encoding a JPEG-compressed source at its own size and on its own 8x8 grid, which favours JPEG; it is
# reported, not used to choose.
DECIDE_ON = ("tile",)


def cmd_search(only=None):
    c = load_cache()
    settings = [s for s in SETTINGS if only is None or skey(*s) in only]
    jobs = []
    for fmt, param in settings:
        for label, _, _ in PHOTOS:
            for size in SIZES:
                if f"{label}.{size}|{skey(fmt, param)}" in c["match"]:
                    continue
                jobs.append((label, size, fmt, param, c["evals"][f"{label}.{size}|jpeg|82"][1], c["evals"]))
    # biggest first for load balance
    jobs.sort(key=lambda j: -c["refs"][f"{j[0]}.{j[1]}"]["w"] * c["refs"][f"{j[0]}.{j[1]}"]["h"] * (3 if j[3] == 4 and j[2] == "avif" else 1))
    with Pool(2) as pool:
        for job, (q, new, found) in zip(jobs, pool.starmap(_match_job, jobs)):
            label, size, fmt, param = job[:4]
            c["evals"].update(new)
            c["match"][f"{label}.{size}|{skey(fmt, param)}"] = [q, found]
            print(f"match {label:20s} {size:5s} {skey(fmt, param):8s} q={q} {'' if found else '(bound)'}", flush=True)
        save_cache(c)
        # one quality per setting
        for fmt, param in settings:
            k = skey(fmt, param)
            qs = [c["match"][f"{l}.{s}|{k}"][0] for l, _, _ in PHOTOS for s in DECIDE_ON]
            q = int(round(statistics.median(qs)))
            tried = {}
            while True:
                missing = [(l, s, fmt, param, q, c["evals"]) for l, _, _ in PHOTOS for s in SIZES
                           if f"{l}.{s}|{k}|{q}" not in c["evals"]]
                for new in pool.starmap(_global_eval_job, missing):
                    c["evals"].update(new)
                crit = criterion(c, fmt, param, q)
                tried[q] = all(crit[s]["ok"] for s in DECIDE_ON)
                print(f"global {k} q={q} ok={tried[q]} " + " ".join(
                    f"{s}: med {v['median']:.2f} (jpeg {v['jpeg_median']:.2f}) dmed {v['median_delta']:+.2f} dmin {v['min_delta']:+.2f}"
                    for s, v in crit.items()), flush=True)
                save_cache(c)
                worse = q + 1 if fmt == "avif" else q - 1
                if tried[q] and worse not in tried:
                    q = worse
                elif not tried[q] and better(fmt, q) not in tried:
                    q = better(fmt, q)
                else:
                    break
            ok = [x for x, v in tried.items() if v]
            chosen = (max(ok) if fmt == "avif" else min(ok)) if ok else None
            c["chosen"][k] = chosen
            print(f"chosen {k}: {chosen}", flush=True)
            save_cache(c)


def cmd_search_downscaled():
    """The same choice, made on the tiles that are real downscales only (what every tile and view of a camera-size
    photo is): the lowest quality whose median score >= the JPEG's median and median delta >= 0 on that subset."""
    c = load_cache()
    sub = [l for l, _, _ in PHOTOS if c["refs"][f"{l}.tile"]["w"] < c["refs"][f"{l}.view"]["w"]]
    c.setdefault("chosen_ds", {})
    jm = statistics.median(c["evals"][f"{l}.tile|jpeg|82"][1] for l in sub)
    with Pool(2) as pool:
        for fmt, param in SETTINGS:
            k = skey(fmt, param)
            q = int(round(statistics.median(c["match"][f"{l}.tile|{k}"][0] for l in sub)))
            tried = {}
            while True:
                missing = [(l, "tile", fmt, param, q, c["evals"]) for l in sub if f"{l}.tile|{k}|{q}" not in c["evals"]]
                for new in pool.starmap(_global_eval_job, missing):
                    c["evals"].update(new)
                sc = [c["evals"][f"{l}.tile|{k}|{q}"][1] for l in sub]
                d = [x - c["evals"][f"{l}.tile|jpeg|82"][1] for x, l in zip(sc, sub)]
                tried[q] = statistics.median(sc) >= jm and statistics.median(d) >= 0
                print(f"downscaled {k} q={q} ok={tried[q]} med {statistics.median(sc):.2f} (jpeg {jm:.2f}) dmed {statistics.median(d):+.2f} dmin {min(d):+.2f}", flush=True)
                save_cache(c)
                worse = q + 1 if fmt == "avif" else q - 1
                if tried[q] and worse not in tried: q = worse
                elif not tried[q] and better(fmt, q) not in tried: q = better(fmt, q)
                else: break
            ok = [x for x, v in tried.items() if v]
            c["chosen_ds"][k] = (max(ok) if fmt == "avif" else min(ok)) if ok else None
            save_cache(c)
    # encode times at those qualities (serial, CPU time, best of 5)
    for fmt, param in SETTINGS:
        k = skey(fmt, param); q = c["chosen_ds"][k]
        for l in sub:
            key = f"{l}.tile|{k}|{q}"
            if key in c["times"]: continue
            line = run([HARNESS, "enc", fmt, ref_path(l, "tile"), os.path.join(WORK, "t.out"), "5", str(q), str(param)]).split()
            c["times"][key] = [int(line[0]), float(line[1]), float(line[2])]
        save_cache(c)
    print("chosen (downscaled tiles):", c["chosen_ds"])


# ---------------------------------------------------------------- timing

def cmd_time(reps_tile=7, reps_view=3):
    c = load_cache()
    plan = [("jpeg", 0, 82)] + [(f, p, c["chosen"][skey(f, p)]) for f, p in SETTINGS if c["chosen"].get(skey(f, p)) is not None]
    for label, _, _ in PHOTOS:
        for size in SIZES:
            ref = ref_path(label, size)
            for fmt, param, q in plan:
                key = f"{label}.{size}|{'jpeg' if fmt == 'jpeg' else skey(fmt, param)}|{q}"
                if key in c["times"]:
                    continue
                mp = c["refs"][f"{label}.{size}"]["w"] * c["refs"][f"{label}.{size}"]["h"] / 1e6
                reps = reps_view if mp > 0.5 else reps_tile
                if fmt == "avif" and param == 4: reps = max(2, reps // 2)
                args = [HARNESS, "enc", fmt, ref, os.path.join(WORK, "t.out"), str(reps), str(q)] + ([str(param)] if fmt != "jpeg" else [])
                line = run(args).split()
                c["times"][key] = [int(line[0]), float(line[1]), float(line[2])]
                print(f"time {key} {line[0]} B {float(line[1])*1000:.1f} ms", flush=True)
            save_cache(c)


def cmd_retime(rounds=3):
    """The machine is shared (other jobs come and go), so CPU times drift by up to ~1.8x between passes. This pass
    interleaves the formats photo by photo, round after round, and keeps for each the minimum over every pass."""
    c = load_cache()
    plan = {("jpeg", 0, 82)}
    for key in ("chosen", "chosen_ds"):
        for f, p in SETTINGS:
            q = c.get(key, {}).get(skey(f, p))
            if q is not None: plan.add((f, p, q))
    plan = sorted(plan, key=lambda x: (x[0], x[1], x[2]))
    for r in range(rounds):
        for label, _, _ in PHOTOS:
            for size in SIZES:
                for fmt, param, q in plan:
                    key = f"{label}.{size}|{'jpeg' if fmt == 'jpeg' else skey(fmt, param)}|{q}"
                    reps = 3 if fmt == "jpeg" else 1
                    args = [HARNESS, "enc", fmt, ref_path(label, size), os.path.join(WORK, "t.out"), str(reps), str(q)] + ([str(param)] if fmt != "jpeg" else [])
                    line = run(args).split()
                    old = c["times"].get(key)
                    t = float(line[1])
                    c["times"][key] = [int(line[0]), min(t, old[1]) if old else t, old[2] if old else float(line[2])]
        save_cache(c)
        print("round", r + 1, "done", flush=True)


# ---------------------------------------------------------------- first-build cost model (SampleGallery)

def cmd_build():
    """For each still in SampleGallery with its build's boxes (tiles 500 and 1000 wide, view 2048): time
    wf_derive_set (decode + resample + JPEG, what the build does per photo) and the JPEG / WebP / AVIF encodes of
    the same lossless outputs. Times: best of 5, serial."""
    c = load_cache()
    boxes = [(500, 0), (1000, 0), (2048, 2048)]
    photos = []
    for root, _, files in os.walk(SG):
        for f in sorted(files):
            if f.endswith((".jpg", ".png", ".heic", ".avif", ".webp")):
                photos.append(os.path.join(root, f))
    photos.sort()
    plan = [("jpeg", 0, 82)] + [(f, p, c["chosen"][skey(f, p)]) for f, p in SETTINGS if c["chosen"].get(skey(f, p)) is not None]
    os.makedirs(os.path.join(WORK, "build"), exist_ok=True)
    out = {}
    for p in photos:
        d = tempfile.mkdtemp(dir=os.path.join(WORK, "build"))
        try:
            line = run([HARNESS, "derive", p, d, "5"] + [str(x) for b in boxes for x in b]).split()
        except subprocess.CalledProcessError as e:
            print("skip", p, e.stderr.strip()); continue
        dims = sorted(set(line[1:]))  # identical sizes are made once by the build (clamped to the photo)
        rec = {"derive_s": float(line[0]), "outputs": dims, "enc": {}}
        for i, (w, h) in enumerate(boxes):
            ref = os.path.join(d, f"r{i}.png")
            dd = run([HARNESS, "ref", p, ref, str(w), str(h)]).split()
            if int(dd[2]) in (2, 4):
                rec["alpha"] = True
        refs = {}
        for i in range(len(boxes)):
            ref = os.path.join(d, f"r{i}.png")
            dim = run(["identify", "-format", "%wx%h", ref])
            refs.setdefault(dim, ref)
        for dim, ref in refs.items():
            for fmt, param, q in plan:
                if rec.get("alpha"): continue
                args = [HARNESS, "enc", fmt, ref, os.path.join(d, "t.out"), "3", str(q)] + ([str(param)] if fmt != "jpeg" else [])
                l = run(args).split()
                k = "jpeg" if fmt == "jpeg" else skey(fmt, param)
                rec["enc"].setdefault(k, [0, 0.0])
                rec["enc"][k][0] += int(l[0]); rec["enc"][k][1] += float(l[1])
        out[os.path.relpath(p, SG)] = rec
        print(os.path.relpath(p, SG), rec, flush=True)
        subprocess.run(["rm", "-rf", d])
    c["build"] = out
    save_cache(c)


# ---------------------------------------------------------------- report

def cmd_report():
    c = load_cache()
    L = []
    w = L.append
    labels = [l for l, _, _ in PHOTOS]
    w("## Per-photo JPEG q82 reference scores\n")
    w("| photo | source | tile px | tile JPEG B | tile S2 | view px | view JPEG B | view S2 |")
    w("|---|---|---|---|---|---|---|---|")
    for label, path, note in PHOTOS:
        t, v = c["refs"][f"{label}.tile"], c["refs"][f"{label}.view"]
        jt, jv = c["evals"][f"{label}.tile|jpeg|82"], c["evals"][f"{label}.view|jpeg|82"]
        w(f"| {label} | {note} | {t['w']}x{t['h']} | {jt[0]} | {jt[1]:.2f} | {v['w']}x{v['h']} | {jv[0]} | {jv[1]:.2f} |")
    w("\n## Per-photo matched quality (bisection: lowest quality scoring >= that photo's JPEG q82)\n")
    ks = [skey(f, p) for f, p in SETTINGS]
    w("| photo | size | " + " | ".join(ks) + " |")
    w("|---|---|" + "---|" * len(ks))
    for label in labels:
        for size in SIZES:
            cells = []
            for k in ks:
                m = c["match"].get(f"{label}.{size}|{k}")
                cells.append("-" if m is None else f"{m[0]}{'' if m[1] else '*'}")
            w(f"| {label} | {size} | " + " | ".join(cells) + " |")
    w("\n(* = the bound of the search range was reached.)\n")
    for k in ks:
        qs = [c["match"][f"{l}.{s}|{k}"][0] for l in labels for s in SIZES if f"{l}.{s}|{k}" in c["match"]]
        if qs:
            w(f"- {k}: matched quality median {statistics.median(qs)}, range {min(qs)}–{max(qs)}")
    def resized(l):  # the tile is a real downscale (the view is the photo's own size: none is over 2048)
        return c["refs"][f"{l}.tile"]["w"] < c["refs"][f"{l}.view"]["w"]
    sets = [("tile", "tile", labels), ("view", "view", labels),
            ("tile, downscaled only", "tile", [l for l in labels if resized(l)])]
    w("\n## Summary at the chosen quality\n")
    w("Sets: tile = all 14 photos at 500 px wide (never upscaled: 4 are smaller, so they are re-encoded at their own size); "
      "view = all 14 at their own size (no photo exceeds 2048); tile, downscaled only = the "
      f"{len(sets[2][2])} photos whose tile is a real Lanczos downscale.\n")
    w("| format | settings | set | median S2 (JPEG) | min S2 (JPEG min) | median Δ vs JPEG | min Δ / max Δ | bytes vs JPEG | encode CPU time/MP vs JPEG | bytes saved per extra encode-second |")
    w("|---|---|---|---|---|---|---|---|---|---|")
    for name, size, subset in sets:
        jb = sum(c["evals"][f"{l}.{size}|jpeg|82"][0] for l in subset)
        jsc = [c["evals"][f"{l}.{size}|jpeg|82"][1] for l in subset]
        mp = sum(c["refs"][f"{l}.{size}"]["w"] * c["refs"][f"{l}.{size}"]["h"] for l in subset) / 1e6
        jtime = sum(c["times"][f"{l}.{size}|jpeg|82"][1] for l in subset)
        w(f"| JPEG | q82 (today) | {name} | {statistics.median(jsc):.2f} | {min(jsc):.2f} | 0 | 0 | 1.000 ({jb/1024:.0f} KiB) | 1.0 ({jtime/mp*1000:.1f} ms/MP) | – |")
        for f, p in SETTINGS:
            k = skey(f, p)
            q = c["chosen"].get(k)
            if q is None: continue
            sc = [c["evals"][f"{l}.{size}|{k}|{q}"][1] for l in subset]
            d = [c["evals"][f"{l}.{size}|{k}|{q}"][1] - c["evals"][f"{l}.{size}|jpeg|82"][1] for l in subset]
            b = sum(c["evals"][f"{l}.{size}|{k}|{q}"][0] for l in subset)
            t = sum(c["times"][f"{l}.{size}|{k}|{q}"][1] for l in subset)
            saved = (jb - b) / (t - jtime)
            qtxt = f"q{q} m{p}" if f == "webp" else f"qz {q} (-q {round(100 - q * 100 / 63)}) s{p}"
            w(f"| {f.upper()} | {qtxt} | {name} | {statistics.median(sc):.2f} ({statistics.median(jsc):.2f}) | {min(sc):.2f} ({min(jsc):.2f}) | "
              f"{statistics.median(d):+.2f} | {min(d):+.2f} / {max(d):+.2f} | {b / jb:.3f} | {t / jtime:.1f} ({t/mp*1000:.0f} ms/MP) | {saved/1024:.0f} KiB/s |")
    if c.get("chosen_ds"):
        sub = sets[2][2]
        w("\n## The same choice made on the downscaled tiles only (`search-downscaled`)\n")
        w("| format | settings | median S2 (JPEG) | median Δ | min Δ / max Δ | bytes vs JPEG | encode CPU time vs JPEG | bytes saved per extra encode-second |")
        w("|---|---|---|---|---|---|---|---|")
        jb = sum(c["evals"][f"{l}.tile|jpeg|82"][0] for l in sub)
        jt = sum(c["times"][f"{l}.tile|jpeg|82"][1] for l in sub)
        jsc = [c["evals"][f"{l}.tile|jpeg|82"][1] for l in sub]
        for f, p in SETTINGS:
            k = skey(f, p); q = c["chosen_ds"][k]
            sc = [c["evals"][f"{l}.tile|{k}|{q}"][1] for l in sub]
            d = [x - y for x, y in zip(sc, jsc)]
            b = sum(c["evals"][f"{l}.tile|{k}|{q}"][0] for l in sub)
            t = sum(c["times"][f"{l}.tile|{k}|{q}"][1] for l in sub)
            qtxt = f"q{q} m{p}" if f == "webp" else f"qz {q} (-q {round(100 - q * 100 / 63)}) s{p}"
            w(f"| {f.upper()} | {qtxt} | {statistics.median(sc):.2f} ({statistics.median(jsc):.2f}) | {statistics.median(d):+.2f} | "
              f"{min(d):+.2f} / {max(d):+.2f} | {b/jb:.3f} | {t/jt:.1f} | {(jb-b)/(t-jt)/1024:.0f} KiB/s |")
    w("\n## Per-photo Δ SSIMULACRA2 (format − JPEG q82) at the chosen quality, tile set\n")
    w("| photo | tile downscaled? | JPEG S2 | " + " | ".join(f"{k} {c['chosen'][k]}" for k in ks) + " |")
    w("|---|---|---|" + "---|" * len(ks))
    for l in labels:
        j = c["evals"][f"{l}.tile|jpeg|82"][1]
        deltas = []
        for k in ks:
            deltas.append(f"{c['evals'][l + '.tile|' + k + '|' + str(c['chosen'][k])][1] - j:+.1f}")
        w(f"| {l} | {'yes' if resized(l) else 'no'} | {j:.2f} | " + " | ".join(deltas) + " |")
    if c.get("build"):
        w("\n## First build of SampleGallery: cost model\n")
        tot_derive = sum(r["derive_s"] for r in c["build"].values())
        enc = {}
        for r in c["build"].values():
            for k, (b, t) in r["enc"].items():
                enc.setdefault(k, [0, 0.0]); enc[k][0] += b; enc[k][1] += t
        w(f"- decode + resample + JPEG (wf_derive_set, all boxes, best of 5, 1 thread): {tot_derive*1000:.0f} ms over {len(c['build'])} photos")
        if "jpeg" in enc:
            w(f"- of which JPEG encode: {enc['jpeg'][1]*1000:.0f} ms ({enc['jpeg'][1]/tot_derive*100:.0f}%), {enc['jpeg'][0]} B (opaque stills only)")
        for k, (b, t) in enc.items():
            if k == "jpeg": continue
            w(f"- + {k} q{c['chosen'][k]}: +{t*1000:.0f} ms (image work ×{(tot_derive + t)/tot_derive:.2f}), {b} B ({b/enc['jpeg'][0]:.3f} of JPEG)")
    with open(os.path.join(HERE, "results-tables.md"), "w") as f:
        f.write("\n".join(L) + "\n")
    print("\n".join(L))


if __name__ == "__main__":
    cmd = sys.argv[1] if len(sys.argv) > 1 else "report"
    if cmd == "refs": cmd_refs()
    elif cmd == "search": cmd_search(sys.argv[2:] or None)
    elif cmd == "search-downscaled": cmd_search_downscaled()
    elif cmd == "time": cmd_time()
    elif cmd == "retime": cmd_retime()
    elif cmd == "build": cmd_build()
    elif cmd == "report": cmd_report()
    else: sys.exit(__doc__)

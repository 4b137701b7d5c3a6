"""Hostile cases: what a careless or hostile user puts in front of `waterfall build`, generated from a seed.

A case is data, not code, so that it can be printed, replayed, shrunk and turned into a shell script:

- `Feature`s: small groups of `Node`s (a folder, a file, a symlink or a FIFO, by path relative to the
  sandbox) that together make one hostile thing ("a photo with a newline in its name", "a sidecar linked
  to a secret outside the input"). Dropping any feature leaves a valid case, which is what shrinking does.
- `Build` and `Mutation` steps, run in order. A mutation picks its target from what is on disk when it
  runs (sorted listings and its own seeded RNG), so a case replays identically, and still replays when
  shrinking has removed the thing it would have touched (it then does nothing).

The sandbox of a case (all under one temporary folder):

    input/     the photos: every kind of entry `waterfall build` must survive
    outside/   files that must never reach the site: text files and real photos carrying marker tokens
    out/       the output, holding the user's own files (decoys) before the first build
    theme/     optionally a copy of Templates/ with hostile edits (--templates theme)
    cache/, stuff/, victim/   optionally: a cache folder, an existing folder of someone else's files

Everything is deterministic for (seed, index): `random.Random` seeded with a string is stable across runs
and Python versions, and nothing here reads the clock or the temporary folder's name.
"""
from __future__ import annotations

import base64
import json
import os
import random
import shutil
import struct
import unicodedata
import zlib
from dataclasses import dataclass, field, replace
from pathlib import Path

import bombs
import disk

REPO = Path(__file__).resolve().parents[2]
FIXTURES = REPO / "Tests" / "WaterfallKitTests" / "Fixtures"
GALLERY = FIXTURES / "gallery"
PNGSUITE = FIXTURES / "conformance" / "pngsuite"
TEMPLATES = REPO / "Templates"

# Small real photos. The PngSuite's x*.png files are broken on purpose, so they serve as junk.
JPEGS = sorted(p.name for p in GALLERY.glob("*.jpg") if p.name != "not-a-photo.jpg")
GALLERY_PNGS = sorted(p.name for p in GALLERY.glob("*.png"))
SUITE_PNGS = sorted(p.name for p in PNGSUITE.glob("*.png") if not p.name.startswith("x"))
ALPHA_PNGS = ["basn6a08.png", "basn4a08.png", "bgan6a08.png", "basi6a16.png"]  # derived images stay PNG
OPAQUE_PNGS = ["basn2c08.png", "basn0g08.png", "basi2c08.png"]  # derived images become NAME.png.jpg
SMALL_JPEG = "clock-motion-blur.jpg"
# A real video (a phone's portrait H.264 MP4, 222 KB), published as it is.
VIDEO = "SampleGallery/Phone/hubble-pan.mp4"

# Extensions `waterfall build` treats as photos (Photo.extensions in the Swift sources).
PHOTO_EXTENSIONS = {
    "jpg", "jpeg", "jpe", "jfif", "pjpeg", "png", "apng", "gif", "webp", "heic", "heif", "avif", "bmp",
    "tif", "tiff", "jxl", "jp2", "j2k", "ico", "psd", "dng", "qoi",
    # and videos (ImageFormat.videoExtensions)
    "mp4", "m4v", "mov", "qt", "3gp", "3g2", "webm", "mkv", "avi",
}

NAME_MAX = 255  # bytes in one file name (Linux)

# Prefix of every marker token: a word no input, theme or template ever contains, so any occurrence of it
# in the site is a leak from outside.
MARKER_PREFIX = "zqsecret"

# Issue 26's additions: a HEIF reference ring in every fifth case, a frame bomb in every fifth (each kind in
# turn); and in cases whose builds can read photos (the cache is one the build accepts, nothing makes every
# build refuse: about half), swaps during the first build, and a small disk for the output (out/ a tmpfs that
# a build fills).
SWAP_RATE, DISK_RATE = 0.30, 0.16
# And, in any case, the last build's site compared with a fresh build's.
FRESH_RATE = 0.15
SWAP_KINDS = ["link-out", "rewrite", "flip", "fifo", "delete", "album-link-out"]
SWAP_WEIGHTS = [35, 15, 15, 10, 10, 15]
DISK_MUTATIONS = {"shrink-disk", "add-large", "grow-disk"}
# Photos the small disk has no room for: real photos of some 30-150 KB, whose images take more than a
# shrunk disk's slack (at most 48 KB).
LARGE_PHOTOS = ["SampleGallery/retina-fundus.jpg", "SampleGallery/cameraman.jpg", "SampleGallery/brick-wall.jpg",
                "SampleGallery/coffee-cup.jpg", "SampleGallery/retina-vessels-tall.jpg"]


# Photos that no build can read: each must be skipped with a warning (and fail a --strict build).
JUNK = {
    "empty": lambda: b"",
    "truncated-jpeg": lambda: fixture(SMALL_JPEG).read_bytes()[:150],
    "not-a-photo": lambda: (GALLERY / "not-a-photo.jpg").read_bytes(),
    "png-bad-signature": lambda: (PNGSUITE / "xs1n0g01.png").read_bytes(),
    "png-bad-ihdr-crc": lambda: (PNGSUITE / "xhdn0g08.png").read_bytes(),
    "gif": lambda: b"GIF89a\x01\x00\x01\x00\x00\x00\x00;",
    "truncated-video": lambda: (REPO / VIDEO).read_bytes()[:3000],
    "not-a-video": lambda: b"ftyp? no: a note saved as a movie\n",
}


def junk_bytes(kind: str) -> bytes:
    return JUNK[kind]()


def fixture(name: str) -> Path:
    """The path of a fixture photo by file name (gallery first, then the PngSuite)."""
    path = GALLERY / name
    return path if path.exists() else PNGSUITE / name


def is_photo_name(name: bytes) -> bool:
    """Whether `waterfall build` looks at a file of this name as a photo (by extension, case ignored)."""
    stem, dot, extension = name.rpartition(b".")
    return bool(dot) and extension.decode("latin-1").lower() in PHOTO_EXTENSIONS


# MARK: - What a case is made of


@dataclass(frozen=True)
class Node:
    """One entry on disk, by path relative to the sandbox.

    kind: "dir", "file", "link" or "fifo". A file's bytes are `chunk * repeat` (huge files stay small in
    memory and in scripts), a fixture copied as it is (`source`, relative to the repository), or a hostile
    image of bombs.py (`bomb`, its kind). A link's `target` is used as it is, unless `absolute`: then it is
    a path in the sandbox, made absolute on disk.
    """

    path: bytes
    kind: str
    chunk: bytes = b""
    repeat: int = 1
    source: str | None = None
    target: bytes = b""
    absolute: bool = False
    bomb: str | None = None


@dataclass
class Feature:
    """A hostile thing, as the nodes that make it. `tokens` maps outside paths to their marker tokens;
    `whole` features (the theme's copy of Templates/) are never shrunk node by node; `fatal` ones make every
    build refuse at once (a refused config or theme, a user's index.html where the site's goes), so that a
    case holding one never reads a photo: no swaps or small disk for it."""

    name: str
    nodes: list[Node]
    tokens: dict[bytes, str] = field(default_factory=dict)
    whole: bool = False
    fatal: bool = False


@dataclass(frozen=True)
class Swap:
    """Changes made to the input while a build runs (swapper.py): one kind per target, the targets drawn
    with Random(seed) from what is on disk at that point."""

    seed: int
    kinds: tuple[str, ...]

    def describe(self) -> str:
        return "swaps during it: " + ", ".join(self.kinds)


@dataclass(frozen=True)
class Build:
    """One `waterfall build` (two at once into the same output when `concurrent`). `swap`: the input changes
    while it runs; `fresh`: its site is compared with a fresh build's (a new output and cache); `full_disk`:
    the output's small disk has no room for what it must write."""

    originals: str | None = None  # None: the option is not given
    strict: bool = False
    follow: bool = False
    concurrent: bool = False
    jobs: int | None = None
    swap: Swap | None = None
    fresh: bool = False
    full_disk: bool = False
    zip: bool = False

    def describe(self) -> str:
        flags = self.flags()
        text = "build" + (" " + " ".join(flags) if flags else "")
        text += " (two at once)" if self.concurrent else ""
        text += f" ({self.swap.describe()})" if self.swap else ""
        text += " (on a full disk)" if self.full_disk else ""
        return text + (" (then compared with a fresh build)" if self.fresh else "")

    def flags(self) -> list[str]:
        flags = []
        if self.originals is not None:
            flags += ["--originals", self.originals]
        if self.strict:
            flags.append("--strict")
        if self.follow:
            flags.append("--follow-symlinks")
        if self.jobs is not None:
            flags += ["--jobs", str(self.jobs)]
        if self.zip:
            flags.append("--zip")
        return flags


@dataclass(frozen=True)
class Mutation:
    """A change between builds; the target is chosen on disk when it runs, with Random(seed)."""

    # rename-newline, rename-album, delete, add, replace, poison-cache, restore-tmp-link, drop-configs; and for
    # the small disk shrink-disk, add-large, grow-disk; after swaps during a build, restore-swapped
    kind: str
    seed: int

    def describe(self) -> str:
        return f"mutate: {self.kind}"


@dataclass
class Case:
    """A whole case: the sandbox's contents, the options that hold for every build, and the steps."""

    seed: str
    index: int
    features: list[Feature]
    theme: bool  # build with --templates theme
    cache: str | None  # --cache-dir, relative to the sandbox; None for the default (out/.waterfall/cache)
    steps: list[Build | Mutation]
    disk: bool = False  # out/ is a small tmpfs (disk.py): mounted when the harness runs as root

    def without_disk(self) -> "Case":
        """The case without its small disk and the steps that need one."""
        steps = [s for s in self.steps if not (isinstance(s, Mutation) and s.kind in DISK_MUTATIONS)]
        return replace(self, disk=False, steps=[replace(s, full_disk=False) if isinstance(s, Build) else s for s in steps])

    @property
    def label(self) -> str:
        return f"seed {self.seed} case {self.index}"

    def tokens(self) -> dict[bytes, str]:
        """Every outside path that carries a marker token, with its token."""
        found: dict[bytes, str] = {}
        for feature in self.features:
            found.update(feature.tokens)
        return found

    def describe(self) -> str:
        lines = [f"{self.label}: theme={'theme' if self.theme else 'default'} "
                 f"cache={self.cache or 'default'}" + (" out=a small tmpfs" if self.disk else "")]
        for feature in self.features:
            paths = ", ".join(show(n.path) + ("/" if n.kind == "dir" else "") +
                              (f" -> {show(n.target)}" if n.kind == "link" else "") +
                              (" (fifo)" if n.kind == "fifo" else "")
                              for n in feature.nodes[:4])
            more = f", … {len(feature.nodes) - 4} more" if len(feature.nodes) > 4 else ""
            lines.append(f"  + {feature.name}: {paths}{more}")
        for step in self.steps:
            lines.append(f"  > {step.describe()}")
        return "\n".join(lines)


def show(path: bytes) -> str:
    """A path for messages: printable, with control characters and invalid bytes escaped."""
    text = path.decode("utf-8", "backslashreplace")
    shown = "".join(ch if ch.isprintable() or ch == "\\" else repr(ch)[1:-1] for ch in text)
    return shown if unicodedata.is_normalized("NFC", text) else shown + " (NFD)"


# MARK: - Generating a case


class Generator:
    """Draws one case from a seeded RNG. Each `feature_*` method adds one hostile thing."""

    def __init__(self, seed: str, index: int):
        self.seed, self.index = seed, index
        self.rng = random.Random(f"waterfall-hostile:{seed}:{index}")
        # Issue 26's additions draw from a stream of their own, so that every case keeps what it held before.
        self.extra = random.Random(f"waterfall-hostile-26:{seed}:{index}")
        # And the albums' archives (--zip) from one of theirs.
        self.zips = random.Random(f"waterfall-hostile-zip:{seed}:{index}")
        self.features: list[Feature] = []
        self.photos: list[bytes] = []  # photos made so far (sandbox paths), for sidecars and links
        self.albums: list[bytes] = [b"input"]  # folders a photo may go into
        self.outside_photos: list[bytes] = []
        self.outside_texts: list[bytes] = []
        self.outside_dirs: list[bytes] = []
        self.outside_configs: list[bytes] = []
        self.used: set[bytes] = set()

    # -- helpers

    def token(self) -> str:
        return MARKER_PREFIX + "".join(self.rng.choice("abcdefghijklmnopqrstuvwxyz0123456789") for _ in range(10))

    def add(self, name: str, nodes: list[Node], tokens: dict[bytes, str] | None = None, whole: bool = False,
            fatal: bool = False) -> None:
        # A name over 255 bytes cannot be made at all (a sidecar of a 255-byte photo name, say): left out.
        nodes = [n for n in nodes if all(len(part) <= NAME_MAX for part in n.path.split(b"/"))]
        if nodes:
            self.features.append(Feature(name, nodes, tokens or {}, whole, fatal))
        for node in nodes:
            self.used.add(node.path)

    def unique(self, path: bytes) -> bytes:
        """`path`, or a variant of it that no earlier node uses (so features never overwrite each other)."""
        if path not in self.used:
            return path
        folder, _, name = path.rpartition(b"/")
        stem, dot, extension = name.rpartition(b".")
        if not dot:
            stem, extension = name, b""
        for n in range(2, 1000):
            suffix = b"-" + str(n).encode() + (b"." + extension if dot else b"")
            candidate = folder + b"/" + stem[:NAME_MAX - len(suffix)] + suffix
            if candidate not in self.used:
                return candidate
        raise AssertionError("no free name")

    def photo_node(self, path: bytes, kind: str = "any") -> Node:
        """A real photo at `path`: a small JPEG or PNG fixture (or an alpha/opaque PNG when asked)."""
        if kind == "jpeg":
            name = self.rng.choice(JPEGS)
        elif kind == "alpha":
            name = self.rng.choice(ALPHA_PNGS)
        elif kind == "opaque-png":
            name = self.rng.choice(OPAQUE_PNGS)
        else:
            name = self.rng.choice(JPEGS + GALLERY_PNGS + SUITE_PNGS[:40])
        return Node(path, "file", source=str(fixture(name).relative_to(REPO)))

    def album(self) -> bytes:
        return self.rng.choice(self.albums)

    def plain_stem(self) -> bytes:
        return self.rng.choice([
            "beach", "IMG_2", "IMG_10", "Sunset at Dawn", "café", "naïve", "日本の夏", "wave🌊", "a&b", "q?x=1",
            "hash#tag", "100%", "quote\"s", "it's", "<script>alert(1)</script>", "a,b 2x", "semi;colon",
            "plus+sign", "trailing space ", " leading", "back\\slash", "colon:name", "@home", "[x]", "{y}",
        ]).encode()

    def photo_extension(self, kind: str = "any") -> bytes:
        if kind == "alpha" or kind == "opaque-png":
            return b".png"
        return self.rng.choice([b".jpg", b".jpg", b".JPG", b".jpeg", b".png"])

    # -- the outside world and the output's own files (always made; shrinking may drop them)

    def make_outside(self) -> None:
        for n in range(self.rng.randint(1, 2)):
            token = self.token()
            path = b"outside/secret-" + token.encode() + b".txt"
            text = f"{token}\nThis text lives outside the input: {token}\n".encode()
            self.outside_texts.append(path)
            self.add("outside secret text", [Node(path, "file", chunk=text)], {path: token})
        for kind in ["png", "jpeg"]:
            token = self.token()
            path = b"outside/photo-" + token.encode() + (b".png" if kind == "png" else b".jpg")
            data = marked_photo(kind, token, self.rng)
            self.outside_photos.append(path)
            self.add("outside photo", [Node(path, "file", chunk=data)], {path: token})
        token, inner = self.token(), self.token()
        folder = b"outside/album-" + token.encode()
        photo = folder + b"/pic-" + inner.encode() + b".png"
        self.outside_dirs.append(folder)
        self.add("outside folder of photos", [Node(folder, "dir"), Node(photo, "file", chunk=marked_photo("png", inner, self.rng))],
                 {folder: token, photo: inner})
        token = self.token()
        config = b"outside/config-" + token.encode() + b".json"
        self.outside_configs.append(config)
        self.add("outside config", [Node(config, "file", chunk=json.dumps({"title": token, "description": token}).encode())],
                 {config: token})

    def make_output(self) -> None:
        readme = b"# My site\n\nThese are my own notes; Waterfall must never touch them.\n"
        self.add("decoy README.md in the output", [Node(b"out/README.md", "file", chunk=readme)])
        self.add("decoy logo.png in the output",
                 [Node(b"out/logo.png", "file", source=str(fixture("basn3p08.png").relative_to(REPO)))])
        roll = self.rng.random()
        if roll < 0.25:
            where = self.rng.choice([b"out/photos/keep.txt", b"out/assets/custom.css", b"out/images/mine.jpg",
                                     b"out/originals/notes.txt"])
            self.add("decoy inside a generated folder", [Node(where, "file", chunk=b"mine, not Waterfall's\n")])
        elif roll < 0.28:
            self.add("decoy where the site's index.html goes", [Node(b"out/index.html", "file", chunk=b"<p>my own page</p>\n")],
                     fatal=True)
        if self.rng.random() < 0.10:
            victim = [Node(b"victim", "dir"), Node(b"victim/precious.txt", "file", chunk=b"precious\n"),
                      Node(b"victim/1-1.jpg", "file", chunk=b"not a temporary file\n")]
            self.add("restored output: .waterfall/tmp is a symlink to a folder of other files",
                     victim + [Node(b"out/.waterfall", "dir"),
                               Node(b"out/.waterfall/tmp", "link", target=b"victim", absolute=True)], fatal=True)
        if self.rng.random() < 0.08:
            forged = b"README.md\nlogo.png\n../outside/secret.txt\n/etc/hostname\nimages\n"
            self.add("restored output: a manifest that lists the user's files",
                     [Node(b"out/.waterfall", "dir"), Node(b"out/.waterfall/manifest", "file", chunk=forged)])

    # -- the input's features

    def feature_photo(self) -> None:
        folder = self.album()
        path = self.unique(folder + b"/" + self.plain_stem() + self.photo_extension())
        self.photos.append(path)
        self.add("photo", [self.photo_node(path)])

    def feature_video(self) -> None:
        """A real video among the photos, under a photo-like name."""
        path = self.unique(self.album() + b"/" + self.plain_stem() + self.rng.choice([b".mp4", b".MOV", b".m4v"]))
        self.photos.append(path)
        self.add("video", [Node(path, "file", source=VIDEO)])

    def feature_album(self) -> None:
        parent = self.album() if self.rng.random() < 0.3 else b"input"
        name = self.rng.choice([b"Trips", b"2024", b"Family & Friends", b"caf\xc3\xa9", b"a#b", b"100%", b"x?y", b"Sub Album"])
        folder = self.unique(parent + b"/" + name)
        nodes = [Node(folder, "dir")]
        for _ in range(self.rng.randint(1, 3)):
            path = folder + b"/" + self.plain_stem() + self.photo_extension()
            if any(n.path == path for n in nodes):
                continue
            nodes.append(self.photo_node(path))
            self.photos.append(path)
        self.albums.append(folder)
        self.add("album", nodes)

    def feature_sidecar(self) -> None:
        if not self.photos:
            self.feature_photo()
        photo = self.rng.choice(self.photos)
        stem = photo.rpartition(b".")[0] if self.rng.random() < 0.5 else photo
        path = stem + self.rng.choice([b".txt", b".txt", b".TXT"])
        if path in self.used:
            return  # the photo has this caption already
        kind = self.rng.choice(["plain", "crlf", "huge", "html", "invalid-utf8", "bom", "empty", "control"])
        chunk, repeat = {
            "plain": (b"A title\nA longer description.\n", 1),
            "crlf": (b"Title line\r\nSecond line\r\nThird\r\n", 1),
            "huge": (b"0123456789abcdefghijklmnopqrstuvwxyz caption text that goes on and on\n",
                     self.rng.choice([1000, 1200, 20000])),
            "html": (b"<a href=\"missing.html\">x</a><img src=\"nope.png\" srcset=\"nope2.png 2x\">\n"
                     b"</figcaption><script>alert(1)</script>&amp;\n", 1),
            "invalid-utf8": (b"bad \xff\xfe bytes \xc3\x28\n", 1),
            "bom": (b"\xef\xbb\xbfTitle after a BOM\n", 1),
            "empty": (b"", 1),
            "control": (b"ti\x1b[31mtle\x07\x00nul\n", 1),
        }[kind]
        self.add(f"sidecar caption ({kind})", [Node(path, "file", chunk=chunk, repeat=repeat)])

    def feature_control_name(self) -> None:
        control = self.rng.choice([b"\n", b"\t", b"\r", b"\x1b", b"\r\n", b"\x7f"])
        if self.rng.random() < 0.35:
            # Aimed at the line-based manifest: `images/500/x` + a line that is exactly the decoy's name.
            path = self.unique(b"input/x\nlogo.png")
            self.photos.append(path)
            self.add("photo named 'x\\nlogo.png' (an alpha PNG, so its images keep the name)",
                     [self.photo_node(path, "alpha")])
        elif self.rng.random() < 0.5:
            path = self.unique(self.album() + b"/name" + control + b"here" + self.photo_extension())
            self.photos.append(path)
            self.add(f"photo with {show(control)} in its name", [self.photo_node(path)])
        else:
            folder = self.unique(b"input/Album" + control + b"Two")
            photo = folder + b"/p" + control + b".jpg"
            self.photos.append(photo)
            self.add(f"album with {show(control)} in its name", [Node(folder, "dir"), self.photo_node(photo, "jpeg")])

    def feature_invalid_utf8(self) -> None:
        bad = self.rng.choice([b"\xff", b"\xc3\x28", b"\x80", b"\xed\xa0\x80", b"\xfe\xfe"])
        roll = self.rng.random()
        if roll < 0.5:
            path = self.unique(self.album() + b"/bad" + bad + b"name.jpg")
            self.add("photo whose name is not UTF-8", [self.photo_node(path, "jpeg")])
        elif roll < 0.85:
            folder = self.unique(b"input/album" + bad)
            self.add("album whose name is not UTF-8", [Node(folder, "dir"), self.photo_node(folder + b"/inside.jpg", "jpeg")])
        else:
            if not self.photos:
                self.feature_photo()
            photo = self.rng.choice(self.photos)
            self.add("sidecar whose name is not UTF-8",
                     [Node(self.unique(photo.rpartition(b".")[0] + bad + b".txt"), "file", chunk=b"caption\n")])

    def feature_long_name(self) -> None:
        length = self.rng.choice([251, 252, 253, 254, 255])
        filler = self.rng.choice([b"a", "é".encode()])
        extension = b".jpg"
        stem = filler * ((length - len(extension)) // len(filler))
        stem += b"b" * (length - len(extension) - len(stem))
        if self.rng.random() < 0.7:
            path = self.unique(self.album() + b"/" + stem + extension)
            self.photos.append(path)
            self.add(f"photo with a {length}-byte name", [self.photo_node(path, "jpeg")])
        else:
            folder = b"input/" + stem + b"dir"
            folder = folder[:len(b"input/") + 255]
            self.add("album with a 255-byte name", [Node(folder, "dir"), self.photo_node(folder + b"/in.jpg", "jpeg")])

    def feature_unicode_twins(self) -> None:
        word = self.rng.choice(["café", "Ångström", "naïve", "résumé"])
        nfc, nfd = (unicodedata.normalize(form, word).encode() for form in ("NFC", "NFD"))
        if self.rng.random() < 0.6:
            folder = self.album()
            extension = self.photo_extension()
            self.add("NFC and NFD twins (photos)", [self.photo_node(folder + b"/" + nfc + extension),
                                                    self.photo_node(folder + b"/" + nfd + extension)])
        else:
            self.add("NFC and NFD twins (albums)",
                     [Node(b"input/" + nfc, "dir"), self.photo_node(b"input/" + nfc + b"/one.jpg", "jpeg"),
                      Node(b"input/" + nfd, "dir"), self.photo_node(b"input/" + nfd + b"/two.jpg", "jpeg")])

    def feature_case_twins(self) -> None:
        if self.rng.random() < 0.6:
            folder = self.album()
            self.add("case twins (photos)", [self.photo_node(folder + b"/Beach.jpg", "jpeg"),
                                             self.photo_node(folder + b"/beach.jpg", "jpeg"),
                                             self.photo_node(folder + b"/BEACH.JPG", "jpeg")])
        else:
            self.add("case twins (albums)", [Node(b"input/Trips", "dir"), self.photo_node(b"input/Trips/a.jpg", "jpeg"),
                                             Node(b"input/trips", "dir"), self.photo_node(b"input/trips/b.jpg", "jpeg")])

    def feature_generated_name(self) -> None:
        """Folders named like the files and folders the build writes."""
        choice = self.rng.choice(["index.html", "page-2.html", "photos/a.jpg.html", "images/217/a.jpg",
                                  "images/view/a.jpg", "assets", "assets/waterfall.css", "originals", "photos"])
        folder = b"input/" + choice.encode()
        if folder in self.used:
            return self.feature_photo()
        nodes = [Node(folder, "dir"), self.photo_node(folder + b"/inner.jpg", "jpeg")]
        if "a.jpg" in choice:
            nodes.append(self.photo_node(b"input/a.jpg", "jpeg"))  # the photo whose generated path it takes
        if choice == "page-2.html":
            nodes.append(Node(b"input/waterfall.json", "file", chunk=b'{"perPage": 1}'))
            nodes += [self.photo_node(b"input/p1.jpg", "jpeg"), self.photo_node(b"input/p2.jpg", "jpeg")]
        self.add(f"album named like a generated path ({choice}/)", nodes)

    def feature_derived_collision(self) -> None:
        if self.rng.random() < 0.5:
            self.add("opaque a.png next to a real a.png.jpg",
                     [self.photo_node(b"input/a.png", "opaque-png"), self.photo_node(b"input/a.png.jpg", "jpeg")])
        else:
            self.add("b.jpg (a PNG with alpha) next to b.jpg.png",
                     [self.photo_node(b"input/b.jpg", "alpha"), self.photo_node(b"input/b.jpg.png", "alpha")])

    def feature_symlink(self) -> None:
        kind = self.rng.choice(["file-in", "dir-in", "file-out", "dir-out", "up", "sidecar-out", "config-out",
                                "hostname", "hostname-sidecar", "dev-zero", "dev-zero-video", "dev-zero-sidecar", "dangling",
                                "dangling-dir", "loop", "loop-pair", "dir-loop"])
        absolute = self.rng.random() < 0.4
        folder = self.album()
        depth = folder.count(b"/")  # how many ../ from `folder` reach the sandbox

        def out(path: bytes) -> tuple[bytes, bool]:
            """A link target for a sandbox path: absolute, or relative to `folder`."""
            return (path, True) if absolute else (b"../" * depth + path, False)

        def link(name: bytes, target: bytes, is_absolute: bool = False) -> Node:
            return Node(self.unique(folder + b"/" + name), "link", target=target, absolute=is_absolute)

        if kind == "file-in":
            if not self.photos:
                self.feature_photo()
            target = self.rng.choice(self.photos)
            rel = os.path.relpath(target, folder) if not absolute else target
            self.add("symlink to a photo inside the input", [link(b"link-in.jpg", rel, absolute)])
        elif kind == "dir-in":
            target = self.rng.choice(self.albums)
            rel = os.path.relpath(target, folder) if not absolute else target
            self.add("symlink to a folder inside the input", [link(b"linked album", rel, absolute)])
        elif kind == "file-out":
            self.add("symlink to a photo outside the input", [link(b"leak.jpg", *out(self.rng.choice(self.outside_photos)))])
        elif kind == "dir-out":
            self.add("symlink to a folder outside the input", [link(b"leaked album", *out(self.rng.choice(self.outside_dirs)))])
        elif kind == "up":
            self.add("symlink to the input's parent (the whole sandbox)", [link(b"up", b"..")])
        elif kind == "sidecar-out":
            photo = self.photo_node(self.unique(folder + b"/captioned.jpg"), "jpeg")
            self.photos.append(photo.path)
            target, is_absolute = out(self.rng.choice(self.outside_texts))
            sidecar = Node(photo.path.rpartition(b".")[0] + b".txt", "link", target=target, absolute=is_absolute)
            self.add("sidecar caption linked to a secret outside the input", [photo, sidecar])
        elif kind == "config-out":
            target, is_absolute = out(self.rng.choice(self.outside_configs))
            config = Node(folder + b"/waterfall.json", "link", target=target, absolute=is_absolute)
            nodes = [config]
            if folder != b"input":
                nodes.append(self.photo_node(self.unique(folder + b"/in-album.jpg"), "jpeg"))
            self.add("waterfall.json linked to a config outside the input", nodes)
        elif kind == "hostname":
            self.add("photo linked to /etc/hostname", [link(b"hostname.jpg", b"/etc/hostname")])
        elif kind == "hostname-sidecar":
            photo = self.photo_node(self.unique(folder + b"/host.jpg"), "jpeg")
            self.add("sidecar caption linked to /etc/hostname",
                     [photo, Node(photo.path.rpartition(b".")[0] + b".txt", "link", target=b"/etc/hostname")])
        elif kind == "dev-zero":
            self.add("photo linked to /dev/zero", [link(b"zero.jpg", b"/dev/zero")])
        elif kind == "dev-zero-video":
            self.add("video linked to /dev/zero", [link(b"zero.mp4", b"/dev/zero")])
        elif kind == "dev-zero-sidecar":
            photo = self.photo_node(self.unique(folder + b"/zeroed.jpg"), "jpeg")
            self.add("sidecar caption linked to /dev/zero",
                     [photo, Node(photo.path.rpartition(b".")[0] + b".txt", "link", target=b"/dev/zero")])
        elif kind == "dangling":
            self.add("dangling symlink named like a photo", [link(b"gone.jpg", b"does-not-exist.jpg")])
        elif kind == "dangling-dir":
            self.add("dangling symlink named like an album", [link(b"gone album", b"no/such/folder")])
        elif kind == "loop":
            self.add("symlink loop (itself)", [Node(self.unique(folder + b"/loop.jpg"), "link", target=b"loop.jpg")])
        elif kind == "loop-pair":
            a, b = self.unique(folder + b"/loopa.jpg"), self.unique(folder + b"/loopb.jpg")
            self.add("symlink loop (a pair)", [Node(a, "link", target=b.rpartition(b"/")[2]),
                                               Node(b, "link", target=a.rpartition(b"/")[2])])
        else:
            self.add("symlink to its own folder (a folder loop)", [link(b"self", b".")])

    def feature_fifo(self) -> None:
        where = self.rng.choice(["photo", "video", "sidecar", "config", "album-config"])
        if where == "photo":
            self.add("FIFO named x.jpg", [Node(self.unique(self.album() + b"/x.jpg"), "fifo")])
        elif where == "video":
            self.add("FIFO named clip.mp4", [Node(self.unique(self.album() + b"/clip.mp4"), "fifo")])
        elif where == "sidecar":
            photo = self.photo_node(self.unique(self.album() + b"/piped.jpg"), "jpeg")
            self.add("FIFO as a photo's NAME.txt", [photo, Node(photo.path.rpartition(b".")[0] + b".txt", "fifo")])
        elif where == "config":
            self.add("FIFO named waterfall.json (top)", [Node(b"input/waterfall.json", "fifo")])
        else:
            folder = self.unique(b"input/Piped")
            self.add("FIFO named waterfall.json (album)", [Node(folder, "dir"), self.photo_node(folder + b"/p.jpg", "jpeg"),
                                                          Node(folder + b"/waterfall.json", "fifo")])

    def feature_earlier_output(self) -> None:
        jpeg = str(fixture(SMALL_JPEG).relative_to(REPO))
        if self.rng.random() < 0.5:
            self.add("an earlier output folder inside the input",
                     [Node(b"input/_site", "dir"), Node(b"input/_site/.waterfall", "dir"),
                      Node(b"input/_site/.waterfall/manifest", "file", chunk=b"index.html\nimages/500/old.jpg\n"),
                      Node(b"input/_site/index.html", "file", chunk=b"<!doctype html><p>old site</p>\n"),
                      Node(b"input/_site/images/500/old.jpg", "file", source=jpeg)])
        else:
            self.add("an old cache folder inside the input",
                     [Node(b"input/oldcache", "dir"), Node(b"input/oldcache/version", "file", chunk=b"waterfall-cache-3\n"),
                      Node(b"input/oldcache/images/0123456789abcdef.jpg", "file", source=jpeg),
                      Node(b"input/oldcache/photos/0123456789abcdef.json", "file", chunk=b"{}")])

    def feature_config(self) -> None:
        huge = 2**63 - 1
        valid = [
            {"perPage": 1}, {"perPage": 2}, {"sort": "date"}, {"sort": "date", "reverse": True},
            {"title": "<b>T</b> & \"co\"", "description": "</p><script>x</script>"}, {"densities": [1, 2, 3]},
            {"quality": 1}, {"quality": 100}, {"viewSize": 40}, {"tileWidth": 16}, {"originals": "copy"},
            {"originals": "link"}, {"maxPixels": 1}, {"insets": [0, 0, 0, 0]},
            {"bands": [{"minWidth": 0, "columns": 1}]}, {"footerText": "<a href='x'>x</a>"},
        ]
        invalid = [
            {"perPage": huge}, {"perPage": 0}, {"perPage": -1}, {"perPage": 1.5}, {"perPage": "2"},
            {"tileWidth": huge}, {"tileWidth": 0}, {"densities": [2**40]}, {"densities": [huge]}, {"densities": [0]},
            {"densities": []}, {"bands": [{"minWidth": 0, "columns": huge}]}, {"bands": [{"minWidth": 1e300, "columns": 2}]},
            {"columnSpacing": 1e308}, {"insets": 1e308}, {"footerHeight": 1e308}, {"rowSpacing": -5},
            {"viewSize": huge}, {"quality": 0}, {"quality": 101}, {"maxPixels": -1}, {"colums": 3},
        ]
        roll = self.rng.random()
        if roll < 0.6:
            text = json.dumps(self.rng.choice(valid)).encode()
        elif roll < 0.85:
            text = json.dumps(self.rng.choice(invalid)).encode()
        else:
            text = self.rng.choice([
                b'{"perPage": 1, "perPage": 2}', b'{"title": ', b"[" * 100000 + b"]" * 100000,
                b'{"x": ' + b"[" * 100000 + b"]" * 100000 + b"}", b'{"perPage": 1e999}', b'{"title": NaN}',
                b'\xef\xbb\xbf{"title": "after a BOM"}', b'{"title": "\xff\xfe"}', b"",
                b'{"title": "' + b"x" * 1_000_000 + b'"}',
            ])
        self.add(f"waterfall.json: {show(text[:60])}", [Node(b"input/waterfall.json", "file", chunk=text)], fatal=roll >= 0.6)

    def feature_album_config(self) -> None:
        folder = self.rng.choice(self.albums[1:]) if len(self.albums) > 1 else None
        nodes = []
        if folder is None:
            folder = self.unique(b"input/Configured")
            nodes = [Node(folder, "dir"), self.photo_node(folder + b"/c.jpg", "jpeg")]
        photos = sorted(p.rpartition(b"/")[2] for p in self.photos if p.rpartition(b"/")[0] == folder)
        cover = json.dumps({"cover": photos[0].decode("utf-8", "replace")}).encode() if photos else b'{"cover": "x.jpg"}'
        text = self.rng.choice([
            b'{"title": "An <album>", "description": "& more"}', b'{"cover": "missing.jpg"}', cover, cover,
            b'{"sort": "date", "reverse": true}', b'{"title": "' + "é".encode() * 3000 + b'"}',
            b'{"perPage": 3}', b"not json",
        ])
        nodes.append(Node(folder + b"/waterfall.json", "file", chunk=text))
        self.add(f"album waterfall.json: {show(text[:40])}", nodes, fatal=text in (b'{"perPage": 3}', b"not json"))

    def feature_junk(self) -> None:
        kind = self.rng.choice(sorted(JUNK))
        extension = (b".gif" if kind == "gif" else b".png" if kind.startswith("png")
                     else self.rng.choice([b".mp4", b".MOV", b".webm"]) if kind.endswith("video") else b".jpg")
        node = Node(self.unique(self.album() + b"/junk-" + kind.encode() + extension), "file", chunk=junk_bytes(kind))
        self.add(f"unreadable photo ({kind})", [node])

    # -- the theme

    def make_theme(self) -> None:
        nodes = [Node(b"theme", "dir"), Node(b"theme/assets", "dir")]
        for path in sorted(TEMPLATES.rglob("*")):
            if path.is_file():
                nodes.append(Node(b"theme/" + str(path.relative_to(TEMPLATES)).encode(), "file",
                                  source=str(path.relative_to(REPO))))
        self.add("theme: a copy of Templates/", nodes, whole=True)
        footer = (TEMPLATES / "footer.mustache").read_bytes()
        for _ in range(self.rng.randint(1, 3)):
            edit = self.rng.choice(["asset-hostname", "asset-secret", "asset-outside-dir", "asset-inside-link",
                                    "asset-odd-name", "deep-sections", "partial-bomb", "fifo-partial"])
            if edit == "asset-hostname":
                self.add("theme asset linked to /etc/hostname",
                         [Node(self.unique(b"theme/assets/hostname.txt"), "link", target=b"/etc/hostname")])
            elif edit == "asset-secret":
                target = self.rng.choice(self.outside_texts)
                self.add("theme asset linked to a secret outside",
                         [Node(self.unique(b"theme/assets/secret.css"), "link", target=b"../../" + target)])
            elif edit == "asset-outside-dir":
                self.add("theme asset folder linked outside",
                         [Node(self.unique(b"theme/assets/fonts"), "link", target=self.rng.choice(self.outside_dirs), absolute=True)])
            elif edit == "asset-inside-link":
                self.add("theme asset linked inside the theme",
                         [Node(self.unique(b"theme/assets/alias.css"), "link", target=b"waterfall.css")])
            elif edit == "asset-odd-name":
                self.add("theme asset with a newline in its name",
                         [Node(self.unique(b"theme/assets/odd\nname.css"), "file", chunk=b"body{}\n")])
            elif edit == "deep-sections":
                depth = self.rng.choice([100, 100_000])
                self.add(f"theme: {depth} nested sections in the footer",
                         [Node(b"theme/footer.mustache", "file", chunk=footer + b"{{#a}}" * depth + b"{{/a}}" * depth + b"\n")],
                         fatal=True)
            elif edit == "partial-bomb":
                # 24 levels make a 218 MB page unless the renderer caps a page's size (slow until it does).
                depth = self.rng.choices([4, 12, 24], [3, 2, 1])[0]
                nodes = [Node(b"theme/footer.mustache", "file", chunk=footer + b"{{> bomb0}}\n")]
                for level in range(depth):
                    nodes.append(Node(f"theme/bomb{level}.mustache".encode(), "file",
                                      chunk=f"{{{{> bomb{level + 1}}}}}{{{{> bomb{level + 1}}}}}".encode()))
                nodes.append(Node(f"theme/bomb{depth}.mustache".encode(), "file", chunk=b"0123456789ab"))
                self.add(f"theme: partials that double {depth} times", nodes, fatal=depth == 24)
            else:
                self.add("theme: tile.mustache is a FIFO", [Node(b"theme/tile.mustache", "fifo")], fatal=True)

    # -- the cache

    def choose_cache(self) -> str | None:
        roll = self.rng.random()
        if roll < 0.55:
            return None
        if roll < 0.80:
            return "cache"
        if roll < 0.88:
            self.add("an existing folder of someone else's files, used as the cache",
                     [Node(b"stuff", "dir"), Node(b"stuff/notes.txt", "file", chunk=b"mine\n"),
                      Node(b"stuff/tmp/keep.txt", "file", chunk=b"mine too\n"),
                      Node(b"stuff/images/0123456789abcdef.jpg", "file", source=str(fixture(SMALL_JPEG).relative_to(REPO))),
                      Node(b"stuff/photos/list.json", "file", chunk=b"[]\n")])
            return "stuff"
        if roll < 0.92:
            return "input"
        if roll < 0.96:
            album = self.rng.choice(self.albums[1:]) if len(self.albums) > 1 else None
            if album is None:
                self.add("album used as the cache", [Node(b"input/Cached", "dir"), self.photo_node(b"input/Cached/c.jpg", "jpeg")])
                album = b"input/Cached"
            return album.decode("utf-8", "surrogateescape")
        return "out"

    # -- the steps

    def build_step(self) -> Build:
        r = self.rng
        originals = r.choices([None, "none", "link", "copy"], [50, 10, 20, 20])[0]
        return Build(originals=originals, strict=r.random() < 0.2, follow=r.random() < 0.1,
                     concurrent=r.random() < 0.12, jobs=1 if r.random() < 0.1 else None, zip=self.zips.random() < 0.3)

    def make_steps(self) -> list[Build | Mutation]:
        steps: list[Build | Mutation] = [self.build_step()]
        for _ in range(self.rng.randint(1, 3)):
            for _ in range(self.rng.randint(1, 2)):
                kind = self.rng.choices(["rename-newline", "rename-album", "delete", "add", "replace", "poison-cache",
                                         "restore-tmp-link", "drop-configs"], [30, 10, 15, 15, 10, 12, 8, 8])[0]
                steps.append(Mutation(kind, self.rng.randrange(2**31)))
            steps.append(self.build_step())
        return steps

    # -- issue 26: reference rings, frame bombs, swaps during a build, a full disk

    def feature_heif_ring(self, kind: str) -> None:
        """A HEIC or AVIF whose items refer to each other in a ring (bombs.RINGS): never published."""
        path = self.unique(self.extra.choice(self.albums) + b"/ring" + bombs.extension(kind).encode())
        self.add(f"HEIF reference ring: {kind}", [Node(path, "file", bomb=kind)])

    def feature_frame_bomb(self, kind: str) -> None:
        """A small file that costs a naive reader gigabytes or minutes (bombs.BOMBS): published or skipped."""
        path = self.unique(self.extra.choice(self.albums) + b"/bomb" + bombs.extension(kind).encode())
        self.add(f"frame bomb: {kind}", [Node(path, "file", bomb=kind)])

    def swap_steps(self, first: Build) -> list[Build | Mutation]:
        """The case's first build (it reads every photo), with swaps during it; then, sometimes, the swapped
        photos are put back, and a build whose site must be a fresh build's."""
        r = self.extra
        token = self.token()
        video = b"outside/video-" + token.encode() + b".mp4"
        self.add("outside video (for a video's swap)", [Node(video, "file", chunk=marked_video(token))], {video: token})
        kinds = tuple(r.choices(SWAP_KINDS, SWAP_WEIGHTS, k=r.randint(1, 3)))
        first = replace(first, concurrent=False, strict=False, swap=Swap(r.randrange(2**31), kinds))
        after: list[Build | Mutation] = [Mutation("restore-swapped", r.randrange(2**31))] if r.random() < 0.5 else []
        after.append(Build(originals=first.originals, follow=first.follow, fresh=True, zip=first.zip))
        return [first] + after

    def disk_steps(self) -> list[Build | Mutation]:
        """A build with room; the disk shrunk to what it holds (and a little), two more photos, a build that
        must stop on the full disk; room again, and a build whose site must be a fresh build's."""
        r = self.extra
        plain = Build(originals=r.choices([None, "link", "copy"], [60, 20, 20])[0], jobs=1 if r.random() < 0.2 else None,
                      zip=self.zips.random() < 0.3)
        return [plain, Mutation("shrink-disk", r.randrange(2**31)), Mutation("add-large", r.randrange(2**31)),
                replace(plain, full_disk=True), Mutation("grow-disk", 0), replace(plain, fresh=True)]

    def generate(self) -> Case:
        self.make_outside()
        self.make_output()
        count = self.rng.randint(3, 14)
        kinds = [
            (self.feature_photo, 14), (self.feature_album, 8), (self.feature_sidecar, 8), (self.feature_control_name, 8),
            (self.feature_invalid_utf8, 5), (self.feature_long_name, 4), (self.feature_unicode_twins, 4),
            (self.feature_case_twins, 3), (self.feature_generated_name, 6), (self.feature_derived_collision, 3),
            (self.feature_symlink, 14), (self.feature_fifo, 3), (self.feature_earlier_output, 2),
            (self.feature_config, 4), (self.feature_album_config, 3), (self.feature_junk, 4), (self.feature_video, 4),
        ]
        functions, weights = zip(*kinds)
        self.feature_photo()
        for _ in range(count):
            self.rng.choices(functions, weights)[0]()
        theme = self.rng.random() < 0.3
        if theme:
            self.make_theme()
        cache = self.choose_cache()
        steps = self.make_steps()
        # Every kind of ring and bomb in turn, so that any 150 cases hold each two or three times.
        if self.index % 5 == 1:
            self.feature_heif_ring(sorted(bombs.RINGS)[self.index // 5 % len(bombs.RINGS)])
        if self.index % 5 == 3:
            self.feature_frame_bomb(sorted(bombs.BOMBS)[self.index // 5 % len(bombs.BOMBS)])
        # Only where the cache is one the build accepts and nothing makes every build refuse: otherwise no build
        # reads a photo. Both come first, before the case's changes (one may make the builds refuse: a
        # .waterfall/tmp made a symlink again); then the case goes on, with room on its disk.
        usable = cache in (None, "cache") and not any(f.fatal for f in self.features)
        head: list[Build | Mutation] = []
        if usable and self.extra.random() < SWAP_RATE:
            head = self.swap_steps(steps[0])
            steps = steps[1:]
        small_disk = usable and self.extra.random() < DISK_RATE
        if small_disk:
            head = head + self.disk_steps()
        steps = head + steps
        if self.extra.random() < FRESH_RATE and isinstance(steps[-1], Build) and not steps[-1].concurrent:
            steps[-1] = replace(steps[-1], fresh=True)  # whatever the case did before, its last site is a fresh one
        # Nodes at the same path (a folder's waterfall.json, mostly) replace each other in feature order.
        return Case(self.seed, self.index, self.features, theme, cache, steps, disk=small_disk)


def generate(seed: str, index: int) -> Case:
    """The case number `index` of `seed`."""
    return Generator(seed, index).generate()


# MARK: - Photos that carry a marker


def marked_photo(kind: str, token: str, rng: random.Random) -> bytes:
    """A real, readable photo that carries `token` as its own description (a PNG `tEXt` Description, an
    EXIF ImageDescription plus a JPEG comment), which the build shows as its caption: a page that
    publishes this photo under any name holds the token. Its hash is unique to the case too, so a site
    file with that hash can only be a copy of it."""
    if kind == "png":
        data = fixture(rng.choice(["basn2c08.png", "basn6a08.png", "basn0g08.png"])).read_bytes()
        body = b"tEXt" + b"Description\x00" + token.encode()
        chunk = struct.pack(">I", len(body) - 4) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)
        end_of_ihdr = 8 + 8 + 13 + 4
        return data[:end_of_ihdr] + chunk + data[end_of_ihdr:]
    data = fixture(SMALL_JPEG).read_bytes()
    text = token.encode() + b"\x00"
    # Big-endian TIFF: header, IFD0 with one entry (ImageDescription, ASCII, at offset 26), no next IFD.
    tiff = b"MM\x00\x2a" + struct.pack(">I", 8) + struct.pack(">H", 1) + struct.pack(">HHII", 0x010E, 2, len(text), 26) \
        + struct.pack(">I", 0) + text
    exif = b"Exif\x00\x00" + tiff
    app1 = b"\xff\xe1" + struct.pack(">H", len(exif) + 2) + exif
    comment = b"\xff\xfe" + struct.pack(">H", len(token) + 2) + token.encode()
    return data[:2] + app1 + comment + data[2:]


def marked_video(token: str) -> bytes:
    """The sample video with its last bytes (the end of its media data) replaced by `token`: the same size,
    still a video, and any copy of it in the site holds the token."""
    data = (REPO / VIDEO).read_bytes()
    return data[:-len(token)] + token.encode()


# MARK: - Laying a case out on disk


class Recorder:
    """Keeps the shell commands equivalent to what was done in the sandbox, for a `repro.sh`."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.folders: set[bytes] = {b"", b".", b"input", b"outside", b"out"}

    def add(self, line: str) -> None:
        self.lines.append(line)

    def folder(self, path: bytes) -> None:
        """`mkdir -p` once per folder."""
        if path not in self.folders:
            self.add(f"mkdir -p {q(path)}")
            while path:
                self.folders.add(path)
                path = os.path.dirname(path)


def q(path: bytes) -> str:
    """Bash quoting for any bytes: $'…' with escapes where needed."""
    if path and all(32 < b < 127 and chr(b) not in "'\"\\$`!*?[]{}()<>|&;#~%^, " for b in path):
        return path.decode()
    out = []
    for b in path:
        if 32 <= b < 127 and chr(b) not in "'\\":
            out.append(chr(b))
        else:
            out.append(f"\\x{b:02x}")
    return "$'" + "".join(out) + "'"


def make_node(root: bytes, node: Node, recorder: Recorder | None = None) -> None:
    """Creates `node` under the sandbox `root` (parents as needed; a file replaces one already there)."""
    full = os.path.join(root, node.path)
    os.makedirs(os.path.dirname(full), exist_ok=True)
    if recorder:
        recorder.folder(os.path.dirname(node.path))
    if node.kind == "dir":
        os.makedirs(full, exist_ok=True)
        if recorder:
            recorder.folder(node.path)
    elif node.kind == "file":
        if os.path.islink(full) or (os.path.lexists(full) and not os.path.isdir(full)):
            if recorder and (os.path.islink(full) or not os.path.isfile(full)):
                recorder.add(f"rm -f {q(node.path)}")  # a link or FIFO a swap put there: never written through
            os.unlink(full)
        with open(full, "wb") as handle:
            if node.source is not None:
                handle.write((REPO / node.source).read_bytes())
            elif node.bomb is not None:
                handle.write(bombs.file_bytes(node.bomb))
            else:
                for _ in range(node.repeat):
                    handle.write(node.chunk)
        if recorder:
            if node.bomb is not None:
                recorder.add(f"wf_bomb {q(node.path)} {q(node.bomb.encode())}")
            elif node.source is not None:
                recorder.add(f'cp "$REPO"/{q(node.source.encode())} {q(node.path)}')
            elif node.repeat == 1 and b"\0" not in node.chunk and len(node.chunk) <= 2000:
                recorder.add(f"printf %s {q(node.chunk) if node.chunk else chr(39) * 2} > {q(node.path)}")
            else:
                encoded = base64.b64encode(node.chunk).decode()  # on stdin: an argument holds 128 KiB at most
                recorder.add(f"wf_write {q(node.path)} {node.repeat} <<'B64'\n{encoded}\nB64")
    elif node.kind == "link":
        if os.path.lexists(full):
            if recorder:
                recorder.add(f"rm -f {q(node.path)}")
            os.unlink(full)
        target = os.path.join(root, node.target) if node.absolute else node.target
        os.symlink(target, full)
        if recorder:
            recorder.add(f'ln -s {"$PWD/" if node.absolute else ""}{q(node.target)} {q(node.path)}')
    elif node.kind == "fifo":
        if os.path.lexists(full):
            if recorder:
                recorder.add(f"rm -f {q(node.path)}")
            os.unlink(full)
        os.mkfifo(full)
        if recorder:
            recorder.add(f"mkfifo {q(node.path)}")
    else:
        raise ValueError(node.kind)


def lay_out(root: bytes, case: Case, recorder: Recorder | None = None) -> None:
    """Creates the sandbox's folders and every feature's nodes."""
    for folder in (b"input", b"outside", b"out"):
        os.makedirs(os.path.join(root, folder), exist_ok=True)
    if recorder:
        recorder.add("mkdir -p input outside out")  # the folders every case has
    for feature in case.features:
        if recorder:
            recorder.add(f"# {feature.name}")
        for node in feature.nodes:
            make_node(root, node, recorder)


# MARK: - Mutations


def _walk(root: bytes, top: bytes):
    """Every entry under sandbox/`top` (sandbox-relative, sorted, not following symlinks, dot names included)."""
    found = []
    start = os.path.join(root, top)
    if not os.path.isdir(start) or os.path.islink(start):
        return found
    stack = [top]
    while stack:
        folder = stack.pop()
        try:
            names = sorted(os.listdir(os.path.join(root, folder)))
        except OSError:
            continue
        for name in names:
            rel = folder + b"/" + name
            found.append(rel)
            full = os.path.join(root, rel)
            if os.path.isdir(full) and not os.path.islink(full):
                stack.append(rel)
    return sorted(found)


@dataclass
class Mutated:
    """What a mutation did: the harness keeps track of which files are the user's (and so must never
    change) from `removed` and `added`; `tokens` are new outside files' marker tokens."""

    removed: list[bytes]
    added: list[bytes]
    text: str
    tokens: dict[bytes, str] = field(default_factory=dict)


def prefixed(tag: bytes, name: bytes) -> bytes:
    """`tag` + `name`, cut to NAME_MAX bytes by dropping bytes after the tag (never half a character)."""
    if len(tag) + len(name) <= NAME_MAX:
        return tag + name
    rest = name[len(tag) + len(name) - NAME_MAX:]
    while rest and 0x80 <= rest[0] < 0xC0:
        rest = rest[1:]
    return tag + rest


def apply_mutation(root: bytes, case: Case, mutation: Mutation, recorder: Recorder | None = None,
                   swapped: list[tuple] = ()) -> Mutated:
    """Does `mutation` in the sandbox of `case`, and says what it did. `swapped`: how to put back what the
    swaps during the last build with swaps changed (swapper.Swapped.restore)."""
    rng = random.Random(f"mutation:{mutation.seed}")
    entries = _walk(root, b"input")
    photos = [p for p in entries if is_photo_name(p.rpartition(b"/")[2]) and not os.path.isdir(os.path.join(root, p))]
    folders = [p for p in entries if os.path.isdir(os.path.join(root, p)) and not os.path.islink(os.path.join(root, p))]

    def rename(old: bytes, new: bytes) -> Mutated:
        folder, _, name = new.rpartition(b"/")
        n = 0
        while len(name) > NAME_MAX or os.path.lexists(os.path.join(root, folder + b"/" + name)):
            n += 1
            name = prefixed(b"r%d-" % n, new.rpartition(b"/")[2])
        new = folder + b"/" + name
        os.rename(os.path.join(root, old), os.path.join(root, new))
        if recorder:
            recorder.add(f"mv {q(old)} {q(new)}")
        added = [new] + [p for p in _walk(root, new)] if os.path.isdir(os.path.join(root, new)) else [new]
        return Mutated([old], added, f"renamed {show(old)} to {show(new)}")

    if mutation.kind == "rename-newline":
        named = [p for p in entries if b"\n" in p.rpartition(b"/")[2]]
        if not named:
            return Mutated([], [], "nothing with a newline in its name to rename")
        old = rng.choice(named)
        folder, _, name = old.rpartition(b"/")
        return rename(old, folder + b"/" + name.replace(b"\n", b"_"))
    if mutation.kind == "rename-album":
        albums = [f for f in folders if f.count(b"/") >= 1]
        if not albums:
            return Mutated([], [], "no album to rename")
        old = rng.choice(albums)
        folder, _, name = old.rpartition(b"/")
        return rename(old, folder + b"/" + prefixed(b"renamed ", name))
    if mutation.kind == "delete":
        candidates = photos + [f for f in folders if rng.random() < 0.3]
        if not candidates:
            return Mutated([], [], "nothing to delete")
        victim = rng.choice(sorted(candidates))
        full = os.path.join(root, victim)
        if os.path.isdir(full) and not os.path.islink(full):
            shutil.rmtree(full)
        else:
            os.unlink(full)
        if recorder:
            recorder.add(f"rm -rf {q(victim)}")
        return Mutated([victim], [], f"deleted {show(victim)}")
    if mutation.kind == "add":
        folder = rng.choice([b"input"] + folders)
        name = rng.choice([b"new\nline.png", b"added.jpg", b"tab\there.jpg", b"new \xff.jpg", b"Added.JPG"])
        path = folder + b"/" + name
        if os.path.lexists(os.path.join(root, path)):
            return Mutated([], [], f"{show(path)} already there")
        kind = "alpha" if name.endswith(b".png") else "jpeg"
        source = fixture(rng.choice(ALPHA_PNGS if kind == "alpha" else JPEGS))
        node = Node(path, "file", source=str(source.relative_to(REPO)))
        make_node(root, node, recorder)
        return Mutated([], [path], f"added {show(path)}")
    if mutation.kind == "replace":
        regular = [p for p in photos if os.path.isfile(os.path.join(root, p)) and not os.path.islink(os.path.join(root, p))]
        if not regular:
            return Mutated([], [], "no photo to replace")
        path = rng.choice(regular)
        node = Node(path, "file", source=str(fixture(rng.choice(JPEGS)).relative_to(REPO)))
        make_node(root, node, recorder)
        return Mutated([path], [path], f"replaced the bytes of {show(path)}")
    if mutation.kind == "poison-cache":
        cache = (case.cache or "out/.waterfall/cache").encode("utf-8", "surrogateescape")
        if not os.path.isfile(os.path.join(root, cache, b"CACHEDIR.TAG")):
            # The build refused this folder as a cache (it is the output, the input, someone's folder):
            # what is in it is not a cache to poison.
            return Mutated([], [], "no cache to poison")
        images = [p for p in _walk(root, cache + b"/images") if os.path.isfile(os.path.join(root, p))
                  and not os.path.islink(os.path.join(root, p))]
        if not images:
            return Mutated([], [], "no cached image to poison")
        added, tokens = [], {}
        for n, image in enumerate(images):
            # An outside file of exactly the cached image's size, full of marker tokens, and the cached
            # image replaced by a symlink to it: a cache restored from somewhere untrusted.
            size = os.path.getsize(os.path.join(root, image))
            token = f"{MARKER_PREFIX}p{mutation.seed % 100000:05d}{n:04d}"
            poison = f"outside/poison-{n}.bin".encode()
            chunk = (token.encode() + b" ") * (size // (len(token) + 1) + 1)
            make_node(root, Node(poison, "file", chunk=chunk[:size]), recorder)
            make_node(root, Node(image, "link", target=poison, absolute=True), recorder)
            tokens[poison] = token
            added.append(poison)
        return Mutated([], added, f"replaced {len(images)} cached images by symlinks to same-sized outside files", tokens)
    if mutation.kind == "drop-configs":
        # So that a case whose config is refused goes on to build something.
        configs = [p for p in entries if p.rpartition(b"/")[2] == b"waterfall.json"]
        for path in configs:
            full = os.path.join(root, path)
            if os.path.isdir(full) and not os.path.islink(full):
                shutil.rmtree(full)
            else:
                os.unlink(full)
            if recorder:
                recorder.add(f"rm -rf {q(path)}")
        return Mutated(configs, [], f"deleted {len(configs)} waterfall.json")
    if mutation.kind == "restore-tmp-link":
        nodes = [Node(b"victim", "dir"), Node(b"victim/precious.txt", "file", chunk=b"precious\n"),
                 Node(b"victim/1-1", "file", chunk=b"named like a temporary file\n")]
        added = []
        for node in nodes:
            if not os.path.lexists(os.path.join(root, node.path)):
                make_node(root, node, recorder)
                added.append(node.path)
        tmp = os.path.join(root, b"out/.waterfall/tmp")
        if os.path.isdir(tmp) and not os.path.islink(tmp):
            shutil.rmtree(tmp)
            if recorder:
                recorder.add("rm -rf out/.waterfall/tmp")
        make_node(root, Node(b"out/.waterfall/tmp", "link", target=b"victim", absolute=True), recorder)
        return Mutated([], added, "made out/.waterfall/tmp a symlink to victim/")
    if mutation.kind == "restore-swapped":
        return _restore_swapped(root, swapped, recorder)
    if mutation.kind in DISK_MUTATIONS:
        return _small_disk(root, case, mutation, rng, recorder)
    raise ValueError(mutation.kind)


def _restore_swapped(root: bytes, swapped: list[tuple], recorder: Recorder | None) -> Mutated:
    """Puts back each photo and album the swaps changed, as it was before them."""
    removed, added = [], []
    for entry in swapped:
        if entry[0] == "file":
            _, path, data = entry
            full = os.path.join(root, path)
            if os.path.isdir(full) and not os.path.islink(full):
                continue  # a folder took its place since: leave it
            make_node(root, Node(path, "file", chunk=data), recorder)
            removed.append(path)
            added.append(path)
        else:
            _, album, moved = entry
            full = os.path.join(root, album)
            if os.path.islink(full) and os.path.isdir(os.path.join(root, moved)):
                os.unlink(full)
                os.rename(os.path.join(root, moved), full)
                if recorder:
                    recorder.add(f"rm {q(album)} && mv {q(moved)} {q(album)}")
                removed += [album, moved]
                added += [album] + _walk(root, album)
    aside = os.path.join(root, b"aside")  # where the swapper moved albums (swapper.py)
    if os.path.isdir(aside) and not os.path.islink(aside) and not os.listdir(aside):
        os.rmdir(aside)
        if recorder:
            recorder.add("rmdir aside")
        removed.append(b"aside")
    if not removed:
        return Mutated([], [], "nothing swapped to put back")
    return Mutated(removed, added, "put back " + ", ".join(show(p) for p in removed if not p.startswith(b"aside/")))


def _small_disk(root: bytes, case: Case, mutation: Mutation, rng: random.Random, recorder: Recorder | None) -> Mutated:
    """The small disk's changes: shrunk to what it holds plus a little slack, two photos more, room again."""
    out = os.path.join(root, b"out")
    if not case.disk or not disk.is_mounted(out):
        return Mutated([], [], "no small disk")
    if mutation.kind == "shrink-disk":
        slack = rng.choice([0, 4, 16, 48])
        size = disk.used_kb(out) + slack
        disk.resize(out, size)
        if recorder:
            recorder.add(f"mount -o remount,size=$(( $(df -k --output=used out | tail -1) + {slack} ))k out  # {size} KB")
        return Mutated([], [], f"shrunk the disk of out/ to {size} KB ({slack} KB free)")
    if mutation.kind == "grow-disk":
        disk.resize(out, disk.ROOM_KB)
        if recorder:
            recorder.add(f"mount -o remount,size={disk.ROOM_KB}k out")
        return Mutated([], [], f"the disk of out/ grown to {disk.ROOM_KB} KB")
    added = []
    for n, source in enumerate(rng.sample(LARGE_PHOTOS, 2)):
        path = b"input/no-room-%d.jpg" % n
        make_node(root, Node(path, "file", source=source), recorder)
        added.append(path)
    return Mutated([], added, "added " + ", ".join(show(p) for p in added))


# MARK: - Shrinking


def smaller_cases(case: Case):
    """Candidate simplifications of `case`, most drastic first: fewer steps, fewer features, plainer options.
    The shrinker keeps the first that still fails the same way, and asks again."""
    builds = [n for n, s in enumerate(case.steps) if isinstance(s, Build)]
    # Stop after an earlier build.
    for last in builds[:-1]:
        yield replace(case, steps=case.steps[:last + 1])
    # Drop one mutation, or one build with the mutations before it.
    for n, step in enumerate(case.steps):
        if isinstance(step, Mutation):
            yield replace(case, steps=case.steps[:n] + case.steps[n + 1:])
    for position, n in enumerate(builds):
        if len(builds) > 1:
            start = builds[position - 1] + 1 if position else 0
            yield replace(case, steps=case.steps[:start] + case.steps[n + 1:])
    # Drop one feature (the later, usually the more specific, first).
    for n in reversed(range(len(case.features))):
        yield replace(case, features=case.features[:n] + case.features[n + 1:])
    # Drop one node of a feature.
    for n, feature in enumerate(case.features):
        if len(feature.nodes) > 1 and not feature.whole:
            for m in range(len(feature.nodes)):
                smaller = Feature(feature.name, feature.nodes[:m] + feature.nodes[m + 1:], feature.tokens)
                yield replace(case, features=case.features[:n] + [smaller] + case.features[n + 1:])
    # Plainer options.
    if case.theme:
        yield replace(case, theme=False, features=[f for f in case.features if not f.name.startswith("theme")])
    if case.cache is not None:
        yield replace(case, cache=None)
    if case.disk:
        yield case.without_disk()
    for n, step in enumerate(case.steps):
        if isinstance(step, Build) and step != Build():
            for plainer in (replace(step, concurrent=False), replace(step, originals=None), replace(step, strict=False),
                            replace(step, follow=False), replace(step, jobs=None), replace(step, swap=None),
                            replace(step, fresh=False), replace(step, zip=False)):
                if plainer != step:
                    yield replace(case, steps=case.steps[:n] + [plainer] + case.steps[n + 1:])
            if step.swap and len(step.swap.kinds) > 1:
                for m in range(len(step.swap.kinds)):
                    fewer = replace(step.swap, kinds=step.swap.kinds[:m] + step.swap.kinds[m + 1:])
                    yield replace(case, steps=case.steps[:n] + [replace(step, swap=fewer)] + case.steps[n + 1:])

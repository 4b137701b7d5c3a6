"""The promises every build must keep, whatever the input, as checks over snapshots of the sandbox.

A snapshot maps every path under the sandbox (bytes, relative, symlinks not followed) to what is there:
`("dir",)`, `("file", sha256)`, `("link", target)`, `("fifo",)` or `("other", mode)`. Comparing the
snapshots taken just before and just after a build says exactly what the build changed, and nothing in
the checks needs to trust the program's own account of what it did.

The invariants (issue 10), numbered as in failure messages:

1. the exit status is 0, 1 or 64: never a signal, never a hang;
2. no file outside the output and cache folders changed (and none of the user's files inside the cache
   folder, when `--cache-dir` points at a folder that already held files);
3. the user's own files in the output folder (the decoys) are unchanged;
4. the site (the output minus its `.waterfall` state folder) holds no symlink;
5. every `href`, `src` and `srcset` URL of every page resolves, percent-decoded and relative to the page,
   to a regular file of the site;
6. nothing from outside the input or theme reaches the site: no marker token in any site file or name,
   and no site file with the hash of an outside file (unless `--follow-symlinks` and a link leads there);
7. a build that exits 0 on an input with no bad entry leaves an `index.html`; a `--strict` build on an
   input with a bad entry (a name that is not UTF-8, a FIFO, a symlink leading outside the input, an
   unreadable photo, a HEIF whose items refer to each other in a ring) exits 1 and changes nothing in the
   site;

and those of issue 26:

8. no process of a build (the build, its decoders, its helpers) takes more than 512 MiB of memory: every
   photo of a case is small, and a bomb must be refused from its header, not decoded;
9. on a full disk (the output's small tmpfs shrunk to what it holds), a build that succeeded with room
   exits 1 with one line that names the lack of space, leaves the site exactly as it was, and leaves no
   file in the output's or the cache's scratch folder;
10. a build after swaps during a build, or after a full disk, makes the site a fresh build (a new output,
   a new cache) makes of the same input: nothing stale or foreign stays in the cache.

Invariant 6 covers the cache folder too (after a swap, an outside file's caption or bytes must not be
stored there either). During a build with swaps, the input changes under it: what the swaps changed is
not the build's doing (2), and an entry counts as bad for 7 only if it was bad both before the build and
just after the swaps (the build may have read it at either time).
"""
from __future__ import annotations

import hashlib
import os
import re
import signal
import stat
from dataclasses import dataclass
from html.parser import HTMLParser
from urllib.parse import unquote_to_bytes

import bombs
from cases import MARKER_PREFIX, JUNK, REPO, VIDEO, is_photo_name, junk_bytes, show

MEMORY_LIMIT_MB = 512

TITLES = {
    1: "exit status 0, 1 or 64; no signal, no hang",
    2: "no file outside the output and cache changed",
    3: "the user's own files in the output unchanged",
    4: "no symlink in the site",
    5: "every href, src and srcset resolves to a file of the site",
    6: "nothing from outside the input or theme in the site",
    7: "exit 0 on a clean input writes index.html; --strict with a bad entry exits 1 and changes nothing",
    8: f"no process of a build takes more than {MEMORY_LIMIT_MB} MiB",
    9: "a full disk: exit 1, one line naming the lack of space, the last site as it was, nothing half-written",
    10: "after swaps or a full disk, the next build's site is a fresh build's",
}

Snapshot = dict[bytes, tuple]

STATE = b"out/.waterfall"  # the output's state folder: not part of the site


def under(path: bytes, folder: bytes | None) -> bool:
    """Whether `path` is `folder` or inside it (both sandbox-relative)."""
    return folder is not None and (path == folder or path.startswith(folder + b"/"))


def sha256_file(path: bytes) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def snapshot(root: bytes) -> Snapshot:
    """Everything under `root`, by relative path; FIFOs and devices are never opened, links never followed."""
    found: Snapshot = {}
    stack = [b""]
    while stack:
        folder = stack.pop()
        try:
            entries = list(os.scandir(os.path.join(root, folder) if folder else root))
        except OSError as error:
            found[folder + b"/?"] = ("unlistable", error.errno)
            continue
        for entry in entries:
            rel = folder + b"/" + entry.name if folder else entry.name
            info = entry.stat(follow_symlinks=False)
            if stat.S_ISLNK(info.st_mode):
                found[rel] = ("link", os.readlink(entry.path))
            elif stat.S_ISDIR(info.st_mode):
                found[rel] = ("dir",)
                stack.append(rel)
            elif stat.S_ISREG(info.st_mode):
                try:
                    found[rel] = ("file", sha256_file(entry.path))
                except OSError as error:
                    found[rel] = ("unreadable", error.errno)
            elif stat.S_ISFIFO(info.st_mode):
                found[rel] = ("fifo",)
            else:
                found[rel] = ("other", stat.S_IFMT(info.st_mode))
    return found


def site_paths(snap: Snapshot) -> dict[bytes, tuple]:
    """The site: what is under out/, minus the state folder; keys relative to out/."""
    return {p[len(b"out/"):]: v for p, v in snap.items() if under(p, b"out") and p != b"out" and not under(p, STATE)}


def describe(entry: tuple | None) -> str:
    if entry is None:
        return "missing"
    if entry[0] == "file":
        return f"file {entry[1][:12]}"
    if entry[0] == "link":
        return f"symlink to {show(entry[1])}"
    return entry[0]


# MARK: - Bad entries (for invariant 7)

JPEG_START, PNG_START = b"\xff\xd8\xff", b"\x89PNG\r\n\x1a\n"
JUNK_HASHES = {hashlib.sha256(junk_bytes(kind)).hexdigest() for kind in JUNK}
# The one video the cases use: readable (by FFmpeg, when it is installed, as `make test` makes sure).
VIDEO_HASH = hashlib.sha256((REPO / VIDEO).read_bytes()).hexdigest()


def _is_utf8(name: bytes) -> bool:
    try:
        name.decode("utf-8")
        return True
    except UnicodeDecodeError:
        return False


def _unreadable_photo(path: bytes) -> str | None:
    """Why the file at `path` (followed) cannot be a photo, or None when it may be one."""
    try:
        info = os.stat(path)
    except OSError as error:
        return f"a symlink that leads nowhere ({os.strerror(error.errno)})"
    if stat.S_ISDIR(info.st_mode):
        return None  # a folder: an album
    if not stat.S_ISREG(info.st_mode):
        return "not a regular file"
    with open(path, "rb") as handle:
        start = handle.read(8)
    if not (start.startswith(JPEG_START) or start == PNG_START):
        digest = sha256_file(path)
        if digest in bombs.ring_hashes():
            return "a HEIF whose image items refer to each other in a ring"
        if digest == VIDEO_HASH or digest in bombs.bomb_hashes():
            return None  # a bomb's first frame may be published; the video is
        return "not a JPEG, PNG, bomb or the sample video"
    if sha256_file(path) in JUNK_HASHES:
        return "a damaged photo"
    return None


def bad_entries(root: bytes, follow: bool, cache: bytes | None) -> list[str]:
    """The entries of the input that a build must skip with a warning, and that fail a --strict build, as
    `PATH: why` lines (see bad_paths)."""
    return [f"{show(path)}: {why}" for path, why in bad_paths(root, follow, cache).items()]


def bad_paths(root: bytes, follow: bool, cache: bytes | None) -> dict[bytes, str]:
    """The entries of the input that a build must skip with a warning, and that fail a --strict build: why,
    by sandbox path.

    Sound rather than complete: only what surely cannot be published is listed. Dot-names are ignored as
    the build ignores them; symlinked folders are not entered, nor the cache folder (never scanned)."""
    input_root = os.path.realpath(os.path.join(root, b"input"))
    bad: dict[bytes, str] = {}
    if cache == b"input":
        return bad
    stack = [b"input"]
    while stack:
        folder = stack.pop()
        try:
            names = sorted(os.listdir(os.path.join(root, folder)))
        except OSError:
            continue
        siblings = set(names)
        for name in names:
            if name.startswith(b"."):
                continue
            rel = folder + b"/" + name
            full = os.path.join(root, rel)
            info = os.lstat(full)
            photo = is_photo_name(name)
            sidecar = name.lower().endswith(b".txt") and _has_photo(name, siblings)
            if stat.S_ISDIR(info.st_mode):
                if not under(rel, cache) and not _holds_waterfall(full):
                    stack.append(rel)
                continue
            if stat.S_ISFIFO(info.st_mode):
                if photo or sidecar or (name == b"waterfall.json" and (folder == b"input" or any(map(is_photo_name, siblings)))):
                    bad[rel] = "a FIFO"
                continue
            if photo and not _is_utf8(rel):
                bad[rel] = "a photo whose path is not UTF-8"
                continue
            if stat.S_ISLNK(info.st_mode):
                real = os.path.realpath(full)
                outside = not (real == input_root or real.startswith(input_root + b"/"))
                leads_to_folder = os.path.isdir(full)
                if outside and not follow and (photo or sidecar or (leads_to_folder and _holds_photos(full))):
                    bad[rel] = f"a symlink to {show(os.readlink(full))}, outside the input"
                    continue
            if photo:
                reason = _unreadable_photo(full)
                if reason:
                    bad[rel] = reason
    return bad


def _holds_waterfall(folder: bytes) -> bool:
    """Whether a folder holds an earlier site or a cache, which the build leaves out with a note (not a
    skipped file): a `.waterfall` folder, a CACHEDIR.TAG, or a Waterfall 0.1 cache's `version` file."""
    if os.path.isdir(os.path.join(folder, b".waterfall")) and not os.path.islink(os.path.join(folder, b".waterfall")):
        return True
    if os.path.isfile(os.path.join(folder, b"CACHEDIR.TAG")) and not os.path.islink(os.path.join(folder, b"CACHEDIR.TAG")):
        return True
    version = os.path.join(folder, b"version")
    if not os.path.isfile(version):  # never open a FIFO
        return False
    try:
        with open(version, "rb") as handle:
            return not os.path.islink(version) and handle.read(16) == b"waterfall-cache-"
    except OSError:
        return False


def _has_photo(sidecar: bytes, siblings: set[bytes]) -> bool:
    """Whether NAME.txt or NAME.jpg.txt has its photo beside it."""
    stem = sidecar[:-4]
    return (is_photo_name(stem) and stem in siblings) or any(
        s.rpartition(b".")[0] == stem and is_photo_name(s) for s in siblings)


def _holds_photos(folder: bytes) -> bool:
    try:
        return any(is_photo_name(n) for n in os.listdir(folder))
    except OSError:
        return False


# MARK: - Links in pages (invariant 5)


class _LinkParser(HTMLParser):
    """Collects href, src and srcset values (entities decoded by HTMLParser)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.urls: list[tuple[str, str]] = []

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if value is None:
                continue
            if name in ("href", "src"):
                self.urls.append((name, value))
            elif name == "srcset":
                self.urls.extend(("srcset", url) for url in parse_srcset(value))

    handle_startendtag = handle_starttag


def parse_srcset(value: str) -> list[str]:
    """The URLs of a srcset attribute, as the HTML standard's parser finds them (a URL may hold commas)."""
    urls, position, spaces = [], 0, " \t\n\r\f"
    while position < len(value):
        while position < len(value) and (value[position] in spaces or value[position] == ","):
            position += 1
        if position >= len(value):
            break
        start = position
        while position < len(value) and value[position] not in spaces:
            position += 1
        url = value[start:position]
        if url.endswith(","):
            urls.append(url.rstrip(","))
            continue
        urls.append(url)
        depth = 0  # skip the descriptors, up to the next comma outside parentheses
        while position < len(value) and not (value[position] == "," and depth == 0):
            depth += {"(": 1, ")": -1}.get(value[position], 0)
            position += 1
    return urls


SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


def broken_links(root: bytes, site: dict[bytes, tuple]) -> list[str]:
    """Every URL in every page of the site that does not lead to a regular file of the site."""
    problems = []
    for page, entry in sorted(site.items()):
        if entry[0] != "file" or not page.lower().endswith(b".html"):
            continue
        with open(os.path.join(root, b"out", page), "rb") as handle:
            text = handle.read().decode("utf-8", "surrogateescape")
        parser = _LinkParser()
        try:
            parser.feed(text)
            parser.close()
        except Exception as error:  # HTMLParser is lenient; this is a guard, not an expectation
            problems.append(f"{show(page)}: the page does not parse: {error}")
            continue
        folder = os.path.dirname(page)
        for attribute, url in parser.urls:
            target = url.split("#", 1)[0].split("?", 1)[0]
            if not target or SCHEME.match(target) or target.startswith("//"):
                continue
            if target.startswith("/"):
                problems.append(f"{show(page)}: {attribute}={url!r} is an absolute path")
                continue
            decoded = unquote_to_bytes(target.encode("utf-8", "surrogateescape"))
            resolved = os.path.normpath(os.path.join(folder, decoded)) if folder else os.path.normpath(decoded)
            if resolved.startswith(b"../") or resolved == b"..":
                problems.append(f"{show(page)}: {attribute}={url!r} leads out of the site")
            elif site.get(resolved, ("missing",))[0] != "file":
                problems.append(f"{show(page)}: {attribute}={url!r} -> {show(resolved)} is {describe(site.get(resolved))}")
    return problems


# MARK: - The checks, one per invariant


@dataclass
class Ran:
    """One finished (or stopped) run of the binary."""

    argv: list[str]
    status: int | None  # None when the harness stopped it
    seconds: float
    stderr: bytes
    hang: str | None = None  # why the harness stopped it
    peak_kb: int = 0  # the most memory one of its processes held (resident, in KiB)
    peak_process: str = ""  # which: "the build" or its command line


CRASH_REASON = re.compile(r"\*\*\* (Program crashed: .*?|Swift runtime failure: .*?) \*\*\*|(Fatal error: .*)")
CRASH_FRAME = re.compile(r"0x[0-9a-f]+ (.+?) \+ \d+ in waterfall(?: at (?:.*/Sources/)?(.*))?$")


def _tail(stderr: bytes) -> str:
    """The gist of stderr: a crash's reason and the first frame in the waterfall binary (Swift's backtrace),
    else the last lines."""
    lines = stderr.decode("utf-8", "backslashreplace").strip().splitlines()
    if not lines:
        return "(nothing on stderr)"
    reason = next((m.group(1) or m.group(2) for m in map(CRASH_REASON.search, lines) if m), None)
    frame = next((m for m in map(CRASH_FRAME.search, lines) if m), None)
    if reason or frame:
        where = ""
        if frame:
            where = f" in {frame.group(1)}" + (f" ({frame.group(2)})" if frame.group(2) and "compiler-generated" not in frame.group(2) else "")
        return f"{reason or 'crash'}{where}"
    return (" | ".join(lines[-3:]))[:400]


def check_exit(runs: list[Ran]) -> list[str]:
    """1: exit 0, 1 or 64; a signal or a hang is a failure."""
    problems = []
    for run in runs:
        if run.hang:
            problems.append(f"hang: {run.hang}; stderr: {_tail(run.stderr)}")
        elif run.status is not None and run.status < 0:
            name = signal.Signals(-run.status).name if -run.status in signal.valid_signals() else str(-run.status)
            problems.append(f"killed by {name} after {run.seconds:.1f} s; stderr: {_tail(run.stderr)}")
        elif run.status not in (0, 1, 64):
            problems.append(f"exit status {run.status}; stderr: {_tail(run.stderr)}")
    return problems


def check_outside(before: Snapshot, after: Snapshot, cache: bytes | None, owned: set[bytes]) -> list[str]:
    """2: outside out/ and the cache folder nothing changed; inside the cache folder, nothing the user
    (the harness) put there changed either."""
    problems = []
    for path in sorted(set(before) | set(after)):
        if under(path, b"out"):
            continue
        if under(path, cache) and path not in owned:
            continue
        if before.get(path) != after.get(path):
            problems.append(f"{show(path)}: {describe(before.get(path))} became {describe(after.get(path))}")
    return _cap(problems)


def check_decoys(decoys: dict[bytes, tuple], after: Snapshot) -> list[str]:
    """3: the user's files in the output are still there, byte for byte."""
    return [f"{show(path)}: {describe(entry)} became {describe(after.get(path))}"
            for path, entry in sorted(decoys.items()) if after.get(path) != entry]


def check_no_symlinks(site: dict[bytes, tuple]) -> list[str]:
    """4: no symlink in the site."""
    return _cap([f"out/{show(path)} is a {describe(entry)}" for path, entry in sorted(site.items()) if entry[0] == "link"])


def check_links(root: bytes, site: dict[bytes, tuple]) -> list[str]:
    """5: every link resolves."""
    return _cap(broken_links(root, site))


MARKER = re.compile(re.escape(MARKER_PREFIX.encode()) + rb"[a-z0-9]{10}")


def check_leaks(root: bytes, site: dict[bytes, tuple], tokens: dict[bytes, str], outside_hashes: dict[str, bytes],
                allowed: set[bytes], folder: bytes = b"out") -> list[str]:
    """6: no marker token in a site file or file name, no site file equal to an outside file. `site`: the
    files by path relative to `folder` (the output, or the cache)."""
    owners = {token: path for path, token in tokens.items()}
    problems = []

    def leaked(token: str) -> bool:
        owner = owners.get(token)
        return owner is None or not any(under(owner, a) for a in allowed)

    for path, entry in sorted(site.items()):
        shown = show(folder + b"/" + path)
        for token in {m.decode() for m in MARKER.findall(path.lower())}:
            if leaked(token):
                problems.append(f"{shown}: its name holds the marker of {show(owners.get(token, b'?'))}")
        if entry[0] != "file":
            continue
        if entry[1] in outside_hashes and not any(under(outside_hashes[entry[1]], a) for a in allowed):
            problems.append(f"{shown} is a copy of {show(outside_hashes[entry[1]])}")
            continue
        with open(os.path.join(root, folder, path), "rb") as handle:
            data = handle.read().lower()
        for token in sorted({m.decode() for m in MARKER.findall(data)}):
            if leaked(token):
                problems.append(f"{shown} holds the marker of {show(owners.get(token, b'an unknown file'))}")
    return _cap(problems)


def check_cache_leaks(root: bytes, snap: Snapshot, cache: bytes | None, tokens: dict[bytes, str],
                      outside_hashes: dict[str, bytes], allowed: set[bytes]) -> list[str]:
    """6, in the cache: no regular file of the cache folder holds a marker token or an outside file's bytes
    (a photo swapped for a link to an outside file is not stored under any key). Only a folder the build
    made its cache (it holds CACHEDIR.TAG) is looked at."""
    folder = cache if cache is not None else STATE + b"/cache"
    if snap.get(folder + b"/CACHEDIR.TAG", ("missing",))[0] != "file":
        return []
    files = {p[len(folder) + 1:]: e for p, e in snap.items() if under(p, folder) and p != folder}
    return check_leaks(root, files, tokens, outside_hashes, allowed, folder)


def check_memory(runs: list[Ran]) -> list[str]:
    """8: no process of the build held more than MEMORY_LIMIT_MB."""
    return [f"{run.peak_process or 'the build'} held {run.peak_kb // 1024} MiB (a bomb decoded, not refused from its "
            f"header?)" for run in runs if run.peak_kb > MEMORY_LIMIT_MB * 1024]


SPACE = re.compile(r"no space left|out of (disk )?space|disk (is )?full|quota", re.IGNORECASE)


def check_full_disk(runs: list[Ran], before: Snapshot, after: Snapshot, scratch: list[bytes]) -> list[str]:
    """9: a build that ran out of space stopped: exit status 1, one line of stderr about the space, the site
    as it was before, no file left in the scratch folders (`scratch`, sandbox paths)."""
    problems = []
    for run in runs:
        if run.hang or (run.status is not None and run.status < 0):
            continue  # invariant 1's failure
        if run.status != 1:
            problems.append(f"exit status {run.status} on a full disk, not 1; stderr: {_tail(run.stderr)}")
        lines = run.stderr.decode("utf-8", "backslashreplace").splitlines()
        about = [line for line in lines if SPACE.search(line)]
        if len(about) != 1:
            problems.append(f"{len(about)} lines of stderr name the lack of space, not 1: {_tail(run.stderr)}")
    site_before, site_after = site_paths(before), site_paths(after)
    changed = sorted(p for p in set(site_before) | set(site_after) if site_before.get(p) != site_after.get(p))
    if changed:
        problems.append("the site changed on a full disk: " + ", ".join(
            f"out/{show(p)} ({describe(site_before.get(p))} -> {describe(site_after.get(p))})" for p in changed[:4])
            + (f", … {len(changed) - 4} more" if len(changed) > 4 else ""))
    left = sorted(p for p, e in after.items() if e[0] != "dir" and any(under(p, folder) and p != folder for folder in scratch))
    if left:
        problems.append("half-written files left on a full disk: " + ", ".join(show(p) for p in left[:4])
                        + (f", … {len(left) - 4} more" if len(left) > 4 else ""))
    return problems


def check_fresh(site: dict[bytes, tuple], fresh: dict[bytes, tuple], decoys: set[bytes]) -> list[str]:
    """10: the site (less the user's own files, and the folders that hold them) is the fresh build's, file for
    file. `decoys`: the user's files, sandbox paths."""
    theirs = {d[len(b"out/"):] for d in decoys}
    holders = {os.path.dirname(d) for d in theirs}
    while b"" in holders:
        holders.discard(b"")
    for folder in list(holders):
        while folder:
            holders.add(folder)
            folder = os.path.dirname(folder)
    mine = {p: e for p, e in site.items() if p not in theirs and not (e[0] == "dir" and p in holders)}
    fresh = {p: e for p, e in fresh.items() if not (e[0] == "dir" and p in holders)}
    differ = sorted(p for p in set(mine) | set(fresh) if mine.get(p) != fresh.get(p))
    return _cap([f"out/{show(p)} is {describe(mine.get(p))}, in a fresh build {describe(fresh.get(p))}" for p in differ])


def reachable_outside(root: bytes, follow: bool) -> set[bytes]:
    """With --follow-symlinks, the sandbox paths outside the input and theme that links there lead to (all
    of them may be published); without it, nothing."""
    if not follow:
        return set()
    sandbox = os.path.realpath(root)
    reached: set[bytes] = set()
    for top in (b"input", b"theme"):
        for folder, dirs, files in os.walk(os.path.join(root, top)):
            for name in dirs + files:
                full = os.path.join(folder, name)
                if os.path.islink(full):
                    real = os.path.realpath(full)
                    if real == sandbox:
                        reached.add(b"")
                    elif real.startswith(sandbox + b"/"):
                        reached.add(real[len(sandbox) + 1:])
    if b"" in reached:
        return {b"outside", b"victim", b"stuff"}
    return reached


def check_index_and_strict(strict: bool, runs: list[Ran], bad: list[str], before: Snapshot, after: Snapshot,
                           clean: bool | None = None) -> list[str]:
    """7: exit 0 on a clean input means a site with index.html; --strict on a bad input means exit 1 and
    no change to the site. `clean`: whether the input had no bad entry (by default, when `bad` is empty;
    during swaps, an entry may have been bad at one time and not another)."""
    problems = []
    clean = not bad if clean is None else clean
    if clean and any(run.status == 0 for run in runs) and after.get(b"out/index.html", ("missing",))[0] != "file":
        problems.append(f"exit 0 but out/index.html is {describe(after.get(b'out/index.html'))}")
    if strict and bad:
        for run in runs:
            if run.status is not None and run.status >= 0 and run.status != 1:  # signals: see invariant 1
                problems.append(f"--strict with a bad entry ({bad[0]}) exited {run.status}, not 1")
        site_before, site_after = site_paths(before), site_paths(after)
        changed = sorted(p for p in set(site_before) | set(site_after) if site_before.get(p) != site_after.get(p))
        if changed:
            problems.append(f"--strict with a bad entry ({bad[0]}) changed the site: " +
                            ", ".join(f"out/{show(p)} ({describe(site_before.get(p))} -> {describe(site_after.get(p))})"
                                      for p in changed[:4]) + (f", … {len(changed) - 4} more" if len(changed) > 4 else ""))
    return problems


def _cap(problems: list[str], limit: int = 6) -> list[str]:
    """At most `limit` problems of one kind, and how many more."""
    return problems if len(problems) <= limit else problems[:limit] + [f"… and {len(problems) - limit} more"]

"""Swaps during a build: while `waterfall build` runs, photos of the input are replaced by a symlink to a file
outside the input, rewritten in place, replaced by a FIFO, deleted, or an album replaced by a symlink to an
outside folder, as a hostile user (or an unlucky sync) would.

To make a case replay, the swapper waits for a known point: the build's first decoder process (its child run
with `--decoder-process`, found through /proc as DecoderWatch.swift does); for a binary without decoder
processes, the first file it opens in the output's or the cache's scratch folders (it is making images). It
then stops the build and every process under it (SIGSTOP), makes the swaps, notes what the sandbox holds, and
lets them go on (SIGCONT). Its targets come from Random(seed) over the sorted listing at that point, and nothing
else (not which photos the build happens to have open), so a seed gives the same swaps on every run of the same
binary. If neither point comes (the build fails early, or has nothing to decode) the swaps are made when the
build has ended: then they are only changes before the next build.

At the first decoder process no photo has been decoded, so none is in the cache yet: a photo changed in one
byte with its size and time stamp kept is then either read after the change (all of it), or being read across
it (the build must notice: its change time moved). Made after the build ended, the same change would keep the
cached images of the photo by design (a size and time stamp the cache knows are that photo), so then the
time stamp moves.

Run as a program for a case's repro.sh, in the sandbox: `python3 swapper.py CACHE SEED KIND... -- COMMAND...`
runs the build and swaps during it.
"""
from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field

from cases import JPEGS, Recorder, Swap, fixture, is_photo_name, show

VIDEO_EXTENSIONS = (b".mp4", b".mov", b".m4v")


@dataclass
class Swapped:
    """What the swaps did. `touched` are the sandbox paths they changed (folders: with what is under them);
    `restore` says how to put each target back (a file's bytes, or an album moved away and back)."""

    when: str = ""
    text: list[str] = field(default_factory=list)
    touched: list[bytes] = field(default_factory=list)
    restore: list[tuple] = field(default_factory=list)
    during: bool = False  # made while the build ran (else after it ended)


def descendants(pid: int) -> list[int]:
    """Every process under `pid` (children first found through /proc/PID/task/*/children), not `pid`."""
    found, stack = [], [pid]
    while stack:
        parent = stack.pop()
        try:
            tasks = os.listdir(f"/proc/{parent}/task")
        except OSError:
            continue
        for task in tasks:
            try:
                with open(f"/proc/{parent}/task/{task}/children") as handle:
                    children = [int(word) for word in handle.read().split()]
            except OSError:
                continue
            for child in children:
                if child not in found:
                    found.append(child)
                    stack.append(child)
    return found


def is_decoder(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as handle:
            return b"--decoder-process" in handle.read().split(b"\0")
    except OSError:
        return False


def open_paths(pid: int) -> list[bytes]:
    """What the process has open, as paths (bytes), where they are files."""
    paths = []
    try:
        for fd in os.listdir(f"/proc/{pid}/fd"):
            try:
                paths.append(os.readlink(f"/proc/{pid}/fd/{fd}".encode()))
            except OSError:
                pass
    except OSError:
        pass
    return paths


def _state(pid: int) -> str | None:
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            return handle.read().rsplit(b")", 1)[1].split()[0].decode()
    except (OSError, IndexError):
        return None


class Swapper:
    """Watches one running build and makes `swap`'s changes at its trigger (see the module's notes)."""

    def __init__(self, root: bytes, swap: Swap, pid: int, cache: bytes | None, recorder: Recorder | None = None,
                 on_stopped=None):
        self.root, self.swap, self.pid, self.recorder = root, swap, pid, recorder
        real = os.path.realpath(root)
        cache_folder = os.path.join(real, cache) if cache is not None else os.path.join(real, b"out/.waterfall/cache")
        self.scratch = (os.path.join(real, b"out/.waterfall/tmp/"), os.path.join(cache_folder, b"tmp/"),
                        os.path.join(cache_folder, b"images/"))
        self.input = os.path.join(real, b"input") + b"/"
        self.on_stopped = on_stopped  # called with the Swapped while the build is stopped, after the swaps
        self.ended = threading.Event()
        self.result = Swapped()
        self.thread = threading.Thread(target=self._watch, daemon=True)

    def start(self) -> "Swapper":
        self.thread.start()
        return self

    def finish(self) -> Swapped:
        """After the build has ended: the swaps, made now if their point never came."""
        self.ended.set()
        if self.thread.ident is not None:
            self.thread.join()
        if not self.result.when:
            self.result.when = "after the build ended (no decoder process and no image written while it ran)"
            self._swap()
            if self.on_stopped:
                self.on_stopped(self.result)
        return self.result

    # -- watching

    def _watch(self) -> None:
        while not self.ended.is_set():
            when = self._trigger()
            if when:
                self._stop_and_swap(when)
                return
            time.sleep(0.001)

    def _trigger(self) -> str | None:
        if any(is_decoder(p) for p in descendants(self.pid)):
            return "when its first decoder process started"
        if any(path.startswith(self.scratch) for path in open_paths(self.pid)):
            return "when it began writing images, before any decoder process"
        return None

    def _open_inputs(self, pids: list[int]) -> list[bytes]:
        """The input's files those processes have open now (sandbox paths), sorted: for the record only (it
        depends on timing, so nothing is chosen by it)."""
        found = set()
        for pid in pids:
            for path in open_paths(pid):
                if path.startswith(self.input):
                    found.add(b"input/" + path[len(self.input):])
        return sorted(found)

    def _stop_and_swap(self, when: str) -> None:
        stopped = [self.pid] + descendants(self.pid)
        try:
            for pid in stopped:
                try:
                    os.kill(pid, signal.SIGSTOP)
                except ProcessLookupError:
                    pass
            # A stop is delivered, not done, when kill returns: wait until each is stopped (or gone).
            deadline = time.monotonic() + 2
            while time.monotonic() < deadline and any(_state(p) not in (None, "T", "t", "Z", "X") for p in stopped):
                time.sleep(0.001)
            open_now = self._open_inputs(stopped)
            self.result.when = when + (f" (it had {', '.join(show(p) for p in open_now)} open)" if open_now else "")
            self.result.during = True
            self._swap()
            if self.on_stopped:
                self.on_stopped(self.result)
        finally:
            for pid in reversed(stopped):
                try:
                    os.kill(pid, signal.SIGCONT)
                except ProcessLookupError:
                    pass

    # -- swapping

    def _swap(self) -> None:
        rng = random.Random(f"swap:{self.swap.seed}")
        photos, albums = self._listing()
        done = set()
        for kind in self.swap.kinds:
            if kind == "album-link-out":
                choices = [a for a in albums if not any(a == d or a.startswith(d + b"/") or d.startswith(a + b"/")
                                                        for d in done)]
                if choices:
                    album = rng.choice(choices)
                    done.add(album)
                    self._album_link_out(album, rng)
                    continue
                kind = "link-out"
            choices = [p for p in photos if p not in done and not any(p.startswith(d + b"/") for d in done)]
            if not choices:
                self.result.text.append(f"{kind}: no photo left to swap")
                continue
            target = rng.choice(choices)
            done.add(target)
            if kind == "flip":
                self._flip(target, keep_stamp=self.result.during)
            else:
                getattr(self, "_" + kind.replace("-", "_"))(target, rng)

    def _listing(self) -> tuple[list[bytes], list[bytes]]:
        """The input's photos (regular files with a photo's name) and albums, not through links, not hidden."""
        photos, albums, stack = [], [], [b"input"]
        while stack:
            folder = stack.pop()
            try:
                names = sorted(os.listdir(os.path.join(self.root, folder)))
            except OSError:
                continue
            for name in names:
                if name.startswith(b"."):
                    continue
                rel = folder + b"/" + name
                full = os.path.join(self.root, rel)
                if os.path.isdir(full) and not os.path.islink(full):
                    albums.append(rel)
                    stack.append(rel)
                elif os.path.isfile(full) and not os.path.islink(full) and is_photo_name(name):
                    photos.append(rel)
        return sorted(photos), sorted(albums)

    def _outside(self, prefix: bytes, suffixes: tuple[bytes, ...]) -> list[bytes]:
        try:
            names = sorted(os.listdir(os.path.join(self.root, b"outside")))
        except OSError:
            return []
        return [b"outside/" + n for n in names if n.startswith(prefix) and n.lower().endswith(suffixes)]

    def _note(self, target: bytes, text: str, restore: tuple | None, *touched: bytes) -> None:
        self.result.text.append(f"{show(target)}: {text}")
        self.result.touched.extend(touched or (target,))
        if restore:
            self.result.restore.append(restore)
        if self.recorder:
            self.recorder.add(f"#   swap: {show(target)}: {text}")

    def _keep(self, target: bytes) -> tuple:
        with open(os.path.join(self.root, target), "rb") as handle:
            return ("file", target, handle.read())

    def _link_out(self, target: bytes, rng: random.Random) -> None:
        video = target.lower().endswith(VIDEO_EXTENSIONS)
        candidates = (self._outside(b"video-", (b".mp4",)) if video else []) or \
            self._outside(b"photo-", (b".png",) if target.lower().endswith(b".png") else (b".jpg",)) or \
            self._outside(b"photo-", (b".png", b".jpg"))
        if not candidates:
            self._note(target, "no outside file to link to", None)
            return
        outside = rng.choice(candidates)
        restore = self._keep(target)
        full = os.path.join(self.root, target)
        if video:
            # The case: an outside video of the same size and time stamp as the one it replaces.
            info = os.stat(full)
            os.utime(os.path.join(self.root, outside), ns=(info.st_atime_ns, info.st_mtime_ns))
        if rng.random() < 0.5:
            link = os.path.join(os.path.realpath(self.root), outside)
        else:
            link = os.path.relpath(outside, os.path.dirname(target))
        os.unlink(full)
        os.symlink(link, full)
        self._note(target, f"replaced by a symlink to {show(outside)}", restore)

    def _rewrite(self, target: bytes, rng: random.Random) -> None:
        restore = self._keep(target)
        other = fixture(rng.choice(JPEGS)).read_bytes()
        with open(os.path.join(self.root, target), "r+b") as handle:  # the same file: its inode stays
            handle.truncate(0)
            handle.write(other)
        self._note(target, f"rewritten in place with another photo ({len(other)} bytes)", restore)

    def _flip(self, target: bytes, keep_stamp: bool) -> None:
        """One byte changed in place; while the build runs, with its size and time stamp kept: then only its
        change time and its bytes tell (see the module's notes)."""
        full = os.path.join(self.root, target)
        restore = self._keep(target)
        data = restore[2]
        if len(data) < 4:
            self._note(target, "too short to change in place", None)
            return
        info = os.stat(full)
        at = len(data) - 3
        with open(full, "r+b") as handle:
            handle.seek(at)
            handle.write(bytes([data[at] ^ 0xFF]))
        if keep_stamp:
            os.utime(full, ns=(info.st_atime_ns, info.st_mtime_ns))
            self._note(target, "one byte changed in place, its size and time stamp kept", restore)
        else:
            self._note(target, "one byte changed in place", restore)

    def _fifo(self, target: bytes, rng: random.Random) -> None:
        restore = self._keep(target)
        full = os.path.join(self.root, target)
        os.unlink(full)
        os.mkfifo(full)
        self._note(target, "replaced by a FIFO", restore)

    def _delete(self, target: bytes, rng: random.Random) -> None:
        restore = self._keep(target)
        os.unlink(os.path.join(self.root, target))
        self._note(target, "deleted", restore)

    def _album_link_out(self, album: bytes, rng: random.Random) -> None:
        outside = self._outside(b"album-", (b"",))
        outside = [o for o in outside if os.path.isdir(os.path.join(self.root, o))]
        if not outside:
            self._note(album, "no outside folder to link to", None)
            return
        target = rng.choice(outside)
        # Moved aside, not into outside/: its photos are the input's own, never secrets (nor are their copies
        # in the input, or in the site from before).
        created = not os.path.isdir(os.path.join(self.root, b"aside"))
        os.makedirs(os.path.join(self.root, b"aside"), exist_ok=True)
        moved = b"aside/moved-" + str(len(self.result.restore)).encode() + b"-" + album.rpartition(b"/")[2][:200]
        os.rename(os.path.join(self.root, album), os.path.join(self.root, moved))
        os.symlink(os.path.relpath(target, os.path.dirname(album)), os.path.join(self.root, album))
        self._note(album, f"album moved to {show(moved)} and replaced by a symlink to {show(target)}",
                   ("move", album, moved), album, moved, *([b"aside"] if created else []))


def main(argv: list[str]) -> int:
    """For repro.sh, in the sandbox: runs the build (the command after --) and swaps during it, as the harness
    does; exits with the build's status."""
    if "--" not in argv or argv.index("--") < 3:
        print("usage: swapper.py CACHE|- SEED KIND... -- WATERFALL build ...", file=sys.stderr)
        return 2
    split = argv.index("--")
    cache, seed, kinds, command = argv[0], int(argv[1]), tuple(argv[2:split]), argv[split + 1:]
    build = subprocess.Popen(command)
    swapper = Swapper(b".", Swap(seed, kinds), build.pid, None if cache == "-" else os.fsencode(cache)).start()
    status = build.wait()
    swapped = swapper.finish()
    print(f"swapped {swapped.when}: " + "; ".join(swapped.text), file=sys.stderr)
    return status if status >= 0 else 128 - status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

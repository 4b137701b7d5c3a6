"""The hostile-folder test (issue 10): generated sandboxes full of hostile names, links, FIFOs, configs and
themes, built, changed and built again by the real `waterfall` binary; after every build, the invariants
of `invariants.py` must hold.

One test per case, so a failure names its case; the message says the seed, the case, the step, the
invariant and what broke, and how to run that case alone. See README.md for the switches.
"""
from __future__ import annotations

import os
import random
import re
import resource
import select
import shutil
import stat
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field, replace
from pathlib import Path

import pytest

import bombs
import disk
import invariants as inv
from cases import (REPO, Build, Case, Feature, Mutation, Node, Recorder, Swap, apply_mutation, generate, lay_out,
                   marked_photo, q, smaller_cases)
from swapper import Swapped, Swapper, descendants
from swapper import _state as swapper_state

ARTIFACTS = REPO / "Tests" / "Artifacts" / "hostile"
# A build that waits on a FIFO (nobody in the sandbox ever writes one) or reads an endless device
# (/dev/zero) can never finish: after this long in that state it is reported as a hang at once, rather
# than after the full timeout.
STUCK_GRACE = 2.0
BLOCKED_ON_PIPE = {"wait_for_partner", "fifo_open", "pipe_read", "pipe_wait", "pipe_read_wait", "anon_pipe_read"}
HARMLESS_DEVICES = ("/dev/null", "/dev/tty", "/dev/pts/", "/dev/console")


@dataclass
class Failure:
    invariant: int
    step: str
    detail: str

    @property
    def kind(self) -> str:
        """What shrinking keeps: the invariant, and for 1 and 7 the sort of failure (a hang on a FIFO, a
        SIGSEGV, an exit status), so that a minimal case shows the same bug, not another one."""
        if self.invariant == 1:
            return "1: " + re.split(r" after | for |;", self.detail)[0]
        if self.invariant == 7:
            match = re.search(r"exited -?\d+|changed the site|exit 0 but", self.detail)
            return "7: " + (match.group(0) if match else "")
        return str(self.invariant)


@dataclass
class Outcome:
    failures: list[Failure] = field(default_factory=list)
    recorder: Recorder = field(default_factory=Recorder)

    @property
    def invariants(self) -> set[int]:
        return {f.invariant for f in self.failures}

    @property
    def kinds(self) -> set[str]:
        return {f.kind for f in self.failures}


# MARK: - Running the binary


def _limits() -> None:
    """In the child: no core files (they would land in the sandbox), bounded memory and file size, so a
    runaway build fails with a signal instead of taking the machine down."""
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))
    resource.setrlimit(resource.RLIMIT_FSIZE, (2 << 30, 2 << 30))


def _stuck(pid: int) -> str | None:
    """Why `pid` cannot finish, if it surely cannot: a thread waits on a FIFO (its kernel wait channel), or
    it holds a FIFO or an endless device such as /dev/zero open (Linux /proc)."""
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/wchan") as handle:
                channel = handle.read().strip()
            if channel in BLOCKED_ON_PIPE:
                return f"waiting on a FIFO (kernel wait channel {channel})"
        for fd in os.listdir(f"/proc/{pid}/fd"):
            link = os.readlink(f"/proc/{pid}/fd/{fd}")
            if link.startswith(("pipe:", "socket:", "anon_inode:")) or link.startswith(HARMLESS_DEVICES):
                continue
            mode = os.stat(f"/proc/{pid}/fd/{fd}").st_mode
            if stat.S_ISFIFO(mode):
                return f"reading the FIFO {link}"
            if stat.S_ISCHR(mode):
                return f"reading the device {link}"
    except OSError:
        pass
    return None


def run_builds(binary: str, root: bytes, argvs: list[list[str]], timeout: float, on_start=None) -> list[inv.Ran]:
    """Runs the builds at once (usually one) in `root`; each is stopped (its process group killed) after
    `timeout` seconds, or when it has been stuck (see `_stuck`) for STUCK_GRACE seconds. Each run's memory
    is the most any one of its processes held: sampled from /proc while it runs (VmHWM, a process's own
    peak), and the kernel's account of it and every process it waited for (wait4's ru_maxrss) when it ends.
    `on_start(pid)`, if given, is called once the first build has started and returns something whose
    `finish()` is called once every build has ended (a Swapper)."""
    env = dict(os.environ, LC_ALL="C.UTF-8", NO_COLOR="1")
    started = time.monotonic()
    running = []
    for argv in argvs:
        stderr = tempfile.TemporaryFile()
        process = subprocess.Popen([binary] + argv, cwd=root, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                   stderr=stderr, env=env, start_new_session=True, preexec_fn=_limits)
        running.append({"argv": argv, "process": process, "stderr": stderr, "hang": None, "blocked": None, "end": None,
                        "peak": (0, "")})
    watcher = on_start(running[0]["process"].pid) if on_start else None
    # Woken the moment a build ends (its pidfd turns readable), else after `pause` to sample and look for a
    # hang: most builds take a fraction of a second, and 600 of them each noticed 50 ms late cost half a minute.
    exits = select.poll()
    for r in running:
        r["pidfd"] = os.pidfd_open(r["process"].pid)
        exits.register(r["pidfd"], select.POLLIN)
    pause = 0.005
    try:
        while any(r["end"] is None for r in running):
            exits.poll(pause * 1000)
            pause = min(pause * 2, 0.1)
            now = time.monotonic()
            for r in running:
                if r["end"] is not None:
                    continue
                process = r["process"]
                r["peak"] = max(r["peak"], _peak_memory(process.pid))
                if _reap(process, r):
                    r["end"] = now
                    exits.unregister(r["pidfd"])
                    continue
                why = _stuck(process.pid)
                if why is None:
                    r["blocked"] = None
                elif r["blocked"] is None:
                    r["blocked"] = now
                elif now - r["blocked"] >= STUCK_GRACE:
                    r["hang"] = f"{why} for {STUCK_GRACE:.0f} s: it can never finish"
                if now - started > timeout:
                    r["hang"] = f"still running after {timeout:.0f} s"
                if r["hang"]:
                    _kill(process)
                    r["end"] = now
                    exits.unregister(r["pidfd"])
    finally:
        for r in running:
            if "pidfd" in r:
                os.close(r["pidfd"])
        if watcher is not None:
            watcher.finish()
    results = []
    for r in running:
        r["stderr"].seek(0)
        status = None if r["hang"] else r["process"].returncode
        results.append(inv.Ran(r["argv"], status, r["end"] - started, r["stderr"].read(), r["hang"],
                               peak_kb=r["peak"][0], peak_process=r["peak"][1]))
        r["stderr"].close()
    return results


def _reap(process: subprocess.Popen, r: dict) -> bool:
    """Whether the build has ended (reaped here with wait4, for its memory and that of the processes it
    waited for)."""
    pid, status, usage = os.wait4(process.pid, os.WNOHANG)
    if pid == 0:
        return False
    process.returncode = os.waitstatus_to_exitcode(status)
    r["peak"] = max(r["peak"], (usage.ru_maxrss, "the build or a process it waited for"))
    return True


def _peak_memory(pid: int) -> tuple[int, str]:
    """The most memory (KiB, resident) one process of the build has held so far, and which."""
    best = (0, "")
    for member in [pid] + descendants(pid):
        try:
            with open(f"/proc/{member}/status", "rb") as handle:
                line = next((l for l in handle if l.startswith(b"VmHWM:")), b"")
            kilobytes = int(line.split()[1]) if line else 0
            if kilobytes > best[0]:
                best = (kilobytes, "the build" if member == pid else _command(member))
        except (OSError, ValueError, IndexError):
            continue
    return best


def _command(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as handle:
            words = handle.read().split(b"\0")
    except OSError:
        return f"process {pid}"
    return " ".join(os.path.basename(w).decode("utf-8", "replace") if n == 0 else w.decode("utf-8", "replace")
                    for n, w in enumerate(words[:2]) if w) or f"process {pid}"


def _kill(process: subprocess.Popen) -> None:
    try:
        os.killpg(process.pid, 9)
    except ProcessLookupError:
        pass
    process.wait()


# MARK: - Running a case


def build_argv(case: Case, build: Build) -> list[str]:
    argv = ["build", "input", "-o", "out", "-q"]
    if case.theme:
        argv += ["--templates", "theme"]
    if case.cache is not None:
        argv += ["--cache-dir", case.cache]
    return argv + build.flags()


def execute(case: Case, root: bytes, binary: str, timeout: float) -> Outcome:
    """Lays the case out in the empty folder `root`, runs its steps and checks every invariant after every
    build. Stops after a hang or a build over the memory limit (the case's later builds would do the same)."""
    outcome = Outcome()
    if case.disk:
        os.makedirs(os.path.join(root, b"out"))
        disk.mount(os.path.join(root, b"out"))
        outcome.recorder.add(f"mkdir -p out && mount -t tmpfs -o size={disk.ROOM_KB}k,mode=755 tmpfs out  # as root")
    lay_out(root, case, outcome.recorder)
    initial = inv.snapshot(root)
    # The user's files: everything the harness made. Those in the output are the decoys.
    owned = {p for p in initial if not inv.under(p, b"out")}
    decoys = {p: e for p, e in initial.items()
              if inv.under(p, b"out") and e[0] == "file" and not inv.under(p, inv.STATE)}
    tokens = case.tokens()
    cache = case.cache.encode("utf-8", "surrogateescape") if case.cache is not None else None
    cache_folder = cache if cache is not None else inv.STATE + b"/cache"
    builds = 0
    published_allowed: set[bytes] = set()
    cache_allowed: set[bytes] = set()  # what a build with --follow-symlinks may have stored in the cache
    last_ok = False  # whether every run of the last build exited 0
    room_again = False  # a build ran out of space where the one before it, with room, exited 0
    swapped: list[tuple] = []  # how to put back what the last swaps changed
    for number, step in enumerate(case.steps, start=1):
        if isinstance(step, Mutation):
            done = apply_mutation(root, case, step, outcome.recorder, swapped)
            outcome.recorder.add(f"# {step.describe()}: {done.text}")
            owned = {p for p in owned if not any(inv.under(p, r) for r in done.removed)} | set(done.added)
            tokens.update(done.tokens)
            continue
        builds += 1
        where = f"step {number}, build {builds} ({step.describe()})"
        before = inv.snapshot(root)
        bad = inv.bad_paths(root, step.follow, cache)
        argv = build_argv(case, step)
        shell = " ".join(_shell_quote(a) for a in argv)
        swaps = SwapWatch(root, step, cache, outcome.recorder) if step.swap else None
        if step.concurrent:
            outcome.recorder.add(f'"$WATERFALL" {shell} & "$WATERFALL" {shell} & wait')
        elif step.swap:
            outcome.recorder.add(f'python3 "$REPO"/Tests/Hostile/swapper.py {_shell_quote(case.cache or "-")} '
                                 f'{step.swap.seed} {" ".join(step.swap.kinds)} -- "$WATERFALL" {shell}; '
                                 f'echo "exit status $?"')
        else:
            outcome.recorder.add(f'"$WATERFALL" {shell}; echo "exit status $?"')
        runs = run_builds(binary, root, [argv, argv] if step.concurrent else [argv], timeout,
                          on_start=swaps.start if swaps else None)
        after = inv.snapshot(root)
        site = inv.site_paths(after)
        outside_hashes = {e[1]: p for p, e in before.items() if inv.under(p, b"outside") and e[0] == "file"}
        if os.path.isfile("/etc/hostname") and os.path.getsize("/etc/hostname") >= 2:
            outside_hashes[inv.sha256_file(b"/etc/hostname")] = b"/etc/hostname"
        allowed = inv.reachable_outside(root, step.follow)
        if step.follow and any(p == b"/etc/hostname" for p in outside_hashes.values()):
            allowed.add(b"/etc/hostname")
        expected, clean = before, not bad
        if swaps:
            result = swaps.swapper.result
            outcome.recorder.add(f"#   (swapped {result.when})")
            swapped = result.restore
            expected, owned = _after_swaps(before, swaps.snapshot, result.touched, owned)
            allowed |= swaps.allowed
            if result.during:
                # The build may have read an entry before or after the swaps: it is bad if it was both times.
                clean = not bad and not swaps.bad
                bad = {p: why for p, why in bad.items() if p in swaps.bad}
        cache_allowed |= allowed
        if any(run.status == 0 for run in runs):
            published_allowed = allowed
        else:
            # A build that failed changed nothing: the site is still the one an earlier build published,
            # with what that build was allowed to publish (--follow-symlinks).
            allowed = allowed | published_allowed
        hung = any(run.hang for run in runs)
        crashed = any(run.status is not None and run.status < 0 for run in runs)
        bad_lines = [f"{inv.show(p)}: {why}" for p, why in bad.items()]
        checks = [
            (1, inv.check_exit(runs)),
            (2, inv.check_outside(expected, after, cache, owned)),
            (3, inv.check_decoys(decoys, after)),
            (4, inv.check_no_symlinks(site)),
            # A build that crashed or was killed may have stopped between a page and its images: that is
            # invariant 1's failure, not another one.
            (5, [] if hung or crashed else inv.check_links(root, site)),
            (6, inv.check_leaks(root, site, tokens, outside_hashes, allowed)
             + inv.check_cache_leaks(root, after, cache, tokens, outside_hashes, cache_allowed)),
            (7, inv.check_index_and_strict(step.strict, runs, bad_lines, before, after, clean)),
            (8, inv.check_memory(runs)),
        ]
        if step.full_disk and last_ok and case.disk:
            scratch = [inv.STATE + b"/tmp", cache_folder + b"/tmp"]
            checks.append((9, inv.check_full_disk(runs, before, after, scratch)))
        if step.fresh and not hung:
            checks.append((10, _compare_with_fresh(case, step, root, binary, timeout, runs, site, set(decoys),
                                                   room_again, outcome.recorder)))
        room_again = step.full_disk and last_ok and case.disk
        for invariant, problems in checks:
            outcome.failures += [Failure(invariant, where, problem) for problem in problems]
        last_ok = all(run.status == 0 for run in runs)
        if hung or any(f.invariant == 8 for f in outcome.failures):
            break  # the case's later builds would hang, or decode the bomb, the same way
    return outcome


class SwapWatch:
    """The swaps during one build (swapper.py), and what the sandbox held just after them, taken while the
    build is stopped: everything, its bad entries, and what a link in it leads to outside."""

    def __init__(self, root: bytes, step: Build, cache: bytes | None, recorder: Recorder):
        self.root, self.step, self.cache, self.recorder = root, step, cache, recorder
        self.swapper: Swapper | None = None
        self.snapshot: inv.Snapshot = {}
        self.bad: dict[bytes, str] = {}
        self.allowed: set[bytes] = set()

    def start(self, pid: int) -> Swapper:
        self.swapper = Swapper(self.root, self.step.swap, pid, self.cache, self.recorder, on_stopped=self._stopped).start()
        return self.swapper

    def _stopped(self, result: Swapped) -> None:
        self.snapshot = inv.snapshot(self.root)
        self.bad = inv.bad_paths(self.root, self.step.follow, self.cache)
        self.allowed = inv.reachable_outside(self.root, self.step.follow)


def _after_swaps(before: inv.Snapshot, during: inv.Snapshot, touched: list[bytes],
                 owned: set[bytes]) -> tuple[inv.Snapshot, set[bytes]]:
    """What the sandbox should hold after a build with swaps, as far as the build is concerned: what it held
    before, but for the paths the swaps changed, as they were just after them; and the user's files then."""
    expected = dict(before)
    for path in set(before) | set(during):
        if any(inv.under(path, t) for t in touched):
            if path in during:
                expected[path] = during[path]
            else:
                expected.pop(path, None)
    owned = {p for p in owned if p in expected} | {p for p in during if any(inv.under(p, t) for t in touched)}
    return expected, owned


def _compare_with_fresh(case: Case, step: Build, root: bytes, binary: str, timeout: float, runs: list[inv.Ran],
                        site: dict[bytes, tuple], decoys: set[bytes], expect_success: bool,
                        recorder: Recorder) -> list[str]:
    """10: a build of the same input into a new output with a new cache (beside the sandbox, in ../fresh)
    makes the same site, file for file, as this build did (less the user's own files in out/)."""
    if not all(run.status == 0 for run in runs):
        if expect_success:
            return [f"exited {[run.status for run in runs]} with room again, where the same build exited 0 before "
                    f"the disk was full; stderr: {inv._tail(runs[0].stderr)}"]
        return []
    fresh = os.path.join(os.path.dirname(root), b"fresh")
    shutil.rmtree(fresh, ignore_errors=True)
    os.mkdir(fresh)
    argv = ["build", "input", "-o", "../fresh/out", "-q"]
    argv += ["--templates", "theme"] if case.theme else []
    argv += ["--cache-dir", "../fresh/cache"] if case.cache is not None else []
    argv += step.flags()
    shown = " ".join(_shell_quote(a) for a in argv).replace("../fresh/", '"$fresh"/')
    recorder.add(f'fresh=$(mktemp -d) && "$WATERFALL" {shown}; echo "exit status $?"; '
                 f'diff -r -q --exclude=.waterfall out "$fresh"/out  # the same but for the user\'s files')
    ran = run_builds(binary, root, [argv], timeout)[0]
    try:
        if ran.status != 0:
            return [f"a fresh build of the same input exited {ran.status if ran.status is not None else ran.hang}, "
                    f"where this one exited 0; stderr: {inv._tail(ran.stderr)}"]
        return inv.check_fresh(site, inv.site_paths(inv.snapshot(fresh)), decoys)
    finally:
        shutil.rmtree(fresh, ignore_errors=True)


def _shell_quote(argument: str) -> str:
    return q(argument.encode("utf-8", "surrogateescape"))


def run_case(case: Case, binary: str, timeout: float, keep: Path | None = None) -> Outcome:
    """`execute` in a fresh temporary sandbox, removed afterwards unless `keep` names where to move it."""
    work = tempfile.mkdtemp(prefix="waterfall-hostile-")
    root = os.path.join(os.fsencode(work), b"sandbox")
    os.mkdir(root)
    try:
        outcome = execute(case, root, binary, timeout)
        if keep is not None:
            _release_disk(root, keep=True)
            if keep.exists():
                shutil.rmtree(keep)
            keep.parent.mkdir(parents=True, exist_ok=True)
            shutil.move(work, keep)
            write_artifacts(case, outcome, keep)
        return outcome
    finally:
        _release_disk(root, keep=False)
        if os.path.exists(work):
            shutil.rmtree(work, ignore_errors=True)


def _release_disk(root: bytes, keep: bool) -> None:
    """Unmounts the small disk at out/, if any; with `keep`, its files stay, in a plain folder."""
    out = os.path.join(root, b"out")
    if not os.path.isdir(out) or not disk.is_mounted(out):
        return
    if keep:
        copy = out + b".kept"
        shutil.copytree(out, copy, symlinks=True)
        disk.unmount(out)
        os.rmdir(out)
        os.rename(copy, out)
    else:
        disk.unmount(out)


# MARK: - Reporting


def repro_script(case: Case, outcome: Outcome) -> str:
    """A bash script that recreates the sandbox and runs the same steps (mutations as they happened)."""
    head = f"""#!/usr/bin/env bash
# {case.label} of Tests/Hostile, replayed: bash repro.sh [FOLDER] (default ./hostile-repro, which must not exist)
set -u
REPO={_shell_quote(str(REPO))}
WATERFALL=${{WATERFALL_BIN:-$REPO/.build/debug/waterfall}}
case "$WATERFALL" in /*) ;; *) WATERFALL=$PWD/$WATERFALL ;; esac
wf_write() {{ python3 -c 'import base64, os, sys; open(os.fsencode(sys.argv[1]), "wb").write(base64.b64decode(sys.stdin.read()) * int(sys.argv[2]))' "$1" "$2"; }}
wf_bomb() {{ python3 -c 'import os, sys; sys.path.insert(0, sys.argv[3] + "/Tests/Hostile"); import bombs; open(os.fsencode(sys.argv[1]), "wb").write(bombs.file_bytes(sys.argv[2]))' "$1" "$2" "$REPO"; }}
mkdir "${{1:-hostile-repro}}" && cd "${{1:-hostile-repro}}" || exit 1
"""
    return head + "\n".join(outcome.recorder.lines) + "\n"


def report(case: Case, outcome: Outcome, limit: int = 12) -> str:
    lines = [f"{case.label}: {len(outcome.failures)} failure(s) of invariant(s) {sorted(outcome.invariants)}"]
    for failure in outcome.failures[:limit]:
        lines.append(f"  [{case.label}] {failure.step}: invariant {failure.invariant} ({inv.TITLES[failure.invariant]}): "
                     f"{failure.detail}")
    if len(outcome.failures) > limit:
        lines.append(f"  … and {len(outcome.failures) - limit} more")
    lines.append("The case:")
    lines.append(case.describe())
    lines.append(f"Run it alone: make hostile-test HOSTILE_SEED={case.seed} HOSTILE_CASE={case.index} HOSTILE_KEEP=1 "
                 f"(add HOSTILE_SHRINK=1 for a minimal case)")
    return "\n".join(lines)


def write_artifacts(case: Case, outcome: Outcome, folder: Path) -> None:
    (folder / "repro.sh").write_text(repro_script(case, outcome))
    (folder / "report.txt").write_text(report(case, outcome, limit=1000) + "\n")


def shrink(case: Case, kind: str, binary: str, timeout: float, budget: float = 120.0) -> tuple[Case, Outcome]:
    """The smallest case found (greedily, within `budget` seconds) that still fails with `kind` (see
    Failure.kind)."""
    best, best_outcome = case, run_case(case, binary, timeout)
    deadline = time.monotonic() + budget
    improved = True
    while improved and time.monotonic() < deadline:
        improved = False
        for candidate in smaller_cases(best):
            if time.monotonic() > deadline:
                break
            outcome = run_case(candidate, binary, timeout)
            if kind in outcome.kinds:
                best, best_outcome, improved = candidate, outcome, True
                break
    return best, best_outcome


# MARK: - The test


def test_hostile_folder(case_index: int, hostile: dict) -> None:
    """Builds, mutates and rebuilds one generated hostile sandbox; every invariant must hold after every build."""
    case = generate(hostile["seed"], case_index)
    skipped = None
    if case.disk and disk.unavailable():
        skipped = f"{case.label} ran without its full-disk steps: {disk.unavailable()}"
        case = case.without_disk()
    keep_folder = ARTIFACTS / f"seed-{hostile['seed']}-case-{case_index}"
    outcome = run_case(case, hostile["binary"], hostile["timeout"], keep=keep_folder if hostile["keep"] else None)
    if not outcome.failures:
        if hostile["keep"] and keep_folder.exists():
            shutil.rmtree(keep_folder)  # only failing sandboxes are kept
        if skipped:
            pytest.skip(skipped)
        return
    message = report(case, outcome)
    if hostile["keep"]:
        message += f"\nKept: {keep_folder} (sandbox/, repro.sh, report.txt)"
    if hostile["shrink"]:
        # One minimal case per invariant, for the sort of failure it shows first.
        for invariant in sorted(outcome.invariants):
            kind = next(f.kind for f in outcome.failures if f.invariant == invariant)
            small, small_outcome = shrink(case, kind, hostile["binary"], hostile["timeout"])
            folder = keep_folder / f"minimal-invariant-{invariant}"
            if hostile["keep"]:
                run_case(small, hostile["binary"], hostile["timeout"], keep=folder)
            first = next(f for f in small_outcome.failures if f.kind == kind)
            message += (f"\nMinimal case for invariant {invariant}" + (f" ({folder}/repro.sh)" if hostile["keep"] else "")
                        + f":\n  {first.step}: {first.detail}\n"
                        + "\n".join("  " + line for line in small.describe().splitlines()))
    pytest.fail(message, pytrace=False)


# MARK: - The harness checks itself
#
# Against today's binary most cases fail, and against a fixed one they should all pass: neither says that
# the checks catch what they claim to. These tests break each promise on purpose, by hand.


def _tree(root: Path, files: dict[str, bytes]) -> bytes:
    for name, data in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    return os.fsencode(root)


def test_harness_srcset_parsing() -> None:
    """srcset URLs are found as the HTML standard finds them: a comma inside a URL is part of it."""
    assert inv.parse_srcset("a.jpg 500w, b,c.jpg 1000w") == ["a.jpg", "b,c.jpg"]
    assert inv.parse_srcset(" x.jpg,  y.jpg 2x ,z.jpg") == ["x.jpg", "y.jpg", "z.jpg"]
    assert inv.parse_srcset("p.jpg 1x (junk, more), q.jpg") == ["p.jpg", "q.jpg"]


def test_harness_catches_broken_links_symlinks_and_leaks(tmp_path: Path) -> None:
    page = (b'<link href="assets/s.css"><a href="photos/x%20y.html#tile-1"><img src="images/a%2Cb.jpg"'
            b' srcset="images/a%2Cb.jpg 500w, images/gone.jpg 1000w"></a><a href="https://example.com/">x</a>'
            b'<a href="../outside.html">up</a><p>zqsecretabcdefghij</p>')
    root = _tree(tmp_path, {"out/index.html": page, "out/assets/s.css": b"", "out/photos/x y.html": b"",
                            "out/images/a,b.jpg": b"", "out/copy.txt": b"outside bytes", "outside/f.txt": b"outside bytes"})
    os.symlink("/etc/hostname", tmp_path / "out" / "link.txt")
    site = inv.site_paths(inv.snapshot(root))
    broken = inv.check_links(root, site)
    assert len(broken) == 2 and "gone.jpg" in broken[0] and "leads out of the site" in broken[1], broken
    assert len(inv.check_no_symlinks(site)) == 1
    tokens = {b"outside/secret.txt": "zqsecretabcdefghij"}
    hashes = {inv.sha256_file(os.path.join(root, b"outside/f.txt")): b"outside/f.txt"}
    leaks = inv.check_leaks(root, site, tokens, hashes, allowed=set())
    assert len(leaks) == 2, leaks
    assert inv.check_leaks(root, site, tokens, hashes, allowed={b"outside"}) == []


def test_harness_catches_changed_files(tmp_path: Path) -> None:
    """Outside out/ every change counts; in the cache folder only changes to the user's own files."""
    root = _tree(tmp_path, {"input/a.jpg": b"1", "stuff/mine.txt": b"2", "out/README.md": b"3"})
    before = inv.snapshot(root)
    owned = {p for p in before if not inv.under(p, b"out")}
    decoys = {b"out/README.md": before[b"out/README.md"]}
    (tmp_path / "stuff" / "version").write_bytes(b"cache")  # the cache's own new file: fine
    (tmp_path / "out" / "index.html").write_bytes(b"site")  # the site: fine
    assert inv.check_outside(before, inv.snapshot(root), b"stuff", owned) == []
    (tmp_path / "stuff" / "mine.txt").unlink()
    (tmp_path / "input" / "a.jpg").write_bytes(b"changed")
    os.symlink("a.jpg", tmp_path / "input" / "new.jpg")
    (tmp_path / "out" / "README.md").unlink()
    after = inv.snapshot(root)
    assert len(inv.check_outside(before, after, b"stuff", owned)) == 3
    assert inv.check_decoys(decoys, after) == ["out/README.md: file " + before[b"out/README.md"][1][:12] + " became missing"]


def test_harness_finds_bad_entries(tmp_path: Path) -> None:
    jpeg = (REPO / "Tests/WaterfallKitTests/Fixtures/gallery/clock-motion-blur.jpg").read_bytes()
    root = _tree(tmp_path, {"input/good.jpg": jpeg, "input/Album/ok.jpg": jpeg, "input/notes.md": b"",
                            "input/junk.jpg": b"GIF89a", "outside/o.jpg": jpeg, "input/.hidden/x.jpg": b""})
    os.mkfifo(tmp_path / "input" / "fifo.jpg")
    os.symlink("../outside/o.jpg", tmp_path / "input" / "out.jpg")
    os.symlink("good.jpg", tmp_path / "input" / "in.jpg")
    os.symlink("nowhere", tmp_path / "input" / "gone.jpg")
    (tmp_path / "input" / "Album").joinpath(os.fsdecode(b"bad\xff.jpg")).write_bytes(jpeg)
    (tmp_path / "input" / "ring.heic").write_bytes(bombs.file_bytes("grid ring"))  # never published
    (tmp_path / "input" / "bomb.gif").write_bytes(bombs.file_bytes("GIF: 16000×15000 screen, three 1×1 frames"))  # may be
    bad = inv.bad_entries(root, follow=False, cache=None)
    assert sorted(b.split(":")[0] for b in bad) == sorted(
        ["input/Album/bad\\xff.jpg", "input/fifo.jpg", "input/gone.jpg", "input/junk.jpg", "input/out.jpg",
         "input/ring.heic"]), bad
    assert "input/out.jpg" not in " ".join(inv.bad_entries(root, follow=True, cache=None))
    assert inv.bad_entries(root, follow=False, cache=b"input") == []


def test_harness_reports_signals_and_hangs(tmp_path: Path) -> None:
    """A signal is named; a FIFO or /dev/zero read is a hang within seconds; anything else after the timeout."""
    os.mkfifo(tmp_path / "fifo")
    root = os.fsencode(tmp_path)
    runs = run_builds("/bin/sh", root, [["-c", "kill -SEGV $$"], ["-c", "exec cat fifo"], ["-c", "exec cat /dev/zero > /dev/null"],
                                        ["-c", "exit 3"], ["-c", "exit 64"]], timeout=60)
    problems = inv.check_exit(runs)
    assert len(problems) == 4, problems
    assert "SIGSEGV" in problems[0] and "FIFO" in problems[1] and "/dev/zero" in problems[2] and "exit status 3" in problems[3]
    assert max(run.seconds for run in runs) < 10
    slow = run_builds("/bin/sh", root, [["-c", "sleep 30"]], timeout=1)
    assert "still running after 1 s" in inv.check_exit(slow)[0]


def test_harness_measures_memory(tmp_path: Path) -> None:
    """The most memory one process of a build holds is found, in the build itself or in a process under it,
    whether it is still running (sampled) or has ended (wait4)."""
    hog = "import time; data = b'x' * (600 << 20); time.sleep(0.6)"
    root = os.fsencode(tmp_path)
    runs = run_builds("/bin/sh", root, [["-c", f"python3 -c \"{hog}\""], ["-c", f"python3 -c \"{hog}\" & wait"],
                                        ["-c", "exit 0"]], timeout=60)
    problems = inv.check_memory(runs)
    assert len(problems) == 2 and all("MiB" in p for p in problems), problems
    assert all(run.peak_kb >= 600 << 10 for run in runs[:2]) and runs[2].peak_kb < 64 << 10


def test_harness_checks_a_full_disk() -> None:
    """On a full disk: exit 1 and one line about the space; the site as it was; nothing left in scratch."""
    site = {b"out": ("dir",), b"out/index.html": ("file", "a"), b"out/.waterfall": ("dir",)}
    stopped = inv.Ran([], 1, 0.1, b"waterfall: warning: x.jpg: skipped\nwaterfall: out/.waterfall/cache/tmp/wf-1: cannot "
                      b"write: No space left on device; the build stopped, and the last site was left as it was\n")
    scratch = [b"out/.waterfall/tmp"]
    assert inv.check_full_disk([stopped], site, site, scratch) == []
    passed = inv.Ran([], 0, 0.1, b"waterfall: x.jpg: skipped: cannot write the JPEG: No space left on device\n" * 2)
    gutted = {**site, b"out/index.html": ("file", "b"), b"out/.waterfall/tmp/3-1": ("file", "c")}
    problems = inv.check_full_disk([passed], site, gutted, scratch)
    assert len(problems) == 4 and "exit status 0" in problems[0] and "2 lines" in problems[1], problems
    assert "out/index.html" in problems[2] and "out/.waterfall/tmp/3-1" in problems[3], problems


def test_harness_compares_with_a_fresh_build() -> None:
    """The site less the user's files (and folders that only hold them) against a fresh build's."""
    fresh = {b"index.html": ("file", "a"), b"images": ("dir",), b"images/a.jpg": ("file", "b")}
    site = {**fresh, b"README.md": ("file", "r"), b"photos": ("dir",), b"photos/keep.txt": ("file", "k")}
    decoys = {b"out/README.md", b"out/photos/keep.txt"}
    assert inv.check_fresh(site, fresh, decoys) == []
    stale = {**site, b"images/old.jpg": ("file", "o"), b"images/a.jpg": ("file", "z")}
    assert len(inv.check_fresh(stale, fresh, decoys)) == 2


def test_harness_looks_for_leaks_in_the_cache(tmp_path: Path) -> None:
    """A cache file holding an outside marker is a leak; a folder the build did not make its cache is not
    looked at."""
    root = _tree(tmp_path, {"out/.waterfall/cache/CACHEDIR.TAG": b"Signature", "cache/photos/a.json": b"zqsecretabcdefghij",
                            "out/.waterfall/cache/photos/1.json": b'{"caption": "zqsecretabcdefghij"}'})
    snap = inv.snapshot(root)
    tokens = {b"outside/photo.jpg": "zqsecretabcdefghij"}
    leaks = inv.check_cache_leaks(root, snap, None, tokens, {}, set())
    assert len(leaks) == 1 and "out/.waterfall/cache/photos/1.json" in leaks[0], leaks
    assert inv.check_cache_leaks(root, snap, b"cache", tokens, {}, set()) == []
    assert inv.check_cache_leaks(root, snap, None, tokens, {}, {b"outside"}) == []


def test_harness_swaps_while_a_build_is_stopped(tmp_path: Path) -> None:
    """The swapper acts when a decoder process appears under the build, with the build and its processes
    stopped; its targets come from its seed; putting them back restores the input byte for byte."""
    case = generate("harness", 0)
    root = os.path.join(os.fsencode(tmp_path), b"sandbox")
    os.mkdir(root)
    lay_out(root, case, None)
    before = inv.snapshot(root)
    seen: dict = {}

    def stopped(result) -> None:
        seen["states"] = [swapper_state(p) for p in [fake.pid] + descendants(fake.pid)]
        seen["snapshot"] = inv.snapshot(root)

    # A stand-in for a build: a shell whose child names itself a decoder process.
    fake = subprocess.Popen(["/bin/sh", "-c", "python3 -c 'import time; time.sleep(1)' --decoder-process & wait"],
                            start_new_session=True)
    kinds = ("link-out", "rewrite", "fifo", "delete", "album-link-out")
    swapper = Swapper(root, Swap(7, kinds), fake.pid, None, on_stopped=stopped).start()
    assert fake.wait(timeout=30) == 0  # let go on after the swaps
    result = swapper.finish()
    assert result.during and "decoder" in result.when, result.when
    assert set(seen["states"]) <= {"T", "t"}, seen["states"]
    changed = {p for p in set(before) | set(seen["snapshot"]) if before.get(p) != seen["snapshot"].get(p)}
    assert changed and all(any(inv.under(p, t) for t in result.touched) for p in changed), (changed, result.touched)
    kinds_seen = {seen["snapshot"].get(t, ("missing",))[0] for t in result.touched}
    assert {"link", "fifo", "missing", "file"} <= kinds_seen, (result.text, kinds_seen)
    assert result.touched == _replayed(case, kinds), "the same seed chooses the same targets"
    done = apply_mutation(root, case, Mutation("restore-swapped", 0), None, result.restore)
    assert done.removed and inv.snapshot(root) == before, done.text


def _replayed(case: Case, kinds: tuple[str, ...]) -> list[bytes]:
    """The targets the swapper picks, with the same seed, in a fresh copy of the case (swapped at once)."""
    with tempfile.TemporaryDirectory() as folder:
        root = os.path.join(os.fsencode(folder), b"sandbox")
        os.mkdir(root)
        lay_out(root, case, None)
        return Swapper(root, Swap(7, kinds), -1, None).finish().touched


# A stand-in for `waterfall build` (the harness passes it the same arguments): a child that names itself a
# decoder process, then every photo of the input copied into the output's images/ and, when asked, its cache,
# links followed (as a build that opens a path again after the scan would). On a full disk it says nothing
# and exits 0. Its mode comes from the environment of the test.
STAND_IN = r'''
import os, shutil, subprocess, sys
argv = sys.argv[1:]
output = argv[argv.index("-o") + 1]
mode = os.environ.get("STAND_IN_MODE", "")
subprocess.run([sys.executable, "-c", "import time; time.sleep(0.4)", "--decoder-process"])
folders = [os.path.join(output, "images")]
if "cache" in mode:
    folders.append(os.path.join(output, ".waterfall", "cache", "images"))
for folder in folders:
    os.makedirs(folder, exist_ok=True)
if "cache" in mode:
    with open(os.path.join(output, ".waterfall", "cache", "CACHEDIR.TAG"), "w") as tag:
        tag.write("Signature: 8a477f597d28d172789f06886806bc55\n")
for parent, _, names in sorted(os.walk("input")):
    for name in sorted(names):
        path = os.path.join(parent, name)
        if not name.endswith((".jpg", ".png")) or not os.path.isfile(path):
            continue
        if "nolinks" in mode and os.path.islink(path):
            continue
        for folder in folders:
            try:
                shutil.copyfile(path, os.path.join(folder, name))
            except OSError:
                pass  # a full disk: this stand-in does not care
try:
    with open(os.path.join(output, "index.html"), "w") as page:
        page.write("<!doctype html><title>x</title>")
except OSError:
    pass
'''


def _stand_in(tmp_path: Path) -> str:
    script = tmp_path / "stand-in-build"
    script.write_text(f"#!{sys.executable}\n" + STAND_IN)
    script.chmod(0o755)
    return str(script)


def _small_case(steps: list, disk_: bool = False) -> Case:
    """Three photos in the input, and outside a photo that carries a marker (what a swap links to)."""
    rng = random.Random("stand-in")
    token = "zqsecretstandin001"
    outside = b"outside/photo-" + token.encode() + b".jpg"
    photos = [Node(b"input", "dir")] + [Node(b"input/%s" % name.encode(), "file", source=f"Tests/WaterfallKitTests/Fixtures/gallery/{name}")
                                        for name in ("clock-motion-blur.jpg", "astronaut-helmet.jpg", "coffee-cup.jpg")]
    features = [Feature("outside photo", [Node(b"outside", "dir"), Node(outside, "file", chunk=marked_photo("jpeg", token, rng))],
                        {outside: token}),
                Feature("photos", photos), Feature("output", [Node(b"out", "dir")])]
    return Case("stand-in", 0, features, False, None, steps, disk=disk_)


@pytest.mark.parametrize("mode, leaks", [("", True), ("cache", True), ("nolinks", False)])
def test_harness_catches_a_swapped_photo_published(tmp_path: Path, monkeypatch, mode: str, leaks: bool) -> None:
    """Through the whole harness (execute: the swapper, the snapshot just after the swaps, the checks): a build
    that opens a photo again after a swap made it a link to an outside file, and publishes it (or caches it),
    fails invariant 6; one that does not follow links passes."""
    monkeypatch.setenv("STAND_IN_MODE", mode)
    root = os.path.join(os.fsencode(tmp_path), b"sandbox")
    os.mkdir(root)
    case = _small_case([Build(swap=Swap(3, ("link-out", "link-out", "link-out")))])
    outcome = execute(case, root, _stand_in(tmp_path), timeout=60)
    six = [f.detail for f in outcome.failures if f.invariant == 6]
    if not leaks:
        assert outcome.failures == [], report(case, outcome)
        return
    assert any("is a copy of outside/photo-zqsecretstandin001.jpg" in d and d.startswith("out/images/") for d in six), six
    if mode == "cache":
        assert any(d.startswith("out/.waterfall/cache/images/") for d in six), six
    assert "swap: input/" in "\n".join(outcome.recorder.lines), "the swaps are in repro.sh"


@pytest.mark.skipif(disk.unavailable() is not None, reason=str(disk.unavailable()))
def test_harness_catches_a_full_disk_passed_off_as_success(tmp_path: Path, monkeypatch) -> None:
    """Through the whole harness, on a real small tmpfs: a build that exits 0 though it could not write its
    images fails invariant 9 (the build with room before it passed)."""
    monkeypatch.setenv("STAND_IN_MODE", "")
    work = tmp_path / "work"
    work.mkdir()
    root = os.path.join(os.fsencode(work), b"sandbox")
    os.mkdir(root)
    plain = Build()
    case = _small_case([plain, Mutation("shrink-disk", 1), Mutation("add-large", 2), replace(plain, full_disk=True)], disk_=True)
    case = replace(case, features=[f for f in case.features if f.name != "output"])  # out/ is the tmpfs
    try:
        outcome = execute(case, root, _stand_in(tmp_path), timeout=60)
    finally:
        _release_disk(root, keep=False)
    nine = [f for f in outcome.failures if f.invariant == 9]
    assert nine and all("build 2" in f.step for f in nine), report(case, outcome)
    assert any("exit status 0 on a full disk" in f.detail for f in nine), [f.detail for f in nine]
    assert not [f for f in outcome.failures if "build 1" in f.step], report(case, outcome)

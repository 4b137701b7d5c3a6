"""The hostile-folder test (issue 10): generated sandboxes full of hostile names, links, FIFOs, configs and
themes, built, changed and built again by the real `waterfall` binary; after every build, the invariants
of `invariants.py` must hold.

One test per case, so a failure names its case; the message says the seed, the case, the step, the
invariant and what broke, and how to run that case alone. See README.md for the switches.
"""
from __future__ import annotations

import os
import re
import resource
import shutil
import stat
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

import invariants as inv
from cases import REPO, Build, Case, Mutation, Recorder, apply_mutation, generate, lay_out, q, smaller_cases

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


def run_builds(binary: str, root: bytes, argvs: list[list[str]], timeout: float) -> list[inv.Ran]:
    """Runs the builds at once (usually one) in `root`; each is stopped (its process group killed) after
    `timeout` seconds, or when it has been stuck (see `_stuck`) for STUCK_GRACE seconds."""
    env = dict(os.environ, LC_ALL="C.UTF-8", NO_COLOR="1")
    started = time.monotonic()
    running = []
    for argv in argvs:
        stderr = tempfile.TemporaryFile()
        process = subprocess.Popen([binary] + argv, cwd=root, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                   stderr=stderr, env=env, start_new_session=True, preexec_fn=_limits)
        running.append({"argv": argv, "process": process, "stderr": stderr, "hang": None, "blocked": None, "end": None})
    pause = 0.005
    while any(r["end"] is None for r in running):
        time.sleep(pause)
        pause = min(pause * 2, 0.1)
        now = time.monotonic()
        for r in running:
            if r["end"] is not None:
                continue
            process = r["process"]
            if process.poll() is not None:
                r["end"] = now
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
    results = []
    for r in running:
        r["stderr"].seek(0)
        status = None if r["hang"] else r["process"].returncode
        results.append(inv.Ran(r["argv"], status, r["end"] - started, r["stderr"].read(), r["hang"]))
        r["stderr"].close()
    return results


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
    build. Stops after a hang (the case's later builds would hang the same way)."""
    outcome = Outcome()
    lay_out(root, case, outcome.recorder)
    initial = inv.snapshot(root)
    # The user's files: everything the harness made. Those in the output are the decoys.
    owned = {p for p in initial if not inv.under(p, b"out")}
    decoys = {p: e for p, e in initial.items()
              if inv.under(p, b"out") and e[0] == "file" and not inv.under(p, inv.STATE)}
    tokens = case.tokens()
    cache = case.cache.encode("utf-8", "surrogateescape") if case.cache is not None else None
    builds = 0
    published_allowed: set[bytes] = set()
    for number, step in enumerate(case.steps, start=1):
        if isinstance(step, Mutation):
            done = apply_mutation(root, case, step, outcome.recorder)
            outcome.recorder.add(f"# {step.describe()}: {done.text}")
            owned = {p for p in owned if not any(inv.under(p, r) for r in done.removed)} | set(done.added)
            tokens.update(done.tokens)
            continue
        builds += 1
        where = f"step {number}, build {builds} ({step.describe()})"
        before = inv.snapshot(root)
        bad = inv.bad_entries(root, step.follow, cache)
        argv = build_argv(case, step)
        shell = " ".join(_shell_quote(a) for a in argv)
        if step.concurrent:
            outcome.recorder.add(f'"$WATERFALL" {shell} & "$WATERFALL" {shell} & wait')
        else:
            outcome.recorder.add(f'"$WATERFALL" {shell}; echo "exit status $?"')
        runs = run_builds(binary, root, [argv, argv] if step.concurrent else [argv], timeout)
        after = inv.snapshot(root)
        site = inv.site_paths(after)
        outside_hashes = {e[1]: p for p, e in before.items() if inv.under(p, b"outside") and e[0] == "file"}
        if os.path.isfile("/etc/hostname") and os.path.getsize("/etc/hostname") >= 2:
            outside_hashes[inv.sha256_file(b"/etc/hostname")] = b"/etc/hostname"
        allowed = inv.reachable_outside(root, step.follow)
        if step.follow and any(p == b"/etc/hostname" for p in outside_hashes.values()):
            allowed.add(b"/etc/hostname")
        if any(run.status == 0 for run in runs):
            published_allowed = allowed
        else:
            # A build that failed changed nothing: the site is still the one an earlier build published,
            # with what that build was allowed to publish (--follow-symlinks).
            allowed = allowed | published_allowed
        hung = any(run.hang for run in runs)
        crashed = any(run.status is not None and run.status < 0 for run in runs)
        checks = [
            (1, inv.check_exit(runs)),
            (2, inv.check_outside(before, after, cache, owned)),
            (3, inv.check_decoys(decoys, after)),
            (4, inv.check_no_symlinks(site)),
            # A build that crashed or was killed may have stopped between a page and its images: that is
            # invariant 1's failure, not another one.
            (5, [] if hung or crashed else inv.check_links(root, site)),
            (6, inv.check_leaks(root, site, tokens, outside_hashes, allowed)),
            (7, inv.check_index_and_strict(step.strict, runs, bad, before, after)),
        ]
        for invariant, problems in checks:
            outcome.failures += [Failure(invariant, where, problem) for problem in problems]
        if hung:
            break
    return outcome


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
            if keep.exists():
                shutil.rmtree(keep)
            keep.parent.mkdir(parents=True, exist_ok=True)
            shutil.move(work, keep)
            write_artifacts(case, outcome, keep)
        return outcome
    finally:
        if os.path.exists(work):
            shutil.rmtree(work, ignore_errors=True)


# MARK: - Reporting


def repro_script(case: Case, outcome: Outcome) -> str:
    """A bash script that recreates the sandbox and runs the same steps (mutations as they happened)."""
    head = f"""#!/usr/bin/env bash
# {case.label} of Tests/Hostile, replayed: bash repro.sh [FOLDER] (default ./hostile-repro, which must not exist)
set -u
REPO={_shell_quote(str(REPO))}
WATERFALL=${{WATERFALL_BIN:-$REPO/.build/debug/waterfall}}
case "$WATERFALL" in /*) ;; *) WATERFALL=$PWD/$WATERFALL ;; esac
wf_write() {{ python3 -c 'import base64, os, sys; open(os.fsencode(sys.argv[1]), "wb").write(base64.b64decode(sys.argv[2]) * int(sys.argv[3]))' "$1" "$2" "$3"; }}
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
    keep_folder = ARTIFACTS / f"seed-{hostile['seed']}-case-{case_index}"
    outcome = run_case(case, hostile["binary"], hostile["timeout"], keep=keep_folder if hostile["keep"] else None)
    if not outcome.failures:
        if hostile["keep"] and keep_folder.exists():
            shutil.rmtree(keep_folder)  # only failing sandboxes are kept
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
    bad = inv.bad_entries(root, follow=False, cache=None)
    assert sorted(b.split(":")[0] for b in bad) == sorted(
        ["input/Album/bad\\xff.jpg", "input/fifo.jpg", "input/gone.jpg", "input/junk.jpg", "input/out.jpg"]), bad
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

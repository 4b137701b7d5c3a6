"""A small disk for the output: a tmpfs mounted at the sandbox's out/ (as root), made full and roomy again by
remounting it with another size, so that a build runs out of space at a point the case chooses.

Uses mount(8) and umount(8): the standard library has no mount call. Every command is also what a case's
repro.sh runs.
"""
from __future__ import annotations

import functools
import os
import subprocess
import tempfile

ROOM_KB = 256 * 1024  # roomy: a size limit, not memory taken (tmpfs holds only what is written)


def mount(folder: bytes, kilobytes: int = ROOM_KB) -> None:
    _run(["mount", "-t", "tmpfs", "-o", f"size={kilobytes}k,mode=755", "tmpfs", folder])


def resize(folder: bytes, kilobytes: int) -> None:
    """A tmpfs can shrink to what it holds, not below."""
    _run(["mount", "-o", f"remount,size={kilobytes}k", folder])


def used_kb(folder: bytes) -> int:
    info = os.statvfs(folder)
    return (info.f_blocks - info.f_bfree) * info.f_frsize // 1024


def is_mounted(folder: bytes) -> bool:
    return os.path.ismount(folder)


def unmount(folder: bytes) -> None:
    # Lazily: a build the harness killed may leave a process behind for a moment.
    subprocess.run(["umount", "-l", folder], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)


@functools.cache
def unavailable() -> str | None:
    """Why this process cannot mount a small disk (not root, or the container withholds the capability), or
    None when it can."""
    if os.geteuid() != 0:
        return "mounting a small tmpfs needs root"
    with tempfile.TemporaryDirectory(prefix="waterfall-hostile-disk-") as folder:
        probe = os.fsencode(folder)
        try:
            mount(probe, 64)
        except (OSError, subprocess.CalledProcessError) as error:
            return f"cannot mount a tmpfs here ({error})"
        unmount(probe)
    return None


def _run(argv: list) -> None:
    result = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=False)
    if result.returncode != 0:
        raise subprocess.CalledProcessError(result.returncode, argv, stderr=result.stderr)

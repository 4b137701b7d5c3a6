"""axe-core on a gallery, an album and a photo page of SampleGallery's site, in every engine, in light and
dark mode: no violation of impact serious or critical (the others are printed)."""
from __future__ import annotations

import re

import pytest

import axe

KINDS = ("gallery", "album", "photo")


def audit(browser, url: str, *, dark_rules: str | None = None) -> list[dict]:
    browser.navigate(url)
    if dark_rules is None:
        return axe.violations(browser)
    light = axe.background(browser)
    axe.force_dark(browser, dark_rules)
    try:
        assert axe.background(browser) != light, f"{browser.engine}: dark mode did not change the background"
        return axe.violations(browser)
    finally:
        axe.end_dark(browser)


def report(found: list[dict], what: str):
    minor = [v for v in found if v not in axe.failing(found)]
    if minor:
        print(f"\n{what}: below serious:\n{axe.describe(minor)}")
    assert not axe.failing(found), f"{what}:\n{axe.describe(axe.failing(found))}"


@pytest.mark.parametrize("kind", KINDS)
def test_no_serious_violations(browser, pages, kind):
    report(audit(browser, pages[kind].as_uri()), f"{browser.engine} {kind} page {pages[kind].name}")


@pytest.mark.parametrize("kind", KINDS)
def test_no_serious_violations_in_dark_mode(browser, pages, site, kind):
    rules = axe.dark_rules((site / "assets" / "waterfall.css").read_text(encoding="utf-8"))
    if rules is None:
        pytest.skip("the theme has no prefers-color-scheme: dark rules")
    found = audit(browser, pages[kind].as_uri(), dark_rules=rules)
    report(found, f"{browser.engine} {kind} page {pages[kind].name}, dark")


# -- the checker can fail: a broken copy of a real page is reported ------------------------------------------

def test_axe_reports_missing_alt_and_low_contrast(browser, site_copy):
    page = site_copy / "broken.html"
    html = (site_copy / "index.html").read_text(encoding="utf-8")
    html, removed = re.subn(r' alt="[^"]*"', "", html, count=1)
    html = html.replace("</head>", "<style>.wf-header h1 { color: #d8d8d8; }</style></head>", 1)
    assert removed == 1
    page.write_text(html, encoding="utf-8")
    browser.navigate(page.as_uri())
    found = {v["id"]: v["impact"] for v in axe.violations(browser)}
    assert found.get("image-alt") == "critical", found
    assert found.get("color-contrast") == "serious", found

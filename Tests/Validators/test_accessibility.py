"""axe-core on a gallery, an album and a photo page of SampleGallery's site, in every engine, in light and
dark mode: no violation of impact serious or critical (the others are printed)."""
from __future__ import annotations

import re
import shutil
from pathlib import Path

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


# -- targets a thumb can hit: WCAG 2.2's 2.5.8 at a phone's width -------------------------------------------

PHONE = (390, 844)


def paged_pages(paged_site) -> dict[str, Path]:
    return {"gallery": paged_site / "index.html", "gallery page 2": paged_site / "page-2.html",
            "photo": sorted(paged_site.glob("photos/*.html"))[1]}


@pytest.mark.parametrize("kind", ["gallery", "gallery page 2", "photo"])
def test_every_target_is_24_px_on_a_phone(browser, paged_site, pages, kind):
    page = paged_pages(paged_site)[kind]
    browser.set_viewport(*PHONE)
    try:
        for url in (page.as_uri(), pages["photo"].as_uri() if kind == "photo" else None):
            if url is None:
                continue
            browser.navigate(url)
            found = axe.violations(browser, axe.TARGET_SIZE_JS)
            assert not found, f"{browser.engine} {kind} page {url} at {PHONE}:\n{axe.describe(found)}"
    finally:
        browser.set_viewport(1024, 768)


def test_target_size_check_can_fail(browser, paged_site, tmp_path):
    """The same check on a copy of a gallery page whose pager links are squeezed to 12 px is reported."""
    copy = Path(shutil.copytree(paged_site, tmp_path / "site"))
    page = copy / "index.html"
    html = page.read_text(encoding="utf-8").replace(
        "</head>", "<style>.wf-pager a { min-width: 0; min-height: 0; font-size: 9px; line-height: 12px; }"
                   ".wf-pager { gap: 0 1px; }</style></head>", 1)
    page.write_text(html, encoding="utf-8")
    browser.set_viewport(*PHONE)
    try:
        browser.navigate(page.as_uri())
        found = {v["id"] for v in axe.violations(browser, axe.TARGET_SIZE_JS)}
    finally:
        browser.set_viewport(1024, 768)
    assert "target-size" in found, found

"""axe-core in any engine of Tests/Browser/engines: the axe.min.js that PyPI's axe-playwright-python ships
(read from its installed package; Playwright itself is not used), injected with the driver's `run`, then
`axe.run()` through `run_async`."""
from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import axe_playwright_python

SOURCE_PATH = Path(axe_playwright_python.__file__).resolve().parent / "axe.min.js"
FAILING_IMPACTS = ("serious", "critical")

# axe.min.js sets window.axe; run as a function body, its value is axe's version (proof it loaded).
INJECT_TAIL = "\n;return window.axe && window.axe.version;"

# Whole-page run; only violations come back, each reduced to what a failure message needs.
RUN_JS = """
const done = arguments[arguments.length - 1];
axe.run(document, {resultTypes: ["violations"]}).then(result => done(result.violations.map(v => ({
  id: v.id, impact: v.impact, help: v.help,
  nodes: v.nodes.map(n => ({target: n.target.join(" "), summary: n.failureSummary}))
})))).catch(error => done({error: String(error)}));
"""


# Only WCAG 2.2's target size (2.5.8: every target at least 24x24 CSS px, or spaced as if it were); axe
# leaves the rule off by default and skips links inside text, as the criterion does.
TARGET_SIZE_JS = """
const done = arguments[arguments.length - 1];
axe.run(document, {runOnly: {type: "rule", values: ["target-size"]}, resultTypes: ["violations"]})
  .then(result => done(result.violations.map(v => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.map(n => ({target: n.target.join(" "), summary: n.failureSummary}))
  })))).catch(error => done({error: String(error)}));
"""


@cache
def source() -> str:
    return SOURCE_PATH.read_text(encoding="utf-8")


def inject(driver) -> str:
    version = driver.run(source() + INJECT_TAIL)
    if not version:
        raise RuntimeError(f"{driver.engine}: axe.min.js did not define window.axe")
    return version


def violations(driver, script: str = RUN_JS) -> list[dict]:
    """axe.run() on the page open in driver (every rule axe runs by default, or the run of `script`); every
    violation, of any impact."""
    inject(driver)
    result = driver.run_async(script)
    if isinstance(result, dict):
        raise RuntimeError(f"{driver.engine}: axe.run failed: {result['error']}")
    return result


def failing(found: list[dict]) -> list[dict]:
    return [v for v in found if v["impact"] in FAILING_IMPACTS]


def describe(found: list[dict]) -> str:
    lines = []
    for v in found:
        lines.append(f"{v['impact']}: {v['id']}: {v['help']}")
        lines += [f"    {n['target']}: {' '.join(n['summary'].split())}" for n in v["nodes"][:5]]
    return "\n".join(lines)


# -- dark mode --------------------------------------------------------------------------------------------------

DARK_QUERY = re.compile(r"@media\s*\(prefers-color-scheme:\s*dark\)\s*\{(?P<body>.*?)\n\}", re.S)


def dark_rules(css: str) -> str | None:
    """The rules inside the theme's `@media (prefers-color-scheme: dark)` block, or None if it has none."""
    match = DARK_QUERY.search(css)
    return match.group("body") if match else None


def force_dark(driver, rules: str) -> None:
    """Makes the open page look as with prefers-color-scheme: dark. Chromium emulates the media feature
    itself (DevTools); Firefox's BiDi and WebKitWebDriver cannot, so there the theme's dark rules are added
    unconditionally, with color-scheme: dark so that the browser's own colours follow too."""
    if driver.engine == "chromium":
        driver.driver.execute_cdp_cmd("Emulation.setEmulatedMedia",
                                      {"features": [{"name": "prefers-color-scheme", "value": "dark"}]})
        return
    driver.run("const style = document.createElement('style');"
               "style.textContent = arguments[0] + '\\n:root { color-scheme: dark; }';"
               "document.head.append(style);", rules)


def end_dark(driver) -> None:
    if driver.engine == "chromium":
        driver.driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})


def background(driver) -> str:
    return driver.run("return getComputedStyle(document.documentElement).backgroundColor")

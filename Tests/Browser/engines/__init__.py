"""One interface over three browser engines, so that every browser test runs unchanged in each.

    driver = engines.start("firefox", javascript=True, block_images=False, preload=SOURCE)
    driver.set_viewport(360, 740)            # window.innerWidth x window.innerHeight, exactly
    driver.navigate(url)                     # returns after the load event
    driver.run("return document.title")      # a function body; its value comes back through JSON
    driver.run_async("setTimeout(() => arguments[0](42), 10)")  # last argument: the done callback
    driver.screenshot_png()                  # the viewport, as PNG bytes
    driver.quit()

| engine | module | how it is driven |
| --- | --- | --- |
| chromium | chromium.py | Debian's chromium + chromedriver through Selenium; DevTools commands for the rest |
| firefox | firefox.py | Debian's firefox-esr through WebDriver BiDi, built into Firefox (no geckodriver) |
| webkit | webkit.py | WebKitGTK's WebKitWebDriver through Selenium, hosting the page in webkit_host.py under Xvfb |

Options, each given to `start` because some engines can only set them when the browser starts:
- `javascript=False`: the page's own scripts do not run (no <script>, no on… attributes), while `run` and
  `run_async` still work, so the same measuring code reads the page;
- `block_images=True`: no image is fetched (every <img> ends broken, naturalWidth 0);
- `preload`: JavaScript source that runs at the start of every document, before the page's own scripts
  (used to watch for layout shifts from the first frame in engines without the Layout Instability API).

An engine whose programs are missing, or that fails to start, raises EngineUnavailable with the reason;
the tests report that engine as skipped with that reason (or failed, when WATERFALL_REQUIRE_ENGINES names it).
"""
from __future__ import annotations

import json
import subprocess
from abc import ABC, abstractmethod

ENGINES = ("chromium", "firefox", "webkit")


def end_process(process: subprocess.Popen, grace: float = 10) -> None:
    """Asks a child program to end (SIGTERM), kills it if it has not within `grace` seconds, and reaps it."""
    if process.poll() is None:
        process.terminate()
    try:
        process.wait(timeout=grace)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


class EngineUnavailable(RuntimeError):
    """The engine cannot run on this machine (a program missing, or it failed to start)."""


class ScriptError(RuntimeError):
    """JavaScript run through `run` or `run_async` threw."""


# A function body run as `function (...args) { BODY }`; what it returns comes back through JSON.stringify,
# so every engine gives the same Python values (undefined -> None, NaN -> None, objects -> dicts).
def sync_wrapper(body: str) -> str:
    return "return JSON.stringify((function () {\n" + body + "\n}).apply(this, arguments));"


def async_wrapper(body: str) -> str:
    """For drivers whose own async call passes a callback last (Selenium's execute_async_script)."""
    return ("const __done = arguments[arguments.length - 1];\n"
            "const __args = Array.prototype.slice.call(arguments, 0, arguments.length - 1);\n"
            "__args.push(v => __done(JSON.stringify(v)));\n"
            "(function () {\n" + body + "\n}).apply(this, __args);")


def decode(value):
    return None if value is None else json.loads(value)


class Driver(ABC):
    engine: str = ""
    version: str = ""

    @abstractmethod
    def set_viewport(self, width: int, height: int) -> None:
        """window.innerWidth == width and window.innerHeight == height (CSS px, device scale factor 1)."""

    def set_scale(self, scale: float) -> bool:
        """window.devicePixelRatio == scale from the next load on (1 undoes it); False where the engine's
        driver cannot emulate a device scale."""
        return scale == 1

    @abstractmethod
    def navigate(self, url: str) -> None:
        """Loads url in the tab and returns after its load event."""

    @abstractmethod
    def run(self, body: str, *args):
        """Runs a JavaScript function body with args (numbers, strings); returns its value via JSON."""

    @abstractmethod
    def run_async(self, body: str, *args):
        """As run, with a callback as the last argument; returns the value passed to it (60 s at most)."""

    @abstractmethod
    def screenshot_png(self) -> bytes:
        """The viewport as a PNG."""

    def full_page_png(self) -> bytes | None:
        """The whole document without laying it out again, where the engine can; None otherwise (the
        harness then grows the viewport to the document's height)."""
        return None

    @abstractmethod
    def click(self, selector: str) -> None:
        """Clicks the first element matching selector with the mouse, as a visitor does: the page counts it
        as the visitor's gesture (a script's element.click() is not one, so it may not start sound)."""

    @abstractmethod
    def quit(self) -> None:
        """Ends the browser and every process it started."""


class SeleniumDriver(Driver):
    """What Chromium (chromedriver) and WebKit (WebKitWebDriver) share: a Selenium WebDriver in self.driver."""

    driver = None

    def navigate(self, url):
        self.driver.get(url)

    def run(self, body, *args):
        from selenium.common.exceptions import JavascriptException
        try:
            return decode(self.driver.execute_script(sync_wrapper(body), *args))
        except JavascriptException as error:
            raise ScriptError(error.msg) from None

    def run_async(self, body, *args):
        from selenium.common.exceptions import JavascriptException
        try:
            return decode(self.driver.execute_async_script(async_wrapper(body), *args))
        except JavascriptException as error:
            raise ScriptError(error.msg) from None

    def screenshot_png(self):
        return self.driver.get_screenshot_as_png()

    def click(self, selector):
        from selenium.webdriver.common.by import By
        self.driver.find_element(By.CSS_SELECTOR, selector).click()


def start(engine: str, *, javascript: bool = True, block_images: bool = False, preload: str | None = None) -> Driver:
    if engine == "chromium":
        from . import chromium as module
    elif engine == "firefox":
        from . import firefox as module
    elif engine == "webkit":
        from . import webkit as module
    else:
        raise ValueError(f"unknown engine {engine!r}; known: {', '.join(ENGINES)}")
    return module.start(javascript=javascript, block_images=block_images, preload=preload)


def shutdown() -> None:
    """Ends what the engines share between browsers (WebKit's Xvfb); called once at the end of a session."""
    import sys
    webkit = sys.modules.get(__name__ + ".webkit")
    if webkit is not None:
        webkit.stop_display()

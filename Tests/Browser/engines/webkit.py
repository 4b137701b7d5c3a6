"""WebKit: WebKitGTK (Debian's webkit2gtk, the engine of GNOME Web and of Safari's family), driven by
WebKitWebDriver through Selenium, with webkit_host.py as the browser, under an Xvfb display of our own.

- Display: WebKitGTK has no headless mode. The first WebKit browser starts `Xvfb -displayfd` on a free
  display number (a 4000x3000 screen, so that a 2560x1440 viewport and tall pages fit); every WebKit
  browser of the session uses it; `stop_display` ends it by its PID at the end of the session.
- Viewport: the window holds only the web view, so the window size is the viewport size; WebKitGTK's scroll
  bars are overlay ones (they take no width).
- JavaScript off, images blocked, preload: settings of the web view, given to webkit_host.py as arguments
  (--no-javascript, --block-images, --user-script=FILE); see there.
- Screenshots: WebDriver's, the viewport only. A full page is stitched from viewport shots (GdkPixbuf in
  the system python3): growing the window to the page's height does not work, as WebKitGTK under Xvfb takes
  minutes or never answers for a screenshot much over 4 megapixels (2000x2000 took 40 s, 2560x2843 hung).
- Every WebDriver command answers within COMMAND_TIMEOUT, so a stuck browser fails a test, not the run.
"""
from __future__ import annotations

import atexit
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from . import EngineUnavailable, SeleniumDriver, end_process

WEBKIT_WEBDRIVER = os.environ.get("WATERFALL_WEBKIT_WEBDRIVER", "/usr/bin/WebKitWebDriver")
XVFB = os.environ.get("WATERFALL_XVFB", "/usr/bin/Xvfb")
HOST = Path(__file__).resolve().parent / "webkit_host.py"
HOST_NAME = "waterfall-webkit-host"
SCREEN = "4000x3000x24"
COMMAND_TIMEOUT = 120

# Pastes viewport screenshots (argv: width height then y=file pairs) into one PNG written to stdout.
STITCH_PY = r"""
import sys, gi
gi.require_version("GdkPixbuf", "2.0")
from gi.repository import GdkPixbuf
width, height = int(sys.argv[1]), int(sys.argv[2])
page = GdkPixbuf.Pixbuf.new(GdkPixbuf.Colorspace.RGB, False, 8, width, height)
for part in sys.argv[3:]:
    y, path = part.split("=", 1)
    shot = GdkPixbuf.Pixbuf.new_from_file(path)
    rows = min(shot.get_height(), height - int(y))
    shot.copy_area(0, 0, min(width, shot.get_width()), rows, page, 0, int(y))
ok, data = page.save_to_bufferv("png", [], [])
sys.stdout.buffer.write(data)
"""

SCROLL_AND_SETTLE_JS = ("const done = arguments[arguments.length - 1]; window.scrollTo(0, arguments[0]);"
                        "requestAnimationFrame(() => requestAnimationFrame(() => done(window.scrollY)));")

_display = {"process": None, "name": None}


def display() -> str:
    """The Xvfb display shared by the session's WebKit browsers, started on first use."""
    if _display["process"] is not None and _display["process"].poll() is None:
        return _display["name"]
    if not shutil.which(XVFB):
        raise EngineUnavailable(f"{XVFB} not found (Debian package xvfb)")
    read_end, write_end = os.pipe()
    process = subprocess.Popen([XVFB, "-displayfd", str(write_end), "-screen", "0", SCREEN, "-nolisten", "tcp"],
                               pass_fds=(write_end,), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    os.close(write_end)
    with os.fdopen(read_end) as pipe:
        number = pipe.readline().strip()  # Xvfb writes the display number once it accepts connections
    if not number:
        process.wait()
        raise EngineUnavailable(f"Xvfb did not start (exit status {process.returncode})")
    _display.update(process=process, name=f":{number}")
    atexit.register(stop_display)
    return _display["name"]


def stop_display():
    process = _display["process"]
    if process is not None:
        end_process(process)
    _display.update(process=None, name=None)


class WebKitDriver(SeleniumDriver):
    engine = "webkit"

    def __init__(self, driver, script_dir: Path | None):
        self.driver = driver
        self.version = driver.capabilities.get("browserVersion", "")
        self.script_dir = script_dir

    def set_viewport(self, width, height):
        for _ in range(3):
            self.driver.set_window_size(width, height)
            inner = self.run("return [window.innerWidth, window.innerHeight]")
            if inner == [width, height]:
                return
        raise RuntimeError(f"webkit: viewport {inner}, wanted {width}x{height}")

    def full_page_png(self):
        width, height, view, start = self.run("const d = document.documentElement; "
                                              "return [d.clientWidth, d.scrollHeight, window.innerHeight, window.scrollY]")
        folder = Path(tempfile.mkdtemp(prefix="waterfall-webkit-shots-"))
        try:
            parts = []
            for top in range(0, height, view):
                y = self.run_async(SCROLL_AND_SETTLE_JS, top)  # the last one stops at the bottom
                (folder / f"{y}.png").write_bytes(self.screenshot_png())
                parts.append(f"{y}={folder / f'{y}.png'}")
            self.run_async(SCROLL_AND_SETTLE_JS, start)
            result = subprocess.run(["/usr/bin/python3", "-c", STITCH_PY, str(width), str(height), *parts],
                                    capture_output=True, timeout=120)
            if result.returncode != 0:
                raise RuntimeError(f"stitching screenshots failed: {result.stderr.decode(errors='replace')[-300:]}")
            return result.stdout
        finally:
            shutil.rmtree(folder, ignore_errors=True)

    def quit(self):
        try:
            self.driver.quit()  # ends the session (and with it webkit_host.py) and WebKitWebDriver
        finally:
            if self.script_dir is not None:
                shutil.rmtree(self.script_dir, ignore_errors=True)


def start(*, javascript=True, block_images=False, preload=None) -> WebKitDriver:
    if not shutil.which(WEBKIT_WEBDRIVER):
        raise EngineUnavailable(f"{WEBKIT_WEBDRIVER} not found (Debian package webkit2gtk-driver)")
    probe = subprocess.run(["/usr/bin/python3", "-c", "import gi; gi.require_version('WebKit2', '4.1'); "
                            "gi.require_version('Gtk', '3.0'); from gi.repository import WebKit2, Gtk"],
                           capture_output=True, text=True)
    if probe.returncode != 0:
        raise EngineUnavailable("PyGObject with WebKit2 4.1 is missing for /usr/bin/python3 (Debian packages "
                                f"python3-gi, gir1.2-webkit2-4.1): {probe.stderr.strip().splitlines()[-1:]}")
    try:
        from selenium import webdriver
        from selenium.webdriver.webkitgtk.options import Options
        from selenium.webdriver.webkitgtk.service import Service
    except ImportError as error:
        raise EngineUnavailable(f"Selenium is not installed ({error})") from None
    name = display()
    options = Options()
    options.binary_location = str(HOST)
    options.set_capability("browserName", HOST_NAME)
    script_dir = None
    if not javascript:
        options.add_argument("--no-javascript")
    if block_images:
        options.add_argument("--block-images")
    if preload:
        script_dir = Path(tempfile.mkdtemp(prefix="waterfall-webkit-"))
        (script_dir / "preload.js").write_text(preload, encoding="utf-8")
        options.add_argument(f"--user-script={script_dir / 'preload.js'}")
    service = Service(WEBKIT_WEBDRIVER, env=dict(os.environ, DISPLAY=name, GDK_BACKEND="x11",
                                                 WEBKIT_DISABLE_COMPOSITING_MODE="1", GDK_SCALE="1",
                                                 NO_AT_BRIDGE="1"))
    try:
        driver = webdriver.WebKitGTK(service=service, options=options)
    except Exception as error:  # noqa: BLE001 - any failure to start means the engine is not available
        if script_dir is not None:
            shutil.rmtree(script_dir, ignore_errors=True)
        raise EngineUnavailable(f"WebKitGTK did not start: {str(error).strip().splitlines()[0]}") from None
    try:
        driver.command_executor._client_config.timeout = COMMAND_TIMEOUT  # Selenium's default: none
        driver.set_script_timeout(60)
        driver.set_page_load_timeout(60)
    except BaseException:
        driver.quit()
        raise
    return WebKitDriver(driver, script_dir)

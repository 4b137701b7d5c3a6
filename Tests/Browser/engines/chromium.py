"""Chromium: Debian's headless chromium, driven by chromedriver through Selenium.

- Viewport: the window is sized so that window.innerWidth x innerHeight is exact (the difference between
  window and viewport is learnt once). Headless Chromium has a classic 15 px scroll bar, inside innerWidth.
- Images blocked: the DevTools command Network.setBlockedURLs, which holds for every later navigation of
  the tab, file:// URLs included.
- JavaScript off: Chrome's content setting (profile.managed_default_content_settings.javascript = 2) stops
  the page's scripts; WebDriver's scripts still run, because chromedriver evaluates them through DevTools
  (Runtime.callFunctionOn), which the content setting does not gate.
- Preload: Page.addScriptToEvaluateOnNewDocument.
"""
from __future__ import annotations

import os
import shutil
import time

from . import EngineUnavailable, SeleniumDriver

CHROMIUM = os.environ.get("WATERFALL_CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("WATERFALL_CHROMEDRIVER", "/usr/bin/chromedriver")
BLOCKED_IMAGE_URLS = ["*.jpg", "*.jpeg", "*.png", "*.gif", "*.webp", "*.avif", "*.heic", "*.heif",
                      "*.JPG", "*.JPEG", "*.PNG", "*.GIF", "*.WEBP", "*.AVIF", "*.HEIC", "*.HEIF"]


def options(*, javascript: bool):
    from selenium import webdriver
    o = webdriver.ChromeOptions()
    o.binary_location = CHROMIUM
    for argument in ("--headless=new", "--force-device-scale-factor=1", "--disable-gpu", "--disable-dev-shm-usage",
                     "--no-first-run", "--no-default-browser-check", "--disable-extensions", "--mute-audio",
                     "--hide-crash-restore-bubble", "--font-render-hinting=none"):
        o.add_argument(argument)
    if os.geteuid() == 0:
        o.add_argument("--no-sandbox")  # Chromium refuses to start its sandbox as root
    if not javascript:
        o.add_experimental_option("prefs", {"profile.managed_default_content_settings.javascript": 2})
    return o


class ChromiumDriver(SeleniumDriver):
    engine = "chromium"

    def __init__(self, driver):
        self.driver = driver
        self.version = driver.capabilities.get("browserVersion", "")
        self._chrome = None  # window size minus viewport size, learnt on first use

    def set_viewport(self, width, height):
        if self._chrome is None:
            size = self.driver.get_window_size()
            inner = self.run("return [window.innerWidth, window.innerHeight]")
            self._chrome = (size["width"] - inner[0], size["height"] - inner[1])
        for _ in range(3):
            self.driver.set_window_size(width + self._chrome[0], height + self._chrome[1])
            inner = self._settled_inner()
            if inner == [width, height]:
                return
            self._chrome = (self._chrome[0] + width - inner[0], self._chrome[1] + height - inner[1])
        raise RuntimeError(f"chromium: viewport {inner}, wanted {width}x{height}")

    def _settled_inner(self):
        """innerWidth and innerHeight once a resize has reached the page: on a loaded machine the first answer
        can still be the old size (seen once as 780x437 for 800x600), so ask until two answers agree."""
        inner = self.run("return [window.innerWidth, window.innerHeight]")
        for _ in range(20):
            time.sleep(0.05)
            again = self.run("return [window.innerWidth, window.innerHeight]")
            if again == inner:
                return inner
            inner = again
        return inner

    def set_scale(self, scale):
        if scale == 1:
            self.driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
        else:
            inner = self.run("return [window.innerWidth, window.innerHeight]")
            self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
                "width": inner[0], "height": inner[1], "deviceScaleFactor": scale, "mobile": False})
        return True

    def quit(self):
        self.driver.quit()


def start(*, javascript=True, block_images=False, preload=None) -> ChromiumDriver:
    for program in (CHROMIUM, CHROMEDRIVER):
        if not shutil.which(program):
            raise EngineUnavailable(f"{program} not found (Debian packages chromium and chromium-driver)")
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError as error:
        raise EngineUnavailable(f"Selenium is not installed ({error})") from None
    try:
        driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options(javascript=javascript))
    except Exception as error:  # noqa: BLE001 - any failure to start means the engine is not available
        raise EngineUnavailable(f"chromium did not start: {str(error).strip().splitlines()[0]}") from None
    try:
        driver.command_executor._client_config.timeout = 120  # a stuck browser fails a test, not the run
        driver.set_script_timeout(60)
        driver.set_page_load_timeout(60)
        if block_images:
            driver.execute_cdp_cmd("Network.enable", {})
            driver.execute_cdp_cmd("Network.setBlockedURLs", {"urls": BLOCKED_IMAGE_URLS})
        if preload:
            driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": preload})
    except BaseException:
        driver.quit()
        raise
    return ChromiumDriver(driver)

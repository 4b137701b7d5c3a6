"""Firefox: Debian's firefox-esr, driven through WebDriver BiDi, which is built into Firefox (geckodriver is
not packaged by Debian and cannot be downloaded here, and is not needed).

The client is this file: firefox-esr starts headless with its own profile and `--remote-debugging-port 0`;
the port it chose is read from its log ("WebDriver BiDi listening on ws://127.0.0.1:PORT"); a WebSocket
(`websocket-client`, with `suppress_origin=True`, since Firefox refuses a connection that sends an Origin
header) carries JSON commands `{id, method, params}` and their answers.

- Viewport: `browsingContext.setViewport` sets window.innerWidth x innerHeight exactly, at any width. The
  headless scroll bar is a classic one, 12 px wide, inside innerWidth.
- Scripts: `script.callFunction`; the value comes back as a JSON string (see engines/__init__.py).
- Screenshots: `browsingContext.captureScreenshot`, origin "viewport", or "document" for the whole page
  without laying it out again.
- JavaScript off: the pref javascript.enabled = false. BiDi's own scripts still run (they are evaluated
  through the remote agent, not by the page).
- Images blocked: the pref permissions.default.image = 2 blocks images fetched over the network but, by
  design, not file:// ones (Firefox's content blocker only looks at http, https and ftp), and BiDi's
  network interception does not see file:// loads either. So this browser is given the page through a
  loopback HTTP server (127.0.0.1, GET and HEAD only, files only under the temporary folder, the
  repository and the folders of the pages opened): a file:// URL passed to navigate is opened as the same
  path over that server, where the pref blocks every image. Layout does not depend on the origin, so the
  geometry compared with the normal browser's (file://) is the same page's.
- Preload: `script.addPreloadScript`.
"""
from __future__ import annotations

import base64
import functools
import http.server
import itertools
import json
import os
import re
import shutil
import subprocess
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import unquote, urlparse, urlunparse

from . import Driver, EngineUnavailable, ScriptError, end_process

FIREFOX = os.environ.get("WATERFALL_FIREFOX", "/usr/bin/firefox-esr")
REPO = Path(__file__).resolve().parents[3]
TIMEOUT = 90.0


class BiDiError(RuntimeError):
    pass


class _Files(http.server.SimpleHTTPRequestHandler):
    """Serves absolute paths (the URL's path is the file's path) under the server's allowed roots."""

    def translate_path(self, path):
        target = Path(unquote(urlparse(path).path)).resolve()
        if target.is_file() and any(target.is_relative_to(root) for root in self.server.roots):
            return str(target)
        return "/nonexistent/forbidden"

    def list_directory(self, path):
        self.send_error(404)
        return None

    def log_message(self, *args):
        pass


class LoopbackFiles:
    def __init__(self):
        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Files)
        self.server.daemon_threads = True
        self.server.roots = [Path(tempfile.gettempdir()).resolve(), REPO]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.base = f"http://127.0.0.1:{self.server.server_address[1]}"

    def url_for(self, url: str) -> str:
        parts = urlparse(url)
        if parts.scheme != "file":
            return url
        page = Path(unquote(parts.path)).resolve()
        folder = page.parent.parent if page.parent.parent != page.parent else page.parent
        if not any(folder.is_relative_to(root) for root in self.server.roots):
            self.server.roots.append(folder)  # the page's folder and the one above it (../images)
        return urlunparse(("http", self.base.split("//", 1)[1], parts.path, "", parts.query, parts.fragment))

    def close(self):
        self.server.shutdown()
        self.server.server_close()


def prefs(*, javascript: bool, block_images: bool) -> str:
    values = {
        "browser.shell.checkDefaultBrowser": False,
        "browser.sessionstore.resume_from_crash": False,
        "browser.startup.homepage_override.mstone": "ignore",
        "datareporting.policy.dataSubmissionEnabled": False,
        "toolkit.telemetry.reportingpolicy.firstRun": False,
        "layout.css.devPixelsPerPx": "1.0",
        "javascript.enabled": javascript,
        "permissions.default.image": 2 if block_images else 1,
    }
    return "".join(f"user_pref({json.dumps(k)}, {json.dumps(v)});\n" for k, v in values.items())


class FirefoxDriver(Driver):
    engine = "firefox"

    def __init__(self, process, profile: Path, socket, files: LoopbackFiles | None):
        self.process, self.profile, self.socket, self.files = process, profile, socket, files
        self.ids = itertools.count(1)
        self.context = None
        self.viewport, self.scale = (800, 600), 1  # what set_viewport and set_scale last asked for

    # -- the BiDi connection --------------------------------------------------------------------------

    def command(self, method: str, params: dict) -> dict:
        number = next(self.ids)
        self.socket.send(json.dumps({"id": number, "method": method, "params": params}))
        deadline = time.monotonic() + TIMEOUT
        while True:
            self.socket.settimeout(max(0.1, deadline - time.monotonic()))
            message = json.loads(self.socket.recv())
            if message.get("id") != number:
                continue  # an event (none are subscribed to) or a late answer
            if message.get("type") == "error":
                raise BiDiError(f"{method}: {message.get('error')}: {message.get('message')}")
            return message["result"]

    def _call(self, declaration: str, args, *, await_promise: bool):
        arguments = [{"type": "number", "value": a} if isinstance(a, (int, float)) and not isinstance(a, bool)
                     else {"type": "string", "value": str(a)} for a in args]
        result = self.command("script.callFunction", {
            "functionDeclaration": declaration, "arguments": arguments, "awaitPromise": await_promise,
            "target": {"context": self.context}, "resultOwnership": "none"})
        if result.get("type") == "exception":
            details = result.get("exceptionDetails", {})
            raise ScriptError(details.get("text") or json.dumps(details)[:500])
        value = result["result"]
        if value.get("type") == "string":
            return json.loads(value["value"])
        return None

    # -- the interface ----------------------------------------------------------------------------------

    def set_viewport(self, width, height):
        self.viewport = (width, height)
        self.command("browsingContext.setViewport", {"context": self.context,
                                                     "viewport": {"width": width, "height": height},
                                                     "devicePixelRatio": self.scale})

    def set_scale(self, scale):
        self.scale = scale
        self.set_viewport(*self.viewport)
        return True

    def navigate(self, url):
        if self.files is not None:
            url = self.files.url_for(url)
        self.command("browsingContext.navigate", {"context": self.context, "url": url, "wait": "complete"})

    def run(self, body, *args):
        declaration = ("function () { return JSON.stringify((function () {\n" + body
                       + "\n}).apply(this, arguments)); }")
        return self._call(declaration, args, await_promise=False)

    def run_async(self, body, *args):
        declaration = ("function () { const args = Array.from(arguments); return new Promise((resolve, reject) => {"
                       " const timer = setTimeout(() => reject(new Error('script timed out after 60 s')), 60000);"
                       " args.push(v => { clearTimeout(timer); resolve(JSON.stringify(v)); });"
                       " try { (function () {\n" + body + "\n}).apply(this, args); } catch (e) { reject(e); } }); }")
        return self._call(declaration, args, await_promise=True)

    def screenshot_png(self):
        result = self.command("browsingContext.captureScreenshot", {"context": self.context, "origin": "viewport"})
        return base64.b64decode(result["data"])

    def full_page_png(self):
        result = self.command("browsingContext.captureScreenshot", {"context": self.context, "origin": "document"})
        return base64.b64decode(result["data"])

    def click(self, selector):
        x, y = self.run("const r = document.querySelector(arguments[0]).getBoundingClientRect();"
                        " return [Math.round(r.left + r.width / 2), Math.round(r.top + r.height / 2)]", selector)
        self.command("input.performActions", {"context": self.context, "actions": [{
            "type": "pointer", "id": "mouse", "parameters": {"pointerType": "mouse"},
            "actions": [{"type": "pointerMove", "x": x, "y": y}, {"type": "pointerDown", "button": 0},
                        {"type": "pointerUp", "button": 0}]}]})

    def quit(self):
        try:
            self.command("browser.close", {})
        except Exception:  # noqa: BLE001 - the browser may already be gone; it is ended by PID below
            pass
        try:
            self.socket.close()
        except Exception:  # noqa: BLE001
            pass
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            end_process(self.process)
        if self.files is not None:
            self.files.close()
        shutil.rmtree(self.profile, ignore_errors=True)


def start(*, javascript=True, block_images=False, preload=None) -> FirefoxDriver:
    if not shutil.which(FIREFOX):
        raise EngineUnavailable(f"{FIREFOX} not found (Debian package firefox-esr)")
    try:
        import websocket
    except ImportError as error:
        raise EngineUnavailable(f"websocket-client is not installed ({error})") from None
    profile = Path(tempfile.mkdtemp(prefix="waterfall-firefox-"))
    (profile / "user.js").write_text(prefs(javascript=javascript, block_images=block_images), encoding="utf-8")
    log_path = profile / "firefox.log"
    environment = dict(os.environ, MOZ_CRASHREPORTER_DISABLE="1", MOZ_HEADLESS="1")
    with open(log_path, "wb") as log:
        process = subprocess.Popen([FIREFOX, "--headless", "--no-remote", "--profile", str(profile),
                                    "--remote-debugging-port", "0"],
                                   stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT, env=environment)

    def give_up(reason):
        if process.poll() is None:
            process.kill()
            process.wait()
        tail = log_path.read_text(errors="replace").strip().splitlines()[-3:]
        shutil.rmtree(profile, ignore_errors=True)
        raise EngineUnavailable(f"firefox-esr: {reason}" + (f" ({' / '.join(tail)})" if tail else ""))

    deadline = time.monotonic() + 60
    address = None
    while address is None:
        match = re.search(r"WebDriver BiDi listening on (ws://[^\s]+)", log_path.read_text(errors="replace"))
        if match:
            address = match.group(1).rstrip("/")
        elif process.poll() is not None:
            give_up(f"exited with status {process.returncode} before listening")
        elif time.monotonic() > deadline:
            give_up("did not start WebDriver BiDi within 60 s")
        else:
            time.sleep(0.05)
    try:
        socket = websocket.create_connection(address + "/session", suppress_origin=True, timeout=TIMEOUT)
    except Exception as error:  # noqa: BLE001
        give_up(f"no WebSocket connection to {address}: {error}")
    files = LoopbackFiles() if block_images else None
    driver = FirefoxDriver(process, profile, socket, files)
    try:
        capabilities = driver.command("session.new", {"capabilities": {}})["capabilities"]
        driver.version = capabilities.get("browserVersion", "")
        driver.context = driver.command("browsingContext.getTree", {})["contexts"][0]["context"]
        if preload:
            driver.command("script.addPreloadScript", {"functionDeclaration": "() => {\n" + preload + "\n}"})
    except BaseException:
        driver.quit()
        raise
    return driver

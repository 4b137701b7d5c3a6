"""A headless Chromium with a fresh profile, driven through the DevTools protocol (CDP) over one WebSocket.

Just what make bench-visitor needs: send a command and wait for its answer, and keep every event that
arrives meanwhile (network events for bytes, Page.loadEventFired). No chromedriver: the emulation commands
(network and CPU throttling, device metrics) are set on the page's own target before it navigates.
"""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import websocket  # websocket-client, from requirements-dev.txt

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "Tests" / "Browser"))
from engines import end_process  # noqa: E402  (the browser tests' engines: one way to end a browser)

CHROMIUM = "/usr/bin/chromium"
# chrome-launcher's quiet profile (what Lighthouse starts Chrome with), headless, as root without a sandbox.
FLAGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run", "--no-default-browser-check",
         "--disable-extensions", "--disable-component-update", "--disable-background-networking",
         "--disable-sync", "--disable-default-apps", "--mute-audio", "--metrics-recording-only",
         "--disable-domain-reliability", "--disable-client-side-phishing-detection",
         "--disable-background-timer-throttling", "--disable-renderer-backgrounding",
         "--hide-scrollbars", "--remote-debugging-port=0", "--remote-allow-origins=*"]


class Chromium:
    """One browser process and its first tab. Use as a context manager: the process and profile go at exit."""

    def __init__(self):
        self.profile = Path(tempfile.mkdtemp(prefix="bench-visitor-profile-"))
        self.process = subprocess.Popen([CHROMIUM, *FLAGS, f"--user-data-dir={self.profile}", "about:blank"],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.events: list[dict] = []
        self._next_id = 0
        self.ws = websocket.create_connection(self._page_socket(), suppress_origin=True, timeout=120)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self):
        try:
            self.ws.close()
        finally:
            end_process(self.process)
            shutil.rmtree(self.profile, ignore_errors=True)

    def _page_socket(self, timeout: float = 30.0) -> str:
        """The WebSocket of the about:blank tab, once Chromium has written its DevTools port."""
        port_file = self.profile / "DevToolsActivePort"
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"chromium exited with status {self.process.returncode}")
            if port_file.exists() and port_file.read_text().strip():
                port = port_file.read_text().split()[0]
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=5) as answer:
                    pages = [t for t in json.load(answer) if t["type"] == "page"]
                if pages:
                    return pages[0]["webSocketDebuggerUrl"]
            time.sleep(0.05)
        raise RuntimeError("chromium did not open its DevTools port")

    def send(self, method: str, **params) -> dict:
        """Runs one command and returns its result; events that arrive first are kept in self.events."""
        self._next_id += 1
        ident = self._next_id
        self.ws.send(json.dumps({"id": ident, "method": method, "params": params}))
        while True:
            message = json.loads(self.ws.recv())
            if message.get("id") == ident:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message.get("result", {})
            if "method" in message:
                self.events.append(message)

    def pump(self, seconds: float):
        """Collects events for about `seconds` (the page keeps loading meanwhile)."""
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            self.ws.settimeout(left)
            try:
                message = json.loads(self.ws.recv())
            except websocket.WebSocketTimeoutException:
                break
            finally:
                self.ws.settimeout(120)
            if "method" in message:
                self.events.append(message)

    def evaluate(self, expression: str):
        """The value of a JavaScript expression in the page (promises awaited), as JSON."""
        result = self.send("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in result:
            raise RuntimeError(f"page script failed: {result['exceptionDetails']}")
        return result["result"].get("value")

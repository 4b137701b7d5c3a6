"""A built site served over HTTP/1.1 on 127.0.0.1 (any free port), from a thread, as a plain static server
would: keep-alive connections, a thread per connection, Content-Length on every answer, the image types a
browser expects (Python 3.11's table lacks AVIF)."""
from __future__ import annotations

import functools
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path


class QuietHandler(SimpleHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive: SimpleHTTPRequestHandler always sends Content-Length
    extensions_map = {**SimpleHTTPRequestHandler.extensions_map, ".avif": "image/avif", ".webp": "image/webp",
                      ".js": "text/javascript", ".mjs": "text/javascript", ".css": "text/css",
                      ".svg": "image/svg+xml", ".woff2": "font/woff2"}

    def log_message(self, format, *args):  # noqa: A002 (the base class's name)
        pass


class Server:
    """Serves `root` until closed; `url` is its address."""

    def __init__(self, root: Path):
        handler = functools.partial(QuietHandler, directory=str(root))
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()

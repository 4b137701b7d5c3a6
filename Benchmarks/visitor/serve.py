"""A built site served over HTTP/1.1 on 127.0.0.1 (any free port), from a thread, as a static host would:
keep-alive connections, a thread per connection, Content-Length on every answer, the image types a browser
expects (Python 3.11's table lacks AVIF), and text (pages, styles, scripts) gzipped for a browser that
accepts it, as GitHub Pages, Netlify and every CDN send it (at zlib's level 6, nginx's usual setting)."""
from __future__ import annotations

import functools
import gzip
import io
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path


class QuietHandler(SimpleHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive: SimpleHTTPRequestHandler always sends Content-Length
    extensions_map = {**SimpleHTTPRequestHandler.extensions_map, ".avif": "image/avif", ".webp": "image/webp",
                      ".js": "text/javascript", ".mjs": "text/javascript", ".css": "text/css",
                      ".svg": "image/svg+xml", ".woff2": "font/woff2"}

    COMPRESSED = (".html", ".css", ".js", ".mjs", ".svg", ".json", ".txt", ".xml")

    def log_message(self, format, *args):  # noqa: A002 (the base class's name)
        pass

    def send_head(self):
        path = Path(self.translate_path(self.path))
        if path.is_dir() and self.path.split("?")[0].endswith("/"):
            path = path / "index.html"
        accepts = "gzip" in self.headers.get("Accept-Encoding", "")
        if not accepts or path.suffix not in self.COMPRESSED or not path.is_file():
            return super().send_head()  # images, videos, folders (a redirect to the slash), 404s
        body = gzip.compress(path.read_bytes(), compresslevel=6, mtime=0)
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(str(path)))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Vary", "Accept-Encoding")
        self.end_headers()
        return io.BytesIO(body)


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

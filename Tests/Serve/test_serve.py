"""`waterfall serve` over a real socket: the real binary builds a small gallery and serves it; each test
speaks HTTP/1.1 to it as a browser, a video player or a hostile client would.

Run: WATERFALL_BIN=.build/debug/waterfall .venv/bin/python -m pytest -q Tests/Serve
"""
import http.client
import os
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import time

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BINARY = os.path.abspath(os.environ.get("WATERFALL_BIN", os.path.join(REPO, ".build/debug/waterfall")))
PHOTO = os.path.join(REPO, "Tests/WaterfallKitTests/Fixtures/exif/E01-all-facts-II.jpg")


class Server:
    def __init__(self, *flags):
        self.work = tempfile.mkdtemp(prefix="waterfall-serve-")
        self.input = os.path.join(self.work, "in")
        self.output = os.path.join(self.work, "out")
        os.makedirs(self.input)
        shutil.copy(PHOTO, os.path.join(self.input, "heron.jpg"))
        with open(os.path.join(self.input, "waterfall.json"), "w") as file:
            file.write('{"originals": "copy"}')
        self.process = subprocess.Popen([BINARY, "serve", self.input, "-o", self.output, "--port", "0", *flags],
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=self.work)
        line = self.process.stdout.readline()
        match = re.search(r"at http://127\.0\.0\.1:(\d+)/", line)
        assert match, f"no address in {line!r}: {self.process.stderr.read() if self.process.poll() is not None else ''}"
        self.port = int(match.group(1))
        # It serves from the start; the site is there once the first build is done.
        deadline = time.time() + 120
        while self.request("HEAD", "/")[0].status != 200:
            assert time.time() < deadline, "the first build did not finish"
            time.sleep(0.2)

    def request(self, method, path, headers=None):
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        connection.request(method, path, headers=headers or {})
        response = connection.getresponse()
        body = response.read()
        connection.close()
        return response, body

    def raw(self, data, read_timeout=5):
        with socket.create_connection(("127.0.0.1", self.port), timeout=read_timeout) as client:
            client.sendall(data)
            chunks = []
            try:
                while True:
                    chunk = client.recv(65536)
                    if not chunk:
                        break
                    chunks.append(chunk)
            except socket.timeout:
                pass
            return b"".join(chunks)

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
        shutil.rmtree(self.work, ignore_errors=True)


@pytest.fixture(scope="module")
def server():
    running = Server()
    yield running
    running.stop()


def test_pages_images_and_originals_have_their_types(server):
    response, body = server.request("GET", "/")
    assert response.status == 200 and response.getheader("Content-Type") == "text/html; charset=utf-8"
    assert b'EventSource("/.waterfall-live")' in body
    assert response.getheader("X-Content-Type-Options") == "nosniff"
    view = re.search(rb'src="(images/[^"]+\.jpg)"', body).group(1).decode()
    response, image = server.request("GET", "/" + view)
    assert response.status == 200 and response.getheader("Content-Type") == "image/jpeg" and image[:2] == b"\xff\xd8"
    assert int(response.getheader("Content-Length")) == len(image)
    response, _ = server.request("GET", "/assets/waterfall.css")
    assert response.getheader("Content-Type") == "text/css; charset=utf-8"
    response, _ = server.request("GET", "/photos/heron.jpg.html")
    assert response.status == 200


def test_the_built_site_never_holds_the_reload_script(server):
    for root, _, files in os.walk(server.output):
        for name in files:
            with open(os.path.join(root, name), "rb") as file:
                assert b".waterfall-live" not in file.read(), name


def test_ranges_let_a_player_seek(server):
    _, page = server.request("GET", "/")
    view = "/" + re.search(rb'src="(images/[^"]+\.jpg)"', page).group(1).decode()
    _, whole = server.request("GET", view)
    response, part = server.request("GET", view, {"Range": "bytes=10-19"})
    assert response.status == 206 and part == whole[10:20]
    assert response.getheader("Content-Range") == f"bytes 10-19/{len(whole)}"
    response, tail = server.request("GET", view, {"Range": "bytes=-5"})
    assert response.status == 206 and tail == whole[-5:]
    response, rest = server.request("GET", view, {"Range": f"bytes={len(whole) - 3}-"})
    assert rest == whole[-3:]
    response, _ = server.request("GET", view, {"Range": f"bytes={len(whole)}-"})
    assert response.status == 416 and response.getheader("Content-Range") == f"bytes */{len(whole)}"
    response, body = server.request("GET", view, {"Range": "bytes=0-1,5-6"})
    assert response.status == 200 and body == whole


def test_head_and_not_modified(server):
    response, body = server.request("HEAD", "/assets/waterfall.css")
    assert response.status == 200 and body == b"" and int(response.getheader("Content-Length")) > 0
    tag, modified = response.getheader("ETag"), response.getheader("Last-Modified")
    response, body = server.request("GET", "/assets/waterfall.css", {"If-None-Match": tag})
    assert response.status == 304 and body == b""
    response, _ = server.request("GET", "/assets/waterfall.css", {"If-Modified-Since": modified})
    assert response.status == 304
    response, _ = server.request("GET", "/assets/waterfall.css", {"If-None-Match": '"other"'})
    assert response.status == 200


@pytest.mark.parametrize("path", ["/../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd", "/images/..%2f..%2fetc%2fpasswd",
                                  "/%2E%2E/etc/passwd", "/.waterfall/manifest.json", "/%2ewaterfall/cache/version",
                                  "/a%00b", "/%zz", "/nothing-here.html"])
def test_nothing_outside_the_site_is_answered(server, path):
    reply = server.raw(f"GET {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n".encode())
    status = int(reply.split(b" ", 2)[1])
    assert status in (400, 404), reply[:200]
    assert b"root:" not in reply


def test_a_link_inside_the_output_is_not_followed(server):
    outside = os.path.join(server.work, "secret.txt")
    with open(outside, "w") as file:
        file.write("SECRET")
    os.symlink(outside, os.path.join(server.output, "leak.txt"))
    os.symlink(server.work, os.path.join(server.output, "up"))
    try:
        for path in ("/leak.txt", "/up/secret.txt"):
            response, body = server.request("GET", path)
            assert response.status == 404 and b"SECRET" not in body
    finally:
        os.unlink(os.path.join(server.output, "leak.txt"))
        os.unlink(os.path.join(server.output, "up"))


def test_a_folder_without_its_slash_is_redirected(server):
    response, _ = server.request("GET", "/photos")
    assert response.status in (301, 404)
    os.makedirs(os.path.join(server.output, "sub"), exist_ok=True)
    with open(os.path.join(server.output, "sub", "index.html"), "w") as file:
        file.write("<p>sub</p>")
    try:
        response, _ = server.request("GET", "/sub")
        assert response.status == 301 and response.getheader("Location") == "/sub/"
        response, body = server.request("GET", "/sub/")
        assert response.status == 200 and b"<p>sub</p>" in body
    finally:
        shutil.rmtree(os.path.join(server.output, "sub"))


@pytest.mark.parametrize("request_bytes,status", [
    (b"POST / HTTP/1.1\r\nHost: localhost\r\n\r\n", 405),
    (b"GET / HTTP/2.0\r\nHost: localhost\r\n\r\n", 505),
    (b"GET http://evil/ HTTP/1.1\r\nHost: localhost\r\n\r\n", 400),
    (b"GET / HTTP/1.1\r\nContent-Length: 5\r\n\r\nhello", 413),
    (b"GET / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 413),
    (b"GET / HTTP/1.1\r\nBad Field\r\n\r\n", 400),
    (b"GET / HTTP/1.1\r\n" + b"X-Long: " + b"a" * 20000 + b"\r\n\r\n", 431),
    (b"GET / HTTP/1.1\r\n" + b"".join(b"X-%d: 1\r\n" % i for i in range(150)) + b"\r\n", 431),
])
def test_hostile_requests_are_refused(server, request_bytes, status):
    reply = server.raw(request_bytes)
    assert reply.startswith(b"HTTP/1.1 %d " % status), reply[:120]


def test_other_host_names_are_refused(server):
    # A web page that rebinds a name of its own to 127.0.0.1 cannot read the preview.
    for head in (b"GET / HTTP/1.1\r\nHost: attacker.example\r\n\r\n", b"GET / HTTP/1.1\r\n\r\n",
                 b"GET / HTTP/1.1\r\nHost: attacker.example:%d\r\n\r\n" % server.port):
        reply = server.raw(head)
        assert reply.startswith(b"HTTP/1.1 421 "), reply[:80]
    for host in (b"localhost", b"127.0.0.1:%d" % server.port, b"[::1]:%d" % server.port):
        reply = server.raw(b"HEAD / HTTP/1.1\r\nHost: " + host + b"\r\nConnection: close\r\n\r\n")
        assert reply.startswith(b"HTTP/1.1 200 "), (host, reply[:80])


def test_a_slow_head_is_cut_off(server):
    # One byte every 2 s, each within the idle limit: the whole head still has one deadline (10 s).
    import select
    with socket.create_connection(("127.0.0.1", server.port), timeout=30) as client:
        start, reply = time.time(), None
        for byte in b"GET / HTTP/1.1\r\nHost: localhost\r\nX-Slow: " + b"a" * 100:
            try:
                client.sendall(bytes([byte]))
            except (BrokenPipeError, ConnectionResetError):
                reply = b""
                break
            if select.select([client], [], [], 2)[0]:
                try:
                    reply = client.recv(1000)
                except ConnectionResetError:
                    reply = b""
                break
            if time.time() - start > 25:
                break
        assert reply is not None and time.time() - start < 20, "the slow head was not cut off"
        assert reply == b"" or reply.startswith(b"HTTP/1.1 408 "), reply[:80]


def test_a_redirect_never_names_another_host(server):
    os.makedirs(os.path.join(server.output, "sub"), exist_ok=True)
    with open(os.path.join(server.output, "sub", "index.html"), "w") as file:
        file.write("<p>sub</p>")
    try:
        reply = server.raw(b"GET //sub HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
        assert b"\r\nLocation: /sub/\r\n" in reply, reply[:200]
    finally:
        shutil.rmtree(os.path.join(server.output, "sub"))


def test_it_serves_while_the_first_build_fails():
    work = tempfile.mkdtemp(prefix="waterfall-serve-")
    theme = os.path.join(work, "theme")
    shutil.copytree(os.path.join(REPO, "Templates"), theme)
    with open(os.path.join(theme, "page.mustache"), "a") as file:
        file.write("{{#unclosed}}")
    os.makedirs(os.path.join(work, "in"))
    process = subprocess.Popen([BINARY, "serve", os.path.join(work, "in"), "-o", os.path.join(work, "out"), "--port", "0",
                                "--templates", theme], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        port = int(re.search(r":(\d+)/", process.stdout.readline()).group(1))
        time.sleep(2)
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        connection.request("GET", "/")
        response = connection.getresponse()
        assert response.status in (404, 503), response.status
    finally:
        process.send_signal(signal.SIGINT)
        process.wait(timeout=10)
        shutil.rmtree(work)


def test_keep_alive_answers_several_requests_on_one_connection(server):
    requests = b"".join(b"HEAD /assets/waterfall.css HTTP/1.1\r\nHost: localhost\r\n\r\n" for _ in range(3))
    reply = server.raw(requests + b"GET / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
    assert reply.count(b"HTTP/1.1 200 OK") == 4


def test_connections_are_bounded(server):
    idle = [socket.create_connection(("127.0.0.1", server.port)) for _ in range(70)]
    try:
        time.sleep(0.5)
        reply = server.raw(b"GET / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
        assert reply.startswith(b"HTTP/1.1 503 "), reply[:80]
    finally:
        for client in idle:
            client.close()
    time.sleep(0.5)
    response, _ = server.request("GET", "/")
    assert response.status == 200


def read_event(stream):
    data = b""
    while not data.endswith(b"\n\n"):
        byte = stream.recv(1)
        if not byte:
            raise AssertionError("the event stream closed")
        data += byte
    return data


def test_pages_reload_after_an_edit_is_built(server):
    with socket.create_connection(("127.0.0.1", server.port), timeout=30) as stream:
        stream.sendall(b"GET /.waterfall-live HTTP/1.1\r\nHost: localhost\r\n\r\n")
        head = b""
        while not head.endswith(b"\r\n\r\n"):
            head += stream.recv(1)
        assert b"200 OK" in head and b"text/event-stream" in head
        first = read_event(stream)
        assert first.startswith(b"data: ")
        with open(os.path.join(server.input, "heron.jpg.txt"), "w") as file:
            file.write("A heron, edited\n")
        second = read_event(stream)
        while second.startswith(b":"):
            second = read_event(stream)
        assert second.startswith(b"data: ") and second != first
    response, body = server.request("GET", "/photos/heron.jpg.html")
    assert b"A heron, edited" in body


def test_no_reload_serves_pages_as_built():
    running = Server("--no-reload")
    try:
        response, body = running.request("GET", "/")
        assert response.status == 200 and b".waterfall-live" not in body
        response, _ = running.request("GET", "/.waterfall-live")
        assert response.status == 404
    finally:
        running.stop()


def test_ctrl_c_stops_it_cleanly():
    running = Server()
    running.process.send_signal(signal.SIGINT)
    assert running.process.wait(timeout=10) == 0
    assert "stopped" in running.process.stderr.read()
    running.stop()


def test_a_port_in_use_is_said_in_words():
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        work = tempfile.mkdtemp()
        try:
            run = subprocess.run([BINARY, "serve", work, "-o", os.path.join(work, "out"), "--port", str(port)],
                                 capture_output=True, text=True, timeout=30)
        finally:
            shutil.rmtree(work)
    assert run.returncode == 1 and f"port {port} on 127.0.0.1 is in use" in run.stderr


def test_it_listens_on_this_machine_only_unless_asked(server):
    with open("/proc/net/tcp") as table:
        rows = [line.split() for line in table.readlines()[1:]]
    listening = [row[1] for row in rows if row[3] == "0A" and int(row[1].split(":")[1], 16) == server.port]
    assert listening == ["0100007F:%04X" % server.port]

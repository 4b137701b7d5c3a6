"""`waterfall serve` in every engine: a page opened from the server reloads by itself after an edit to the
input is built, and shows the edit; the page keeps its place in the site (no error page, no blank).
"""
from __future__ import annotations

import re
import shutil
import signal
import subprocess
import time

import pytest

from conftest import REPO, _path_from_env

PHOTO = REPO / "Tests" / "WaterfallKitTests" / "Fixtures" / "exif" / "E01-all-facts-II.jpg"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    binary = _path_from_env("WATERFALL_BIN", REPO / ".build" / "debug" / "waterfall")
    work = tmp_path_factory.mktemp("serve")
    (work / "in").mkdir()
    shutil.copy(PHOTO, work / "in" / "heron.jpg")
    process = subprocess.Popen([str(binary), "serve", str(work / "in"), "-o", str(work / "out"), "--port", "0"],
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    match = re.search(r"at (http://127\.0\.0\.1:\d+/)", process.stdout.readline())
    assert match, "serve printed no address"
    deadline = time.time() + 120
    while not (work / "out" / "index.html").exists():  # the first build is done
        assert time.time() < deadline, "the first build did not finish"
        time.sleep(0.2)
    yield match.group(1), work / "in"
    process.send_signal(signal.SIGINT)
    process.wait(timeout=10)


def test_an_edit_reloads_the_open_page(normal_browser, server):
    url, input_folder = server
    normal_browser.load(url + "photos/heron.jpg.html", 390, 844)
    caption = f"Edited in {normal_browser.engine}"
    assert caption not in normal_browser.run("return document.body.textContent")
    normal_browser.run("window.wfNotReloaded = true")
    time.sleep(1)  # the page's event stream is open
    (input_folder / "heron.jpg.txt").write_text(caption + "\n")
    deadline = time.time() + 40
    state = {}
    while time.time() < deadline:
        state = normal_browser.run("return {same: window.wfNotReloaded === true, text: document.body.textContent}")
        if not state["same"] and caption in state["text"]:
            break
        time.sleep(0.25)
    assert not state["same"] and caption in state["text"], "the page did not reload with the edit"

#!/usr/bin/python3
"""The browser that WebKitWebDriver starts for the WebKit tests: a WebKitGTK web view alone in a window.

Debian's MiniBrowser --automation works too, but its toolbar keeps windows at least ~447 px wide, so phone
widths could not be tested; here the window holds nothing but the view, so window size == viewport size.
Runs under the system python3 (PyGObject and WebKit2 4.1 come from Debian: python3-gi,
gir1.2-webkit2-4.1), not the test venv. WebKitWebDriver passes the arguments of the capability
webkitgtk:browserOptions.args:

  --block-images       WebKitSettings auto-load-images off: no image is fetched
  --no-javascript      WebKitSettings enable-javascript-markup off: no <script>, on… attribute or
                       javascript: URL runs, while WebDriver's scripts (which are not markup) still do
  --user-script=FILE   FILE's JavaScript runs at the start of every document (WebKitUserContentManager)

The automation session's application name must equal the capability browserName (webkit.py sets both).
"""
import ctypes
import signal
import sys

import gi

gi.require_version("Gtk", "3.0")
gi.require_version("WebKit2", "4.1")
from gi.repository import Gtk, WebKit2  # noqa: E402

NAME = "waterfall-webkit-host"


def main(arguments):
    # End with WebKitWebDriver, whatever way it ends (it starts this program and is its parent).
    ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    signal.signal(signal.SIGTERM, lambda *_: Gtk.main_quit())

    context = WebKit2.WebContext.get_default()
    context.set_automation_allowed(True)
    settings = WebKit2.Settings()
    settings.set_hardware_acceleration_policy(WebKit2.HardwareAccelerationPolicy.NEVER)
    settings.set_enable_developer_extras(False)
    if "--block-images" in arguments:
        settings.set_auto_load_images(False)
    if "--no-javascript" in arguments:
        settings.set_enable_javascript_markup(False)
    content = WebKit2.UserContentManager()
    for argument in arguments:
        if argument.startswith("--user-script="):
            with open(argument.split("=", 1)[1], encoding="utf-8") as source:
                content.add_script(WebKit2.UserScript(source.read(), WebKit2.UserContentInjectedFrames.TOP_FRAME,
                                                      WebKit2.UserScriptInjectionTime.START, None, None))
    windows = []

    def closed(window):
        windows.remove(window)
        if not windows:
            Gtk.main_quit()

    def create_web_view(_session):
        view = WebKit2.WebView(web_context=context, settings=settings, user_content_manager=content,
                               is_controlled_by_automation=True)
        window = Gtk.Window()
        window.set_decorated(False)
        window.set_default_size(1024, 768)
        window.add(view)
        window.connect("destroy", closed)
        windows.append(window)
        window.show_all()
        return view

    def automation_started(_context, session):
        info = WebKit2.ApplicationInfo()
        info.set_name(NAME)
        info.set_version(WebKit2.get_major_version(), WebKit2.get_minor_version(), WebKit2.get_micro_version())
        session.set_application_info(info)
        session.connect("create-web-view", create_web_view)

    context.connect("automation-started", automation_started)
    Gtk.main()


if __name__ == "__main__":
    main(sys.argv[1:])

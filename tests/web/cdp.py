"""cdp.py -- drive headless Chromium through the DevTools protocol over a
pipe (--remote-debugging-pipe: JSON messages ending in NUL on fds 3 and 4),
with no package beyond Python's standard library. Real time (no virtual
time budget), any viewport width (the device metrics override), touch
emulation, file inputs (DOM.setFileInputFiles: the page's own file picker
path) and screenshots.

    with Browser(chrome) as b:
        b.open("file:///...", width=1280)
        b.eval("1 + 1")                  # -> 2 (promises awaited)
        b.screenshot("out.png")
"""
import base64
import select
import json
import os
import shutil
import subprocess
import tempfile
import time


class CdpError(Exception):
    pass


class Browser:
    def __init__(self, chrome, extra_args=()):
        self.profile = tempfile.mkdtemp(prefix="rl-cdp-")
        to_chrome_r, self._w = os.pipe()
        self._r, from_chrome_w = os.pipe()

        def child():
            os.dup2(to_chrome_r, 3)
            os.dup2(from_chrome_w, 4)

        args = [chrome, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-default-apps",
                "--disable-extensions", "--hide-scrollbars", "--user-data-dir=" + self.profile,
                "--remote-debugging-pipe"] + list(extra_args) + ["about:blank"]
        self.proc = subprocess.Popen(args, pass_fds=(3, 4), preexec_fn=child, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL)
        os.close(to_chrome_r)
        os.close(from_chrome_w)
        self._buf = b""
        self._id = 0
        self.events = []
        self.session = None
        targets = self.call("Target.getTargets")["targetInfos"]
        page = [t for t in targets if t["type"] == "page"][0]
        self.session = self.call("Target.attachToTarget", targetId=page["targetId"], flatten=True)["sessionId"]
        self.call("Page.enable")
        self.call("Runtime.enable")

    def __enter__(self):
        return self

    def __exit__(self, *a):
        self.close()

    def close(self):
        try:
            self.session = None
            self.call("Browser.close", _timeout=10)
        except Exception:
            pass
        try:
            self.proc.wait(timeout=10)
        except Exception:
            self.proc.kill()
        for fd in (self._w, self._r):
            try:
                os.close(fd)
            except OSError:
                pass
        shutil.rmtree(self.profile, ignore_errors=True)

    def _read_msg(self, deadline):
        while b"\0" not in self._buf:
            left = deadline - time.time()
            if left <= 0 or not select.select([self._r], [], [], left)[0]:
                raise CdpError("no answer from Chromium in time")
            chunk = os.read(self._r, 1 << 20)
            if not chunk:
                raise CdpError("Chromium closed the pipe")
            self._buf += chunk
        msg, self._buf = self._buf.split(b"\0", 1)
        return json.loads(msg)

    def call(self, method, _timeout=120, **params):
        self._id += 1
        msg = {"id": self._id, "method": method, "params": params}
        if self.session and not method.startswith(("Target.", "Browser.")):
            msg["sessionId"] = self.session
        os.write(self._w, json.dumps(msg).encode() + b"\0")
        deadline = time.time() + _timeout
        while True:
            m = self._read_msg(deadline)
            if m.get("id") == self._id:
                if "error" in m:
                    raise CdpError("%s: %s" % (method, m["error"].get("message")))
                return m.get("result", {})
            self.events.append(m)

    def wait_event(self, name, timeout=60):
        deadline = time.time() + timeout
        for i, m in enumerate(self.events):
            if m.get("method") == name:
                del self.events[i]
                return m
        while True:
            m = self._read_msg(deadline)
            if m.get("method") == name:
                return m
            self.events.append(m)

    def open(self, url, width=1280, height=900, touch=False):
        self.call("Emulation.setDeviceMetricsOverride", width=width, height=height, deviceScaleFactor=1,
                  mobile=touch)
        self.call("Emulation.setTouchEmulationEnabled", enabled=bool(touch), maxTouchPoints=5 if touch else 1)
        self.call("Emulation.setEmitTouchEventsForMouse", enabled=bool(touch))
        self.events = []
        self.call("Page.navigate", url=url)
        self.wait_event("Page.loadEventFired")

    def eval(self, expr, timeout=120):
        r = self.call("Runtime.evaluate", _timeout=timeout, expression=expr, awaitPromise=True, returnByValue=True)
        if "exceptionDetails" in r:
            d = r["exceptionDetails"]
            raise CdpError((d.get("exception") or {}).get("description") or d.get("text"))
        return r["result"].get("value")

    def set_files(self, selector, paths):
        doc = self.call("DOM.getDocument")
        node = self.call("DOM.querySelector", nodeId=doc["root"]["nodeId"], selector=selector)["nodeId"]
        self.call("DOM.setFileInputFiles", nodeId=node, files=[os.path.abspath(p) for p in paths])

    def screenshot(self, path, full=True, clip=None):
        params = {"format": "png"}
        if clip:
            params["clip"] = {"x": clip[0], "y": clip[1], "width": clip[2], "height": clip[3], "scale": 1}
            params["captureBeyondViewport"] = True
        elif full:
            m = self.call("Page.getLayoutMetrics")
            cs = m.get("cssContentSize") or m["contentSize"]
            params["clip"] = {"x": 0, "y": 0, "width": cs["width"], "height": cs["height"], "scale": 1}
            params["captureBeyondViewport"] = True
        data = self.call("Page.captureScreenshot", **params)["data"]
        with open(path, "wb") as f:
            f.write(base64.b64decode(data))

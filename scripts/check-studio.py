#!/usr/bin/env python3
"""Drives kinema-studio's page in headless Chromium (Debian's `chromium`) over the DevTools protocol,
as a designer would: moves a slider with the mouse and sees the plot and the readouts change,
downloads the CSS and finds it byte-identical to `kinema keyframes`, opens the page's URL in a new
tab and finds the same motion, pins a motion to compare, retargets and throws the playground's ball and
finds it on the closed-form spring, and takes a screenshot that is not blank; then plays a scene in
the scene tab, edits it with a slider, and finds its exports byte-identical to `kinema keyframes
--scene --canvas` and its balls on the canvas and in a screenshot.

Usage: check-studio.py KINEMA_STUDIO KINEMA [--screenshot PATH]
"""
import base64
import io
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request

import websocket
from PIL import Image, ImageStat


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def fail(message):
    sys.exit(f"check-studio: {message}")


def wait(what, condition, seconds=30):
    deadline = time.time() + seconds
    while time.time() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.1)
    fail(f"timed out waiting for {what}")


class Page:
    """One tab, driven through its DevTools websocket."""

    def __init__(self, url):
        self.socket = websocket.create_connection(url, timeout=60, suppress_origin=True)
        self.next = 0

    def send(self, method, **params):
        self.next += 1
        self.socket.send(json.dumps({"id": self.next, "method": method, "params": params}))
        while True:
            message = json.loads(self.socket.recv())
            if message.get("id") == self.next:
                if "error" in message:
                    fail(f"{method}: {message['error']}")
                return message.get("result", {})

    def eval(self, expression):
        result = self.send("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in result:
            fail(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def readouts(self):
        return self.eval("""({keyframes: document.getElementById('keyframes')?.textContent,
            settling: document.getElementById('settling')?.textContent,
            maxError: document.getElementById('max-error')?.textContent,
            curve: document.getElementById('motion-curve')?.getAttribute('d'),
            hash: location.hash, error: document.getElementById('error')?.textContent})""")

    def click(self, x, y):
        for kind in ("mouseMoved", "mousePressed", "mouseReleased"):
            self.send("Input.dispatchMouseEvent", type=kind, x=x, y=y, button="left", clickCount=1)

    def rect(self, selector):
        """The element's box in the viewport, scrolled into view first (a click outside it is lost)."""
        element = f"document.querySelector({json.dumps(selector)})"
        return self.eval(f"{element}.scrollIntoView({{block: 'center'}}); "
                         f"JSON.parse(JSON.stringify({element}.getBoundingClientRect()))")


def check_scene_tab(page, port, kinema, work, screenshot):
    """The scene tab: the first example played through its CSS export on the canvas, a slider
    that edits the scene, the exports the bytes `kinema keyframes --scene --canvas` writes for
    the scene the page sent, and a screenshot in which the balls show."""
    page.send("Page.navigate", url=f"http://127.0.0.1:{port}/#source=scene&tab=css")
    count = "document.querySelectorAll('#scene-stage > [data-body]').length"
    bodies = wait("the scene on the canvas", lambda: page.eval(
        f"answer && answer.bodies && {count} === answer.bodies.length && answer.bodies.length"), seconds=120)
    before = page.readouts()
    slider = page.rect("#p-sceneRestitution")
    page.click(slider["x"] + 0.3 * slider["width"], slider["y"] + slider["height"] / 2)
    after = wait("the edited scene's bake", lambda: (r := page.readouts()) and r["hash"] != before["hash"]
                 and r["keyframes"] != before["keyframes"] and r, seconds=120)
    print(f"check-studio: scene tab: {bodies} bodies, keyframes {before['keyframes']} → {after['keyframes']} "
          f"with the restitution slider; max error {after['maxError']}")
    sent = page.eval("request()")
    exports = page.eval("answer.exports")
    path = os.path.join(work, "scene.json")
    with open(path, "w") as f:
        f.write(sent["scene"])
    for format, text in exports.items():
        flags = ["--scene", path, "--canvas", "640x360", "--duration", str(sent["duration"]),
                 "--pixel-tolerance", str(sent["pixelTolerance"]), "--format", format]
        flags += ["--draw-planes"] if sent.get("drawPlanes") else []
        cli = subprocess.run([kinema, "keyframes"] + flags, capture_output=True, text=True, check=True).stdout
        if text != cli:
            fail(f"the scene tab's {format} export differs from kinema keyframes {' '.join(flags)}")
    print(f"check-studio: the scene tab's {len(exports)} exports are kinema keyframes' bytes for the scene it sent")
    # Each body is animated by the export's two @keyframes, and moves on the canvas.
    moved = page.eval("""(() => { const stage = document.getElementById('scene-stage').getBoundingClientRect();
        const animations = document.getAnimations().filter(a => a.effect?.target?.parentElement?.id === 'scene-stage');
        const at = t => { for (const a of animations) { a.pause(); a.currentTime = t; }
          return [...document.querySelectorAll('#scene-stage > [data-body]')].map(b => { const r = b.getBoundingClientRect();
            return [r.left + r.width / 2 - stage.left, r.top + r.height / 2 - stage.top]; }); };
        const start = at(0), later = at(1000);
        return {animations: animations.length, start, later,
                moved: Math.min(...start.map((p, i) => Math.hypot(p[0] - later[i][0], p[1] - later[i][1])))}; })()""")
    if moved["animations"] != 2 * bodies or not moved["moved"] > 1:
        fail(f"the scene's bodies are not played by their CSS: {moved}")
    if not all(0 <= x <= 640 and 0 <= y <= 360 for x, y in moved["later"]):
        fail(f"a body is off the canvas: {moved['later']}")
    stage = page.rect("#scene-stage")
    scrolled = page.eval("[window.scrollX, window.scrollY]")  # the clip is in the page's coordinates
    shot = base64.b64decode(page.send("Page.captureScreenshot", format="png", clip={
        "x": stage["x"] + scrolled[0], "y": stage["y"] + scrolled[1], "width": stage["width"],
        "height": stage["height"], "scale": 1})["data"])
    image = Image.open(io.BytesIO(shot)).convert("RGB")
    # The export draws each ball in #2456c9.
    blue = sum(n for n, (r, g, b) in image.getcolors(maxcolors=1 << 20) or []
               if abs(r - 0x24) < 24 and abs(g - 0x56) < 24 and abs(b - 0xc9) < 24)
    if blue < 500:
        fail(f"the scene tab's screenshot shows no balls ({blue} ball-coloured pixels)")
    # And each plane on the canvas as a 2 px line in #8a8f98.
    planes = page.eval("answer.planes.length")
    grey = sum(n for n, (r, g, b) in image.getcolors(maxcolors=1 << 20) or []
               if abs(r - 0x8a) < 12 and abs(g - 0x8f) < 12 and abs(b - 0x98) < 12)
    if not sent.get("drawPlanes") or planes == 0 or grey < 200 * planes:
        fail(f"the scene tab's screenshot shows no planes ({planes} planes, {grey} plane-coloured pixels)")
    if screenshot:
        image.save(screenshot.replace(".png", "-scene.png"), optimize=True)
    print(f"check-studio: scene screenshot {image.size[0]}×{image.size[1]}, {blue} ball-coloured pixels, "
          f"{planes} planes in {grey} plane-coloured pixels")


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    studio, kinema = sys.argv[1], sys.argv[2]
    screenshot = sys.argv[sys.argv.index("--screenshot") + 1] if "--screenshot" in sys.argv else None
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if not browser:
        fail("Chromium is not installed (Debian: apt-get install chromium)")
    port, debug = free_port(), free_port()
    work = tempfile.mkdtemp(prefix="kinema-studio-check-")
    server = subprocess.Popen([studio, "--port", str(port)], stderr=subprocess.PIPE, text=True)
    chrome = None
    try:
        wait("the studio to serve", lambda: server.stderr.readline().startswith("kinema-studio: serving"))
        chrome = subprocess.Popen(
            [browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
             f"--remote-debugging-port={debug}", f"--user-data-dir={work}/profile", "--window-size=1280,1000",
             "about:blank"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

        def targets():
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{debug}/json", timeout=2) as r:
                    return [t for t in json.load(r) if t["type"] == "page"]
            except OSError:
                return None

        page = Page(wait("Chromium's DevTools", targets)[0]["webSocketDebuggerUrl"])
        page.send("Page.enable")
        downloads = os.path.join(work, "downloads")
        os.makedirs(downloads)
        page.send("Browser.setDownloadBehavior", behavior="allow", downloadPath=downloads)
        start = f"http://127.0.0.1:{port}/#source=spring&dialect=swiftui&response=0.5&bounce=0.3&tolerance=0.001&tab=css"
        page.send("Page.navigate", url=start)
        before = wait("the first bake", lambda: (r := page.readouts()) and r.get("curve") and r)
        if before.get("error"):
            fail(f"the page shows an error: {before['error']}")

        # Move the bounce slider with the mouse: press on its track at 85 % and release there.
        slider = page.rect("#p-bounce")
        page.click(slider["x"] + 0.85 * slider["width"], slider["y"] + slider["height"] / 2)
        after = wait("the plot and readouts to change",
                     lambda: (r := page.readouts()) and r.get("curve") != before["curve"] and r.get("settling") != before["settling"] and r)
        state = dict(urllib.parse.parse_qsl(after["hash"][1:]))
        if state["bounce"] == "0.3":
            fail(f"the slider moved but the URL kept bounce = 0.3: {after['hash']}")
        print(f"check-studio: slider: bounce 0.3 → {state['bounce']}; keyframes {before['keyframes']} → "
              f"{after['keyframes']}, settling {before['settling']} → {after['settling']}")
        if page.eval("getComputedStyle(document.getElementById('ball')).animationName") != "kinema-position-x":
            fail("the ball is not animated by the exported CSS")
        # The two balls (@keyframes and linear()) start on the same frame and, seeked to the same
        # time, stand within the tolerance of each other (2 × 0.001 of the travel).
        starts = wait("both animations to start", lambda: (v := page.eval(
            "document.getAnimations().map(a => a.startTime)")) and len(v) == 2 and None not in v and v)
        if starts[0] != starts[1]:
            fail(f"the two balls start at different times: {starts}")
        apart = page.eval("""(() => { const [a, b] = document.getAnimations(); let worst = 0;
            for (let t = 0; t <= 1000; t += 50) { a.pause(); b.pause(); a.currentTime = b.currentTime = t;
              const x = id => parseFloat(getComputedStyle(document.getElementById(id)).getPropertyValue('--position-x'));
              worst = Math.max(worst, Math.abs(x('ball') - x('ball-linear'))); }
            return worst; })()""")
        if not apart <= 0.002:
            fail(f"the @keyframes and linear() balls are {apart} apart")
        print(f"check-studio: the exported CSS plays on both balls from the same frame, at most {apart:.2e} apart")

        # Download the CSS (the tab the URL chose) and compare it with the CLI's.
        button = page.rect("#download")
        page.click(button["x"] + button["width"] / 2, button["y"] + button["height"] / 2)
        path = os.path.join(downloads, "kinema.css")
        wait("the download", lambda: os.path.exists(path) and os.path.getsize(path) > 0)
        downloaded = open(path, "rb").read()
        flags = ["--spring", "--response", state["response"], "--bounce", state["bounce"], "--tolerance",
                 state["tolerance"], "--format", "css"]
        cli = subprocess.run([kinema, "keyframes"] + flags, capture_output=True, check=True).stdout
        if downloaded != cli:
            fail(f"the downloaded CSS differs from kinema keyframes {' '.join(flags)}")
        print(f"check-studio: downloaded kinema.css ({len(downloaded)} bytes) = kinema keyframes {' '.join(flags)}")

        # The URL is the motion: a new tab opened on it shows the same one.
        target = page.send("Target.createTarget", url=f"http://127.0.0.1:{port}/{after['hash']}")
        second = Page(f"ws://127.0.0.1:{debug}/devtools/page/{target['targetId']}")
        shared = wait("the shared link's bake", lambda: (r := second.readouts()) and r.get("curve") and r)
        for key in ("keyframes", "settling", "maxError", "curve"):
            if shared[key] != after[key]:
                fail(f"the shared link shows another {key}: {shared[key]!r} against {after[key]!r}")
        print("check-studio: the page's URL, opened in a new tab, shows the same motion")

        # Compare: pin this motion, switch dialect; the pinned curve stays drawn.
        pin = page.rect("#compare")
        page.click(pin["x"] + pin["width"] / 2, pin["y"] + pin["height"] / 2)
        wait("the pinned curve", lambda: page.eval("!!document.getElementById('pinned-curve')"))
        print("check-studio: a pinned motion is overlaid")

        # The playground: a click retargets the ball, a second one retargets it mid-flight, a drag
        # throws it; the played motion stays within the tolerance of the travel of the closed form.
        page.send("Page.bringToFront")  # the shared link's tab took the front: a hidden tab draws no frames
        wait("the playground", lambda: page.eval("!document.getElementById('playground').hidden && !!window.playground?.spring"))
        track = page.rect("#pg-track")
        page.click(track["x"] + 0.8 * track["width"], track["y"] + track["height"] / 2)
        time.sleep(0.15)
        if not page.eval("window.playground.spring.animationCount") >= 1:
            fail("a click on the playground's track started no animation")
        page.click(track["x"] + 0.2 * track["width"], track["y"] + track["height"] / 2)
        time.sleep(1.5)
        ball = page.rect("#pg-ball")
        x, y = ball["x"] + ball["width"] / 2, ball["y"] + ball["height"] / 2
        page.send("Input.dispatchMouseEvent", type="mousePressed", x=x, y=y, button="left", clickCount=1)
        for step in range(1, 6):
            time.sleep(0.02)
            page.send("Input.dispatchMouseEvent", type="mouseMoved", x=x + 30 * step, y=y, button="left")
        page.send("Input.dispatchMouseEvent", type="mouseReleased", x=x + 150, y=y, button="left", clickCount=1)
        time.sleep(0.3)
        played = page.eval("""(() => { const h = window.playground.history, v = h.flatMap(p => [p[1], p[2]]);
            return {frames: h.length, worst: Math.max(...h.map(p => Math.abs(p[1] - p[2]))),
                    travel: Math.max(...v) - Math.min(...v)}; })()""")
        allowed = float(state["tolerance"]) * played["travel"] + 0.01
        if not played["travel"] > 100 or not played["worst"] <= allowed:
            fail(f"the playground's ball is off the closed form or still: {played} (allowed {allowed:.3g})")
        print(f"check-studio: playground: two retargets and a throw, {played['frames']} frames within "
              f"{played['worst']:.3g} px of the closed form over a travel of {played['travel']:.0f} px")

        shot = base64.b64decode(page.send("Page.captureScreenshot", format="png")["data"])
        image = Image.open(io.BytesIO(shot)).convert("RGB")
        colors = image.getcolors(maxcolors=1 << 20) or []
        spread = max(ImageStat.Stat(image).stddev)
        if len(colors) < 50 or spread < 10:
            fail(f"the screenshot looks blank ({len(colors)} colours, spread {spread:.1f})")
        if screenshot:
            image.save(screenshot, optimize=True)
        print(f"check-studio: screenshot {image.size[0]}×{image.size[1]}, {len(colors)} colours")
        check_scene_tab(page, port, kinema, work, screenshot)
    finally:
        if chrome:
            chrome.terminate()
            chrome.wait(timeout=30)
        server.send_signal(2)
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            server.kill()
            fail("the studio did not stop on SIGINT")
        shutil.rmtree(work, ignore_errors=True)
    print("check-studio: ok")


if __name__ == "__main__":
    main()

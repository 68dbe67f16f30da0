#!/usr/bin/env python3
"""Plays `kinema keyframes --scene … --canvas` in real consumers against the simulated positions.

For three 2-D scenes (three balls in a box, the 12-ball pile of docs/performance.md, the ball on a
spring), the CSS is played in headless Chromium (every animation paused and seeked, each body's
drawn circle located by getBoundingClientRect) and the Lottie document in ThorVG (each layer's
transform), at 4,001 times, and drawn by rlottie (each body's circle located by the centroid of its
pixels) at every frame. Each body's position there must be within the export's tolerance in
pixels of the position `kinema simulate` gives at the same time, mapped by the export's canvas
(its scale and origin, y flipped). The Lottie document must hold one layer per body.
With --bytes, each scene's bytes and keyframes are also set against a uniform 60 fps bake at the
same error (the table of docs/performance.md).

Usage: check-canvas.py KINEMA_BINARY [--bytes]
"""
import csv
import io
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile

TOLERANCE = 0.5  # pixels
SLACK = 0.03  # Chromium lays boxes out in 1/64 px
RASTER = 0.05  # a drawn circle's centroid: its edge's antialiasing (rlottie)
TIMES = 4000  # intervals
HERE = os.path.dirname(os.path.abspath(__file__))
SCENES = [
    ("three balls in a 2-D box", "three-balls-box-2d.json", 3.0),
    ("the 12-ball pile", "pile-12-2d.json", 1.0),
    ("the ball on a 2-D spring", "ball-on-spring-2d.json", 3.0),
]


def run(kinema, *args):
    result = subprocess.run([kinema, *args], capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"check-canvas: kinema {' '.join(args)} failed: {result.stderr.strip()}")
    return result.stdout, result.stderr


def simulated(kinema, scene, duration, mapping, names, intervals=TIMES):
    """Each body's canvas position at t = i·duration/intervals."""
    text, _ = run(kinema, "simulate", "--scene", scene, "--duration", repr(duration), "--integrator", "dopri5",
                  "--tolerance", "1e-11", "--sample-rate", repr(intervals / duration))
    rows = list(csv.DictReader(io.StringIO(text)))
    if len(rows) != intervals + 1:
        sys.exit(f"check-canvas: expected {intervals + 1} samples, got {len(rows)}")
    s, (ox, oy), flip = mapping["pixelsPerUnit"], mapping["origin"], mapping["flipsY"]
    return [float(r["t"]) for r in rows], {
        name: [(ox + s * float(r[f"{name}.x"]), oy + (-s if flip else s) * float(r[f"{name}.y"])) for r in rows]
        for name in names}


def chromium(browser, css, names, times, workdir):
    """{body: [(x, y)]}: the centre of each body's circle, from the page's layout."""
    ids = json.loads(run_js_names(css, names))
    page = os.path.join(workdir, "scene.html")
    divs = "".join(f'<div class="kinema-{ids[n]}" data-name="{n}"></div>' for n in names)
    script = f"""
      const times = {json.dumps(times)}, out = {{}};
      const scene = document.querySelector('.kinema-scene').getBoundingClientRect();
      const animations = document.getAnimations();
      for (const a of animations) a.pause();
      const bodies = [...document.querySelectorAll('.kinema-scene div')];
      for (const b of bodies) out[b.dataset.name] = [];
      for (const t of times) {{
        for (const a of animations) a.currentTime = t * 1000;
        for (const b of bodies) {{
          const r = b.getBoundingClientRect();
          out[b.dataset.name].push([r.left + r.width / 2 - scene.left, r.top + r.height / 2 - scene.top]);
        }}
      }}
      document.getElementById('out').textContent = JSON.stringify({{out, count: animations.length}});
    """
    with open(page, "w") as f:
        f.write(f"<!doctype html><html><head><style>body {{ margin: 0 }} {css}</style></head><body>"
                f"<div class='kinema-scene'>{divs}</div><pre id='out'></pre><script>{script}</script></body></html>")
    result = subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                             "--dump-dom", "file://" + page], capture_output=True, text=True, timeout=600)
    start, end = result.stdout.find('<pre id="out">'), result.stdout.find("</pre>")
    if result.returncode != 0 or start < 0:
        sys.exit(f"check-canvas: Chromium did not render the page: {result.stderr.strip()[-300:]}")
    played = json.loads(result.stdout[start + len('<pre id="out">'):end].replace("&quot;", '"'))
    if played["count"] != 2 * len(names):
        sys.exit(f"check-canvas: expected two animations per body, found {played['count']}")
    return played["out"]


def run_js_names(css, names):
    """Each body's CSS identifier, from the classes the stylesheet declares, in the bodies' order."""
    classes = [line.split()[0][len(".kinema-"):] for line in css.splitlines()
               if line.startswith(".kinema-") and not line.startswith(".kinema-scene")]
    if len(classes) != len(names):
        sys.exit(f"check-canvas: {len(classes)} body classes for {len(names)} bodies")
    return json.dumps(dict(zip(names, classes)))


def thorvg(document, times, fps):
    import thorvg_python as tvg
    engine = tvg.Engine()
    animation = tvg.LottieAnimation(engine)
    picture = animation.get_picture()
    if picture.load_data(document.encode(), "lottie", None, True) != tvg.Result.SUCCESS:
        sys.exit("check-canvas: ThorVG did not load the Lottie document")
    canvas = tvg.SwCanvas(engine)
    canvas.set_target(800, 600)
    canvas.add(picture)
    accessor = tvg.Accessor(engine, None)
    names = [layer["nm"] for layer in json.loads(document)["layers"]]
    out = {name: [] for name in names}
    for t in times:
        animation.set_frame(t * fps)
        canvas.update()
        for name in names:
            m = picture.get_paint(accessor.accessor_generate_id(name)).get_transform()[1]
            out[name].append((m.e13, m.e23))
    return out


def rlottie(document, expected, radii, frames):
    """{body: [(x, y)]}: the centre of each body's circle as rlottie draws it at each frame, the
    alpha-weighted centroid of its pixels (the body's layer alone, read around where it should be)."""
    from rlottie_python import LottieAnimation
    doc = json.loads(document)
    width, height = doc["w"], doc["h"]
    out = {}
    for layer in doc["layers"]:
        name = layer["nm"]
        alone = LottieAnimation.from_data(json.dumps(dict(doc, layers=[layer])))
        if alone.lottie_animation_get_totalframe() == 0:
            sys.exit(f"check-canvas: rlottie did not load the Lottie document (layer '{name}')")
        reach = radii[name] + 4
        out[name] = []
        for frame in range(frames):
            pixels = alone.lottie_animation_render(frame_num=frame, width=width, height=height)
            cx, cy = expected[name][frame]
            total = sx = sy = 0.0
            for y in range(max(0, int(cy - reach)), min(height, int(cy + reach) + 1)):
                row = pixels[4 * width * y:4 * width * (y + 1)]
                for x in range(max(0, int(cx - reach)), min(width, int(cx + reach) + 1)):
                    a = row[4 * x + 3]
                    if a:
                        total += a
                        sx += a * (x + 0.5)
                        sy += a * (y + 0.5)
            out[name].append((sx / total, sy / total) if total else (math.nan, math.nan))
    return out


def compare(case, consumer, played, expected, times, bound):
    worst, where = 0.0, None
    for name, points in expected.items():
        for t, (x, y), (px, py) in zip(times, points, played[name]):
            error = math.hypot(px - x, py - y)
            if not error <= worst:
                worst, where = error, (name, t)
    ok = worst <= bound
    print(f"{'ok  ' if ok else 'FAIL'} {case} in {consumer}: {len(expected)} bodies at {len(times)} times, "
          f"at most {worst:.3g} px from the simulation (allowed {bound:.3g})"
          + ("" if ok else f", body '{where[0]}' at t = {where[1]:.4g} s"))
    return ok


def main():
    if len(sys.argv) not in (2, 3) or sys.argv[2:] not in ([], ["--bytes"]):
        sys.exit(__doc__)
    kinema = sys.argv[1]
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if browser is None:
        sys.exit("check-canvas: Chromium is not installed (Debian: apt-get install chromium)")
    passed = True
    with tempfile.TemporaryDirectory() as workdir:
        for case, file, duration in SCENES:
            scene = os.path.join(HERE, "..", "examples", file)
            flags = ["keyframes", "--scene", scene, "--duration", repr(duration), "--canvas", "800x600",
                     "--pixel-tolerance", repr(TOLERANCE)]
            baked = json.loads(run(kinema, *flags, "--format", "json")[0])
            names = [b["name"] for b in baked["bodies"]]
            times, expected = simulated(kinema, scene, duration, baked["canvas"], names)
            css, _ = run(kinema, *flags, "--format", "css")
            passed &= compare(case, "Chromium (CSS)", chromium(browser, css, names, times, workdir), expected, times,
                              TOLERANCE + SLACK)
            document, _ = run(kinema, *flags, "--format", "lottie")
            layers = json.loads(document)["layers"]
            if [layer["nm"] for layer in layers] != names:
                print(f"FAIL {case}: the Lottie document's layers are {[l['nm'] for l in layers]}, not one per body")
                passed = False
            passed &= compare(case, "ThorVG (Lottie)", thorvg(document, times, 60), expected, times, TOLERANCE)
            # rlottie draws whole frames: each frame of the composition's 60 a second.
            frames = int(duration * 60) + 1
            frame_times, at_frames = simulated(kinema, scene, duration, baked["canvas"], names, frames - 1)
            radii = {b["name"]: b["radius"] for b in baked["bodies"]}
            passed &= compare(case, "rlottie (Lottie, drawn)", rlottie(document, at_frames, radii, frames), at_frames,
                              frame_times, TOLERANCE + RASTER)
            if "--bytes" not in sys.argv:
                continue
            # Bytes against a uniform 60 fps bake at the same error.
            base = flags[:-2]
            uniform = json.loads(run(kinema, *base, "--strategy", "uniform", "--format", "json")[0])
            same = base + ["--pixel-tolerance", repr(uniform["maxError"])]
            at = json.loads(run(kinema, *same, "--format", "json")[0])
            sizes = {}
            for fmt in ("json", "css", "lottie"):
                sizes[fmt] = (len(run(kinema, *base, "--strategy", "uniform", "--format", fmt)[0].encode()),
                              len(run(kinema, *same, "--format", fmt)[0].encode()))
            count = lambda b: sum(x["keyframeCount"] for x in b["bodies"])
            print(f"     {case}: {count(baked)} keyframes at {TOLERANCE} px; uniform 60 fps: {count(uniform)} keyframes, "
                  f"{uniform['maxError']:.3g} px; adaptive at that error: {count(at)} keyframes; bytes uniform → adaptive: "
                  + ", ".join(f"{fmt} {u:,} → {a:,} ({a / u:.2f})" for fmt, (u, a) in sizes.items()))
    if not passed:
        sys.exit(1)


if __name__ == "__main__":
    main()

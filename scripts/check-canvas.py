#!/usr/bin/env python3
"""Plays `kinema keyframes --scene … --canvas` in real consumers against the simulated positions.

For three 2-D scenes (three balls in a box, the 12-ball pile of docs/performance.md, the ball on a
spring), the CSS is played in headless Chromium (every animation paused and seeked, each body's
drawn circle located by getBoundingClientRect) and the Lottie document in ThorVG (each layer's
transform), at 4,001 times, and drawn by rlottie (each body's circle located by the centroid of its
pixels) at every frame. Each body's position there must be within the export's tolerance in
pixels of the position `kinema simulate` gives at the same time, mapped by the export's canvas
(its scale and origin, y flipped). The Lottie document must hold one layer per body.
With --draw-planes, the box's walls must lie where the scene's planes are (n·x = offset, mapped by
the canvas) and be drawn there, and only there, by Chromium, ThorVG and rlottie.
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


PLANE_OFF = 3.0  # pixels beside a 2-px line where the players must draw nothing


def planes(kinema, browser, workdir):
    """The three-ball box baked with --draw-planes: each wall's line on the scene's plane, and each
    player drawing it along the line and not 3 px beside it."""
    case, file, duration = SCENES[0]
    path = os.path.join(HERE, "..", "examples", file)
    flags = ["keyframes", "--scene", path, "--duration", repr(duration), "--canvas", "800x600", "--draw-planes"]
    baked = json.loads(run(kinema, *flags, "--format", "json")[0])
    with open(path) as f:
        scene = json.load(f)
    canvas, lines = baked["canvas"], baked.get("planes", [])
    s, (ox, oy), flip = canvas["pixelsPerUnit"], canvas["origin"], canvas["flipsY"]
    drawn_names = [line["name"] for line in lines]
    ok = drawn_names == [p["name"] for p in scene["planes"] if p["name"] in drawn_names]
    to_scene = lambda x, y: ((x - ox) / s, (y - oy) / (-s if flip else s))
    corners = [to_scene(x, y) for x in (0, canvas["width"]) for y in (0, canvas["height"])]
    for plane in scene["planes"]:
        n, offset = plane["normal"], plane.get("offset", 0) * math.hypot(*plane["normal"])
        line = next((l for l in lines if l["name"] == plane["name"]), None)
        if line is None:
            # Not drawn: its line misses the canvas (every corner on one side of it).
            sides = {n[0] * x + n[1] * y > offset for x, y in corners}
            ok &= len(sides) == 1
            continue
        for x, y in (line["from"], line["to"]):
            # Back to scene units: on the plane, and on the canvas's border.
            sx, sy = to_scene(x, y)
            on_plane = abs(n[0] * sx + n[1] * sy - offset) * s <= 0.01
            on_border = min(abs(x), abs(x - canvas["width"]), abs(y), abs(y - canvas["height"])) <= 0.01
            ok &= on_plane and on_border
    print(f"{'ok  ' if ok else 'FAIL'} {case} with --draw-planes: {len(lines)} of {len(scene['planes'])} planes "
          f"drawn, each on its plane and across the canvas, the others off it")
    def distance(x, y, line):
        (x0, y0), (x1, y1) = line["from"], line["to"]
        dx, dy = x1 - x0, y1 - y0
        f = max(0.0, min(1.0, ((x - x0) * dx + (y - y0) * dy) / (dx * dx + dy * dy)))
        return math.hypot(x - x0 - f * dx, y - y0 - f * dy)
    # Probes at pixel centres along each line and beside it: drawn where the pixel's centre is
    # within half a pixel of a line, clear where it is more than 2.5 px from every line (its 1-px
    # half-width, a pixel of antialiasing and half a pixel).
    probes = []  # (line, x, y, whether it is drawn there)
    for k, line in enumerate(lines):
        (x0, y0), (x1, y1) = line["from"], line["to"]
        length = math.hypot(x1 - x0, y1 - y0)
        nx, ny = -(y1 - y0) / length, (x1 - x0) / length
        for f in (0.1, 0.3, 0.5, 0.7, 0.9):
            for off in (0, PLANE_OFF, -PLANE_OFF):
                x = math.floor(x0 + f * (x1 - x0) + off * nx) + 0.5
                y = math.floor(y0 + f * (y1 - y0) + off * ny) + 0.5
                near = sorted((distance(x, y, other), j) for j, other in enumerate(lines))
                if near[0][0] <= 0.5 or near[0][0] >= 2.5:
                    # The line drawn there, where no other is within reach (at a corner, either).
                    alone = len(near) == 1 or near[1][0] >= 2.5
                    probes.append((near[0][1] if alone else None, x, y, near[0][0] <= 0.5))
    css, _ = run(kinema, *flags, "--format", "css")
    classes = [line.split()[0][1:] for line in css.splitlines() if line.startswith(".kinema-")][1:]
    plane_classes = classes[len(baked["bodies"]):]
    page = os.path.join(workdir, "planes.html")
    divs = "".join(f'<div class="{c}"></div>' for c in classes)
    script = f"""
      const probes = {json.dumps([(x, y) for _, x, y, _ in probes])};
      for (const a of document.getAnimations()) {{ a.pause(); a.currentTime = 0; }}
      const scene = document.querySelector('.kinema-scene').getBoundingClientRect();
      const hits = probes.map(([x, y]) => (document.elementFromPoint(scene.left + x, scene.top + y) || {{}}).className || '');
      document.getElementById('out').textContent = JSON.stringify(hits);
    """
    with open(page, "w") as f:
        # The bodies are hidden: the probes ask what is drawn where the lines are.
        f.write(f"<!doctype html><html><head><style>body {{ margin: 0 }} {css} .kinema-scene > div:nth-child(-n+"
                f"{len(baked['bodies'])}) {{ display: none }}</style></head><body><div class='kinema-scene'>{divs}</div>"
                f"<pre id='out'></pre><script>{script}</script></body></html>")
    # A viewport that holds the whole canvas: elementFromPoint sees only what is in view.
    result = subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                             "--window-size=1200,1000", "--dump-dom", "file://" + page], capture_output=True, text=True,
                            timeout=600)
    start, end = result.stdout.find('<pre id="out">'), result.stdout.find("</pre>")
    hits = json.loads(result.stdout[start + len('<pre id="out">'):end].replace("&quot;", '"')) if start >= 0 else []
    # Whether a line is drawn at each probe (on a line: that line's element).
    drawn = {"Chromium (CSS)": [hit == plane_classes[k] if covered and k is not None else hit in plane_classes
                                for (k, _, _, covered), hit in zip(probes, hits)]}
    document, _ = run(kinema, *flags, "--format", "lottie")
    doc = json.loads(document)
    walls = dict(doc, layers=doc["layers"][len(baked["bodies"]):])
    import thorvg_python as tvg
    engine = tvg.Engine()
    animation = tvg.LottieAnimation(engine)
    picture = animation.get_picture()
    picture.load_data(json.dumps(walls).encode(), "lottie", None, True)
    canvas_ = tvg.SwCanvas(engine)
    canvas_.set_target(doc["w"], doc["h"])
    buffer = canvas_.buffer_arr
    canvas_.add(picture)
    animation.set_frame(0)
    canvas_.update()
    canvas_.draw(True)
    canvas_.sync()
    alpha = lambda x, y: (buffer[int(y) * doc["w"] + int(x)] >> 24) & 0xFF
    drawn["ThorVG (Lottie)"] = [alpha(x, y) > 0 for _, x, y, _ in probes]
    from rlottie_python import LottieAnimation
    pixels = LottieAnimation.from_data(json.dumps(walls)).lottie_animation_render(
        frame_num=0, width=doc["w"], height=doc["h"])
    drawn["rlottie (Lottie, drawn)"] = [pixels[4 * (int(y) * doc["w"] + int(x)) + 3] > 0 for _, x, y, _ in probes]
    for consumer, seen in drawn.items():
        wrong = [(x, y) for (_, x, y, covered), hit in zip(probes, seen) if hit != covered]
        good = len(seen) == len(probes) and not wrong and any(c for *_, c in probes)
        ok &= good
        print(f"{'ok  ' if good else 'FAIL'} {case} walls in {consumer}: {len(probes)} probes, drawn on each line "
              f"and clear {PLANE_OFF:g} px beside it" + ("" if good else f"; wrong at {wrong[:3]}"))
    return ok


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
        passed &= planes(kinema, browser, workdir)
    if not passed:
        sys.exit(1)


if __name__ == "__main__":
    main()

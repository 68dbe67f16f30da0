#!/usr/bin/env python3
"""Plays Kinema's exports in real consumers and compares them with the closed forms.

- CSS: `kinema keyframes --format css` in headless Chromium (Debian `chromium`): each animation
  (the cubic-bezier @keyframes and the linear() easing) paused and seeked through the Web Animations
  API, the animated custom property read back with getComputedStyle.
- Lottie: `kinema keyframes --format lottie` loaded by ThorVG (PyPI `thorvg-python`), each layer's
  transform read at every frame time asked for.

Expected values come from `kinema easing NAME --at …` (the closed-form easing) and from
`kinema simulate --integrator exact` (springs and drops in closed form), never from the exporter.
A player within `tolerance × travel + 1e-5` of them at 401 times per case passes; anything else,
including a consumer that cannot be started, fails with one line naming the case.

Usage: check-players.py KINEMA_BINARY
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

TOLERANCE = 1e-3
SLACK = 1e-5
SAMPLES = 400  # intervals: 401 times per case

# (name, keyframes arguments, source of the expected values, duration[, tolerance])
CASES = [
    ("damped cosine (5,30)", ["--easing", "damped-cosine(5,30)"], ("easing", "damped-cosine(5,30)"), 1.0),
    ("bounce-out", ["--easing", "bounce-out"], ("easing", "bounce-out"), 1.0),
    ("Core Animation book's bounce", ["--easing", "lockwood-bounce-out"], ("easing", "lockwood-bounce-out"), 1.0),
    ("circ-in-out (vertical in its middle)", ["--easing", "circ-in-out"], ("easing", "circ-in-out"), 1.0),
    # Pinned to 1 at its end, 2^-11 off its curve's limit: the jump in a piece of 1e-4 s, the rest
    # within a tolerance twenty times finer than the jump.
    ("elastic-out at 1e-5 (a pinned end)", ["--easing", "elastic-out"], ("easing", "elastic-out"), 1.0, 1e-5),
    # Baked into its own curve, one piece between each pair of extrema: 4 keyframes at any tolerance.
    ("cubic-bezier(0.68,-0.55,0.265,1.55) at 1e-5", ["--easing", "cubic-bezier(0.68,-0.55,0.265,1.55)"],
     ("easing", "cubic-bezier(0.68,-0.55,0.265,1.55)"), 1.0, 1e-5),
    ("spring response 0.5, bounce 0.3", ["--spring", "--response", "0.5", "--bounce", "0.3", "--duration", "1.5"],
     ("simulate", ["--spring", "--response", "0.5", "--bounce", "0.3"]), 1.5),
    ("drop", ["--drop", "--height", "1", "--restitution", "0.5", "--duration", "1.2"],
     ("simulate", ["--drop", "--height", "1", "--restitution", "0.5"]), 1.2),
]


def run(kinema, *args):
    result = subprocess.run([kinema, *args], capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"check-players: kinema {' '.join(args)} failed: {result.stderr.strip()}")
    return result.stdout


def expected_values(kinema, source, duration):
    """The closed form at t = i·duration/SAMPLES."""
    times = [duration * i / SAMPLES for i in range(SAMPLES + 1)]
    kind, what = source
    if kind == "easing":
        text = run(kinema, "easing", what, "--at", ",".join(repr(t / duration) for t in times))
        values = [float(row["value"]) for row in csv.DictReader(io.StringIO(text))]
    else:
        text = run(kinema, "simulate", *what, "--integrator", "exact", "--duration", repr(duration),
                   "--sample-rate", repr(SAMPLES / duration))
        values = [float(row["x"]) for row in csv.DictReader(io.StringIO(text))]
    if len(values) != len(times):
        sys.exit(f"check-players: expected {len(times)} closed-form values, got {len(values)}")
    return times, values


def chromium_values(browser, css, times, workdir, name):
    """Each animation in `css` seeked to every time; {class name: [values]}."""
    page = os.path.join(workdir, f"{name}.html")
    classes = [line.split()[0][1:] for line in css.splitlines() if line.startswith(".") and "animation:" in line]
    script = f"""
      const times = {json.dumps(times)};
      const out = {{}};
      for (const el of document.querySelectorAll('div')) {{
        const animation = el.getAnimations()[0];
        animation.pause();
        const prop = el.dataset.prop;
        out[el.className] = times.map(t => {{
          animation.currentTime = t * 1000;
          return parseFloat(getComputedStyle(el).getPropertyValue(prop));
        }});
      }}
      document.getElementById('out').textContent = JSON.stringify(out);
    """
    divs = "".join(f'<div class="{c}" data-prop="{css_property(css, c)}"></div>' for c in classes)
    with open(page, "w") as f:
        f.write(f"<!doctype html><html><head><style>{css}</style></head><body>{divs}<pre id='out'></pre>"
                f"<script>{script}</script></body></html>")
    result = subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                             "--dump-dom", "file://" + page], capture_output=True, text=True, timeout=120)
    start, end = result.stdout.find("<pre id=\"out\">"), result.stdout.find("</pre>")
    if result.returncode != 0 or start < 0:
        sys.exit(f"check-players: {name}: Chromium did not render the page: {result.stderr.strip()[-300:]}")
    return json.loads(result.stdout[start + len("<pre id=\"out\">"):end].replace("&quot;", '"'))


def css_property(css, cls):
    """The custom property that class `cls`'s @keyframes animates."""
    lines = css.splitlines()
    for i, line in enumerate(lines):
        if line.startswith(f"@keyframes {cls} "):
            if "from { " in line:  # the linear() animation: one line
                return line.split("from { ")[1].split(":")[0].strip()
            return lines[i + 1].split("{ ")[1].split(":")[0].strip()  # the first keyframe's line
    sys.exit(f"check-players: no @keyframes for .{cls}")


def thorvg_values(document, times, fps, read=lambda m: m.e13):
    """Each layer's animated transform component at every time (default: x position in px),
    through ThorVG's Lottie loader."""
    import thorvg_python as tvg
    engine = tvg.Engine()
    animation = tvg.LottieAnimation(engine)
    picture = animation.get_picture()
    if picture.load_data(document.encode(), "lottie", None, True) != tvg.Result.SUCCESS:
        sys.exit("check-players: ThorVG did not load the Lottie document")
    canvas = tvg.SwCanvas(engine)
    canvas.set_target(512, 512)
    canvas.add(picture)
    accessor = tvg.Accessor(engine, None)
    names = [layer["nm"] for layer in json.loads(document)["layers"]]
    values = {name: [] for name in names}
    for t in times:
        animation.set_frame(t * fps)
        canvas.update()
        for name in names:
            layer = picture.get_paint(accessor.accessor_generate_id(name))
            if layer is None:
                sys.exit(f"check-players: ThorVG has no layer '{name}'")
            values[name].append(read(layer.get_transform()[1]))
    return values


def compare(case, consumer, got, times, expected, travel, scale=1.0, offset=0.0, tolerance=TOLERANCE):
    bound = tolerance * travel + SLACK
    worst, at = 0.0, 0.0
    for t, g, e in zip(times, got, expected):
        error = abs((g - offset) / scale - e)
        if not error <= bound:
            if not error < worst:
                worst, at = error, t
    if worst > 0:
        print(f"FAIL {case} in {consumer}: off by {worst:.3g} at t = {at:.4g} s (allowed {bound:.3g})")
        return False
    best = max(abs((g - offset) / scale - e) for g, e in zip(got, expected))
    print(f"ok   {case} in {consumer}: max deviation {best:.3g} (allowed {bound:.3g}), {len(times)} times")
    return True


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    kinema = sys.argv[1]
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if browser is None:
        sys.exit("check-players: Chromium is not installed (Debian: apt-get install chromium); the CSS exports cannot be played")
    try:
        import thorvg_python  # noqa: F401
    except ImportError:
        sys.exit("check-players: thorvg-python is not installed (pip install -r scripts/players-requirements.txt)")
    passed = True
    with tempfile.TemporaryDirectory() as workdir:
        for index, (case, arguments, source, duration, *rest) in enumerate(CASES):
            tolerance = rest[0] if rest else TOLERANCE
            times, expected = expected_values(kinema, source, duration)
            travel = abs(expected[-1] - expected[0]) or (max(expected) - min(expected))
            css = run(kinema, "keyframes", *arguments, "--tolerance", repr(tolerance), "--format", "css")
            played = chromium_values(browser, css, times, workdir, f"case{index}")
            if len(played) != 2:
                print(f"FAIL {case}: expected a @keyframes animation and a linear() one, found {sorted(played)}")
                passed = False
            for cls, values in sorted(played.items()):
                kind = "linear()" if cls.endswith("-linear") else "@keyframes"
                passed &= compare(case, f"Chromium ({kind})", values, times, expected, travel, tolerance=tolerance)
            fps = 60
            document = run(kinema, "keyframes", *arguments, "--tolerance", repr(tolerance), "--format", "lottie",
                           "--fps", str(fps), "--lottie-range", "0:400")
            for name, values in thorvg_values(document, times, fps).items():
                passed &= compare(case, f"ThorVG (Lottie layer '{name}')", values, times, expected, travel, scale=400,
                                  tolerance=tolerance)
        # The other animated properties, on bounce-out: scale (the matrix's x scale, 100 % = 1) and
        # rotation (its angle, degrees).
        times, expected = expected_values(kinema, ("easing", "bounce-out"), 1.0)
        for prop, span, read in [("scale", "0:100", lambda m: m.e11 * 100),
                                 ("rotation", "0:90", lambda m: math.degrees(math.atan2(m.e21, m.e11)))]:
            document = run(kinema, "keyframes", "--easing", "bounce-out", "--tolerance", repr(TOLERANCE), "--format",
                           "lottie", "--lottie-property", prop, "--lottie-range", span)
            scale = float(span.split(":")[1])
            for name, values in thorvg_values(document, times, 60, read).items():
                passed &= compare("bounce-out", f"ThorVG (Lottie {prop})", values, times, expected, 1.0, scale=scale)
        # Values mapped onto the layer's units (--value-scale, --value-offset): pixels in Chromium
        # and as a Lottie position, radians as degrees as a Lottie rotation.
        times, expected = expected_values(kinema, ("easing", "damped-cosine(5,30)"), 1.0)
        mapped = ["keyframes", "--easing", "damped-cosine(5,30)", "--value-scale", "300", "--value-offset", "20"]
        played = chromium_values(browser, run(kinema, *mapped, "--format", "css"), times, workdir, "mapped")
        for cls, values in sorted(played.items()):
            kind = "linear()" if cls.endswith("-linear") else "@keyframes"
            passed &= compare("damped cosine onto 20 + 300 x", f"Chromium ({kind})", values, times, expected, 1.0,
                              scale=300, offset=20)
        for name, values in thorvg_values(run(kinema, *mapped, "--format", "lottie"), times, 60).items():
            passed &= compare("damped cosine onto 20 + 300 x", "ThorVG (Lottie position)", values, times, expected,
                              1.0, scale=300, offset=20)
        times, expected = expected_values(kinema, ("easing", "bounce-out"), 1.0)
        document = run(kinema, "keyframes", "--easing", "bounce-out", "--value-scale", "degrees", "--format", "lottie",
                       "--lottie-property", "rotation")
        for name, values in thorvg_values(document, times, 60, lambda m: math.degrees(math.atan2(m.e21, m.e11))).items():
            passed &= compare("bounce-out in radians as degrees", "ThorVG (Lottie rotation)", values, times, expected,
                              1.0, scale=math.degrees(1))
        # Several tracks: one document each consumer loads whole.
        scene = os.path.join(os.path.dirname(__file__), "..", "examples", "two-balls-1d.json")
        document = run(kinema, "keyframes", "--scene", scene, "--duration", "2", "--format", "lottie")
        layers = thorvg_values(document, [0.0, 1.0], 60)
        json_text = run(kinema, "keyframes", "--scene", scene, "--duration", "2", "--format", "json")
        tracks = json.loads(json_text)
        css = run(kinema, "keyframes", "--scene", scene, "--duration", "2", "--format", "css")
        played = chromium_values(browser, css, [0.0, 1.0], workdir, "two-balls")
        counts = (len(layers), len(tracks), len(played))
        if counts != (2, 2, 4):
            print(f"FAIL two-balls-1d: layers, JSON tracks, CSS animations = {counts}, expected (2, 2, 4)")
            passed = False
        else:
            print("ok   two-balls-1d: one Lottie document with 2 layers (ThorVG), one JSON array of 2 tracks, "
                  "4 CSS animations in one stylesheet (Chromium)")
    if not passed:
        sys.exit(1)


if __name__ == "__main__":
    main()

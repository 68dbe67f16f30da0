"""Piles and rains: Kinema's contacts against pymunk (Chipmunk2D), timed in one run.

Scenes (2-D unless said, g = 9.81, no friction, a box of floor and two walls 1.6 m apart, or 1 m
for the pile):
- pile: the 68 balls of docs/performance.md (radius 0.05, eight staggered rows, restitution 0.5),
  2 simulated seconds;
- rain: 200 balls of radius 0.04 dropped from a jittered grid up to 3.2 m high with velocities
  uniform in [−1, 1]², restitution 0.5, 3 s;
- elastic rain: the same balls with restitution 1 and rest velocity 0, 1 s: `exact` (the event
  queue) against RK4 at 1 ms;
- 3-D elastic rain: 1,000 balls in a 1.6 m box (floor and four walls), 10 s, `exact` alone;
- 3-D rain: the same 1,000 balls with restitution 0.5, 3 s, `moreau-jean` alone.

Kinema runs the release `kinema simulate --scene` (process start, reading the file and writing
60 Hz samples included), each method once, stopped after --limit seconds; a run that fails says
why. pymunk (PyPI `pymunk`) steps the same balls at 1/240 s with 10 iterations, from Python.
Each result also gives the worst overlap of any two balls or a ball and a wall over the 60 Hz
samples, and the fastest ball at the end.

Usage: contacts.py KINEMA_BINARY [--limit SECONDS]   (prints Markdown tables)
"""
import argparse
import csv
import json
import math
import os
import random
import subprocess
import tempfile
import time

import pymunk

G = 9.81


def pile():
    random.seed(5)
    bodies = []
    for row in range(8):
        for col in range(9):
            x = 0.06 + col * 0.105 + (0.05 if row % 2 else 0)
            if x <= 0.94:
                bodies.append({"name": f"b{len(bodies)}", "position": [x, 0.06 + row * 0.11], "radius": 0.05,
                               "velocity": [random.uniform(-0.3, 0.3), random.uniform(-0.3, 0.3)]})
    return box(bodies, width=1.0, restitution=0.5)


def rain(count=200, restitution=0.5, rest_velocity=None, seed=7):
    """`count` balls of radius 0.04 on a jittered grid in the 1.6 m box, up to 3.2 m high."""
    rng = random.Random(seed)
    r, side, cell = 0.04, 1.6, 0.1
    columns = int((side - 2 * r) / cell)
    bodies = []
    for i in range(count):
        row, col = divmod(i, columns)
        x = r + cell / 2 + col * cell + rng.uniform(-0.01, 0.01)
        y = 0.1 + row * (3.1 / math.ceil(count / columns)) + rng.uniform(-0.005, 0.005)
        bodies.append({"name": f"b{i}", "position": [x, y], "radius": r,
                       "velocity": [rng.uniform(-1, 1), rng.uniform(-1, 1)]})
    return box(bodies, width=side, restitution=restitution, rest_velocity=rest_velocity)


def rain3d(count=1000, seed=9, restitution=1):
    """`count` balls of radius 0.04 on a jittered 3-D grid in a 1.6 m box, up to 3.2 m high
    (elastic, rest velocity 0, unless `restitution` says otherwise)."""
    rng = random.Random(seed)
    r, side, cell = 0.04, 1.6, 0.12
    per_row = int((side - 2 * r) / cell)
    bodies = []
    for i in range(count):
        layer, rest = divmod(i, per_row * per_row)
        row, col = divmod(rest, per_row)
        position = [r + cell / 2 + col * cell + rng.uniform(-0.01, 0.01),
                    r + cell / 2 + row * cell + rng.uniform(-0.01, 0.01), 0.1 + layer * cell]
        bodies.append({"name": f"b{i}", "position": position, "radius": r,
                       "velocity": [rng.uniform(-1, 1) for _ in range(3)]})
    e = restitution
    planes = [{"name": "floor", "normal": [0, 0, 1], "offset": 0, "restitution": e}]
    for axis in range(2):
        low, high = [0, 0, 0], [0, 0, 0]
        low[axis], high[axis] = 1, -1
        planes += [{"name": f"low{axis}", "normal": low, "offset": 0, "restitution": e},
                   {"name": f"high{axis}", "normal": high, "offset": -side, "restitution": e}]
    scene = {"dimensions": 3, "gravity": [0, 0, -G], "bodies": bodies, "planes": planes,
             "contacts": {"restitution": e}}
    if e == 1:
        scene["restVelocity"] = 0
    return scene


def box(bodies, width, restitution, rest_velocity=None):
    planes = [{"name": n, "normal": v, "offset": o, "restitution": restitution}
              for n, v, o in [("floor", [0, 1], 0), ("left", [1, 0], 0), ("right", [-1, 0], -width)]]
    scene = {"dimensions": 2, "gravity": [0, -G], "bodies": bodies, "planes": planes,
             "contacts": {"restitution": restitution}}
    if rest_velocity is not None:
        scene["restVelocity"] = rest_velocity
    return scene


def worst_overlap(scene, rows):
    """The deepest a ball is inside a plane or another ball over `rows` (positions per sample)."""
    worst = 0.0
    radii = [b["radius"] for b in scene["bodies"]]
    d = scene["dimensions"]
    for positions in rows:
        points = [positions[i * d:(i + 1) * d] for i in range(len(radii))]
        for p, r in zip(points, radii):
            for plane in scene["planes"]:
                gap = sum(a * b for a, b in zip(p, plane["normal"])) - plane["offset"] - r
                worst = max(worst, -gap)
        # Pairs on a grid of cells two radii wide: only neighbours can overlap.
        cell = 2 * max(radii)
        cells = {}
        for i, p in enumerate(points):
            cells.setdefault(tuple(int(math.floor(c / cell)) for c in p), []).append(i)
        for key, members in cells.items():
            for offset in neighbours(d):
                for j in cells.get(tuple(k + o for k, o in zip(key, offset)), []):
                    for i in members:
                        if i < j:
                            gap = math.dist(points[i], points[j]) - radii[i] - radii[j]
                            worst = max(worst, -gap)
    return worst


def neighbours(d):
    if d == 1:
        return [(o,) for o in (-1, 0, 1)]
    return [(o,) + rest for o in (-1, 0, 1) for rest in neighbours(d - 1)]


def run_kinema(kinema, scene, duration, integrator, limit):
    """(seconds, impacts, worst overlap, fastest ball at the end) or the reason it did not finish."""
    with tempfile.TemporaryDirectory() as folder:
        path, output, events = (os.path.join(folder, name) for name in ("scene.json", "out.csv", "events.csv"))
        json.dump(scene, open(path, "w"))
        start = time.perf_counter()
        try:
            done = subprocess.run([kinema, "simulate", "--scene", path, *integrator, "--duration", str(duration),
                                   "--sample-rate", "60", "--max-steps", "100000000", "--events", events,
                                   "-o", output], capture_output=True, text=True, timeout=limit)
        except subprocess.TimeoutExpired:
            return f"no result within {limit:g} s"
        seconds = time.perf_counter() - start
        if done.returncode != 0:
            return "stopped: " + done.stderr.strip().splitlines()[-1].replace("|", "/")[:160]
        with open(output) as file:
            reader = csv.reader(file)
            header = next(reader)
            positions = [i for i, name in enumerate(header) if name.split(".")[-1] in ("x", "y", "z")]
            velocities = [i for i, name in enumerate(header) if name.split(".")[-1] in ("vx", "vy", "vz")]
            rows, last = [], None
            for row in reader:
                rows.append([float(row[i]) for i in positions])
                last = row
        d = scene["dimensions"]
        speeds = [math.hypot(*(float(last[velocities[b * d + k]]) for k in range(d)))
                  for b in range(len(scene["bodies"]))]
        impacts = sum(1 for _ in open(events)) - 1
        return seconds, impacts, worst_overlap(scene, rows), max(speeds)


def run_pymunk(scene, duration, step=1 / 240, iterations=10):
    space = pymunk.Space()
    space.gravity = (0, -G)
    space.iterations = iterations
    e = scene["contacts"]["restitution"]
    # pymunk multiplies the two shapes' elasticities: √e on each ball and on the walls gives e.
    for plane in scene["planes"]:
        (nx, ny), o = plane["normal"], plane["offset"]
        # The line n·x = o, drawn 100 m each way from its foot.
        foot, along = (nx * o, ny * o), (-ny, nx)
        wall = pymunk.Segment(space.static_body, (foot[0] - 100 * along[0], foot[1] - 100 * along[1]),
                              (foot[0] + 100 * along[0], foot[1] + 100 * along[1]), 0)
        wall.elasticity, wall.friction = math.sqrt(e), 0
        space.add(wall)
    balls = []
    for b in scene["bodies"]:
        body = pymunk.Body(1, pymunk.moment_for_circle(1, 0, b["radius"]))
        body.position, body.velocity = tuple(b["position"]), tuple(b["velocity"])
        shape = pymunk.Circle(body, b["radius"])
        shape.elasticity, shape.friction = math.sqrt(e), 0
        space.add(body, shape)
        balls.append(body)
    steps, per_sample = round(duration / step), round(1 / (60 * step))
    rows, seconds = [], 0.0
    for i in range(steps):
        start = time.perf_counter()
        space.step(step)
        seconds += time.perf_counter() - start
        if (i + 1) % per_sample == 0:
            rows.append([c for body in balls for c in body.position])
    return seconds, None, worst_overlap(scene, rows), max(body.velocity.length for body in balls)


def cells(result):
    if isinstance(result, str):
        return [result, "", "", ""]
    seconds, impacts, overlap, speed = result
    return [f"{seconds:.2f} s", "" if impacts is None else f"{impacts:,}", f"{overlap:.1e}", f"{speed:.1e}"]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("kinema")
    parser.add_argument("--limit", type=float, default=120)
    options = parser.parse_args()
    header = "| run | wall time | impacts | worst overlap (m) | fastest ball at the end (m/s) |\n|---|---|---|---|---|"
    for title, scene, duration in [("68-ball pile, 2 s", pile(), 2), ("200-ball rain, restitution 0.5, 3 s", rain(), 3)]:
        print(f"| {title} " + header[header.index("| wall"):header.index("\n")] + header[header.index("\n"):])
        for name, integrator in [("exact", ["--integrator", "exact"]),
                                 ("RK4 at 1 ms", ["--integrator", "rk4", "--dt", "0.001"]),
                                 ("semi-implicit Euler at 1 ms", ["--integrator", "semi-implicit-euler", "--dt", "0.001"]),
                                 ("dopri5 at 1e-6", ["--integrator", "dopri5", "--tolerance", "1e-6"]),
                                 ("moreau-jean at 1 ms", ["--integrator", "moreau-jean", "--dt", "0.001"]),
                                 ("moreau-jean at 1/240 s", ["--integrator", "moreau-jean", "--dt", repr(1 / 240)])]:
            result = run_kinema(options.kinema, scene, duration, integrator, options.limit)
            print(f"| Kinema, {name} | " + " | ".join(cells(result)) + " |")
        print(f"| pymunk {pymunk.version}, 1/240 s, 10 iterations | " + " | ".join(cells(run_pymunk(scene, duration)))
              + " |")
        print()
    elastic = rain(restitution=1, rest_velocity=0)
    print("| 200-ball elastic rain, 1 s " + header[header.index("| wall"):])
    for name, integrator in [("exact", ["--integrator", "exact"]),
                             ("RK4 at 1 ms", ["--integrator", "rk4", "--dt", "0.001"])]:
        result = run_kinema(options.kinema, elastic, 1, integrator, options.limit)
        print(f"| Kinema, {name} | " + " | ".join(cells(result)) + " |")
    print()
    result = run_kinema(options.kinema, rain3d(), 10, ["--integrator", "exact"], options.limit)
    print("| 1,000-ball elastic rain in 3-D, 10 s " + header[header.index("| wall"):])
    print("| Kinema, exact | " + " | ".join(cells(result)) + " |")
    if not isinstance(result, str):
        print(f"\nThe 3-D rain runs at {10 / result[0]:.1f}× real time.")
    print()
    result = run_kinema(options.kinema, rain3d(restitution=0.5), 3, ["--integrator", "moreau-jean", "--dt", "0.001"],
                        options.limit)
    print("| 1,000-ball rain in 3-D, restitution 0.5, 3 s " + header[header.index("| wall"):])
    print("| Kinema, moreau-jean at 1 ms | " + " | ".join(cells(result)) + " |")
    if not isinstance(result, str):
        print(f"\nThe inelastic 3-D rain runs at {3 / result[0]:.2g}× real time.")


if __name__ == "__main__":
    main()

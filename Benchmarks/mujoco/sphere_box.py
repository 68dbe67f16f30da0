"""1,000 elastic spheres in a closed box for 5 s: Kinema against MuJoCo, timed in one run.

The scene of SphereBoxTests and SceneScaling: spheres of radius 0.02 and mass 1 on a 10×10×10
grid in [−0.9, 0.9]³ (5 % volume fraction), velocities uniform in [−1, 1]³ from a seeded LCG,
six walls at ±1, no gravity, restitution 1 (or as given), no friction. Kinema runs the release
`kinema simulate --scene` (process start, reading the file and writing 51 samples included) with
RK4 at 2 ms, and with `exact` (impact by impact from an event queue); MuJoCo (PyPI `mujoco`) its default Euler step of 2 ms, frictionless contacts
(condim 1) of stiffness 2,500 (about its default 0.02-s time constant) and damping 0 (solref
"-2500 0"), from Python, stepping in C. Each side is run alternately, best of three. Also reported: each side's kinetic
energy at the end against the start's.

--radius R --box-size L runs a denser box: the grid in [−0.45 L, 0.45 L]³, walls at ±L/2 (radius
0.0229 in the unit cube is 5 % volume fraction, about 35,000 impacts in 5 s).

Usage: sphere_box.py KINEMA_BINARY [--bodies-per-side N] [--restitution E] [--radius R] [--box-size L]
                     [--exact-only]
Prints a Markdown table. --exact-only times Kinema's exact alone (MuJoCo and RK4 take minutes
at 22³ = 10,648 spheres).
"""
import argparse
import json
import os
import subprocess
import tempfile
import time

import mujoco
import numpy as np


def scene(per_side, restitution, radius=0.02, size=2.0):
    """The bodies and planes, as Kinema's scene file has them."""
    seed = 12345

    def random():
        nonlocal seed
        seed = (seed * 6364136223846793005 + 1442695040888963407) % 2**64
        return (seed >> 11) / float(1 << 53) * 2 - 1

    spacing = 0.9 * size / per_side
    bodies = []
    for i in range(per_side):
        for j in range(per_side):
            for k in range(per_side):
                position = [-0.45 * size + spacing * (c + 0.5) for c in (i, j, k)]
                bodies.append({"name": f"s{len(bodies)}", "position": position,
                               "velocity": [random(), random(), random()], "radius": radius})
    planes = []
    for axis in range(3):
        for sign in (1.0, -1.0):
            normal = [0.0, 0.0, 0.0]
            normal[axis] = sign
            planes.append({"name": f"wall{len(planes)}", "normal": normal, "offset": -size / 2,
                           "restitution": restitution})
    return {"dimensions": 3, "bodies": bodies, "planes": planes, "contacts": {"restitution": restitution},
            "restVelocity": 0}


def mujoco_model(data):
    walls = []
    for plane in data["planes"]:
        n = plane["normal"]
        position = " ".join(str(c * plane["offset"]) for c in n)  # the wall at n·x = offset, facing inwards
        walls.append(f'<geom type="plane" size="2 2 0.1" pos="{position}" zaxis="{" ".join(map(str, n))}"/>')
    spheres = [f'<body pos="{" ".join(map(str, b["position"]))}"><freejoint/>'
               f'<geom type="sphere" size="{b["radius"]}" mass="1"/></body>' for b in data["bodies"]]
    return f"""<mujoco>
  <option timestep="0.002" gravity="0 0 0" integrator="Euler"/>
  <default><geom condim="1" solref="-2500 0"/></default>
  <worldbody>{''.join(walls)}{''.join(spheres)}</worldbody>
</mujoco>"""


def run_mujoco(model, velocities, duration):
    data = mujoco.MjData(model)
    for i, v in enumerate(velocities):
        data.qvel[6 * i:6 * i + 3] = v
    steps = round(duration / model.opt.timestep)
    start = time.perf_counter()
    for _ in range(steps):
        mujoco.mj_step(model, data)
    seconds = time.perf_counter() - start
    linear = data.qvel.reshape(-1, 6)[:, :3]
    return seconds, 0.5 * float((linear * linear).sum())


def run_kinema(kinema, path, duration, integrator):
    with tempfile.TemporaryDirectory() as folder:
        output = os.path.join(folder, "out.csv")
        start = time.perf_counter()
        subprocess.run([kinema, "simulate", "--scene", path, *integrator, "--duration", str(duration),
                        "--sample-rate", "10", "--max-steps", "100000000", "-o", output], check=True)
        seconds = time.perf_counter() - start
        last = open(output).read().rstrip("\n").rsplit("\n", 1)[1].split(",")
    velocities = [float(x) for x, column in zip(last, header_columns(path)) if ".v" in column]
    return seconds, 0.5 * sum(v * v for v in velocities)


def header_columns(path):
    bodies = json.load(open(path))["bodies"]
    return ["t"] + [f"{b['name']}.{axis}" for b in bodies for axis in ("x", "y", "z", "vx", "vy", "vz")]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("kinema")
    parser.add_argument("--bodies-per-side", type=int, default=10)
    parser.add_argument("--restitution", type=float, default=1.0)
    parser.add_argument("--duration", type=float, default=5.0)
    parser.add_argument("--radius", type=float, default=0.02)
    parser.add_argument("--box-size", type=float, default=2.0)
    parser.add_argument("--exact-only", action="store_true")
    options = parser.parse_args()
    data = scene(options.bodies_per_side, options.restitution, options.radius, options.box_size)
    start_energy = 0.5 * sum(v * v for b in data["bodies"] for v in b["velocity"])
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "box.json")
        json.dump(data, open(path, "w"))
        if options.exact_only:
            seconds, energy = min(run_kinema(options.kinema, path, options.duration, ["--integrator", "exact"])
                                  for _ in range(3))
            n = len(data["bodies"])
            print(f"| {n:,} spheres, {options.duration:g} s, restitution {options.restitution:g} "
                  f"| wall time (best of 3) | kinetic energy at the end ÷ start − 1 |")
            print("|---|---|---|")
            print(f"| Kinema, exact (event queue), `kinema simulate` | {seconds:.2f} s | {energy / start_energy - 1:.1e} |")
            return
        model = mujoco.MjModel.from_xml_string(mujoco_model(data))
        velocities = [b["velocity"] for b in data["bodies"]]
        kinema_runs, exact_runs, mujoco_runs = [], [], []
        for _ in range(3):
            kinema_runs.append(run_kinema(options.kinema, path, options.duration, ["--integrator", "rk4", "--dt", "0.002"]))
            exact_runs.append(run_kinema(options.kinema, path, options.duration, ["--integrator", "exact"]))
            mujoco_runs.append(run_mujoco(model, velocities, options.duration))
    n = len(data["bodies"])
    fraction = n * 4 / 3 * 3.141592653589793 * options.radius ** 3 / options.box_size ** 3
    kinema_best, exact_best, mujoco_best = min(kinema_runs), min(exact_runs), min(mujoco_runs)
    print(f"| {n:,} spheres ({fraction:.1%} of the box), {options.duration:g} s, restitution {options.restitution:g} "
          f"| wall time (best of 3) "
          f"| kinetic energy at the end ÷ start − 1 |")
    print("|---|---|---|")
    print(f"| Kinema, RK4 at 2 ms, `kinema simulate` | {kinema_best[0]:.2f} s | {kinema_best[1] / start_energy - 1:.1e} |")
    print(f"| Kinema, exact (event queue), `kinema simulate` | {exact_best[0]:.2f} s | {exact_best[1] / start_energy - 1:.1e} |")
    print(f"| MuJoCo {mujoco.__version__}, Euler at 2 ms | {mujoco_best[0]:.2f} s | {mujoco_best[1] / start_energy - 1:.1e} |")
    print(f"| MuJoCo ÷ Kinema RK4, ÷ Kinema exact | **{mujoco_best[0] / kinema_best[0]:.2f}×**, "
          f"**{mujoco_best[0] / exact_best[0]:.1f}×** | |")


if __name__ == "__main__":
    main()

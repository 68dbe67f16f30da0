"""The sweep of issue 6 as a scipy user would write it: a solve_ivp loop.

Two-second springs from 0 to 1 at rest, stiffness × damping ratio log-spaced as
`kinema sweep --stiffness 100:1000:xN --damping-ratio 0.1:1.0:xM`, sampled at 60 Hz, with the
sweep's metrics that need no keyframes (settling time, overshoot, extrema, final error, max
error against the closed form). scipy has no fixed-step RK4, so RK45 runs at rtol 1e-7,
atol 1e-9: at most 1.1e-7 off the closed form on this grid, no worse than Kinema's RK4 at
h = 1/600 (up to 2.4e-7), so the comparison does not favour Kinema by accuracy.

Then times `kinema sweep` on the same grid (1 and 2 threads, all its metrics, keyframes included)
and prints the ratios. Usage: python sweep_scipy.py KINEMA_BINARY [N M]
"""
import math
import subprocess
import sys
import time

import numpy as np
from scipy.integrate import solve_ivp


def log_spaced(a, b, n):
    # kinema's A:B:xN: a·(b/a)^(k/(n−1)), the last value exactly b.
    return [b if k == n - 1 else a * (b / a) ** (k / (n - 1)) for k in range(n)]


def exact(t, k, zeta):
    """x(t) for x'' = −k(x − 1) − c x', x(0) = 0, x'(0) = 0, unit mass."""
    w0 = math.sqrt(k)
    if zeta < 1:
        wd = w0 * math.sqrt(1 - zeta * zeta)
        return 1 - np.exp(-zeta * w0 * t) * (np.cos(wd * t) + zeta * w0 / wd * np.sin(wd * t))
    if zeta == 1:
        return 1 - np.exp(-w0 * t) * (1 + w0 * t)
    s = math.sqrt(zeta * zeta - 1)
    r1, r2 = -w0 * (zeta - s), -w0 * (zeta + s)
    return 1 + (r2 * np.exp(r1 * t) - r1 * np.exp(r2 * t)) / (r1 - r2)


def row(k, zeta, times):
    c = 2 * zeta * math.sqrt(k)
    solution = solve_ivp(lambda t, y: [y[1], -k * (y[0] - 1) - c * y[1]], (0, 2), [0.0, 0.0],
                         method="RK45", t_eval=times, rtol=1e-7, atol=1e-9)
    x = solution.y[0]
    outside = np.nonzero(np.abs(x - 1) > 0.001)[0]
    settling = times[min(outside[-1] + 1, len(times) - 1)] if len(outside) else 0.0
    overshoot = max(0.0, float(np.max(x - 1)))
    d = np.diff(x)
    extrema = int(np.sum(d[:-1] * d[1:] < 0))
    return settling, overshoot, extrema, abs(x[-1] - 1), float(np.max(np.abs(x - exact(times, k, zeta)))), solution.nfev


def main():
    kinema = sys.argv[1]
    n, m = (int(sys.argv[2]), int(sys.argv[3])) if len(sys.argv) > 3 else (50, 40)
    times = np.linspace(0, 2, 121)
    grid = [(k, z) for k in log_spaced(100, 1000, n) for z in log_spaced(0.1, 1.0, m)]
    start = time.perf_counter()
    worst = max(row(k, z, times)[4] for k, z in grid)
    scipy_seconds = time.perf_counter() - start
    print(f"scipy solve_ivp loop: {len(grid)} springs in {scipy_seconds:.2f} s = {len(grid) / scipy_seconds:.0f} per second "
          f"(max error against the closed form {worst:.1e})")
    for threads in (1, 2):
        command = [kinema, "sweep", "--spring", "--stiffness", f"100:1000:x{n}", "--damping-ratio", f"0.1:1.0:x{m}",
                   "--duration", "2", "--integrator", "rk4", "--dt", str(1 / 600), "--threads", str(threads)]
        best = math.inf
        for _ in range(3):
            start = time.perf_counter()
            out = subprocess.run(command, check=True, capture_output=True, text=True).stdout
            best = min(best, time.perf_counter() - start)
        rows = out.count("\n") - 1
        worst_kinema = max(float(line.split(",")[6]) for line in out.splitlines()[1:])
        print(f"kinema sweep, {threads} thread(s): {rows} springs in {best:.2f} s = {rows / best:.0f} per second, "
              f"{scipy_seconds / best:.0f}× the scipy loop (max error {worst_kinema:.1e}; keyframes included)")


if __name__ == "__main__":
    main()

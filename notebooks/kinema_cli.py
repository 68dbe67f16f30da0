"""Runs the `kinema` command line for the notebooks and reads what it prints.

Every number a notebook plots comes from the CLI (or, where a notebook draws a closed form for
comparison, from a formula written out in the notebook itself). `KINEMA` names the binary
(default: the release build, else the debug build); `KINEMA_SMALL=1` asks the notebooks for small
inputs (CI); `KINEMA_FIGURES` is where figures go (default: ../docs/figures).
"""
import io
import json
import os
import pathlib
import subprocess

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parent.parent
SMALL = os.environ.get("KINEMA_SMALL", "") not in ("", "0")
FIGURES = pathlib.Path(os.environ.get("KINEMA_FIGURES", ROOT / "docs" / "figures"))


def binary():
    named = os.environ.get("KINEMA")
    if named:
        return named
    for build in ("release", "debug"):
        candidate = ROOT / ".build" / build / "kinema"
        if candidate.exists():
            return str(candidate)
    raise FileNotFoundError("no kinema binary: run `swift build -c release --product kinema` or set KINEMA")


def run(*arguments):
    """The CLI's stdout as text; a non-zero exit raises with the CLI's own error line."""
    completed = subprocess.run([binary(), *map(str, arguments)], capture_output=True, text=True)
    if completed.returncode != 0:
        raise RuntimeError(f"kinema {' '.join(map(str, arguments))}: {completed.stderr.strip()}")
    return completed.stdout


def csv(*arguments):
    """The CLI's CSV as a DataFrame, read with no options."""
    return pd.read_csv(io.StringIO(run(*arguments)))


def json_output(*arguments):
    return json.loads(run(*arguments))


def save(figure, name):
    FIGURES.mkdir(parents=True, exist_ok=True)
    path = FIGURES / f"{name}.png"
    figure.savefig(path, dpi=110, bbox_inches="tight")
    plt.close(figure)
    return path


def cubic_bezier(x1, y1, x2, y2, x):
    """A CSS cubic-bezier timing function at progress x, by bisection on the x polynomial."""
    import numpy as np

    def coordinate(p1, p2, s):
        return 3 * (1 - s) ** 2 * s * p1 + 3 * (1 - s) * s**2 * p2 + s**3

    x = np.asarray(x, dtype=float)
    low, high = np.zeros_like(x), np.ones_like(x)
    for _ in range(60):
        middle = (low + high) / 2
        below = coordinate(x1, x2, middle) < x
        low, high = np.where(below, middle, low), np.where(below, high, middle)
    return coordinate(y1, y2, (low + high) / 2)


def evaluate_keyframes(animation, t):
    """A baked animation (kinema keyframes --format json, scalar values) at times t in seconds."""
    import numpy as np

    values = np.asarray(animation["values"], dtype=float)
    key_times = np.asarray(animation["keyTimes"], dtype=float)
    progress = np.clip(np.asarray(t, dtype=float) / animation["duration"], 0, 1)
    segment = np.clip(np.searchsorted(key_times, progress, side="right") - 1, 0, len(values) - 2)
    start, end = key_times[segment], key_times[segment + 1]
    local = np.where(end > start, (progress - start) / np.where(end > start, end - start, 1), 1)
    eased = np.empty_like(local)
    for index, (x1, y1, x2, y2) in enumerate(animation["timingFunctions"]):
        mask = segment == index
        if mask.any():
            eased[mask] = cubic_bezier(x1, y1, x2, y2, local[mask])
    return values[segment] + (values[segment + 1] - values[segment]) * eased

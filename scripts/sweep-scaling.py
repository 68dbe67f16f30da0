#!/usr/bin/env python3
"""Threads against shard processes: how well `kinema sweep --threads N` uses N cores.

For each workload (springs with three metrics, springs with every metric, a 3-body scene file)
and each binary given, times one thread, N threads, and N shard processes started together
(`--shard i/N --threads 1`, each into its own file), best of --runs, and checks that the
shards' rows, merged, are byte-identical to the threaded run's.

    python3 scripts/sweep-scaling.py --threads 16 .build/release/kinema [ANOTHER_KINEMA …]

--size scales the rows (1 = 10⁶, 2·10⁵ and 4·10⁴ rows; 0.1 for a 2-core machine).
"""

import argparse
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GRID = ["--duration", "2", "--integrator", "rk4", "--dt", repr(1 / 600)]


def workloads(size):
    def n(count):
        return max(2, round(count * size ** 0.5))

    scene = os.path.join(ROOT, "examples", "three-masses-1d.json")
    return [
        ("springs, 3 metrics", ["--spring", "--stiffness", f"100:1000:x{n(1000)}", "--damping-ratio",
                                f"0.1:1.0:x{n(1000)}"] + GRID + ["--metrics", "settling_time,overshoot,final_error"]),
        ("springs, every metric", ["--spring", "--stiffness", f"100:1000:x{n(500)}", "--damping-ratio",
                                   f"0.1:1.0:x{n(400)}"] + GRID),
        ("3-body scene", ["--scene", scene, "--set", f"springs.0.stiffness=10:100:x{n(20)}", "--set",
                          f"bodies.c.velocity.0=0.5:2:x{n(20)}", "--set", f"planes.wall.restitution=0.01:1:x{n(100)}",
                          "--duration", "2", "--integrator", "rk4", "--dt", "0.005"]),
    ]


def timed(commands):
    """Starts every command at once; the seconds until the last one ends."""
    start = time.perf_counter()
    processes = [subprocess.Popen(c, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE) for c in commands]
    for p, c in zip(processes, commands):
        if p.wait() != 0:
            sys.exit(f"failed ({p.returncode}): {' '.join(c)}\n{p.stderr.read().decode()}")
    return time.perf_counter() - start


def rows_of(path):
    with open(path, "rb") as f:
        return f.read().split(b"\n", 1)[1]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("binaries", nargs="+")
    parser.add_argument("--threads", type=int, default=os.cpu_count())
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--size", type=float, default=1.0)
    args = parser.parse_args()
    n = args.threads
    table = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, flags in workloads(args.size):
            for binary in args.binaries:
                sweep = [binary, "sweep", "--yes"] + flags
                one = timed([sweep + ["--threads", "1", "-o", os.devnull]])
                threaded_file = os.path.join(tmp, "threads.csv")
                threads = min(timed([sweep + ["--threads", str(n), "-o", threaded_file]]) for _ in range(args.runs))
                shard_files = [os.path.join(tmp, f"shard{i}.csv") for i in range(1, n + 1)]
                shards = min(
                    timed([sweep + ["--shard", f"{i}/{n}", "--threads", "1", "-o", f] for i, f in enumerate(shard_files, 1)])
                    for _ in range(args.runs))
                identical = b"".join(rows_of(f) for f in shard_files) == rows_of(threaded_file)
                rows = rows_of(threaded_file).count(b"\n")
                table.append((name, os.path.basename(binary), rows, one, threads, shards, identical))
                print(f"{name} | {binary}: {rows} rows, 1 thread {one:.2f} s, {n} threads {threads:.2f} s, "
                      f"{n} shards {shards:.2f} s", flush=True)
    print(f"\n| workload | binary | rows | 1 thread (rows/s) | {n} threads | {n} shard processes | "
          f"threads / shards | shards' rows identical |")
    print("|---|---|---|---|---|---|---|---|")
    for name, binary, rows, one, threads, shards, identical in table:
        print(f"| {name} | {binary} | {rows:,} | {rows / one:,.0f} | {rows / threads:,.0f} ({one / threads:.1f}×) | "
              f"{rows / shards:,.0f} ({one / shards:.1f}×) | **{shards / threads:.2f}** | {'yes' if identical else 'NO'} |")


if __name__ == "__main__":
    main()

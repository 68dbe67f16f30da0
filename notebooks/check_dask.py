"""The Dask check of `make test`: two sweeps, each run as shards on a LocalCluster of 2 worker
processes, merged, and required to be byte for byte the single-process `kinema sweep`: 10,000
springs in 8 shards, and 1,000 rows of a 3-body scene file (examples/three-masses-1d.json, three
`--set` axes) in 8 shards. With --full, the scene grid has 10⁶ rows, in 64 shards.

Usage: check_dask.py KINEMA_BINARY [--full]
"""
import hashlib
import pathlib
import subprocess
import sys
import time

from dask.distributed import Client, LocalCluster

from kinema_dask import sweep

SCENE = str(pathlib.Path(__file__).resolve().parent.parent / "examples" / "three-masses-1d.json")
SPRINGS = ["--spring", "--stiffness", "100:1000:x100", "--damping-ratio", "0.1:1.0:x100", "--duration", "1"]


def scene_grid(values):
    """The 3-body scene with `values` values on each of its three axes."""
    return ["--scene", SCENE, "--set", f"springs.0.stiffness=10:100:x{values}",
            "--set", f"bodies.c.velocity.0=0.5:2:x{values}",
            "--set", f"planes.wall.restitution={1 / values}:1:{1 / values}",
            "--duration", "2", "--integrator", "rk4", "--dt", "0.005"]


def check(client, kinema, name, arguments, rows, shards):
    start = time.monotonic()
    single = subprocess.run([kinema, "sweep", *arguments, "--yes"], capture_output=True, check=True).stdout
    single_seconds = time.monotonic() - start
    start = time.monotonic()
    merged = sweep(client, kinema, arguments, shards=shards)
    dask_seconds = time.monotonic() - start
    count = single.count(b"\n") - 1
    if count != rows:
        sys.exit(f"check_dask: the single-process sweep of the {name} has {count} rows, not {rows:,}")
    if merged != single:
        merged_rows = merged.count(b"\n") - 1
        sys.exit(f"check_dask: the merged Dask sweep of the {name} ({merged_rows} rows, sha256 "
                 f"{hashlib.sha256(merged).hexdigest()[:12]}) differs from the single-process one "
                 f"(sha256 {hashlib.sha256(single).hexdigest()[:12]})")
    print(f"ok   Dask: the {name}, {rows:,} rows in {shards} shards on 2 workers, byte-identical to one kinema "
          f"sweep (sha256 {hashlib.sha256(single).hexdigest()[:12]}; {dask_seconds:.1f} s, single process "
          f"{single_seconds:.1f} s)")


def main():
    kinema = sys.argv[1]
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
            Client(cluster) as client:
        if "--full" in sys.argv:
            check(client, kinema, "3-body scene", scene_grid(100), 1_000_000, 64)
        else:
            check(client, kinema, "spring grid", SPRINGS, 10_000, 8)
            check(client, kinema, "3-body scene", scene_grid(10), 1_000, 8)


if __name__ == "__main__":
    main()

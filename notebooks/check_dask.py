"""The Dask check of `make test`: 10,000 sweep rows in 8 shards on a LocalCluster of 2 worker
processes, merged, must be byte for byte the single-process `kinema sweep`.

Usage: check_dask.py KINEMA_BINARY
"""
import hashlib
import subprocess
import sys
import time

from dask.distributed import Client, LocalCluster

from kinema_dask import sweep

ARGUMENTS = ["--spring", "--stiffness", "100:1000:x100", "--damping-ratio", "0.1:1.0:x100", "--duration", "1"]


def main():
    kinema = sys.argv[1]
    start = time.monotonic()
    single = subprocess.run([kinema, "sweep", *ARGUMENTS], capture_output=True, check=True).stdout
    single_seconds = time.monotonic() - start
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
            Client(cluster) as client:
        start = time.monotonic()
        merged = sweep(client, kinema, ARGUMENTS, shards=8)
        dask_seconds = time.monotonic() - start
    rows = single.count(b"\n") - 1
    if rows != 10_000:
        sys.exit(f"check_dask: the single-process sweep has {rows} rows, not 10,000")
    if merged != single:
        merged_rows = merged.count(b"\n") - 1
        sys.exit(f"check_dask: the merged Dask sweep ({merged_rows} rows, sha256 "
                 f"{hashlib.sha256(merged).hexdigest()[:12]}) differs from the single-process one "
                 f"(sha256 {hashlib.sha256(single).hexdigest()[:12]})")
    print(f"ok   Dask: 10,000 rows in 8 shards on 2 workers, byte-identical to one kinema sweep "
          f"(sha256 {hashlib.sha256(single).hexdigest()[:12]}; {dask_seconds:.1f} s, single process {single_seconds:.1f} s)")


if __name__ == "__main__":
    main()

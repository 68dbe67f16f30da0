"""A kinema sweep on Dask distributed: one task per shard (`kinema sweep … --shard I/N`), merged
in shard order (the first shard's header, then every shard's rows), byte for byte the CSV one
`kinema sweep` writes.

Library:
    from dask.distributed import Client
    from kinema_dask import sweep
    csv_bytes = sweep(Client("tcp://scheduler:8786"), "kinema", ["--spring", "--stiffness", "100:1000:x200",
                      "--damping-ratio", "0.05:1.5:x200", "--duration", "2"], shards=64)

Command line:
    python kinema_dask.py --scheduler tcp://scheduler:8786 --shards 64 -o sweep.csv -- \
        --spring --stiffness 100:1000:x200 --damping-ratio 0.05:1.5:x200 --duration 2
    (without --scheduler: a LocalCluster on this machine, one single-thread worker per core)

Every worker runs the `kinema` executable given (a name on its PATH or an absolute path that
exists on every worker). A shard that fails raises with its command and kinema's error line.
"""
import argparse
import os
import subprocess
import sys


def run_shard(kinema, arguments, index, count):
    """Shard `index` of `count` (1-based) as CSV bytes, header included."""
    command = [kinema, "sweep", *arguments, "--shard", f"{index}/{count}", "--threads", "1"]
    result = subprocess.run(command, capture_output=True)
    if result.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} exited {result.returncode}: {result.stderr.decode().strip()}")
    return result.stdout


def merge(parts):
    """The first part's header, then each part's rows, in order."""
    if not parts:
        return b""
    header, _, _ = parts[0].partition(b"\n")
    return header + b"\n" + b"".join(part.partition(b"\n")[2] for part in parts)


def sweep(client, kinema, arguments, shards):
    """Runs the sweep's `shards` shards as tasks on `client` and returns the merged CSV."""
    if shards < 1:
        raise ValueError(f"shards must be at least 1 (got {shards})")
    futures = [client.submit(run_shard, kinema, list(arguments), i, shards, pure=False) for i in range(1, shards + 1)]
    return merge(client.gather(futures))


def main():
    parser = argparse.ArgumentParser(description="Run a kinema sweep's shards on Dask distributed.")
    parser.add_argument("--scheduler", help="a Dask scheduler address (default: a LocalCluster here)")
    parser.add_argument("--shards", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--kinema", default="kinema", help="the kinema executable on every worker")
    parser.add_argument("-o", "--output", help="the merged CSV (default: stdout)")
    parser.add_argument("arguments", nargs=argparse.REMAINDER, help="-- then kinema sweep's flags")
    options = parser.parse_args()
    arguments = options.arguments[1:] if options.arguments[:1] == ["--"] else options.arguments
    from dask.distributed import Client, LocalCluster
    if options.scheduler:
        client = Client(options.scheduler)
    else:
        client = Client(LocalCluster(n_workers=os.cpu_count() or 1, threads_per_worker=1, processes=True))
    with client:
        data = sweep(client, options.kinema, arguments, options.shards)
    if options.output:
        temporary = options.output + ".partial"
        with open(temporary, "wb") as f:
            f.write(data)
        os.replace(temporary, options.output)
    else:
        sys.stdout.buffer.write(data)


if __name__ == "__main__":
    main()

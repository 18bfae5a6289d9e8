"""robots-automaton fetch split across Dask workers (scripts/test-distributed.mjs runs this).

    python3 dask_fetch.py SCHEDULER INPUT OUTPUT CLI [PARTITIONS] [FETCH_OPTION...]

Connects to the Dask scheduler at SCHEDULER, cuts the URL list INPUT into
PARTITIONS partitions by origin (every line of one scheme://host:port goes to
the same partition, so each origin is fetched once, by one worker), and runs
`node CLI fetch FETCH_OPTION... -o <the worker's local directory>/part.bundle`
on each partition on a worker (a dask.bag map); the partitions' bundles come
back to the client, which merges them with one `node CLI pack ... -o OUTPUT`.
Prints the workers that ran partitions, and the partitions, as JSON.
"""
import json
import os
import subprocess
import sys
import tempfile
import zlib
from urllib.parse import urlsplit

import dask.bag as db
from distributed import Client, get_worker


def origin_of(line):
    """The line's scheme://host:port, lowercased ('' for a line without one: those go to the first partition)."""
    try:
        parts = urlsplit(line.decode("latin-1").strip())
        return f"{parts.scheme.lower()}://{(parts.netloc.rpartition('@')[2]).lower()}"
    except ValueError:
        return ""


def partitions(data, count):
    """The lines of `data` in `count` partitions by a stable hash of their origin (empty partitions dropped)."""
    out = [[] for _ in range(count)]
    for line in data.splitlines(keepends=True):
        out[zlib.crc32(origin_of(line).encode()) % count].append(line)
    return [b"".join(p) for p in out if p]


def make_fetch(cli, options):
    def run_fetch(piece):
        """One partition's origins fetched on the worker that holds it; its bundle's bytes back to the client."""
        worker = get_worker()
        target = os.path.join(worker.local_directory, f"part-{os.getpid()}-{zlib.crc32(piece)}.bundle")
        done = subprocess.run(
            ["node", cli, "fetch", *options, "-q", "-o", target, "-"],
            input=piece,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            check=False,
        )
        if done.returncode != 0:
            raise RuntimeError(f"fetch failed ({done.returncode}): {done.stderr.decode(errors='replace')}")
        with open(target, "rb") as f:
            bundle = f.read()
        os.remove(target)
        return (worker.address, bundle)

    return run_fetch


def main():
    scheduler, source, target, cli = sys.argv[1:5]
    count = int(sys.argv[5]) if len(sys.argv) > 5 else 8
    options = sys.argv[6:]
    with open(source, "rb") as f:
        data = f.read()
    with Client(scheduler, timeout=60) as client:
        client.wait_for_workers(2, timeout=60)
        pieces = partitions(data, count)
        results = db.from_sequence(pieces, npartitions=len(pieces)).map(make_fetch(cli, options)).compute()
    with tempfile.TemporaryDirectory() as work:
        parts = []
        for i, (_, bundle) in enumerate(results):
            path = os.path.join(work, f"part-{i}.bundle")
            with open(path, "wb") as f:
                f.write(bundle)
            parts.append(path)
        subprocess.run(["node", cli, "pack", *parts, "-o", target, "-q"], check=True)
    print(json.dumps({"ran_on": sorted({address for address, _ in results}), "partitions": len(results)}))


if __name__ == "__main__":
    main()

"""robots-automaton as a stage of Dask distributed (scripts/test-distributed.mjs runs this).

    python3 dask_filter.py SCHEDULER BUNDLE INPUT OUTPUT CLI [PARTITIONS]

Connects to the Dask scheduler at SCHEDULER, ships the bundle BUNDLE to every
worker (each writes it into its own local directory), cuts INPUT into
PARTITIONS pieces at line boundaries, and pipes each piece through
`node CLI filter --bundle <the worker's copy> --agent Googlebot --print verdicts --jobs 1`
on a worker (a dask.bag map). The pieces' outputs, concatenated in order, go
to OUTPUT; the workers that ran pieces are printed on stdout as JSON.

A piece in which no line holds a URL (blank lines, a log's "-" requests)
exits 4 where the whole input would not: that is no failure of the piece.
The run exits 4, as one process would, only when every piece did.
"""
import json
import os
import subprocess
import sys

import dask.bag as db
from distributed import Client, get_worker

# filter's exit status when no line of its input held a URL.
EXIT_NO_URL = 4


def ship_bundle(data):
    """Runs on every worker (client.run): writes the bundle's bytes into the worker's local directory."""
    worker = get_worker()
    path = os.path.join(worker.local_directory, "robots.bundle")
    with open(path + ".tmp", "wb") as f:
        f.write(data)
    os.replace(path + ".tmp", path)
    return path


def make_filter(cli):
    def run_filter(piece):
        """One partition through the CLI on the worker that holds it: bytes in, bytes out, order kept."""
        worker = get_worker()
        bundle = os.path.join(worker.local_directory, "robots.bundle")
        done = subprocess.run(
            ["node", cli, "filter", "--bundle", bundle, "--agent", "Googlebot", "--print", "verdicts", "--jobs", "1", "-q"],
            input=piece,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            check=False,
        )
        if done.returncode not in (0, EXIT_NO_URL):
            raise RuntimeError(f"filter failed ({done.returncode}): {done.stderr.decode(errors='replace')}")
        return (worker.address, done.returncode, done.stdout, done.stderr)

    return run_filter


# Bytes a piece must not start with: filter reads them at an input's start as a UTF-8 BOM (skipped) or
# gzip (1f 8b), and in the middle of an input as a line's bytes.
INPUT_MARKS = (b"\xef\xbb\xbf", b"\x1f\x8b")


def pieces(data, count):
    """`data` cut into about `count` pieces, each ending at a line boundary (the last may lack its LF) and none starting with an input mark."""
    out = []
    start = 0
    size = max(1, len(data) // count)
    while start < len(data):
        end = min(len(data), start + size)
        while end < len(data):
            lf = data.find(b"\n", end)
            end = len(data) if lf < 0 else lf + 1
            if not data.startswith(INPUT_MARKS, end):
                break
        out.append(data[start:end])
        start = end
    return out


def main():
    scheduler, bundle, source, target, cli = sys.argv[1:6]
    count = int(sys.argv[6]) if len(sys.argv) > 6 else 8
    with Client(scheduler, timeout=60) as client:
        client.wait_for_workers(2, timeout=60)
        with open(bundle, "rb") as f:
            shipped = client.run(ship_bundle, f.read())
        with open(source, "rb") as f:
            data = f.read()
        bag = db.from_sequence(pieces(data, count), npartitions=count)
        results = bag.map(make_filter(cli)).compute()
    with open(target, "wb") as f:
        for _, _, out, _ in results:
            f.write(out)
    if results and all(status == EXIT_NO_URL for _, status, _, _ in results):
        sys.stderr.write(results[0][3].decode(errors="replace"))
        sys.exit(EXIT_NO_URL)
    print(json.dumps({"workers": sorted(shipped), "ran_on": sorted({address for address, _, _, _ in results}), "pieces": len(results)}))


if __name__ == "__main__":
    main()

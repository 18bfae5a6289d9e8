"""robots-automaton fetch split across Dask workers (scripts/test-distributed.mjs runs this).

    python3 dask_fetch.py SCHEDULER INPUT OUTPUT CLI [PARTITIONS] [FETCH_OPTION...]

Connects to the Dask scheduler at SCHEDULER, cuts the URL list INPUT into
PARTITIONS partitions by host (every line of one host, however spelt, goes to
the same partition, so each origin is fetched once, by one worker), and runs
`node CLI fetch FETCH_OPTION... -o <the worker's local directory>/part.bundle`
on each partition on a worker (a dask.bag map); the partitions' bundles come
back to the client, which merges them with one `node CLI pack ... -o OUTPUT`.
Prints the workers that ran partitions, and the partitions, as JSON.

A partition in which no line holds a URL (blank lines, lines without an
origin) exits 4 and writes no bundle: that is no failure of the partition.
The run exits 4, as one `fetch` would, only when every partition did.
"""
import json
import os
import subprocess
import sys
import tempfile
import zlib

import dask.bag as db
from distributed import Client, get_worker

# fetch's exit status when no line of its input held a URL with a host.
EXIT_NO_URL = 4


# Each line's host as the WHATWG URL parser writes it (what fetch keys origins by), '' for a line without
# one: one node process for the whole input, so that spellings of one host (case, a default port, IDN,
# percent-escapes, numeric IPv4 forms) go to one partition.
HOSTS_JS = r"""
const text = require('fs').readFileSync(0, 'latin1')
const out = []
for (const line of text.split('\n')) {
  let host = ''
  try { host = new URL(Buffer.from(line, 'latin1').toString('utf8').trim()).hostname } catch {}
  out.push(host)
}
process.stdout.write(out.join('\n'))
"""


def lines_of(data):
    """The lines of `data`, each with its LF (a CR alone ends no line, as fetch reads them)."""
    out = data.split(b"\n")
    last = out.pop()
    out = [line + b"\n" for line in out]
    if last:
        out.append(last)
    return out


def partitions(data, count):
    """The lines of `data` in `count` partitions by a stable hash of their host (empty partitions dropped)."""
    lines = lines_of(data)
    hosts = subprocess.run(["node", "-e", HOSTS_JS], input=b"".join(lines), stdout=subprocess.PIPE, check=True).stdout.split(b"\n")
    out = [[] for _ in range(count)]
    for line, host in zip(lines, hosts):
        out[zlib.crc32(host) % count].append(line)
    # A line that starts with a UTF-8 BOM or gzip's 1f 8b is a line in the middle of the input, but
    # fetch reads those bytes at an input's start as its marks: such a partition starts with a blank line.
    return [(b"\n" if p[0].startswith((b"\xef\xbb\xbf", b"\x1f\x8b")) else b"") + b"".join(p) for p in out if p]


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
        if done.returncode == EXIT_NO_URL:
            return (worker.address, None, done.stderr)
        if done.returncode != 0:
            raise RuntimeError(f"fetch failed ({done.returncode}): {done.stderr.decode(errors='replace')}")
        with open(target, "rb") as f:
            bundle = f.read()
        os.remove(target)
        return (worker.address, bundle, b"")

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
    if all(bundle is None for _, bundle, _ in results):
        sys.stderr.write(results[0][2].decode(errors="replace") if results else "no line of the input held a URL\n")
        sys.exit(EXIT_NO_URL)
    with tempfile.TemporaryDirectory() as work:
        parts = []
        for i, (_, bundle, _) in enumerate(results):
            if bundle is None:
                continue
            path = os.path.join(work, f"part-{i}.bundle")
            with open(path, "wb") as f:
                f.write(bundle)
            parts.append(path)
        subprocess.run(["node", cli, "pack", *parts, "-o", target, "-q"], check=True)
    print(json.dumps({"ran_on": sorted({address for address, _, _ in results}), "partitions": len(results)}))


if __name__ == "__main__":
    main()

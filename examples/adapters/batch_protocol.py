"""The batch protocol of `robots-automaton compare --batch`, for the Python
adapters of this folder: one JSON request per line on stdin,
  {"id": 7, "robots_path": "/tmp/…/x.txt" | "robots": "…" | "robots_base64": "…",
   "agent": "Googlebot", "url": "https://a.com/x"}
and one JSON answer per line on stdout:
  {"id": 7, "allowed": false, "line": 3}      or      {"id": 7, "error": "why"}
Every answer is flushed at once: the harness keeps a window of requests in
flight and waits for answers. docs/compare-reference.md has the whole protocol.
"""
import base64
import json
import sys
from collections import OrderedDict

KEPT = 1000


def body_bytes(req):
    """The request's robots.txt bytes: inline text (UTF-8), base64, or its file."""
    if isinstance(req.get("robots"), str):
        return req["robots"].encode("utf-8", "surrogatepass")
    if isinstance(req.get("robots_base64"), str):
        return base64.b64decode(req["robots_base64"])
    with open(req["robots_path"], "rb") as f:
        return f.read()


def kept_parser(cache, req, make):
    """make(body_bytes(req)), kept in the OrderedDict `cache` by robots_path (the KEPT last used)."""
    key = req.get("robots_path")
    if key is not None and key in cache:
        cache.move_to_end(key)
        return cache[key]
    parser = make(body_bytes(req))
    if key is not None:
        cache[key] = parser
        if len(cache) > KEPT:
            cache.popitem(last=False)
    return parser


def serve(answer):
    """Answers every request on stdin with answer(request); an exception becomes an error answer."""
    out = sys.stdout
    for line in sys.stdin:
        req = None
        try:
            req = json.loads(line)
            a = answer(req)
        except Exception as err:  # an answer for every request, whatever happens
            a = {"id": req.get("id") if isinstance(req, dict) else None, "error": f"{type(err).__name__}: {err}"}
        out.write(json.dumps(a) + "\n")
        out.flush()


def new_cache():
    """An empty parser cache for kept_parser."""
    return OrderedDict()

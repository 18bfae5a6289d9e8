#!/usr/bin/env python3
"""Protego (Scrapy's robots.txt parser) as a `robots-automaton compare --batch` adapter.

    robots-automaton compare --cases corpus --batch 'python3 examples/adapters/protego_batch.py'

Debian: apt-get install python3-protego (run it with /usr/bin/python3 when
another python3 comes first on PATH). The batch protocol: one JSON request
per line on stdin,
  {"id": 7, "robots_path": "/tmp/…/x.txt" | "robots": "…" | "robots_base64": "…",
   "agent": "Googlebot", "url": "https://a.com/x"}
and one JSON answer per line on stdout:
  {"id": 7, "allowed": false}      or      {"id": 7, "error": "why"}
Protego reports no deciding line, so answers carry none (compare then checks
verdicts only). Every answer is flushed at once: the harness keeps a window of
requests in flight and waits for answers. The body is decoded as Scrapy
decodes it before handing it to Protego: UTF-8, undecodable bytes dropped.
"""
import base64
import json
import sys
from collections import OrderedDict

from protego import Protego

KEPT = 1000
parsers = OrderedDict()


def body_bytes(req):
    if isinstance(req.get("robots"), str):
        return req["robots"].encode("utf-8")
    if isinstance(req.get("robots_base64"), str):
        return base64.b64decode(req["robots_base64"])
    with open(req["robots_path"], "rb") as f:
        return f.read()


def parser_for(req):
    key = req.get("robots_path")
    if key is not None and key in parsers:
        parsers.move_to_end(key)
        return parsers[key]
    rp = Protego.parse(body_bytes(req).decode("utf-8", "ignore"))
    if key is not None:
        parsers[key] = rp
        if len(parsers) > KEPT:
            parsers.popitem(last=False)
    return rp


def answer(req):
    if not isinstance(req.get("agent"), str):
        return {"id": req.get("id"), "error": "Protego takes one user agent"}
    return {"id": req["id"], "allowed": bool(parser_for(req).can_fetch(req["url"], req["agent"]))}


def main():
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


if __name__ == "__main__":
    main()

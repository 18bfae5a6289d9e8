#!/usr/bin/env python3
"""Protego (Scrapy's robots.txt parser) as a `robots-automaton compare --batch` adapter.

    robots-automaton compare --cases corpus --batch 'python3 examples/adapters/protego_batch.py'

Debian: apt-get install python3-protego (run it with /usr/bin/python3 when
another python3 comes first on PATH). The batch protocol: batch_protocol.py.
Protego reports no deciding line, so answers carry none (compare then checks
verdicts only). The body is decoded as Scrapy
decodes it before handing it to Protego: UTF-8, undecodable bytes dropped.
"""
from protego import Protego

from batch_protocol import kept_parser, new_cache, serve

parsers = new_cache()


def parser_for(req):
    return kept_parser(parsers, req, lambda body: Protego.parse(body.decode("utf-8", "ignore")))


def answer(req):
    if not isinstance(req.get("agent"), str):
        return {"id": req.get("id"), "error": "Protego takes one user agent"}
    return {"id": req["id"], "allowed": bool(parser_for(req).can_fetch(req["url"], req["agent"]))}


if __name__ == "__main__":
    serve(answer)

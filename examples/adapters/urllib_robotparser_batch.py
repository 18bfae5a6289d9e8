#!/usr/bin/env python3
"""Python's urllib.robotparser as a `robots-automaton compare --batch` adapter.

    robots-automaton compare --cases corpus --batch 'python3 examples/adapters/urllib_robotparser_batch.py'

The batch protocol: batch_protocol.py. urllib.robotparser reports no
deciding line, so answers carry none (compare then checks verdicts only).

The body is decoded as UTF-8 with undecodable bytes kept as surrogates
(RobotFileParser.read() would raise on them), then split with
str.splitlines(), as RobotFileParser.read() does.
"""
import urllib.robotparser

from batch_protocol import kept_parser, new_cache, serve

parsers = new_cache()


def parse(body):
    rp = urllib.robotparser.RobotFileParser()
    rp.parse(body.decode("utf-8", "surrogateescape").splitlines())
    rp.modified()  # can_fetch() answers False until the file counts as read
    return rp


def parser_for(req):
    return kept_parser(parsers, req, parse)


def answer(req):
    if not isinstance(req.get("agent"), str):
        return {"id": req.get("id"), "error": "urllib.robotparser takes one user agent"}
    return {"id": req["id"], "allowed": bool(parser_for(req).can_fetch(req["agent"], req["url"]))}


if __name__ == "__main__":
    serve(answer)

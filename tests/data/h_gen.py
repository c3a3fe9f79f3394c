#!/usr/bin/env python3
"""Generate hostile inputs for tests/cli/hostile.bats and faults.bats.

usage: h_gen.py KIND ARGS...   (output on stdout)

  array N              [0,0,...,0] with N elements
  object N             {"k0":0,"k1":1,...} with N members
  nested N [close]     N '[' (and N ']' with "close")
  nested-obj N         N '{"a":' (never closed)
  string N [K]         K (default 1) JSON strings of N 'a' bytes each, one
                       per line, streamed in 1 MiB chunks
  number N             a number of N digits: 1 then 2s
  bursts B K SECONDS   B bursts of K values "i\\n" (i counting from 0),
                       a pause of SECONDS after each burst
  forever              NDJSON lines without end (until the pipe closes)
"""

import os
import sys
import time


def main():
    out = sys.stdout.buffer
    kind, args = sys.argv[1], sys.argv[2:]
    if kind == "array":
        n = int(args[0])
        out.write(b"[" + b"0," * (n - 1) + b"0]" if n else b"[]")
    elif kind == "object":
        n = int(args[0])
        out.write(b"{" + b",".join(b'"k%d":%d' % (i, i) for i in range(n))
                  + b"}")
    elif kind == "nested":
        n = int(args[0])
        out.write(b"[" * n)
        if args[1:] == ["close"]:
            out.write(b"]" * n)
    elif kind == "nested-obj":
        out.write(b'{"a":' * int(args[0]))
    elif kind == "string":
        chunk = b"a" * (1 << 20)
        for k in range(int(args[1]) if args[1:] else 1):
            if k:
                out.write(b"\n")
            n = int(args[0])
            out.write(b'"')
            while n > 0:
                out.write(chunk[:n])
                n -= len(chunk)
            out.write(b'"')
    elif kind == "number":
        out.write(b"1" + b"2" * (int(args[0]) - 1))
    elif kind == "bursts":
        b, k, pause = int(args[0]), int(args[1]), float(args[2])
        for j in range(b):
            out.write(b"".join(b"%d\n" % i for i in range(j * k, (j + 1) * k)))
            out.flush()
            time.sleep(pause)
    elif kind == "forever":
        line = b'{"id":12345,"tags":["a","b"],"ok":true,"v":1.5}\n' * 1024
        try:
            while True:
                out.write(line)
        except BrokenPipeError:
            os._exit(0)  # the reader is gone: nothing left to flush
    else:
        sys.exit("h_gen.py: unknown kind %r" % kind)
    out.flush()


if __name__ == "__main__":
    main()

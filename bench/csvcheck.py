#!/usr/bin/env python3
# csvcheck.py - the output checks of the JSON-to-CSV rows of bench/run.sh.
#
#   csvcheck.py json INPUT OUT.csv
#       OUT.csv, read by Python's csv module, holds the records of INPUT
#       (JSON Lines, or one array of records) as json.loads gives them,
#       flattened as jenc(1) documents: nested keys joined with '.',
#       strings as their text, numbers as written, true/false, null empty,
#       arrays as compact JSON text; the columns every key in order of
#       first appearance.
#   csvcheck.py cells TRUTH.csv OUT.csv [loose]
#       the same rows, cell by cell; with loose, a cell may also be the
#       same number written otherwise (Miller, csvkit), True/False, or
#       "null" for an empty one (Miller writes null as the word).
#
# Prints what differs first and exits 1; exits 0 when it holds.
import csv, json, sys


def records(path):
    with open(path, encoding="utf-8") as f:
        head = f.read(1 << 16).lstrip()
        f.seek(0)
        if head.startswith("["):
            for rec in json.load(f, parse_float=str, parse_int=str):
                yield rec
        else:
            for line in f:
                if line.strip():
                    yield json.loads(line, parse_float=str, parse_int=str)


def flat(rec, prefix, out):
    for k, v in rec.items():
        if isinstance(v, dict) and v:
            flat(v, prefix + k + ".", out)
        elif isinstance(v, (list, dict)):
            out[prefix + k] = json.dumps(v, separators=(",", ":"),
                                         ensure_ascii=False)
        elif v is None:
            out[prefix + k] = ""
        elif v is True or v is False:
            out[prefix + k] = "true" if v else "false"
        else:
            out[prefix + k] = v	# strings, and numbers as their text
    return out


def rows(path):
    with open(path, newline="", encoding="utf-8") as f:
        yield from csv.reader(f)


def fail(msg):
    print("csvcheck: " + msg)
    sys.exit(1)


def check_json(inp, out):
    cols, seen = [], set()
    for rec in records(inp):
        for k in flat(rec, "", {}):
            if k not in seen:
                seen.add(k)
                cols.append(k)
    got = rows(out)
    head = next(got, None)
    if head != cols:
        fail("header %r, expected %r" % (head, cols))
    n = 0
    for rec, row in zip(records(inp), got):
        n += 1
        d = flat(rec, "", {})
        want = [d.get(c, "") for c in cols]
        if row != want:
            fail("record %d: row %r, expected %r" % (n, row, want))
    if next(got, None) is not None:
        fail("more rows than records")


def same_cell(a, b):
    if a == b:
        return True
    if {a, b} <= {"", "null"}:
        return True
    if a.lower() == b.lower() and a.lower() in ("true", "false"):
        return True
    try:
        return float(a) == float(b)
    except ValueError:
        return False


def check_cells(truth, out, loose):
    n = 0
    a, b = rows(truth), rows(out)
    for x in a:
        y = next(b, None)
        n += 1
        if y is None:
            fail("row %d missing" % n)
        if x != y and not (loose and len(x) == len(y) and
                           all(same_cell(p, q) for p, q in zip(x, y))):
            fail("row %d: %r, expected %r" % (n, y, x))
    if next(b, None) is not None:
        fail("more rows than the reference")


if len(sys.argv) >= 4 and sys.argv[1] == "json":
    check_json(sys.argv[2], sys.argv[3])
elif len(sys.argv) >= 4 and sys.argv[1] == "cells":
    check_cells(sys.argv[2], sys.argv[3], len(sys.argv) > 4)
else:
    fail("usage: csvcheck.py json INPUT OUT.csv | cells TRUTH OUT [loose]")

#!/usr/bin/env python3
"""streamdiff.py - the differential stream test of jenc.

Each case is a random input (a log of JSON lines good and bad, values on
one line, a pretty-printed document, an RFC 7464 text sequence) and a
random set of options (layout, escaping, --sort-keys, --split, each
--on-error policy, --seq).  jenc reads it in every way it can, and every
way must give the same standard output, standard error and exit status
as the plain one (-j 1, a file read with read(2)):

  pipe      the same from a pipe
  j2, j3    -j 2 and -j 3 on the file, chunks of JENC_CHUNK bytes (from 1
            up: a cut at every line)
  j2pipe    -j 2 from a pipe
  slow      -j 2 (or 1) from a pipe fed in pieces with pauses between
  map       a copy of the input repeated to 1 MiB or more: mapped, -j 1
            and -j 2, against --no-mmap (one case in MAP_EVERY)
  utf16...  UTF-16 and UTF-32 with a byte order mark against UTF-8 with
            one, and --encoding=utf-16le against UTF-8 (valid UTF-8 only),
            -j 1 and -j 2
  jsonc     the valid input with random comments and trailing commas
            under --jsonc, against the input without them (stdout, status)
  ref       valid input against Go's json.Compact / json.Indent /
            json.HTMLEscape (tests/ref/jsonref.go)

Usage:
  streamdiff.py --jenc build/jenc [--seed N] [--cases N] [--dir DIR]
                [--ref PATH | --no-ref] [--case I]

A case is made from the seed and its number alone, so --seed S --case I
runs case I of seed S again.  On a difference it prints the seed, the
case, the input (saved under DIR, reduced by dropping lines while the
difference stays) and the two command lines to compare; the exit status
is then 1.
"""

import argparse
import hashlib
import os
import random
import shlex
import subprocess
import sys
import threading
import time

RS = "\x1e"
OUT_MAX = 64 << 20      # output read from a run at most: past it, killed
MAP_MIN = 1 << 20
MAP_EVERY = 12          # one case in MAP_EVERY is also read mapped
TIMEOUT = 120

# ---- the generator ---------------------------------------------------------

NUMBERS = ["0", "-0", "1", "-1", "12", "1234567890", "0.5", "-0.0",
           "3.14159", "1e5", "1E5", "1e+5", "1e-5", "1E-05", "-2.5e+10",
           "123456789012345678901234567890", "1.0e308", "4.9e-324",
           "0.000001", "9007199254740993", "-123.456e-7"]
BAD_NUMBERS = ["01", "-", "1.", ".5", "1e", "1e+", "+1", "0x10", "1.e5",
               "--1", "1ee5", "00", "-01.5", "Infinity", "NaN"]
LITERALS = ["true", "false", "null"]
BAD_LITERALS = ["tru", "nul", "falsey", "True", "NULL", "nil", "t", "x",
                "undefined"]
ESCAPES = ["\\n", "\\t", "\\\"", "\\\\", "\\/", "\\b", "\\f", "\\r",
           "\\u0000", "\\u001f", "\\u00e9", "\\u2028", "\\uffff",
           "\\ud83d\\ude00", "\\ud800", "\\udfff", "\\uDBFF\\uDFFF"]
CHARS = ["a", "Z", " ", "<", ">", "&", "'", "é", "ß", "中", "文", "€",
         "\u2028", "\u2029", "\ufeff", "\U0001f600", "\U0010ffff",
         "\U00010348", "\u00a0", "~", "/", "*", ",", "]", "}", "[", "{",
         ":", "#"]


class Gen:
    def __init__(self, rnd):
        self.r = rnd
        self.long_left = 1

    def string_body(self, longer=False):
        r = self.r
        n = r.choice([0, 1, 3, 8, 20, 60])
        if longer and self.long_left > 0 and r.random() < 0.3:
            # (one long string a case: longer than a skeleton, 64 KiB,
            # and than a slot of the document pipeline, 128 KiB)
            self.long_left -= 1
            n = r.choice([500, 3000, 70000, 140000])
        out = []
        while n > 0:
            k = r.random()
            if k < 0.55:
                m = min(n, r.randint(1, 40))
                out.append("".join(r.choice("abcdefghij klmnop0123456789")
                                   for _ in range(m)))
                n -= m
            elif k < 0.8:
                out.append(r.choice(ESCAPES))
                n -= 1
            else:
                out.append(r.choice(CHARS))
                n -= 1
        return "".join(out)

    def string(self, longer=False):
        return '"' + self.string_body(longer) + '"'

    def ws(self, multiline):
        r = self.r
        k = r.random()
        if k < 0.6:
            return ""
        if k < 0.8:
            return " "
        if not multiline:
            return r.choice(["  ", "\t", " \t "])
        return r.choice(["\n", "\r\n", "\n  ", "\n\t", " \n"])

    def value(self, depth, multiline, longer=False):
        """A valid value as a list of tokens (whitespace goes between)."""
        r = self.r
        k = r.random()
        if depth > 0 and k < 0.45:
            if r.random() < 0.5:
                n = r.choice([0, 1, 2, 3, 5])
                toks = ["["]
                for i in range(n):
                    if i:
                        toks.append(",")
                    toks += self.value(depth - 1, multiline, longer)
                return toks + ["]"]
            n = r.choice([0, 1, 2, 4])
            toks = ["{"]
            for i in range(n):
                if i:
                    toks.append(",")
                toks += [self.string(), ":"]
                toks += self.value(depth - 1, multiline, longer)
            return toks + ["}"]
        if k < 0.7:
            return [self.string(longer)]
        if k < 0.9:
            return [r.choice(NUMBERS)]
        return [r.choice(LITERALS)]

    def deep(self):
        r = self.r
        n = r.choice([40, 100, 300, 700])
        opens = [r.choice("[{") for _ in range(n)]
        toks = []
        for o in opens:
            toks.append(o)
            if o == "{":
                toks += ['"k"', ":"]
        toks.append(r.choice(NUMBERS))
        for o in reversed(opens):
            toks.append("]" if o == "[" else "}")
        return toks

    def join(self, toks, multiline, comments=False):
        """Tokens with whitespace (and, for --jsonc, comments and
        trailing commas) between them."""
        r = self.r
        out = []
        for i, t in enumerate(toks):
            if i:
                out.append(self.ws(multiline))
                if comments and r.random() < 0.15:
                    if r.random() < 0.5:
                        out.append("/*" + r.choice(["", " c ", "*", "** x",
                                                    "\n x \r\n", "//"]) +
                                   "*/")
                    elif multiline:
                        out.append("//" + r.choice(["", " c", " /* x",
                                                    " \"q"]) +
                                   r.choice(["\n", "\r\n"]))
                if (comments and t in ("]", "}") and
                        toks[i - 1] not in ("[", "{") and
                        r.random() < 0.3):
                    out.append("," + self.ws(multiline))
            out.append(t)
        return "".join(out)

    def bad(self, text):
        """text (one valid value) made bad in one of many ways."""
        r = self.r
        k = r.randrange(24)
        if k == 0 and len(text) > 1:     # cut short
            return text[:r.randrange(1, len(text))]
        if k == 1:                       # a stray byte
            i = r.randrange(len(text) + 1)
            return text[:i] + r.choice(["x", ",", "}", "]", ":", "\x00",
                                        "\x01", "\x7f", "'", "\\"]) + \
                text[i:]
        if k == 2:
            return '{"a":"x\\qy", "b":[1,2]}'
        if k == 3:
            return '["\\u12g4", {"c": 3}]'
        if k == 4:                       # invalid UTF-8 in a string
            return ('{"s":"' + r.choice(["\udcff", "\udcc0\udc80",
                                          "\udced\udca0\udc80",
                                          "\udcf0\udc9f\udc98", "\udcfe"]) +
                    '", "t": [1]}')
        if k == 5:
            return "[1, 2,]"
        if k == 6:
            return '{"a" 1}'
        if k == 7:
            return "[" + r.choice(BAD_NUMBERS) + "]"
        if k == 8:
            return '{"a": ' + r.choice(BAD_LITERALS) + "}"
        if k == 9:
            return '{"msg": "cut off'
        if k == 10:
            return text + " junk"
        if k == 11:
            return r.choice(["a,b,c", "x;y", "plain text, not JSON",
                             "Exception in thread \"main\" boom",
                             "\tat com.example.App.run(App.java:42)"])
        if k == 12:
            return "// a comment " + text
        if k == 13:
            return '{"a": [1, {"b": "\t"}]}'
        if k == 14:
            return "]" + text
        if k == 15:                      # a string over two lines
            return '{"a": "x\ny", "b": [1]}'
        if k == 16:                      # a value open, then good lines
            return r.choice(["{", "[", '{"a": [', '[{"b": "c"'])
        if k == 17:
            return r.choice(["}", "]", "]]", "}{"])
        if k == 18:                      # a byte order mark, an RS
            return r.choice(["\ufeff", RS]) + text
        if k == 19:
            return text[:len(text) // 2] + "\r" + text[len(text) // 2:]
        if k == 20:                      # long junk
            return "x" * r.choice([100, 5000, 70000])
        if k == 21:
            return text.replace(":", "", 1) if ":" in text else text + ","
        if k == 22:
            return '"' + self.string_body() + "\\"
        return '{"a": [1, 2}'

    def case(self):
        """A case: (input text, options, valid, kind)."""
        r = self.r
        kind = r.choice(["log", "log", "log", "line", "doc", "seq"])
        valid = r.random() < 0.45
        longer = r.random() < 0.15
        if r.random() < 0.03:
            kind = "huge"
        if kind == "huge":
            # past 1 MiB: bad text too long to pass, a value whose
            # output went out before its error (hold_max), long lines
            # that outgrow a chunk of -j
            n = r.choice([600000, 700000])
            good = '{"a": 1}\n[2]\n'
            big, valid = r.choice([
                ("x" * (2 * n), False),
                ("[" + "1," * n + "x]", False),
                ('["' + "y" * (2 * n), False),
                ("[" + "1," * n + "1]", True),
                ('{"k": [' + "[1]," * (n // 2) + "[2]]}", True),
            ])
            text = good + big + "\n" + good
            items = []
        elif kind == "doc":
            toks = self.deep() if r.random() < 0.25 else \
                self.value(r.choice([3, 5, 8]), True, longer)
            text = self.join(toks, True)
            if not valid:
                lines = text.split("\n")
                i = r.randrange(len(lines))
                lines[i] = self.bad(lines[i]) if lines[i] else "x"
                text = "\n".join(lines)
            text += r.choice(["\n", "", "\n\n"])
            items = [toks]
        elif kind == "line":
            items = [self.value(2, False) for _ in range(r.randint(1, 8))]
            text = " ".join(self.join(t, False) for t in items)
            if not valid:
                text += " " + self.bad("[1]")
            text += r.choice(["\n", ""])
        elif kind == "seq":
            items = []
            parts = []
            for _ in range(r.randint(1, 12)):
                t = self.value(3, r.random() < 0.3, longer)
                s = self.join(t, True)
                if not valid and r.random() < 0.3:
                    k = r.random()
                    if k < 0.5 and len(s) > 1:
                        s = s[:r.randrange(1, len(s))]  # truncated by RS
                    else:
                        s = self.bad(s)
                else:
                    items.append(t)
                parts.append(RS + s + r.choice(["\n", "\n", " ", "\r\n"]))
            text = "".join(parts)
            valid = valid and len(items) == len(parts)
        else:
            items = []
            lines = []
            for _ in range(r.randint(1, 40)):
                if r.random() < 0.1:
                    t = self.deep() if r.random() < 0.1 else \
                        self.value(4, True, longer)
                    lines.append(self.join(t, True))
                    items.append(t)
                    continue
                t = self.value(3, False, longer)
                s = self.join(t, False)
                if not valid and r.random() < 0.25:
                    lines.append(self.bad(s))
                else:
                    lines.append(s)
                    items.append(t)
                if r.random() < 0.05:
                    lines.append("")
            eol = r.choice(["\n", "\n", "\r\n"])
            text = eol.join(lines) + r.choice([eol, eol, ""])
            valid = valid and len(items) == len(lines)
        opts = [r.choice(["-c", "-c", "-c", "", "--tab", "--indent=1",
                          "-l"])]
        opts.append(r.choice(["", "", "", "-H", "-a", "-S", "--split",
                              "-C", "--validate"]))
        policy = r.choice(["stop", "skip", "pass"])
        if kind == "seq":
            opts.append("--seq")
            if policy == "pass" and "--split" in opts:
                policy = "skip"
        opts.append("--on-error=" + policy)
        if r.random() < 0.05:
            opts.append("--max-depth=" + str(r.choice([1, 2, 50, 300])))
        opts = [o for o in opts if o]
        return text, opts, valid, kind, items


def encode(text):
    """The case's bytes: surrogate escapes of the generator (invalid
    UTF-8 it means to write) become those bytes."""
    return text.encode("utf-8", "surrogateescape")


# ---- running jenc ----------------------------------------------------------

class Stream:
    """What a process wrote to one of its outputs: its size, hash and
    first bytes (an output may be far larger than its input: deep
    nesting indented), or with lines, its lines with <stdin> made name
    (stderr: a few lines per bad text)."""

    def __init__(self, f, name=None, over=None):
        self.h = hashlib.sha256()
        self.n = 0
        self.head = b""
        self.over = False
        if name is None:
            for b in iter(lambda: f.read(1 << 20), b""):
                self.add(b)
                if self.n > OUT_MAX and over is not None:
                    # (input repeated past 1 MiB, nested and indented,
                    # can make gigabytes: the case is not compared)
                    self.over = True
                    over()
                    for b in iter(lambda: f.read(1 << 20), b""):
                        pass
                    break
        else:
            for line in f:
                self.add(line.replace(b"<stdin>", name))

    def add(self, b):
        self.h.update(b)
        self.n += len(b)
        if len(self.head) < 400:
            self.head += b[:400 - len(self.head)]

    def key(self):
        return (self.over, self.n, self.h.digest())


class Result:
    def __init__(self, out, err, rc):
        self.out, self.err, self.rc = out, err, rc

    def key(self):
        return (self.out.key(), self.err.key(), self.rc)


def feed(w, data, pieces):
    try:
        at = 0
        for n in pieces:
            w.write(data[at:at + n])
            w.flush()
            at += n
            time.sleep(0.002)
        w.write(data[at:])
    except (BrokenPipeError, ValueError, OSError):
        pass
    try:
        w.close()
    except (BrokenPipeError, OSError):
        pass


def run(jenc, args, cwd, path=None, data=None, pieces=None, env=None,
        name="in.json"):
    """jenc args on the file path (in cwd) or, with data, from a pipe
    (fed in pieces if given); stderr's <stdin> becomes name."""
    e = dict(os.environ)
    e.pop("JENC_CHUNK", None)
    e["LC_ALL"] = "C"
    if env:
        e.update(env)
    cmd = [jenc] + args + ([path] if path is not None else [])
    p = subprocess.Popen(cmd, cwd=cwd, env=e,
                         stdin=subprocess.DEVNULL if data is None else
                         subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    got = {}

    def read(key, f, nm):
        got[key] = Stream(f, nm, p.kill)
    threads = [threading.Thread(target=read, args=("out", p.stdout, None)),
               threading.Thread(target=read,
                                args=("err", p.stderr, name.encode()))]
    if data is not None:
        threads.append(threading.Thread(target=feed,
                                        args=(p.stdin, data,
                                              pieces or [])))
    for t in threads:
        t.start()
    try:
        rc = p.wait(timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        p.kill()
        rc = "timeout"
    for t in threads:
        t.join()
    p.stdout.close()
    p.stderr.close()
    return Result(got["out"], got["err"], rc)


def shell(args, path, env=None, pipe=False):
    s = " ".join("%s=%s" % kv for kv in (env or {}).items())
    cmd = " ".join(shlex.quote(a) for a in args)
    if pipe:
        return (s + " " if s else "") + "cat %s | %s" % (
            shlex.quote(path), cmd)
    return (s + " " if s else "") + cmd + " " + shlex.quote(path)


# ---- the checks ------------------------------------------------------------

class Diff(Exception):
    pass


class Case:
    def __init__(self, st, seed, index):
        self.st = st
        self.seed, self.index = seed, index
        self.rnd = random.Random("%d-%d" % (seed, index))
        self.gen = Gen(self.rnd)
        (self.text, self.opts, self.valid, self.kind,
         self.items) = self.gen.case()
        self.dir = os.path.join(st.dir, "c%d" % (index % 4))
        os.makedirs(self.dir, exist_ok=True)

    def base_args(self):
        return list(self.opts)

    # Each check: a function of the input bytes that returns a list of
    # (label, expected Result, actual Result, expected cmd, actual cmd)
    # differences; the reducer calls it on smaller inputs.

    def write(self, data, name="in.json"):
        path = os.path.join(self.dir, name)
        with open(path, "wb") as f:
            f.write(data)
        return path

    def modes(self, data):
        r = self.rnd
        a = self.base_args()
        jenc = self.st.jenc
        self.write(data)
        base = run(jenc, a + ["--no-mmap"], self.dir, "in.json")
        self.st.runs += 1
        chunk = str(r.choice([1, 1, 7, 64, 4096, r.randint(1, 300)])
                    if len(data) < 400000 else
                    r.choice([4096, 65536, 300000]))
        pieces = []
        left = len(data)
        while left > 0 and len(pieces) < 12:
            n = r.randint(1, max(1, min(left, 400)))
            pieces.append(n)
            left -= n
        slow = r.choice([{"JENC_CHUNK": chunk}, {}])
        sj = r.choice(["1", "2", "2", "3"])
        variants = [
            ("pipe", a, None, True, None),
            ("JENC_EXACT=1 (jsmn over the text)", a,
             {"JENC_EXACT": "1"}, False, None),
            ("-j 2, JENC_CHUNK=" + chunk, a + ["-j", "2"],
             {"JENC_CHUNK": chunk}, False, None),
            ("-j 3, JENC_CHUNK=" + chunk, a + ["-j", "3"],
             {"JENC_CHUNK": chunk}, False, None),
            ("-j 2 from a pipe, JENC_CHUNK=" + chunk, a + ["-j", "2"],
             {"JENC_CHUNK": chunk}, True, None),
            ("-j %s from a pipe fed in pieces %s%s" % (
                sj, pieces, ", JENC_CHUNK=" + chunk if slow else ""),
             a + ["-j", sj], slow, True, pieces),
        ]
        diffs = []
        for label, args, env, pipe, pcs in variants:
            if pipe:
                got = run(jenc, args, self.dir, data=data, pieces=pcs,
                          env=env)
            else:
                got = run(jenc, args, self.dir, "in.json", env=env)
            self.st.runs += 1
            if got.key() != base.key():
                diffs.append((label, base, got,
                              shell([jenc] + a + ["--no-mmap"], "in.json"),
                              shell([jenc] + args, "in.json", env, pipe)))
        return diffs

    def mapped(self, data):
        if not data:
            return []
        a = self.base_args()
        jenc = self.st.jenc
        big = data * (MAP_MIN // len(data) + 1)
        self.write(big, "big.json")
        base = run(jenc, a + ["--no-mmap"], self.dir, "big.json")
        if base.out.over:
            return []
        diffs = []
        for label, args in [("mapped", a), ("mapped, -j 2", a + ["-j", "2"]),
                            ("mapped, -j 3", a + ["-j", "3"])]:
            got = run(jenc, args, self.dir, "big.json")
            self.st.runs += 1
            if got.key() != base.key():
                diffs.append((label, base, got,
                              shell([jenc] + a + ["--no-mmap"], "big.json"),
                              shell([jenc] + args, "big.json")))
        # and from a pipe, on two threads
        got = run(jenc, a + ["-j", "2"], self.dir, data=big, name="big.json")
        self.st.runs += 2
        if got.key() != base.key():
            diffs.append(("-j 2 from a pipe", base, got,
                          shell([jenc] + a + ["--no-mmap"], "big.json"),
                          shell([jenc] + a + ["-j", "2"], "big.json",
                                pipe=True)))
        return diffs

    def encodings(self, data):
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            return []
        if not text or "\x00" in text:
            return []
        r = self.rnd
        a = self.base_args()
        jenc = self.st.jenc
        big = r.random() < 0.1
        if big:
            text = text * (MAP_MIN // len(data) + 1)
        self.write(b"\xef\xbb\xbf" + text.encode(), "in.json")
        base = run(jenc, a + ["--no-mmap"], self.dir, "in.json")
        if base.out.over:
            return []
        diffs = []
        codec, mark = r.choice([("utf-16-le", b"\xff\xfe"),
                                ("utf-16-be", b"\xfe\xff"),
                                ("utf-32-le", b"\xff\xfe\x00\x00"),
                                ("utf-32-be", b"\x00\x00\xfe\xff")])
        wide = mark + text.encode(codec)
        d2 = os.path.join(self.dir, "w")
        os.makedirs(d2, exist_ok=True)
        with open(os.path.join(d2, "in.json"), "wb") as f:
            f.write(wide)
        j = ["-j", "2"] if r.random() < 0.5 else []
        got = run(jenc, a + j, d2, "in.json")
        self.st.runs += 2
        if got.key() != base.key():
            diffs.append((codec + " with a byte order mark " +
                          " ".join(j), base, got,
                          shell([jenc] + a + ["--no-mmap"], "in.json") +
                          "   # in %s" % self.dir,
                          shell([jenc] + a + j, "in.json") +
                          "   # in %s" % d2))
        if not big:
            # --encoding, no mark, against UTF-8 without one
            self.write(text.encode(), "in.json")
            base = run(jenc, a, self.dir, "in.json")
            with open(os.path.join(d2, "in.json"), "wb") as f:
                f.write(text.encode("utf-16-le"))
            got = run(jenc, a + ["--encoding=utf-16le"], d2, "in.json")
            self.st.runs += 2
            if got.key() != base.key():
                diffs.append(("--encoding=utf-16le", base, got,
                              shell([jenc] + a, "in.json") +
                              "   # in %s" % self.dir,
                              shell([jenc] + a + ["--encoding=utf-16le"],
                                    "in.json") + "   # in %s" % d2))
        return diffs

    def jsonc(self):
        """The valid input with comments under --jsonc, against it
        without: the same output and status."""
        if not self.valid or self.kind == "seq" or not self.items:
            return []
        r = self.rnd
        jenc = self.st.jenc
        multi = self.kind in ("log", "doc")
        plain = " ".join(self.gen.join(t, multi) for t in self.items)
        comm = "\n".join(self.gen.join(t, multi, comments=True)
                         for t in self.items)
        a = [o for o in self.base_args() if not o.startswith("--on-error")]
        self.write(encode(plain) + b"\n", "plain.json")
        self.write(encode(comm) + b"\n", "c.jsonc")
        base = run(jenc, a, self.dir, "plain.json")
        got = run(jenc, a + ["--jsonc"], self.dir, "c.jsonc")
        self.st.runs += 2
        if base.rc != 0:
            return []           # (--max-depth)
        if (got.out.key(), got.rc) != (base.out.key(), base.rc):
            return [("--jsonc with comments", base, got,
                     shell([jenc] + a, "plain.json"),
                     shell([jenc] + a + ["--jsonc"], "c.jsonc"))]
        return []

    def reference(self, data):
        """Valid input against Go's encoding/json."""
        if not self.valid or self.st.ref is None or self.kind == "seq":
            return []
        r = self.rnd
        jenc = self.st.jenc
        if "--max-depth" in " ".join(self.opts):
            return []
        lay, ref = r.choice([(["-c"], ["-c"]), ([], ["-i", "2"]),
                             (["--tab"], ["-t"]), (["--indent=1"],
                                                   ["-i", "1"])])
        if r.random() < 0.3:
            lay, ref = lay + ["-H"], ref + ["-H"]
        self.write(data, "in.json")
        got = run(jenc, lay + ["-j", r.choice(["1", "2"])], self.dir,
                  "in.json")
        with open(os.path.join(self.dir, "in.json"), "rb") as f:
            p = subprocess.run([self.st.ref] + ref, stdin=f,
                               capture_output=True, timeout=TIMEOUT)
        self.st.runs += 2
        want = Result(Stream(_Bytes(p.stdout)), Stream(_Bytes(b"")),
                      p.returncode)
        if got.key() != want.key():
            return [("Go's encoding/json (tests/ref/jsonref.go %s)" %
                     " ".join(ref), want, got,
                     "%s %s < in.json" % (self.st.ref, " ".join(ref)),
                     shell([jenc] + lay, "in.json"))]
        return []


def reduce(case, check, data, limit=150):
    """Drop lines of data while check(data) still finds a difference."""
    lines = data.split(b"\n")
    tries = 0
    n = len(lines) // 2
    while n >= 1 and tries < limit:
        i = 0
        changed = False
        while i < len(lines) and tries < limit:
            cand = lines[:i] + lines[i + n:]
            tries += 1
            if cand and check(b"\n".join(cand)):
                lines = cand
                changed = True
            else:
                i += n
        if not changed:
            n //= 2
    return b"\n".join(lines)


class _Bytes:
    """bytes as a file, for Stream."""

    def __init__(self, b):
        self.b = b

    def read(self, n):
        b, self.b = self.b[:n], self.b[n:]
        return b


def show(res):
    return "exit %s, stdout (%d bytes) %r, stderr (%d bytes) %r" % (
        res.rc, res.out.n, res.out.head[:300], res.err.n,
        res.err.head[:300])


class State:
    pass


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--jenc", required=True)
    ap.add_argument("--seed", type=int)
    ap.add_argument("--cases", type=int, default=100)
    ap.add_argument("--case", type=int, help="run only this case")
    ap.add_argument("--dir", default="build/diff")
    ap.add_argument("--ref", help="the Go reference binary")
    ap.add_argument("--no-ref", action="store_true")
    ap.add_argument("--max-fail", type=int, default=3)
    o = ap.parse_args()

    st = State()
    st.jenc = os.path.abspath(o.jenc)
    st.dir = os.path.abspath(o.dir)
    st.runs = 0
    st.spent = {}
    st.ref = None
    os.makedirs(st.dir, exist_ok=True)
    if not o.no_ref:
        if o.ref:
            st.ref = os.path.abspath(o.ref)
        else:
            here = os.path.dirname(os.path.abspath(__file__))
            p = subprocess.run(["sh", os.path.join(here, "..", "ref",
                                                   "jsonref.sh")],
                               capture_output=True, text=True)
            if p.returncode == 0:
                st.ref = p.stdout.strip()
            elif p.returncode == 77:
                print("streamdiff: go is not installed: no comparison "
                      "with Go's encoding/json", file=sys.stderr)
            else:
                sys.stderr.write(p.stderr)
                return 2
    seed = o.seed if o.seed is not None else random.SystemRandom().randrange(
        1, 1 << 31)
    which = [o.case] if o.case is not None else range(o.cases)
    print("streamdiff: seed %d, %s" % (seed, "case %d" % o.case
                                       if o.case is not None else
                                       "%d cases" % o.cases), flush=True)
    start = time.time()
    fails = 0
    for i in which:
        c = Case(st, seed, i)
        data = encode(c.text)
        checks = [("modes", c.modes)]
        if i % MAP_EVERY == MAP_EVERY - 1:
            checks.append(("mapped", c.mapped))
        checks.append(("encodings", c.encodings))
        checks.append(("ref", c.reference))
        found = None
        for name, fn in checks:
            st_rnd = c.rnd.getstate()
            t0 = time.time()
            diffs = fn(data)
            st.spent[name] = st.spent.get(name, 0) + time.time() - t0
            if diffs:
                found = (name, fn, st_rnd, diffs)
                break
        if found is None:
            diffs = c.jsonc()
            if diffs:
                found = ("jsonc", None, None, diffs)
        if found is None:
            continue
        fails += 1
        name, fn, st_rnd, diffs = found
        label, want, got, wcmd, gcmd = diffs[0]
        small = data
        if fn is not None and b"\n" in data:
            def still(d, fn=fn, st_rnd=st_rnd, label=label):
                c.rnd.setstate(st_rnd)
                return any(x[0].split(",")[0] == label.split(",")[0]
                           for x in fn(d))
            small = reduce(c, still, data)
            c.rnd.setstate(st_rnd)
            diffs = [x for x in fn(small)] or diffs
            label, want, got, wcmd, gcmd = diffs[0]
        path = os.path.join(st.dir, "fail-%d-%d.json" % (seed, i))
        with open(path, "wb") as f:
            f.write(small)
        print("streamdiff: seed %d case %d (%s, %s): %s differs" % (
            seed, i, c.kind, " ".join(c.opts), label))
        print("  input:    %s (%d bytes, reduced from %d); the commands "
              "below read a copy in %s" % (path, len(small), len(data),
                                            c.dir))
        print("  expected: %s" % wcmd)
        print("            %s" % show(want))
        print("  actual:   %s" % gcmd)
        print("            %s" % show(got))
        print("  again:    python3 %s --jenc %s --seed %d --case %d" % (
            sys.argv[0], o.jenc, seed, i), flush=True)
        if fails >= o.max_fail:
            break
    took = time.time() - start
    if os.environ.get("STREAMDIFF_TIMES"):
        print("streamdiff: seconds per check: %s" % ", ".join(
            "%s %.1f" % kv for kv in sorted(st.spent.items())))
    print("streamdiff: seed %d: %d case%s, %d runs of jenc, %.1f s: %s" % (
        seed, len(which), "" if len(which) == 1 else "s", st.runs, took,
        "%d failed" % fails if fails else "all agree"), flush=True)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Build the fuzzers' seed corpora and dictionaries from ../shared.

usage: seeds.py SHARED OUTDIR

Writes OUTDIR/seeds/{json,jsonc,csv,api,conv,skel,tocsv,logfd}/,
OUTDIR/{json,jsonc,csv,api,conv,skel,tocsv,logfd}.dict and
OUTDIR/replay/{json,jsonc,csv,api,conv,skel,tocsv,logfd}/ (the fixed inputs of
REPLAY below).
Nothing from SHARED is copied whole: big corpus files are cut into the
byte ranges of their smaller arrays and objects (verbatim, so escapes and
number spellings survive), plus a short prefix of each (truncated input).
Each seed starts with the option bytes its harness reads (see the comment
at the top of tests/fuzz/fuzz_*.c).
"""

import csv
import hashlib
import io
import json
import os
import shutil
import struct
import sys

MAX_PIECE = 2048
PIECES_PER_FILE = 60

# Mode bytes of fuzz_json.c: layout in bits 0-1 (compact, indent, tab,
# small max_depth), N/D in bits 2-3, HTML 0x10, ASCII 0x20, LOWER_HEX
# 0x40, READ_SINGLE 0x80.
JSON_MODES = [0x00, 0x01, 0x02, 0x05, 0x10, 0x20, 0x60, 0x31, 0x80,
              0x81, 0x03, 0x0f, 0x72, 0xb0]

# Mode bytes of fuzz_jsonc.c: layout in bits 0-1 (compact, indent 2, tab,
# indent 1), HTML 0x10, ASCII 0x20, READ_SEQ 0x40, READ_SINGLE 0x80.
JSONC_MODES = [0x00, 0x01, 0x02, 0x03, 0x10, 0x20, 0x40, 0x80, 0x31]

# JSON with comments: a tsconfig.json, a VS Code settings.json, and
# comments and commas in every place, cut and open.
JSONC_TEXTS = [
    b'{\n  /* Visit https://aka.ms/tsconfig */\n  "compilerOptions": {\n'
    b'    "target": "es2016", // "es5"\n    /* "rootDir": "./src", */\n'
    b'    "paths": { "@app/*": ["src/app/*",], },\n  },\n'
    b'  "include": ["src/**/*.ts"],\n}\n',
    b'// settings\n{\n\t"editor.fontSize": 14, // points\n\t/*\n'
    b'\t * "editor.tabSize": 8,\n\t */\n\t"http.proxy": "http://p:3128/",\n'
    b'\t"files.exclude": {"**/.git": true,},\n}\n',
    b'[1, /* a */ 2, // b\n 3,]', b'{"a": 1,}', b'[,]', b'[1,,]',
    b'{"a" /* k */ : // v\n 1}', b'/**/1', b'/*/ */2', b'1 / 2',
    b'{} /* open', b'[1, /* open', b'["//", "/*", "a\\"//"]',
    b'{"a":1} // x\n{"b":[2,]}\n{"c" 3}\n', b'\x1e[1,]\n\x1e/* x */2\n',
    b'"a\\\n// x\n', b'name;age\nbob;42\n', b'a,b\n1,2\n',
]

# Operation numbers of fuzz_api.c's enum op.
OP = {name: i for i, name in enumerate(
    "obj_begin obj_end arr_begin arr_end key str raw_str raw_key raw i64 "
    "u64 f64 bool null time_utc time_unix kv_str kv_i64 kv_u64 kv_f64 "
    "kv_bool kv_null kv_time_utc kv_time_unix flush reset discard take "
    "query trim".split())}

# Fixed inputs `make fuzz` runs before fuzzing, each alone in a fresh
# process of its harness: a harness's buffers are unallocated (NULL) only
# until the first input that fills them, so an input that leaves one empty
# hands memcmp() a NULL pointer only when it runs first, and in a long run
# that happens by chance.  "xx" was such an input for fuzz_csv.c (CSV
# lines mode, no text: empty output).  Mostly inputs with empty output or
# no text, in several modes; then excerpts the harnesses' model of them
# once got wrong: a control byte and an invisible character shown as '?',
# a line cut on both sides ending in "." before the mark, a byte order mark
# left out of the excerpt; a tab alone, which once drew the CSV hint; a
# first line whose '[' (no CSV, then) was seen from memory and not from
# the pipe, which had read only 1 KiB past the error; a first line whose
# start, 4000 bytes before the error, only memory still held (the hint
# came from memory alone); a CSV error near the end of a window from
# memory, which stopped at its limit (the longest record and 1 KiB) where
# a pipe read on for the excerpt.
REPLAY = {
    "json": [b"", b"x", b"xx", b"\x00", b"\x00 \n", b"\x80", b"\x81 ",
             b"\x03", b"\x00[]", b"\x30\"\"", b"\x00{", b"\x00\xef\xbb\xbf",
             b"\x00[\x0c]", b"\x31[\xe2\x81\xa0]", b"\xff\t",
             b"\x00x," + b"a" * 2000 + b"[",
             b"\x00" + b'"x" ' * 1000 + b"zz,b"],
    "jsonc": [b"", b"x", b"\x00/", b"\x00/*", b"\x00//", b"\x00[1,",
              b"\x00[1,]", b"\x02{\"a\":1,}", b"\x00\"a\\", b"\x40\x1e//\x1e1 "],
    "csv": [b"", b"x", b"xx", b"\x00\x00", b"\x08\x00", b"\x02\x00",
            b"\x09\x00\n", b"\x18\x00\r\n", b"\x0c\x07\n", b"\x00\x00\"",
            b"\x01\x00\xef\xbb\xbf", b"\x0a\x01\n\n",
            b"\x02\x00\xef\xbb\xbf,c\x01\xe9",
            b"\x02\x00" + b"a" * 60 + b"\xff" + b"b." * 60 + b"\n",
            b"\xe0\x00sep=;\r\na;b\r\n1;2", b"\xe0\x00a;b\n1;2\n",
            b"\xe2\x00\xef\xbb\xbfSEP=|\r", b"\xe0\x00\"a;b\"|c\n1|2\n",
            b"\x80\x00a:b\n" + b"x" * 70 + b"\n",
            b"\x80\x00a:b\n" + b"1:2\n" * 265 + b"x:y\x00" + b"z" * 80 + b"\n"],
    # fuzz_skel.c: two option bytes, then the text (a NUL byte, bad
    # escapes, a number glued to a string, a long repeated value)
    "skel": [b"", b"x", b"xx", b"\x00\x00", b"\x00\x08[1,\"a\"]",
             b"\x00\x00[\"\x00\"]", b"\x01\x02[1\"a b\"]\n[2]",
             b"\x02\x01[\"\\x\"] {\"a\": [1 2]}\n{}",
             b"\x00\xf8{\"k\": [true, null, \"s\\u00e9\", -1.5e3]}\n"],
    # fuzz_tocsv.c: an option byte, then compact records (a surrogate
    # pair, a lone one, a nested object, a record split by a new key, too
    # deep for max_depth 3, a key holding the separator, no final newline)
    "tocsv": [b"", b"\x00", b"\x00{}", b"\x00{}\n{}\n",
              b"\x00{\"a\":\"\\ud83d\\ude00\"}\n",
              b"\x00{\"a\":\"\\ud83d\"}\n",
              b"\x04{\"a\":{\"b\":[1,{\"c\":null}]},\"d\":-0.5e+3}\n",
              b"\x08{\"a\":1}\n{\"b\":2,\"a\":3}\n",
              b"\x02{\"a\":{\"b\":{\"c\":{\"d\":1}}}}\n",
              b"\x01{\"a.b\":\"x\\ty\",\"a\":{\"b\":2}}",
              b"\x00{\"a\":1} {\"a\":2}\n"],
    # fuzz_logfd.c: an option byte, then log lines (records, text, a
    # blank line, a record of two lines, bad JSON, no final newline)
    "logfd": [b"", b"\x00", b"\x00{}", b"\x00{}\n\n{}\n",
              b"\x00{\"level\":30,\"time\":1714564800042,\"msg\":\"up\"}\n"
              b"text\n{\"a\":\n1}\n{\"msg\":\"x\"}",
              b"\x02{\"a\":1\n{\"b\":2}\n[1]\n\"s\"\n",
              b"\x03{\"a\":1}\nbad\n{\"b\":2}\n",
              b"\x0c{\"level\":50,\"pid\":1,\"a\":[[[1]]]}\n{\"a\":1} \n",
              b"\x10{\"msg\":\"caf\xc3\xa9\\ud800\"}\n",
              # a byte order mark, a first record rejected, a blank line
              # (the mark was told to stand alone at the end)
              b"\x02\xef\xbb\xbf30\n\n", b":\xef\xbb\xbf30\n\n"],
    "api": [b"", b"x", b"xx", b"\x00\x00", b"\x01\x00", b"\x41\xc0",
            bytes([0x00, 0x00, OP["take"]]), bytes([0x01, 0x00, OP["flush"]]),
            bytes([0x00, 0x00, OP["query"], OP["reset"], OP["take"]]),
            bytes([0x01, 0x40, OP["obj_begin"], OP["discard"]]),
            bytes([0x80, 0x10, OP["arr_begin"], OP["take"], OP["trim"]])],
    # fuzz_conv.c: a mark alone, a cut UTF-16 unit, a lone surrogate, a
    # byte cp1252 leaves undefined, a bad Shift_JIS trail byte, UTF-16
    # without a mark, empty text in every encoding
    "conv": [b"", b"\x20", b"\x40", b"\x01", b"\x21a", b"\x01\x00\xdc",
             b"\x02\xd8\x00\x00\x41", b"\x05[\x81]", b"\x15a,\x81\n",
             b"\x07[\"\x82\x20\"]", b"\xc0[1]", b"\xe0[1]",
             b"\x03[\x00\x00\x00", b"\x1a\xff\xfe\x00\x00a\x00"],
}


def replay(out):
    for name, inputs in REPLAY.items():
        d = os.path.join(out, "replay", name)
        os.makedirs(d, exist_ok=True)
        for b in inputs:
            write(d, b)


def write(dirpath, data):
    name = hashlib.sha1(data).hexdigest()[:16]
    with open(os.path.join(dirpath, name), "wb") as f:
        f.write(data)


def value_ranges(b):
    """(start, end) of every array and object in JSON text b."""
    out, stack, i, n = [], [], 0, len(b)
    while i < n:
        c = b[i]
        if c == 0x22:  # string: skip to the closing quote
            i += 1
            while i < n and b[i] != 0x22:
                i += 2 if b[i] == 0x5C else 1
        elif c in (0x7B, 0x5B):
            stack.append(i)
        elif c in (0x7D, 0x5D) and stack:
            out.append((stack.pop(), i + 1))
        i += 1
    return out


def pieces(b):
    """Distinct small values of b, spread over the file, and a prefix."""
    seen, got = set(), []
    for s, e in value_ranges(b):
        if 8 <= e - s <= MAX_PIECE and b[s:e] not in seen:
            seen.add(b[s:e])
            got.append(b[s:e])
    step = max(1, len(got) // PIECES_PER_FILE)
    return got[::step][:PIECES_PER_FILE] + [b[:1024]]


def json_seeds(shared, out):
    d = os.path.join(out, "seeds", "json")
    os.makedirs(d, exist_ok=True)
    k = 0
    suite = os.path.join(shared, "conformance", "JSONTestSuite")
    for name in sorted(os.listdir(suite)):
        if not name.endswith(".json"):
            continue
        with open(os.path.join(suite, name), "rb") as f:
            data = f.read(4096)
        write(d, bytes([JSON_MODES[k % len(JSON_MODES)]]) + data)
        k += 1
    corpus = os.path.join(shared, "corpus")
    for name in sorted(os.listdir(corpus)):
        with open(os.path.join(corpus, name), "rb") as f:
            data = f.read()
        ps = pieces(data)
        if name.endswith(".ndjson"):
            lines = data.split(b"\n")
            ps += [l + b"\n" for l in lines[:20] if len(l) <= MAX_PIECE]
            ps.append(b"\r\n".join(lines[20:26]))
            # streams of a few lines with a bad one among them (a word,
            # a line cut short), for the reader on threads (check_par)
            for j in range(4):
                block = [l for l in lines[30 + 6 * j:36 + 6 * j]
                         if 0 < len(l) <= 1200]
                if len(block) < 4:
                    continue
                bad = b"not json" if j % 2 == 0 else block[2][:len(block[2]) // 2]
                ps.append(b"\n".join(block[:2] + [bad] + block[2:]) + b"\n")
        for p in ps:
            write(d, bytes([JSON_MODES[k % len(JSON_MODES)]]) + p)
            k += 1
    return d


def jsonc_seeds(out):
    d = os.path.join(out, "seeds", "jsonc")
    os.makedirs(d, exist_ok=True)
    for k, t in enumerate(JSONC_TEXTS):
        for m in (JSONC_MODES[k % len(JSONC_MODES)], 0x00):
            write(d, bytes([m]) + t)


def skel_seeds(json_dir, out):
    """fuzz_skel.c's: the JSON seeds with a second option byte."""
    d = os.path.join(out, "seeds", "skel")
    os.makedirs(d, exist_ok=True)
    for k, name in enumerate(sorted(os.listdir(json_dir))):
        with open(os.path.join(json_dir, name), "rb") as f:
            data = f.read()
        write(d, data[:1] + bytes([(k * 37) & 0xff]) + data[1:])


def corpus_rows(shared):
    """The first 40 rows of the NDJSON corpus, each a list."""
    with open(os.path.join(shared, "corpus", "amazon_cellphones.ndjson"),
              "rb") as f:
        rows = [json.loads(l) for l in f.read().split(b"\n")[:40] if l]
    return [row if isinstance(row, list) else [row] for row in rows]


def tocsv_seeds(shared, out):
    """fuzz_tocsv.c's: rows of the NDJSON corpus (arrays) made objects
    (some fields nested) and written compactly, a few at a time, with
    each option byte."""
    d = os.path.join(out, "seeds", "tocsv")
    os.makedirs(d, exist_ok=True)
    recs = []
    for k, row in enumerate(corpus_rows(shared)):
        obj = {"f%d" % i: v for i, v in enumerate(row)}
        if k % 3 == 1:
            obj = {"id": k, "item": obj}
        recs.append(json.dumps(obj, separators=(",", ":"),
                               ensure_ascii=False).encode())
    for k in range(0, len(recs), 4):
        write(d, bytes([k % 16]) + b"\n".join(recs[k:k + 4]) + b"\n")


def logfd_seeds(shared, out):
    """fuzz_logfd.c's: the rows of tocsv_seeds as pino-like records (a
    level, a time, a message), a few at a time among other lines, with
    each option byte."""
    d = os.path.join(out, "seeds", "logfd")
    os.makedirs(d, exist_ok=True)
    recs = []
    for k, row in enumerate(corpus_rows(shared)):
        obj = {"level": 10 + 10 * (k % 6), "time": 1714564800000 + k,
               "msg": "record %d" % k}
        obj.update({"f%d" % i: v for i, v in enumerate(row)})
        recs.append(json.dumps(obj, separators=(",", ":"),
                               ensure_ascii=False).encode())
    other = [b"", b"text line", b'{"a": 1}', b"[1]", b'{"a":']
    for k in range(0, len(recs), 4):
        lines = recs[k:k + 4] + [other[(k // 4) % len(other)]]
        write(d, bytes([k % 32]) + b"\n".join(lines) + b"\n")


def records(shared, n):
    """The first n records of the NDJSON corpus as lists of strings."""
    with open(os.path.join(shared, "corpus", "amazon_cellphones.ndjson"),
              "rb") as f:
        rows = [json.loads(l) for l in f.read().split(b"\n")[:n] if l]
    return [[str(v) for v in r] for r in rows]


def tsv_field(s):
    return (s.replace("\\", "\\\\").replace("\t", "\\t")
            .replace("\n", "\\n").replace("\r", "\\r"))


def csv_seeds(shared, out):
    # fuzz_csv.c: byte 0 = CSV flags (TSV 1, NO_HEADER 2, TYPES 4,
    # LINES 8, RAGGED_PAD 0x10) | delimiter index << 5 (4: ':' with
    # max_record 64, 7: JENC_CSV_DETECT); byte 1 = header names |
    # layout << 3 | HTML 0x20 | ASCII 0x40 | LOWER_HEX 0x80.
    opts = [(0x00, 0x00), (0x02, 0x00), (0x04, 0x08), (0x08, 0x20),
            (0x10, 0x43), (0x0c, 0x10), (0x16, 0x61), (0x00, 0x85),
            (0xe0, 0x00), (0xe6, 0x08), (0x80, 0x00)]
    d = os.path.join(out, "seeds", "csv")
    os.makedirs(d, exist_ok=True)
    k = 0
    spec = os.path.join(shared, "conformance", "csv-spectrum", "csvs")
    for name in sorted(os.listdir(spec)):
        with open(os.path.join(spec, name), "rb") as f:
            data = f.read()
        for _ in range(4):
            write(d, bytes(opts[k % len(opts)]) + data)
            k += 1
    rows = records(shared, 40)
    for i in range(0, len(rows) - 5, 5):
        part = [rows[0]] + rows[i + 1:i + 6]
        s = io.StringIO()
        csv.writer(s, lineterminator="\r\n" if i % 10 else "\n") \
            .writerows(part)
        write(d, bytes(opts[k % len(opts)]) + s.getvalue().encode())
        k += 1
        # the same as a European export for JENC_CSV_DETECT, with and
        # without Excel's sep= line
        s = io.StringIO()
        csv.writer(s, delimiter=";", lineterminator="\r\n") \
            .writerows(part)
        write(d, bytes([0xe0 | (k & 0x1e), 0]) +
              (b"sep=;\r\n" if i % 10 else b"") + s.getvalue().encode())
        k += 1
        t = "".join("\t".join(tsv_field(x) for x in r) + "\n" for r in part)
        write(d, bytes([0x01 | (opts[k % len(opts)][0] & 0x1e),
                        opts[k % len(opts)][1]]) + t.encode())
        k += 1
    return d


# fuzz_conv.c's mode byte: encoding in bits 0-2 (0 none, then utf-16le,
# utf-16be, utf-32le, utf-32be, cp1252, latin1, shift_jis), reader in bits
# 3-4 (JSON, JSON skip, CSV, TSV), start in bits 5-7 (with no encoding:
# none, UTF-16LE/BE, UTF-32LE/BE, UTF-8 mark, UTF-16LE/BE without one).
CONV_ENCODINGS = [None, "utf-16-le", "utf-16-be", "utf-32-le", "utf-32-be",
                  "cp1252", "latin-1", "shift_jis"]


def conv_seeds(shared, out):
    """Small JSON and CSV texts in each encoding, and marked ones."""
    d = os.path.join(out, "seeds", "conv")
    os.makedirs(d, exist_ok=True)
    texts = []
    suite = os.path.join(shared, "conformance", "JSONTestSuite")
    for name in sorted(os.listdir(suite)):
        if name.startswith("y_") and name.endswith(".json"):
            with open(os.path.join(suite, name), "rb") as f:
                texts.append((0, f.read(1024)))
    spec = os.path.join(shared, "conformance", "csv-spectrum", "csvs")
    for name in sorted(os.listdir(spec)):
        with open(os.path.join(spec, name), "rb") as f:
            texts.append((2, f.read(1024)))
    texts.append((3, "name\tcity\r\nRen\u00e9e\tK\u00f6ln\r\n".encode()))
    texts.append((0, '{"caf\u00e9": "\u20ac \u201cx\u201d"}'.encode()))
    texts.append((0, '["\u3042\u6771\u4eac\uff71"]\n'.encode()))
    k = 0
    for reader, t in texts:
        try:
            u = t.decode("utf-8")
        except UnicodeDecodeError:
            continue
        for e in range(1, 8):
            try:
                raw = u.encode(CONV_ENCODINGS[e])
            except UnicodeEncodeError:
                continue
            write(d, bytes([e | (reader + (k & 1)) % 4 << 3]) + raw)
            k += 1
        for start in (1, 2, 3, 4):
            raw = u.encode(CONV_ENCODINGS[start], "surrogatepass")
            write(d, bytes([start << 5 | reader << 3]) + raw)
    return d


def text_arg(s):
    b = s.encode("utf-8", "surrogatepass")[:63]
    while b:
        try:
            b.decode("utf-8", "surrogatepass")
            break
        except UnicodeDecodeError:
            b = b[:-1]
    return bytes([0x80 | len(b)]) + b


def ops_of(v):
    """fuzz_api.c operations that write JSON value v."""
    if isinstance(v, dict):
        b = bytes([OP["obj_begin"]])
        for key, x in v.items():
            b += bytes([OP["key"]]) + text_arg(key) + ops_of(x)
        return b + bytes([OP["obj_end"]])
    if isinstance(v, list):
        return (bytes([OP["arr_begin"]]) + b"".join(ops_of(x) for x in v)
                + bytes([OP["arr_end"]]))
    if isinstance(v, bool):
        return bytes([OP["bool"], int(v)])
    if v is None:
        return bytes([OP["null"], 0])
    if isinstance(v, int):
        return bytes([OP["i64"]]) + (v & (2**64 - 1)).to_bytes(8, "big")
    if isinstance(v, float):
        return bytes([OP["f64"], 0]) + struct.pack(">d", v)
    return bytes([OP["str"]]) + text_arg(v)


def api_seeds(shared, json_dir, out):
    d = os.path.join(out, "seeds", "api")
    os.makedirs(d, exist_ok=True)
    heads = [(0x00, 0x00), (0x01, 0x00), (0x83, 0x01), (0x89, 0x10),
             (0x95, 0x20), (0x41, 0x00), (0xc1, 0x30), (0x21, 0x40)]
    extras = [bytes([OP["take"]]), bytes([OP["flush"]]),
              bytes([OP["query"]]), bytes([OP["reset"]]),
              bytes([OP["discard"]]), bytes([OP["trim"]])]
    k = 0
    for name in sorted(os.listdir(json_dir)):
        with open(os.path.join(json_dir, name), "rb") as f:
            data = f.read()[1:]
        try:
            b = ops_of(json.loads(data))
        except (ValueError, UnicodeDecodeError, RecursionError):
            continue
        if len(b) > 4096:
            continue
        h = heads[k % len(heads)]
        cut = len(b) // 2
        write(d, bytes(h) + b[:cut] + extras[k % len(extras)] + b[cut:] +
              bytes([OP["query"], OP["take"]]))
        k += 1
    # time, raw and key-value calls with in-range arguments
    t = (1700000000).to_bytes(8, "big")
    write(d, bytes([0x01, 0x00, OP["obj_begin"], OP["kv_time_utc"], 1]) + t +
          text_arg("t") + bytes([OP["kv_time_unix"]]) + t + text_arg("u") +
          bytes([OP["key"]]) + text_arg("r") + bytes([OP["raw"], 3,
          OP["raw_key"], 2, 0, 15, OP["raw_str"], 3, 16, 20, 22,
          OP["obj_end"], OP["flush"]]))
    return d


def dict_line(b):
    s = "".join(chr(c) if 0x20 <= c < 0x7f and c not in (0x22, 0x5c)
                else "\\x%02x" % c for c in b)
    return '"%s"\n' % s


JSON_TOKENS = [b"{", b"}", b"[", b"]", b",", b":", b'"', b"true", b"false",
               b"null", b"-0", b"0.5", b"1e-7", b"1E+400", b"-1.5e-07",
               b"\\u", b"\\uD83D\\uDE00", b"\\udc00", b'\\"', b"\\\\",
               b"\\/", b"\\b", b"\\f", b"\\n", b"\\u0000", b"\xef\xbb\xbf",
               b"\xe2\x80\xa8", b"\xe2\x80\xa9", b"\xf0\x9f\x98\x80",
               b"\xc3\xa9", b"\xff", b"\xc0\x80", b"\xed\xa0\x80", b"\r\n",
               b"\t", b"<", b">", b"&", b'{"a":', b"[[[[", b"]]]]",
               b'"":', b"\x00"]
JSONC_TOKENS = [b"//", b"/*", b"*/", b"/**/", b",]", b",}", b", // c\n",
                b"/* \n */", b'"http://x"', b"\x1e"]
CSV_TOKENS = [b",", b";", b"\t", b'"', b'""', b"\r\n", b"\n", b"\r",
              b"\\t", b"\\n", b"\\r", b"\\\\", b"true", b"false", b"null",
              b"-1.5e3", b"0x1", b"1_000", b"NaN", b"01", b"-0", b"1e400",
              b"\xef\xbb\xbf", b"\xc3\xa9", b"\xff", b'"a,b"', b"<&>",
              b"\x00"]


def keys(shared):
    """The most frequent object keys of the corpus, as '"key":'."""
    count = {}
    for name in ("twitter.json", "citm_catalog.json"):
        with open(os.path.join(shared, "corpus", name), "rb") as f:
            data = f.read()
        for part in data.split(b'":')[:-1]:
            k = part[part.rfind(b'"') + 1:]
            if 0 < len(k) <= 24:
                count[k] = count.get(k, 0) + 1
    top = sorted(count, key=lambda k: -count[k])[:40]
    return [b'"' + k + b'":' for k in top]


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: seeds.py SHARED OUTDIR")
    shared, out = sys.argv[1], sys.argv[2]
    if not os.path.isdir(os.path.join(shared, "conformance")):
        sys.exit("seeds.py: %s: no conformance/ there" % shared)
    replay(out)
    jd = json_seeds(shared, out)
    jsonc_seeds(out)
    skel_seeds(jd, out)
    csv_seeds(shared, out)
    api_seeds(shared, jd, out)
    conv_seeds(shared, out)
    tocsv_seeds(shared, out)
    logfd_seeds(shared, out)
    with open(os.path.join(out, "conv.dict"), "w") as f:
        f.writelines(dict_line(t) for t in
                     [b"\xff\xfe", b"\xfe\xff", b"\x00\x00\xfe\xff",
                      b"\x00\xd8", b"\xd8\x00", b"\x00\xdc", b"\x81",
                      b"\x80", b"\x82\xa0", b"\r\x00\n\x00",
                      b"\x00\r\x00\n", b"\r", b"\n"] + CSV_TOKENS)
    with open(os.path.join(out, "json.dict"), "w") as f:
        f.writelines(dict_line(t) for t in JSON_TOKENS + keys(shared))
    with open(os.path.join(out, "jsonc.dict"), "w") as f:
        f.writelines(dict_line(t) for t in JSON_TOKENS + JSONC_TOKENS)
    shutil.copyfile(os.path.join(out, "json.dict"),
                    os.path.join(out, "skel.dict"))
    shutil.copyfile(os.path.join(out, "json.dict"),
                    os.path.join(out, "tocsv.dict"))
    shutil.copyfile(os.path.join(out, "json.dict"),
                    os.path.join(out, "logfd.dict"))
    with open(os.path.join(out, "csv.dict"), "w") as f:
        f.writelines(dict_line(t) for t in CSV_TOKENS)
    with open(os.path.join(out, "api.dict"), "w") as f:
        f.writelines(dict_line(bytes([OP[o]])) for o in
                     ("obj_begin", "obj_end", "arr_begin", "arr_end"))
        f.write(dict_line(bytes([OP["key"], 0x81, 0x61])))
        f.write(dict_line(bytes([OP["kv_str"], 0x81, 0x62, 0x81, 0x61])))
        f.write(dict_line(bytes([OP["raw_str"], 4, 15, 18, 19, 20])))


if __name__ == "__main__":
    main()

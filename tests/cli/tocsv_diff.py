#!/usr/bin/env python3
# tocsv_diff.py JENC N SEED - random records through `jenc --to=csv` and
# back through `jenc -f csv -t --nest`, checked three ways:
#
# 1. cell by cell against Python's csv.writer given the cells jenc(1)
#    documents (JSON TO CSV AND TSV): both files read with csv.reader give
#    the same rows;
# 2. read back, every record equals the original but for the documented
#    exceptions: null, "" and a missing member all come back as null, a
#    string that is a JSON number or true/false comes back as one, an
#    array or {} as the string of its compact JSON text, and every column
#    is a member of every record;
# 3. the same records written compactly, which jenc reads without its
#    JSON reader, give the same CSV bytes.
#
# The records come from a fixed nested schema (so that a name is always a
# value or always an object, which --nest needs), each with a random part
# of its members, and the strings from a list of awkward shapes.  Prints
# the first difference and exits 1; exits 0 if there is none.
import csv, io, json, random, re, subprocess, sys

jenc, n, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
r = random.Random(seed)

SHAPES = ["", " ", "  x", "x  ", "a,b", 'say "hi"', '"', '""', "l1\nl2",
          "cr\rx", "\r\n", "tab\tx", "é", "😀", "\u2028", "\x01", "\\",
          "\\n", "=1+2", "-", "1", "-0.5", "1e5", "01", "1.", "true",
          "false", "null", "TRUE", "k:v", "semi;colon", "{}", "[1]",
          "'", "ü,ö"]
NUMBERS = ["0", "-1", "3.25", "1e-7", "1E+3", "12345678901234567890",
           "-0.0"]


def string():
    return "".join(r.choice(SHAPES) for _ in range(r.randint(1, 3)))


def scalar(kind):
    if kind == "s":
        return ("s", string())
    if kind == "n":
        return ("n", r.choice(NUMBERS))
    if kind == "b":
        return ("b", r.choice([True, False]))
    if kind == "a":
        return ("a", r.choice(['[]', '[1,"x"]', '[[2],{"k":null}]',
                               '[true]']))
    if kind == "e":
        return ("e", "{}")
    return ("z", None)


# name -> kind of leaf, or a dict for an object
SCHEMA = {
    "id": "n", "name": "s", "note": "s", "ok": "b", "tags": "a",
    "meta": "e", "gone": "z",
    "user": {"name": "s", "age": "n", "addr": {"city": "s", "zip": "s"},
             "flags": "a"},
    "x": {"y": {"z": "s", "w": "n"}},
    "k\u00e9y": "s", "sp ace": "s", "q\"k": "s", "c,k": "s",
}


def record(schema):
    out = []
    for k, v in schema.items():
        if r.random() < 0.35:
            continue
        if isinstance(v, dict):
            sub = record(v)
            if sub:
                out.append((k, sub))
            continue
        kind = v if r.random() < 0.85 else "z"
        out.append((k, scalar(kind)))
    r.shuffle(out)
    return out


def to_json(rec, rr=r, compact=False):
    parts = []
    for k, v in rec:
        if isinstance(v, list):
            val = to_json(v, rr, compact)
        else:
            kind, x = v
            if kind == "s":
                val = json.dumps(x, ensure_ascii=rr.random() < 0.5)
            elif kind in "nae":
                val = x
            elif kind == "b":
                val = "true" if x else "false"
            else:
                val = "null"
        parts.append(json.dumps(k, ensure_ascii=False) + (":" if compact
                     else rr.choice([":", ": "])) + val)
    return "{" + ("," if compact else rr.choice([",", ", "])).join(parts) + "}"


def leaves(rec, prefix=""):
    for k, v in rec:
        name = prefix + k
        if isinstance(v, list):
            yield from leaves(v, name + ".")
        else:
            yield name, v


def cell(v):
    kind, x = v
    if kind == "z":
        return ""
    if kind == "b":
        return "true" if x else "false"
    return x


recs = [record(SCHEMA) for _ in range(n)]
text = "".join(to_json(rc) + "\n" for rc in recs)
with open("diff.ndjson", "w", encoding="utf-8") as f:
    f.write(text)

# 1. jenc against csv.writer, cell by cell
cols = []
for rc in recs:
    for name, _ in leaves(rc):
        if name not in cols:
            cols.append(name)
want = io.StringIO()
# (with "\r\n" as its line end csv.writer quotes a CR too; with "\n"
# alone, Python 3.11 leaves a CR in a field bare)
w = csv.writer(want, lineterminator="\r\n")
w.writerow(cols)
for rc in recs:
    d = dict(leaves(rc))
    w.writerow([cell(d[c]) if c in d else "" for c in cols])
got = subprocess.run([jenc, "--to=csv", "diff.ndjson"], capture_output=True,
                     check=True).stdout.decode("utf-8")
wrows = list(csv.reader(io.StringIO(want.getvalue(), newline="")))
grows = list(csv.reader(io.StringIO(got, newline="")))
if len(wrows) != len(grows):
    print("rows: %d from csv.writer, %d from jenc" % (len(wrows), len(grows)))
    sys.exit(1)
for i, (a, b) in enumerate(zip(wrows, grows)):
    if a != b:
        print("row %d differs:\n csv.writer %r\n jenc       %r" % (i, a, b))
        sys.exit(1)

# the same records written compactly, which jenc reads without its JSON
# reader (jenc_csvw_keys_fd, jenc_csvw_rows_fd): the same bytes
with open("diff-compact.ndjson", "w", encoding="utf-8") as f:
    f.write("".join(to_json(rc, random.Random(seed), True) + "\n"
                    for rc in recs))
compact = subprocess.run([jenc, "--to=csv", "diff-compact.ndjson"],
                         capture_output=True, check=True).stdout
if compact != got.encode("utf-8"):
    print("compact records: %d bytes of CSV, %d from the same records "
          "with spaces" % (len(compact), len(got.encode("utf-8"))))
    sys.exit(1)

# 2. there and back
back = subprocess.run([jenc, "-f", "csv", "-t", "--nest", "-l"],
                      input=got.encode("utf-8"), capture_output=True,
                      check=True).stdout.decode("utf-8").splitlines()
NUM = re.compile(r"-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?\Z")


def expect(name):
    """The value the column name comes back as, from the original."""
    def get(rc):
        d = dict(leaves(rc))
        if name not in d:
            return None
        kind, x = d[name]
        if kind == "z" or (kind == "s" and x == ""):
            return None
        if kind == "b":
            return x
        if kind == "n":
            return ("num", x)
        if kind in "ae":
            return x
        if NUM.match(x):
            return ("num", x)
        if x in ("true", "false"):
            return x == "true"
        return x
    return get


def flat_back(obj, prefix=""):
    for k, v in obj.items():
        if isinstance(v, dict):
            yield from flat_back(v, prefix + k + ".")
        else:
            yield prefix + k, v


if len(back) != len(recs):
    print("%d records back, %d sent" % (len(back), len(recs)))
    sys.exit(1)
getters = {c: expect(c) for c in cols}
for i, (line, rc) in enumerate(zip(back, recs)):
    obj = json.loads(line, parse_int=lambda s: ("num", s),
                     parse_float=lambda s: ("num", s))
    d = dict(flat_back(obj))
    if sorted(d) != sorted(cols):
        print("record %d: members %r, columns %r" % (i, sorted(d), cols))
        sys.exit(1)
    for c in cols:
        if d[c] != getters[c](rc):
            print("record %d, %s: back %r, expected %r\n sent %s" %
                  (i, c, d[c], getters[c](rc), to_json(rc)))
            sys.exit(1)

#!/usr/bin/env python3
"""logcheck.py LOG FORMAT < OUTPUT - does OUTPUT show the time, level and
message of every record of LOG (a pino log: time in Unix milliseconds,
numeric levels, msg), in order, and nothing else as a record?

FORMAT is how OUTPUT writes a record's first line:
  jenc   jenc --log in UTC: "2024-05-01 12:00:00.042 INFO  msg key=value ..."
  jq     jq -r '"\\(.time) \\(.level) \\(.msg)"': "1714564800042 30 msg"
  pino   pino-pretty -t 'UTC:yyyy-mm-dd HH:MM:ss.l':
         "[2024-05-01 12:00:00.042] INFO (4242): msg"
Lines that start with a space (fields, stack traces) are not records.
Prints one line and exits 0 if every record matches, else 1.  The
messages of bench/gen.c's pino logs hold no '=', so that jenc's message
ends before its first key=value.
"""
import datetime
import json
import re
import sys

NAMES = {10: "TRACE", 20: "DEBUG", 30: "INFO", 40: "WARN", 50: "ERROR",
         60: "FATAL"}
EPOCH = datetime.datetime(1970, 1, 1)


def utc(ms):
    s, m = divmod(int(ms), 1000)
    t = EPOCH + datetime.timedelta(seconds=s)
    return t.strftime("%Y-%m-%d %H:%M:%S") + ".%03d" % m


def truth(path):
    with open(path, encoding="utf-8") as f:
        for line in f:
            r = json.loads(line)
            yield utc(r["time"]), NAMES[r["level"]], r["msg"]


PINO = re.compile(r"^\[([^\]]*)\] ([A-Z]+) \(\d+\): (.*)$")


def shown(fmt, lines):
    for line in lines:
        line = line.rstrip("\n")
        if line.startswith(" "):
            continue
        if fmt == "jenc":
            words = line[30:].split(" ")
            msg = []
            for w in words:
                if "=" in w:
                    break
                msg.append(w)
            yield line[:23], line[24:29].rstrip(), " ".join(msg)
        elif fmt == "jq":
            t, lv, msg = line.split(" ", 2)
            yield utc(t), NAMES.get(int(lv), lv), msg
        else:
            m = PINO.match(line)
            yield (m.group(1), m.group(2), m.group(3)) if m else (line,)


def main():
    path, fmt = sys.argv[1], sys.argv[2]
    got = shown(fmt, sys.stdin)
    n = 0
    for want in truth(path):
        n += 1
        g = next(got, None)
        if g != want:
            print("record %d: want %r, got %r" % (n, want, g))
            return 1
    extra = next(got, None)
    if extra is not None:
        print("after %d records, more: %r" % (n, extra))
        return 1
    print("same time, level and message in all %d records" % n)
    return 0


if __name__ == "__main__":
    sys.exit(main())

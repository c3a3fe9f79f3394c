#!/usr/bin/env python3
# layers.py HEADER OBJDIR SRCDIR - check that lib/ calls only downwards.
#
# The layers are the numbered lines of the comment at the top of HEADER
# (lib/internal.h): "<tab>N file.c file.c<tab>description", N from 1 to 9
# or a sub-layer such as 6.2 (above 6 and 6.1, below 6.3 and 7), for the
# files of one module that call each other in one direction.  Every
# SRCDIR/*.c must be in one layer; every jenc_* symbol an object
# OBJDIR/file.o uses and does not define must be defined by an object of a
# lower layer, or by a file of its own module (x.c and x_*.c are one
# module, in one layer).
# Prints one line per problem and exits 1 if there is any.
import glob, os, re, subprocess, sys

header, objdir, srcdir = sys.argv[1:4]
layer = {}
with open(header) as f:
    for line in f:
        m = re.match(r" \*\t([1-9](?:\.[1-9])?) ((?:[a-z0-9_]+\.c ?)+)", line)
        if m:
            for name in m.group(2).split():
                layer[name[:-2]] = m.group(1)
problems = []
if not layer:
    problems.append("%s: no layer lines found" % header)

def symbols(obj, *flags):
    out = subprocess.run(["nm", "-P", *flags, obj], check=True,
                         capture_output=True, text=True).stdout
    return {l.split()[0] for l in out.splitlines()
            if l.split() and l.split()[0].startswith("jenc_")}

defined, used = {}, {}
for src in sorted(glob.glob(os.path.join(srcdir, "*.c"))):
    name = os.path.basename(src)[:-2]
    if name not in layer:
        problems.append("%s.c is in no layer of %s" % (name, header))
        continue
    obj = os.path.join(objdir, name + ".o")
    if not os.path.exists(obj):
        problems.append("%s: not built" % obj)
        continue
    for s in symbols(obj, "--defined-only", "-g"):
        defined[s] = name
    used[name] = symbols(obj, "-u")
for name, syms in sorted(used.items()):
    for s in sorted(syms):
        owner = defined.get(s)
        if owner is None:
            problems.append("%s.c uses %s, defined by no file of lib/" % (name, s))
        elif float(layer[owner]) >= float(layer[name]) and \
                (layer[owner] != layer[name] or
                 owner.split("_")[0] != name.split("_")[0]):
            problems.append("%s.c (layer %s) calls %s of %s.c (layer %s)"
                            % (name, layer[name], s, owner, layer[owner]))
for p in problems:
    print(p)
sys.exit(1 if problems else 0)

#!/usr/bin/env python3
"""Feed a command its standard input in pieces, each once it waits for it.

usage: feed.py MODE OUT ERR PIECE... -- CMD ARGS...

Runs CMD ARGS with standard output to the file OUT and standard error to
ERR, and standard input, by MODE:

  pipe      a pipe
  nonblock  a pipe whose read end is O_NONBLOCK
  tty       a pseudo-terminal without echo, O_NONBLOCK; the input ends
            with ^D at the start of a line

Each PIECE (printf-like: Python's backslash escapes, \\xHH for a byte; or
@FILE:START:END, the bytes [START, END) of FILE, END empty for its end) is
written only once CMD has read everything written before it and sleeps,
waiting for more: the bytes in the pipe or terminal are none and CMD is
in state S (/proc/PID/stat).  So each piece arrives after CMD found no
more input, whatever the machine's load, with no fixed delay.  Then the
input ends; prints CMD's exit status.  Gives up, with exit status 2, if
CMD has not waited after $HANG_LIMIT seconds (300 if unset): a hang, not
a slow machine.
"""

import fcntl
import os
import subprocess
import sys
import termios
import time

LIMIT = float(os.environ.get("HANG_LIMIT") or 300)


def state(pid):
    with open("/proc/%d/stat" % pid, "rb") as f:
        s = f.read()
    return s[s.rindex(b")") + 2:][:1].decode()


def pending(fd):
    b = fcntl.ioctl(fd, termios.FIONREAD, b"\0\0\0\0")
    return int.from_bytes(b, sys.byteorder)


def wait_idle(p, fd):
    """Until p has read all of fd's input and sleeps, or has exited."""
    end = time.monotonic() + LIMIT
    while time.monotonic() < end:
        if p.poll() is not None:
            return
        if pending(fd) == 0 and state(p.pid) == "S":
            return
        time.sleep(0.001)
    p.kill()
    sys.exit("feed.py: %s did not wait for input within %d s" %
             (p.args[0], LIMIT))


def piece_bytes(arg):
    if arg.startswith("@"):
        name, start, end = arg[1:].rsplit(":", 2)
        with open(name, "rb") as f:
            data = f.read()
        return data[int(start):int(end) if end else len(data)]
    return arg.encode().decode("unicode_escape").encode("latin-1")


def main():
    mode, out, err = sys.argv[1:4]
    rest = sys.argv[4:]
    sep = rest.index("--")
    pieces = [piece_bytes(a) for a in rest[:sep]]
    cmd = rest[sep + 1:]
    if mode == "tty":
        import pty
        w, r = pty.openpty()
        attr = termios.tcgetattr(r)
        attr[3] &= ~termios.ECHO
        termios.tcsetattr(r, termios.TCSANOW, attr)
    else:
        r, w = os.pipe()
    if mode != "pipe":
        fcntl.fcntl(r, fcntl.F_SETFL,
                    fcntl.fcntl(r, fcntl.F_GETFL) | os.O_NONBLOCK)
    with open(out, "wb") as o, open(err, "wb") as e:
        p = subprocess.Popen(cmd, stdin=r, stdout=o, stderr=e)
    # r stays open here: FIONREAD asks it what is not read yet
    for piece in pieces:
        wait_idle(p, r)
        try:
            os.write(w, piece)
        except BrokenPipeError:		# CMD is gone: its status says why
            break
    wait_idle(p, r)
    if mode == "tty":
        os.write(w, b"\x04")
    else:
        os.close(w)
    status = p.wait()
    os.close(r)
    if mode == "tty":
        os.close(w)
    print(status)


if __name__ == "__main__":
    main()

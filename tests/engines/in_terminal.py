#!/usr/bin/env python3
"""Runs a command in a new pseudo-terminal, as the leader of a session whose controlling terminal
it is (as an organiser's shell runs the referee), then prints what was left in the terminal's
input queue: characters an engine pushed there with TIOCSTI, which the shell would have run.

Usage: in_terminal.py COMMAND [ARG...]. Prints one JSON line: {"status": N, "pending": "..."}.
"""
import fcntl, json, os, select, sys, termios

master, slave = os.openpty()
pid = os.fork()
if pid == 0:
    os.close(master)
    os.setsid()
    fcntl.ioctl(slave, termios.TIOCSCTTY, 0)
    for fd in (0, 1, 2):
        os.dup2(slave, fd)
    os.execvp(sys.argv[1], sys.argv[1:])

# The command's output is read as it comes, so that it never blocks on a full terminal.
status = None
while status is None:
    ready, _, _ = select.select([master], [], [], 0.05)
    if ready:
        try:
            os.read(master, 65536)
        except OSError:
            pass
    done, code = os.waitpid(pid, os.WNOHANG)
    if done:
        status = os.waitstatus_to_exitcode(code)

# Whatever waits in the input queue: read it from our end without waiting for a line.
attrs = termios.tcgetattr(slave)
attrs[3] &= ~(termios.ICANON | termios.ECHO)
attrs[6][termios.VMIN] = 0
attrs[6][termios.VTIME] = 0
termios.tcsetattr(slave, termios.TCSANOW, attrs)
pending = b""
while True:
    chunk = os.read(slave, 4096)
    if not chunk:
        break
    pending += chunk
print(json.dumps({"status": status, "pending": pending.decode(errors="replace")}))

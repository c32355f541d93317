#!/usr/bin/env python3
"""A test engine that plays like the built-in random bot and, as MODE says, attacks the engine
it plays against (not the organiser), or is the engine such an attack aims at:

- starve: at its first genmove forks sleeping children until a fork is refused, then plays on
  (they share a process count with the opponent if both run as one user);
- spin: at its first genmove starts 8 helpers, each in a session of its own, that spin for ever,
  then plays on (they steal the opponent's CPU while it thinks);
- threads: starts a thread and a process at every genmove before it answers; if either is refused
  it says why on stderr and exits with code 1 (the victim of `starve`);
- work: before every answer does a fixed amount of CPU work in two processes (the victim of
  `spin`), and says on stderr how long each took: `work took MS ms`;
- trace: at its first genmove attaches (ptrace) every other rival.py of the same referee and
  never lets go, then plays on (the engines must share a user, outside the sandbox);
- plain: nothing but the random bot's moves.

Usage: rival.py MODE GAME. $REFEREE is the referee binary.
"""
import ctypes, os, subprocess, sys, threading, time
from relay import relay, start_bot

MODE, GAME = sys.argv[1], sys.argv[2]
bot = start_bot(GAME, "7")
moves = 0


def starve():
    started = 0
    try:
        while started < 100_000:
            if os.fork() == 0:
                time.sleep(3600)
                os._exit(0)
            started += 1
    except OSError as e:
        print(f"starve: fork refused after {started} children: {e}", file=sys.stderr, flush=True)


def spin():
    for _ in range(8):
        if os.fork() == 0:
            os.setsid()
            while True:
                pass


def parent(pid):
    with open(f"/proc/{pid}/stat") as f:
        return f.read().rsplit(")", 1)[1].split()[1]


def trace():
    libc = ctypes.CDLL(None, use_errno=True)
    me, referee = os.getpid(), parent("self")
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            words = open(f"/proc/{pid}/cmdline", "rb").read().split(b"\0")
            if int(pid) == me or parent(pid) != referee or b"rival.py" not in words:
                continue
        except OSError:
            continue
        if libc.ptrace(16, int(pid), None, None) == 0:  # PTRACE_ATTACH
            print(f"trace: holding {pid}", file=sys.stderr, flush=True)


def threads():
    try:
        done = threading.Event()
        thread = threading.Thread(target=done.set)
        thread.start()
        thread.join()
        subprocess.run(["true"], check=True)
    except (OSError, RuntimeError) as e:
        sys.exit(f"threads: refused at move {moves}: {e}")


def work():
    began = time.monotonic()
    children = []
    for _ in range(2):
        pid = os.fork()
        if pid == 0:
            total = 0
            for i in range(1_000_000):
                total += i * i
            os._exit(0)
        children.append(pid)
    for pid in children:
        os.waitpid(pid, 0)
    print(f"work took {(time.monotonic() - began) * 1000:.1f} ms", file=sys.stderr, flush=True)


for line in sys.stdin.buffer:
    words = line.split()
    if len(words) > 1 and words[1] == b"genmove":
        moves += 1
        if MODE == "starve" and moves == 1:
            starve()
        elif MODE == "spin" and moves == 1:
            spin()
        elif MODE == "trace" and moves == 1:
            trace()
        elif MODE == "threads":
            threads()
        elif MODE == "work":
            work()
    relay(bot, line)
    if len(words) > 1 and words[1] == b"quit":
        break

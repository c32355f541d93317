#!/usr/bin/env python3
"""A test engine that plays like the built-in random bot and misbehaves at its 3rd genmove.

Usage: faulty.py MODE [GAME] (GAME defaults to dvonn). $REFEREE is the referee binary; every process id this engine starts is
appended to the file $FAULTY_PIDS, so the test can check that none is left behind.
"""
import os, signal, subprocess, sys, time

MODE = sys.argv[1]
GAME = sys.argv[2] if len(sys.argv) > 2 else "dvonn"
out = sys.stdout.buffer

def note_pid(pid):
    with open(os.environ["FAULTY_PIDS"], "a") as f:
        f.write(f"{pid}\n")

note_pid(os.getpid())
if "FAULTY_STARTS" in os.environ:
    # When this process was forked, in clock ticks since boot (field 22 of /proc/PID/stat).
    with open("/proc/self/stat") as stat, open(os.environ["FAULTY_STARTS"], "a") as f:
        f.write(stat.read().rsplit(")", 1)[1].split()[19] + "\n")
print(f"faulty.py {MODE} starting", file=sys.stderr, flush=True)
if MODE == "crash_start":
    sys.exit(3)
if MODE == "ignore_quit":
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
if MODE == "fork":
    # The child inherits stdin, stdout and stderr and holds them open.
    note_pid(subprocess.Popen(["sleep", "1000"]).pid)

inner = subprocess.Popen([os.environ["REFEREE"], "bot", "--game", GAME, "--seed", "5"],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE)
note_pid(inner.pid)

def ask(line):
    inner.stdin.write(line)
    inner.stdin.flush()
    answer = b""
    while True:
        part = inner.stdout.readline()
        answer += part
        if part in (b"\n", b""):
            return answer

genmoves = 0
seed = None
for line in sys.stdin.buffer:
    words = line.split()
    if not words:
        continue
    ident, command = words[0].decode(), words[1].decode()
    if command == "newgame":
        seed = next(w[5:].decode() for w in words if w.startswith(b"seed="))
    if MODE == "chatty":
        # Says which game it is in before every answer, the last one of a game included.
        print(f"chatty seed={seed} {command}", file=sys.stderr, flush=True)
    if command == "quit" and MODE == "ignore_quit":
        out.write(b"=" + ident.encode() + b"\n\n")
        out.flush()
        continue
    answer = ask(line)
    if MODE == "no_pass" and command == "genmove" and answer.split()[1:] in ([b"PASS"], [b"pass"]):
        # Never passes: a stack move where only a pass is legal.
        answer = f"={ident} A1A2\n\n".encode()
    if command == "genmove":
        genmoves += 1
        if MODE == "setsid_helper":
            # A helper that leaves the process group and outlives its parent: an orphan.
            subprocess.Popen(["sh", "-c", "setsid sleep 0.05 &"]).wait()
    if MODE == "stderr_idle" and command == "play":
        # Far more than a pipe holds, written to stderr while not on move: it blocks until the
        # referee reads it.
        sys.stderr.buffer.write(b"y" * 200_000 + b"\n")
        sys.stderr.buffer.flush()
    if MODE == "flood_idle" and command == "play":
        # Blank lines while not on move, then the answer: more lines than one answer may take.
        out.write(b"\n" * 100_000)
    if command != "genmove" or genmoves != 3:
        out.write(answer)
        out.flush()
        continue
    move = answer.split()[1] if len(answer.split()) > 1 else b"PASS"
    if MODE == "crash_mid" or MODE == "fork":
        print("ZeroDivisionError: faulty.py gave up", file=sys.stderr, flush=True)
        sys.exit(4)
    elif MODE == "hang":
        time.sleep(3600)
    elif MODE in ("late", "late5"):
        movetime = int([w for w in words if w.startswith(b"movetime=")][0].split(b"=")[1])
        time.sleep(movetime / 1000 + (0.1 if MODE == "late" else 0.005))
        out.write(answer)
    elif MODE == "garbage":
        out.write(b"hello, this is not an answer\n\n")
    elif MODE == "unparseable":
        out.write(f"={ident} Z9\n\n".encode())
    elif MODE == "undo":
        out.write(f"={ident} undo\n\n".encode())
    elif MODE == "illegal":
        out.write(f"={ident} A1A2\n\n".encode())
    elif MODE == "invalid_utf8":
        out.write(f"={ident} ".encode() + b"\xff\xfe\n\n")
    elif MODE == "huge_line":
        out.write(f"={ident} ".encode() + b"A" * 10_000_000 + b"\n\n")
    elif MODE == "long_line":
        # Past the 65,536-byte limit but whole in the referee's buffer with its newline.
        out.write(f"={ident} ".encode() + b"A" * 70_000 + b"\n\n")
    elif MODE == "close_stdout":
        out.flush()
        os.close(1)
        time.sleep(3600)
    elif MODE == "wrong_id":
        out.write(f"={int(ident) + 100} ".encode() + move + b"\n\n")
    elif MODE == "flood_blank":
        while True:
            out.write(b"\n" * 65536)
    elif MODE == "flood_continuation":
        out.write(f"={ident} ".encode() + move + b"\n")
        while True:
            out.write(b"more\n" * 10000)
    elif MODE == "busy":
        # Thinks for ever without reading its input.
        while True:
            pass
    elif MODE == "nul_in_move":
        out.write(f"={ident} ".encode() + move[:1] + b"\x00" + move[1:] + b"\n\n")
    elif MODE == "comment_after_move":
        out.write(f"={ident} ".encode() + move + b" # my best move\n\n")
    elif MODE == "comment_line":
        out.write(b"# thinking done\n" + f"={ident} ".encode() + move + b"\n\n")
    elif MODE == "extra_lines":
        out.write(f"={ident} ".encode() + move + b"\nan extra line\n\n")
    else:
        out.write(answer)
    out.flush()

if MODE == "ignore_quit":
    time.sleep(3600)

#!/usr/bin/env python3
"""A test engine that answers the handshake, newgame and play, and at its first genmove grabs a
resource until a limit stops it: `memory` allocates 2 GiB, `cpu` spins, `fork` starts 10,000
sleeping children, `file` writes a 1 GiB file in $TMPDIR; or, `escape`, writes terminal escape
sequences to stderr (clear the screen, a window title, a clipboard write, an 8-bit CSI) and
exits. It needs nothing but python3.

Usage: hog.py MODE
"""
import os, sys, tempfile, time

MODE = sys.argv[1]
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    ident, command = words[0], words[1]
    if command == "genmove":
        if MODE == "memory":
            hoard = bytearray(2 << 30)
        elif MODE == "cpu":
            while True:
                pass
        elif MODE == "fork":
            started = 0
            try:
                for _ in range(10_000):
                    if os.fork() == 0:
                        time.sleep(60)
                        os._exit(0)
                    started += 1
            except OSError as e:
                sys.exit(f"fork refused after {started} children: {e}")
        elif MODE == "escape":
            sys.stderr.write("\x1b[2J\x1b]0;owned\x07\x1b]52;c;ZXZpbA==\x07\x9b31m\n")
            sys.stderr.flush()
        elif MODE == "file":
            with open(os.path.join(tempfile.gettempdir(), "big"), "wb") as f:
                for _ in range(1024):
                    f.write(b"x" * (1 << 20))
        sys.exit(f"{MODE}: nothing stopped me")
    answer = {"protocol_version": "1", "name": "hog"}.get(command, "")
    print(f"={ident} {answer}".rstrip() + "\n", flush=True)
    if command == "quit":
        break

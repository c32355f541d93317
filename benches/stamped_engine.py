"""An engine for the clock-fairness bench: it notes, for every genmove, when the command reached it
(the read that brought it in) and when its answer left (just before the write), so the bench can
compare the time the referee charged with the time the engine itself saw.

It plays by relaying to a built-in random bot ($REFEREE bot --game GAME --strategy random). `play`
is answered at once and passed to the bot with the next genmove, so the engine is never busy when
a genmove arrives. Each genmove appends `ENGINE_SEED K SEEN_NS` to LOG: the newgame's engine seed,
the genmove's number in that game from 0, and the nanoseconds from arrival to answer.
usage: stamped_engine.py GAME LOG
"""
import os, subprocess, sys, time

game, log = sys.argv[1], open(sys.argv[2], "a", buffering=1)
bot = subprocess.Popen([os.environ["REFEREE"], "bot", "--game", game, "--strategy", "random"],
                       stdin=subprocess.PIPE, stdout=subprocess.PIPE)
owed = []  # play lines the bot has not been told yet
seed, asked = None, 0


def bot_answer(lines):
    """Sends LINES to the bot; its last answer's first line."""
    bot.stdin.write(b"".join(lines))
    bot.stdin.flush()
    for _ in lines:
        first = bot.stdout.readline()
        while bot.stdout.readline() not in (b"\n", b""):
            pass
    return first


def answer(text):
    os.write(1, text.encode() + b"\n\n")


def handle(line, arrived):
    global seed, asked
    words = line.split()
    if not words:
        return True
    ident, name = words[0], words[1]
    if name == "play":
        owed.append(line + "\n")
        answer(f"={ident}")
    elif name == "genmove":
        reply = bot_answer([l.encode() for l in owed] + [(line + "\n").encode()])
        owed.clear()
        move = reply.decode().split(None, 1)[1].strip() if b" " in reply else ""
        left = time.monotonic_ns()
        answer(f"={ident} {move}")
        log.write(f"{seed} {asked} {left - arrived}\n")
        asked += 1
    else:
        if name == "newgame":
            seed = next(w[5:] for w in words if w.startswith("seed="))
            asked = 0
        reply = bot_answer([(line + "\n").encode()]).decode().strip()
        answer(f"={ident} {reply.split(None, 1)[1] if ' ' in reply else ''}".rstrip())
        if name == "quit":
            return False
    return True


pending = b""
while True:
    chunk = os.read(0, 65536)
    arrived = time.monotonic_ns()
    if not chunk:
        break
    pending += chunk
    *lines, pending = pending.split(b"\n")
    if not all(handle(l.decode(), arrived) for l in lines):
        break

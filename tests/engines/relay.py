"""Shared by the test engines that play like the built-in random bot: they relay each command to
a `referee bot` ($REFEREE) and its answer back."""
import os, subprocess, sys

def start_bot(game, seed=None):
    """A built-in random bot for GAME (with SEED if given), as a process to relay to."""
    seeded = ["--seed", seed] if seed is not None else []
    return subprocess.Popen([os.environ["REFEREE"], "bot", "--game", game, "--strategy", "random",
                             *seeded], stdin=subprocess.PIPE, stdout=subprocess.PIPE)

def relay(bot, line):
    """Sends LINE (bytes) to BOT and copies its answer, up to the blank line, to stdout."""
    bot.stdin.write(line)
    bot.stdin.flush()
    while True:
        part = bot.stdout.readline()
        sys.stdout.buffer.write(part)
        if part in (b"\n", b""):
            break
    sys.stdout.flush()

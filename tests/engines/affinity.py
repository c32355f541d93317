"""Plays like the built-in random bot (Pegs) and says on stderr, as it starts, the CPUs it may
run on: `cpus 0,1`."""
import os, sys
from relay import relay, start_bot

print("cpus " + ",".join(map(str, sorted(os.sched_getaffinity(0)))), file=sys.stderr, flush=True)
bot = start_bot("pegs")
for line in sys.stdin.buffer:
    relay(bot, line)
    if line.split()[1:2] == [b"quit"]:
        break

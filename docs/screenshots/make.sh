#!/usr/bin/env bash
# Remakes the README's screenshots: one game of each kind between the built-in bots, shown by
# `referee view` in headless Chromium at a mid-game position, 1280 px wide; and the live page of
# a tournament as it is played (`--serve`).
# Usage: docs/screenshots/make.sh (needs `referee` on PATH, chromium, curl and python3).
set -euo pipefail
cd "$(dirname "$0")"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
shoot() { # NAME GAME-ARGS...
    local name=$1
    shift
    referee match "$@" --games 1 --seed 5 --movetime 50 -o "$work/$name.jsonl" > /dev/null
    referee view "$work/$name.jsonl" -o "$work/$name.html"
    # Mid-game: the middle ply (DVONN: of the movement phase; DOUBLE: the middle card laid).
    local ply
    ply=$(python3 - "$work/$name.jsonl" <<'PY'
import json, sys
record = json.loads(open(sys.argv[1]).readline())
moves = record["moves"]
if record["game"] == "dvonn":  # past the 49 placements
    print((49 + len(moves)) // 2)
    sys.exit()
laid = [i + 1 for i, m in enumerate(moves) if m["move"].startswith(("left ", "right "))]
print(laid[len(laid) // 2] if laid else len(moves) // 2)
PY
)
    chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --virtual-time-budget=5000 \
        --window-size=1280,820 --screenshot="$PWD/$name.png" "file://$work/$name.html#game=1&ply=$ply" \
        2> /dev/null
}
shoot dvonn --game dvonn
shoot double-dutch --game double-dutch --seats 3
shoot pegs --game pegs --variant turbo
shoot wyx --game wyx --variant double
shoot double --game double --seats 4
# The live page of a running tournament (`--serve`): three search bots at DVONN, 300 ms a move,
# shot once the first game has finished and the second is under way.
referee tournament --game dvonn --engine search --engine search --engine search --seed 5 \
    --rounds 4 --movetime 300 --out "$work/live.jsonl" --serve 127.0.0.1:8089 > /dev/null 2>&1 &
run=$!
until grep -q '"finished":1,' <(curl -s http://127.0.0.1:8089/state 2> /dev/null); do sleep 0.5; done
sleep 3
chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --virtual-time-budget=3000 \
    --window-size=1280,1100 --screenshot="$PWD/live.png" "http://127.0.0.1:8089/" 2> /dev/null
kill "$run" 2> /dev/null || true
wait "$run" 2> /dev/null || true

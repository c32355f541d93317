#!/usr/bin/env bash
# Remakes the screenshots of the README and the manual: one game of each kind between the built-in bots, shown by
# `referee view` in headless Chromium at a mid-game position, 1280 px wide; and the live page of
# an SPRT match as it is played (`--serve`), and a knockout's report.
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
# The live page of a running SPRT match (`--serve`), as a projector shows it: the search bot at
# its two strengths, 300 ms a move, shot once three games have finished.
referee match --game dvonn --engine level=3 name=new --engine level=2 name=old --repeat \
    --games 200 --seed 5 --movetime 300 --sprt elo0=0 elo1=50 --event "Spring cup: new vs old" \
    --out "$work/live.jsonl" --serve 127.0.0.1:8089 > /dev/null 2>&1 &
run=$!
until python3 -c 'import json, sys; sys.exit(json.load(sys.stdin)["finished"] < 3)' \
    < <(curl -s http://127.0.0.1:8089/state 2> /dev/null) 2> /dev/null; do sleep 0.5; done
sleep 2
chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --virtual-time-budget=3000 \
    --user-data-dir="$work/profile" --window-size=1600,1000 --screenshot="$PWD/live.png" \
    "http://127.0.0.1:8089/" 2> /dev/null
kill "$run" 2> /dev/null || true
wait "$run" 2> /dev/null || true
# A knockout's report: the standings by how far each engine went, and the bracket.
referee tournament --game pegs --format knockout --games 2 --seed 5 --movetime 50 \
    --engine level=1 name=first --engine level=2 name=second --engine level=3 name=third \
    --engine random --engine level=2 name=fifth --event "Pegs knockout" \
    --out "$work/knockout.jsonl" > /dev/null 2>&1
referee report "$work/knockout.jsonl" -o "$work/knockout.html"
chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --virtual-time-budget=3000 \
    --window-size=1280,900 --screenshot="$PWD/knockout.png" "file://$work/knockout.html" 2> /dev/null

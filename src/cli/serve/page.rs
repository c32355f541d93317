//! The page `referee serve` sends: it asks `/state` twice a second (only a version number comes
//! back while nothing changed) and redraws the report, the games in progress and the list of
//! finished games, each of which opens in the replay viewer (`/game/N`). No page reload, nothing
//! from elsewhere.

/// The page.
pub const PAGE: &str = r##"<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>referee: live</title>
<style>
body { font-family: sans-serif; margin: 12px; }
h2 { font-size: 18px; margin: 16px 0 6px; }
#status { color: #555; font-size: 13px; }
#live { display: flex; flex-wrap: wrap; gap: 16px; }
.game { border: 1px solid #ccc; padding: 6px; max-width: 560px; }
.game h3 { font-size: 14px; margin: 2px 0 4px; }
.game .last, .game .clocks { font-size: 13px; font-family: monospace; }
.game svg { max-width: 540px; height: auto; }
.last-move { fill: none; stroke: #f08c00; stroke-width: 3; }
#report table { border-collapse: collapse; margin: 6px 0 12px; }
#report td, #report th { border: 1px solid #ccc; padding: 2px 8px; text-align: right; }
#report svg { display: block; margin: 8px 0; }
#finished a { display: block; padding: 2px; color: #124; }
</style>
</head>
<body>
<div id="status">connecting...</div>
<pre id="progress"></pre>
<h2>Games in progress</h2>
<div id="live"></div>
<div id="report"></div>
<h2>Finished games (<span id="count">0</span>, newest first)</h2>
<div id="finished"></div>
<script>/*DRAWING*/
const $ = (id) => document.getElementById(id);
let version = 0;
function show(state) {
  $("report").innerHTML = state.report;
  $("progress").textContent = state.progress;
  $("count").textContent = state.finished;
  const live = $("live");
  live.innerHTML = "";
  state.live.forEach((g) => {
    const div = document.createElement("div");
    div.className = "game";
    div.dataset.key = g.key;
    div.dataset.ply = g.ply;
    const title = document.createElement("h3");
    title.textContent = g.title + " (ply " + g.ply + ")";
    const board = document.createElement("div");
    board.innerHTML = g.svg;
    const last = document.createElement("div");
    last.className = "last";
    last.textContent = g.last;
    const clocks = document.createElement("div");
    clocks.className = "clocks";
    clocks.textContent = g.clocks.join("   ");
    const evals = document.createElement("div");
    evals.innerHTML = curves(g.scores, g.ply, 360, 90);
    div.append(title, board, last, clocks, evals);
    live.appendChild(div);
    const svg = board.querySelector("svg");
    if (svg) ring(svg, g.marks);
  });
  if (state.live.length === 0) live.textContent = "none";
  const list = $("finished");
  list.innerHTML = "";
  state.listed.forEach(([number, title, result]) => {
    const a = document.createElement("a");
    a.href = "/game/" + number;
    a.textContent = number + ". " + title + " (" + result + ")";
    list.appendChild(a);
  });
  document.body.dataset.version = state.version;
  document.body.dataset.finished = state.finished;
}
async function poll() {
  try {
    const response = await fetch("/state?since=" + version, { cache: "no-store" });
    const state = await response.json();
    if (state.version !== version && state.report !== undefined) {
      version = state.version;
      show(state);
    }
    $("status").textContent = "live: updated " + new Date().toLocaleTimeString();
  } catch (e) {
    $("status").textContent = "the server does not answer: " + e;
  }
  setTimeout(poll, 500);
}
poll();
</script>
</body>
</html>
"##;

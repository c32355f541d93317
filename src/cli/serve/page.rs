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
body { font-family: sans-serif; margin: 0; background: #f6f6f3; color: #111; }
#top { display: flex; align-items: baseline; gap: 28px; flex-wrap: wrap; padding: 10px 20px;
  background: #1d2b3a; color: #fff; }
#top h1 { font-size: 34px; margin: 0; }
#top .about, #top .progress { font-size: 24px; }
#top .progress { font-weight: bold; color: #ffd76a; }
#status { color: #777; font-size: 13px; padding: 2px 20px; }
#wall { display: flex; gap: 20px; padding: 10px 20px; align-items: flex-start; }
#live { flex: 1; display: flex; flex-wrap: wrap; gap: 18px; }
#side { width: 430px; display: flex; flex-direction: column; gap: 16px; }
#side > div:empty { display: none; }
#sprt, #table { background: #fff; border: 1px solid #ccc; padding: 10px 14px; font-size: 18px; }
#sprt h2 { font-size: 20px; margin: 0 0 6px; }
#sprt .llr { font-size: 24px; }
#sprt .h1 { color: #1a7f37; } #sprt .h0 { color: #b42318; }
.llr-bar { position: relative; height: 14px; margin: 6px 0; border-radius: 7px;
  background: linear-gradient(to right, #f3c7c2, #eee 50%, #c6e9cf); }
.llr-mark { position: absolute; top: -4px; width: 6px; height: 22px; margin-left: -3px; background: #111; }
#table table { border-collapse: collapse; width: 100%; }
#table td, #table th { padding: 3px 6px; text-align: right; font-size: 20px; }
#table td.name { text-align: left; font-weight: bold; }
.game { background: #fff; border: 1px solid #ccc; padding: 8px; max-width: 640px; }
.game h3 { font-size: 18px; margin: 2px 0 6px; }
.game .last { font-size: 16px; font-family: monospace; margin-top: 4px; }
.game svg { max-width: 620px; height: auto; }
.seat { display: flex; justify-content: space-between; align-items: baseline; gap: 16px;
  font-size: 26px; padding: 2px 8px; border-left: 6px solid transparent; }
.seat .clock { font-family: monospace; font-size: 36px; font-weight: bold; }
.seat.on { background: #fff3c4; border-left-color: #f08c00; }
.last-move { fill: none; stroke: #f08c00; stroke-width: 3; }
#rest { padding: 0 20px 20px; }
#rest h2 { font-size: 18px; margin: 16px 0 6px; }
#report table { border-collapse: collapse; margin: 6px 0 12px; background: #fff; }
#report td, #report th { border: 1px solid #ccc; padding: 2px 8px; text-align: right; }
#report svg { display: block; margin: 8px 0; }
#finished a { display: block; padding: 2px; color: #124; }
</style>
</head>
<body>
<div id="top">connecting...</div>
<div id="status"></div>
<div id="wall">
<div id="live"></div>
<div id="side"><div id="sprt"></div><div id="table"></div></div>
</div>
<div id="rest">
<pre id="progress"></pre>
<div id="report"></div>
<h2>Finished games (<span id="count">0</span>, newest first)</h2>
<div id="finished"></div>
</div>
<script>/*DRAWING*/
const $ = (id) => document.getElementById(id);
let version = 0;
function show(state) {
  $("top").innerHTML = state.headline;
  $("sprt").innerHTML = state.sprt;
  $("table").innerHTML = state.table;
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
    const seats = document.createElement("div");
    g.names.forEach((name, seat) => {
      const row = document.createElement("div");
      row.className = "seat" + (g.on_move === seat ? " on" : "");
      const who = document.createElement("span");
      who.textContent = name;
      const clock = document.createElement("span");
      clock.className = "clock";
      clock.textContent = g.clocks[seat] || "";
      row.append(who, clock);
      seats.appendChild(row);
    });
    const board = document.createElement("div");
    board.innerHTML = g.svg;
    const last = document.createElement("div");
    last.className = "last";
    last.textContent = g.last;
    const evals = document.createElement("div");
    evals.innerHTML = curves(g.scores, g.ply, 360, 90);
    div.append(title, seats, board, last, evals);
    live.appendChild(div);
    const svg = board.querySelector("svg");
    if (svg) ring(svg, g.marks);
  });
  if (state.live.length === 0) live.textContent = "no game in progress";
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

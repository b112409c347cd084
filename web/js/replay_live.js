// A live table's replay board (/table/<id>/replay): the moves made so far, position by
// position, read-only, for anyone (the hub's replay routes answer public views only, so no
// PIN is asked). It follows the table: each `state` push of the table's room brings the new
// steps, and a board at the last position moves on with the game. The game's charts so far
// are drawn below it, and a link leads back to the table screen.

import { call } from "./api.js";
import { errorText, t } from "./i18n.js";
import { esc } from "./labels.js";
import { mountReplay } from "./replay.js";
import { chartsHtml, drawCharts } from "./replay_charts.js";

/** Mount the replay board of table `tableId` in `root`; returns the unmount function. */
export function mountLiveReplay(root, ctx, tableId) {
  const base = `/api/tables/${encodeURIComponent(tableId)}`;
  let replay = null;
  let charts = [];
  let alive = true;
  let asking = null;
  root.innerHTML = `<div class="archive game-page">
      <section class="card"><div class="row spread">
        <h2 data-testid="replay-title">${esc(t("Replay"))} <span class="muted" data-testid="replay-table-name"></span></h2>
        <a class="btn small" href="/table/${esc(encodeURIComponent(tableId))}" data-nav data-testid="replay-back-to-table">${esc(t("Back to the table"))}</a>
      </div>
      <p class="muted lead">${esc(t("The moves made so far at this table, one at a time. Nothing here changes the game."))}</p></section>
      <div data-role="replay"></div>
      <div class="replay-charts" data-testid="replay-charts"></div>
    </div>`;
  const chartsBox = root.querySelector('[data-testid="replay-charts"]');

  async function draw(summary) {
    for (const chart of charts) chart.destroy();
    charts = [];
    chartsBox.innerHTML = chartsHtml(summary.charts);
    const made = await drawCharts(chartsBox, summary.charts, (position) => replay && replay.go(position));
    if (alive) charts = made;
    else made.forEach((chart) => chart.destroy());
  }

  /** The table moved: its new steps (one request at a time; the latest push wins). */
  async function follow() {
    if (asking) { asking.again = true; return; }
    asking = { again: false };
    try {
      const summary = await call(`${base}/replay`);
      if (alive && replay) {
        replay.refresh(summary);
        await draw(summary);
      }
    } catch {
      // the next push asks again
    } finally {
      const again = asking.again;
      asking = null;
      if (again && alive) follow();
    }
  }

  Promise.all([call(base), mountReplay(root.querySelector('[data-role="replay"]'), ctx, base,
    { live: true, position: Number.MAX_SAFE_INTEGER })])
    .then(async ([table, made]) => {
      if (!alive) { made.destroy(); return; }
      replay = made; // at the last position: the table as it stands
      root.querySelector('[data-testid="replay-table-name"]').textContent = table.name;
      await draw(replay.summary);
      window.popcornLoaded = tableId;
    }).catch((err) => {
      if (!alive) return;
      root.innerHTML = `<div class="card" data-testid="table-error"><h2>${esc(t("Cannot show this table"))}</h2>
        <p>${esc(errorText(err.code, err.params, err.message))}</p><a class="btn" href="/" data-nav>${esc(t("Back to setup"))}</a></div>`;
    });
  ctx.socket.on("connect", () => ctx.socket.emit("join", { table: tableId }));
  ctx.socket.on("state", (data) => { if (data.table === tableId && replay) follow(); });
  return () => {
    alive = false;
    if (replay) replay.destroy();
    for (const chart of charts) chart.destroy();
  };
}

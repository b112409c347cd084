// One archived game (/archive/<id>): its date, game and variant, where it comes from (a
// table of this hub, or an import), and its standings: place, player (a link to their page),
// score, the winners marked. With the admin PIN: download its record, or delete it from the
// archive (two taps). Below: the replay board (replay.js) and the game's charts
// (replay_charts.js; a click on a point moves the board there), and for a game with an
// advisor its analysis (archive_analysis.js; a miss opens the board before it). The
// address keeps the board's position (`?at=N`) and an opened miss (`&miss=seat.k`).

import { call } from "./api.js";
import { num, t } from "./i18n.js";
import { esc } from "./labels.js";
import {
  adminCall, adminDownload, errorLine, gameLabel, playerChip, when,
} from "./archive_shared.js";
import { mountReplay } from "./replay.js";
import { chartsHtml, drawCharts } from "./replay_charts.js";
import { mountAnalysis } from "./archive_analysis.js";

function standingsHtml(game) {
  const rows = [...game.players.entries()]
    .sort(([a, p], [b, q]) => (p.place ?? 99) - (q.place ?? 99) || a - b)
    .map(([seat, p]) => `
        <tr class="${p.winner ? "won" : ""}" data-testid="archive-standing-${seat}">
          <td class="num place">${esc(p.place ? num(p.place) : "")}</td>
          <td>${playerChip({ ...p, score: null })}</td>
          <td class="num" data-testid="archive-score-${seat}">${esc(p.score ?? "")}</td>
          <td>${p.winner ? `<span class="badge won">${esc(t("Winner"))}</span>` : ""}</td>
        </tr>`).join("");
  return `<table class="standings" data-testid="archive-standings">
      <thead><tr><th class="num">${esc(t("Place"))}</th><th>${esc(t("Player"))}</th><th class="num">${esc(t("Score"))}</th><td></td></tr></thead>
      <tbody>${rows}</tbody></table>`;
}

function pageHtml(game) {
  const source = game.source === "import" ? t("Imported into this hub's archive.")
    : t("Played at {name} on this hub.", { name: game.name || game.id });
  return `
  <div class="archive game-page">
    <section class="card" data-testid="archive-game">
      <div class="row spread">
        <h2>${esc(gameLabel(game))} <span class="muted">${esc(when(game.date))}</span></h2>
        <a class="btn small" href="/archive" data-nav data-testid="archive-back">${esc(t("Archive"))}</a>
      </div>
      <p class="muted lead">${esc(source)}</p>
      ${standingsHtml(game)}
      <div class="row actions">
        <button type="button" class="btn small" data-testid="archive-record" ${game.record ? "" : "disabled"}>${esc(t("Download the record"))}</button>
        <button type="button" class="btn small danger" data-testid="archive-delete">${esc(t("Delete from the archive…"))}</button>
      </div>
      <div class="confirm" data-testid="archive-delete-box" hidden>
        <span>${esc(t("Delete this game from the archive for good? Its table, if any, is kept."))}</span>
        <span class="row">
          <button type="button" class="btn danger small" data-testid="archive-delete-yes">${esc(t("Delete it"))}</button>
          <button type="button" class="btn small" data-testid="archive-delete-no">${esc(t("Cancel"))}</button>
        </span>
      </div>
    </section>
    <div data-role="replay">${game.record ? "" : `<section class="card"><p class="muted" data-testid="replay-none">${esc(t("This game has corrections, which a game record cannot hold: it cannot be replayed."))}</p></section>`}</div>
    <div class="replay-charts" data-testid="replay-charts"></div>
    <section class="card analysis" data-testid="analysis" hidden></section>
  </div>`;
}

export function mountArchiveGame(root, ctx, id) {
  const controller = new AbortController();
  const { signal } = controller;
  let replay = null;
  let charts = [];
  let stopAnalysis = () => {};
  const tid = (name) => root.querySelector(`[data-testid="${name}"]`);

  async function remove(btn) {
    btn.disabled = true;
    try {
      const answer = await adminCall(ctx, `/api/archive/${encodeURIComponent(id)}`, { method: "DELETE" });
      if (!answer) return;
      ctx.toast(t("The game was deleted from the archive."), "ok");
      ctx.go("/archive");
    } catch (err) {
      ctx.toast(`${err.code || ""} ${err.message}`.trim(), "error");
    } finally {
      btn.disabled = false;
    }
  }

  async function onClick(event) {
    const btn = event.target.closest("button");
    if (!btn) return;
    const name = btn.dataset.testid;
    try {
      if (name === "archive-record") await adminDownload(ctx, `/api/archive/${encodeURIComponent(id)}/record`, `${id}.jsonl`);
    } catch (err) {
      ctx.toast(`${err.code || ""} ${err.message}`.trim(), "error");
    }
    if (name === "archive-delete") tid("archive-delete-box").hidden = false;
    if (name === "archive-delete-no") tid("archive-delete-box").hidden = true;
    if (name === "archive-delete-yes") await remove(btn);
  }

  /** The replay board, its charts and the analysis, below the standings. */
  async function mountBoard(game) {
    const query = new URLSearchParams(location.search);
    const base = `/api/archive/${encodeURIComponent(id)}`;
    // a finished game opens at its end (its final board and market); `?at=` keeps another
    const at = query.get("at");
    const made = await mountReplay(root.querySelector('[data-role="replay"]'), ctx, base,
      { position: at === null ? Infinity : Number(at) || 0 });
    if (signal.aborted) { made.destroy(); return; }
    replay = made;
    replay.onMove = (position) => { // the address keeps the position (Back, a shared link)
      const params = new URLSearchParams(location.search);
      if (position < replay.summary.moves) params.set("at", String(position));
      else params.delete("at");
      if (!replay.compare) params.delete("miss");
      const search = params.toString();
      history.replaceState(null, "", `${location.pathname}${search ? `?${search}` : ""}`);
    };
    const box = root.querySelector('[data-testid="replay-charts"]');
    if (!box) return; // the page went while the board loaded (a tab closing)
    box.innerHTML = chartsHtml(replay.summary.charts);
    const drawn = await drawCharts(box, replay.summary.charts, (position) => {
      replay.go(position);
      root.querySelector('[data-testid="replay"]').scrollIntoView({ block: "start" });
    });
    if (signal.aborted) drawn.forEach((chart) => chart.destroy());
    else charts = drawn;
    if (replay.summary.analyzes) {
      stopAnalysis = mountAnalysis(root.querySelector('[data-testid="analysis"]'), id, (miss) => {
        replay.go(miss.index, miss);
        root.querySelector('[data-testid="replay"]').scrollIntoView({ block: "start" });
      }, query.get("miss"));
    }
    window.popcornArchiveGame = game.id;
  }

  call(`/api/archive/${encodeURIComponent(id)}`).then((game) => {
    if (signal.aborted) return;
    root.innerHTML = pageHtml(game);
    root.addEventListener("click", onClick, { signal });
    if (game.record) {
      mountBoard(game).catch((err) => {
        const slot = root.querySelector('[data-role="replay"]');
        if (slot && !signal.aborted) slot.innerHTML = `<section class="card"><p class="form-error" data-testid="replay-error">${errorLine(err)}</p></section>`;
      });
    }
  }).catch((err) => {
    if (signal.aborted) return;
    root.innerHTML = `<div class="archive"><section class="card">
      <p class="form-error" data-testid="archive-error">${errorLine(err)}</p>
      <a class="btn small" href="/archive" data-nav>${esc(t("Archive"))}</a></section></div>`;
  });
  return () => {
    controller.abort();
    stopAnalysis();
    if (replay) replay.destroy();
    for (const chart of charts) chart.destroy();
  };
}

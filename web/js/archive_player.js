// A player's page (/archive/player/<name>): every archived game of a seat with that name
// (letter case aside), their games and wins, per game the games, wins, mean and best score,
// a chart of their score over time (archive_chart.js, Chart.js) and the list of their games,
// newest first, each a link to the game's page.

import { call } from "./api.js";
import { num, t, tn } from "./i18n.js";
import { esc } from "./labels.js";
import { errorLine, gameHref, gameLabel, placeWords, when } from "./archive_shared.js";
import { drawScores } from "./archive_chart.js";

function totalsHtml(page) {
  const rows = page.by_game.map((g) => `
        <tr data-testid="player-totals-${esc(g.game)}">
          <td><b>${esc(g.title)}</b></td>
          <td class="num">${esc(num(g.games))}</td>
          <td class="num">${esc(num(g.wins))}</td>
          <td class="num">${esc(g.mean === null ? "" : num(g.mean))}</td>
          <td class="num">${esc(g.best === null ? "" : num(g.best))}</td>
        </tr>`).join("");
  return `<table class="standings" data-testid="player-totals">
      <thead><tr><th>${esc(t("Game"))}</th><th class="num">${esc(t("Games"))}</th><th class="num">${esc(t("Wins"))}</th>
        <th class="num">${esc(t("Mean score"))}</th><th class="num">${esc(t("Best score"))}</th></tr></thead>
      <tbody>${rows}</tbody></table>`;
}

function playsHtml(page) {
  return [...page.plays].reverse().map((p) => `
        <li class="${p.winner ? "won" : ""}" data-testid="player-play-${esc(p.id)}">
          <a class="playlink" href="${esc(gameHref(p.id))}" data-nav>
            <span class="adate">${esc(when(p.date))}</span>
            <b>${esc(gameLabel(p))}</b>
            <span>${esc(p.score === null ? "" : t("{score} points", { score: num(p.score) }))}</span>
            <span class="muted">${esc(placeWords(p.place, p.players))}</span>
            ${p.winner ? `<span class="badge won">${esc(t("Winner"))}</span>` : ""}
          </a>
        </li>`).join("");
}

function pageHtml(page) {
  const games = tn("{n} game", "{n} games", page.games);
  const wins = tn("{n} win", "{n} wins", page.wins);
  const label = t("{name}'s score in each game, oldest first", { name: page.name });
  return `
  <div class="archive">
    <section class="card" data-testid="player-page">
      <div class="row spread">
        <h2 data-testid="player-name">${esc(page.name)}</h2>
        <a class="btn small" href="/archive" data-nav data-testid="archive-back">${esc(t("Archive"))}</a>
      </div>
      <p class="lead" data-testid="player-summary">${esc(games)} · ${esc(wins)}</p>
      ${totalsHtml(page)}
      <h3>${esc(t("Score over time"))}</h3>
      <div class="chart-box"><canvas data-testid="player-chart" role="img"
        aria-label="${esc(label)}"></canvas></div>
    </section>
    <section class="card">
      <h2>${esc(t("{name}'s games", { name: page.name }))}</h2>
      <ul class="plays" data-testid="player-plays">${playsHtml(page)}</ul>
    </section>
  </div>`;
}

export function mountArchivePlayer(root, ctx, name) {
  const controller = new AbortController();
  const { signal } = controller;
  let chart = null;
  call(`/api/archive/players/${encodeURIComponent(name)}`).then(async (page) => {
    if (signal.aborted) return;
    root.innerHTML = pageHtml(page);
    const made = await drawScores(root.querySelector("canvas"), page.plays, ctx.go);
    if (signal.aborted) made.destroy();
    else chart = made;
  }).catch((err) => {
    if (signal.aborted) return;
    root.innerHTML = `<div class="archive"><section class="card">
      <p class="form-error" data-testid="archive-error">${errorLine(err)}</p>
      <a class="btn small" href="/archive" data-nav>${esc(t("Archive"))}</a></section></div>`;
  });
  return () => {
    controller.abort();
    if (chart) chart.destroy();
  };
}

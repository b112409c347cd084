// One archived game (/archive/<id>): its date, game and variant, where it comes from (a
// table of this hub, or an import), and its standings: place, player (a link to their page),
// score, the winners marked. With the admin PIN: download its record, or delete it from the
// archive (two taps). The hub's answer also holds the game's final public view and its own
// scores (GET /api/archive/<id>), which the replay board will draw from.

import { call } from "./api.js";
import { num, t } from "./i18n.js";
import { esc } from "./labels.js";
import {
  adminCall, adminDownload, errorLine, gameLabel, playerChip, when,
} from "./archive_shared.js";

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
      <thead><tr><th class="num">${esc(t("Place"))}</th><th>${esc(t("Player"))}</th><th class="num">${esc(t("Score"))}</th><th></th></tr></thead>
      <tbody>${rows}</tbody></table>`;
}

function pageHtml(game) {
  const source = game.source === "import" ? t("Imported into this hub's archive.")
    : t("Played at {name} on this hub.", { name: game.name || game.id });
  return `
  <div class="archive">
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
  </div>`;
}

export function mountArchiveGame(root, ctx, id) {
  const controller = new AbortController();
  const { signal } = controller;
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

  call(`/api/archive/${encodeURIComponent(id)}`).then((game) => {
    if (signal.aborted) return;
    root.innerHTML = pageHtml(game);
    root.addEventListener("click", onClick, { signal });
  }).catch((err) => {
    if (signal.aborted) return;
    root.innerHTML = `<div class="archive"><section class="card">
      <p class="form-error" data-testid="archive-error">${errorLine(err)}</p>
      <a class="btn small" href="/archive" data-nav>${esc(t("Archive"))}</a></section></div>`;
  });
  return () => controller.abort();
}

// Number Tokens' table screen, served by the hub from this package (/games/number-tokens/):
// whose turn it is, how many tokens each player has played (face down: never which), the
// alerts a tap raised, Undo with the table PIN, and the scores at the end. It imports the
// dashboard's shell by relative path (../../web/js/); its words are in this package's own catalogs.

import { call, tableCall } from "../../web/js/api.js";
import { alertText, errorText, t } from "../../web/js/i18n.js";
import { esc } from "../../web/js/labels.js";

function boardHtml(view) {
  const rows = view.names.map((name, seat) => `
      <li data-testid="nt-seat-${seat}"${seat === view.current && !view.over ? ' class="now"' : ""}>
        <b>${esc(name)}</b> <span data-testid="nt-played-${seat}">${esc(t("{n} of {rounds} tokens played", { n: view.played[seat], rounds: view.rounds }))}</span></li>`);
  const turn = view.over ? t("The game is over.") : t("{name} plays a token.", { name: view.names[view.current] });
  const scores = view.scores ? `<p data-testid="nt-winners">${esc(t("Winners: {names}", { names: view.scores.winners.join(", ") }))}</p>` : "";
  return `<p data-testid="nt-turn">${esc(turn)}</p><ol class="nt-seats">${rows.join("")}</ol>${scores}`;
}

export function mountTable(root, ctx, tableId) {
  let alive = true;
  const alerts = [];
  const url = `/api/tables/${encodeURIComponent(tableId)}`;
  root.innerHTML = `<section class="card" data-testid="nt-table">
      <h2>${esc(t("Number Tokens"))}</h2><div data-role="board"></div>
      <button type="button" class="btn" data-testid="undo">${esc(t("Undo"))}</button>
      <ul data-testid="nt-alerts"></ul></section>`;
  const draw = (view) => { root.querySelector('[data-role="board"]').innerHTML = boardHtml(view); };
  const drawAlerts = () => {
    root.querySelector('[data-testid="nt-alerts"]').innerHTML = alerts.map((a) => {
      const { message, fix } = alertText(a);
      return `<li data-testid="nt-alert" data-code="${esc(a.code)}">${esc(message)} ${esc(fix)}</li>`;
    }).join("");
  };
  call(url).then((table) => { if (alive) draw(table.view); })
    .catch((err) => { if (alive) root.innerHTML = `<div class="card" data-testid="table-error">${esc(errorText(err.code, err.params, err.message))}</div>`; });
  root.querySelector('[data-testid="undo"]').addEventListener("click", async () => {
    try {
      await tableCall(tableId, `${url}/undo`, { method: "POST", body: {} }, ctx.askPin, true);
      ctx.toast(t("The last move was taken back."), "ok");
    } catch (err) {
      ctx.toast(errorText(err.code, err.params, err.message), "error");
    }
  });
  ctx.socket.on("connect", () => ctx.socket.emit("join", { table: tableId }));
  ctx.socket.on("state", (data) => { if (alive && data.table === tableId) draw(data.view); });
  ctx.socket.on("alert", (data) => {
    if (alive && data.table === tableId) { alerts.push(data.alert); drawAlerts(); }
  });
  return () => { alive = false; };
}

// The screens of a game this page has no module for (a game installed as a plug-in without
// screens of its own): the table's public view and a seat's private view, drawn as the hub
// sends them, kept live by the same `state` pushes every table screen follows, and its
// replay board's positions drawn the same way. The table screen has what every table needs
// whatever its game: Undo (the last move, with the table PIN) and the PIN itself, typed
// once on this tablet (kept as every table screen keeps it) or forgotten.

import { call, savedPin, savePin, tableCall } from "./api.js";
import { alertText, errorText, t } from "./i18n.js";
import { esc } from "./labels.js";

/** A value of a view, in words: lists joined, objects as `key: value` pairs. */
function shown(value) {
  if (value === null || value === undefined) return "–";
  if (Array.isArray(value)) return value.map(shown).join(", ");
  if (typeof value === "object") {
    return Object.entries(value).map(([k, v]) => `${k}: ${shown(v)}`).join("; ");
  }
  return String(value);
}

/** A view as a definition list, one row per field. */
function viewHtml(view, testId) {
  const rows = Object.entries(view || {}).map(([key, value]) =>
    `<dt>${esc(key)}</dt><dd data-testid="${testId}-${esc(key)}">${esc(shown(value))}</dd>`);
  return `<dl class="generic-view" data-testid="${testId}">${rows.join("")}</dl>`;
}

/** Undo and the PIN: what a table of any game offers. */
function controlsHtml(tableId) {
  const saved = Boolean(savedPin(tableId));
  return `<div class="row" data-testid="generic-controls">
        <button type="button" class="btn" data-act="undo" data-testid="undo">${esc(t("Undo"))}</button>
        <button type="button" class="btn" data-act="pin" data-testid="generic-pin" aria-pressed="${saved}">${esc(saved ? t("Forget the table PIN") : t("Enter the table PIN"))}</button>
      </div>`;
}

/** The controls' clicks: Undo sends the PIN (asked when this tablet has none); the PIN
 * button asks for it and keeps it, or forgets the one kept. */
function controls(root, ctx, tableId, redraw) {
  async function undo() {
    try {
      await tableCall(tableId, `/api/tables/${encodeURIComponent(tableId)}/undo`, { method: "POST", body: {} }, ctx.askPin, true);
      ctx.toast(t("The last move was taken back."), "ok");
    } catch (err) {
      ctx.toast(errorText(err.code, err.params, err.message), "error");
    }
  }
  async function pin() {
    if (savedPin(tableId)) {
      savePin(tableId, null);
    } else {
      const typed = await ctx.askPin(t("Table PIN:"));
      if (typed) savePin(tableId, typed);
    }
    redraw();
  }
  return (event) => {
    const act = event.target.closest("button[data-act]");
    if (act && act.dataset.act === "undo") undo();
    if (act && act.dataset.act === "pin") pin();
  };
}

/** A table of any game: its title and players, Undo and the PIN, then its public view and
 * alerts. */
export function mountTable(root, ctx, tableId) {
  let alive = true;
  const alerts = [];
  let view = null;
  function draw(info, shown) {
    view = shown;
    root.innerHTML = `<section class="card" data-testid="generic-table">
      <h2>${esc(info.name || tableId)} · ${esc(info.game || "")}</h2>
      <p data-testid="generic-players">${esc((info.players || []).join(" · "))}</p>
      ${controlsHtml(tableId)}
      ${viewHtml(shown, "generic-view")}
      <ul data-testid="generic-alerts">${alerts.map((a) => `<li>${esc(alertText(a))}</li>`).join("")}</ul>
    </section>`;
  }
  const clicks = new AbortController();
  root.addEventListener("click", controls(root, ctx, tableId, () => draw(info, view)), { signal: clicks.signal });
  let info = {};
  call(`/api/tables/${encodeURIComponent(tableId)}`).then((table) => {
    if (!alive) return;
    info = table;
    draw(info, table.view);
  }).catch((err) => {
    if (alive) root.innerHTML = `<div class="card" data-testid="table-error">${esc(errorText(err.code, err.params, err.message))}</div>`;
  });
  ctx.socket.on("connect", () => ctx.socket.emit("join", { table: tableId }));
  ctx.socket.on("state", (data) => {
    if (alive && data.table === tableId) {
      window.popcornEvents = data.events;
      draw(info, data.view);
    }
  });
  ctx.socket.on("alert", (data) => {
    if (alive && data.table === tableId) alerts.push(data.alert);
  });
  return () => { alive = false; clicks.abort(); };
}

/** A seat's phone for a game of any kind: its private view, with the seat's token. */
export function mountPhone(root, ctx, tableId, seat) {
  let alive = true;
  const token = new URLSearchParams(location.hash.slice(1)).get("token") || "";
  const path = `/api/tables/${encodeURIComponent(tableId)}/players/${seat}/private`;
  function load() {
    call(path, { token }).then((view) => {
      if (alive) root.innerHTML = `<section class="card">${viewHtml(view, "generic-private")}</section>`;
    }).catch((err) => {
      if (alive) root.innerHTML = `<div class="card" data-testid="phone-error">${esc(errorText(err.code, err.params, err.message))}</div>`;
    });
  }
  load();
  ctx.socket.on("connect", () => ctx.socket.emit("join", { table: tableId }));
  ctx.socket.on("state", (data) => { if (alive && data.table === tableId) load(); });
  return () => { alive = false; };
}

/** The replay board of a game without screens of its own (../replay.js): each position's
 * view as it comes, and each move as its fields. */
export function replayScreen() {
  return {
    boardHtml: (view) => viewHtml(view, "generic-view"),
    moveWords: (step) => shown(step),
    movesWords: (moves) => moves.map(shown).join("; "),
  };
}

// The list of the tables this hub holds, newest first and closed ones last: each with its
// players and their readers, its state (playing, game over, closed), Open, and Close table.
// Closing takes two clicks ("Close table", then "Close it" in the confirmation that opens
// under the table) and the table PIN (asked for if this device does not know it); a closed
// table's readers are free again. Refresh reloads the hub's lists; Archive opens the archive
// of finished games.

import { t, tn } from "./i18n.js";
import { ApiError, tableCall } from "./api.js";
import { esc } from "./labels.js";
import { errorHtml, testIds } from "./setup_shared.js";

/** The panel's markup, in this device's language. */
export function tablesHtml() {
  return `<section class="card">
        <div class="row spread"><h2>${esc(t("Tables"))}</h2>
          <span class="row">
            <a class="btn small" href="/archive" data-nav data-testid="open-archive">${esc(t("Archive"))}</a>
            <button type="button" class="btn small" data-testid="refresh-tables">${esc(t("Refresh"))}</button></span></div>
        <div data-testid="tables-list" class="tables-list"><p class="muted">${esc(t("Loading…"))}</p></div>
      </section>`;
}

/** The question under a table whose "Close table" was clicked. */
function confirmHtml(table) {
  return `
        <div class="confirm" data-testid="confirm-close-box-${esc(table.id)}">
          <span>${esc(t("Close {name} for good? Its readers are freed; the game can still be read.", { name: table.name }))}</span>
          <span class="row">
            <button type="button" class="btn danger small" data-testid="confirm-close-${esc(table.id)}"
              data-confirm="${esc(table.id)}">${esc(t("Close it"))}</button>
            <button type="button" class="btn small" data-cancel="${esc(table.id)}">${esc(t("Cancel"))}</button>
          </span>
        </div>`;
}

function playersHtml(table) {
  return table.players.map((name, k) =>
    `<span class="pr">${esc(name)} <small>(${esc(table.readers[k] ?? "?")})</small></span>`).join(", ");
}

function tableHtml(table, confirming) {
  const status = table.closed ? t("closed") : table.over ? t("game over") : t("playing");
  const cls = table.closed ? "closed" : table.over ? "over" : "live";
  const events = tn("{n} event", "{n} events", table.events);
  const variant = (table.options || {}).variant === "hidden" ? t("Hidden Team") : t("Standard game");
  const deal = table.game === "b-movies" ? `${t("B Movies")} (${variant})`
    : table.deal_for_us ? t("deal for us") : t("manual deal");
  const words = { open: t("Open"), close: t("Close table") };
  return tableItemHtml(table, confirming, { status, cls, events, deal, words });
}

// `t` here is the table (the words come translated in the last argument)
function tableItemHtml(t, confirming, { status, cls, events, deal, words }) {
  return `
        <li class="tbl ${cls}" data-testid="table-${esc(t.id)}">
          <div class="tmain">
            <div class="tname"><b>${esc(t.name)}</b> <span class="badge ${cls}">${status}</span></div>
            <div class="muted meta">${playersHtml(t)}
              · ${esc(events)} · ${esc(deal)}</div>
          </div>
          <div class="tbtns">
            <button type="button" class="btn small primary" data-open="${esc(t.id)}"
              data-testid="open-table-${esc(t.id)}">${esc(words.open)}</button>
            <button type="button" class="btn small" data-close="${esc(t.id)}"
              data-testid="close-table-${esc(t.id)}" ${t.closed ? "disabled" : ""}>${esc(words.close)}</button>
          </div>
          ${confirming ? confirmHtml(t) : ""}
        </li>`;
}

export function tablesPanel(root, ctx, shared) {
  const tid = testIds(root);
  const list = tid("tables-list");
  let confirming = null; // the table id whose "Close table" waits for a confirmation
  let shownKey = "";     // the last list drawn (an identical one is not redrawn)

  /** Draw `shared.tables`, unless it (and the confirmation) is what is shown already. */
  function render() {
    const key = JSON.stringify([shared.tables, confirming]);
    if (key === shownKey) return;
    shownKey = key;
    if (!shared.tables.length) {
      list.innerHTML = `<p class="muted">${esc(t("No table yet: create one."))}</p>`;
      return;
    }
    const order = [...shared.tables].reverse().sort((a, b) => a.closed - b.closed);
    list.innerHTML = `<ul class="tables">${order.map((table) => tableHtml(table, confirming === table.id)).join("")}</ul>`;
  }

  /** The list could not be loaded (shown only while no list has been). */
  function showError(err) {
    list.innerHTML = `<p class="form-error">${errorHtml(err)}</p>`;
  }

  function askToClose(id) {
    confirming = id;
    render();
  }

  /** "Close it": POST the close (with the table PIN), then reload the tables and readers. */
  async function closeTable(btn) {
    const id = btn.dataset.confirm;
    btn.disabled = true;
    try {
      await tableCall(id, `/api/tables/${id}/close`, { method: "POST", body: {} }, ctx.askPin, true);
      const table = shared.tables.find((x) => x.id === id);
      ctx.toast(t("{name} is closed.", { name: table ? table.name : id }), "ok");
      confirming = null;
    } catch (err) {
      ctx.toast(err instanceof ApiError ? err.message : String(err), "error");
      btn.disabled = false;
    }
    await shared.reload.tables();
    shared.reload.readers();
  }

  async function onClick(event) {
    const btn = event.target.closest("button");
    if (!btn) return;
    if (btn.dataset.open) ctx.go(`/table/${btn.dataset.open}`);
    else if (btn.dataset.close) askToClose(btn.dataset.close);
    else if (btn.dataset.cancel) askToClose(null);
    else if (btn.dataset.confirm) await closeTable(btn);
  }

  function refreshAll() {
    shared.reload.tables();
    shared.reload.readers();
    shared.reload.counts();
  }

  list.addEventListener("click", onClick, { signal: shared.signal });
  tid("refresh-tables").addEventListener("click", refreshAll, { signal: shared.signal });
  return { render, showError };
}

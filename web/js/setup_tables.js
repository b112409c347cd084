// The list of the tables this hub holds, newest first and closed ones last: each with its
// players and their readers, its state (playing, game over, closed), Open, and Close table.
// Closing takes two clicks ("Close table", then "Close it" in the confirmation that opens
// under the table) and the table PIN (asked for if this device does not know it); a closed
// table's readers are free again. Refresh reloads the hub's lists.

import { ApiError, tableCall } from "./api.js";
import { esc } from "./labels.js";
import { errorHtml, testIds } from "./setup_shared.js";

export const TABLES_HTML = `<section class="card">
        <div class="row spread"><h2>Tables</h2>
          <button type="button" class="btn small" data-testid="refresh-tables">Refresh</button></div>
        <div data-testid="tables-list" class="tables-list"><p class="muted">Loading…</p></div>
      </section>`;

/** The question under a table whose "Close table" was clicked. */
function confirmHtml(t) {
  return `
        <div class="confirm" data-testid="confirm-close-box-${esc(t.id)}">
          <span>Close <b>${esc(t.name)}</b> for good? Its readers are freed; the game can still be read.</span>
          <span class="row">
            <button type="button" class="btn danger small" data-testid="confirm-close-${esc(t.id)}"
              data-confirm="${esc(t.id)}">Close it</button>
            <button type="button" class="btn small" data-cancel="${esc(t.id)}">Cancel</button>
          </span>
        </div>`;
}

function playersHtml(t) {
  return t.players.map((name, k) =>
    `<span class="pr">${esc(name)} <small>(${esc(t.readers[k] ?? "?")})</small></span>`).join(", ");
}

function tableHtml(t, confirming) {
  const status = t.closed ? "closed" : t.over ? "game over" : "playing";
  const cls = t.closed ? "closed" : t.over ? "over" : "live";
  return `
        <li class="tbl ${cls}" data-testid="table-${esc(t.id)}">
          <div class="tmain">
            <div class="tname"><b>${esc(t.name)}</b> <span class="badge ${cls}">${status}</span></div>
            <div class="muted meta">${playersHtml(t)}
              · ${t.events} events · ${t.deal_for_us ? "deal for us" : "manual deal"}</div>
          </div>
          <div class="tbtns">
            <button type="button" class="btn small primary" data-open="${esc(t.id)}"
              data-testid="open-table-${esc(t.id)}">Open</button>
            <button type="button" class="btn small" data-close="${esc(t.id)}"
              data-testid="close-table-${esc(t.id)}" ${t.closed ? "disabled" : ""}>Close table</button>
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
      list.innerHTML = `<p class="muted">No table yet: create one.</p>`;
      return;
    }
    const order = [...shared.tables].reverse().sort((a, b) => a.closed - b.closed);
    list.innerHTML = `<ul class="tables">${order.map((t) => tableHtml(t, confirming === t.id)).join("")}</ul>`;
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
      await tableCall(id, `/api/tables/${id}/close`, { method: "POST", body: {} }, ctx.askPin);
      const t = shared.tables.find((x) => x.id === id);
      ctx.toast(`${t ? t.name : id} is closed.`, "ok");
      confirming = null;
    } catch (err) {
      ctx.toast(err instanceof ApiError ? `${err.code}: ${err.message}` : String(err), "error");
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

// A player row's bag reader, for the new-table form. A reader is free when it is bound to no
// table, or to one that is over or closed. A row nobody has touched gets the best free reader
// (online first, then by name); its list shows every reader with its state, and a small word
// beside it says how the chosen one stands: online, offline, in use, new or no reader.
// Pure functions of a row and the hub's lists (`hub` is the shared {readers, tables}).

import { t } from "./i18n.js";
import { esc } from "./labels.js";

/** The value of the list's "Type a reader id…" option. */
export const OTHER = "__other__";

/** The reader id a row names: picked from the list, or typed. */
export function rowReader(row) {
  return row.other ? row.otherId.trim() : row.reader;
}

function readerFree(r, { tables }) {
  if (r.table === null || r.table === undefined) return true;
  const table = tables.find((x) => x.id === r.table);
  return Boolean(table && (table.over || table.closed));
}

function readerNote(r, hub) {
  const bits = [r.online ? t("online") : t("offline")];
  if (!readerFree(r, hub)) {
    const table = hub.tables.find((x) => x.id === r.table);
    bits.push(t("in use: {table}", { table: table ? table.name : r.table }));
  }
  return bits.join(", ");
}

/** Give every untouched row without a reader the best free one no other row uses. */
export function autoAssign(rows, hub) {
  const used = new Set(rows.map(rowReader).filter(Boolean));
  const free = hub.readers.filter((r) => readerFree(r, hub) && !used.has(r.reader))
    .sort((a, b) => (b.online - a.online) || a.reader.localeCompare(b.reader, undefined, { numeric: true }));
  for (const row of rows) {
    if (row.touched || row.other || row.reader) continue;
    const pick = free.shift();
    if (!pick) break;
    row.reader = pick.reader;
  }
}

/** The <option>s of a row's reader list. */
export function readerOptions(row, hub) {
  const known = hub.readers.map((r) => r.reader);
  let html = `<option value="">${esc(t("— choose a reader —"))}</option>`;
  for (const r of hub.readers) {
    const sel = !row.other && row.reader === r.reader ? " selected" : "";
    html += `<option value="${esc(r.reader)}"${sel}>${r.online ? "● " : "○ "}${esc(r.reader)} (${esc(readerNote(r, hub))})</option>`;
  }
  if (!row.other && row.reader && !known.includes(row.reader)) {
    html += `<option value="${esc(row.reader)}" selected>${esc(row.reader)} (${esc(t("new"))})</option>`;
  }
  html += `<option value="${OTHER}"${row.other ? " selected" : ""}>${esc(t("Type a reader id…"))}</option>`;
  return html;
}

/** The state word beside a row's reader list. */
export function readerState(row, hub) {
  const id = rowReader(row);
  if (!id) return `<span class="rstate none">${esc(t("no reader"))}</span>`;
  const r = hub.readers.find((x) => x.reader === id);
  const unheard = t("The hub has not heard from this reader yet; creating the table makes it trust it.");
  if (!r) return `<span class="rstate new" title="${esc(unheard)}">${esc(t("new"))}</span>`;
  if (!readerFree(r, hub)) return `<span class="rstate busy">${esc(t("in use"))}</span>`;
  return r.online ? `<span class="rstate on">${esc(t("online"))}</span>` : `<span class="rstate off">${esc(t("offline"))}</span>`;
}

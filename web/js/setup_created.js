// The panel that replaces the new-table form once the hub has created a table: on top, its
// name with "Open the table" and "Set up another table" (`onAnother`); the table PIN (shown
// only once; api.js already saved it on this device); then the phone links as a grid, one
// card per player: the QR code drawn by the hub (phone_qr.js) with the player's name under
// it (the only place the name shows), and the link as one line of text with a Copy button
// (with no clipboard, outside a secure context, the link is selected for a manual copy
// instead). No toast covers it: the heading already says the table is ready.

import { t } from "./i18n.js";
import { esc } from "./labels.js";
import { qrFigure } from "./phone_qr.js";
import { testIds } from "./setup_shared.js";

function linkHtml(table, player, k) {
  const path = `/phone/${encodeURIComponent(table.id)}/${k}#token=${encodeURIComponent(table.tokens[k])}`;
  const phone = (table.phones || [])[k];
  const url = phone ? phone.url : location.origin + path; // the QR code's link, as the hub made it
  const first = k === table.first_player ? `<span class="badge">${esc(t("first player"))}</span>` : "";
  // the QR code's caption names the player; without a code (no SVG), the name stands alone
  const who = phone ? qrFigure(phone) : `<b class="who">${esc(player)}</b>`;
  return `
        <li data-testid="phone-card-${k}">
          ${who}${first}
          <div class="linkrow">
            <a class="phonelink" data-testid="phone-link-${k}" href="${esc(path)}" target="_blank"
              rel="noopener" title="${esc(url)}">${esc(url)}</a>
            <button type="button" class="btn small" data-copy="${esc(url)}">${esc(t("Copy"))}</button>
          </div>
        </li>`;
}

/** What the phone links are for, in this table's game. */
function phonesNote(table) {
  if (table.game === "b-movies") {
    return t("Each player scans their own QR code (or opens their link) on their phone: it holds their vote cards and their secret Popcorn tokens. “Phones” on the table screen shows a link again.");
  }
  return t("Each player scans their own QR code (or opens their link) on their phone to see and choose their secret awards. “Phones” on the table screen shows a link again.");
}

function createdHtml(table) {
  const links = table.players.map((player, k) => linkHtml(table, player, k)).join("");
  return `
      <div class="created-head">
        <h2>${esc(t("{name} is ready", { name: table.name }))}</h2>
        <div class="row">
          <button type="button" class="btn primary big" data-testid="open-table">${esc(t("Open the table"))}</button>
          <button type="button" class="btn" data-testid="another-table">${esc(t("Set up another table"))}</button>
        </div>
      </div>
      <div class="pinbox">
        <div class="pinlabel">${esc(t("Table PIN"))}</div>
        <div class="pin" data-testid="created-pin">${esc(table.pin)}</div>
        <p><b>${esc(t("Shown only once: write it down."))}</b> ${esc(t("Undo, corrections and closing the table need it. This tablet remembers it."))}</p>
      </div>
      <h3>${esc(t("Phone links"))}</h3>
      <p class="muted lead">${esc(phonesNote(table))}</p>
      <ol class="links" data-testid="phone-links">${links}</ol>`;
}

export function createdPanel(root, ctx, shared, onAnother) {
  const tid = testIds(root);
  const box = tid("created");

  /** Show a table the hub has just created (its answer to POST /api/tables), form hidden. */
  function show(table) {
    box.innerHTML = createdHtml(table);
    box.hidden = false;
    tid("new-table-panel").hidden = true;
    const { signal } = shared;
    tid("open-table").addEventListener("click", () => ctx.go(`/table/${table.id}`), { signal });
    tid("another-table").addEventListener("click", onAnother, { signal });
    box.scrollIntoView({ block: "start" });
  }

  /** Empty the panel and show the form again. */
  function hide() {
    box.hidden = true;
    box.innerHTML = "";
    tid("new-table-panel").hidden = false;
  }

  async function copyLink(event) {
    const btn = event.target.closest("button[data-copy]");
    if (!btn) return;
    try {
      await navigator.clipboard.writeText(btn.dataset.copy);
      ctx.toast(t("Link copied."), "ok");
    } catch {
      selectLink(btn.parentElement.querySelector("a"));
      ctx.toast(t("Link selected: copy it from the menu."), "info");
    }
  }

  root.addEventListener("click", copyLink, { signal: shared.signal });
  return { show, hide };
}

/** Select a link's text, for a copy from the browser's menu. */
function selectLink(a) {
  const range = document.createRange();
  range.selectNodeContents(a);
  const sel = window.getSelection();
  sel.removeAllRanges();
  sel.addRange(range);
}

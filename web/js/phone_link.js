// What every game's phone screen shares: the player's link. The token comes from the link's
// fragment (#token=..., which a browser never sends), and is kept in localStorage once the hub
// has accepted it, so a reload without it still works. `PhoneLink` checks the link, joins the
// seat's private room and the table's public one, hands each push to the screen, and replaces
// the whole screen with an error when the hub refuses the link (nothing private stays shown).

import { ApiError, call } from "./api.js";
import { t } from "./i18n.js";
import { esc } from "./labels.js";

function tokenKey(tableId, seat) {
  return `popcorn:token:${tableId}:${seat}`;
}

/** The token in the address fragment (#token=...), or null. */
function fragmentToken() {
  const params = new URLSearchParams(location.hash.replace(/^#/, ""));
  const token = params.get("token");
  return token ? token.trim() : null;
}

export class PhoneLink {
  /** The link of `seat` at `tableId`, shown in `root` (which holds the screen's
   * `[data-role="main"]` and an empty `[data-testid="phone-error"]`). */
  constructor(root, tableId, seat) {
    Object.assign(this, { root, tableId, seat, alive: true, failed: false });
    this.seatText = Number.isInteger(seat) ? String(seat + 1) : "?";
    this.token = fragmentToken();
    this.fromStorage = false;
    if (!this.token) {
      this.token = localStorage.getItem(tokenKey(tableId, seat));
      this.fromStorage = Boolean(this.token);
    }
    this.onFail = () => {};
  }

  /** Replace the whole screen with an error (once). */
  fail(title, text) {
    if (this.failed) return;
    this.failed = true;
    this.onFail();
    this.root.querySelector('[data-role="main"]').remove();
    const box = this.root.querySelector('[data-testid="phone-error"]');
    box.innerHTML = `
      <div class="ph-error-icon" aria-hidden="true">!</div>
      <h2>${esc(title)}</h2>
      <p>${esc(text)}</p>
      <p class="ph-muted">${esc(t("Table {table}, seat {n}", { table: this.tableId, n: this.seatText }))}</p>`;
    box.hidden = false;
  }

  /** Whether the address has a seat and a token; if not, the screen says what is wrong. */
  usable() {
    if (!Number.isInteger(this.seat) || this.seat < 0) {
      this.fail(t("This phone link is broken"), t("The address has no seat number. Open the link from the table's setup screen again."));
      return false;
    }
    if (!this.token) {
      this.fail(t("This phone has no player link"), t("Open your own phone link (it has #token=… at the end); the table showed one per player when it was created."));
      return false;
    }
    return true;
  }

  noTable() {
    this.fail(t("No such table"), t("This hub has no table with this link's id. Was the link copied whole?"));
  }

  /** Join the rooms and follow the table: `onPrivate(view)` for this seat's pushes (the
   * token is kept once the first one arrives), `onState(view, events)` for the public ones,
   * `onInfo(info)` for the table as first read over HTTP. Once the first private view is
   * drawn, `window.popcornPhoneLoaded` is "<table>/<seat>". */
  wire(socket, { onPrivate, onState, onInfo }) {
    const { tableId, seat } = this;
    socket.on("connect", () => {
      if (this.failed) return;
      socket.emit("join_private", { table: tableId, player: seat, token: this.token });
      socket.emit("join", { table: tableId });
    });
    socket.on("private", (data) => {
      if (this.failed || !data || data.table !== tableId || !data.view) return;
      if ((data.view.seat ?? data.view.player) !== seat) return;
      localStorage.setItem(tokenKey(tableId, seat), this.token);
      onPrivate(data.view);
      window.popcornPhoneLoaded = `${tableId}/${seat}`; // drawn: tests and bench/page.py wait on it
    });
    socket.on("state", (data) => {
      if (this.failed || !data || data.table !== tableId || !data.view) return;
      onState(data.view, data.events);
    });
    socket.on("error", (data) => {
      if (this.failed || !data) return;
      if (data.code === "WRONG_TOKEN") {
        if (this.fromStorage) localStorage.removeItem(tokenKey(tableId, seat));
        this.fail(t("This link is not this player's phone link"),
          t("The hub did not accept this link for this seat, or it was replaced by a new one. Ask the table for your own QR code: the tablet shows it under Phones."));
      } else if (data.code === "TABLE_NOT_FOUND") {
        this.noTable();
      }
    });
    call(`/api/tables/${encodeURIComponent(tableId)}`).then((info) => {
      if (this.alive && !this.failed) onInfo(info);
    }).catch((err) => {
      if (this.alive && !this.failed && err instanceof ApiError && err.code === "TABLE_NOT_FOUND") this.noTable();
    });
  }
}

// A table's open alerts, the same on every device: the hub lists them (GET
// /api/tables/<id>, `alerts`, each with its `id`), pushes each new one (`alert`) and each one
// handled (`handled`: dismissed on some device, or fixed by a correction). Dismiss here is
// the table's: the hub logs it and no device shows that alert again, after a reload or a
// restart either. An alert is no move, so nothing here takes a move back. Both games' table
// screens draw these as banners.

import { ApiError, call } from "./api.js";
import { alertText, t, tn } from "./i18n.js";
import { esc } from "./labels.js";

/** How many alerts the banner strip shows at once (the latest). */
export const SHOWN = 3;

/**
 * The banner strip: the newest alert, and under it, on request, the earlier ones, floating
 * over the board so that opening them never pushes the cinemas off the screen. `open`: the
 * alerts shown, oldest first; `expanded`: whether the earlier ones are open (the screen keeps
 * it, its `alerts-open` button toggles it); `banner(alert, extra)`: a game's banner for one
 * alert, with `extra` (the toggle's button, on the newest) before its own buttons.
 */
export function alertStripHtml(open, expanded, banner) {
  if (!open.length) return "";
  const earlier = open.slice(0, -1).reverse(); // newest first under the newest
  const label = expanded ? t("Latest only") : tn("{n} more", "{n} more", earlier.length);
  const toggle = earlier.length ? `<button class="btn small" data-act="alerts-open" data-testid="alerts-open"
    aria-expanded="${expanded}">${esc(label)}</button>` : "";
  const more = expanded && earlier.length
    ? `<div class="alerts-more" data-testid="alerts-more">${earlier.map((a) => banner(a, "")).join("")}</div>` : "";
  return banner(open[open.length - 1], toggle) + more;
}

/**
 * One alert as a banner: `who` (the tapping player's name, or ""), its message and fix in
 * this device's language, then `more` (the strip's toggle), the game's own `buttons` and
 * Dismiss; `before`: what stands in front (Popcorn's pawn).
 */
export function alertBannerHtml(alert, who, { before = "", more = "", buttons = "" } = {}) {
  const text = alertText(alert);
  const message = who ? t("{name}: {alert}", { name: who, alert: text.message }) : text.message;
  return `<div class="banner alert" data-testid="alert" data-code="${esc(alert.code)}" data-alert="${alert.id}">
    ${before}<div class="grow"><div>${esc(message)}</div><div class="fix">${esc(text.fix || "")}</div></div>${more}${buttons}
    <button class="btn small" data-act="dismiss" data-alert="${alert.id}" data-testid="alert-dismiss">${esc(t("Dismiss"))}</button></div>`;
}

export class TableAlerts {
  /** Keep `tableId`'s open alerts in step with the hub; `changed()` redraws the banners. */
  constructor(ctx, tableId, changed) {
    Object.assign(this, { ctx, id: tableId, changed });
    this.list = [];
    this.handled = new Set(); // ids handled while this screen is up: never shown again
    this.loaded = false;
    ctx.socket.on("alert", (data) => data.table === tableId && this.add(data.alert));
    ctx.socket.on("handled", (data) => data.table === tableId && this.drop(data.alert));
    // A screen (re)joining the table's room may have missed pushes: read the list again once
    // the hub has it in the room, which the first `state` push after the join says (the hub
    // sends it right after the join, and one after every tap).
    ctx.socket.on("connect", () => { this.joining = true; });
    ctx.socket.on("state", (data) => {
      if (data.table !== tableId || !this.joining || !this.loaded) return;
      this.joining = false;
      this.refresh();
    });
  }

  /** The alerts to show, oldest first (the latest `SHOWN`: the newest as a banner, the
   * others on request). */
  shown() {
    return this.list.slice(-SHOWN);
  }

  /** Take the hub's list, as GET /api/tables/<id> answered it when its log held `events`
   * events: an alert pushed since (a higher id) stays, one handled since stays out. */
  take(stored, events) {
    const newer = this.list.filter((a) => a.id > events);
    this.list = [...(stored || []).filter((a) => !this.handled.has(a.id)), ...newer]
      .sort((a, b) => a.id - b.id);
    this.loaded = true;
    this.changed();
  }

  async refresh() {
    try {
      const table = await call(`/api/tables/${encodeURIComponent(this.id)}`);
      this.take(table.alerts, table.events);
    } catch {
      // the table screen shows its own error; the banners stay as they were
    }
  }

  add(alert) {
    if (this.handled.has(alert.id) || this.list.some((a) => a.id === alert.id)) return;
    this.list.push(alert);
    this.changed();
  }

  drop(id) {
    this.handled.add(id);
    const before = this.list.length;
    this.list = this.list.filter((a) => a.id !== id);
    if (this.list.length !== before) this.changed();
  }

  byId(id) {
    return this.list.find((a) => a.id === id);
  }

  /** Dismiss an alert for every device (no PIN: like a move, anyone at the tablet). One
   * another device handled already is gone here too. */
  async dismiss(id) {
    try {
      await call(`/api/tables/${encodeURIComponent(this.id)}/alerts/${id}/dismiss`, { method: "POST", body: {} });
    } catch (err) {
      if (!(err instanceof ApiError && err.code === "ALERT_NOT_FOUND")) {
        this.ctx.toast(err instanceof ApiError ? err.message : String(err), "error");
        return;
      }
    }
    this.drop(id);
  }
}

// The correction dialog: the table tells the companion where a guest really is (docs/api.md,
// POST /api/tables/<id>/correct, with the table PIN; logged as a `correct` event that Undo
// takes back).
//
// Which guest: a color (its disc and letter, never a number: no pawn carries one) and where
// the companion has such a guest now (the public view's counts), or the pawn itself, tapped
// on any reader of the table ("Tap it on a reader": the hub's `identify` holds the next tap
// for this dialog instead of playing it). Then where it really is (a bag, an exit zone, the
// reserve, the box), then **Correct**: one tap. A banner whose fix is a correction opens the
// dialog with the alert's `correct` filled in, and the correction then handles that alert for
// every device.

import { ApiError, call, savedPin, tableCall } from "../../web/js/api.js";
import { t } from "../../web/js/i18n.js";
import { COLORS, esc, guestName, pawnHtml } from "../../web/js/labels.js";

/** A place a correction names, in words: "Ana's bag", "the reserve". `owner` is a name. */
function placeText(zone, owner) {
  if (zone === "box") return t("the box");
  if (zone === "reserve") return t("the reserve");
  if (zone === "bag") return t("{owner}'s bag", { owner });
  return t("{owner}'s exit zone", { owner });
}

/** Every place a correction can name, in the dialog's order: each player's bag and exit
 * zone, the reserve, the box; `{zone, player}` (player undefined for the last two). */
function places(view) {
  const out = [];
  view.names.forEach((_, p) => out.push({ zone: "bag", player: p }, { zone: "exit", player: p }));
  return [...out, { zone: "reserve" }, { zone: "box" }];
}

/** How many guests of `color` the companion has at `place`, from the public view (the box:
 * the color's pawns the view shows nowhere else). */
function countAt(view, catalog, color, place) {
  if (place.zone === "bag" || place.zone === "exit") return view.cinemas[place.player][place.zone][color] || 0;
  if (place.zone === "reserve") return view.reserve[color] || 0;
  let shown = view.reserve[color] || 0;
  for (const c of view.cinemas) {
    shown += (c.bag[color] || 0) + (c.exit[color] || 0) + c.hand.filter((h) => h.color === color).length;
    for (const slot of c.slots) shown += slot.seats.filter((g) => g && g.color === color).length;
  }
  return catalog.pawns.filter((c) => c === color).length - shown;
}

const samePlace = (a, b) => Boolean(a && b) && a.zone === b.zone && a.player === b.player;

export class Correction {
  /** The dialog of the table `tableId`; `view()` gives the public view drawn now. */
  constructor(ctx, tableId, view) {
    Object.assign(this, { ctx, id: tableId, view });
    this.dialog = null;
    ctx.socket.on("identify", (data) => data.table === tableId && this.identified(data));
  }

  /** Open the dialog, empty, or filled in from an alert whose fix is a correction. */
  open(alert) {
    if (!this.view()) return;
    const fix = alert && alert.correct;
    this.state = {
      pawn: fix ? fix.pawn : null, color: null, from: null,
      to: fix ? { zone: fix.zone, player: fix.player } : null,
      alert: fix ? alert : null,
      where: fix && alert.params ? placeText(alert.params.zone, alert.params.owner) : "",
      note: "", error: "", waiting: false,
    };
    this.box().showModal();
    this.render();
  }

  box() {
    if (!this.dialog) {
      this.dialog = document.createElement("dialog");
      this.dialog.id = "fix-dialog";
      this.dialog.dataset.testid = "fix-dialog";
      this.dialog.onclick = (event) => this.click(event);
      this.dialog.onclose = () => this.closed();
      document.body.append(this.dialog);
    }
    return this.dialog;
  }

  /** Redraw after a `state` push (the counts change), if open. */
  refresh() {
    if (this.dialog && this.dialog.open) this.render();
  }

  close() {
    if (this.dialog && this.dialog.open) this.dialog.close();
  }

  /** Closed (Cancel, Escape, done): a tap still awaited is played again. */
  closed() {
    if (this.state && this.state.waiting) {
      this.state.waiting = false;
      call(`/api/tables/${encodeURIComponent(this.id)}/identify`,
        { method: "POST", body: { on: false }, pin: savedPin(this.id) }).catch(() => {});
    }
  }

  color() {
    const s = this.state;
    return s.pawn !== null ? this.ctx.catalog.pawns[s.pawn] : s.color;
  }

  ready() {
    const s = this.state;
    const guest = s.pawn !== null || (s.color && s.from);
    return Boolean(guest && s.to && !samePlace(s.from, s.to));
  }

  render() {
    const v = this.view();
    const s = this.state;
    const name = (place) => placeText(place.zone, v.names[place.player]);
    let guest;
    if (s.pawn !== null) {
      const color = this.color();
      guest = `<p class="fix-guest" data-testid="fix-guest" data-pawn="${s.pawn}">${pawnHtml(s.pawn, color)}
          <b>${esc(guestName(color))}</b>${s.where ? ` <span class="muted">${esc(t("the companion has it in {place}", { place: s.where }))}</span>` : ""}</p>`;
    } else {
      const colors = COLORS.map((c) => `<button type="button" class="btn fix-color${s.color === c ? " selected" : ""}"
          data-fix="color" data-color="${c}" data-testid="fix-color-${c}" aria-pressed="${s.color === c}">${pawnHtml(null, c)} ${esc(guestName(c))}</button>`).join("");
      guest = `<div class="row fix-colors">${colors}</div>${s.color ? this.fromHtml(v, name) : ""}`;
    }
    const other = s.pawn !== null
      ? `<button type="button" class="btn small" data-fix="other" data-testid="fix-other">${esc(t("Another guest"))}</button>` : "";
    const tap = s.waiting
      ? `<p class="fix-wait" data-testid="fix-waiting">${esc(t("Waiting for a tap on a reader…"))}</p>`
      : `<div class="row">${other}<button type="button" class="btn small" data-fix="tap" data-testid="fix-tap">${esc(t("Tap it on a reader"))}</button></div>`;
    const to = places(v).map((p) => `<button type="button" class="btn small${samePlace(s.to, p) ? " selected" : ""}"
        data-fix="to" data-zone="${p.zone}" data-player="${p.player ?? ""}" data-testid="fix-to-${p.zone}${p.player ?? ""}"
        aria-pressed="${samePlace(s.to, p)}"${samePlace(s.from, p) ? " disabled" : ""}>${esc(name(p))}</button>`).join("");
    this.dialog.innerHTML = `<h2>${esc(t("Correct a guest's place"))}</h2>
      <p class="muted">${esc(t("Tell the companion where a guest really is. The table PIN is needed."))}</p>
      <h3>${esc(t("Which guest?"))}</h3>${guest}${tap}
      ${s.note ? `<p class="muted" data-testid="fix-note">${esc(s.note)}</p>` : ""}
      <h3>${esc(t("Where is it really?"))}</h3><div class="row fix-places">${to}</div>
      ${s.error ? `<p class="form-error" data-testid="fix-error" role="alert">${esc(s.error)}</p>` : ""}
      <div class="row"><button type="button" class="btn" data-fix="cancel" data-testid="fix-cancel">${esc(t("Cancel"))}</button>
        <button type="button" class="btn primary" data-fix="send" data-testid="fix-send"${this.ready() ? "" : " disabled"}>${esc(t("Correct"))}</button></div>`;
  }

  /** Where the companion has guests of the chosen color: one button per place with any. */
  fromHtml(v, name) {
    const s = this.state;
    const found = places(v).map((p) => ({ ...p, n: countAt(v, this.ctx.catalog, s.color, p) })).filter((p) => p.n > 0);
    if (!found.length) {
      return `<p class="muted">${esc(t("The companion has no {guest} that a correction can move.", { guest: guestName(s.color) }))}</p>`;
    }
    const buttons = found.map((p) => `<button type="button" class="btn small${samePlace(s.from, p) ? " selected" : ""}"
        data-fix="from" data-zone="${p.zone}" data-player="${p.player ?? ""}" data-testid="fix-from-${p.zone}${p.player ?? ""}"
        aria-pressed="${samePlace(s.from, p)}">${esc(name(p))} (${p.n})</button>`).join("");
    return `<p>${esc(t("Where the companion has it now:"))}</p><div class="row fix-places">${buttons}</div>`;
  }

  click(event) {
    const el = event.target.closest("[data-fix]");
    if (!el) return;
    const s = this.state;
    const place = () => ({ zone: el.dataset.zone, player: el.dataset.player === "" ? undefined : Number(el.dataset.player) });
    const handlers = {
      color: () => { s.color = el.dataset.color; s.from = null; },
      from: () => { s.from = place(); },
      to: () => { s.to = place(); },
      other: () => { Object.assign(s, { pawn: null, color: null, from: null, where: "", alert: null, note: "" }); },
      tap: () => this.waitForTap(),
      cancel: () => this.close(),
      send: () => this.send(),
    };
    const act = el.dataset.fix;
    if (!handlers[act]) return;
    s.error = "";
    handlers[act]();
    if (act !== "cancel") this.render();
  }

  /** Ask the hub to hold the next tap at this table for this dialog (PIN first). */
  async waitForTap() {
    const s = this.state;
    try {
      const answer = await tableCall(this.id, `/api/tables/${encodeURIComponent(this.id)}/identify`,
        { method: "POST", body: { on: true } }, this.ctx.askPin, true);
      s.waiting = true;
      s.note = "";
      clearTimeout(this.timer);
      this.timer = setTimeout(() => {
        if (!s.waiting) return;
        s.waiting = false;
        s.note = t("No tap came in time: tap the button again.");
        this.refresh();
      }, answer.seconds * 1000);
    } catch (err) {
      s.error = err instanceof ApiError ? err.message : String(err);
    }
    this.refresh();
  }

  /** The tap the dialog waited for (the hub's `identify` push). */
  identified(data) {
    const s = this.state;
    if (!s || !s.waiting || !this.dialog || !this.dialog.open) return;
    s.waiting = false;
    const name = this.view().names[data.player];
    if (data.thing && data.thing.kind === "pawn") {
      Object.assign(s, { pawn: data.thing.id, color: null, from: null, where: "", alert: null });
      s.note = t("Tapped on {name}'s reader.", { name });
    } else {
      s.note = t("That tag is not a guest: tap a guest pawn.");
    }
    this.render();
  }

  /** Send the correction (PIN first); the dialog closes once the hub has it. */
  async send() {
    const s = this.state;
    if (!this.ready()) return;
    const body = { zone: s.to.zone };
    if (s.to.player !== undefined) body.player = s.to.player;
    if (s.pawn !== null) body.pawn = s.pawn;
    else Object.assign(body, { color: s.color, from: { zone: s.from.zone, player: s.from.player } });
    if (s.alert) body.alert = s.alert.id;
    const words = { guest: guestName(this.color()), place: placeText(s.to.zone, this.view().names[s.to.player]) };
    try {
      await tableCall(this.id, `/api/tables/${encodeURIComponent(this.id)}/correct`,
        { method: "POST", body }, this.ctx.askPin, true);
      this.ctx.toast(s.alert ? t("Corrected: the {guest} is in {place}. Tap it again on the reader to draw it.", words)
        : t("Corrected: the {guest} is in {place}.", words), "ok");
      this.close();
    } catch (err) {
      s.error = err instanceof ApiError ? err.message : String(err);
      this.refresh();
    }
  }
}

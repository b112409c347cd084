// What the Popcorn table screen takes: clicks (every button carries a `data-act`; the
// header's and the banners' too, so the listener is on the document), typing and Enter in a
// search box, the checklist's ticks, and the selection of two-tap buying and seating (a card
// or a drawn guest, then a slot or a seat).
//
// Methods of the table screen, mixed into `TableScreen` by table.js: `this` is the screen.

import { showPhoneQr } from "../../web/js/phone_qr.js";
import { t } from "../../web/js/i18n.js";
import { rechoiceAt } from "./card_choice.js";

export const inputMethods = {
  click(event) {
    this.tipFor(event.target);
    const el = event.target.closest("[data-act]");
    if (!el || !this.view || this.health.click(el)) return;
    const act = el.dataset.act;
    const num = (name) => Number(el.dataset[name]);
    const handlers = {
      "pick-movie": () => this.pick({ kind: "movie", card: el.dataset.card }),
      "pick-theater": () => this.pick({ kind: "theater", card: el.dataset.card }),
      "pick-pawn": () => this.pick({ kind: "pawn", pawn: num("pawn"), player: num("player") }),
      seat: () => this.seatTapped(num("player"), num("slot"), num("seat")),
      slot: () => this.slotTapped(num("player"), num("slot")),
      "to-exit": () => this.seatBatch([{ move: "to_exit", player: this.selection.player, pawn: this.selection.pawn }]),
      clear: () => { this.selection = null; this.nudge = null; this.render(); },
      move: () => this.send(this.view.legal[num("index")]),
      "next-seat": () => {
        const next = this.nextSeat(num("player"));
        const pick = next && next.moves.find(([m]) => this.ctx.catalog.pawns[m.pawn] === el.dataset.color);
        if (pick) this.seatBatch(this.withForcedExits(pick[0]));
      },
      "seat-all": () => this.sendBatch(this.proposals.moves(num("player"))),
      "seat-play": () => this.adviceBatch([...this.proposals.moves(num("player")), ...this.proposals.then(num("player"))]),
      gains: () => this.sendBatch(this.gains.moves(num("player"))),
      suggestion: () => this.adviceBatch(this.suggestion.moves(num("player"))),
      "skip-rest": () => this.sendBatch(this.rest.moves(num("player"))),
      "seat-play-all": () => this.adviceBatch(this.everyoneParts().flatMap((part) => part.moves)),
      "seat-all-everyone": () => this.sendBatch(this.proposals.seatingAll(this.view).flatMap((part) => part.moves)),
      hints: () => this.toggleHints(),
      "play-on": () => this.togglePlayOn(),
      chance: () => this.send(this.view.chance[num("index")]),
      "card-choice": () => this.cardChoice(num("index")),
      undo: () => this.undo(),
      dismiss: () => this.alerts.dismiss(num("alert")),
      "alerts-open": () => { this.alertsOpen = !this.alertsOpen; this.renderBanners(); },
      correct: () => this.correction.open(),
      "correct-alert": () => this.correction.open(this.alerts.byId(num("alert"))),
      "accept-mat": () => this.acceptMat(num("player")),
      "checklist-done": () => { this.checklist = null; this.render(); },
      "audit-start": () => this.auditStep("start", { player: num("player") }),
      "audit-all": () => this.auditStep("start", { all: true, player: this.view.first_player }),
      "audit-done": () => this.auditAct(act),
      "audit-empty-yes": () => this.auditAct(act),
      "audit-empty-no": () => this.auditAct(act),
      "audit-accept": () => this.auditAct(act),
      "audit-drop": () => this.auditAct(act),
      tick: () => this.tick(num("n"), el),
      export: () => this.exportRecord(),
      phones: () => showPhoneQr(this.ctx, this.id, this.view.names),
    };
    if (handlers[act]) handlers[act]();
  },

  /** A touch screen has no hover: a tap on a slot (not on a seat or a button, and not while
   * a card waits for its slot) shows what its actions do, under it; any other tap hides it. */
  tipFor(target) {
    const host = target.closest("[data-tip]");
    if (!host || this.selection || target.closest("button") || !this.root.contains(host)) {
      this.tipHost = null;
    } else {
      this.tipHost = host.dataset.testid;
    }
    this.placeTip();
  },

  /** Show the tip of `tipHost` under it (above it near the bottom), or hide the tip; after a
   * redraw, the tip follows its slot's new words, or goes with it. */
  placeTip() {
    const tip = document.getElementById("tip");
    if (!tip) return;
    const host = this.tipHost && this.root.querySelector(`[data-testid="${this.tipHost}"][data-tip]`);
    if (!host) {
      tip.hidden = true;
      return;
    }
    tip.textContent = host.dataset.tip;
    tip.hidden = false;
    const box = host.getBoundingClientRect();
    const width = Math.min(320, innerWidth - 16);
    tip.style.width = `${width}px`;
    tip.style.left = `${Math.max(8, Math.min(box.left, innerWidth - width - 8))}px`;
    const below = box.bottom + 4;
    const height = tip.offsetHeight;
    tip.style.top = `${below + height <= innerHeight - 8 ? below : Math.max(8, box.top - height - 4)}px`;
  },

  tick(n, el) {
    if (!this.checklist) return;
    const ticked = (this.checklist.ticked ||= new Set());
    if (ticked.has(n)) ticked.delete(n); else ticked.add(n);
    el.classList.toggle("done", ticked.has(n));
  },

  input(event) {
    const el = event.target;
    if (el.dataset.act !== "search") return;
    this.pickerQuery[el.dataset.kind] = el.value;
    const pos = el.selectionStart;
    this.render();
    const again = this.root.querySelector(`[data-testid="search-${el.dataset.kind}"]`);
    if (again) { again.focus(); again.setSelectionRange(pos, pos); }
  },

  key(event) {
    const el = event.target;
    if (event.key !== "Enter" || el.dataset.act !== "search") return;
    const list = this.view.chance.map((m, i) => [m, i]).filter(([m]) => m.move === el.dataset.kind);
    const shown = this.matches(el.dataset.kind, list);
    if (shown.length === 1) this.send(this.view.chance[shown[0][1]]); // Enter takes the only match
  },

  /** A card or a drawn guest tapped: it is selected (tapping it again keeps it selected;
   * the hint's Cancel lets it go), and the hint says what to tap next. */
  pick(selection) {
    this.selection = selection;
    this.refusal = null;
    this.nudge = null;
    this.render();
  },

  seatTapped(player, slot, seat) {
    const sel = this.selection;
    if (sel && sel.kind === "pawn") {
      this.seatBatch(this.withForcedExits({ move: "place", player: sel.player, pawn: sel.pawn, slot, seat }));
    } else if (sel || this.view.phase === "buying") {
      this.slotTapped(player, slot); // a seat is part of its slot when buying
    } else {
      const pawn = this.guestForSeat(player, slot, seat);
      if (pawn !== undefined) this.seatBatch(this.withForcedExits({ move: "place", player, pawn, slot, seat }));
      else if (this.seatedGuestActs(player, slot, seat)) this.reachGuest(player, slot, seat);
      else this.nudgeSeat(player);
    }
  },

  slotTapped(player, slot) {
    const sel = this.selection;
    if (sel && sel.kind === "pawn") return; // a seat of the slot takes the guest
    const moveTo = sel ? -1 : rechoiceAt(this.view, player, slot);
    if (moveTo >= 0) { // a card just placed: one tap on another slot moves it
      this.cardChoice(moveTo);
      return;
    }
    if (!sel) { // never a dead tap: say what comes first
      if (this.view.phase === "buying") {
        this.say(t("First tap a movie or a theater in the market, then a slot of {name}'s cinema.", { name: this.view.names[this.view.current] }));
      }
      return;
    }
    const kind = sel.kind === "movie" ? "buy_movie" : "buy_theater";
    this.send({ move: kind, player, card: sel.card, slot });
  },

  /** A tap on a seat in the Showings that seats nobody: with drawn guests of several colors
   * and none shown there, or with guests still to draw, the hint says what to do instead. (A
   * tap on a seated guest once the seating is done is `reachGuest`'s.) */
  nudgeSeat(player) {
    if (this.view.phase !== "showings") return;
    const name = this.view.names[player];
    const cinema = this.view.cinemas[player];
    if (cinema.hand.length) this.say(t("Tap one of {name}'s drawn guests first, then its seat.", { name }));
    else if (cinema.showing && cinema.showing.to_draw) {
      this.say(t("{name} has no drawn guest to seat: draw guests from the bag onto its reader.", { name }));
    }
  },

  /** Show a nudge at the top of the side panel, where the hint is. */
  say(text) {
    this.nudge = text;
    this.render();
  },

  selectionStillUseful() {
    const sel = this.selection;
    const v = this.view;
    if (sel.kind === "pawn") return v.cinemas[sel.player].hand.some((h) => h.pawn === sel.pawn);
    if (v.phase !== "buying") return false;
    const offered = [...v.features, ...v.premiers, ...Object.values(v.columns).flat()];
    return offered.some((card) => card.id === sel.card);
  },
};

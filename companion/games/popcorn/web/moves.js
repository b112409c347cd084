// What the Popcorn table screen sends the hub: the moves a tap makes (a guest for the next
// free seat, a guest seated in the last free seat with the other drawn guests sent to the
// exit zone, the guest a tap on an empty seat seats), sent one at a time or as a batch (all
// made, or none; a refusal shows the engine's sentence), and the table's other requests:
// Undo, the hints setting, the game record.
//
// Methods of the table screen, mixed into `TableScreen` by table.js: `this` is the screen.

import { ApiError, call, tableCall } from "../../web/js/api.js";
import { acceptedText, auditAct, auditStep } from "../../web/js/audit.js";
import { t } from "../../web/js/i18n.js";

export const moveMethods = {
  /** The first free seat of player `p` the legal moves fill, and the place moves to it
   * (lowest pawn first), or null. */
  nextSeat(p) {
    const places = this.view.legal.map((m, i) => [m, i])
      .filter(([m]) => m.move === "place" && m.player === p)
      .sort(([a], [b]) => a.slot - b.slot || a.seat - b.seat || a.pawn - b.pawn);
    if (!places.length) return null;
    const [{ slot, seat }] = places[0];
    return { slot, seat, moves: places.filter(([m]) => m.slot === slot && m.seat === seat) };
  },

  /** Whether seat `n` of slot `k` is the next free seat of player `p`'s drawn guests. */
  isNextSeat(p, k, n) {
    const next = this.nextSeat(p);
    return Boolean(next && next.slot === k && next.seat === n);
  },

  /** A guest seated in the last free seat, and then, in the same batch, the other drawn
   * guests to the exit zone, where the rules send them once no seat is left. */
  withForcedExits(place) {
    const p = place.player;
    const seats = new Set(this.view.legal.filter((m) => m.move === "place" && m.player === p)
      .map((m) => `${m.slot}:${m.seat}`));
    const theater = this.view.cinemas[p].slots[place.slot].theater;
    const last = seats.size === 1 && theater && place.seat === theater.seats - 1;
    if (!last) return [place];
    const rest = this.view.cinemas[p].hand.filter((h) => h.pawn !== place.pawn);
    return [place, ...rest.map((h) => ({ move: "to_exit", player: p, pawn: h.pawn }))];
  },

  /** The guest a tap on an empty seat seats when no guest was tapped first: the one shown
   * there (faded), else the drawn guest when every drawn guest has the same color (they
   * look alike, so which one does not matter). Undefined when the tap must say who. */
  guestForSeat(p, slot, seat) {
    if (this.view.phase !== "showings") return undefined;
    const shown = this.proposals.pawnFor(p, slot, seat);
    if (shown !== undefined) return shown;
    const hand = this.view.cinemas[p].hand;
    return hand.length && new Set(hand.map((h) => h.color)).size === 1 ? hand[0].pawn : undefined;
  },

  /** Whether a tap on seat `seat` of slot `slot` of player `p` is a tap on a seated guest
   * whose turn may come: the Showings, with that player done drawing and seating. */
  seatedGuestActs(p, slot, seat) {
    const v = this.view;
    const c = v.cinemas[p];
    return v.phase === "showings" && !c.hand.length && !(c.showing && c.showing.to_draw)
      && Boolean(c.slots[slot].seats[seat]);
  },

  /** A tap on a seated guest in the Showings: the guests due to act before it end their turn
   * and it takes its seat action when that needs no choice, as one batch (the hub works it
   * out: GET /api/tables/{id}/reach); a guest whose turn is over says so. */
  async reachGuest(p, slot, seat) {
    let answer;
    try {
      answer = await call(`/api/tables/${this.id}/reach?player=${p}&slot=${slot}&seat=${seat}`);
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      this.say(err.message);
      return;
    }
    if (answer.moves.length) await this.sendBatch(answer.moves);
    else if (answer.in_line) this.say(t("This guest acts now: choose what it does with the buttons under the cinema."));
    else this.say(t("This guest cannot act now: its turn is over, or a step comes first."));
  },

  async send(move) {
    await this.post({ move });
  },

  /** Send moves as one batch: all made, or none (docs/api.md, "Batches of moves"). */
  async sendBatch(moves) {
    if (moves.length) await this.post({ moves });
  },

  /** Send the advisor's play as one batch; at a table whose advice plays on (the view's
   * `play_on`), with `"go_on": true`: the hub goes on with it once the table has done the
   * step that cut it (a guest drawn to a seat and seated, an award drawn). */
  async adviceBatch(moves) {
    if (moves.length) await this.post(this.view.play_on ? { moves, go_on: true } : { moves });
  },

  /** Send a seating tap's moves as one batch with the seating the rules then force (the
   * hub adds it: `"forced": true`), so that a guest with one way left to go is not tapped. */
  async seatBatch(moves) {
    if (moves.length) await this.post({ moves, forced: true });
  },

  /** POST one move or a batch; a refusal shows the hub's sentence. During the setup the
   * tablet only reports the cards dealt by hand, which need the PIN (docs/api.md). */
  async post(body) {
    const needsPin = this.view && this.view.phase === "setup";
    try {
      await tableCall(this.id, `/api/tables/${this.id}/moves`, { method: "POST", body }, this.ctx.askPin, needsPin);
      this.refusal = null;
      this.selection = null;
    } catch (err) {
      this.refusal = err instanceof ApiError ? err.message : String(err);
      this.ctx.toast(this.refusal, "error");
    }
    this.render();
  },

  /** Turn the advice's playing on on or off (the table PIN: POST .../hints). */
  async togglePlayOn() {
    try {
      const answer = await tableCall(this.id, `/api/tables/${this.id}/hints`,
        { method: "POST", body: { hints: this.hints(), play_on: !this.view.play_on } }, this.ctx.askPin, true);
      this.ctx.toast(answer.play_on ? t("The advisor plays on after a draw.") : t("The advisor stops at each draw."), "ok");
    } catch (err) {
      this.ctx.toast(err.message, "error");
    }
  },

  async toggleHints() {
    try {
      const answer = await tableCall(this.id, `/api/tables/${this.id}/hints`,
        { method: "POST", body: { hints: !this.hints() } }, this.ctx.askPin, true);
      this.info = { ...this.info, hints: answer.hints };
      this.proposals.refresh(this.view, this.hints());
      this.suggestion.refresh(this.view, this.events, this.hints());
      this.ctx.toast(answer.hints ? t("Seating hints are on.") : t("Seating hints are off."), "ok");
    } catch (err) {
      this.ctx.toast(err.message, "error");
    }
    this.render();
  },

  /** The card choice's move `index`: played, or, when the card already went into a slot,
   * the card moved there (one move: POST .../choice). */
  async cardChoice(index) {
    const choice = this.view.card_choice;
    if (!choice) return;
    if (choice.placed === null || choice.placed === undefined) {
      await this.send(choice.moves[index]);
      return;
    }
    try {
      await call(`/api/tables/${this.id}/choice`, { method: "POST", body: { index } });
      this.refusal = null;
    } catch (err) {
      this.refusal = err.message;
      this.ctx.toast(this.refusal, "error");
    }
    this.render();
  },

  /** A tap on the audit panel's own buttons (web/js/audit.js, auditAct): a step sent, or the
   * panel drawn again (the empty bag's question). */
  auditAct(act) {
    const step = auditAct(act, this.view.audit);
    if (step === "") this.render();
    else if (step) this.auditStep(step);
  },

  /** A step of a bag audit (web/js/audit.js): start one (or every bag), end its tapping,
   * accept it, stop it. */
  async auditStep(step, body) {
    try {
      const answer = await auditStep(this.ctx, this.id, step, { body });
      if (step === "accept") this.ctx.toast(acceptedText(answer), "ok");
      if (step === "start" && body.all) this.checklist = null;
    } catch (err) {
      this.ctx.toast(err.message, "error");
    }
    this.render();
  },

  async undo() {
    try {
      await tableCall(this.id, `/api/tables/${this.id}/undo`, { method: "POST", body: {} }, this.ctx.askPin, true);
      this.ctx.toast(t("The last move was taken back."), "ok");
    } catch (err) {
      this.ctx.toast(err.message, "error");
    }
    this.renderBanners();
  },

  /** The table's PIN accepts what a seat's mat shows where it disagrees with the
   * companion after a restart: the hub reads its change as moves and closes the alerts. */
  async acceptMat(seat) {
    try {
      await tableCall(this.id, `/api/tables/${this.id}/mats/${seat}/accept`, { method: "POST", body: {} }, this.ctx.askPin, true);
      this.ctx.toast(t("The companion now follows what the mat shows."), "ok");
    } catch (err) {
      this.ctx.toast(err.message, "error");
    }
    this.renderBanners();
  },

  async exportRecord() {
    try {
      const text = await tableCall(this.id, `/api/tables/${this.id}/record`, {}, this.ctx.askPin, true);
      const link = document.createElement("a");
      link.href = URL.createObjectURL(new Blob([text], { type: "application/x-ndjson" }));
      link.download = `popcorn-${this.id}.jsonl`;
      link.click();
    } catch (err) {
      this.ctx.toast(err.message, "error");
    }
  },
};

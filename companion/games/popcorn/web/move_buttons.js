// A player's move buttons on the Popcorn table screen, in their cinema under the guests they
// are about: "Play as suggested" and "Take the gains" first (one batch each), then one
// button per move the table can tell apart. Moves that differ only by a look-alike pawn
// share a button; moves that differ only by the guest they pick share one label for the
// action, followed by a small button per guest (its pawn and where it is), so that one tap
// says both. Buying and seating have no button: they are taps on the market and the
// cinemas (DIRECT).
//
// Methods of the table screen, mixed into `TableScreen` by table.js: `this` is the screen.

import { esc, guestChip, moveLabel, pawnHtml, pawnPlace, shortLabel } from "../../web/js/labels.js";
import { t, tn } from "../../web/js/i18n.js";
import { activationWords } from "./gains.js";

const DIRECT = new Set(["buy_movie", "buy_theater", "place"]);

export const moveButtonMethods = {
  /** A player's move buttons, in their cinema under the guests they are about: "Take the
   * gains" first, then one button per move the table can tell apart (guest choices folded
   * under their action). */
  playerMovesHtml(p) {
    const moves = this.view.legal.map((m, i) => [m, i]).filter(([m]) => m.player === p && !DIRECT.has(m.move));
    const gains = this.suggestionHtml(p) + this.gainsHtml(p);
    if (!moves.length && !gains) return "";
    const groups = this.grouped(this.distinct(moves)).map((group) => this.groupHtml(group)).join("");
    return `<div class="moves" data-testid="moves-${p}">${gains}${groups}${this.skipRestHtml(p)}</div>`;
  },

  /** "Skip the rest": every guest of the cinema still to act ends its turn, one batch,
   * when the table chooses to play no more of them; the button says how many. */
  skipRestHtml(p) {
    const moves = this.rest.moves(p);
    if (moves.length < 2) return ""; // one guest: its own "done" button does it
    // one line, like the other buttons of the row: its count says how many guests it ends
    const what = tn("{n} guest ends its turn", "{n} guests end their turn", moves.length);
    return `<button class="btn small" data-act="skip-rest" data-player="${p}" data-testid="skip-rest-${p}"
      title="${esc(what)}" aria-label="${esc(`${t("Skip the rest")}: ${what}`)}">${esc(t("Skip the rest"))} (${moves.length})</button>`;
  },

  /** "Play as suggested" (hints on): the advisor's plan for the seated guests, one batch.
   * What it sends is on the button itself (a touch screen shows no title). */
  suggestionHtml(p) {
    const moves = this.suggestion.moves(p);
    if (!moves.length || JSON.stringify(moves) === JSON.stringify(this.gains.moves(p))) return "";
    const what = activationWords(this.view, p, moves, 3);
    const title = `${t("Play as suggested")}${what ? `: ${what}` : ""}`;
    return `<button class="btn primary take-gains" data-act="suggestion" data-player="${p}"
      data-testid="suggestion-${p}" title="${esc(title)}">${esc(t("Play as suggested"))}
      <small data-testid="suggestion-what-${p}">${esc(what || tn("{n} move", "{n} moves", moves.length))}</small></button>`;
  },

  /** "Take the gains": the moves that only gain, one batch; what they gain is on the
   * button. */
  gainsHtml(p) {
    const moves = this.gains.moves(p);
    if (!moves.length) return "";
    const what = activationWords(this.view, p, moves, 3);
    const title = `${t("Take the gains")}${what ? `: ${what}` : ""}`;
    return `<button class="btn primary take-gains" data-act="gains" data-player="${p}" data-testid="gains-${p}"
      title="${esc(title)}">${esc(t("Take the gains"))}
      <small data-testid="gains-what-${p}">${esc(what || tn("{n} move", "{n} moves", moves.length))}</small></button>`;
  },

  /** One entry per move the table can tell apart: moves whose words are the same (two
   * white guests of one exit zone, say) differ only by a pawn number no pawn carries, so
   * one button stands for them all (`same` lists them). */
  distinct(moves) {
    const byLabel = new Map();
    for (const [m, i] of moves) {
      const label = moveLabel(m, this.view, this.ctx.catalog);
      if (byLabel.has(label)) byLabel.get(label)[2].push(m);
      else byLabel.set(label, [m, i, [m]]);
    }
    return [...byLabel.values()];
  },

  /** Moves that differ only by the pawn they pick, together: the action's words once, then
   * a button per guest; so a movie action with a choice of guests takes one tap, and its
   * words are not repeated for each guest. */
  grouped(entries) {
    const groups = new Map();
    for (const entry of entries) {
      const m = entry[0];
      const key = m.pawn === undefined ? JSON.stringify(m)
        : `${m.player}:${moveLabel({ ...m, pawn: undefined }, this.view, this.ctx.catalog)}`;
      if (!groups.has(key)) groups.set(key, []);
      groups.get(key).push(entry);
    }
    return [...groups.entries()];
  },

  /** A move that picks no guest: its button. A move or a choice of moves that pick a
   * guest: the action's words (what the guests' buttons do), then each guest as its pawn
   * and where it is ("left 1", "Exit"); a guest's button carries the whole sentence as its
   * title and its accessible name. */
  groupHtml([key, entries]) {
    if (entries.length === 1 && entries[0][0].pawn === undefined) return this.moveButton(...entries[0]);
    const first = { ...entries[0][0], pawn: undefined };
    const label = shortLabel(first, this.view, this.ctx.catalog);
    const picks = entries.map(([m, i, same]) => {
      const full = moveLabel(m, this.view, this.ctx.catalog);
      const color = this.ctx.catalog.pawns[m.pawn];
      return `<button class="btn move pick" data-act="move" data-index="${i}" data-testid="move-${i}"
        data-kind="${m.move}" data-move="${esc(JSON.stringify(m))}" data-same="${esc(JSON.stringify(same))}"
        title="${esc(full)}" aria-label="${esc(full)}">${pawnHtml(m.pawn, color, "small")}<small>${esc(pawnPlace(this.view, m.pawn, m.player))}</small></button>`;
    }).join("");
    return `<span class="guest-pick" data-testid="pick-${esc(key)}" title="${esc(moveLabel(first, this.view, this.ctx.catalog))}">
      <span class="pick-what">${guestChip(first, this.view)}${esc(label)}</span>${picks}</span>`;
  },

  moveButton(m, i, same = [m]) {
    const pawn = m.pawn === undefined ? "" : ` ${pawnHtml(m.pawn, this.ctx.catalog.pawns[m.pawn], "small")}`;
    return `<button class="btn move" data-act="move" data-index="${i}" data-testid="move-${i}"
      data-kind="${m.move}" data-move="${esc(JSON.stringify(m))}" data-same="${esc(JSON.stringify(same))}"
      title="${esc(moveLabel(m, this.view, this.ctx.catalog))}">
      ${guestChip(m, this.view)}${esc(shortLabel(m, this.view, this.ctx.catalog))}${pawn}</button>`;
  },
};

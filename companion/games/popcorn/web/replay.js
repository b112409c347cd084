// Popcorn's replay board (web/js/replay.js asks for it through app.js's SCREENS): the table
// screen's own board (board.js), read-only, for one position of a game, and a move in words,
// in this device's language. The view is the hub's replay view (the public view without its
// legal moves), so nothing here can act: no seat is proposed, no move button is drawn, no
// reader is watched.

import { boardMethods } from "./board.js";
import { colorWord, placeText, t } from "../../web/js/i18n.js";
import { adSpace, esc, guestName, moveLabel, seatWords, slotWord } from "../../web/js/labels.js";

const PHASES = () => ({ setup: t("Setup"), buying: t("Buying & Advertising"), showings: t("Showings"), over: t("Game over") });

/** The board of one position: the market and the cinemas, as the table screen draws them. */
class ReplayBoard {
  constructor(ctx) {
    this.ctx = ctx;
    this.selection = null;
    this.info = null;
    this.readers = [];
    this.proposals = { exits: () => false, pawnFor: () => undefined, moves: () => [], then: () => [] };
  }

  html(view) {
    this.view = view;
    return `<div class="table-grid replaying" data-phase="${esc(view.phase)}">
        <section class="market card" data-testid="market">${this.marketHtml()}</section>
        <section class="cinemas n${view.cinemas.length}" data-testid="cinemas">
          ${view.cinemas.map((c, p) => this.cinemaHtml(c, p)).join("")}
        </section>
      </div>`;
  }

  // a replay proposes no seat, plans nothing, offers no move and starts no audit
  planFor() { return []; }
  zonesHtml(c, p) {
    return boardMethods.zonesHtml.call(this, c, p)
      .replace(/<button class="zone-audit"[^>]*>([^<]*)<\/button>/, "$1");
  }
  nextSeat() { return null; }
  isNextSeat() { return false; }
  nextSeatHtml() { return ""; }
  seatAllHtml() { return ""; }
  playerMovesHtml() { return ""; }
  readerHtml() { return ""; }
}

// the table screen's drawing, but what acts on the live screen (the header, the banners)
for (const [name, method] of Object.entries(boardMethods)) {
  if (!["render", "renderFacts", "renderBanners"].includes(name) && !(name in ReplayBoard.prototype)) {
    ReplayBoard.prototype[name] = method;
  }
}

/** Popcorn's replay module: `boardHtml`, `factsHtml`, `moveWords`, `movesWords`. */
export function replayScreen(ctx) {
  const board = new ReplayBoard(ctx);
  const catalog = ctx.catalog;
  const card = (id) => catalog.byId[id] || { id, title: id };
  const guest = (pawn) => guestName(catalog.pawns[pawn]);
  const nameOf = (view, p) => (view && view.names[p]) || `#${Number(p) + 1}`;

  /** One move of a position's player, without their name: a guest's place, or the table
   * screen's own words for the move (labels.js). */
  function moveShort(move, view) {
    switch (move.move) {
      case "place": return t("{guest} → {where}", { guest: guest(move.pawn), where: seatWords(move.slot, move.seat + 1) });
      case "to_exit": return t("{guest} → the exit zone", { guest: guest(move.pawn) });
      default: return moveLabel(move, view, catalog);
    }
  }

  return {
    boardHtml: (view) => board.html(view),

    /** The round, the phase and who acts. */
    factsHtml(view) {
      const acting = view.phase === "buying" ? [view.current] : view.waiting;
      const who = acting.map((p) => view.names[p]).join(", ");
      return `<span class="fact">${esc(t("Round"))} <b>${view.round}</b></span>
        <span class="fact">${esc(PHASES()[view.phase] || view.phase)}</span>
        ${who && view.phase !== "over" ? `<span class="fact">${esc(t("To act:"))} <b>${esc(who)}</b></span>` : ""}`;
    },

    /** The move that led from `before` to `after`, as a sentence. */
    moveWords(step, before, after) {
      const view = before || after;
      const name = nameOf(view, step.player);
      switch (step.move) {
        case "deal_starting": return t("{name} is dealt {movie}, their starting movie.", { name, movie: card(step.card).title });
        case "reveal_movie": return t("{movie} is revealed in the market.", { movie: card(step.card).title });
        case "reveal_theater": return t("A theater tile of {seats} seats is revealed (${price}).", { seats: card(step.card).seats, price: card(step.card).price });
        case "draw_award": return t("{name} draws an award card (only they see it).", { name });
        case "keep_award": return t("{name} keeps an award card (only they see it).", { name });
        case "draw_pawn": return t("{name} draws a {guest} from their bag.", { name, guest: guest(step.pawn) });
        case "place": return t("{name} seats a {guest} in the {where}.", { name, guest: guest(step.pawn), where: seatWords(step.slot, step.seat + 1) });
        case "to_exit": return t("{name} sends a {guest} to the exit zone.", { name, guest: guest(step.pawn) });
        case "buy_movie": return t("{name} buys {movie} for the {slot} slot.", { name, movie: card(step.card).title, slot: slotWord(step.slot) });
        case "buy_theater": return t("{name} buys a theater tile of {seats} seats for the {slot} slot.", { name, seats: card(step.card).seats, slot: slotWord(step.slot) });
        case "activate_ad": return step.color
          ? t("{name} uses the ad token on {space} and takes a {color} guest.", { name, space: adSpace(step.space), color: colorWord(step.color) })
          : t("{name} uses the ad token on {space}.", { name, space: adSpace(step.space) });
        case "end_turn": return t("{name} ends their turn.", { name });
        case "correct": return step.pawn === undefined ? t("The table corrected where a guest is.")
          : t("The table says a {guest} is in {place}.", { guest: guest(step.pawn), place: placeText({ zone: step.zone, owner: nameOf(view, step.player) }) });
        default: return t("{name}: {what}", { name, what: moveLabel(step, view, catalog) });
      }
    },

    /** A player's moves (an analysis's played or best moves), as one line. */
    movesWords(moves, view) {
      return moves.length ? moves.map((m) => moveShort(m, view)).join("; ") : t("nothing");
    },
  };
}

// Words and marks for what the engine names with ids: guest colors (with a letter, for
// color-blind players), action ids, and moves. Card facts come from /api/catalog; nothing
// here knows a card. Every word goes through t() (i18n.js), in this device's language.

import { colorLetter, colorWord, contextText, t } from "./i18n.js";

export const COLORS = ["white", "blue", "green", "red", "yellow"];

/** A color's letter in this device's language (each language's own, from its catalog:
 * "Bc" and "Bl" for blanc and bleu in French, 白 in Japanese; see `colorLetter`); a seat of
 * any color shows "·". */
export function letter(color) {
  return colorLetter(color);
}

/** A guest pawn: a colored disc with its color's letter, as the pawns show (the physical
 * pawns carry no number, so none is ever shown). */
export function pawnHtml(pawn, color, extra = "") {
  const id = pawn === null || pawn === undefined ? "" : ` data-pawn="${pawn}"`;
  return `<span class="dot c-${color} ${extra}"${id} title="${esc(guestName(color))}">${esc(letter(color))}</span>`;
}

/** An empty seat that takes a guest of `color` (or of any color, "grey"): a dashed ring of
 * that color around its letter. */
export function emptySeatHtml(color) {
  return `<span class="dot empty s-${color}">${esc(letter(color))}</span>`;
}

/** A movie's color: a small square with the color's letter (awards count movies by color,
 * so the color is never the only cue). */
export function colorChip(color) {
  return `<span class="chip c-${color}" title="${esc(colorWord(color))}">${esc(letter(color))}</span>`;
}

/** A short label for a seat's action, under a seat's pawn where the room is one pawn wide:
 * the long ones ("Draw a guest to a seat") get a short form; the others are `actionLabel`. */
export function seatActionLabel(id) {
  const short = {
    draw_guest_to_seat: t("Draw → seat"), guest_to_reserve: t("→ reserve"),
    exit_to_bag: t("Exit → bag"),
  };
  return short[id] || actionLabel(id);
}

/** A guest as the table sees it: "blue B guest". */
export function guestName(color) {
  return t("{color} {letter} guest", { color: colorWord(color), letter: letter(color) });
}

/** "left theater, seat 2": a seat of one of the cinema's three slots. */
export function seatWords(slot, seat) {
  const words = [t("left theater, seat {seat}", { seat }), t("center theater, seat {seat}", { seat }),
    t("right theater, seat {seat}", { seat })];
  return words[slot] || words[0];
}

/** A slot of a cinema, as a word: "left", "center", "right". */
export function slotWord(slot) {
  return [t("left"), t("center"), t("right")][slot] || "?";
}

/** Where a pawn is, in a word or two, beside its pawn on a guest's button in a row of
 * choices ("left 1", "Exit", "reserve", "Bob · Exit"): its color is the pawn itself, and
 * the whole sentence is `pawnWhere`. `player` is the cinema whose name is left out. */
export function pawnPlace(view, pawn, player) {
  for (const [p, c] of view.cinemas.entries()) {
    const owner = p === player ? "" : `${c.name} · `;
    for (const [k, s] of c.slots.entries()) {
      const n = s.seats.findIndex((g) => g && g.pawn === pawn);
      if (n >= 0) return `${owner}${slotWord(k)} ${n + 1}`;
    }
    if (c.hand.some((h) => h.pawn === pawn)) return `${owner}${t("drawn")}`;
  }
  const zone = view.zones && view.zones[pawn];
  if (!zone) return "";
  const [where, owner] = zone;
  const whose = owner === null || owner === undefined || owner === player ? "" : `${view.names[owner]} · `;
  const words = { reserve: t("reserve"), box: t("box"), bag: t("Bag"), exit: t("Exit") };
  return `${whose}${words[where] || ""}`;
}

/** Where a pawn is, in words the table can check: "the red R guest in Ana's left theater,
 * seat 1", "the drawn white W guest", or "a yellow Y guest from Bob's exit zone" (in a bag,
 * an exit zone or the reserve, where guests of a color look alike: the view's `zones` says
 * which). `player` is the cinema whose name is left out ("your exit zone"). */
export function pawnWhere(view, pawn, color, player) {
  for (const [p, c] of view.cinemas.entries()) {
    for (const [k, s] of c.slots.entries()) {
      const n = s.seats.findIndex((g) => g && g.pawn === pawn);
      if (n >= 0) {
        const params = { guest: guestName(color), where: seatWords(k, n + 1), name: c.name };
        return p === player ? t("the {guest} in the {where}", params)
          : t("the {guest} in {name}'s {where}", params);
      }
    }
    if (c.hand.some((h) => h.pawn === pawn)) return t("the drawn {guest}", { guest: guestName(color) });
  }
  const guest = guestName(color);
  const zone = view.zones && view.zones[pawn];
  if (!zone) return t("a {guest}", { guest });
  const [where, owner] = zone;
  const name = owner === null || owner === undefined ? "" : view.names[owner];
  const mine = owner === player;
  const params = { guest, name };
  if (where === "reserve") return t("a {guest} from the reserve", params);
  if (where === "box") return t("a {guest} from the box", params);
  if (where === "bag") return mine ? t("a {guest} from your bag", params) : t("a {guest} from {name}'s bag", params);
  if (where === "exit") {
    return mine ? t("a {guest} from your exit zone", params) : t("a {guest} from {name}'s exit zone", params);
  }
  return t("a {guest}", params);
}

/** A short label for an action id: "+$2", "+2 popcorn", "Ad: red", ... */
export function actionLabel(id) {
  if (!id) return "";
  let m = /^money_(\d)$/.exec(id);
  if (m) return `+$${m[1]}`;
  m = /^popcorn_(\d)$/.exec(id);
  if (m) return t("+{n} popcorn", { n: Number(m[1]) });
  m = /^ad_(\w+)$/.exec(id);
  if (m) return t("Ad: {space}", { space: adSpace(m[1]) });
  const words = {
    none: "—", audience_up: t("Audience +1"), award_draw: t("Draw award"),
    draw_guest_to_seat: t("Draw a guest to a seat"), guest_to_reserve: t("Guest to reserve"),
    exit_to_bag: t("Exit zone → bag"), movie_action: t("Movie action"),
  };
  return words[id] || id.replaceAll("_", " ");
}

/** A catalog card's title in this device's language: a movie's own; a theater tile named
 * as it looks (the catalog's `theater:<id>` words, else the hub's English "$2 one-seat tile
 * (blue seat: +$3)"), since a printed tile carries no title. */
export function cardTitle(card) {
  if (!card.seats) return card.title || card.id;
  return contextText("theater", card.id) || card.title || card.id;
}

/** An advertising space ("red", "white", "multicolor", ...) in words. */
export function adSpace(space) {
  if (space === "multicolor") return t("multicolor");
  if (space === "any") return t("any");
  return colorWord(space);
}

export function esc(text) {
  return String(text).replace(/[&<>"']/g, (c) => ({
    "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
}

/** A move's words on a button inside its player's cinema, where the player goes without
 * saying: the guest comes first as its pawn (color and letter, see `guestChip`), then its
 * theater ("left"), then what it does: "left · seat: +$1", "center · movie: Ad: red",
 * "center · seat → +2 popcorn" (a seat action that uses a movie action), "left · done". The
 * whole sentence (`moveLabel`, with the movie's title) is the button's title. */
export function shortLabel(move, view, catalog) {
  const cinema = view.cinemas[move.player];
  const s = move.slot;
  const movie = s !== undefined && cinema.slots[s] ? cinema.slots[s].movie : null;
  // the movie is the one of the guest's own theater: its action alone tells the buttons apart
  const movieAction = (index) => (movie ? actionLabel(movie.actions[index]) : `#${index}`);
  const color = move.pawn === undefined ? null : catalog.pawns[move.pawn];
  const which = color ? ` · ${pawnWhere(view, move.pawn, color, move.player)}` : "";
  const where = s !== undefined ? `${slotWord(s)} · ` : "";
  switch (move.move) {
    case "end_guest": return `${where}${t("done")}`;
    case "seat_action": {
      if (move.index !== undefined) return `${where}${t("seat → {action}", { action: movieAction(move.index) })}${which}`;
      const theater = cinema.slots[s] && cinema.slots[s].theater;
      const action = theater ? actionLabel(theater.seat_actions[move.seat ?? 0]) : "?";
      return `${where}${t("seat: {action}", { action })}${which}`;
    }
    case "movie_action": return `${where}${t("movie: {action}", { action: movieAction(move.index) })}${which}`;
    default: return moveLabel(move, view, catalog);
  }
}

/** The pawn of the guest a move is about (the acting guest), or "" for other moves. */
export function guestChip(move, view) {
  const slot = move.slot !== undefined ? view.cinemas[move.player].slots[move.slot] : null;
  const sitting = slot && move.seat !== undefined ? slot.seats[move.seat] : null;
  return sitting ? pawnHtml(null, sitting.color, "small") : "";
}

/** What a legal move does, in words, for a button under its player's name. */
export function moveLabel(move, view, catalog) {
  const cinema = view.cinemas[move.player];
  const slot = (s) => cinema && cinema.slots[s];
  const movieAction = (s, index) => {
    const movie = slot(s) && slot(s).movie;
    return movie ? `${movie.title}: ${actionLabel(movie.actions[index])}` : t("movie action #{index}", { index });
  };
  // Activation moves name their guest by color, theater and seat: "blue B guest, left
  // theater, seat 2"; a move that picks a pawn says which, by color and place.
  const guest = (s, k) => {
    const sitting = slot(s) && k !== undefined ? slot(s).seats[k] : null;
    const where = seatWords(s ?? 0, (k ?? 0) + 1);
    return sitting ? `${guestName(sitting.color)}, ${where}` : where;
  };
  const color = move.pawn === undefined ? null : catalog.pawns[move.pawn];
  const which = color ? `: ${pawnWhere(view, move.pawn, color, move.player)}` : "";
  switch (move.move) {
    case "end_turn": return t("End turn");
    case "decline": return t("Decline the bonus");
    case "activate_ad":
      return move.color ? t("Use the ad token on {space} (take a {color} guest)", { space: adSpace(move.space), color: colorWord(move.color) })
        : t("Use the ad token on {space}", { space: adSpace(move.space) });
    case "take_back_ad": return t("Take back the ad token from {space}", { space: adSpace(move.space) });
    case "gain_pawn": {
      const gained = color ? t("a {guest}", { guest: guestName(color) }) : t("a guest");
      return move.target !== undefined ? t("Gain {what} into {name}'s bag", { what: gained, name: view.names[move.target] })
        : t("Gain {what}", { what: gained });
    }
    case "to_exit": {
      const theGuest = t("the guest");
      return t("Send {what} to the exit zone", { what: color ? pawnWhere(view, move.pawn, color, move.player) : theGuest });
    }
    case "bonus_action": return t("Showing bonus") + which;
    case "end_guest":
      return t("Done with the {guest}", { guest: guest(move.slot, move.seat) });
    case "seat_action": {
      const who = guest(move.slot, move.seat);
      if (move.index !== undefined) {
        return t("Seat action ({guest}) → {action}", { guest: who, action: movieAction(move.slot, move.index) }) + which;
      }
      const theater = slot(move.slot) && slot(move.slot).theater;
      const seat = move.seat ?? 0;
      return t("Seat action ({guest}): {action}", { guest: who, action: theater ? actionLabel(theater.seat_actions[seat]) : "?" }) + which;
    }
    case "movie_action":
      return t("Movie action ({guest}) → {action}", { guest: guest(move.slot, move.seat), action: movieAction(move.slot, move.index) }) + which;
    case "place": return t("Seat in the {where}", { where: seatWords(move.slot, move.seat + 1) });
    case "buy_movie": case "buy_theater": {
      const card = catalog.byId[move.card];
      return t("Buy {card} → {slot}", { card: card ? cardTitle(card) : move.card, slot: slotWord(move.slot) });
    }
    default: return move.move.replaceAll("_", " ");
  }
}

// Words and marks for what the engine names with ids: guest colors (with a letter, for
// color-blind players), action ids, and moves. Card facts come from /api/catalog; nothing
// here knows a card.

export const COLORS = ["white", "blue", "green", "red", "yellow"];
const LETTER = { white: "W", blue: "B", green: "G", red: "R", yellow: "Y", grey: "·" };

export function letter(color) {
  return LETTER[color] || "?";
}

/** A guest pawn: a colored disc with its color's letter, as the pawns show (the physical
 * pawns carry no number, so none is ever shown). */
export function pawnHtml(pawn, color, extra = "") {
  const id = pawn === null || pawn === undefined ? "" : ` data-pawn="${pawn}"`;
  return `<span class="dot c-${color} ${extra}"${id} title="${guestName(color)}">${letter(color)}</span>`;
}

/** A guest as the table sees it: "blue B guest". */
export function guestName(color) {
  return `${color} ${letter(color)} guest`;
}

const SLOT_WORDS = ["left", "center", "right"];

/** Where a pawn is, in words the table can check: "the red R guest in Ana's left theater,
 * seat 1", "the drawn white W guest", or "a yellow Y guest from Bob's exit zone" (in a bag,
 * an exit zone or the reserve, where guests of a color look alike: the view's `zones` says
 * which). `player` is the cinema whose name is left out ("your exit zone"). */
export function pawnWhere(view, pawn, color, player) {
  for (const [p, c] of view.cinemas.entries()) {
    for (const [k, s] of c.slots.entries()) {
      const n = s.seats.findIndex((g) => g && g.pawn === pawn);
      if (n >= 0) {
        const whose = p === player ? "the" : `${c.name}'s`;
        return `the ${guestName(color)} in ${whose} ${SLOT_WORDS[k]} theater, seat ${n + 1}`;
      }
    }
    if (c.hand.some((h) => h.pawn === pawn)) return `the drawn ${guestName(color)}`;
  }
  const zone = view.zones && view.zones[pawn];
  if (!zone) return `a ${guestName(color)}`;
  const [where, owner] = zone;
  const whose = owner === null || owner === undefined ? "the" : owner === player ? "your" : `${view.names[owner]}'s`;
  const place = { reserve: "the reserve", box: "the box", bag: `${whose} bag`, exit: `${whose} exit zone` }[where];
  return place ? `a ${guestName(color)} from ${place}` : `a ${guestName(color)}`;
}

/** A short label for an action id: "+$2", "+2 popcorn", "Ad: red", ... */
export function actionLabel(id) {
  if (!id) return "";
  let m = /^money_(\d)$/.exec(id);
  if (m) return `+$${m[1]}`;
  m = /^popcorn_(\d)$/.exec(id);
  if (m) return `+${m[1]} popcorn`;
  m = /^ad_(\w+)$/.exec(id);
  if (m) return `Ad: ${m[1]}`;
  const words = {
    none: "—", audience_up: "Audience +1", award_draw: "Draw award",
    draw_guest_to_seat: "Draw a guest to a seat", guest_to_reserve: "Guest to reserve",
    exit_to_bag: "Exit zone → bag", movie_action: "Movie action",
  };
  return words[id] || id.replaceAll("_", " ");
}

export function esc(text) {
  return String(text).replace(/[&<>"']/g, (c) => ({
    "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
}

/** A move's words on a button inside its player's cinema, where the player goes without
 * saying: the guest comes first as its pawn (color and letter, see `guestChip`), then its
 * theater ("left"), then what it does: "left · seat: +$1", "center · Final Lasso: Ad: red",
 * "left · done". The whole sentence (`moveLabel`) is the button's title. */
export function shortLabel(move, view, catalog) {
  const cinema = view.cinemas[move.player];
  const s = move.slot;
  const movie = s !== undefined && cinema.slots[s] ? cinema.slots[s].movie : null;
  const movieAction = (index) => (movie ? `${movie.title}: ${actionLabel(movie.actions[index])}` : `#${index}`);
  const color = move.pawn === undefined ? null : catalog.pawns[move.pawn];
  const which = color ? ` · ${pawnWhere(view, move.pawn, color, move.player)}` : "";
  const where = s !== undefined ? `${SLOT_WORDS[s]} · ` : "";
  switch (move.move) {
    case "end_guest": return `${where}done`;
    case "seat_action": {
      if (move.index !== undefined) return `${where}seat → ${movieAction(move.index)}${which}`;
      const theater = cinema.slots[s] && cinema.slots[s].theater;
      return `${where}seat: ${theater ? actionLabel(theater.seat_actions[move.seat ?? 0]) : "?"}${which}`;
    }
    case "movie_action": return `${where}${movieAction(move.index)}${which}`;
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
    return movie ? `${movie.title}: ${actionLabel(movie.actions[index])}` : `movie action #${index}`;
  };
  // Activation moves name their guest by color, theater and seat: "blue B guest, left
  // theater, seat 2"; a move that picks a pawn says which, by color and place.
  const guest = (s, k) => {
    const sitting = slot(s) && k !== undefined ? slot(s).seats[k] : null;
    const where = `${SLOT_WORDS[s ?? 0]} theater, seat ${(k ?? 0) + 1}`;
    return sitting ? `${guestName(sitting.color)}, ${where}` : where;
  };
  const color = move.pawn === undefined ? null : catalog.pawns[move.pawn];
  const which = color ? `: ${pawnWhere(view, move.pawn, color, move.player)}` : "";
  switch (move.move) {
    case "end_turn": return "End turn";
    case "decline": return "Decline the bonus";
    case "activate_ad":
      return `Use the ad token on ${move.space}` + (move.color ? ` (take a ${move.color} guest)` : "");
    case "take_back_ad": return `Take back the ad token from ${move.space}`;
    case "gain_pawn":
      return `Gain ${color ? `a ${guestName(color)}` : "a guest"}`
        + (move.target !== undefined ? ` into ${view.names[move.target]}'s bag` : "");
    case "to_exit": return `Send ${color ? pawnWhere(view, move.pawn, color, move.player) : "the guest"} to the exit zone`;
    case "bonus_action": return `Showing bonus${which}`;
    case "end_guest":
      return `Done with the ${guest(move.slot, move.seat)}`;
    case "seat_action": {
      const who = guest(move.slot, move.seat);
      if (move.index !== undefined) {
        return `Seat action (${who}) → ${movieAction(move.slot, move.index)}${which}`;
      }
      const theater = slot(move.slot) && slot(move.slot).theater;
      const seat = move.seat ?? 0;
      return `Seat action (${who}): ${theater ? actionLabel(theater.seat_actions[seat]) : "?"}${which}`;
    }
    case "movie_action":
      return `Movie action (${guest(move.slot, move.seat)}) → ${movieAction(move.slot, move.index)}${which}`;
    case "place": return `Seat in the ${SLOT_WORDS[move.slot]} theater, seat ${move.seat + 1}`;
    case "buy_movie": case "buy_theater": {
      const card = catalog.byId[move.card];
      return `Buy ${card ? card.title || card.id : move.card} → ${SLOT_WORDS[move.slot]}`;
    }
    default: return move.move.replaceAll("_", " ");
  }
}

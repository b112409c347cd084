// Words and marks for what the engine names with ids: guest colors (with a letter, for
// color-blind players), action ids, and moves. Card facts come from /api/catalog; nothing
// here knows a card.

export const COLORS = ["white", "blue", "green", "red", "yellow"];
const LETTER = { white: "W", blue: "B", green: "G", red: "R", yellow: "Y", grey: "·" };

export function letter(color) {
  return LETTER[color] || "?";
}

/** A guest pawn: a colored disc with its color's letter (and the pawn id as a tooltip). */
export function pawnHtml(pawn, color, extra = "") {
  const id = pawn === null || pawn === undefined ? "" : ` data-pawn="${pawn}"`;
  const title = pawn === null || pawn === undefined ? color : `pawn ${pawn} (${color})`;
  return `<span class="dot c-${color} ${extra}"${id} title="${title}">${letter(color)}</span>`;
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

const SLOT_WORDS = ["left", "center", "right"];

/** What a legal move does, in words, for a button under its player's name. */
export function moveLabel(move, view, catalog) {
  const cinema = view.cinemas[move.player];
  const slot = (s) => cinema && cinema.slots[s];
  const movieAction = (s, index) => {
    const movie = slot(s) && slot(s).movie;
    return movie ? `${movie.title}: ${actionLabel(movie.actions[index])}` : `movie action #${index}`;
  };
  // Activation moves name their guest by slot and seat: "blue guest, seat 2".
  const guest = (s, k) => {
    const sitting = slot(s) && k !== undefined ? slot(s).seats[k] : null;
    return sitting ? `${sitting.color} guest, seat ${k + 1}` : `seat ${(k ?? 0) + 1}`;
  };
  switch (move.move) {
    case "end_turn": return "End turn";
    case "decline": return "Decline the bonus";
    case "activate_ad":
      return `Use the ad token on ${move.space}` + (move.color ? ` (take a ${move.color} guest)` : "");
    case "take_back_ad": return `Take back the ad token from ${move.space}`;
    case "gain_pawn":
      return "Gain" + (move.target !== undefined ? ` into ${view.names[move.target]}'s bag` : "");
    case "to_exit": return "To the exit zone";
    case "bonus_action": return "Showing bonus with";
    case "end_guest":
      return `Done with the ${guest(move.slot, move.seat)} (${SLOT_WORDS[move.slot]})`;
    case "seat_action": {
      const who = guest(move.slot, move.seat);
      if (move.index !== undefined) {
        return `Seat action (${who}) → ${movieAction(move.slot, move.index)}`;
      }
      const theater = slot(move.slot) && slot(move.slot).theater;
      const seat = move.seat ?? 0;
      return `Seat action (${who}): ${theater ? actionLabel(theater.seat_actions[seat]) : "?"}`;
    }
    case "movie_action":
      return `Movie action (${guest(move.slot, move.seat)}) → ${movieAction(move.slot, move.index)}`;
    case "place": return `Seat in the ${SLOT_WORDS[move.slot]} theater, seat ${move.seat + 1}`;
    case "buy_movie": case "buy_theater": {
      const card = catalog.byId[move.card];
      return `Buy ${card ? card.title || card.id : move.card} → ${SLOT_WORDS[move.slot]}`;
    }
    default: return move.move.replaceAll("_", " ");
  }
}

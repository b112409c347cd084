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

/** A sentence for a legal move, as a button shows it. */
export function moveLabel(move, view, catalog) {
  const who = view.names[move.player] ?? "";
  const pawn = move.pawn === undefined ? "" : `pawn ${move.pawn}`;
  const slotName = (s) => ["left", "center", "right"][s] || `slot ${s}`;
  const cinema = view.cinemas[move.player];
  const movieAt = (s) => cinema && cinema.slots[s] && cinema.slots[s].movie;
  switch (move.move) {
    case "end_turn": return `${who}: end turn`;
    case "decline": return `${who}: decline`;
    case "activate_ad":
      return `${who}: use ad token on ${move.space}` + (move.color ? ` (take ${move.color})` : "");
    case "take_back_ad": return `${who}: take back ad token from ${move.space}`;
    case "gain_pawn":
      return `${who}: gain ${pawn}` +
        (move.target !== undefined ? ` into ${view.names[move.target]}'s bag` : "");
    case "to_exit": return `${who}: ${pawn} to the exit zone`;
    case "bonus_action": return `${who}: bonus with ${pawn}`;
    case "end_guest": return `${who}: done with this guest (${slotName(move.slot)})`;
    case "seat_action": {
      const theater = cinema && cinema.slots[move.slot].theater;
      const seat = cinema && cinema.showing ? Math.max(0, cinema.showing.cursor) : 0;
      let act = theater ? actionLabel(theater.seat_actions[seat]) : "seat action";
      const movie = movieAt(move.slot);
      if (move.index !== undefined && movie) act = `movie action ${actionLabel(movie.actions[move.index])}`;
      return `${who}: seat action ${act}` + (pawn ? ` — ${pawn}` : "");
    }
    case "movie_action": {
      const movie = movieAt(move.slot);
      const act = movie ? actionLabel(movie.actions[move.index]) : `#${move.index}`;
      return `${who}: ${movie ? movie.title + ": " : ""}${act}` + (pawn ? ` — ${pawn}` : "");
    }
    case "place":
      return `${who}: seat ${pawn} in ${slotName(move.slot)} seat ${move.seat + 1}`;
    case "buy_movie": case "buy_theater": {
      const card = catalog.byId[move.card];
      return `${who}: buy ${card ? card.title || card.id : move.card} → ${slotName(move.slot)}`;
    }
    default: return `${who}: ${move.move.replaceAll("_", " ")}`;
  }
}

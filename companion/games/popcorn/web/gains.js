// "Take the gains" and "Play as suggested": for each player acting in the Showings, a list
// of activations from the hub, as one button that sends them as one batch. The gains
// (GET /api/tables/{id}/gains) only gain and need no choice; the suggestion
// (GET /api/tables/{id}/suggestion, hints on) is the advisor's plan for the seated guests.
// The decision either stops at stays on screen as the usual move buttons.

import { call } from "../../web/js/api.js";
import { actionLabel } from "../../web/js/labels.js";

export class Gains {
  /** `route` is "gains" or "suggestion"; `onChange` redraws the screen when an answer
   * arrives. */
  constructor(tableId, onChange, route = "gains") {
    Object.assign(this, { id: tableId, onChange, route });
    this.byPlayer = {};
  }

  /** Ask again for every player with activations open, for the state of `events`. */
  refresh(view, events, wanted = true) {
    view.cinemas.forEach((_, p) => {
      const acting = view.phase === "showings" && view.legal.some((m) => m.player === p
        && ["seat_action", "movie_action", "end_guest"].includes(m.move));
      if (!acting || !wanted) { delete this.byPlayer[p]; return; }
      if (this.byPlayer[p] && this.byPlayer[p].events === events) return;
      const entry = { events, moves: [] };
      this.byPlayer[p] = entry;
      call(`/api/tables/${this.id}/${this.route}?player=${p}`)
        .then((answer) => { entry.moves = answer.moves; })
        .catch(() => { entry.moves = []; })
        .finally(() => { if (this.byPlayer[p] === entry) this.onChange(); });
    });
  }

  /** Player `p`'s gain-only moves (empty while none is known). */
  moves(p) {
    return this.byPlayer[p] ? this.byPlayer[p].moves : [];
  }
}

/** What a list of player `p`'s activations does, in words: "+$1, +$2, Audience +1" (at
 * most `most`, then "…"); guests ending say nothing. */
export function activationWords(view, p, moves, most = 4) {
  const slots = view.cinemas[p].slots;
  const action = (m) => {
    const s = slots[m.slot];
    const seat = m.move === "seat_action" && s.theater ? s.theater.seat_actions[m.seat] : "movie_action";
    return seat === "movie_action" && s.movie && m.index !== undefined ? s.movie.actions[m.index] : seat;
  };
  const words = moves.filter((m) => m.move !== "end_guest").map((m) => actionLabel(action(m)));
  return words.length > most ? `${words.slice(0, most).join(", ")}, …` : words.join(", ");
}

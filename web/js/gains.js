// "Take the gains": for each player acting in the Showings, the hub's list of activations
// that only gain and need no choice (GET /api/tables/{id}/gains), as one button that sends
// them as one batch. The decision it stops at stays on screen as the usual move buttons.

import { call } from "./api.js";
import { actionLabel } from "./labels.js";

export class Gains {
  /** `onChange` redraws the screen when an answer arrives. */
  constructor(tableId, onChange) {
    Object.assign(this, { id: tableId, onChange });
    this.byPlayer = {};
  }

  /** Ask again for every player with activations open, for the state of `events`. */
  refresh(view, events) {
    view.cinemas.forEach((_, p) => {
      const acting = view.phase === "showings" && view.legal.some((m) => m.player === p
        && ["seat_action", "movie_action", "end_guest"].includes(m.move));
      if (!acting) { delete this.byPlayer[p]; return; }
      if (this.byPlayer[p] && this.byPlayer[p].events === events) return;
      const entry = { events, moves: [] };
      this.byPlayer[p] = entry;
      call(`/api/tables/${this.id}/gains?player=${p}`)
        .then((answer) => { entry.moves = answer.moves; })
        .catch(() => { entry.moves = []; })
        .finally(() => { if (this.byPlayer[p] === entry) this.onChange(); });
    });
  }

  /** Player `p`'s gain-only moves (empty while none is known). */
  moves(p) {
    return this.byPlayer[p] ? this.byPlayer[p].moves : [];
  }

  /** What the moves gain, in words: "+$1, +$2, Audience +1". */
  label(view, p) {
    const slots = view.cinemas[p].slots;
    const action = (m) => {
      const s = slots[m.slot];
      const seat = m.move === "seat_action" && s.theater ? s.theater.seat_actions[m.seat] : "movie_action";
      return seat === "movie_action" && s.movie && m.index !== undefined ? s.movie.actions[m.index] : seat;
    };
    return this.moves(p).filter((m) => m.move !== "end_guest").map((m) => actionLabel(action(m))).join(", ");
  }
}

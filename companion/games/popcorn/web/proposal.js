// Seat as shown: once a player's draw is done, the hub's placement for the drawn guests
// (GET /api/tables/{id}/placement: the advisor's with the table's hints on, else the first
// free seats in draw order) is drawn on the cinema as faded pawns, and one button sends it
// as one batch of ordinary moves; with hints on, a second button also plays what the plan
// has the guests do next ("Seat and play as suggested"). Once two players or more wait, one
// button seats all of them as shown ("Seat all — everyone"). Tapping a guest and then a
// seat still works: the proposal is asked again for the guests still drawn.

import { call } from "../../web/js/api.js";

/** Whether player `p` has finished drawing and has guests waiting to be seated. */
function ready(view, p) {
  const c = view.cinemas[p];
  if (view.phase !== "showings" || !c.showing || c.showing.to_draw > 0 || !c.hand.length) return false;
  if (view.pending.some((t) => t.player === p)) return false;
  return view.legal.some((m) => m.player === p && (m.move === "place" || m.move === "to_exit"));
}

export class Proposals {
  /** `onChange` redraws the screen when a proposal arrives. */
  constructor(tableId, onChange) {
    Object.assign(this, { id: tableId, onChange });
    this.byPlayer = {};
  }

  /** Ask for the placements the view now calls for, and forget the ones it no longer does. */
  refresh(view, hints) {
    view.cinemas.forEach((c, p) => {
      if (!ready(view, p)) { delete this.byPlayer[p]; return; }
      const key = `${hints}:${view.round}:${c.hand.map((h) => h.pawn).join(",")}`;
      if (this.byPlayer[p] && this.byPlayer[p].key === key) return;
      const entry = { key, moves: null, then: [], gains: null };
      this.byPlayer[p] = entry;
      call(`/api/tables/${this.id}/placement?player=${p}`)
        .then((answer) => {
          Object.assign(entry, { moves: answer.moves, then: answer.then || [], gains: answer.gains || null });
        })
        .catch(() => { entry.moves = []; }) // no proposal: tapping guest and seat still works
        .finally(() => { if (this.byPlayer[p] === entry) this.onChange(); });
    });
  }

  /** Player `p`'s proposed moves (empty while none is known). */
  moves(p) {
    const entry = this.byPlayer[p];
    return entry && entry.moves ? entry.moves : [];
  }

  /** What the advisor's plan has player `p`'s guests do once seated as shown, up to the
   * first step the table resolves itself (empty with hints off). */
  then(p) {
    const entry = this.byPlayer[p];
    return entry && entry.moves ? entry.then : [];
  }

  /** What the advisor expects player `p`'s placement to bring (`{money, popcorn, audience,
   * ...}`), or null (hints off, or not known yet). */
  gains(p) {
    const entry = this.byPlayer[p];
    return entry && entry.moves ? entry.gains : null;
  }

  /** "Seat and play — everyone": once no player is still drawing, each player's part, in
   * seat order: a player with guests waiting, their placement and plan; else the advisor's
   * plan for their seated guests (`suggested(p)`). Offered when two players or more have a
   * part; empty otherwise, or while a placement is still on its way. Each part is
   * `{player, moves, seating}`. */
  everyone(view, suggested) {
    if (view.phase !== "showings") return [];
    if (view.cinemas.some((c) => c.showing && c.showing.to_draw > 0)) return [];
    const players = view.cinemas.map((_, p) => p);
    if (players.some((p) => ready(view, p) && !this.moves(p).length)) return [];
    const parts = players.map((p) => (ready(view, p)
      ? { player: p, moves: [...this.moves(p), ...this.then(p)], seating: true }
      : { player: p, moves: suggested(p), seating: false })).filter((part) => part.moves.length);
    return parts.length >= 2 ? parts : [];
  }

  /** "Seat all — everyone": every player whose guests wait for a seat, each with their
   * placement as shown (no plan), in seat order; offered when two players or more wait and
   * every one of them has a placement to show. Each part is `{player, moves}`. */
  seatingAll(view) {
    if (view.phase !== "showings") return [];
    const waiting = view.cinemas.map((_, p) => p).filter((p) => ready(view, p));
    if (waiting.length < 2 || waiting.some((p) => !this.moves(p).length)) return [];
    return waiting.map((p) => ({ player: p, moves: this.moves(p) }));
  }

  /** The pawn proposed for a seat, or undefined. */
  pawnFor(p, slot, seat) {
    const move = this.moves(p).find((m) => m.move === "place" && m.slot === slot && m.seat === seat);
    return move && move.pawn;
  }

  /** Whether the proposal sends `pawn` to the exit zone. */
  exits(p, pawn) {
    return this.moves(p).some((m) => m.move === "to_exit" && m.pawn === pawn);
  }
}

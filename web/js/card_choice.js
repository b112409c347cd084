// The "choose a slot" prompt of a card tapped on a bag reader (docs/dashboard.md, "Cards
// tapped on a reader"). When a movie or a theater tile tapped to buy it could go into
// several slots, the hub applies nothing and puts the choice in the public view's
// `card_choice` ({player, kind, card, title, moves}); the side panel shows one button per
// legal slot, naming what the card would cover there, and one tap sends that move. Any move
// clears the choice.

import { esc } from "./labels.js";

const SLOT_WORDS = ["Left", "Center", "Right"];

/** What buying the card into `slot` covers: the movie or the theater already there. */
function covers(view, choice, slot) {
  const here = view.cinemas[choice.player].slots[slot];
  if (choice.kind === "movie" && here.movie) return ` (over ${here.movie.title})`;
  if (choice.kind === "theater" && here.theater) return ` (over the ${here.theater.seats}-seat theater)`;
  return "";
}

/** The prompt's HTML, or "" when no card waits for its slot. */
export function cardChoiceHtml(view) {
  const choice = view.card_choice;
  if (!choice || !choice.moves || !choice.moves.length) return "";
  const buttons = choice.moves.map((move, index) => `<button class="btn primary" data-act="card-choice"
      data-index="${index}" data-testid="card-choice-${move.slot}">${esc(SLOT_WORDS[move.slot] || move.slot)} slot${esc(covers(view, choice, move.slot))}</button>`);
  return `<div class="card-choice" data-testid="card-choice" data-card="${esc(choice.card)}">
    <div><b>${esc(view.names[choice.player])}</b> tapped <b>${esc(choice.title)}</b>: which slot
      does this ${esc(choice.kind)} go into?</div>
    <div class="row">${buttons.join("")}</div></div>`;
}

// The "choose a slot" prompt of a card tapped on a bag reader (docs/dashboard.md, "Cards
// tapped on a reader"). When a movie or a theater tile tapped to buy it could go into
// several slots, the hub applies nothing and puts the choice in the public view's
// `card_choice` ({player, kind, card, title, moves}); the side panel shows one button per
// legal slot, naming what the card would cover there, and one tap sends that move. Any move
// clears the choice.

import { t, tn } from "../../i18n.js";
import { esc } from "../../labels.js";

/** Each slot's button word, in this device's language. */
const SLOT_WORDS = () => [t("Left slot"), t("Center slot"), t("Right slot")];

/** What buying the card into `slot` covers: the movie or the theater already there. */
function covers(view, choice, slot) {
  const here = view.cinemas[choice.player].slots[slot];
  if (choice.kind === "movie" && here.movie) return ` ${t("(over {title})", { title: here.movie.title })}`;
  if (choice.kind === "theater" && here.theater) {
    const seats = here.theater.seats;
    return ` ${tn("(over the {n}-seat theater)", "(over the {n}-seat theater)", seats)}`;
  }
  return "";
}

/** The question of the prompt: which slot the tapped movie or theater tile goes into. */
function question(view, choice) {
  const params = { name: view.names[choice.player], title: choice.title };
  return choice.kind === "theater"
    ? t("{name} tapped {title}: which slot does this theater tile go into?", params)
    : t("{name} tapped {title}: which slot does this movie go into?", params);
}

/** The prompt's HTML, or "" when no card waits for its slot. */
export function cardChoiceHtml(view) {
  const choice = view.card_choice;
  if (!choice || !choice.moves || !choice.moves.length) return "";
  const words = SLOT_WORDS();
  const buttons = choice.moves.map((move, index) => `<button class="btn primary" data-act="card-choice"
      data-index="${index}" data-testid="card-choice-${move.slot}">${esc(words[move.slot] || String(move.slot))}${esc(covers(view, choice, move.slot))}</button>`);
  return `<div class="card-choice" data-testid="card-choice" data-card="${esc(choice.card)}">
    <div>${esc(question(view, choice))}</div>
    <div class="row">${buttons.join("")}</div></div>`;
}

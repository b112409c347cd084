// The slot of a card tapped on a bag reader to buy it (docs/dashboard.md, "Cards tapped on a
// reader"). When a movie or a theater tile could go into several slots, the hub buys it into
// the suggested slot at once (the advisor's with hints on, else the first legal one) and keeps
// the choice in the public view's `card_choice` ({player, kind, card, title, moves, placed}):
// the side panel says where the card went and offers each other legal slot, naming what the
// card would cover there, and the board marks the card "just placed"; one tap on another slot
// (here or on the board) moves it there, as one move (POST .../choice). Any other move clears
// the choice. A choice with nothing placed (`placed` null) asks first, one button per slot.
//
// A guest tapped into a bag that may have come from several places (a gain from another
// player's exit zone when the reserve has none of its color: the tag says which pawn, not which
// place) is a choice too, of `kind` "guest" ({player, color, moves, places, placed}): the hub
// takes it from the first place at once, and the panel offers each other place, one tap each.
//
// Guests set down together on a mat's theater (settled in one scan, so the mat cannot tell
// their order) are a choice of `kind` "order" ({player, slot, seat, orders, moves, placed}):
// the hub seats them in the order the mat read at once, and when another order would seat
// another color somewhere the panel offers it, one tap each (its guests' colors, seat by seat);
// the tap seats them all that way, as one move.

import { contextText, placeText, sentence, t, tn } from "../../web/js/i18n.js";
import { esc, guestName } from "../../web/js/labels.js";

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

/** The tapped card's title in this device's language: a theater tile is named as it looks
 * ("the $2 one-seat tile (blue seat: +$3)", the catalog's `theater:<id>` words). */
export function choiceTitle(choice) {
  return (choice.kind === "theater" && contextText("theater", choice.card)) || choice.title;
}

/** The question of the prompt: which slot the tapped movie or theater tile goes into. */
function question(view, choice) {
  const params = { name: view.names[choice.player], title: choiceTitle(choice) };
  return choice.kind === "theater"
    ? t("{name} tapped {title}: which slot does this theater tile go into?", params)
    : t("{name} tapped {title}: which slot does this movie go into?", params);
}

/** Where a placed card went, in words. */
function placedText(view, choice) {
  const params = { name: view.names[choice.player], title: choiceTitle(choice), slot: SLOT_WORDS()[choice.moves[choice.placed].slot] };
  return sentence(t("{title} is in {name}'s cinema, {slot}. Another slot? One tap moves it there:", params));
}

/** Where a tapped guest came from, and each other place it may have come from: the prompt of
 * a guest choice (the tablet's, or with `own` the tapping player's phone's). */
export function guestChoiceHtml(view, choice, own = false, act = "card-choice") {
  const placed = choice.placed ?? 0;
  const params = { guest: guestName(choice.color), name: view.names[choice.player], place: placeText(choice.places[placed]) };
  const head = own ? t("The {guest} went into your bag from {place}. From another place? One tap:", params)
    : t("The {guest} went into {name}'s bag from {place}. From another place? One tap:", params);
  const buttons = choice.places.map((place, index) => index === placed ? ""
    : `<button type="button" class="btn" data-act="${act}" data-index="${index}" data-testid="guest-choice-${index}">${esc(placeText(place))}</button>`);
  return `<div class="card-choice" data-testid="guest-choice" data-placed="${placed}">
    <div>${esc(head)}</div>
    <div class="row">${buttons.join("")}</div></div>`;
}

/** One order of guests set down together, seat by seat: "red R guest → blue B guest". */
export function orderText(order) {
  return order.map(guestName).join(" → ");
}

/** How guests set down together now sit, and each other order that would play differently:
 * the prompt of an order choice (the tablet's, or with `own` the player's phone's). */
export function orderChoiceHtml(view, choice, own = false, act = "card-choice") {
  const placed = choice.placed ?? 0;
  const params = { name: view.names[choice.player], slot: choice.slot + 1, order: orderText(choice.orders[placed]) };
  const head = own ? t("Your guests set down together in theater {slot} sit in this order: {order}. Another order? One tap:", params)
    : t("{name}'s guests set down together in theater {slot} sit in this order: {order}. Another order? One tap:", params);
  const buttons = choice.orders.map((order, index) => index === placed ? ""
    : `<button type="button" class="btn" data-act="${act}" data-index="${index}" data-testid="order-choice-${index}">${esc(orderText(order))}</button>`);
  return `<div class="card-choice" data-testid="order-choice" data-placed="${placed}">
    <div>${esc(sentence(head))}</div>
    <div class="row">${buttons.join("")}</div></div>`;
}

/** Whether `choice` is a card's choice of slots (not a guest's place or an order). */
function isCard(choice) {
  return Boolean(choice) && choice.kind !== "guest" && choice.kind !== "order";
}

/** The prompt's HTML, or "" when no card waits for its slot. */
export function cardChoiceHtml(view) {
  const choice = view.card_choice;
  if (!choice || !choice.moves || !choice.moves.length) return "";
  if (choice.kind === "guest") return guestChoiceHtml(view, choice);
  if (choice.kind === "order") return orderChoiceHtml(view, choice);
  const words = SLOT_WORDS();
  const placed = choice.placed ?? null;
  const buttons = choice.moves.map((move, index) => index === placed ? "" : `<button class="btn${placed === null ? " primary" : ""}"
      data-act="card-choice" data-index="${index}" data-testid="card-choice-${move.slot}">${esc(words[move.slot] || String(move.slot))}${esc(placed === null ? covers(view, choice, move.slot) : "")}</button>`);
  const head = placed === null ? question(view, choice) : placedText(view, choice);
  return `<div class="card-choice" data-testid="card-choice" data-card="${esc(choice.card)}" data-placed="${placed ?? ""}">
    <div>${esc(head)}</div>
    <div class="row">${buttons.join("")}</div></div>`;
}

/** The slot of player `p` a placed card just went into (to mark it "just placed"), or -1. */
export function justPlacedSlot(view, p) {
  const choice = view.card_choice;
  if (!isCard(choice) || choice.placed === null || choice.placed === undefined || choice.player !== p) return -1;
  return choice.moves[choice.placed].slot;
}

/** The index of the choice's move into slot `k` of player `p`, when a tap there should move
 * the placed card (another legal slot), else -1. */
export function rechoiceAt(view, p, k) {
  const choice = view.card_choice;
  if (!isCard(choice) || choice.placed === null || choice.placed === undefined || choice.player !== p) return -1;
  const index = choice.moves.findIndex((m) => m.slot === k);
  return index === choice.placed ? -1 : index;
}

// A player's own turn on their phone (docs/dashboard.md, "Phones"): when the table waits for
// this player, the phone offers what the tablet offers them, and only that.
//   - Seating (Showings, every guest drawn): the hub's placement (GET .../placement, the same
//     as the tablet's faded pawns) in words and pawn discs, with "Seat all" and, when the
//     advisor's plan goes on, "Seat and play": one batch each, as on the tablet.
//   - Activations: "Take the gains" (GET .../gains) and "Play as suggested"
//     (GET .../suggestion), each one batch, what they do written on the button; "Skip the
//     rest" (GET .../rest) ends every guest still to act, one batch, its count on the button.
//   - The card just placed (the view's `card_choice` of this player): each other slot; a
//     guest tapped into the bag: each other place; guests set down together on the mat:
//     each other order.
//   - Every other legal move of this player (ads, end of turn, a guest's actions, a bonus),
//     one button per move the table can tell apart, in the tablet's words (labels.js).
// Everything goes with the phone's token, so the hub takes only this player's moves
// (docs/api.md, "A phone plays only its own player's pieces"), through the same checks
// and batches as the tablet; the tablet redraws on the `state` push.

import { call } from "../../web/js/api.js";
import { placeText, sentence, t, tn } from "../../web/js/i18n.js";
import { actionLabel, esc, guestChip, guestName, moveLabel, pawnHtml, seatWords } from "../../web/js/labels.js";
import { choiceTitle, guestChoiceHtml, orderChoiceHtml, orderText } from "./card_choice.js";
import { activationWords } from "./gains.js";

/** Moves the phone offers no button of their own: a card is bought by tapping it (at the
 * reader or on the tablet), and drawn guests are seated by the placement's buttons. */
const NO_BUTTON = new Set(["buy_movie", "buy_theater"]);
const SEATING = new Set(["place", "to_exit"]);
const ACTIVATIONS = new Set(["seat_action", "movie_action", "end_guest"]);
const SLOT_WORDS = () => [t("Left slot"), t("Center slot"), t("Right slot")];

/** Whether player `p` has drawn every guest and may seat them as the hub proposes (the
 * tablet's "Seat all" shows then too). */
export function seatingReady(view, p) {
  const c = view.cinemas[p];
  if (view.phase !== "showings" || !c || !c.showing || c.showing.to_draw > 0 || !c.hand.length) return false;
  if (view.pending.some((task) => task.player === p)) return false;
  return view.legal.some((m) => m.player === p && SEATING.has(m.move));
}

/** Whether player `p` has a seated guest to act (gains and suggestion may have moves). */
function acting(view, p) {
  return view.phase === "showings" && view.legal.some((m) => m.player === p && ACTIVATIONS.has(m.move));
}

/** What the advisor expects a placement to bring, in words ("+$2, +1 popcorn"), or "". */
function gainsWords(g) {
  if (!g) return "";
  return [g.money ? `+$${g.money}` : "", g.popcorn ? t("+{n} popcorn", { n: g.popcorn }) : "",
    g.audience ? `${t("Audience")} +${g.audience}` : ""].filter(Boolean).join(", ");
}

export class PhoneTurn {
  /** The turn of `seat` at `tableId`, sent with `token`; `onChange` redraws the panel when
   * an answer of the hub arrives. */
  constructor(ctx, tableId, seat, token, onChange) {
    Object.assign(this, { ctx, tableId, seat, token, onChange });
    this.answers = {};      // route -> {events, data}: this seat's placement, gains, suggestion
    this.openGroup = null;  // the "which guest?" button opened
  }

  /** Ask the hub again for what the view of `events` calls for, for this seat only. */
  refresh(view, events) {
    const want = { placement: seatingReady(view, this.seat), gains: acting(view, this.seat),
      suggestion: acting(view, this.seat), rest: acting(view, this.seat) };
    for (const [route, on] of Object.entries(want)) {
      if (!on) { delete this.answers[route]; continue; }
      if (this.answers[route] && this.answers[route].events === events) continue;
      const entry = { events, data: null };
      this.answers[route] = entry;
      call(`/api/tables/${encodeURIComponent(this.tableId)}/${route}?player=${this.seat}`)
        .then((data) => { entry.data = data; })
        .catch(() => { entry.data = { moves: [], then: [] }; }) // nothing offered: the moves stay
        .finally(() => { if (this.answers[route] === entry) this.onChange(); });
    }
  }

  /** The moves a route answered (empty while none is known). */
  moves(route) {
    const entry = this.answers[route];
    return entry && entry.data ? entry.data.moves || [] : [];
  }

  /** The panel's inner HTML for `view`, or "" when this player has nothing to do here. */
  html(view) {
    const parts = [this.choiceHtml(view), this.seatingHtml(view), this.shortcutsHtml(view),
      this.movesHtml(view)].filter(Boolean);
    if (!parts.length) return "";
    return `<h2>${esc(t("Your moves"))}</h2>${parts.join("")}`;
  }

  /** The card this player just bought by its tag: where it went, and each other slot. */
  choiceHtml(view) {
    const choice = view.card_choice;
    if (!choice || choice.player !== this.seat || !choice.moves || !choice.moves.length) return "";
    if (choice.kind === "guest") return guestChoiceHtml(view, choice, true, "turn-choice");
    if (choice.kind === "order") return orderChoiceHtml(view, choice, true, "turn-choice");
    const words = SLOT_WORDS();
    const placed = choice.placed ?? null;
    const title = choiceTitle(choice);
    const head = placed === null
      ? t("Which slot does {title} go into?", { title })
      : sentence(t("{title} is in your cinema, {slot}. Another slot? One tap moves it there:",
        { title, slot: words[choice.moves[placed].slot] }));
    const buttons = choice.moves.map((move, index) => index === placed ? ""
      : `<button type="button" class="btn${placed === null ? " primary" : ""}" data-act="turn-choice"
        data-index="${index}" data-testid="phone-choice-${move.slot}">${esc(words[move.slot] || String(move.slot))}</button>`);
    return `<div class="ph-block" data-testid="phone-choice" data-card="${esc(choice.card)}">
      <p>${esc(head)}</p><div class="ph-buttons">${buttons.join("")}</div></div>`;
  }

  /** The hub's placement of this player's drawn guests, guest by guest, with Seat all and
   * (when the plan goes on) Seat and play; what the play does is written under it. */
  seatingHtml(view) {
    if (!seatingReady(view, this.seat)) return "";
    const entry = this.answers.placement;
    if (!entry || !entry.data) return `<p class="ph-muted">${esc(t("Loading…"))}</p>`;
    const moves = entry.data.moves || [];
    if (!moves.length) return "";
    const colors = this.ctx.catalog.pawns;
    const slots = view.cinemas[this.seat].slots;
    const rows = moves.map((m) => {
      const disc = pawnHtml(m.pawn, colors[m.pawn]);
      const name = guestName(colors[m.pawn]);
      const where = m.move === "to_exit" ? t("your exit zone") : seatWords(m.slot, m.seat + 1);
      const seat = m.move === "place" && slots[m.slot] && slots[m.slot].theater
        ? slots[m.slot].theater.seat_actions[m.seat] : null;
      const action = seat && seat !== "none" ? ` <small>${esc(actionLabel(seat))}</small>` : "";
      return `<li data-testid="phone-place-${m.pawn}">${disc}<span class="ph-label">${esc(t("{guest} → {where}", { guest: name, where }))}${action}</span></li>`;
    }).join("");
    const then = entry.data.then || [];
    const what = activationWords(view, this.seat, then, 4);
    const brings = gainsWords(entry.data.gains);
    const play = then.length ? `<button type="button" class="btn primary ph-big" data-act="turn-seat-play"
      data-testid="phone-seat-play">${esc(t("Seat and play"))}<small>${esc(what ? t("then {actions}", { actions: what }) : tn("{n} move", "{n} moves", then.length))}</small></button>` : "";
    return `<div class="ph-block" data-testid="phone-seating">
      <h3>${esc(tn("Seat your drawn guest", "Seat your {n} drawn guests", view.cinemas[this.seat].hand.length))}</h3>
      <ul class="ph-placement">${rows}</ul>
      ${brings ? `<p class="ph-muted" data-testid="phone-brings">${esc(t("This placement brings {gains}", { gains: brings }))}</p>` : ""}
      <div class="ph-buttons">${play}<button type="button" class="btn${then.length ? "" : " primary"} ph-big" data-act="turn-seat-all"
        data-testid="phone-seat-all">${esc(t("Seat all"))}<small>${esc(t("as shown"))}</small></button></div></div>`;
  }

  /** "Take the gains", "Play as suggested" and "Skip the rest": one batch each, what they do
   * on the button. */
  shortcutsHtml(view) {
    const gains = this.moves("gains");
    const suggestion = this.moves("suggestion");
    const button = (act, testid, label, moves) => {
      const what = activationWords(view, this.seat, moves, 4);
      return `<button type="button" class="btn primary ph-big" data-act="${act}" data-testid="${testid}">${esc(label)}
        <small data-testid="${testid}-what">${esc(what || tn("{n} move", "{n} moves", moves.length))}</small></button>`;
    };
    const out = [];
    if (suggestion.length && JSON.stringify(suggestion) !== JSON.stringify(gains)) {
      out.push(button("turn-suggestion", "phone-suggestion", t("Play as suggested"), suggestion));
    }
    if (gains.length) out.push(button("turn-gains", "phone-gains", t("Take the gains"), gains));
    const rest = this.moves("rest");
    if (rest.length >= 2) { // one guest: its own "done" button does it, as on the tablet
      const what = tn("{n} guest ends its turn", "{n} guests end their turn", rest.length);
      out.push(`<button type="button" class="btn ph-big" data-act="turn-skip-rest" data-testid="phone-skip-rest">${esc(t("Skip the rest"))}
        <small data-testid="phone-skip-rest-what">${esc(what)}</small></button>`);
    }
    return out.length ? `<div class="ph-buttons">${out.join("")}</div>` : "";
  }

  /** One button per move of this player the table can tell apart; moves that differ only by
   * the guest they pick fold under one ("— which guest?"). */
  movesHtml(view) {
    const seating = seatingReady(view, this.seat);
    const mine = view.legal.filter((m) => m.player === this.seat && !NO_BUTTON.has(m.move)
      && !(seating && SEATING.has(m.move)));
    if (!mine.length) return "";
    const catalog = this.ctx.catalog;
    const byLabel = new Map();  // look-alike pawns: one button stands for them all
    for (const m of mine) {
      const label = moveLabel(m, view, catalog);
      if (byLabel.has(label)) byLabel.get(label).same.push(m);
      else byLabel.set(label, { move: m, same: [m] });
    }
    const groups = new Map();
    for (const entry of byLabel.values()) {
      const m = entry.move;
      const key = m.pawn === undefined ? JSON.stringify(m) : moveLabel({ ...m, pawn: undefined }, view, catalog);
      if (!groups.has(key)) groups.set(key, []);
      groups.get(key).push(entry);
    }
    const buttons = [...groups.entries()].map(([key, entries]) => {
      if (entries.length === 1) return this.moveButton(view, entries[0]);
      const first = { ...entries[0].move, pawn: undefined };
      const open = this.openGroup === key;
      const all = entries.flatMap((e) => e.same);  // what the group holds, as on the tablet
      const head = `<button type="button" class="btn ph-move${open ? " open" : ""}" data-act="turn-group"
        data-key="${esc(key)}" data-same="${esc(JSON.stringify(all))}" data-testid="phone-group">${guestChip(first, view)}<span class="ph-label">${esc(moveLabel(first, view, catalog))}
        <small>${esc(t("— which guest? ({n})", { n: entries.length }))}</small></span></button>`;
      return open ? `${head}<div class="ph-choices-of">${entries.map((e) => this.moveButton(view, e)).join("")}</div>` : head;
    });
    return `<div class="ph-block ph-moves" data-testid="phone-moves">${buttons.join("")}</div>`;
  }

  /** One move's button: its guest's disc, the move in words, and the picked guest's disc;
   * `same` lists the look-alike moves it stands for (the hub takes the first). */
  moveButton(view, { move, same }) {
    const catalog = this.ctx.catalog;
    const pawn = move.pawn === undefined ? "" : ` ${pawnHtml(move.pawn, catalog.pawns[move.pawn], "small")}`;
    return `<button type="button" class="btn ph-move" data-act="turn-move" data-testid="phone-move"
      data-kind="${esc(move.move)}" data-move="${esc(JSON.stringify(move))}" data-same="${esc(JSON.stringify(same))}">
      ${guestChip(move, view)}<span class="ph-label">${esc(moveLabel(move, view, catalog))}</span>${pawn}</button>`;
  }

  /** What a tap on `el` (a button of the panel) sends, as `{path, body, label}` (`label`:
   * the button's words, for the phone's "Done" note), or null when it sends nothing (a group
   * opened or closed: `onChange` redraws). */
  request(el, view) {
    const moves = (body, label) => ({ path: "moves", body, label });
    const advice = (list, label) => moves(view.play_on ? { moves: list, go_on: true } : { moves: list }, label);
    const placement = this.answers.placement && this.answers.placement.data;
    switch (el.dataset.act) {
      case "turn-seat-all": return placement && moves({ moves: placement.moves }, t("Seat all"));
      case "turn-seat-play":
        return placement && advice([...placement.moves, ...(placement.then || [])], t("Seat and play"));
      case "turn-gains": return moves({ moves: this.moves("gains") }, t("Take the gains"));
      case "turn-suggestion": return advice(this.moves("suggestion"), t("Play as suggested"));
      case "turn-skip-rest": return moves({ moves: this.moves("rest") }, t("Skip the rest"));
      case "turn-move": {
        const move = JSON.parse(el.dataset.move);
        return moves({ move }, moveLabel(move, view, this.ctx.catalog));
      }
      case "turn-choice": {
        const choice = view.card_choice;
        const index = Number(el.dataset.index);
        if (!choice || !choice.moves[index]) return null;
        const label = choice.kind === "guest" ? placeText(choice.places[index])
          : choice.kind === "order" ? orderText(choice.orders[index]) : SLOT_WORDS()[choice.moves[index].slot];
        // a card the hub asks about first is bought by its move; a placed one moves
        return choice.placed === null || choice.placed === undefined
          ? moves({ move: choice.moves[index] }, label) : { path: "choice", body: { index }, label };
      }
      case "turn-group":
        this.openGroup = this.openGroup === el.dataset.key ? null : el.dataset.key;
        this.onChange();
        return null;
      default: return null;
    }
  }

  /** Send a request of :meth:`request` with this phone's token. */
  send({ path, body }) {
    return call(`/api/tables/${encodeURIComponent(this.tableId)}/${path}`, { method: "POST", body, token: this.token });
  }
}

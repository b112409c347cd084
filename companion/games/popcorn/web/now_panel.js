// The side panel's "now" part on the Popcorn table screen: a hint for the phase (with the
// Hints toggle and what each shown placement is expected to bring), the last refusal, the
// steps the table waits for, and a search box per chance step the table reports (a starting
// movie, a revealed movie or theater, a draw typed by hand), listing only the outcomes the
// engine offers.
//
// Methods of the table screen, mixed into `TableScreen` by table.js: `this` is the screen.

import { actionLabel, esc, guestName } from "../../web/js/labels.js";
import { actionMeaning, colorWord, t, tn } from "../../web/js/i18n.js";
import { ranked } from "../../web/js/search.js";
import { activationWords } from "./gains.js";

export const nowPanelMethods = {
  /** The side panel's pinned part (always in sight): a nudge, the next step (or what a
   * selection waits for) and the last refusal. */
  pinnedHtml() {
    const nudge = this.nudge ? `<div class="nudge" data-testid="nudge" role="status">${esc(this.nudge)}</div>` : "";
    const refusal = this.refusal
      ? `<div class="refusal" data-testid="refusal"><b>${esc(t("Refused:"))}</b> ${esc(this.refusal)}</div>` : "";
    return nudge + this.hintHtml() + refusal;
  },

  /** The side panel's part that scrolls when it has more to say: how the phase is played,
   * what each shown placement brings, the steps the table waits for, the search boxes. */
  scrolledHtml() {
    return this.howHtml() + this.pendingHtml() + this.chanceHtml();
  },

  hintHtml() {
    const v = this.view;
    const sel = this.selection;
    if (sel && sel.kind === "pawn") {
      const color = this.ctx.catalog.pawns[sel.pawn];
      return `<div class="hint" data-testid="hint">${esc(t("The drawn {guest}: tap a seat in {name}'s cinema, or", { guest: guestName(color), name: v.names[sel.player] }))}
        <button class="btn small" data-act="to-exit" data-testid="to-exit">${esc(t("send it to the exit zone"))}</button>
        <button class="btn small" data-act="clear">${esc(t("Cancel"))}</button></div>`;
    }
    if (sel) {
      const card = this.ctx.catalog.byId[sel.card];
      return `<div class="hint" data-testid="hint">${esc(t("{card} is selected: tap a slot in {name}'s cinema to buy it there (Cancel lets it go).", { card: card ? card.title || card.id : sel.card, name: v.names[v.current] }))}
        <button class="btn small" data-act="clear" data-testid="clear-selection">${esc(t("Cancel"))}</button></div>`;
    }
    const step = this.stepWords();
    return step ? `<div class="hint step" data-testid="step">${esc(step)}</div>` : "";
  },

  /** The next step in one sentence, following the table: who buys; in the Showings who
   * still draws, then who seats, then an award draw or a gain, then who plays actions. */
  stepWords() {
    const v = this.view;
    if (v.phase !== "showings") { // a step the table owes first (a reveal, a gain), else the buyer
      if (v.pending.length) return this.taskWords(v.pending[0]);
      return v.phase === "buying" ? t("{name} buys: tap a movie or a theater, then a slot.", { name: v.names[v.current] }) : "";
    }
    const names = (seats) => seats.map((p) => v.names[p]).join(", ");
    const who = (test) => v.cinemas.map((c, p) => [c, p]).filter(([c]) => test(c)).map(([, p]) => p);
    const drawing = who((c) => c.showing && c.showing.to_draw > 0);
    if (drawing.length) return t("Draw guests from the bag onto its reader: {names}.", { names: names(drawing) });
    const seating = who((c) => c.hand.length > 0);
    if (seating.length) return t("Seat the drawn guests: {names}.", { names: names(seating) });
    const task = v.pending.find((x) => ["award", "gain", "bonus", "draw_seat"].includes(x.kind));
    if (task) return this.taskWords(task);
    if (v.waiting.length) return t("Play the guests' actions: {names}.", { names: names(v.waiting) });
    return "";
  },

  /** How the phase is played, in more words, and the Hints toggle; a selected card's
   * actions in words. */
  howHtml() {
    const sel = this.selection;
    if (sel && sel.kind !== "pawn") return this.meaningsHtml(this.ctx.catalog.byId[sel.card]);
    if (this.view.phase !== "showings") return "";
    const how = this.hints() ? t("Faded pawns show the advisor's placement: Seat all (or Seat and play as suggested), tap a seat to seat the guest shown there, tap a color for the next free seat, or tap a guest, then its seat.")
      : t("Faded pawns show the first free seats: Seat all, tap a seat to seat the guest shown there, tap a color for the next free seat, or tap a guest, then its seat.");
    return `<div class="how">${this.expectedHtml()}<p>${esc(how)}
      <button class="btn small" data-act="hints" data-testid="hints-toggle">${esc(this.hints() ? t("Hints: on") : t("Hints: off"))}</button>
      ${this.hints() ? this.playOnButton() : ""}</p>${this.playingOnHtml()}</div>`;
  },

  /** The toggle of the advice's playing on (the view's `play_on`, changed with the PIN). */
  playOnButton() {
    const title = t("After a guest drawn to a seat is seated, or an award drawn, the hub goes on with the suggested play the table took. Undo takes it back.");
    const label = this.view.play_on ? t("Plays on: on") : t("Plays on: off");
    return `<button class="btn small" data-act="play-on" data-testid="play-on-toggle"
      aria-pressed="${Boolean(this.view.play_on)}" title="${esc(title)}">${esc(label)}</button>`;
  },

  /** Who the advisor plays on for (the view's `playing_on`), in words. */
  playingOnHtml() {
    const playing = this.view.playing_on || [];
    if (!playing.length) return "";
    const names = playing.map((p) => this.view.names[p]).join(", ");
    return `<p class="muted" data-testid="playing-on">${esc(t("The advisor plays on for {names}: Undo takes back what it played.", { names }))}</p>`;
  },

  /** The parts of "Seat and play — everyone" (proposal.js), or [] when it is not offered. */
  everyoneParts() {
    return this.proposals.everyone(this.view, (p) => this.suggestion.moves(p));
  },

  /** The shortcuts for every player at once: "Seat and play — everyone" and "Seat all —
   * everyone", each when it is offered. */
  everyoneHtml() {
    return this.playAllHtml() + this.seatingAllHtml();
  },

  /** "Seat all — everyone": every waiting player's guests seated as shown (the faded pawns),
   * as one batch; it names whom it seats. */
  seatingAllHtml() {
    const parts = this.proposals.seatingAll(this.view);
    if (!parts.length) return "";
    const names = parts.map(({ player: p, moves }) => tn("{name}: {n} guest", "{name}: {n} guests",
      moves.filter((m) => m.move === "place").length, { name: this.view.names[p] })).join(" · ");
    return `<div class="everyone seating-all" data-testid="seating-all">
      <button class="btn primary" data-act="seat-all-everyone" data-testid="seat-all-everyone">${esc(t("Seat all — everyone"))}</button>
      <span class="everyone-who" data-testid="seating-all-who">${esc(t("as shown: {who}", { who: names }))}</span></div>`;
  },

  /** "Seat and play — everyone": every player's placement and plan (or, for a player whose
   * guests are seated, the advisor's plan for them) as one batch, once nobody is still
   * drawing; it says on its face whom it seats and what they gain. */
  playAllHtml() {
    const parts = this.everyoneParts();
    if (!parts.length) return "";
    const v = this.view;
    const lines = parts.map(({ player: p, moves }) => {
      const seated = moves.filter((m) => m.move === "place").length;
      const what = activationWords(v, p, moves.filter((m) => m.move !== "place" && m.move !== "to_exit"), 3);
      const head = seated ? tn("{n} guest seated", "{n} guests seated", seated) : "";
      const words = [head, what].filter(Boolean).join(" → ") || tn("{n} move", "{n} moves", moves.length);
      return `<li data-testid="everyone-plan-${p}"><b>${esc(v.names[p])}</b>: ${esc(words)}</li>`;
    }).join("");
    const label = parts.some((part) => part.seating) ? t("Seat and play — everyone") : t("Play as suggested — everyone");
    return `<div class="everyone" data-testid="everyone">
      <button class="btn primary" data-act="seat-play-all" data-testid="seat-play-all">${esc(label)}</button>
      <ul class="everyone-plan">${lines}</ul></div>`;
  },

  /** What the actions of the card picked in the market do (a touch screen shows no
   * title): a movie's actions, or a theater's seats. */
  meaningsHtml(card) {
    if (!card) return "";
    const meaning = (a) => actionMeaning(a, this.ctx.catalog.actions[a] || a);
    const items = card.seats ? card.seat_actions.map((a, n) => [t("Seat {seat} ({color}): {action}", {
      seat: n + 1, action: actionLabel(a),
      color: card.seat_colors[n] === "grey" ? t("any") : colorWord(card.seat_colors[n]) }), meaning(a)])
      : (card.actions || []).filter((a) => a !== "none").map((a) => [actionLabel(a), meaning(a)]);
    return items.length ? `<ul class="meanings" data-testid="meanings">${items.map(([label, text]) =>
      `<li><b>${esc(label)}</b> ${esc(text)}</li>`).join("")}</ul>` : "";
  },

  /** With hints on, what the advisor expects each shown placement to bring, per player. */
  expectedHtml() {
    const lines = this.view.cinemas.map((c, p) => [c, p, this.proposals.gains(p)])
      .filter(([, , g]) => g).map(([c, p, g]) => {
        const words = [g.money ? `+$${g.money}` : "", g.popcorn ? t("+{n} popcorn", { n: g.popcorn }) : "",
          g.audience ? `${t("Audience")} +${g.audience}` : ""].filter(Boolean).join(", ") || "—";
        return `<li data-testid="expected-${p}">${esc(t("{name}: the placement shown brings {gains}", { name: c.name, gains: words }))}</li>`;
      });
    return lines.length ? `<ul class="expected">${lines.join("")}</ul>` : "";
  },

  pendingHtml() {
    const v = this.view;
    if (!v.pending.length) return "";
    return `<h3>${esc(t("Waiting for"))}</h3><ul class="pending" data-testid="pending">
      ${v.pending.map((task) => `<li>${esc(this.taskWords(task))}</li>`).join("")}</ul>`;
  },

  /** One step the table waits for (the view's `pending`), in words. */
  taskWords(task) {
    const v = this.view;
    const name = task.player !== null && task.player !== undefined ? v.names[task.player] : t("The table");
    switch (task.kind) {
      case "deal_starting": return t("{name}: pick the starting movie", { name });
      case "lineup": return t("Reveal the new Premiers from the movie deck");
      case "theater": return tn("Reveal a {n}-seat theater tile", "Reveal a {n}-seat theater tile", task.size);
      case "award": return t("{name}: draws award cards (on the phone)", { name });
      case "gain": return t("{name}: gains a {color} guest — tap it on the bag's reader", { name, color: colorWord(task.color) });
      case "bonus": return t("{name}: showing bonus {action}", { name, action: actionLabel(task.action) });
      case "draw_seat": return task.pawn === undefined ? t("{name}: draw a guest from the bag and tap it on the reader", { name })
        : t("{name}: seat the {guest} drawn", { name, guest: guestName(this.ctx.catalog.pawns[task.pawn]) });
      default: return `${name}: ${task.kind}`;
    }
  },

  chanceHtml() {
    const v = this.view;
    const groups = {};
    const alike = new Set(); // a draw typed by hand: one line per player and color
    for (const [i, m] of v.chance.entries()) {
      if (m.move === "draw_pawn") {
        const key = `${m.player}:${this.ctx.catalog.pawns[m.pawn]}`;
        if (alike.has(key)) continue;
        alike.add(key);
      }
      (groups[m.move] ||= []).push([m, i]);
    }
    const out = [];
    for (const [kind, list] of Object.entries(groups)) {
      const manual = kind === "draw_pawn";
      const shown = this.matches(kind, list);
      const only = shown.length === 1 && list.length > 1 ? " only" : "";
      const searchWord = t("Search…");
      const picker = `<div class="search" data-testid="picker-${kind}">
        <input data-act="search" data-kind="${kind}" placeholder="${esc(searchWord)}" value="${esc(this.pickerQuery[kind] || "")}"
          data-testid="search-${kind}" autocomplete="off" enterkeyhint="go">
        <ul>${shown.map(([m, i]) => `<li><button class="pick${only}" data-act="chance" data-index="${i}"
          data-testid="chance-${kind}-${esc(m.card ?? m.pawn)}">${esc(this.chanceText(m))}</button></li>`).join("")}</ul></div>`;
      const title = esc({ deal_starting: t("Starting movie dealt"), reveal_movie: t("Movie revealed"),
        reveal_theater: t("Theater tile revealed"), draw_pawn: t("Reader not working? Enter a draw by hand") }[kind] || kind);
      out.push(manual ? `<details class="manual"><summary>${title}</summary>${picker}</details>`
        : `<h3>${title}</h3>${picker}`);
    }
    return out.join("");
  },

  /** The outcomes of one search box that match its query, best first (at most 30). A new
   * step (other outcomes than the query was typed for) starts with an empty box. The engine
   * lists only the cards the deck still holds, so nothing else is ever offered. */
  matches(kind, list) {
    const step = JSON.stringify(list.map(([m]) => m));
    if (this.pickerStep[kind] !== step) {
      this.pickerStep[kind] = step;
      this.pickerQuery[kind] = "";
    }
    return ranked(list, this.pickerQuery[kind] || "", ([m]) => this.searchText(m)).slice(0, 30);
  },

  /** What a search box matches an outcome by: a movie's title, else its label. */
  searchText(m) {
    const card = m.card && this.ctx.catalog.byId[m.card];
    return card && card.title && !card.seats ? card.title : this.chanceText(m);
  },

  chanceText(m) {
    const v = this.view;
    const card = m.card && this.ctx.catalog.byId[m.card];
    const who = m.player !== undefined ? `${v.names[m.player]}: ` : "";
    // guests of a color look alike, and no pawn carries a number: a draw names the color
    if (m.move === "draw_pawn") return `${who}${t("a {guest}", { guest: guestName(this.ctx.catalog.pawns[m.pawn]) })}`;
    if (card && card.seats) {
      const seats = card.seat_colors.map((c, k) => `${c === "grey" ? t("any") : colorWord(c)} ${actionLabel(card.seat_actions[k])}`);
      return `${tn("{n}-seat theater", "{n}-seat theater", card.seats)}, $${card.price}: ${seats.join(" · ")}`;
    }
    return `${who}${card ? card.title || card.id : m.card}`;
  },
};

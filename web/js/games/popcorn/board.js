// Drawing the Popcorn table screen from the public view: the header's facts, the banners
// (the last round, reader alerts), the market (Features, Premiers, theater tiles, the
// advertising board) and one cinema per player: figures, bag and exit counts, the three
// slots with their seats and movie, the drawn guests with the next free seat's color buttons
// and Seat all. `render` lays out the whole screen; the side panel comes from now_panel.js
// (or the scores, the checklist, a card's slot question), a player's buttons from
// move_buttons.js.
//
// Methods of the table screen, mixed into `TableScreen` by table.js: `this` is the screen.

import { COLORS, actionLabel, adSpace, esc, guestName, letter, pawnHtml, seatWords }
  from "../../labels.js";
import { actionMeaning, alertText, colorWord, t, tn } from "../../i18n.js";
import { checklistHtml } from "./checklist.js";
import { scoresHtml } from "./scores.js";
import { activationWords } from "./gains.js";
import { cardChoiceHtml } from "./card_choice.js";

const SLOT_NAMES = () => [t("Left"), t("Center"), t("Right")];
const PHASES = () => ({ setup: t("Setup"), buying: t("Buying & Advertising"), showings: t("Showings"), over: t("Game over") });

export const boardMethods = {
  render() {
    const v = this.view;
    if (!v) return;
    this.renderFacts();
    this.renderBanners();
    // the checklist heads the side panel: the cinemas and the market stay in sight
    const list = this.checklist ? checklistHtml(this.checklist) : "";
    // a card's slot question comes first: a player waits on it with the card in hand
    const side = v.phase === "over" ? scoresHtml(v, this.ctx.catalog)
      : cardChoiceHtml(v) + list + this.nowHtml();
    this.root.innerHTML = `
      <div class="table-grid" data-phase="${v.phase}">
        <section class="market card" data-testid="market">${this.marketHtml()}</section>
        <section class="cinemas n${v.cinemas.length}" data-testid="cinemas">
          ${v.cinemas.map((c, p) => this.cinemaHtml(c, p)).join("")}
        </section>
        <section class="now card" data-testid="now">${side}</section>
      </div>`;
  },

  renderFacts() {
    const v = this.view;
    const turn = v.phase === "buying" ? v.names[v.current]
      : v.waiting.map((p) => v.names[p]).join(", ") || "—";
    const name = this.info ? this.info.name : this.id;
    document.getElementById("facts").innerHTML = `
      <span class="fact" data-testid="table-name">${esc(name)}</span>
      <span class="fact" data-testid="round">${esc(t("Round"))} <b>${v.round}</b></span>
      <span class="fact" data-testid="phase">${PHASES()[v.phase] || v.phase}</span>
      <span class="fact" data-testid="turn">${esc(t("To act:"))} <b>${esc(turn)}</b></span>
      <span class="fact">${esc(t("First player:"))} <b>${esc(v.names[v.first_player])}</b></span>
      <button class="btn small" data-act="undo" data-testid="undo">${esc(t("Undo"))}</button>
      <button class="btn small" data-act="correct" data-testid="correct">${esc(t("Correct"))}</button>
      <button class="btn small" data-act="phones" data-testid="phones">${esc(t("Phones"))}</button>`;
  },

  renderBanners() {
    const v = this.view;
    const parts = [];
    if (v && (v.last_round || v.final_revealed) && v.phase !== "over") {
      parts.push(`<div class="banner final" data-testid="last-round">${esc(t("LAST ROUND — the Final Showing card is out: this is the last round of the game."))}</div>`);
    }
    // a refused tap is no move: a banner offers the correction its fix names, and Dismiss
    // (the table has put the piece back, or chose to ignore it), never Undo
    for (const alert of this.alerts.shown()) {
      const who = v && alert.player !== null ? v.names[alert.player] : "";
      const pawn = alert.color ? pawnHtml(alert.pawn, alert.color) : "";
      const text = alertText(alert);
      const fix = alert.correct ? `<button class="btn small primary" data-act="correct-alert"
          data-alert="${alert.id}" data-testid="alert-correct">${esc(t("Correct its place"))}</button>` : "";
      parts.push(`<div class="banner alert" data-testid="alert" data-code="${esc(alert.code)}" data-alert="${alert.id}">
        ${pawn}<div class="grow"><div>${esc(who ? who + ": " : "")}${esc(text.message)}</div>
        <div class="fix">${esc(text.fix)}</div></div>${fix}
        <button class="btn small" data-act="dismiss" data-alert="${alert.id}"
          data-testid="alert-dismiss">${esc(t("Dismiss"))}</button></div>`);
    }
    document.getElementById("banners").innerHTML = parts.join("");
  },

  marketHtml() {
    const v = this.view;
    const movie = (m, row) => this.movieCard(m, row);
    const columns = Object.entries(v.columns).map(([size, tiles]) => `
      <div class="col"><h3>${esc(tn("{n}-seat theaters", "{n}-seat theaters", Number(size)))}</h3>
        ${tiles.map((tile) => this.theaterTile(tile)).join("") || `<p class="muted">${esc(t("none left"))}</p>`}</div>`).join("");
    return `
      <h3>${esc(t("Features"))}</h3>${v.features.map((m) => movie(m, "feature")).join("") || `<p class="muted">${esc(t("none"))}</p>`}
      <h3>${esc(t("Premiers"))} <span class="muted">(+$2)</span></h3>
      ${v.premiers.map((m) => movie(m, "premiere")).join("") || `<p class="muted">${esc(t("none"))}</p>`}
      <div class="columns">${columns}</div>
      <p class="muted deck">${esc(t("Movie deck: {movies} · Awards: {awards}", { movies: v.deck.movies, awards: v.deck.awards }))}</p>
      ${this.boardHtml()}`;
  },

  movieCard(m, row) {
    const selected = this.selection && this.selection.card === m.id ? " selected" : "";
    const surcharge = m.cost - m.price;
    const price = surcharge > 0 ? `$${m.price} <em>+$${surcharge}</em> = <b>$${m.cost}</b>` : `<b>$${m.cost}</b>`;
    return `<button class="mv${selected}" data-act="pick-movie" data-card="${esc(m.id)}"
        data-testid="${row}-${esc(m.id)}">
      <span class="chip c-${m.color}"></span><span class="t">${esc(m.title)}</span>
      <span class="price">${price}</span>
      <span class="acts">${m.actions.map(actionLabel).map(esc).join(" · ")}</span></button>`;
  },

  theaterTile(t) {
    const selected = this.selection && this.selection.card === t.id ? " selected" : "";
    const seats = t.seat_colors.map((c, k) => `<span class="seatmini"><span class="dot c-${c}">${letter(c)}</span>
      <small>${esc(actionLabel(t.seat_actions[k]))}</small></span>`).join("");
    return `<button class="tile${selected}" data-act="pick-theater" data-card="${esc(t.id)}"
        data-testid="theater-${esc(t.id)}"><span class="seats">${seats}</span>
      <b class="price">$${t.price}</b></button>`;
  },

  boardHtml() {
    const v = this.view;
    if (!v.board.length) return "";
    const tokens = v.board.map((b) => `<span class="adtok${b.ready ? "" : " fresh"}">
      ${esc(t("{name} on {space}", { name: v.names[b.player], space: adSpace(b.space) }))}${b.ready ? "" : esc(t(" (next round)"))}</span>`);
    return `<h3>${esc(t("Advertising board"))}</h3><div class="board" data-testid="ad-board">${tokens.join("")}</div>`;
  },

  cinemaHtml(c, p) {
    const v = this.view;
    const acting = v.waiting.includes(p) ? " acting" : "";
    const current = v.phase === "buying" && v.current === p ? " current" : "";
    const counts = (zone) => COLORS.map((color) => `<span class="cnt${zone[color] ? "" : " zero"}">
      ${pawnHtml(null, color, "small")}${zone[color]}</span>`).join("");
    const hand = c.hand.map((h) => {
      const sel = this.selection && this.selection.pawn === h.pawn ? " selected" : "";
      const exit = this.proposals.exits(p, h.pawn) ? `<small class="to-exit">${esc(t("→ exit"))}</small>` : "";
      return `<button class="handpawn${sel}" data-act="pick-pawn" data-player="${p}" data-pawn="${h.pawn}"
        data-testid="hand-${h.pawn}">${pawnHtml(h.pawn, h.color)}${exit}</button>`;
    }).join("") + this.nextSeatHtml(p) + this.seatAllHtml(p);
    const onBoard = v.board.filter((b) => b.player === p)
      .map((b) => `${esc(adSpace(b.space))}${b.ready ? "" : esc(t(" (next round)"))}`).join(", ");
    const showing = c.showing && c.showing.to_draw ? `<span class="tag wait">${esc(t("to draw: {n}", { n: c.showing.to_draw }))}</span>` : "";
    const drawn = t("Drawn");
    // in the Showings a player with nothing left to do folds to a line: the others need room
    const idle = v.phase === "showings" && !acting && !c.hand.length ? " idle" : "";
    return `<article class="cinema card${acting}${current}${idle}" data-testid="cinema-${p}">
      <div class="side">
        <h2>${esc(c.name)} ${this.readerHtml(p)} ${current ? `<span class="tag turn">${esc(t("turn"))}</span>` : ""}
          ${acting && !current && !showing ? `<span class="tag wait">${esc(t("to act"))}</span>` : ""} ${showing}</h2>
        <div class="stats">
          <span>$<b data-testid="money-${p}">${c.money}</b></span>
          <span><b data-testid="popcorn-${p}">${c.popcorn}</b> ${esc(t("popcorn"))}</span>
          <span>${esc(t("Audience"))} <b>${c.audience}</b> · ${esc(t("draws"))} <b>${c.draw}</b></span>
          <span>${esc(t("Ad tokens"))} <b>${c.tokens}</b> · ${esc(t("awards"))} <b>${c.awards}</b></span>
          ${onBoard ? `<span data-testid="board-${p}">${esc(t("On the board:"))} ${onBoard}</span>` : ""}</div>
        <div class="counts"><span class="lbl">${esc(t("Bag"))}</span>${counts(c.bag)}</div>
        <div class="counts"><span class="lbl">${esc(t("Exit"))}</span>${counts(c.exit)}</div>
      </div>
      <div class="main">
        <div class="slots">${c.slots.map((s, k) => this.slotHtml(s, p, k)).join("")}</div>
        ${hand ? `<div class="hand" data-testid="drawn-${p}" title="${esc(drawn)}">${hand}</div>` : ""}
        ${this.playerMovesHtml(p)}
      </div>
    </article>`;
  },

  /** The next seat the rules fill (the first free one, left theater first) and one button
   * per color of the drawn guests that may sit there: a table seating its own way taps one
   * color per seat, in seat order, instead of a guest and then a seat. */
  nextSeatHtml(p) {
    const next = this.nextSeat(p);
    if (!next) return "";
    const colors = [...new Set(next.moves.map(([m]) => this.ctx.catalog.pawns[m.pawn]))];
    // (words for attributes are made first: Babel's extractor misses a t() inside quotes)
    const buttons = colors.map((color) => {
      const title = t("Seat a {guest} there", { guest: guestName(color) });
      return `<button class="btn small next-seat" data-act="next-seat" data-player="${p}"
        data-color="${color}" data-testid="next-seat-${p}-${color}" title="${esc(title)}">
        ${pawnHtml(null, color, "small")}</button>`;
    }).join("");
    const where = t("The next free seat: {seat}", { seat: seatWords(next.slot, next.seat + 1) });
    // the seat itself is marked (see slotHtml); the row's title names it
    return `<span class="next-seat-row" data-testid="next-seat-${p}" title="${esc(where)}"
      aria-label="${esc(where)}">${buttons}</span>`;
  },

  seatAllHtml(p) {
    if (!this.proposals.moves(p).length) return "";
    const then = this.proposals.then(p);
    const what = activationWords(this.view, p, then, 2);
    const playing = t("Seat and play");
    const playTitle = `${t("Seat them all as shown, then play as suggested")}${what ? `: ${what}` : ""}`;
    const allTitle = t("Seat them all as shown");
    const play = then.length ? `<button class="btn primary seat-all" data-act="seat-play" data-player="${p}"
      data-testid="seat-play-${p}" title="${esc(playTitle)}">${esc(playing)}</button>` : "";
    return `<button class="btn primary seat-all" data-act="seat-all" data-player="${p}"
      data-testid="seat-all-${p}" title="${esc(allTitle)}">${esc(t("Seat all"))}</button>${play}`;
  },

  readerHtml(p) {
    const id = this.info && this.info.readers[p];
    const reader = this.readers.find((r) => r.reader === id);
    if (!id || (reader && reader.online)) return "";
    const why = t("Bag reader {id} is offline: check its cable or Wi-Fi", { id });
    return `<span class="tag reader-off" data-testid="reader-offline-${p}"
      title="${esc(why)}">${esc(t("reader {id} offline", { id }))}</span>`;
  },

  slotHtml(s, p, k) {
    const target = this.selection && this.selection.kind !== "pawn" ? " target" : "";
    const active = this.view.cinemas[p].showing && this.view.cinemas[p].showing.active === k ? " active" : "";
    const seats = s.theater ? s.theater.seat_colors.map((color, n) => {
      const who = s.seats[n];
      const shown = who ? undefined : this.proposals.pawnFor(p, k, n);
      const inner = who ? pawnHtml(who.pawn, who.color)
        : shown !== undefined ? pawnHtml(shown, this.ctx.catalog.pawns[shown], "ghost")
          : `<span class="dot c-grey">${letter(color)}</span>`;
      const ring = color === "grey" ? "any" : color;
      const next = !who && this.isNextSeat(p, k, n) ? " next-seat-target" : "";
      const show = this.view.cinemas[p].showing;
      const acting = show && show.active === k && show.cursor === n ? " acting-seat" : "";
      const ghost = shown !== undefined ? ` data-shown="${shown}"` : "";
      const anyColor = t("any");
      const tip = t("seat {seat}: {color} guest, {action}", { seat: n + 1, color: color === "grey" ? anyColor : colorWord(color), action: actionLabel(s.theater.seat_actions[n]) });
      return `<button class="seat ring-${ring}${acting}${next}"${ghost} data-act="seat" data-player="${p}" data-slot="${k}"
        data-seat="${n}" data-testid="seat-${p}-${k}-${n}" title="${esc(tip)}">
        ${inner}<small>${esc(actionLabel(s.theater.seat_actions[n]))}</small></button>`;
    }).join("") : `<span class="muted">${esc(t("no theater"))}</span>`;
    return `<div class="slot${target}${active}" data-act="slot" data-player="${p}" data-slot="${k}"
        data-testid="slot-${p}-${k}" title="${esc(SLOT_NAMES()[k])}" aria-label="${esc(SLOT_NAMES()[k])}">
      <div class="seats">${seats}</div>${this.movieInSlot(s)}</div>`;
  },

  movieInSlot(s) {
    if (!s.movie) return `<div class="nomovie muted">${esc(t("no movie"))}</div>`;
    const m = s.movie;
    // actions under the lobby slider are gone for good: one mark says how many
    const items = m.actions.map((a, i) => {
      if (i >= s.visible) return "";
      const meaning = actionMeaning(a, this.ctx.catalog.actions[a] || a);
      return `<li class="${s.used.includes(i) ? "used" : ""}" title="${esc(meaning)}">${esc(actionLabel(a))}</li>`;
    }).join("") + (s.covered ? `<li class="covered" title="${esc(m.actions.slice(s.visible)
      .map(actionLabel).join(", "))}">${esc(t("+{n} under the slider", { n: s.covered }))}</li>` : "");
    const covers = t("slider covers {n}", { n: s.covered });
    const slider = s.covered ? ` title="${esc(covers)}"` : "";
    return `<div class="movieblock"><div class="movie"><span class="chip c-${m.color}"></span>
      <span>${esc(m.title)}</span></div><ol class="acts"${slider}>${items}</ol></div>`;
  },
};

// The table screen: what the tablet in the middle of the table shows and takes.
//
// It draws the hub's public view (docs/api.md, "The public view") on every `state` push,
// and sends the table's decisions as moves. It knows no rule: what to offer comes from the
// view's `legal` and `chance` lists, and every tap is checked by the engine, whose sentence
// is shown when it refuses. Buying is "tap a card, then a slot"; seating is "tap a drawn
// pawn, then a seat"; everything else is a button for one legal move.

import { ApiError, call, tableCall } from "../../api.js";
import { COLORS, actionLabel, adSpace, esc, guestChip, guestName, letter, moveLabel, pawnHtml, seatWords,
  shortLabel } from "../../labels.js";
import { actionMeaning, alertText, colorWord, errorText, t, tn } from "../../i18n.js";
import { checklistHtml, roundChecklist } from "./checklist.js";
import { scoresHtml } from "./scores.js";
import { ranked } from "../../search.js";
import { Proposals } from "./proposal.js";
import { Gains, activationWords } from "./gains.js";
import { showPhoneQr } from "../../phone_qr.js";
import { mountSpeech } from "./speech.js";
import { cardChoiceHtml } from "./card_choice.js";

const DIRECT = new Set(["buy_movie", "buy_theater", "place"]);
const SLOT_NAMES = () => [t("Left"), t("Center"), t("Right")];
const PHASES = () => ({ setup: t("Setup"), buying: t("Buying & Advertising"), showings: t("Showings"), over: t("Game over") });

/** Mount the table screen for `tableId`; returns the function that unmounts it. */
export function mountTable(root, ctx, tableId) {
  const screen = new TableScreen(root, ctx, tableId);
  return () => screen.unmount();
}

class TableScreen {
  constructor(root, ctx, tableId) {
    Object.assign(this, { root, ctx, id: tableId });
    this.view = null;
    this.info = null;
    this.alerts = [];
    this.selection = null;
    this.refusal = null;
    this.checklist = null;
    this.pickerQuery = {};
    this.pickerStep = {}; // per kind, the outcomes the query was typed for
    this.proposals = new Proposals(tableId, () => this.render());
    this.gains = new Gains(tableId, () => this.render());
    this.suggestion = new Gains(tableId, () => this.render(), "suggestion");
    this.onClick = (event) => this.click(event);
    this.onInput = (event) => this.input(event);
    this.onKey = (event) => this.key(event);
    document.addEventListener("click", this.onClick); // the header and banners too
    root.addEventListener("input", this.onInput);
    root.addEventListener("keydown", this.onKey);
    ctx.socket.on("connect", () => ctx.socket.emit("join", { table: tableId }));
    ctx.socket.on("state", (data) => data.table === tableId && this.update(data));
    ctx.socket.on("alert", (data) => data.table === tableId && this.addAlert(data.alert));
    ctx.socket.on("error", (data) => this.fail(errorText(data.code, data.params, data.message)));
    ctx.socket.on("readers", (list) => { this.readers = list; this.render(); });
    this.unmountSpeech = mountSpeech(ctx, tableId);
    this.readers = [];
    this.load();
  }

  unmount() {
    this.unmountSpeech();
    document.removeEventListener("click", this.onClick);
    this.root.removeEventListener("input", this.onInput);
    this.root.removeEventListener("keydown", this.onKey);
  }

  async load() {
    try {
      const table = await call(`/api/tables/${this.id}`); // public: no PIN
      this.readers = await call("/api/readers");
      this.info = table;
      if (this.view) this.proposals.refresh(this.view, this.hints());
      const pushed = this.alerts; // alerts pushed while this request was on its way
      const same = (a, b) => a.code === b.code && a.message === b.message;
      const stored = table.alerts.filter((a) => !pushed.some((b) => same(a, b)));
      this.alerts = [...stored.map((alert, n) => ({ ...alert, key: `old${n}` })), ...pushed].slice(-3);
      if (!this.view) this.update({ view: table.view, events: table.events });
      else this.renderFacts();
      this.renderBanners();
      window.popcornLoaded = this.id;
    } catch (err) {
      this.fail(err.message);
    }
  }

  fail(message) {
    this.root.innerHTML = `<div class="card" data-testid="table-error"><h2>${esc(t("Cannot show this table"))}</h2>
      <p>${esc(message)}</p><a class="btn" href="/" data-nav>${esc(t("Back to setup"))}</a></div>`;
  }

  update({ view, events }) {
    if (this.events !== undefined && events < this.events) return; // an older push
    const before = this.view;
    this.view = view;
    this.events = events;
    window.popcornEvents = events; // for tests and curious people: the state drawn
    // a round that ends, not the setup that gives way to round 1 (round 0 is the setup)
    if (before && before.round >= 1 && view.round > before.round && view.phase !== "over") {
      this.checklist = roundChecklist(before, view);
    }
    if (view.phase === "over") this.checklist = null;
    if (this.selection && !this.selectionStillUseful()) this.selection = null;
    this.proposals.refresh(view, this.hints());
    this.gains.refresh(view, events);
    this.suggestion.refresh(view, events, this.hints());
    this.render();
  }

  hints() {
    return !this.info || this.info.hints !== false;
  }

  addAlert(alert) {
    this.alerts.push({ ...alert, key: `a${Date.now()}${Math.random()}` });
    this.alerts = this.alerts.slice(-3);
    this.renderBanners();
  }

  // -- drawing -------------------------------------------------------------------------

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
  }

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
      <button class="btn small" data-act="phones" data-testid="phones">${esc(t("Phones"))}</button>`;
  }

  renderBanners() {
    const v = this.view;
    const parts = [];
    if (v && (v.last_round || v.final_revealed) && v.phase !== "over") {
      parts.push(`<div class="banner final" data-testid="last-round">${esc(t("LAST ROUND — the Final Showing card is out: this is the last round of the game."))}</div>`);
    }
    for (const alert of this.alerts) {
      const who = v && alert.player !== null ? v.names[alert.player] : "";
      const pawn = alert.color ? pawnHtml(alert.pawn, alert.color) : "";
      const text = alertText(alert);
      parts.push(`<div class="banner alert" data-testid="alert" data-code="${esc(alert.code)}">
        ${pawn}<div class="grow"><div>${esc(who ? who + ": " : "")}${esc(text.message)}</div>
        <div class="fix">${esc(text.fix)}</div></div>
        <button class="btn small" data-act="undo">${esc(t("Undo"))}</button>
        <button class="btn small" data-act="dismiss" data-key="${esc(alert.key)}"
          aria-label="${esc(t("Dismiss"))}">${esc(t("Dismiss"))}</button></div>`);
    }
    document.getElementById("banners").innerHTML = parts.join("");
  }

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
  }

  movieCard(m, row) {
    const selected = this.selection && this.selection.card === m.id ? " selected" : "";
    const surcharge = m.cost - m.price;
    const price = surcharge > 0 ? `$${m.price} <em>+$${surcharge}</em> = <b>$${m.cost}</b>` : `<b>$${m.cost}</b>`;
    return `<button class="mv${selected}" data-act="pick-movie" data-card="${esc(m.id)}"
        data-testid="${row}-${esc(m.id)}">
      <span class="chip c-${m.color}"></span><span class="t">${esc(m.title)}</span>
      <span class="price">${price}</span>
      <span class="acts">${m.actions.map(actionLabel).map(esc).join(" · ")}</span></button>`;
  }

  theaterTile(t) {
    const selected = this.selection && this.selection.card === t.id ? " selected" : "";
    const seats = t.seat_colors.map((c, k) => `<span class="seatmini"><span class="dot c-${c}">${letter(c)}</span>
      <small>${esc(actionLabel(t.seat_actions[k]))}</small></span>`).join("");
    return `<button class="tile${selected}" data-act="pick-theater" data-card="${esc(t.id)}"
        data-testid="theater-${esc(t.id)}"><span class="seats">${seats}</span>
      <b class="price">$${t.price}</b></button>`;
  }

  boardHtml() {
    const v = this.view;
    if (!v.board.length) return "";
    const tokens = v.board.map((b) => `<span class="adtok${b.ready ? "" : " fresh"}">
      ${esc(t("{name} on {space}", { name: v.names[b.player], space: adSpace(b.space) }))}${b.ready ? "" : esc(t(" (next round)"))}</span>`);
    return `<h3>${esc(t("Advertising board"))}</h3><div class="board" data-testid="ad-board">${tokens.join("")}</div>`;
  }

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
  }

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
  }

  /** The first free seat of player `p` the legal moves fill, and the place moves to it
   * (lowest pawn first), or null. */
  nextSeat(p) {
    const places = this.view.legal.map((m, i) => [m, i])
      .filter(([m]) => m.move === "place" && m.player === p)
      .sort(([a], [b]) => a.slot - b.slot || a.seat - b.seat || a.pawn - b.pawn);
    if (!places.length) return null;
    const [{ slot, seat }] = places[0];
    return { slot, seat, moves: places.filter(([m]) => m.slot === slot && m.seat === seat) };
  }

  /** Whether seat `n` of slot `k` is the next free seat of player `p`'s drawn guests. */
  isNextSeat(p, k, n) {
    const next = this.nextSeat(p);
    return Boolean(next && next.slot === k && next.seat === n);
  }

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
  }

  readerHtml(p) {
    const id = this.info && this.info.readers[p];
    const reader = this.readers.find((r) => r.reader === id);
    if (!id || (reader && reader.online)) return "";
    const why = t("Bag reader {id} is offline: check its cable or Wi-Fi", { id });
    return `<span class="tag reader-off" data-testid="reader-offline-${p}"
      title="${esc(why)}">${esc(t("reader {id} offline", { id }))}</span>`;
  }

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
  }

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
  }

  // -- the "now" panel: what the table must do ----------------------------------------

  nowHtml() {
    const v = this.view;
    const parts = [this.hintHtml()];
    if (this.refusal) {
      parts.push(`<div class="refusal" data-testid="refusal"><b>${esc(t("Refused:"))}</b> ${esc(this.refusal)}</div>`);
    }
    parts.push(this.pendingHtml());
    parts.push(this.chanceHtml());
    return parts.join("");
  }

  /** A player's move buttons, in their cinema under the guests they are about: "Take the
   * gains" first, then one button per move the table can tell apart (guest choices folded
   * under their action). */
  playerMovesHtml(p) {
    const moves = this.view.legal.map((m, i) => [m, i]).filter(([m]) => m.player === p && !DIRECT.has(m.move));
    const gains = this.suggestionHtml(p) + this.gainsHtml(p);
    if (!moves.length && !gains) return "";
    const groups = this.grouped(this.distinct(moves)).map((group) => this.groupHtml(group)).join("");
    return `<div class="moves" data-testid="moves-${p}">${gains}${groups}</div>`;
  }

  /** "Play as suggested" (hints on): the advisor's plan for the seated guests, one batch. */
  suggestionHtml(p) {
    const moves = this.suggestion.moves(p);
    if (!moves.length || JSON.stringify(moves) === JSON.stringify(this.gains.moves(p))) return "";
    const what = this.suggestion.label(this.view, p);  // in the title: the button stays short
    const title = `${t("Play as suggested")}${what ? `: ${what}` : ""}`;
    return `<button class="btn primary take-gains" data-act="suggestion" data-player="${p}"
      data-testid="suggestion-${p}" title="${esc(title)}">${esc(t("Play as suggested"))}
      <small>(${esc(tn("{n} move", "{n} moves", moves.length))})</small></button>`;
  }

  gainsHtml(p) {
    const moves = this.gains.moves(p);
    if (!moves.length) return "";
    const what = this.gains.label(this.view, p);  // in the title: the button stays short
    const title = `${t("Take the gains")}${what ? `: ${what}` : ""}`;
    return `<button class="btn primary take-gains" data-act="gains" data-player="${p}" data-testid="gains-${p}"
      title="${esc(title)}">${esc(t("Take the gains"))} <small>(${esc(tn("{n} move", "{n} moves", moves.length))})</small></button>`;
  }

  /** One entry per move the table can tell apart: moves whose words are the same (two
   * white guests of one exit zone, say) differ only by a pawn number no pawn carries, so
   * one button stands for them all (`same` lists them). */
  distinct(moves) {
    const byLabel = new Map();
    for (const [m, i] of moves) {
      const label = moveLabel(m, this.view, this.ctx.catalog);
      if (byLabel.has(label)) byLabel.get(label)[2].push(m);
      else byLabel.set(label, [m, i, [m]]);
    }
    return [...byLabel.values()];
  }

  /** Moves that differ only by the pawn they pick, under one button: the action first, then
   * (once that button is tapped) which guest; so a movie action with a choice of guests takes
   * one button, not one per guest. */
  grouped(entries) {
    const groups = new Map();
    for (const entry of entries) {
      const m = entry[0];
      const key = m.pawn === undefined ? JSON.stringify(m)
        : `${m.player}:${moveLabel({ ...m, pawn: undefined }, this.view, this.ctx.catalog)}`;
      if (!groups.has(key)) groups.set(key, []);
      groups.get(key).push(entry);
    }
    return [...groups.entries()];
  }

  groupHtml([key, entries]) {
    if (entries.length === 1) return this.moveButton(...entries[0]);
    const all = entries.flatMap((e) => e[2]);
    const first = { ...entries[0][0], pawn: undefined };
    const label = shortLabel(first, this.view, this.ctx.catalog);
    const open = this.openGroup === key;
    const head = `<button class="btn move group${open ? " open" : ""}" data-act="open-group" data-key="${esc(key)}"
      title="${esc(moveLabel(first, this.view, this.ctx.catalog))}" data-same="${esc(JSON.stringify(all))}">
      ${guestChip(first, this.view)}${esc(label)} <small>${esc(t("— which guest? ({n})", { n: entries.length }))}</small></button>`;
    return open ? `${head}<div class="choices">${entries.map((e) => this.moveButton(...e)).join("")}</div>` : head;
  }

  moveButton(m, i, same = [m]) {
    const pawn = m.pawn === undefined ? "" : ` ${pawnHtml(m.pawn, this.ctx.catalog.pawns[m.pawn], "small")}`;
    return `<button class="btn move" data-act="move" data-index="${i}" data-testid="move-${i}"
      data-kind="${m.move}" data-move="${esc(JSON.stringify(m))}" data-same="${esc(JSON.stringify(same))}"
      title="${esc(moveLabel(m, this.view, this.ctx.catalog))}">
      ${guestChip(m, this.view)}${esc(shortLabel(m, this.view, this.ctx.catalog))}${pawn}</button>`;
  }

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
      return `<div class="hint" data-testid="hint">${esc(t("{card}: tap a slot in {name}'s cinema.", { card: card ? card.title || card.id : sel.card, name: v.names[v.current] }))}
        <button class="btn small" data-act="clear">${esc(t("Cancel"))}</button></div>`;
    }
    if (v.phase === "buying") {
      return `<div class="hint">${esc(t("{name} buys: tap a movie or a theater, then a slot.", { name: v.names[v.current] }))}</div>`;
    }
    if (v.phase === "showings") {
      const how = this.hints() ? t("Faded pawns show the advisor's placement: Seat all (or Seat and play as suggested), tap a seat to seat the guest shown there, tap a color for the next free seat, or tap a guest, then its seat.")
        : t("Faded pawns show the first free seats: Seat all, tap a seat to seat the guest shown there, tap a color for the next free seat, or tap a guest, then its seat.");
      return `<div class="hint">${esc(t("Draw guests from the bag onto its reader."))} ${esc(how)}
        <button class="btn small" data-act="hints" data-testid="hints-toggle">${esc(this.hints() ? t("Hints: on") : t("Hints: off"))}</button>
        ${this.expectedHtml()}</div>`;
    }
    return "";
  }

  /** With hints on, what the advisor expects each shown placement to bring, per player. */
  expectedHtml() {
    const lines = this.view.cinemas.map((c, p) => [c, p, this.proposals.gains(p)])
      .filter(([, , g]) => g).map(([c, p, g]) => {
        const words = [g.money ? `+$${g.money}` : "", g.popcorn ? t("+{n} popcorn", { n: g.popcorn }) : "",
          g.audience ? `${t("Audience")} +${g.audience}` : ""].filter(Boolean).join(", ") || "—";
        return `<li data-testid="expected-${p}">${esc(t("{name}: the placement shown brings {gains}", { name: c.name, gains: words }))}</li>`;
      });
    return lines.length ? `<ul class="expected">${lines.join("")}</ul>` : "";
  }

  pendingHtml() {
    const v = this.view;
    if (!v.pending.length) return "";
    const say = (task) => {
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
    };
    return `<h3>${esc(t("Waiting for"))}</h3><ul class="pending" data-testid="pending">
      ${v.pending.map((task) => `<li>${esc(say(task))}</li>`).join("")}</ul>`;
  }

  chanceHtml() {
    const v = this.view;
    const groups = {};
    for (const [i, m] of v.chance.entries()) (groups[m.move] ||= []).push([m, i]);
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
  }

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
  }

  /** What a search box matches an outcome by: a movie's title, else its label. */
  searchText(m) {
    const card = m.card && this.ctx.catalog.byId[m.card];
    return card && card.title ? card.title : this.chanceText(m);
  }

  chanceText(m) {
    const v = this.view;
    const card = m.card && this.ctx.catalog.byId[m.card];
    const who = m.player !== undefined ? `${v.names[m.player]}: ` : "";
    if (m.move === "draw_pawn") return `${who}${t("pawn {pawn}", { pawn: m.pawn })}`;
    if (card && card.seats) {
      const seats = card.seat_colors.map((c, k) => `${c === "grey" ? t("any") : colorWord(c)} ${actionLabel(card.seat_actions[k])}`);
      return `${tn("{n}-seat theater", "{n}-seat theater", card.seats)}, $${card.price}: ${seats.join(" · ")}`;
    }
    return `${who}${card ? card.title || card.id : m.card}`;
  }

  // -- input ---------------------------------------------------------------------------

  click(event) {
    const el = event.target.closest("[data-act]");
    if (!el || !this.view) return;
    const act = el.dataset.act;
    const num = (name) => Number(el.dataset[name]);
    const handlers = {
      "pick-movie": () => this.pick({ kind: "movie", card: el.dataset.card }),
      "pick-theater": () => this.pick({ kind: "theater", card: el.dataset.card }),
      "pick-pawn": () => this.pick({ kind: "pawn", pawn: num("pawn"), player: num("player") }),
      seat: () => this.seatTapped(num("player"), num("slot"), num("seat")),
      slot: () => this.slotTapped(num("player"), num("slot")),
      "to-exit": () => this.send({ move: "to_exit", player: this.selection.player, pawn: this.selection.pawn }),
      clear: () => { this.selection = null; this.render(); },
      move: () => this.send(this.view.legal[num("index")]),
      "next-seat": () => {
        const next = this.nextSeat(num("player"));
        const pick = next && next.moves.find(([m]) => this.ctx.catalog.pawns[m.pawn] === el.dataset.color);
        if (pick) this.sendBatch(this.withForcedExits(pick[0]));
      },
      "seat-all": () => this.sendBatch(this.proposals.moves(num("player"))),
      "seat-play": () => this.sendBatch([...this.proposals.moves(num("player")), ...this.proposals.then(num("player"))]),
      gains: () => this.sendBatch(this.gains.moves(num("player"))),
      suggestion: () => this.sendBatch(this.suggestion.moves(num("player"))),
      hints: () => this.toggleHints(),
      "open-group": () => {
        this.openGroup = this.openGroup === el.dataset.key ? null : el.dataset.key;
        this.render();
      },
      chance: () => this.send(this.view.chance[num("index")]),
      "card-choice": () => this.send(this.view.card_choice.moves[num("index")]),
      undo: () => this.undo(),
      dismiss: () => this.dismiss(el.dataset.key),
      "checklist-done": () => { this.checklist = null; this.render(); },
      tick: () => this.tick(num("n"), el),
      export: () => this.exportRecord(),
      phones: () => showPhoneQr(this.ctx, this.id, this.view.names),
    };
    if (handlers[act]) handlers[act]();
  }

  tick(n, el) {
    if (!this.checklist) return;
    const ticked = (this.checklist.ticked ||= new Set());
    if (ticked.has(n)) ticked.delete(n); else ticked.add(n);
    el.classList.toggle("done", ticked.has(n));
  }

  input(event) {
    const el = event.target;
    if (el.dataset.act !== "search") return;
    this.pickerQuery[el.dataset.kind] = el.value;
    const pos = el.selectionStart;
    this.render();
    const again = this.root.querySelector(`[data-testid="search-${el.dataset.kind}"]`);
    if (again) { again.focus(); again.setSelectionRange(pos, pos); }
  }

  key(event) {
    const el = event.target;
    if (event.key !== "Enter" || el.dataset.act !== "search") return;
    const list = this.view.chance.map((m, i) => [m, i]).filter(([m]) => m.move === el.dataset.kind);
    const shown = this.matches(el.dataset.kind, list);
    if (shown.length === 1) this.send(this.view.chance[shown[0][1]]); // Enter takes the only match
  }

  pick(selection) {
    const same = this.selection && JSON.stringify(this.selection) === JSON.stringify(selection);
    this.selection = same ? null : selection;
    this.refusal = null;
    this.render();
  }

  seatTapped(player, slot, seat) {
    const sel = this.selection;
    if (sel && sel.kind === "pawn") {
      this.send({ move: "place", player: sel.player, pawn: sel.pawn, slot, seat });
    } else if (sel) {
      this.slotTapped(player, slot); // a seat is part of its slot when buying
    } else {
      const pawn = this.guestForSeat(player, slot, seat);
      if (pawn !== undefined) this.sendBatch(this.withForcedExits({ move: "place", player, pawn, slot, seat }));
    }
  }

  /** A guest seated in the last free seat, and then, in the same batch, the other drawn
   * guests to the exit zone, where the rules send them once no seat is left. */
  withForcedExits(place) {
    const p = place.player;
    const seats = new Set(this.view.legal.filter((m) => m.move === "place" && m.player === p)
      .map((m) => `${m.slot}:${m.seat}`));
    const theater = this.view.cinemas[p].slots[place.slot].theater;
    const last = seats.size === 1 && theater && place.seat === theater.seats - 1;
    if (!last) return [place];
    const rest = this.view.cinemas[p].hand.filter((h) => h.pawn !== place.pawn);
    return [place, ...rest.map((h) => ({ move: "to_exit", player: p, pawn: h.pawn }))];
  }

  /** The guest a tap on an empty seat seats when no guest was tapped first: the one shown
   * there (faded), else the drawn guest when every drawn guest has the same color (they
   * look alike, so which one does not matter). Undefined when the tap must say who. */
  guestForSeat(p, slot, seat) {
    if (this.view.phase !== "showings") return undefined;
    const shown = this.proposals.pawnFor(p, slot, seat);
    if (shown !== undefined) return shown;
    const hand = this.view.cinemas[p].hand;
    return hand.length && new Set(hand.map((h) => h.color)).size === 1 ? hand[0].pawn : undefined;
  }

  slotTapped(player, slot) {
    const sel = this.selection;
    if (!sel || sel.kind === "pawn") return;
    const kind = sel.kind === "movie" ? "buy_movie" : "buy_theater";
    this.send({ move: kind, player, card: sel.card, slot });
  }

  selectionStillUseful() {
    const sel = this.selection;
    const v = this.view;
    if (sel.kind === "pawn") return v.cinemas[sel.player].hand.some((h) => h.pawn === sel.pawn);
    if (v.phase !== "buying") return false;
    const offered = [...v.features, ...v.premiers, ...Object.values(v.columns).flat()];
    return offered.some((card) => card.id === sel.card);
  }

  async send(move) {
    await this.post({ move });
  }

  /** Send moves as one batch: all made, or none (docs/api.md, "Batches of moves"). */
  async sendBatch(moves) {
    if (moves.length) await this.post({ moves });
  }

  /** POST one move or a batch; a refusal shows the hub's sentence. */
  async post(body) {
    try {
      await tableCall(this.id, `/api/tables/${this.id}/moves`, { method: "POST", body }, this.ctx.askPin);
      this.refusal = null;
      this.selection = null;
    } catch (err) {
      this.refusal = err instanceof ApiError ? err.message : String(err);
      this.ctx.toast(this.refusal, "error");
    }
    this.render();
  }

  async toggleHints() {
    try {
      const answer = await tableCall(this.id, `/api/tables/${this.id}/hints`,
        { method: "POST", body: { hints: !this.hints() } }, this.ctx.askPin);
      this.info = { ...this.info, hints: answer.hints };
      this.proposals.refresh(this.view, this.hints());
      this.suggestion.refresh(this.view, this.events, this.hints());
      this.ctx.toast(answer.hints ? t("Seating hints are on.") : t("Seating hints are off."), "ok");
    } catch (err) {
      this.ctx.toast(err.message, "error");
    }
    this.render();
  }

  async undo() {
    try {
      await tableCall(this.id, `/api/tables/${this.id}/undo`, { method: "POST", body: {} }, this.ctx.askPin);
      this.alerts = [];
      this.ctx.toast(t("The last move was taken back."), "ok");
    } catch (err) {
      this.ctx.toast(err.message, "error");
    }
    this.renderBanners();
  }

  dismiss(key) {
    this.alerts = this.alerts.filter((a) => a.key !== key);
    this.renderBanners();
  }

  async exportRecord() {
    try {
      const text = await tableCall(this.id, `/api/tables/${this.id}/record`, {}, this.ctx.askPin);
      const link = document.createElement("a");
      link.href = URL.createObjectURL(new Blob([text], { type: "application/x-ndjson" }));
      link.download = `popcorn-${this.id}.jsonl`;
      link.click();
    } catch (err) {
      this.ctx.toast(err.message, "error");
    }
  }
}

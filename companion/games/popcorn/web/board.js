// Drawing the Popcorn table screen from the public view: the header's facts, the banners
// (the last round, reader alerts), the market (Features, Premiers, theater tiles, the
// advertising board) and one cinema per player: figures, bag and exit counts, the three
// slots with their seats and movie, the drawn guests with the next free seat's color buttons
// and Seat all. `render` lays out the whole screen; the side panel comes from now_panel.js
// (or the scores, the checklist, a card's slot question), a player's buttons from
// move_buttons.js.
//
// Methods of the table screen, mixed into `TableScreen` by table.js: `this` is the screen.

import { COLORS, actionLabel, adSpace, colorChip, emptySeatHtml, esc, guestName, pawnHtml,
  seatActionLabel, seatWords } from "../../web/js/labels.js";
import { actionMeaning, colorWord, t, tn } from "../../web/js/i18n.js";
import { auditParts } from "../../web/js/audit.js";
import { alertBannerHtml, alertStripHtml } from "../../web/js/alerts.js";
import { checklistHeadHtml, checklistHtml } from "./checklist.js";
import { scoresHtml } from "./scores.js";
import { activationWords } from "./gains.js";
import { cardChoiceHtml, justPlacedSlot, rechoiceAt } from "./card_choice.js";

/** Whether a label is short enough to keep on one line in any slot (a wide character, as in
 * Japanese, counts twice): "観客+1" never breaks as "観客+" and "1". */
const short = (label) => [...label].reduce((n, ch) => n + (ch >= "\u2e80" ? 2 : 1), 0) <= 16;
const ACTING = new Set(["seat_action", "movie_action"]);
/** The alerts of a mat that disagrees with the companion after a restart (a button accepts what it shows). */
const MAT_DISPUTES = new Set(["MAT_EXTRA_GUEST", "MAT_MISSING_GUEST"]);
const SLOT_NAMES = () => [t("Left"), t("Center"), t("Right")];
const PHASES = () => ({ setup: t("Setup"), buying: t("Buying & Advertising"), showings: t("Showings"), over: t("Game over") });

export const boardMethods = {
  render() {
    const v = this.view;
    if (!v) return;
    this.renderFacts();
    this.renderBanners();
    // the side panel: what must stay in sight is pinned (a card's slot question, the next
    // step, the shortcuts for everyone, the heads of an audit and of the checklist with
    // their buttons); the rest scrolls under it when it has more to say
    const side = v.phase === "over" ? `<div class="side-scroll">${scoresHtml(v, this.ctx.catalog)}</div>`
      : this.sideHtml();
    const scrolled = this.root.querySelector('[data-testid="side-scroll"]'); // kept across pushes
    const top = scrolled ? scrolled.scrollTop : 0;
    this.root.innerHTML = `
      <div class="table-grid fits" data-phase="${v.phase}">
        <section class="market card" data-testid="market">${this.marketHtml()}</section>
        <section class="cinemas n${v.cinemas.length}" data-testid="cinemas">
          ${v.cinemas.map((c, p) => this.cinemaHtml(c, p)).join("")}
        </section>
        <section class="now card side" data-testid="now">${side}</section>
      </div>`;
    if (top) this.root.querySelector('[data-testid="side-scroll"]').scrollTop = top;
    this.placeTip();
  },

  /** The side panel during the game: its pinned part, then the part that scrolls. */
  sideHtml() {
    const v = this.view;
    const audit = this.auditPanel();
    const list = this.checklist;
    const pin = cardChoiceHtml(v) + this.pinnedHtml() + this.everyoneHtml() + audit.head
      + (list ? checklistHeadHtml(list) : "");
    const rest = audit.body + (list ? checklistHtml(list) : "") + this.scrolledHtml();
    return `<div class="side-pin" data-testid="side-pin">${pin}</div>
      <div class="side-scroll" data-testid="side-scroll">${rest}</div>`;
  },

  renderFacts() {
    const v = this.view;
    // the header holds one line in every language: in the Showings the cinemas' tags say
    // who acts, and the first player's cinema carries its own tag
    const turn = v.phase === "buying" ? v.names[v.current]
      : v.phase === "showings" ? "" : v.waiting.map((p) => v.names[p]).join(", ");
    const name = this.info ? this.info.name : this.id;
    const replay = t("Replay the moves so far"); // outside the template: Babel misses t() in quotes
    document.getElementById("facts").innerHTML = `
      <span class="fact" data-testid="table-name">${esc(name)}</span>
      <span class="fact" data-testid="round">${esc(t("Round"))} <b>${v.round}</b></span>
      <span class="fact" data-testid="phase">${PHASES()[v.phase] || v.phase}</span>
      ${turn ? `<span class="fact" data-testid="turn">${esc(t("To act:"))} <b>${esc(turn)}</b></span>` : ""}
      <button class="btn small" data-act="undo" data-testid="undo">${esc(t("Undo"))}</button>
      <button class="btn small" data-act="correct" data-testid="correct">${esc(t("Correct"))}</button>
      <button class="btn small" data-act="phones" data-testid="phones">${esc(t("Phones"))}</button>
      ${this.health.buttonHtml()}
      <a class="btn small replay-link" href="/table/${encodeURIComponent(this.id)}/replay" data-nav data-testid="open-replay"
        title="${esc(replay)}" aria-label="${esc(replay)}">⟲</a>`;
  },

  renderBanners() {
    const v = this.view;
    const parts = [];
    if (v && (v.last_round || v.final_revealed) && v.phase !== "over") {
      // the guided check of every bag before the final scoring, while no audit runs
      const check = v.audit ? "" : `<button class="btn small" data-act="audit-all" data-testid="final-audit">${esc(t("Check every bag"))}</button>`;
      parts.push(`<div class="banner final" data-testid="last-round"><div class="grow">${esc(t("LAST ROUND — the Final Showing card is out: this is the last round of the game."))}</div>${check}</div>`);
    }
    // the newest alert, and the earlier ones on request, floating over the board; a refused
    // tap is no move: a banner offers the correction its fix names, and Dismiss (the table
    // has put the piece back, or chose to ignore it), never Undo
    parts.push(alertStripHtml(this.alerts.shown(), this.alertsOpen, (alert, more) => {
      const who = v && alert.player !== null ? v.names[alert.player] : "";
      const p = alert.params || {}; // an older log's alert kept them beside its params
      const color = p.color ?? alert.color;
      const pawn = color ? pawnHtml(p.pawn ?? alert.pawn, color) : "";
      const fix = alert.correct ? `<button class="btn small primary" data-act="correct-alert"
          data-alert="${alert.id}" data-testid="alert-correct">${esc(t("Correct its place"))}</button>` : "";
      // a mat that disagrees after a restart: the table's PIN may take what it shows
      const accept = MAT_DISPUTES.has(alert.code) ? `<button class="btn small" data-act="accept-mat"
          data-player="${alert.player}" data-testid="alert-accept-mat">${esc(t("Accept the mat"))}</button>` : "";
      return alertBannerHtml(alert, who, { before: pawn, more, buttons: fix + accept });
    }));
    document.getElementById("banners").innerHTML = parts.join("");
  },

  /** The market in two columns (the Features beside the Premiers), the theater tiles
   * below them, smallest first, then the decks and the advertising board: all of it in sight
   * on a 1280x800 tablet. */
  marketHtml() {
    const v = this.view;
    const none = `<p class="muted">${esc(t("none"))}</p>`;
    const row = (title, movies, kind) => `<div class="mk-row"><h3>${title}</h3>
      ${movies.map((m) => this.movieCard(m, kind)).join("") || none}</div>`;
    const tiles = Object.entries(v.columns).map(([size, list]) => list.map((tile) => this.theaterTile(tile)).join("")
      || `<p class="muted mk-none">${esc(tn("{n}-seat theaters", "{n}-seat theaters", Number(size)))}: ${esc(t("none left"))}</p>`).join("");
    // a row left empty (no Feature, or no Premier) lends its column to the other
    const wide = !v.features.length || !v.premiers.length ? " wide" : "";
    return `<div class="mk-movies${wide}">
        ${row(esc(t("Features")), v.features, "feature")}
        ${row(`${esc(t("Premiers"))} <span class="muted">(+$2)</span>`, v.premiers, "premiere")}</div>
      <div class="mk-theaters">${tiles}</div>
      <p class="muted deck">${esc(t("Movie deck: {movies} · Awards: {awards}", { movies: v.deck.movies, awards: v.deck.awards }))}</p>
      ${this.boardHtml()}`;
  },

  movieCard(m, row) {
    const selected = this.selection && this.selection.card === m.id ? " selected" : "";
    const surcharge = m.cost - m.price;
    const price = surcharge > 0 ? `$${m.price} <em>+$${surcharge}</em> = <b>$${m.cost}</b>` : `<b>$${m.cost}</b>`;
    return `<button class="mv${selected}" data-act="pick-movie" data-card="${esc(m.id)}"
        data-testid="${row}-${esc(m.id)}">
      ${colorChip(m.color)}<span class="t">${esc(m.title)}</span>
      <span class="acts"><span class="price">${price}</span> · ${m.actions.map(actionLabel)
        .map((label) => (short(label) ? `<span class="short">${esc(label)}</span>` : esc(label))).join(" · ")}</span></button>`;
  },

  theaterTile(t) {
    const selected = this.selection && this.selection.card === t.id ? " selected" : "";
    const seats = t.seat_colors.map((c, k) => `<span class="seatmini">${pawnHtml(null, c)}
      <small>${esc(seatActionLabel(t.seat_actions[k]))}</small></span>`).join("");
    return `<button class="tile${selected}" data-act="pick-theater" data-card="${esc(t.id)}"
        data-testid="theater-${esc(t.id)}"><b class="price">$${t.price}</b><span class="seats">${seats}</span></button>`;
  },

  /** The advertising board: for each space, whose tokens are on it. */
  boardHtml() {
    const v = this.view;
    if (!v.board.length) return "";
    const spaces = new Map();
    for (const b of v.board) {
      if (!spaces.has(b.space)) spaces.set(b.space, []);
      spaces.get(b.space).push(`${esc(v.names[b.player])}${b.ready ? "" : esc(t(" (next round)"))}`);
    }
    const tokens = [...spaces.entries()].map(([space, names]) => `<span class="adtok">
      <b>${esc(adSpace(space))}</b> ${names.join(", ")}</span>`);
    return `<h3>${esc(t("Advertising board"))}</h3><div class="board" data-testid="ad-board">${tokens.join("")}</div>`;
  },

  cinemaHtml(c, p) {
    const v = this.view;
    const acting = v.waiting.includes(p) ? " acting" : "";
    const current = v.phase === "buying" && v.current === p ? " current" : "";
    const pawns = c.hand.map((h) => {
      const sel = this.selection && this.selection.pawn === h.pawn ? " selected" : "";
      const exit = this.proposals.exits(p, h.pawn) ? `<small class="to-exit">${esc(t("→ exit"))}</small>` : "";
      return `<button class="handpawn${sel}" data-act="pick-pawn" data-player="${p}" data-pawn="${h.pawn}"
        data-testid="hand-${h.pawn}">${pawnHtml(h.pawn, h.color)}${exit}</button>`;
    }).join("");
    // with guests in hand, the player's other moves share their row (four cinemas fit the
    // page in the Showings); without, they have a row of their own
    const moves = this.playerMovesHtml(p);
    const hand = pawns ? pawns + this.nextSeatHtml(p) + moves + this.seatAllHtml(p) : "";
    const onBoard = v.board.filter((b) => b.player === p)
      .map((b) => `${esc(adSpace(b.space))}${b.ready ? "" : esc(t(" (next round)"))}`).join(", ");
    const showing = c.showing && c.showing.to_draw ? `<span class="tag wait">${esc(t("to draw: {n}", { n: c.showing.to_draw }))}</span>` : "";
    const first = v.first_player === p ? `<span class="tag first" data-testid="first-player">${esc(t("first player"))}</span>` : "";
    const drawn = t("Drawn");
    // in the Showings a player with nothing left to do folds to a line: the others need room
    const idle = v.phase === "showings" && !acting && !c.hand.length ? " idle" : "";
    return `<article class="cinema card${acting}${current}${idle}" data-testid="cinema-${p}">
      <div class="head">
        <h2>${esc(c.name)} ${this.readerHtml(p)} ${current ? `<span class="tag turn">${esc(t("turn"))}</span>` : ""}
          ${acting && !current && !showing ? `<span class="tag wait">${esc(t("to act"))}</span>` : ""} ${showing} ${first}</h2>
        <div class="stats">
          <span>$<b data-testid="money-${p}">${c.money}</b></span>
          <span><b data-testid="popcorn-${p}">${c.popcorn}</b> ${esc(t("popcorn"))}</span>
          <span>${esc(t("Audience"))} <b data-testid="audience-${p}">${c.audience}</b> · ${esc(t("draws"))} <b data-testid="draw-${p}">${c.draw}</b></span>
          <span>${esc(t("Ad tokens"))} <b data-testid="tokens-${p}">${c.tokens}</b> · ${esc(t("awards"))} <b data-testid="awards-${p}">${c.awards}</b></span>
          ${onBoard ? `<span data-testid="board-${p}">${esc(t("On the board:"))} ${onBoard}</span>` : ""}</div>
      </div>
      ${this.zonesHtml(c, p)}
      <div class="main">
        <div class="slots">${c.slots.map((s, k) => this.slotHtml(s, p, k)).join("")}</div>
        ${hand ? `<div class="hand" data-testid="drawn-${p}" aria-label="${esc(drawn)}">${hand}</div>` : ""}
        ${hand || v.phase === "buying" ? "" : moves}
      </div>
      ${!hand && v.phase === "buying" ? moves : ""}
    </article>`;
  },

  /** A cinema's guests by color in its bag and its exit zone: a small table, a row per
   * color, so that no label has to fit a fixed width. */
  zonesHtml(c, p) {
    const rows = COLORS.map((color) => `<tr>
      <th scope="row">${pawnHtml(null, color, "small")}</th>
      <td class="${c.bag[color] ? "" : "zero"}">${c.bag[color]}</td>
      <td class="${c.exit[color] ? "" : "zero"}">${c.exit[color]}</td></tr>`).join("");
    // the Bag heading starts an audit of that bag: one tap (docs/dashboard.md)
    const check = t("Check {name}'s bag: tap every guest in it on the reader", { name: c.name });
    return `<table class="zones" data-testid="zones-${p}"><thead><tr><td></td>
      <th scope="col"><button class="zone-audit" data-act="audit-start" data-player="${p}"
        data-testid="audit-start-${p}" title="${esc(check)}" aria-label="${esc(check)}">${esc(t("Bag"))}</button></th>
      <th scope="col">${esc(t("Exit"))}</th></tr></thead>
      <tbody>${rows}</tbody></table>`;
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
      data-testid="seat-play-${p}" title="${esc(playTitle)}">${esc(playing)}${what
        ? `<small data-testid="seat-play-what-${p}">${esc(what)}</small>` : ""}</button>` : "";
    return `<button class="btn primary seat-all" data-act="seat-all" data-player="${p}"
      data-testid="seat-all-${p}" title="${esc(allTitle)}">${esc(t("Seat all"))}</button>${play}`;
  },

  /** The audit under way (web/js/audit.js) as `{head, body}`, with guests named by their
   * color discs. */
  auditPanel() {
    return auditParts(this.view.audit, this.view.names, {
      keyHtml: (color) => pawnHtml(null, color, "small"),
      title: (name) => t("Checking {name}'s bag", { name }),
      hint: (name) => t("Tap every guest in the bag on {name}'s reader, then accept.", { name }),
      finished: (name) => t("{name}'s bag is done", { name }),
      empty: (name, n) => tn("No guest was tapped: is {name}'s bag really empty? The companion would take its {n} guest out of it.",
        "No guest was tapped: is {name}'s bag really empty? The companion would take its {n} guests out of it.", n, { name }),
    });
  },

  readerHtml(p) {
    const id = this.info && this.info.readers[p];
    const reader = this.readers.find((r) => r.reader === id);
    if (!id || (reader && reader.online)) return "";
    const why = t("Bag reader {id} is offline: check its cable or Wi-Fi", { id });
    return `<span class="tag reader-off" data-testid="reader-offline-${p}"
      title="${esc(why)}" data-tip="${esc(why)}">${esc(t("reader {id} offline", { id }))}</span>`;
  },

  /** What the player's first shortcut would send, for the board to show before the tap:
   * "Seat and play" (the placement and its plan), else "Play as suggested", else "Take the
   * gains"; empty when none is offered. */
  planFor(p) {
    const seating = this.proposals.moves(p);
    if (seating.length) return [...seating, ...this.proposals.then(p)];
    const suggested = this.suggestion.moves(p);
    return suggested.length ? suggested : this.gains.moves(p);
  },

  slotHtml(s, p, k) {
    const plan = this.planFor(p);
    const target = this.selection && this.selection.kind !== "pawn" ? " target" : "";
    const active = this.view.cinemas[p].showing && this.view.cinemas[p].showing.active === k ? " active" : "";
    const seats = s.theater ? s.theater.seat_colors.map((color, n) => {
      const who = s.seats[n];
      const shown = who ? undefined : this.proposals.pawnFor(p, k, n);
      const inner = who ? pawnHtml(who.pawn, who.color)
        : shown !== undefined ? pawnHtml(shown, this.ctx.catalog.pawns[shown], "ghost")
          : emptySeatHtml(color);
      const ring = color === "grey" ? "any" : color;
      const next = !who && this.isNextSeat(p, k, n) ? " next-seat-target" : "";
      const step = plan.findIndex((m) => m.slot === k && m.seat === n && ACTING.has(m.move));
      const planned = step >= 0 ? " planned" : "";
      const mark = step >= 0 ? `<span class="plan-step" data-testid="plan-${p}-${k}-${n}">${plan.slice(0, step + 1).filter((m) => ACTING.has(m.move)).length}</span>` : "";
      const show = this.view.cinemas[p].showing;
      const acting = show && show.active === k && show.cursor === n ? " acting-seat" : "";
      const ghost = shown !== undefined ? ` data-shown="${shown}"` : "";
      const anyColor = t("any");
      const tip = t("seat {seat}: {color} guest, {action}", { seat: n + 1, color: color === "grey" ? anyColor : colorWord(color), action: actionLabel(s.theater.seat_actions[n]) });
      return `<button class="seat ring-${ring}${acting}${next}${planned}"${ghost} data-act="seat" data-player="${p}" data-slot="${k}"
        data-seat="${n}" data-testid="seat-${p}-${k}-${n}" title="${esc(tip)}">
        ${mark}${inner}<small>${esc(seatActionLabel(s.theater.seat_actions[n]))}</small></button>`;
    }).join("") : `<span class="muted">${esc(t("no theater"))}</span>`;
    const empty = s.theater || s.movie ? "" : " empty";
    const placed = justPlacedSlot(this.view, p) === k ? " just-placed" : "";
    const movable = rechoiceAt(this.view, p, k) >= 0 ? " target" : "";
    const tip = empty ? "" : ` data-tip="${esc(this.slotTip(s, k))}"`;
    return `<div class="slot${target || movable}${active}${empty}${placed}" data-act="slot" data-player="${p}" data-slot="${k}"
        data-testid="slot-${p}-${k}" title="${esc(SLOT_NAMES()[k])}" aria-label="${esc(SLOT_NAMES()[k])}"${tip}>
      ${placed ? `<span class="placed-tag" data-testid="just-placed-${p}-${k}">${esc(t("just placed"))}</span>` : ""}
      <div class="seats">${seats}</div>${this.movieInSlot(s)}</div>`;
  },

  /** What a slot's actions do, for a touch screen (no hover): tapping the slot (not one of
   * its seats) shows this under it. A line per seat, then per movie action still visible
   * (a used one says so), then what the lobby slider covers. */
  slotTip(s, k) {
    const meaning = (a) => actionMeaning(a, this.ctx.catalog.actions[a] || a);
    const lines = [SLOT_NAMES()[k]];
    if (s.theater) {
      s.theater.seat_actions.forEach((a, n) => {
        const color = s.theater.seat_colors[n];
        lines.push(`${t("Seat {seat} ({color}): {action}", { seat: n + 1, action: actionLabel(a),
          color: color === "grey" ? t("any") : colorWord(color) })} — ${meaning(a)}`);
      });
    }
    if (s.movie) {
      lines.push(s.movie.title);
      s.movie.actions.forEach((a, i) => {
        if (i >= s.visible || a === "none") return;
        const used = s.used.includes(i) ? ` (${t("used this round")})` : "";
        lines.push(`${actionLabel(a)}${used} — ${meaning(a)}`);
      });
      if (s.covered) {
        lines.push(t("Under the slider: {actions}", { actions: s.movie.actions.slice(s.visible).map(actionLabel).join(", ") }));
      }
    }
    return lines.join("\n");
  },

  movieInSlot(s) {
    if (!s.movie) return `<div class="nomovie muted">${esc(t("no movie"))}</div>`;
    const m = s.movie;
    // actions under the lobby slider are gone for good: one mark says how many
    const items = m.actions.map((a, i) => {
      if (i >= s.visible) return "";
      const meaning = actionMeaning(a, this.ctx.catalog.actions[a] || a);
      const label = actionLabel(a);
      const cls = [s.used.includes(i) ? "used" : "", short(label) ? "short" : ""].join(" ").trim();
      return `<li class="${cls}" title="${esc(meaning)}">${esc(label)}</li>`;
    }).join(" ") + (s.covered ? ` <li class="covered" title="${esc(m.actions.slice(s.visible)
      .map(actionLabel).join(", "))}">${esc(t("+{n} under the slider", { n: s.covered }))}</li>` : "");
    const covers = t("slider covers {n}", { n: s.covered });
    const slider = s.covered ? ` title="${esc(covers)}"` : "";
    return `<div class="movieblock"><div class="movie">${colorChip(m.color)}
      <span>${esc(m.title)}</span></div><ol class="acts"${slider}>${items}</ol></div>`;
  },
};

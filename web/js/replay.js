// The replay board: a game position by position, drawn by the game's own board (the table
// screen's modules, read-only), for an archived game (/archive/<id>) and for a live table's
// moves so far (/table/<id>/replay). It knows no game: the hub sends every step's public
// move and round (GET <base>/replay) and the views by pages (GET <base>/replay/views), and
// the game's replay module (`ctx.screens(game)`'s `replay`, as the game's distribution serves it) draws
// a view and says a move in words; a game without one is drawn generically (generic.js).
//
// Controls: the first position, Back, Forward and the last (buttons, and the Left, Right,
// Home and End keys), a slider over every position, a jump to the start of each round, and
// the move that led to the position in words, in this device's language. What that move
// changed is highlighted: the board of the position before is drawn aside, and every marked
// part (`data-testid`) whose content differs (its deepest such parts) is outlined.

import { call } from "./api.js";
import { num, t } from "./i18n.js";
import { esc } from "./labels.js";

const PAGE = 20; // positions per page of views

/** The replay module of `game` (its board and words), or the generic one. */
export async function replayScreenOf(ctx, game) {
  const screens = await ctx.screens(game);
  const module = await screens.replay();
  return module.replayScreen(ctx);
}

/** Every marked part of `root` by its test id, as its markup without class names (a part
 * only restyled, as the acting cinema's border, has not changed). */
export function signatures(root) {
  const out = new Map();
  for (const el of root.querySelectorAll("[data-testid]")) {
    out.set(el.dataset.testid, el.outerHTML.replace(/ class="[^"]*"/g, ""));
  }
  return out;
}

/** The test ids of the parts of `root` that differ from `before` (signatures of the board
 * drawn before), the deepest ones only: a part is marked when it changed and none of the
 * parts inside it did (a cinema whose money changed marks the money). */
export function changedParts(before, root) {
  const now = signatures(root);
  const changed = new Set([...now].filter(([id, sig]) => before.get(id) !== sig).map(([id]) => id));
  return [...changed].filter((id) => {
    const el = root.querySelector(`[data-testid="${CSS.escape(id)}"]`);
    return ![...el.querySelectorAll("[data-testid]")].some((inner) => changed.has(inner.dataset.testid));
  });
}

function layoutHtml(summary, live) {
  const rounds = summary.rounds.map((r) => {
    const label = r.round === 0 ? t("Setup") : num(r.round);
    const title = r.round === 0 ? t("The setup") : t("The start of round {round}", { round: r.round });
    return `<button type="button" class="btn small" data-act="round" data-position="${r.position}"
      data-round="${r.round}" data-testid="replay-round-${r.round}" title="${esc(title)}">${esc(label)}</button>`;
  }).join("");
  const first = t("The first position");
  const last = t("The last position");
  const slider = t("Position in the game");
  return `
    <section class="card replay" data-testid="replay">
      <div class="replay-bar">
        <div class="row replay-buttons">
          <button type="button" class="btn small" data-act="first" data-testid="replay-first"
            title="${esc(first)}" aria-label="${esc(first)}">|◀</button>
          <button type="button" class="btn small" data-act="back" data-testid="replay-back">◀ ${esc(t("Back"))}</button>
          <button type="button" class="btn small primary" data-act="forward" data-testid="replay-forward">${esc(t("Forward"))} ▶</button>
          <button type="button" class="btn small" data-act="last" data-testid="replay-last"
            title="${esc(last)}" aria-label="${esc(last)}">▶|</button>
          <span class="replay-where" data-testid="replay-position"></span>
          ${live ? `<span class="badge live" data-testid="replay-live">${esc(t("read-only"))}</span>` : ""}
        </div>
        <input type="range" class="replay-slider" min="0" max="${summary.moves}" value="0" step="1"
          data-testid="replay-slider" aria-label="${esc(slider)}">
        ${rounds ? `<div class="row replay-rounds" data-testid="replay-rounds"><span class="muted">${esc(t("Jump to:"))}</span>${rounds}</div>` : ""}
        <p class="replay-words" data-testid="replay-words" aria-live="polite"></p>
        <div class="replay-compare" data-testid="replay-compare" hidden></div>
        <p class="replay-facts" data-testid="replay-facts"></p>
      </div>
      <div class="replay-board" data-testid="replay-board"><p class="muted">${esc(t("Loading…"))}</p></div>
    </section>`;
}

/** A replay board in `box`: `base` is the hub's path of the game (`/api/archive/<id>` or
 * `/api/tables/<id>`), `summary` its GET <base>/replay, `screen` the game's replay module.
 * `live`: a table's moves so far (marked read-only; `refresh` follows new moves). */
export class Replay {
  constructor(box, ctx, base, summary, screen, { live = false, position = 0 } = {}) {
    Object.assign(this, { box, ctx, base, summary, screen, live });
    this.pages = new Map(); // first position of a page -> a promise of its views
    this.position = -1;
    this.drawn = -1;
    this.gone = false; // destroyed: a late answer draws nothing
    this.compare = null;
    this.listeners = [];
    this.onMove = () => {};
    box.innerHTML = layoutHtml(summary, live);
    this.el = (name) => box.querySelector(`[data-testid="${name}"]`);
    this.listen(box, "click", (event) => this.click(event));
    this.listen(this.el("replay-slider"), "input", (event) => this.go(Number(event.target.value)));
    this.listen(document, "keydown", (event) => this.key(event));
    this.go(position);
  }

  listen(target, name, fn) {
    target.addEventListener(name, fn);
    this.listeners.push(() => target.removeEventListener(name, fn));
  }

  destroy() {
    this.gone = true;
    for (const off of this.listeners) off();
  }

  click(event) {
    const el = event.target.closest("[data-act]");
    if (!el || !this.box.contains(el)) return;
    const moves = {
      first: () => 0, back: () => this.position - 1, forward: () => this.position + 1,
      last: () => this.summary.moves, round: () => Number(el.dataset.position),
    };
    if (moves[el.dataset.act]) this.go(moves[el.dataset.act]());
  }

  /** Left and Right step, Home and End jump; a key typed in a field (the slider included,
   * which moves itself) is that field's. */
  key(event) {
    if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.target.closest && event.target.closest("input, select, textarea, dialog")) return;
    const to = { ArrowLeft: this.position - 1, ArrowRight: this.position + 1, Home: 0, End: this.summary.moves }[event.key];
    if (to === undefined) return;
    event.preventDefault();
    this.go(to);
  }

  /** The views of the page holding `position`. */
  page(position) {
    const first = Math.floor(position / PAGE) * PAGE;
    if (!this.pages.has(first)) {
      const asked = call(`${this.base}/replay/views?from=${first}&count=${PAGE}`).then((answer) => answer.views);
      asked.catch(() => this.pages.delete(first)); // asked again next time
      this.pages.set(first, asked);
    }
    return this.pages.get(first).then((views) => views[position - first]);
  }

  /** Move the board to `position` (clamped to the game); `compare`: an analysis's miss to
   * show beside the board (its `played` and `best`, `lost`, and the player's `name` and the
   * analysis's `unit`), cleared by any other move. */
  async go(position, compare = null) {
    const to = Math.max(0, Math.min(this.summary.moves, Math.round(position) || 0));
    this.compare = compare;
    this.position = to;
    this.controls();
    let before; let after;
    try {
      [before, after] = await Promise.all([to > 0 ? this.page(to - 1) : null, this.page(to)]);
    } catch (err) { // the game went away (deleted from the archive) or the hub is unreachable
      const board = this.el("replay-board"); // none once the page has gone
      if (board && !this.gone && this.position === to) {
        board.innerHTML = `<p class="form-error" data-testid="replay-board-error">${esc(err.message)}</p>`;
      }
      return;
    }
    if (this.gone || this.position !== to) return; // left, or a later move came first
    this.draw(to, before, after);
    this.onMove(to);
  }

  /** The buttons, the slider, "Move 45 of 611 · Round 3", the round of the position. */
  controls() {
    const { moves, steps, rounds } = this.summary;
    const p = this.position;
    this.el("replay-first").disabled = this.el("replay-back").disabled = p === 0;
    this.el("replay-last").disabled = this.el("replay-forward").disabled = p >= moves;
    this.el("replay-slider").max = String(moves);
    this.el("replay-slider").value = String(p);
    const round = p > 0 ? steps[p - 1].round : rounds.length ? rounds[0].round : null;
    const where = p === 0 ? t("Start of the game · {total} moves", { total: num(moves) })
      : t("Move {n} of {total}", { n: num(p), total: num(moves) });
    const inRound = round === null || round === undefined ? "" : round === 0 ? ` · ${t("Setup")}` : ` · ${t("Round {round}", { round })}`;
    this.el("replay-position").textContent = where + inRound;
    for (const button of this.box.querySelectorAll('[data-act="round"]')) {
      const here = Number(button.dataset.round) === round;
      if (here) button.setAttribute("aria-current", "true");
      else button.removeAttribute("aria-current");
    }
  }

  draw(position, before, after) {
    const board = this.el("replay-board");
    board.innerHTML = this.screen.boardHtml(after);
    board.dataset.position = String(position);
    if (before) {
      const aside = document.createElement("div");
      aside.innerHTML = this.screen.boardHtml(before);
      const marked = changedParts(signatures(aside), board);
      for (const id of marked) board.querySelector(`[data-testid="${CSS.escape(id)}"]`).classList.add("changed");
      board.dataset.changed = marked.join(" ");
    } else {
      board.dataset.changed = "";
    }
    const step = position > 0 ? this.summary.steps[position - 1] : null;
    this.el("replay-words").textContent = step ? this.screen.moveWords(step, before, after)
      : t("The game is set up: nothing has been played yet.");
    this.el("replay-facts").innerHTML = this.screen.factsHtml ? this.screen.factsHtml(after) : "";
    this.showCompare(after);
    this.drawn = position;
    board.dispatchEvent(new CustomEvent("replay-drawn", { bubbles: true, detail: { position } }));
  }

  /** An analysis's miss beside the board: the move played and the advisor's, in words. */
  showCompare(view) {
    const box = this.el("replay-compare");
    const miss = this.compare;
    box.hidden = !miss;
    if (!miss) { box.innerHTML = ""; return; }
    const unit = t(miss.unit); // the analysis's unit, a word of the catalogs ("popcorn")
    const side = (label, what, testid) => `<div class="replay-side ${testid}" data-testid="${testid}">
        <b>${esc(label)}</b> <span class="muted">${esc(t("worth {value} {unit}", { value: num(what.value), unit }))}</span>
        <div>${esc(this.screen.movesWords(what.moves, view))}</div></div>`;
    box.innerHTML = `<p class="replay-miss-head">${esc(t("{name}'s miss: {lost} {unit} lost", { name: miss.name, lost: num(miss.lost), unit }))}</p>
      <div class="replay-sides">${side(t("Played"), miss.played, "compare-played")}${side(t("The advisor"), miss.best, "compare-best")}</div>`;
  }

  /** A live table moved on (or back): take its new steps; a board at the end follows. */
  refresh(summary) {
    const following = this.position >= this.summary.moves;
    const changed = summary.moves !== this.summary.moves || summary.events !== this.summary.events;
    this.summary = summary;
    if (!changed) return;
    this.pages.clear();
    const rounds = this.box.querySelector('[data-testid="replay-rounds"]');
    const fresh = document.createElement("div");
    fresh.innerHTML = layoutHtml(summary, this.live);
    const newRounds = fresh.querySelector('[data-testid="replay-rounds"]');
    if (rounds && newRounds) rounds.replaceWith(newRounds);
    this.go(following ? summary.moves : this.position);
  }
}

/** A replay board for the game at `base` in `box`: its summary asked first (errors thrown
 * to the caller); `options` as the Replay's. */
export async function mountReplay(box, ctx, base, options = {}) {
  const summary = await call(`${base}/replay`);
  const screen = await replayScreenOf(ctx, summary.game);
  return new Replay(box, ctx, base, summary, screen, options);
}

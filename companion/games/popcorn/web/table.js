// The table screen: what the tablet in the middle of the table shows and takes.
//
// It draws the hub's public view (docs/api.md, "The public view") on every `state` push,
// and sends the table's decisions as moves. It knows no rule: what to offer comes from the
// view's `legal` and `chance` lists, and every tap is checked by the engine, whose sentence
// is shown when it refuses. Buying is "tap a card, then a slot"; seating is "tap a drawn
// pawn, then a seat"; everything else is a button for one legal move.
//
// The screen is one object, `TableScreen`; its methods live by job in this folder and are
// mixed into it below:
//   table.js          mounting, loading the table, each `state` push (this file)
//   board.js          drawing: the header's facts, banners, market, cinemas, slots, seats
//   move_buttons.js   a player's move buttons
//   now_panel.js      the side panel: hint, refusal, pending steps, search boxes
//   moves.js          the moves a tap makes, and sending them (one, or a batch); Undo,
//                     the hints setting, the game record
//   input.js          clicks, typing and Enter, the selection of two-tap buying and seating
// The open alerts are the table's (web/js/alerts.js); the correction dialog is correction.js;
// the header's Readers button, its panel and the readers' health notices are
// web/js/reader_health.js, shared with every game.

import { call } from "../../web/js/api.js";
import { TableAlerts } from "../../web/js/alerts.js";
import { ReaderHealth } from "../../web/js/reader_health.js";
import { keepAwake } from "../../web/js/wake.js";
import { esc } from "../../web/js/labels.js";
import { errorText, t } from "../../web/js/i18n.js";
import { roundChecklist } from "./checklist.js";
import { Proposals } from "./proposal.js";
import { Gains } from "./gains.js";
import { mountSpeech } from "./speech.js";
import { Correction } from "./correction.js";
import { boardMethods } from "./board.js";
import { moveButtonMethods } from "./move_buttons.js";
import { nowPanelMethods } from "./now_panel.js";
import { moveMethods } from "./moves.js";
import { inputMethods } from "./input.js";

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
    this.alerts = new TableAlerts(ctx, tableId, () => this.renderBanners());
    this.health = new ReaderHealth(ctx, tableId, () => this.seatReaders(), () => this.view && this.renderFacts(),
      { zoneNames: matZoneNames });
    this.correction = new Correction(ctx, tableId, () => this.view);
    this.selection = null;
    this.refusal = null;
    this.nudge = null; // what a tap that did nothing should have been (input.js)
    this.checklist = null;
    this.pickerQuery = {};
    this.pickerStep = {}; // per kind, the outcomes the query was typed for
    this.proposals = new Proposals(tableId, () => this.render());
    this.gains = new Gains(tableId, () => this.render());
    this.suggestion = new Gains(tableId, () => this.render(), "suggestion");
    this.rest = new Gains(tableId, () => this.render(), "rest"); // "Skip the rest"
    this.onClick = (event) => this.click(event);
    this.onInput = (event) => this.input(event);
    this.onKey = (event) => this.key(event);
    document.addEventListener("click", this.onClick); // the header and banners too
    root.addEventListener("input", this.onInput);
    root.addEventListener("keydown", this.onKey);
    ctx.socket.on("connect", () => ctx.socket.emit("join", { table: tableId }));
    ctx.socket.on("state", (data) => data.table === tableId && this.update(data));
    // a mat's zone state that played nothing: the view drawn is the table's as of `events`
    ctx.socket.on("mat_zones", (data) => data.table === tableId && this.caughtUp(data.events));
    ctx.socket.on("error", (data) => this.fail(errorText(data.code, data.params, data.message)));
    ctx.socket.on("readers", (list) => this.takeReaders(list));
    this.unmountSpeech = mountSpeech(ctx, tableId);
    if (!document.getElementById("tip")) { // what a slot's actions do, shown on a tap
      const tip = Object.assign(document.createElement("div"), { id: "tip", role: "tooltip", hidden: true });
      tip.dataset.testid = "tip";
      document.body.append(tip);
    }
    this.readers = [];
    this.load();
  }

  unmount() {
    keepAwake(false);
    this.unmountSpeech();
    this.health.unmount();
    this.correction.close();
    const tip = document.getElementById("tip");
    if (tip) tip.hidden = true;
    document.removeEventListener("click", this.onClick);
    this.root.removeEventListener("input", this.onInput);
    this.root.removeEventListener("keydown", this.onKey);
  }

  async load() {
    try {
      const [table, readers] = await Promise.all([call(`/api/tables/${this.id}`), // public: no PIN
        call("/api/readers")]); // side by side: one round trip, not two
      this.readers = readers;
      this.info = table;
      if (this.view) this.proposals.refresh(this.view, this.hints());
      if (!this.view) this.update({ view: table.view, events: table.events });
      else this.renderFacts();
      this.alerts.take(table.alerts, table.events);
      window.popcornLoaded = this.id;
    } catch (err) {
      this.fail(err.message);
    }
  }

  fail(message) {
    this.root.innerHTML = `<div class="card" data-testid="table-error"><h2>${esc(t("Cannot show this table"))}</h2>
      <p>${esc(message)}</p><a class="btn" href="/" data-nav>${esc(t("Back to setup"))}</a></div>`;
  }

  /** The view drawn is still the table's once its log holds `events` (a `mat_zones` push:
   * a zone state that plays nothing pushes no view). */
  caughtUp(events) {
    if (this.events === undefined || !(events > this.events)) return;
    this.events = events;
    window.popcornEvents = events;
  }

  update({ view, events }) {
    if (this.events !== undefined && events < this.events) return; // an older push
    const before = this.view;
    const moved = events !== this.events;
    this.view = view;
    this.events = events;
    window.popcornEvents = events; // for tests and curious people: the state drawn
    keepAwake(view.phase !== "over"); // the tablet stays awake while the game is open
    // a round that ends, not the setup that gives way to round 1 (round 0 is the setup)
    if (before && before.round >= 1 && view.round > before.round && view.phase !== "over") {
      this.checklist = roundChecklist(before, view);
    }
    // the checklist prepares the round's Buying: once its Showings begin, it has had its
    // time, and the side panel needs the room (docs/dashboard.md)
    if (view.phase === "over" || (this.checklist && view.phase === "showings"
      && view.round >= this.checklist.round)) this.checklist = null;
    if (this.selection && !this.selectionStillUseful()) this.selection = null;
    if (moved) this.nudge = null; // the table moved on: the nudge is stale
    this.proposals.refresh(view, this.hints());
    this.gains.refresh(view, events);
    this.suggestion.refresh(view, events, this.hints());
    this.rest.refresh(view, events);
    this.render();
    this.correction.refresh();
  }

  hints() {
    return !this.info || this.info.hints !== false;
  }

  /** The hub's readers list (a `readers` push): the screen is drawn again only when one
   * goes online or offline (its cinema's tag), not for a health count that changed. */
  takeReaders(list) {
    const states = (readers) => readers.map((r) => `${r.reader}:${r.online}`).join();
    const changed = states(list) !== states(this.readers);
    this.readers = list;
    if (changed) this.render();
  }

  /** Each seat's reader, cinema mat (or null) and player, for the readers' panel and notices. */
  seatReaders() {
    const readers = this.info ? this.info.readers : [];
    const mats = (this.info && this.info.mats) || [];
    return readers.map((reader, p) => ({ reader, mat: mats[p] || null, name: this.view ? this.view.names[p] : reader }));
  }
}

/** A cinema mat's zones in Popcorn (docs/protocol.md, "Mats"): the cinema's three theater
 * slots, then its exit zone. */
function matZoneNames() {
  return [1, 2, 3].map((n) => t("Theater {n}", { n })).concat(t("Exit zone"));
}

Object.assign(TableScreen.prototype, boardMethods, moveButtonMethods, nowPanelMethods, moveMethods,
  inputMethods);

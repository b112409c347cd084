// The table screen (the tablet) of a B Movies table: the view's `game` is "b-movies".
//
// It draws the hub's public view on every `state` push: the round of rounds and the
// clapboards left, the first player, the screenwriter; each player's token COUNT (never a
// value: the view has none), the draws they owe and the movies they made; the tokens left in
// the bucket. The "now" panel follows the turn (turn.js): the pitch, who has voted (never
// what), the reveal and the draws; at the end, the Final Cut (final_cut.js). Reader
// alerts (a token tapped when none is owed...) show as banners, as on Popcorn's screen,
// with Dismiss (the table's, web/js/alerts.js): a refused tap is no move, so no Undo there.
// With the header's Voice on, the tablet says them and each vote's outcome (speech.js).
// The header's Readers button, its panel and the readers' health notices are the shared
// web/js/reader_health.js. Undo, the tablet's vote entry and the studio deal need the table
// PIN (asked once, then kept on this device). Every move is checked by the hub, whose
// sentence is shown when it refuses.

import { ApiError, call, savePin, savedPin, tableCall } from "../../web/js/api.js";
import { TableAlerts, alertBannerHtml, alertStripHtml } from "../../web/js/alerts.js";
import { ReaderHealth } from "../../web/js/reader_health.js";
import { keepAwake } from "../../web/js/wake.js";
import { errorText, t, tn } from "../../web/js/i18n.js";
import { esc } from "../../web/js/labels.js";
import { acceptedText, auditAct, auditParts, auditStep } from "../../web/js/audit.js";
import { showPhoneQr } from "../../web/js/phone_qr.js";
import { mountSpeech } from "../../web/js/speech.js";
import { outcomeSpeaker } from "./speech.js";
import { bmMove, tabletMove } from "./moves.js";
import { finalCutHtml } from "./final_cut.js";
import { bucketHtml, playerHtml } from "./players.js";
import { drawsHtml, lastTurnHtml, pitchHtml, revealHtml, studioDealHtml, votingHtml } from "./turn.js";

/** Mount the B Movies table screen for `tableId`; returns the function that unmounts it. */
export function mountTable(root, ctx, tableId) {
  const screen = new BmTableScreen(root, ctx, tableId);
  return () => screen.unmount();
}

const VOTES_KEY = (id) => `popcorn:bm-tablet-votes:${id}`;

class BmTableScreen {
  constructor(root, ctx, tableId) {
    Object.assign(this, { root, ctx, id: tableId });
    this.view = null;
    this.info = null;
    this.events = undefined;
    this.alerts = new TableAlerts(ctx, tableId, () => this.renderBanners());
    this.health = new ReaderHealth(ctx, tableId, () => this.seatReaders(), () => this.view && this.renderFacts());
    this.title = ""; // the pitch's title being typed
    this.deal = []; // the studio deal being entered, by seat
    this.tabletVotes = localStorage.getItem(VOTES_KEY(tableId)) === "1";
    this.busy = false;
    this.onClick = (event) => this.click(event);
    this.onInput = (event) => this.input(event);
    document.addEventListener("click", this.onClick); // the header and banners too
    root.addEventListener("input", this.onInput);
    ctx.socket.on("connect", () => ctx.socket.emit("join", { table: tableId }));
    ctx.socket.on("state", (data) => data.table === tableId && this.update(data));
    ctx.socket.on("error", (data) => this.fail(errorText(data.code, data.params, data.message)));
    this.unmountSpeech = mountSpeech(ctx, tableId, outcomeSpeaker()); // the header's Voice
    this.load();
  }

  unmount() {
    keepAwake(false);
    this.unmountSpeech();
    this.health.unmount();
    document.removeEventListener("click", this.onClick);
    this.root.removeEventListener("input", this.onInput);
  }

  async load() {
    try {
      const table = await call(`/api/tables/${encodeURIComponent(this.id)}`);
      this.info = table;
      if (!this.view) this.update({ view: table.view, events: table.events });
      else this.render();
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

  update({ view, events }) {
    if (this.events !== undefined && events < this.events) return; // an older push
    if (this.view && this.view.screenwriter !== view.screenwriter) this.title = "";
    this.view = view;
    this.events = events;
    window.popcornEvents = events; // for tests: the state drawn
    keepAwake(view.phase !== "over"); // the tablet stays awake while the game is open
    this.render();
  }

  names() {
    return this.view.players.map((p) => p.name);
  }

  /** Each seat's reader, cinema mat (or null) and player, for the readers' panel and notices. */
  seatReaders() {
    const readers = this.info ? this.info.readers : [];
    const mats = (this.info && this.info.mats) || [];
    return readers.map((reader, seat) => ({ reader, mat: mats[seat] || null,
      name: this.view ? this.view.players[seat].name : reader }));
  }

  // -- drawing -------------------------------------------------------------------------

  render() {
    const v = this.view;
    if (!v) return;
    this.renderFacts();
    this.renderBanners();
    const focus = document.activeElement && document.activeElement.dataset.testid === "pitch-title";
    const over = v.phase === "over";
    this.root.innerHTML = `
      <div class="bm-grid fits${over ? " over" : ""}" data-testid="bm-table" data-phase="${esc(v.phase)}">
        <section class="bm-players" data-testid="bm-players">${v.players.map((p) => this.playerHtml(p)).join("")}
          ${bucketHtml(v)}
        </section>
        <section class="card bm-now side" data-testid="bm-now">${this.sideHtml()}</section>
      </div>`;
    if (focus) {
      const input = this.root.querySelector('[data-testid="pitch-title"]');
      if (input) { input.focus(); input.setSelectionRange(input.value.length, input.value.length); }
    }
  }

  renderFacts() {
    const v = this.view;
    const name = this.info ? this.info.name : this.id;
    const round = v.phase === "over" ? t("Final Cut") : t("Round {round} of {rounds}", { round: v.round, rounds: v.rounds });
    const replay = t("Replay the moves so far"); // outside the template: Babel misses t() in quotes
    document.getElementById("facts").innerHTML = `
      <span class="fact" data-testid="table-name">${esc(name)}</span>
      <span class="fact" data-testid="bm-round" data-round="${v.round}" data-rounds="${v.rounds}"><b>${esc(round)}</b></span>
      <span class="fact" data-testid="bm-clapboards" data-count="${v.clapboards}">${esc(tn("{n} clapboard left", "{n} clapboards left", v.clapboards))}</span>
      <button class="btn small" data-act="undo" data-testid="undo">${esc(t("Undo"))}</button>
      <button class="btn small" data-act="phones" data-testid="phones">${esc(t("Phones"))}</button>
      ${this.health.buttonHtml()}
      <a class="btn small replay-link" href="/table/${encodeURIComponent(this.id)}/replay" data-nav data-testid="open-replay"
        title="${esc(replay)}" aria-label="${esc(replay)}">⟲</a>`;
  }

  renderBanners() {
    const v = this.view;
    const parts = [];
    parts.push(alertStripHtml(this.alerts.shown(), this.alertsOpen, (alert, more) => {
      const who = v && alert.player !== null && alert.player !== undefined && v.players[alert.player]
        ? v.players[alert.player].name : "";
      return alertBannerHtml(alert, who, { more });
    }));
    document.getElementById("banners").innerHTML = parts.join("");
  }

  playerHtml(p) {
    // players.js: the replay board draws players the same way; the tablet adds the pile check
    const v = this.view;
    const check = v.audit || v.phase === "over" ? "" : `<button class="btn small" data-act="audit-start"
      data-player="${p.seat}" data-testid="audit-start-${p.seat}">${esc(t("Check pile"))}</button>`;
    return playerHtml(v, p, check);
  }

  /** The side panel: an audit's head pinned (its buttons in sight), the rest scrolling under
   * it when it has more to say; at the end, the Final Cut. */
  sideHtml() {
    if (this.view.phase === "over") return `<div class="side-scroll">${this.finalHtml()}</div>`;
    const audit = this.auditPanel();
    return `<div class="side-pin" data-testid="side-pin">${audit.head}</div>
      <div class="side-scroll" data-testid="side-scroll">${audit.body}${this.nowHtml()}</div>`;
  }

  /** The pile audit under way (web/js/audit.js) as `{head, body}`: the tablet sees only how
   * many tokens. */
  auditPanel() {
    return auditParts(this.view.audit, this.names(), {
      keyHtml: () => `<span class="bm-token" aria-hidden="true">?</span> ${esc(t("tokens"))}`,
      title: (name) => t("Checking {name}'s pile", { name }),
      hint: (name) => t("Tap every popcorn token of the pile on {name}'s pad, then accept.", { name }),
      finished: (name) => t("{name}'s pile is done", { name }),
      empty: (name, n) => tn("No token was tapped: is {name}'s pile really empty? The companion would take its {n} token out of it.",
        "No token was tapped: is {name}'s pile really empty? The companion would take its {n} tokens out of it.", n, { name }),
    });
  }

  /** A tap on the audit panel's own buttons (web/js/audit.js, auditAct). */
  auditAct(act) {
    const step = auditAct(act, this.view.audit);
    if (step === "") this.render();
    else if (step) this.auditStep(step);
  }

  async auditStep(step, body) {
    try {
      const answer = await auditStep(this.ctx, this.id, step, { body });
      if (step === "accept") this.ctx.toast(acceptedText(answer), "ok");
    } catch (err) {
      this.ctx.toast(err.message, "error");
    }
    this.render();
  }

  nowHtml() {
    const v = this.view;
    if (v.phase === "setup") {
      return v.variant === "hidden" ? studioDealHtml(v, v.studio_count, this.deal)
        : `<p class="muted">${esc(t("Setting up…"))}</p>`;
    }
    if (v.phase === "pitch") return lastTurnHtml(v) + pitchHtml(v, this.title);
    if (v.phase === "vote") return votingHtml(v, this.tabletVotes);
    if (v.phase === "draw") return revealHtml(v) + drawsHtml(v);
    return "";
  }

  finalHtml() {
    const v = this.view;
    const fc = v.final_cut;
    if (!fc) return `<p class="muted">${esc(t("Loading…"))}</p>`;
    return finalCutHtml(fc, this.names(), v.variant === "hidden")
      + `<button class="btn primary" data-act="export" data-testid="export-record">${esc(t("Export the game record"))}</button>`;
  }

  // -- taps ------------------------------------------------------------------------------

  click(event) {
    const el = event.target.closest("[data-act]");
    if (!el || !this.view || this.health.click(el)) return;
    const act = el.dataset.act;
    const handlers = {
      pitch: () => this.send(bmMove("pitch", { player: this.view.screenwriter, cards: Number(el.dataset.cards), title: this.title.trim() })),
      "tablet-votes": () => this.toggleTabletVotes(),
      "tablet-vote": () => this.send(bmMove("vote", { player: Number(el.dataset.seat), vote: el.dataset.vote }), true),
      "send-deal": () => this.sendDeal(),
      undo: () => this.undo(),
      dismiss: () => this.alerts.dismiss(Number(el.dataset.alert)),
      "alerts-open": () => { this.alertsOpen = !this.alertsOpen; this.renderBanners(); },
      phones: () => showPhoneQr(this.ctx, this.id, this.names()),
      export: () => this.exportRecord(),
      "audit-start": () => this.auditStep("start", { player: Number(el.dataset.player) }),
    };
    if (handlers[act]) handlers[act]();
    else this.auditAct(act);
  }

  input(event) {
    const el = event.target;
    if (el.dataset.act === "title") this.title = el.value;
    if (el.dataset.act === "deal-pick") this.deal[Number(el.dataset.seat)] = el.value === "" ? undefined : Number(el.value);
  }

  /** The table PIN for this device: the saved one, else asked once (null if cancelled). */
  async pin() {
    let pin = savedPin(this.id);
    if (!pin) {
      pin = await this.ctx.askPin(t("Table PIN:"));
      if (pin) savePin(this.id, pin);
    }
    return pin;
  }

  async toggleTabletVotes() {
    if (!this.tabletVotes && !(await this.pin())) return;
    this.tabletVotes = !this.tabletVotes;
    localStorage.setItem(VOTES_KEY(this.id), this.tabletVotes ? "1" : "0");
    this.render();
  }

  /** Post a move; `needsPin`: ask the PIN first (a vote typed at the tablet). */
  async send(move, needsPin = false) {
    if (this.busy) return;
    if (needsPin && !(await this.pin())) return;
    this.busy = true;
    try {
      await tabletMove(this.id, move, this.ctx.askPin); // with the PIN this device knows
      if (move.move === "pitch") this.title = "";
      if (move.move === "vote") this.ctx.toast(t("Vote entered for {name}.", { name: this.view.players[move.player].name }), "ok");
    } catch (err) {
      this.ctx.toast(err instanceof ApiError ? err.message : String(err), "error");
    } finally {
      this.busy = false;
    }
  }

  async sendDeal() {
    const studios = this.view.players.map((p) => this.deal[p.seat]);
    if (studios.some((s) => s === undefined)) {
      this.ctx.toast(t("Choose every player's studio first."), "error");
      return;
    }
    await this.send(bmMove("deal_studios", { studios }), true);
  }

  async undo() {
    try {
      await tableCall(this.id, `/api/tables/${encodeURIComponent(this.id)}/undo`, { method: "POST", body: {} }, this.ctx.askPin, true);
      this.ctx.toast(t("The last move was taken back."), "ok");
    } catch (err) {
      this.ctx.toast(err.message, "error");
    }
    this.renderBanners();
  }

  /** The game record (JSON Lines, PIN), as a file `popcorn-companion replay --game b-movies` reads. */
  async exportRecord() {
    try {
      const text = await tableCall(this.id, `/api/tables/${encodeURIComponent(this.id)}/record`, {}, this.ctx.askPin, true);
      const link = document.createElement("a");
      link.href = URL.createObjectURL(new Blob([text], { type: "application/x-ndjson" }));
      link.download = `b-movies-${this.id}.jsonl`;
      link.click();
    } catch (err) {
      this.ctx.toast(err.message, "error");
    }
  }
}

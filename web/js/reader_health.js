// The table's bag readers and cinema mats and their health, on the table screen of any game.
//
// The hub lists every reader (GET /api/readers, then the `readers` push) with its state, the
// age of its last heartbeat and its health: the Wi-Fi signal, the battery and the failed
// reads, each with a simple level the hub computes (companion/readers/health.py; nothing
// here judges a value). This module gives a table screen
//   - a "Readers" button for the header (`buttonHtml`), marked when a reader needs care;
//   - the panel it opens: one row per seat, with the player, the reader's state, its last
//     heartbeat ("3 s ago"), its signal and battery as bars with words, its failed reads;
//     and when the table binds cinema mats (protocol v2), a second table, "Cinema mats", with
//     each seat's mat: its state, heartbeat, signal and battery as above, its last scan
//     ("120 ms", "zones 4 s ago") and the tags on each of its zones. The zones' count comes
//     from the hub's list; their names from the game's table screen (`zoneNames`), else
//     "Zone 1", "Zone 2"...;
//   - a gentle notice when one of the table's readers goes bad (the `reader_health` push):
//     it names the player and says what to do (for their bag reader, or their cinema mat),
//     waits in a corner of the screen without covering the table's middle, and goes when
//     dismissed. It is no game alert: the table plays on, and the hub tells each problem once
//     until it clears.
// Both games' table screens (companion/games/*/web/table.js) mount it and call `click` from their
// click handler on the document, which sees the panel's and the notices' buttons too.

import { call } from "./api.js";
import { t, tn } from "./i18n.js";
import { esc } from "./labels.js";

/** How many bars each level fills (of three), and its class: good/ok green, fair amber,
 * weak/low/many red, unknown grey. */
const BARS = { good: 3, fair: 2, weak: 1, ok: 3, low: 1, unknown: 0 };

export class ReaderHealth {
  /** `seats()` gives the table's seats in order as `{reader, name, mat}` (`mat`: the id of
   * the seat's cinema mat, or null or absent); `changed()` redraws the header (the button's
   * mark). `options.zoneNames()`, if given, names a mat's zones in order, in this language
   * (a game's words: this module names no game). */
  constructor(ctx, tableId, seats, changed, options = {}) {
    Object.assign(this, { ctx, id: tableId, seats, changed, zoneNames: options.zoneNames || (() => []) });
    this.list = [];
    this.at = performance.now(); // when `list` came: the ages tick on from it
    this.notices = []; // {key, reader, seat, problem}
    this.timer = null;
    ctx.socket.on("readers", (list) => this.take(list));
    ctx.socket.on("mat_zones", (data) => data.table === tableId && this.zonesOf(data));
    ctx.socket.on("reader_health", (data) => data.table === tableId && this.raise(data));
    ctx.socket.on("connect", () => this.load()); // pushes missed while away: read again
    this.load();
  }

  async load() {
    try {
      this.take(await call("/api/readers"));
    } catch {
      // the table screen shows its own error; the list stays as it was
    }
  }

  /** A mat of this table changed a zone (`mat_zones`, to this table's screens alone): its
   * entry takes the new counts, and its zones' age starts again from now. */
  zonesOf({ reader, zones }) {
    const entry = this.list.find((r) => r.reader === reader);
    if (!entry) return;
    entry.zones = zones;
    entry.zones_age = -(performance.now() - this.at) / 1000; // ages tick on from `at`
    this.changed();
    this.drawPanel();
  }

  take(list) {
    this.list = list || [];
    this.at = performance.now();
    this.changed();
    this.drawPanel();
  }

  /** This table's readers, seat by seat: `{seat, name, reader, status}`. */
  rows() {
    return this.seats().map(({ reader, name }, seat) => ({
      seat, name, reader, status: this.list.find((r) => r.reader === reader) || null }));
  }

  /** This table's cinema mats, seat by seat (seats without one left out):
   * `{seat, name, mat, status}`. */
  matRows() {
    return this.seats().map(({ mat, name }, seat) => ({
      seat, name, mat, status: mat ? this.list.find((r) => r.reader === mat) || null : null }))
      .filter((row) => row.mat);
  }

  /** The header's "Readers" button; it counts the readers and mats that need care. */
  buttonHtml() {
    const bad = [...this.rows(), ...this.matRows()]
      .filter((r) => r.status && (!r.status.online || r.status.problems.length)).length;
    const label = bad ? tn("Readers: {n} needs care", "Readers: {n} need care", bad) : t("Readers");
    const mark = bad ? ` <span class="rh-mark" aria-hidden="true">${bad}</span>` : "";
    return `<button class="btn small rh-open${bad ? " warn" : ""}" data-act="readers-open"
      data-testid="readers-open" aria-label="${esc(label)}" title="${esc(label)}">${esc(t("Readers"))}${mark}</button>`;
  }

  /** Handle a click on an element with `data-act`; true if it was one of ours. */
  click(el) {
    const act = el.dataset.act;
    if (act === "readers-open") this.open();
    else if (act === "readers-close") this.close();
    else if (act === "health-dismiss") this.dismiss(el.dataset.key);
    else return false;
    return true;
  }

  unmount() {
    this.close();
    for (const id of ["health-notices", "readers-dialog"]) {
      const el = document.getElementById(id);
      if (el) el.remove();
    }
  }

  // -- the panel ---------------------------------------------------------------------------

  dialog() {
    let dialog = document.getElementById("readers-dialog");
    if (!dialog) {
      dialog = document.createElement("dialog");
      dialog.id = "readers-dialog";
      dialog.className = "rh-dialog";
      dialog.dataset.testid = "readers-panel";
      dialog.addEventListener("close", () => this.stopTicking());
      document.body.append(dialog);
    }
    return dialog;
  }

  open() {
    const dialog = this.dialog();
    this.load();
    this.drawPanel(true);
    if (!dialog.open) dialog.showModal();
    this.stopTicking();
    this.timer = setInterval(() => this.drawAges(), 1000); // "3 s ago" goes on counting
  }

  close() {
    this.stopTicking();
    const dialog = document.getElementById("readers-dialog");
    if (dialog && dialog.open) dialog.close();
  }

  stopTicking() {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  drawPanel(force = false) {
    const dialog = document.getElementById("readers-dialog");
    if (!dialog || (!dialog.open && !force)) return;
    dialog.innerHTML = `<h2>${esc(t("Bag readers"))}</h2>
      <table class="rh-table"><thead><tr><th>${esc(t("Player"))}</th><th>${esc(t("State"))}</th>
        <th>${esc(t("Last heartbeat"))}</th><th>${esc(t("Signal"))}</th><th>${esc(t("Battery"))}</th>
        <th>${esc(t("Failed reads"))}</th></tr></thead>
      <tbody>${this.rows().map((row) => this.rowHtml(row)).join("")}</tbody></table>
      ${this.matsHtml()}
      <p class="muted rh-note">${esc(t("A reader that goes bad raises a notice here before a draw is lost. Play goes on meanwhile."))}</p>
      <div class="row"><button type="button" class="btn" data-act="readers-close" data-testid="readers-close">${esc(t("Close"))}</button></div>`;
  }

  rowHtml({ seat, name, reader, status }) {
    const s = status || { online: false, problems: [], signal: "unknown", battery: "unknown", reads: "unknown" };
    const state = s.online ? t("online") : t("offline");
    return `<tr data-testid="reader-row-${seat}" data-reader="${esc(reader)}" data-online="${s.online}"
        data-signal="${esc(s.signal)}" data-battery="${esc(s.battery)}" data-reads="${esc(s.reads)}">
      <td><b>${esc(name)}</b><br><span class="muted">${esc(reader)}</span></td>
      <td><span class="rh-state ${s.online ? "on" : "off"}">${esc(state)}</span></td>
      <td class="rh-age" data-testid="reader-age-${seat}">${esc(this.ageText(s))}</td>
      <td>${this.levelHtml(s.signal, signalWords(s), "signal", seat)}</td>
      <td>${this.levelHtml(s.battery, batteryWords(s), "battery", seat)}</td>
      <td data-testid="reader-reads-${seat}">${esc(readsWords(s))}</td></tr>`;
  }

  /** The table's cinema mats, if it has any: a row per seat's mat. */
  matsHtml() {
    const rows = this.matRows();
    if (!rows.length) return "";
    return `<h2>${esc(t("Cinema mats"))}</h2>
      <table class="rh-table" data-testid="mats-table"><thead><tr><th>${esc(t("Player"))}</th>
        <th>${esc(t("State"))}</th><th>${esc(t("Last heartbeat"))}</th><th>${esc(t("Signal"))}</th>
        <th>${esc(t("Battery"))}</th><th>${esc(t("Last scan"))}</th><th>${esc(t("Zones"))}</th></tr></thead>
      <tbody>${rows.map((row) => this.matRowHtml(row)).join("")}</tbody></table>`;
  }

  matRowHtml({ seat, name, mat, status }) {
    const s = status || { online: false, problems: [], signal: "unknown", battery: "unknown", reads: "unknown",
      zones: null, scan_ms: null, zones_age: null };
    const state = s.online ? t("online") : t("offline");
    const many = s.reads === "many" ? `<br><span class="rh-level weak">${esc(readsWords(s))}</span>` : "";
    return `<tr data-testid="mat-row-${seat}" data-reader="${esc(mat)}" data-online="${s.online}"
        data-signal="${esc(s.signal)}" data-battery="${esc(s.battery)}" data-reads="${esc(s.reads)}">
      <td><b>${esc(name)}</b><br><span class="muted rh-id">${esc(mat)}</span></td>
      <td><span class="rh-state ${s.online ? "on" : "off"}">${esc(state)}</span></td>
      <td class="rh-age" data-testid="mat-age-${seat}">${esc(this.ageText(s))}</td>
      <td>${this.levelHtml(s.signal, signalWords(s), "signal", seat, "mat")}</td>
      <td>${this.levelHtml(s.battery, batteryWords(s), "battery", seat, "mat")}</td>
      <td data-testid="mat-scan-${seat}">${esc(scanWords(s))}<br><span class="rh-age"
        data-testid="mat-zones-age-${seat}">${esc(this.zonesAgeText(s))}</span>${many}</td>
      <td data-testid="mat-zones-${seat}">${this.zonesHtml(s.zones, seat)}</td></tr>`;
  }

  /** How long ago a mat's last zone state came ("zones 4 s ago"). */
  zonesAgeText(status) {
    if (status.zones_age === null || status.zones_age === undefined) return t("no zones yet");
    return t("zones {ago}", { ago: this.agoText(status.zones_age) });
  }

  /** The tags on each zone, named by the game (else numbered). */
  zonesHtml(zones, seat) {
    if (!zones) return esc(t("not bound"));
    const names = this.zoneNames() || [];
    const items = zones.map((n, zone) => {
      const name = names[zone] || t("Zone {n}", { n: zone + 1 });
      const words = tn("{zone}: {n} tag", "{zone}: {n} tags", n, { zone: name });
      const muted = n ? "" : ` class="muted"`;
      return `<li data-testid="mat-zone-${seat}-${zone}" data-count="${n}"${muted}>${esc(words)}</li>`;
    });
    return `<ul class="rh-zones">${items.join("")}</ul>`;
  }

  /** Three bars filled to the level, and its words (for everyone, screen readers too). */
  levelHtml(level, words, what, seat, who = "reader") {
    const filled = BARS[level] ?? 0;
    const bars = [1, 2, 3].map((n) => `<i class="${n <= filled ? "on" : ""}"></i>`).join("");
    return `<span class="rh-level ${esc(level)}" data-testid="${who}-${what}-${seat}" data-level="${esc(level)}">
      <span class="rh-bars" aria-hidden="true">${bars}</span> ${esc(words)}</span>`;
  }

  /** "3 s ago" from the age the hub gave, counted on since the list came. */
  ageText(status) {
    if (status.heartbeat_age === null || status.heartbeat_age === undefined) return t("none yet");
    return this.agoText(status.heartbeat_age);
  }

  /** "3 s ago" from an age in seconds the hub gave, counted on since the list came. */
  agoText(age) {
    const seconds = Math.round(age + (performance.now() - this.at) / 1000);
    if (seconds < 120) return t("{s} s ago", { s: seconds });
    return t("{m} min ago", { m: Math.floor(seconds / 60) });
  }

  drawAges() {
    for (const row of this.rows()) {
      const cell = document.querySelector(`[data-testid="reader-age-${row.seat}"]`);
      if (cell && row.status) cell.textContent = this.ageText(row.status);
    }
    for (const row of this.matRows()) {
      const age = document.querySelector(`[data-testid="mat-age-${row.seat}"]`);
      if (age && row.status) age.textContent = this.ageText(row.status);
      const zones = document.querySelector(`[data-testid="mat-zones-age-${row.seat}"]`);
      if (zones && row.status) zones.textContent = this.zonesAgeText(row.status);
    }
  }

  // -- the notices -------------------------------------------------------------------------

  /** A `reader_health` push: one notice per new problem (one already up stays one). */
  raise({ reader, seat, problems, status }) {
    const mat = (status && status.kind === "mat") || this.seats().some((s) => s.mat === reader);
    for (const problem of problems) {
      const key = `${reader}:${problem}`;
      if (!this.notices.some((n) => n.key === key)) this.notices.push({ key, reader, seat, problem, mat });
    }
    this.drawNotices();
  }

  dismiss(key) {
    this.notices = this.notices.filter((n) => n.key !== key);
    this.drawNotices();
  }

  drawNotices() {
    let box = document.getElementById("health-notices");
    if (!box) {
      box = Object.assign(document.createElement("div"), { id: "health-notices" });
      box.setAttribute("aria-live", "polite");
      document.body.append(box);
    }
    const names = this.seats();
    box.innerHTML = this.notices.map((n) => {
      const name = (names[n.seat] && names[n.seat].name) || n.reader;
      return `<div class="health-notice" role="status" data-testid="health-notice"
          data-reader="${esc(n.reader)}" data-problem="${esc(n.problem)}">
        <span class="grow">${esc(n.mat ? matNoticeText(n.problem, name) : noticeText(n.problem, name))}</span>
        <button type="button" class="btn small" data-act="health-dismiss" data-key="${esc(n.key)}"
          data-testid="health-dismiss">${esc(t("Dismiss"))}</button></div>`;
    }).join("");
  }
}

/** What to do about a problem of `name`'s reader, in a sentence. */
function noticeText(problem, name) {
  if (problem === "battery") return t("{name}'s reader is low on battery: charge it, or plug in its USB cable.", { name });
  if (problem === "signal") return t("{name}'s reader has a weak Wi-Fi signal: move it nearer the Wi-Fi router, or plug in its USB cable.", { name });
  return t("{name}'s reader is failing many reads: check its wires, and hold each pawn flat on the pad.", { name });
}

/** What to do about a problem of `name`'s cinema mat, in a sentence. */
function matNoticeText(problem, name) {
  if (problem === "battery") return t("{name}'s cinema mat is low on battery: charge it, or plug in its USB cable.", { name });
  if (problem === "signal") return t("{name}'s cinema mat has a weak Wi-Fi signal: move it nearer the Wi-Fi router, or plug in its USB cable.", { name });
  return t("{name}'s cinema mat is failing many reads: check its wires, and lay each pawn flat inside a zone.", { name });
}

function signalWords(s) {
  if (s.signal === "unknown") return s.transport === "serial" ? t("cable, no Wi-Fi") : t("unknown");
  const words = { good: t("good signal"), fair: t("fair signal"), weak: t("weak signal") };
  const dbm = s.rssi === null || s.rssi === undefined ? "" : ` (${s.rssi} dBm)`;
  return words[s.signal] + dbm;
}

/** A mat's last full scan of its zones, from its heartbeat. */
function scanWords(s) {
  if (s.scan_ms === null || s.scan_ms === undefined) return t("not measured");
  return t("{ms} ms", { ms: s.scan_ms });
}

function batteryWords(s) {
  if (s.battery === "unknown") return t("not measured");
  const v = Math.round(s.supply_mv / 10) / 100; // in this language's numbers: "3,45" in French
  return s.battery === "low" ? t("low, {v} V", { v }) : t("ok, {v} V", { v });
}

function readsWords(s) {
  if (s.read_fail === null || s.read_fail === undefined) return t("not counted");
  const failed = tn("{n} failed", "{n} failed", s.read_fail);
  const fast = s.too_fast ? `, ${tn("{n} too fast", "{n} too fast", s.too_fast)}` : "";
  return (s.reads === "many" ? `${t("many!")} ` : "") + failed + fast;
}

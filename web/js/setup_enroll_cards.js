// The Cards section of the enrollment panel: NFC stickers on the movie cards, theater tiles
// and award cards (docs/dashboard.md, "Card tags"). Two ways, both with the admin PIN typed
// in the Pawn tags section:
// - "In catalog order": pick a kind and start; sort that kind's cards in the order
//   `popcorn-companion readers card-list` prints, and tap them one by one: each new tag
//   becomes the next card of the list without a tag (POST /api/enroll {cards: kind}).
// - "Tap, then pick": start, tap any card; its UID waits here, and a search box over the
//   catalog's titles binds it (POST /api/enroll {cards: true}, then /api/enroll/card).
// The counts against the box's capacity come from /api/tags/counts and the `enroll` pushes.

import { call } from "./api.js";
import { sentence, t } from "./i18n.js";
import { cardTitle, esc } from "./labels.js";
import { ranked } from "./search.js";
import { kindWord, testIds } from "./setup_shared.js";

const KINDS = ["movie", "theater", "award"];
/** Each kind's name as a heading (plural), in this device's language. */
const KIND_NAMES = () => ({ movie: t("Movies"), theater: t("Theater tiles"), award: t("Awards") });


/** The Cards section's HTML (its buttons are wired by `cardsPanel`). */
export function cardsHtml() {
  const names = KIND_NAMES();
  const kindLabel = t("Card kind");
  const kinds = KINDS.map((k) => `
          <button type="button" class="colorbtn kindbtn" data-kind="${k}" data-testid="enroll-cards-kind-${k}"
            aria-pressed="false"><span class="cname">${esc(names[k])}</span>
            <span class="count" data-testid="enroll-cards-count-${k}">–</span>
            <span class="bar"><span></span></span></button>`).join("");
  return `<div class="enroll-cards" data-testid="enroll-cards">
        <h3>${esc(t("Card tags"))}</h3>
        <p class="muted">${esc(t("Stickers on movie cards, theater tiles and award cards: a card tapped on a bag reader during a game reports or buys it."))}</p>
        <div class="colors" role="group" aria-label="${esc(kindLabel)}">${kinds}</div>
        <div class="row">
          <button type="button" class="btn primary" data-testid="enroll-cards-order">${esc(t("Tap in catalog order"))}</button>
          <button type="button" class="btn" data-testid="enroll-cards-pick">${esc(t("Tap, then pick"))}</button>
        </div>
        <div class="enroll-status" data-testid="enroll-cards-status" aria-live="polite"></div>
        <div class="enroll-last" data-testid="enroll-cards-last" aria-live="polite" hidden></div>
        <div class="card-pending" data-testid="enroll-card-pending" hidden></div>
      </div>`;
}

/** The Cards section; `admin` is the PIN box, `started(data, pin)` tells the panel. */
export function cardsPanel(root, ctx, shared, admin, started) {
  const tid = testIds(root);
  let info = { cards: {}, card_capacity: {}, enrolling_cards: null };
  let pending = []; // UIDs tapped in "tap, then pick", oldest first (admin answers only)
  let kind = "movie";
  let query = "";

  function render() {
    for (const k of KINDS) {
      const n = info.cards[k] ?? 0;
      const cap = info.card_capacity[k] ?? 0;
      const btn = tid(`enroll-cards-kind-${k}`);
      tid(`enroll-cards-count-${k}`).textContent = cap ? `${n} / ${cap}` : String(n);
      btn.querySelector(".bar span").style.width = cap ? `${Math.min(100, (100 * n) / cap)}%` : "0";
      btn.classList.toggle("full", cap > 0 && n >= cap);
      btn.classList.toggle("enrolling", info.enrolling_cards === k);
      btn.setAttribute("aria-pressed", String(kind === k));
    }
    const mode = info.enrolling_cards;
    const status = tid("enroll-cards-status");
    status.classList.toggle("on", Boolean(mode));
    status.innerHTML = `<span>${esc(statusText(mode))}</span>`;
    renderPending();
  }

  function statusText(mode) {
    if (!mode) return t("Not enrolling cards.");
    if (mode === "pick") return t("Tap any card on a reader, then pick it below.");
    const params = { kind: KIND_NAMES()[mode] || mode, n: info.cards[mode] ?? 0, cap: info.card_capacity[mode] ?? 0 };
    if (params.cap && params.n >= params.cap) return t("{kind}: all {cap} have a tag. Stop, or choose another kind.", params);
    return t("Enrolling {kind} in catalog order ({n} of {cap}): tap the next card of the printed list.", params);
  }

  function options() {
    const cat = ctx.catalog;
    return [
      ...cat.movies.map((m) => ({ kind: "movie", id: m.id, title: m.title })),
      ...cat.theaters.filter((t) => !t.default).map((t) => ({ kind: "theater", id: t.id, title: sentence(cardTitle(t)) })),
      ...cat.awards.map((a) => ({ kind: "award", id: a.id, title: a.title })),
    ];
  }

  function renderPending() {
    const box = tid("enroll-card-pending");
    const uid = info.enrolling_cards === "pick" ? pending[0] : null;
    if (!uid) {
      box.hidden = true;
      box.innerHTML = "";
      return;
    }
    const found = ranked(options(), query, (o) => o.title).slice(0, 6);
    box.hidden = false;
    const placeholder = t("Type the card's title…");
    const label = t("Card title");
    box.innerHTML = `<div>${esc(t("Tag {uid} is waiting: which card is it?", { uid }))}</div>
      <input type="search" data-testid="enroll-card-search" placeholder="${esc(placeholder)}"
        autocomplete="off" aria-label="${esc(label)}" value="${esc(query)}">
      <ul class="card-options">${found.map((o) => `<li><button type="button" class="btn" data-bind="${esc(o.id)}"
        data-bind-kind="${o.kind}" data-testid="enroll-card-option-${o.kind}-${esc(o.id)}">${esc(o.title)}
        <small>${esc(kindWord(o.kind))}</small></button></li>`).join("")}</ul>`;
  }

  async function post(path, fields) {
    admin.clear();
    const pin = admin.pin();
    if (!pin) return null;
    try {
      const data = await call(path, { method: "POST", body: { admin_pin: pin, ...fields } });
      if (!shared.alive) return null;
      started(data, pin);
      return data;
    } catch (err) {
      if (shared.alive) admin.fail(err);
      return null;
    }
  }

  async function bind(button) {
    const uid = pending[0];
    const data = await post("/api/enroll/card", { uid, kind: button.dataset.bindKind, card: button.dataset.bind });
    if (data) query = "";
  }

  const { signal } = shared;
  root.querySelector(".enroll-cards .colors").addEventListener("click", (event) => {
    const btn = event.target.closest("button[data-kind]");
    if (btn) { kind = btn.dataset.kind; render(); }
  }, { signal });
  tid("enroll-cards-order").addEventListener("click", () => post("/api/enroll", { cards: kind }), { signal });
  tid("enroll-cards-pick").addEventListener("click", () => post("/api/enroll", { cards: true }), { signal });
  const pendingBox = tid("enroll-card-pending");
  pendingBox.addEventListener("click", (event) => {
    const btn = event.target.closest("button[data-bind]");
    if (btn) bind(btn);
  }, { signal });
  pendingBox.addEventListener("input", (event) => {
    query = event.target.value;
    const pos = event.target.selectionStart;
    renderPending();
    const again = tid("enroll-card-search");
    again.focus();
    again.setSelectionRange(pos, pos);
  }, { signal });

  /** New counts and mode (/api/tags/counts or an answer of the hub). */
  function update(data) {
    if (!data) return;
    info = { ...info, ...data };
    render();
  }

  /** The pending UIDs, from an answer to the admin PIN. */
  function pendingIs(list) {
    pending = [...list];
    render();
  }

  /** An `enroll` push: a UID now waiting, or a card just enrolled (no longer waiting). */
  function pushed(data) {
    if (!data || !data.ok) return;
    if (data.waiting) pending = [...data.waiting];
    if (data.card) pending = pending.filter((u) => u !== data.uid);
    render();
  }
  return { render, update, pendingIs, pushed };
}

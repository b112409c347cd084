// The enrollment panel's sections for every other kind of piece a hosted game declares
// (B Movies' popcorn tokens, a third game's pieces): all but the pawns and the cards, which
// have sections of their own. The hub lists the kinds (/api/tags/counts: `pieces`, each with
// its game, title and values, and how many of each value the box holds and have tags), so a
// game the hub hosts from outside gets its section with no change here.
//
// Per kind: pick a value and start (POST /api/enroll {game, kind, value}, with the admin PIN
// typed in the Pawn tags section); every tap on any reader enrolls the next piece of that
// value. A bar per value fills toward the box's count; a full value moves on to the next by
// itself ("tap all the 0s, then the 1s..."). The counts come from the hub, never from here.

import { call } from "./api.js";
import { gameT, t } from "./i18n.js";
import { esc } from "./labels.js";
import { testIds } from "./setup_shared.js";

/** The sections' box; each kind's section is drawn once the hub has listed its kinds. */
export function piecesHtml() {
  return `<div class="enroll-pieces" data-testid="enroll-pieces"></div>
        <div class="enroll-last" data-testid="enroll-pieces-last" aria-live="polite" hidden></div>`;
}

/** `game/kind`: a kind's key, and the tail of its test ids (`b-movies-token`). */
const keyOf = (k) => `${k.game}/${k.kind}`;
const idOf = (k) => `${k.game}-${k.kind}`;

/** The kinds this panel enrolls, from the hub's `pieces` list: not the pawns of the first
 *  game that has pawns (the Pawn tags section's), nor the kinds enrolled by picking (the
 *  Card tags section's). */
function ownKinds(pieces) {
  const pawns = (pieces || []).find((k) => k.kind === "pawn");
  return (pieces || []).filter((k) => k !== pawns && !k.pick);
}

function sectionHtml(kind) {
  const id = idOf(kind);
  const title = `${gameT(kind.game, kind.title)} (${gameT(kind.game, kind.game_title || kind.game)})`;
  return `<div class="enroll-tokens" data-testid="enroll-pieces-${esc(id)}" data-key="${esc(keyOf(kind))}">
        <h3>${esc(title)}</h3>
        <p class="muted">${esc(t("Tap every piece of one value, then the next: pick a value, start, and tap each piece of that value on any reader. A full value moves on to the next by itself."))}</p>
        <div class="colors" role="group" aria-label="${esc(gameT(kind.game, kind.title))}" data-role="values"></div>
        <div class="row">
          <button type="button" class="btn primary" data-testid="enroll-pieces-start-${esc(id)}"></button>
        </div>
        <div class="enroll-status" data-testid="enroll-pieces-status-${esc(id)}" aria-live="polite"></div>
      </div>`;
}

/** The sections; `admin` is the PIN box, `started(data, pin)` tells the panel. */
export function piecesPanel(root, ctx, shared, admin, started) {
  const tid = testIds(root);
  const box = root.querySelector('[data-testid="enroll-pieces"]');
  let kinds = []; // the hub's entries for this panel's kinds
  let enrolling = null; // {game, kind, value} being enrolled by value, or null
  const chosen = {}; // per kind key: the value picked (as text)
  let advancing = false;

  const counts = (kind) => Object.fromEntries(kind.values.map((v) => [String(v.value), v]));
  const full = (v) => v.count > 0 && v.enrolled >= v.count;

  function draw() {
    const keys = kinds.map(keyOf).join("|");
    if (box.dataset.keys !== keys) { // a kind came or went: the sections again
      box.innerHTML = kinds.map(sectionHtml).join("");
      box.dataset.keys = keys;
    }
    for (const kind of kinds) renderKind(kind);
  }

  function renderKind(kind) {
    const key = keyOf(kind);
    const id = idOf(kind);
    const section = box.querySelector(`[data-key="${CSS.escape(key)}"]`);
    const values = kind.values.map((v) => String(v.value));
    if (!values.includes(chosen[key])) chosen[key] = firstNotFull(kind) ?? values[0] ?? null;
    const on = enrolling && keyOf(enrolling) === key ? String(enrolling.value) : null;
    const valuesBox = section.querySelector('[data-role="values"]');
    valuesBox.innerHTML = kind.values.map((v) => {
      const value = String(v.value);
      const cls = `colorbtn tokenbtn${full(v) ? " full" : ""}${on === value ? " enrolling" : ""}`;
      return `<button type="button" class="${cls}" data-value="${esc(value)}" data-testid="enroll-piece-${esc(id)}-${esc(value)}"
          aria-pressed="${chosen[key] === value}"><span class="tokenface">${esc(gameT(kind.game, v.title))}</span>
          <span class="count" data-testid="enroll-piece-count-${esc(id)}-${esc(value)}">${esc(`${v.enrolled} / ${v.count}`)}</span>
          <span class="bar"><span></span></span></button>`;
    }).join("");
    for (const v of kind.values) { // the CSP allows no style attribute: the bars are set here
      const bar = valuesBox.querySelector(`[data-value="${CSS.escape(String(v.value))}"] .bar span`);
      bar.style.width = v.count ? `${Math.min(100, (100 * v.enrolled) / v.count)}%` : "0";
    }
    const start = tid(`enroll-pieces-start-${id}`);
    start.disabled = chosen[key] === null || on === chosen[key];
    start.textContent = t("Start enrolling: {title}", { title: titleOf(kind, chosen[key]) });
    const status = tid(`enroll-pieces-status-${id}`);
    status.classList.toggle("on", on !== null);
    status.innerHTML = `<span>${esc(statusText(kind, on))}</span>`;
  }

  function titleOf(kind, value) {
    const v = kind.values.find((x) => String(x.value) === value);
    return v ? gameT(kind.game, v.title) : String(value ?? "");
  }

  function statusText(kind, on) {
    if (on === null) {
      const n = kind.values.reduce((sum, v) => sum + v.enrolled, 0);
      const cap = kind.values.reduce((sum, v) => sum + v.count, 0);
      return t("Not enrolling these ({n} of {cap} have a tag).", { n, cap });
    }
    const v = counts(kind)[on];
    const words = { kind: gameT(kind.game, kind.title), title: gameT(kind.game, v.title), n: v.enrolled, cap: v.count };
    if (full(v)) return t("All {cap} of “{title}” have a tag. Pick another value, or Stop.", words);
    return t("Tap each {kind} “{title}” on any reader ({n} of {cap}). Game taps are paused until you stop.", words);
  }

  function firstNotFull(kind, after = null) {
    const values = kind.values.map((v) => String(v.value));
    const from = after === null ? 0 : values.indexOf(after) + 1;
    const v = kind.values.slice(from).find((x) => !full(x));
    return v ? String(v.value) : undefined;
  }

  /** The hub's status (/api/tags/counts or an answer to the admin PIN). */
  function update(data) {
    if (!data) return;
    if (Array.isArray(data.pieces)) kinds = ownKinds(data.pieces);
    if ("enrolling_piece" in data) {
      const mode = data.enrolling_piece;
      enrolling = mode && mode.how === "value" && kinds.some((k) => keyOf(k) === keyOf(mode)) ? mode : null;
    }
    draw();
  }

  /** An `enroll` push (its counts already in the status the panel drew): a piece of the kind
   *  being enrolled filled its value, which moves on to the next. */
  function pushed(data) {
    const piece = data && data.ok && data.piece;
    const kind = piece && kinds.find((k) => keyOf(k) === keyOf(piece));
    if (!kind) return;
    const value = kind.values.find((v) => String(v.value) === String(piece.value));
    if (enrolling && keyOf(enrolling) === keyOf(kind) && full(value)) {
      const next = firstNotFull(kind, String(value.value));
      if (next !== undefined) {
        chosen[keyOf(kind)] = next;
        start(kind, next);
      }
    }
  }

  async function start(kind, value = chosen[keyOf(kind)]) {
    if (value === null || value === undefined || advancing) return;
    admin.clear();
    const pin = admin.pin();
    if (!pin) return;
    const raw = kind.values.find((v) => String(v.value) === value).value; // a number stays one
    advancing = true;
    try {
      const data = await call("/api/enroll", { method: "POST", body: { admin_pin: pin, game: kind.game, kind: kind.kind, value: raw } });
      if (!shared.alive) return;
      update(data);
      started(data, pin);
    } catch (err) {
      if (shared.alive) admin.fail(err);
    } finally {
      advancing = false;
    }
    draw();
  }

  /** Enrollment stopped, or switched to pawns or cards. */
  function stopped() {
    enrolling = null;
    draw();
  }

  const { signal } = shared;
  box.addEventListener("click", (event) => {
    const section = event.target.closest("[data-key]");
    const kind = section && kinds.find((k) => keyOf(k) === section.dataset.key);
    if (!kind) return;
    const btn = event.target.closest("button[data-value]");
    if (btn) {
      chosen[keyOf(kind)] = btn.dataset.value;
      draw();
    } else if (event.target.closest('button[data-testid^="enroll-pieces-start-"]')) {
      start(kind);
    }
  }, { signal });
  return { render: draw, update, pushed, stopped, isEnrolling: () => enrolling !== null };
}

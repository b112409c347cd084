// The Popcorn tokens section of the enrollment panel (B Movies' tokens, each with an NFC
// sticker): "tap all the 0s, then the 1s...". Pick a value and start (POST /api/enroll
// {tokens: value}, with the admin PIN typed in the Pawn tags section); every tap on any
// reader enrolls the next token of that value. A bar per value fills toward the box's count
// of that value; when a value is full the panel moves on to the next one by itself. The
// counts and the box's capacity come from the hub (/api/tags/counts: `tokens` and
// `token_capacity`; an `enroll` push of a token: `tokens` and `capacity`), never from here.

import { call } from "./api.js";
import { t } from "./i18n.js";
import { esc } from "./labels.js";
import { testIds } from "./setup_shared.js";

/** The section's HTML; its value buttons are drawn once the hub has said what the box holds. */
export function tokensHtml() {
  const valueLabel = t("Token value");
  return `<div class="enroll-tokens" data-testid="enroll-tokens">
        <h3>${esc(t("Popcorn tokens (B Movies)"))}</h3>
        <p class="muted">${esc(t("Tap all the 0s, then the 1s, and so on: pick a value, start, and tap each token of that value on any reader. A full value moves on to the next by itself."))}</p>
        <div class="colors" role="group" aria-label="${esc(valueLabel)}" data-role="token-values"></div>
        <div class="row">
          <button type="button" class="btn primary" data-testid="enroll-tokens-start">${esc(t("Start enrolling tokens"))}</button>
        </div>
        <div class="enroll-status" data-testid="enroll-tokens-status" aria-live="polite"></div>
      </div>`;
}

/** Values in order ("0", "1", ...), from what the hub says the box holds. */
function valuesOf(capacity) {
  return Object.keys(capacity || {}).sort((a, b) => Number(a) - Number(b));
}

/** The section; `admin` is the PIN box, `started(data, pin)` tells the panel. */
export function tokensPanel(root, ctx, shared, admin, started) {
  const tid = testIds(root);
  let counts = {};
  let capacity = {};
  let enrolling = null; // the value being enrolled ("0".."4"), or null
  let chosen = null;
  let advancing = false;

  function render() {
    const values = valuesOf(capacity);
    if (chosen === null || !values.includes(chosen)) chosen = firstNotFull(values) ?? values[0] ?? null;
    const box = root.querySelector('[data-role="token-values"]');
    box.innerHTML = values.map((v) => {
      const n = counts[v] ?? 0;
      const cap = capacity[v] ?? 0;
      const cls = `colorbtn tokenbtn${cap > 0 && n >= cap ? " full" : ""}${enrolling === v ? " enrolling" : ""}`;
      return `<button type="button" class="${cls}" data-token-value="${esc(v)}" data-testid="enroll-token-${esc(v)}"
          aria-pressed="${chosen === v}"><span class="tokenface">${esc(v)}</span>
          <span class="count" data-testid="enroll-token-count-${esc(v)}">${esc(`${n} / ${cap}`)}</span>
          <span class="bar"><span></span></span></button>`;
    }).join("");
    for (const v of values) { // the CSP allows no style attribute: the bars are set here
      const n = counts[v] ?? 0;
      const cap = capacity[v] ?? 0;
      const bar = box.querySelector(`[data-token-value="${CSS.escape(v)}"] .bar span`);
      bar.style.width = cap ? `${Math.min(100, (100 * n) / cap)}%` : "0";
    }
    const start = tid("enroll-tokens-start");
    start.disabled = chosen === null || enrolling === chosen;
    start.textContent = chosen === null ? t("Start enrolling tokens")
      : t("Start enrolling the {value}s", { value: chosen });
    const status = tid("enroll-tokens-status");
    status.classList.toggle("on", enrolling !== null);
    status.innerHTML = `<span>${esc(statusText(values))}</span>`;
  }

  function statusText(values) {
    if (!values.length) return t("The hub has not said how many tokens the box holds.");
    if (enrolling === null) {
      const total = values.reduce((sum, v) => sum + (counts[v] ?? 0), 0);
      const all = values.reduce((sum, v) => sum + (capacity[v] ?? 0), 0);
      return t("Not enrolling tokens ({n} of {cap} enrolled).", { n: total, cap: all });
    }
    const n = counts[enrolling] ?? 0;
    const cap = capacity[enrolling] ?? 0;
    if (cap && n >= cap) { // full, and no later value to move on to
      return t("All {cap} popcorn tokens of value {value} have a tag. Pick another value, or Stop.", { value: enrolling, cap });
    }
    return t("Tap every token of value {value} on any reader ({n} of {cap}). Game taps are paused until you stop.",
      { value: enrolling, n, cap });
  }

  function firstNotFull(values) {
    return values.find((v) => (counts[v] ?? 0) < (capacity[v] ?? 0));
  }

  /** The hub's status (/api/tags/counts or an answer to the admin PIN). */
  function update(data) {
    if (!data) return;
    if (data.tokens && typeof data.tokens === "object") counts = { ...data.tokens };
    if (data.token_capacity) capacity = { ...data.token_capacity };
    if ("enrolling_tokens" in data) {
      enrolling = data.enrolling_tokens === null || data.enrolling_tokens === undefined ? null : String(data.enrolling_tokens);
    }
    if (data.enrolling || data.enrolling_cards) enrolling = null; // pawns or cards instead
    render();
  }

  /** An `enroll` push: a token enrolled (or refused); a full value moves on to the next. */
  function pushed(data) {
    if (!data || data.token === undefined) return;
    if (data.tokens) counts = { ...data.tokens };
    if (data.capacity) capacity = { ...data.capacity };
    render();
    const value = enrolling;
    if (value !== null && (counts[value] ?? 0) >= (capacity[value] ?? 0)) {
      const next = firstNotFull(valuesOf(capacity).filter((v) => Number(v) > Number(value)));
      if (next !== undefined) {
        chosen = next;
        start(next);
      }
    }
  }

  async function start(value = chosen) {
    if (value === null || advancing) return;
    admin.clear();
    const pin = admin.pin();
    if (!pin) return;
    advancing = true;
    try {
      const data = await call("/api/enroll", { method: "POST", body: { admin_pin: pin, tokens: Number(value) } });
      if (!shared.alive) return;
      enrolling = data.enrolling_tokens === undefined || data.enrolling_tokens === null
        ? String(value) : String(data.enrolling_tokens);
      started(data, pin);
    } catch (err) {
      if (shared.alive) admin.fail(err);
    } finally {
      advancing = false;
    }
    render();
  }

  /** Enrollment stopped, or switched to pawns or cards. */
  function stopped() {
    enrolling = null;
    render();
  }

  const { signal } = shared;
  root.querySelector('[data-role="token-values"]').addEventListener("click", (event) => {
    const btn = event.target.closest("button[data-token-value]");
    if (btn) { chosen = btn.dataset.tokenValue; render(); }
  }, { signal });
  tid("enroll-tokens-start").addEventListener("click", () => start(), { signal });
  return { render, update, pushed, stopped, isEnrolling: () => enrolling !== null, enrolling: () => enrolling };
}

// The pawn-tag enrollment panel. Pick a color and Start (with the hub's admin PIN): until
// Stop, every tap on any reader enrolls the next pawn of that color instead of counting as a
// game tap. A bar per color fills toward the box's count of that color, and the last tap
// shows below (the pawn enrolled, or why the hub refused it). The counts come from
// /api/tags/counts (setup.js loads them) and from the hub's `enroll` pushes (`tap`). Those
// pushes name each tag's UID, so the hub sends them only to a socket that joined with the
// admin PIN: once the hub accepts the PIN typed here, the panel emits `join_admin` with it,
// and again after every reconnection (`rejoin`).
// Exporting and importing the whole tag registry is in setup_tagfile.js; the card tags'
// section (movies, theater tiles, awards) is in setup_enroll_cards.js; every other kind of
// piece a hosted game declares (B Movies' popcorn tokens, a third game's) in
// setup_enroll_pieces.js. A section whose pieces no hosted game has stays hidden.

import { colorWord, gameT, t } from "./i18n.js";
import { call } from "./api.js";
import { COLORS, esc, letter, pawnHtml } from "./labels.js";
import { errorCode, errorHtml, kindWord, registryText, testIds } from "./setup_shared.js";
import { cardsHtml, cardsPanel } from "./setup_enroll_cards.js";
import { tagFile, tagfileHtml } from "./setup_tagfile.js";
import { piecesHtml, piecesPanel } from "./setup_enroll_pieces.js";

/** The line of each section that tells what the last tap enrolled (by its test id). */
const LAST_LINES = { pawns: "enroll-last", cards: "enroll-cards-last", pieces: "enroll-pieces-last" };

function colorButtonHtml(c) {
  return `
          <button type="button" class="colorbtn" data-color="${c}" data-testid="enroll-color-${c}"
            aria-pressed="false">
            ${pawnHtml(null, c, "big")}
            <span class="cname">${esc(colorWord(c))}</span>
            <span class="count" data-testid="enroll-count-${c}">–</span>
            <span class="bar"><span></span></span>
          </button>`;
}

export function enrollHtml() {
  const colorLabel = t("Color to enroll");
  return `<section class="card enroll" data-testid="enroll-panel">
        <h2>${esc(t("Pawn tags"))}</h2>
        <p class="muted lead">${esc(t("Enroll a color, then tap each pawn of that color on any reader. Needs the hub's admin PIN (printed when the hub starts)."))}</p>
        <label class="field">${esc(t("Admin PIN"))}
          <input type="password" inputmode="numeric" autocomplete="off" data-testid="enroll-admin-pin">
        </label>
        <div class="colors" role="group" aria-label="${esc(colorLabel)}" data-role="pawn-colors">
          ${COLORS.map((c) => colorButtonHtml(c)).join("")}
        </div>
        <div class="row">
          <button type="button" class="btn primary" data-testid="enroll-start">${esc(t("Start enrolling"))}</button>
          <button type="button" class="btn" data-testid="enroll-stop">${esc(t("Stop"))}</button>
        </div>
        <div class="enroll-status" data-testid="enroll-status" aria-live="polite"></div>
        <div class="enroll-last" data-testid="enroll-last" aria-live="polite" hidden></div>
        <div class="form-error" data-testid="enroll-error" role="alert" hidden></div>
        ${cardsHtml()}
        ${piecesHtml()}
        ${tagfileHtml()}
      </section>`;
}

/** The admin PIN box and the panel's error line (the tag file buttons use them too). */
function adminField(tid) {
  const errorBox = tid("enroll-error");
  const field = {
    fail(err) {
      errorBox.innerHTML = errorHtml(err);
      errorBox.dataset.code = errorCode(err);
      errorBox.hidden = false;
    },
    clear() {
      errorBox.hidden = true;
    },
    /** The typed PIN; null, with a hint, when the box is empty. */
    pin() {
      const pin = tid("enroll-admin-pin").value.trim();
      if (!pin) {
        field.fail(new Error(t("Type the hub's admin PIN first (the hub prints it when it starts).")));
        tid("enroll-admin-pin").focus();
        return null;
      }
      return pin;
    },
  };
  return field;
}

export function enrollPanel(root, ctx, shared) {
  const tid = testIds(root);
  const admin = adminField(tid);
  let tagInfo = { counts: {}, capacity: {}, enrolling: null }; // as /api/tags/counts gives it
  let chosenColor = "white";
  let lastTap = null; // the last `enroll` push
  let adminPin = null; // the admin PIN the hub last accepted from this panel
  let revision = null; // the newest enrollment stamp seen, [boot, n]
  let advancing = false; // a full color is moving on to the next

  function render() {
    cards.update(tagInfo);  // counts and mode; the pending UIDs come only with the admin PIN
    pieces.update(tagInfo);
    const pawns = Object.keys(tagInfo.capacity || {}).length > 0 || !tagInfo.pieces;
    root.querySelector('[data-role="pawn-colors"]').hidden = !pawns;
    tid("enroll-start").hidden = !pawns;
    tid("enroll-cards").hidden = Object.keys(tagInfo.card_capacity || {}).length === 0 && Boolean(tagInfo.pieces);
    for (const c of COLORS) renderColor(c);
    renderStatus();
    renderButtons();
    renderLast();
  }

  /** A color's button: its count, its bar, full, being enrolled, chosen. */
  function renderColor(c) {
    const { counts, capacity, enrolling } = tagInfo;
    const btn = tid(`enroll-color-${c}`);
    const n = counts[c] ?? 0;
    const cap = capacity[c] ?? 0;
    tid(`enroll-count-${c}`).textContent = cap ? `${n} / ${cap}` : String(n);
    btn.querySelector(".bar span").style.width = cap ? `${Math.min(100, (100 * n) / cap)}%` : "0";
    btn.classList.toggle("full", cap > 0 && n >= cap);
    btn.classList.toggle("enrolling", enrolling === c);
    btn.setAttribute("aria-pressed", String(chosenColor === c));
  }

  function renderStatus() {
    const { counts, capacity, enrolling } = tagInfo;
    const status = tid("enroll-status");
    status.classList.toggle("on", Boolean(enrolling));
    if (enrolling) {
      const n = counts[enrolling] ?? 0;
      const cap = capacity[enrolling] ?? 0;
      const text = n < cap
        ? t("Enrolling {color} pawns ({n} of {cap}): tap each {color} pawn's tag on any reader. Game taps are paused until you stop.", { color: colorWord(enrolling), n, cap })
        : nextColor(enrolling) ? t("All {cap} {color} pawns have a tag: moving on to the next color…", { color: colorWord(enrolling), cap })
          : t("Every pawn of the box has a tag. Stop, or enroll cards or tokens below.");
      status.innerHTML = `${pawnHtml(null, enrolling)} <span>${esc(text)}</span>`;
    } else if (pieces.isEnrolling()) {
      status.innerHTML = `<span>${esc(t("Enrolling pieces (below): game taps are paused until you stop."))}</span>`;
    } else if (tagInfo.enrolling_cards) {
      status.innerHTML = `<span>${esc(t("Enrolling card tags (below): game taps are paused until you stop."))}</span>`;
    } else {
      status.innerHTML = `<span>${esc(t("Not enrolling: taps are game taps."))}</span>`;
    }
  }

  function renderButtons() {
    const { enrolling, counts, capacity } = tagInfo;
    tid("enroll-stop").disabled = !enrolling && !tagInfo.enrolling_cards && !pieces.isEnrolling();
    // a color whose every pawn has a tag is complete: its button says so, and starts nothing
    const cap = capacity[chosenColor] ?? 0;
    const full = cap > 0 && (counts[chosenColor] ?? 0) >= cap;
    tid("enroll-start").textContent = full ? t("All {cap} {color} pawns have a tag", { color: colorWord(chosenColor), cap })
      : enrolling && enrolling !== chosenColor ? t("Switch to {color}", { color: colorWord(chosenColor) })
        : enrolling ? t("Enrolling…") : t("Start enrolling {color}", { color: colorWord(chosenColor) });
    tid("enroll-start").disabled = full || enrolling === chosenColor;
  }

  /** The last tap, under the section of what it enrolled (a pawn under Pawn tags, a card
   * under Card tags, a token under its own kind's section); a refused tap under the section
   * that is enrolling. The other sections' lines are hidden. */
  function renderLast() {
    const where = lastTap ? lastSection(lastTap) : null;
    for (const [section, id] of Object.entries(LAST_LINES)) {
      const line = tid(id);
      line.hidden = section !== where;
      if (section !== where) continue;
      line.className = `enroll-last ${lastTap.ok ? "ok" : "bad"}`;
      line.dataset.code = lastTap.ok ? "" : lastTap.code;
      line.innerHTML = lastHtml(lastTap);
    }
  }

  function lastSection(tap) {
    if (tap.ok) return tap.pending || tap.card ? "cards" : tap.color ? "pawns" : tap.piece ? "pieces" : "pawns";
    if (tagInfo.enrolling_cards) return "cards";
    return pieces.isEnrolling() ? "pieces" : "pawns";
  }

  /** What the last tap did, in words: the card, pawn or piece it enrolled, or why not. */
  function lastHtml(tap) {
    if (tap.ok && tap.pending) return `<span>${esc(t("Tag {uid} tapped: pick its card below.", { uid: tap.pending }))}</span>`;
    if (tap.ok && tap.card) {
      return `<span>${esc(t("{title} ({kind}) enrolled (tag {uid}).", { title: tap.title, kind: kindWord(tap.kind), uid: tap.uid }))}</span>`;
    }
    if (tap.ok && tap.color) {
      // a pawn is named by its color and letter, as it looks: no pawn carries its number
      const pawn = t("Enrolled a {color} {letter} pawn: {n} of {cap} (tag {uid}).", {
        color: colorWord(tap.color), letter: letter(tap.color), n: tagInfo.counts[tap.color] ?? 0,
        cap: tagInfo.capacity[tap.color] ?? 0, uid: tap.uid });
      return `${pawnHtml(null, tap.color)} <span>${esc(pawn)}</span>`;
    }
    if (tap.ok && tap.piece) {
      return `<span>${esc(t("Enrolled {title} ({kind}): {n} of {cap} (tag {uid}).", {
        title: gameT(tap.piece.game, tap.piece.title), kind: gameT(tap.piece.game, kindTitle(tap.piece)),
        n: tap.enrolled, cap: tap.cap, uid: tap.uid }))}</span>`;
    }
    return `<span>${esc(registryText(tap.code, tap.params, tap.message))}</span>`;
  }

  /** A piece's kind as the hub's list titles it ("popcorn token"). */
  function kindTitle(piece) {
    const kind = (tagInfo.pieces || []).find((k) => k.game === piece.game && k.kind === piece.kind);
    return kind ? kind.title : piece.kind;
  }

  /** The color to enroll once `color` is full: the next one (in the panel's order, from
   * `color` on, round to the first) that still has pawns without a tag; null when every
   * pawn has one. */
  function nextColor(color) {
    const { counts, capacity } = tagInfo;
    const start = COLORS.indexOf(color);
    const order = [...COLORS.slice(start + 1), ...COLORS.slice(0, start)];
    return order.find((c) => (counts[c] ?? 0) < (capacity[c] ?? 0)) ?? null;
  }

  /** A full color moves on to the next one by itself (as the tokens' values do), so the
   * pile of pawns is tapped through without a look at the tablet. */
  async function moveOn() {
    const { counts, capacity, enrolling } = tagInfo;
    if (!enrolling || advancing || (counts[enrolling] ?? 0) < (capacity[enrolling] ?? 0)) return;
    const next = nextColor(enrolling);
    if (!next) return;
    advancing = true;
    try {
      chosenColor = next;
      await enrollCall("POST", { color: next }); // the last tap stays on screen
    } finally {
      advancing = false;
    }
  }

  /** The /api/tags/counts answer. */
  /** Whether `data` (a status or a push, stamped `revision: [boot, n]` by the hub) is not
   *  older than what the panel shows: a poll answered after a tap's push must not undo it. */
  function current(data) {
    const stamp = data && data.revision;
    if (!Array.isArray(stamp)) return true;
    if (revision && stamp[0] === revision[0] && stamp[1] < revision[1]) return false;
    revision = stamp;
    return true;
  }

  function showCounts(data) {
    if (!current(data)) return;
    const { pending, ...counts } = data || {};
    tagInfo = counts;
    if (pending) cards.pendingIs(pending); // the `admin` answer to the PIN carries them
    render();
  }

  /** An `enroll` push: a tap while enrolling, enrolled or refused. */
  function tap(data) {
    if (!data) return;
    lastTap = data;
    if (!current(data)) {  // an older tap (the one join_admin recalls): shown, counts kept
      render();
      return;
    }
    if (data.ok && data.counts) tagInfo = { ...tagInfo, counts: data.counts };
    if (data.ok && data.cards) tagInfo = { ...tagInfo, cards: data.cards };
    // a piece's push carries its value's count: keep it, or the next render would show
    // the last status's counts until the next poll
    if (data.ok && data.piece) tagInfo = { ...tagInfo, pieces: counted(tagInfo.pieces, data) };
    cards.pushed(data);
    render();
    pieces.pushed(data);
    if (data.ok && data.color) moveOn();
  }

  /** The hub's `pieces` list with one value's count as a push gives it. */
  function counted(list, data) {
    const { game, kind, value } = data.piece;
    return (list || []).map((k) => (k.game !== game || k.kind !== kind ? k : {
      ...k, values: k.values.map((v) => (String(v.value) === String(value) ? { ...v, enrolled: data.enrolled } : v)) }));
  }

  /** Join the hub's admin room, which gets the `enroll` pushes, once a PIN was accepted. */
  function rejoin() {
    if (adminPin) ctx.socket.emit("join_admin", { admin_pin: adminPin });
  }

  /** POST (start) or DELETE (stop) /api/enroll with the admin PIN; true once the hub agreed. */
  async function enrollCall(method, fields) {
    admin.clear();
    const pin = admin.pin();
    if (!pin) return false;
    try {
      const data = await call("/api/enroll", { method, body: { admin_pin: pin, ...fields } });
      if (!shared.alive) return false;
      accepted(data, pin);
      return true;
    } catch (err) {
      if (shared.alive) admin.fail(err);
      return false;
    }
  }

  /** An answer of the hub to this panel (or its Cards section): new counts and mode. */
  function accepted(data, pin) {
    if (current(data)) {
      const { pending, ...counts } = data;
      tagInfo = { ...tagInfo, ...counts };
      if (pending) cards.pendingIs(pending);
    } else {  // a tap's push already brought newer counts; the mode is still this answer's
      const { enrolling, enrolling_cards, enrolling_tokens, enrolling_piece } = data;
      tagInfo = { ...tagInfo, enrolling, enrolling_cards, enrolling_tokens, enrolling_piece };
    }
    if (pin !== adminPin) {
      adminPin = pin;
      rejoin();
    }
    render();
  }

  async function start() {
    if (!(await enrollCall("POST", { color: chosenColor }))) return;
    pieces.stopped();
    lastTap = null;
    render();
  }

  async function stop() {
    if (!(await enrollCall("DELETE", {}))) return;
    pieces.stopped();
    render();
    ctx.toast(t("Enrollment stopped: taps are game taps again."), "info");
  }

  function chooseColor(event) {
    const btn = event.target.closest("button[data-color]");
    if (!btn) return;
    chosenColor = btn.dataset.color;
    render();
  }

  const cards = cardsPanel(root, ctx, shared, admin, accepted);
  const pieces = piecesPanel(root, ctx, shared, admin, accepted);
  const { signal } = shared;
  root.querySelector(".colors").addEventListener("click", chooseColor, { signal });
  tid("enroll-start").addEventListener("click", start, { signal });
  tid("enroll-stop").addEventListener("click", stop, { signal });
  tid("enroll-admin-pin").addEventListener("input", () => admin.clear(), { signal });
  const enrolled = () => (tagInfo.pieces || []).reduce(
    (n, k) => n + k.values.reduce((m, v) => m + v.enrolled, 0), 0);
  tagFile(root, ctx, shared, admin, enrolled);
  return { render, showCounts, tap, rejoin };
}

// The player rows of the new-table form, one per player in seat order (2 to 4 for Popcorn;
// another game sets its own counts with `setLimits`): a name, a bag
// reader (from the hub's list, or typed; see setup_readers.js), the first-player radio, and
// buttons to move a row up or down or remove it. `playerRows` keeps `state` = {rows, first}
// and redraws the rows from it after a move; a change to the hub's readers or tables only
// refreshes the reader lists, so typing and focus survive. `onEdit` runs after each edit.

import { t } from "./i18n.js";
import { esc } from "./labels.js";
import { OTHER, autoAssign, readerOptions, readerState } from "./setup_readers.js";
import { testIds } from "./setup_shared.js";

/** Popcorn's player counts; another game sets its own with `setLimits`. */
const LIMITS = { min: 2, max: 4 };

function newRow() {
  return { name: "", reader: "", otherId: "", other: false, touched: false };
}

function readerBoxHtml(row, k, hub) {
  const label = t("Player {n} bag reader", { n: k + 1 });
  const hint = t("reader id, e.g. bag-7");
  const idLabel = t("Player {n} reader id", { n: k + 1 });
  return `<span class="readerbox">
          <select data-testid="player-reader-${k}" data-k="${k}" aria-label="${esc(label)}">
            ${readerOptions(row, hub)}</select>
          <input class="otherid" data-testid="player-reader-id-${k}" data-k="${k}" maxlength="40"
            placeholder="${esc(hint)}" value="${esc(row.otherId)}" ${row.other ? "" : "hidden"}
            aria-label="${esc(idLabel)}">
          <span data-role="rstate-${k}">${readerState(row, hub)}</span>
        </span>`;
}

function rowButtonsHtml(k, count, min) {
  const up = esc(t("Move up"));
  const down = esc(t("Move down"));
  const remove = esc(t("Remove player"));
  return `<span class="rowbtns">
          <button type="button" class="btn small" data-testid="move-up-${k}" data-k="${k}" data-act="up"
            ${k === 0 ? "disabled" : ""} aria-label="${up}" title="${up}">↑</button>
          <button type="button" class="btn small" data-testid="move-down-${k}" data-k="${k}" data-act="down"
            ${k === count - 1 ? "disabled" : ""} aria-label="${down}" title="${down}">↓</button>
          <button type="button" class="btn small" data-testid="remove-player-${k}" data-k="${k}" data-act="remove"
            ${count <= min ? "disabled" : ""} aria-label="${remove}" title="${remove}">✕</button>
        </span>`;
}

function rowHtml(row, k, state, hub, min) {
  const player = esc(t("Player {n}", { n: k + 1 }));
  const firstPlayer = esc(t("First player"));
  const seatTip = esc(t("Seat {n}", { n: k + 1 }));
  const nameLabel = esc(t("Player {n} name", { n: k + 1 }));
  return `
      <div class="prow${state.first === k ? " is-first" : ""}" data-k="${k}">
        <span class="seatno" title="${seatTip}">${k + 1}</span>
        <input class="pname" data-testid="player-name-${k}" data-k="${k}" maxlength="24"
          placeholder="${player}" value="${esc(row.name)}" aria-label="${nameLabel}">
        ${readerBoxHtml(row, k, hub)}
        <label class="firstp" title="${firstPlayer}">
          <input type="radio" name="first-player" data-testid="first-player-${k}" data-k="${k}"
            ${state.first === k ? "checked" : ""}> <span>${esc(t("First"))}</span></label>
        ${rowButtonsHtml(k, state.rows.length, min)}
      </div>`;
}

/** The rows inside the form's [data-role="rows"] box; `shared` gives the hub's lists. */
export function playerRows(root, shared, onEdit) {
  const tid = testIds(root);
  const box = root.querySelector('[data-role="rows"]');
  const limits = { ...LIMITS };
  const state = { rows: [newRow(), newRow()], first: 0 };
  const { rows } = state;
  const showState = (k) => {
    root.querySelector(`[data-role="rstate-${k}"]`).innerHTML = readerState(rows[k], shared);
  };

  /** Draw every row; then focus the element with data-testid `focus`, if given. */
  function render(focus) {
    box.innerHTML = rows.map((row, k) => rowHtml(row, k, state, shared, limits.min)).join("");
    tid("add-player").disabled = rows.length >= limits.max;
    if (focus) {
      const el = tid(focus);
      if (el && !el.disabled) el.focus();
    }
  }

  /** Refresh only the reader lists and states (new readers or tables), keeping focus and typing. */
  function refreshReaders() {
    autoAssign(rows, shared);
    rows.forEach((row, k) => {
      const sel = tid(`player-reader-${k}`);
      if (sel && document.activeElement !== sel) sel.innerHTML = readerOptions(row, shared);
      const st = root.querySelector(`[data-role="rstate-${k}"]`);
      if (st) st.innerHTML = readerState(row, shared);
    });
  }

  /** Back to the fewest empty rows the game allows, the first one first. */
  function reset(focus) {
    rows.splice(0, rows.length, ...Array.from({ length: limits.min }, newRow));
    state.first = 0;
    autoAssign(rows, shared);
    render(focus);
  }

  function onInput(event) {
    const el = event.target;
    const k = Number(el.dataset.k);
    if (!rows[k]) return;
    if (el.classList.contains("pname")) rows[k].name = el.value;
    else if (el.classList.contains("otherid")) {
      rows[k].otherId = el.value;
      showState(k);
    }
    onEdit();
  }

  function onChange(event) {
    const el = event.target;
    const k = Number(el.dataset.k);
    if (!rows[k]) return;
    if (el.tagName === "SELECT") chooseReader(k, el.value);
    else if (el.type === "radio") chooseFirst(k);
    onEdit();
  }

  /** A reader picked from row k's list, or "Type a reader id…" (which shows the id box). */
  function chooseReader(k, value) {
    const input = tid(`player-reader-id-${k}`);
    rows[k].touched = true;
    rows[k].other = value === OTHER;
    if (rows[k].other) {
      input.hidden = false;
      input.focus();
    } else {
      rows[k].reader = value;
      input.hidden = true;
    }
    showState(k);
  }

  function chooseFirst(k) {
    state.first = k;
    box.querySelectorAll(".prow").forEach((r, i) => r.classList.toggle("is-first", i === k));
  }

  function onClick(event) {
    const btn = event.target.closest("button[data-act]");
    if (!btn) return;
    const k = Number(btn.dataset.k);
    const act = btn.dataset.act;
    if (act === "up" && k > 0) swap(k, k - 1, `move-up-${k - 1}`);
    else if (act === "down" && k < rows.length - 1) swap(k, k + 1, `move-down-${k + 1}`);
    else if (act === "remove" && rows.length > limits.min) remove(k);
    onEdit();
  }

  /** Swap rows a and b (the first player moves with its row). */
  function swap(a, b, focus) {
    [rows[a], rows[b]] = [rows[b], rows[a]];
    if (state.first === a) state.first = b;
    else if (state.first === b) state.first = a;
    render(focus);
  }

  function remove(k) {
    rows.splice(k, 1);
    if (state.first === k) state.first = 0;
    else if (state.first > k) state.first -= 1;
    autoAssign(rows, shared);
    render(`player-name-${Math.min(k, rows.length - 1)}`);
  }

  function add() {
    if (rows.length >= limits.max) return;
    rows.push(newRow());
    autoAssign(rows, shared);
    render(`player-name-${rows.length - 1}`);
    onEdit();
  }

  const { signal } = shared;
  box.addEventListener("input", onInput, { signal });
  box.addEventListener("change", onChange, { signal });
  box.addEventListener("click", onClick, { signal });
  tid("add-player").addEventListener("click", add, { signal });
  /** Another game's player counts: rows are added (empty) up to `min`, and the empty rows
   * beyond `max` are dropped (a named row stays, and the form's check names the excess). */
  function setLimits(min, max) {
    Object.assign(limits, { min, max });
    while (rows.length < min) rows.push(newRow());
    for (let k = rows.length - 1; k >= 0 && rows.length > max; k--) {
      if (!rows[k].name.trim()) rows.splice(k, 1);
    }
    if (state.first >= rows.length) state.first = 0;
    autoAssign(rows, shared);
    render();
  }

  return { state, render, refreshReaders, reset, setLimits, limits };
}

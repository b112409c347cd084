// The setup screen (/ and /setup): the tables this hub holds, a form for a new table (players
// in seat order, a bag reader each, the first player, "deal for us"), the one-time PIN and
// phone links of a table just created, and the tag enrollment panel (admin PIN).

import { ApiError, call, savePin, tableCall } from "./api.js";
import { COLORS, esc, pawnHtml } from "./labels.js";

const POLL_MS = 5000;
const OTHER = "__other__";

/** A random seed for "deal for us". */
function randomSeed() {
  return Math.floor(Math.random() * 1_000_000);
}

/** "CODE: message" for an error from `call`, or the plain message of any other error. */
function errorHtml(err) {
  if (err instanceof ApiError) return `<b>${esc(err.code)}</b> ${esc(err.message)}`;
  return esc(err && err.message ? err.message : String(err));
}

/** A request with the hub's admin PIN in its header (api.js sends only table PINs). */
async function adminCall(path, { method = "GET", body, adminPin }) {
  const response = await fetch(path, {
    method,
    headers: { "Content-Type": "application/json", "X-Admin-Pin": adminPin || "" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const type = response.headers.get("Content-Type") || "";
  const data = type.includes("application/json") ? await response.json() : await response.text();
  if (!response.ok) throw new ApiError(response.status, data.code || "HTTP", data.message || String(data));
  return data;
}

export function mountSetup(root, ctx) {
  let alive = true;
  let readers = [];            // the /api/readers list
  let tables = [];             // the /api/tables list
  let tablesKey = "";          // last rendered tables list (skip identical re-renders)
  let confirming = null;       // the table id whose "Close table" waits for a confirmation
  let tagInfo = { counts: {}, capacity: {}, enrolling: null };
  let chosenColor = "white";
  let lastTap = null;          // the last enroll event
  let pendingImport = null;    // {name, registry} waiting for "Replace"
  const rows = [newRow(), newRow()];
  let first = 0;

  function newRow() {
    return { name: "", reader: "", otherId: "", other: false, touched: false };
  }

  root.innerHTML = `
  <div class="setup">
    <section class="card setup-new">
      <div data-testid="new-table-panel">
        <h2>New table</h2>
        <form data-testid="new-table-form" novalidate autocomplete="off">
          <p class="muted lead">One row per player, in seat order around the table. Each player's
            guest bag has its own reader.</p>
          <div class="prows" data-role="rows"></div>
          <div class="row">
            <button type="button" class="btn" data-testid="add-player">+ Add a player</button>
          </div>
          <label class="field">Table name <span class="muted">(optional)</span>
            <input data-testid="table-name" maxlength="40" placeholder="e.g. Kitchen (default: Table N)">
          </label>
          <fieldset class="deal">
            <legend>Cards</legend>
            <label class="check">
              <input type="checkbox" data-testid="deal-for-us" checked>
              <span><b>Deal for us</b>: the hub shuffles and deals the movies, theater tiles and award
                draws. Pawn draws always come from the real bags.</span>
            </label>
            <div class="row seedrow" data-role="seedrow">
              <label class="field inline">Seed
                <input type="number" step="1" data-testid="deal-seed" value="${randomSeed()}">
              </label>
              <button type="button" class="btn small" data-testid="new-seed">New seed</button>
            </div>
            <p class="muted manual-note" data-role="manual-note" hidden>Manual setup: deal the real
              cards, then the table screen asks for each player's starting movie, the lineups and
              the theater columns.</p>
          </fieldset>
          <div class="form-error" data-testid="form-error" role="alert" hidden></div>
          <button type="submit" class="btn primary big" data-testid="create-table">Create table</button>
        </form>
      </div>
      <div class="created" data-testid="created" hidden></div>
    </section>
    <div class="setup-side">
      <section class="card">
        <div class="row spread"><h2>Tables</h2>
          <button type="button" class="btn small" data-testid="refresh-tables">Refresh</button></div>
        <div data-testid="tables-list" class="tables-list"><p class="muted">Loading…</p></div>
      </section>
      <section class="card enroll" data-testid="enroll-panel">
        <h2>Pawn tags</h2>
        <p class="muted lead">Enroll a color, then tap each pawn of that color on any reader. Needs
          the hub's admin PIN (printed when the hub starts).</p>
        <label class="field">Admin PIN
          <input type="password" inputmode="numeric" autocomplete="off" data-testid="enroll-admin-pin">
        </label>
        <div class="colors" role="group" aria-label="Color to enroll">
          ${COLORS.map((c) => `
          <button type="button" class="colorbtn" data-color="${c}" data-testid="enroll-color-${c}"
            aria-pressed="false">
            ${pawnHtml(null, c, "big")}
            <span class="cname">${c}</span>
            <span class="count" data-testid="enroll-count-${c}">–</span>
            <span class="bar"><span></span></span>
          </button>`).join("")}
        </div>
        <div class="row">
          <button type="button" class="btn primary" data-testid="enroll-start">Start enrolling</button>
          <button type="button" class="btn" data-testid="enroll-stop">Stop</button>
        </div>
        <div class="enroll-status" data-testid="enroll-status" aria-live="polite"></div>
        <div class="enroll-last" data-testid="enroll-last" aria-live="polite" hidden></div>
        <div class="form-error" data-testid="enroll-error" role="alert" hidden></div>
        <div class="row tagfile">
          <button type="button" class="btn small" data-testid="enroll-export">Export tags</button>
          <label class="btn small filebtn">Import tags…
            <input type="file" accept=".json,application/json" data-testid="enroll-import">
          </label>
        </div>
        <div class="import-confirm" data-testid="import-confirm" hidden></div>
      </section>
    </div>
  </div>`;

  const $ = (sel) => root.querySelector(sel);
  const tid = (id) => root.querySelector(`[data-testid="${id}"]`);
  const form = tid("new-table-form");
  const rowsBox = $('[data-role="rows"]');
  const formError = tid("form-error");

  // ---- player rows -------------------------------------------------------------------------

  function readerFree(r) {
    if (r.table === null || r.table === undefined) return true;
    const t = tables.find((x) => x.id === r.table);
    return Boolean(t && (t.over || t.closed));
  }

  function readerNote(r) {
    const bits = [r.online ? "online" : "offline"];
    if (!readerFree(r)) {
      const t = tables.find((x) => x.id === r.table);
      bits.push(`in use: ${t ? t.name : r.table}`);
    }
    return bits.join(", ");
  }

  /** Give every untouched row without a reader the best free one no other row uses. */
  function autoAssign() {
    const used = new Set(rows.map((r) => (r.other ? r.otherId.trim() : r.reader)).filter(Boolean));
    const free = readers.filter((r) => readerFree(r) && !used.has(r.reader))
      .sort((a, b) => (b.online - a.online) || a.reader.localeCompare(b.reader, undefined, { numeric: true }));
    for (const row of rows) {
      if (row.touched || row.other || row.reader) continue;
      const pick = free.shift();
      if (!pick) break;
      row.reader = pick.reader;
    }
  }

  function readerOptions(row) {
    const known = readers.map((r) => r.reader);
    let html = `<option value="">— choose a reader —</option>`;
    for (const r of readers) {
      const sel = !row.other && row.reader === r.reader ? " selected" : "";
      html += `<option value="${esc(r.reader)}"${sel}>${r.online ? "● " : "○ "}${esc(r.reader)} (${esc(readerNote(r))})</option>`;
    }
    if (!row.other && row.reader && !known.includes(row.reader)) {
      html += `<option value="${esc(row.reader)}" selected>${esc(row.reader)} (new)</option>`;
    }
    html += `<option value="${OTHER}"${row.other ? " selected" : ""}>Type a reader id…</option>`;
    return html;
  }

  function readerState(row) {
    const id = row.other ? row.otherId.trim() : row.reader;
    if (!id) return `<span class="rstate none">no reader</span>`;
    const r = readers.find((x) => x.reader === id);
    if (!r) return `<span class="rstate new" title="The hub has not heard from this reader yet; creating the table makes it trust it.">new</span>`;
    if (!readerFree(r)) return `<span class="rstate busy">in use</span>`;
    return r.online ? `<span class="rstate on">online</span>` : `<span class="rstate off">offline</span>`;
  }

  function renderRows(focus) {
    rowsBox.innerHTML = rows.map((row, k) => `
      <div class="prow${first === k ? " is-first" : ""}" data-k="${k}">
        <span class="seatno" title="Seat ${k}">${k + 1}</span>
        <input class="pname" data-testid="player-name-${k}" data-k="${k}" maxlength="24"
          placeholder="Player ${k + 1}" value="${esc(row.name)}" aria-label="Player ${k + 1} name">
        <span class="readerbox">
          <select data-testid="player-reader-${k}" data-k="${k}" aria-label="Player ${k + 1} bag reader">
            ${readerOptions(row)}</select>
          <input class="otherid" data-testid="player-reader-id-${k}" data-k="${k}" maxlength="40"
            placeholder="reader id, e.g. bag-7" value="${esc(row.otherId)}" ${row.other ? "" : "hidden"}
            aria-label="Player ${k + 1} reader id">
          <span data-role="rstate-${k}">${readerState(row)}</span>
        </span>
        <label class="firstp" title="First player">
          <input type="radio" name="first-player" data-testid="first-player-${k}" data-k="${k}"
            ${first === k ? "checked" : ""}> <span>First</span></label>
        <span class="rowbtns">
          <button type="button" class="btn small" data-testid="move-up-${k}" data-k="${k}" data-act="up"
            ${k === 0 ? "disabled" : ""} aria-label="Move up" title="Move up">↑</button>
          <button type="button" class="btn small" data-testid="move-down-${k}" data-k="${k}" data-act="down"
            ${k === rows.length - 1 ? "disabled" : ""} aria-label="Move down" title="Move down">↓</button>
          <button type="button" class="btn small" data-testid="remove-player-${k}" data-k="${k}" data-act="remove"
            ${rows.length <= 2 ? "disabled" : ""} aria-label="Remove player" title="Remove">✕</button>
        </span>
      </div>`).join("");
    tid("add-player").disabled = rows.length >= 4;
    if (focus) {
      const el = tid(focus);
      if (el && !el.disabled) el.focus();
    }
  }

  /** Refresh only the reader lists and states (a `readers` push), keeping focus and typing. */
  function refreshReaderSelects() {
    autoAssign();
    rows.forEach((row, k) => {
      const sel = tid(`player-reader-${k}`);
      if (sel && document.activeElement !== sel) sel.innerHTML = readerOptions(row);
      const st = $(`[data-role="rstate-${k}"]`);
      if (st) st.innerHTML = readerState(row);
    });
  }

  rowsBox.addEventListener("input", (event) => {
    const el = event.target;
    const k = Number(el.dataset.k);
    if (!rows[k]) return;
    if (el.classList.contains("pname")) rows[k].name = el.value;
    else if (el.classList.contains("otherid")) {
      rows[k].otherId = el.value;
      $(`[data-role="rstate-${k}"]`).innerHTML = readerState(rows[k]);
    }
    hideError();
  });

  rowsBox.addEventListener("change", (event) => {
    const el = event.target;
    const k = Number(el.dataset.k);
    if (!rows[k]) return;
    if (el.tagName === "SELECT") {
      rows[k].touched = true;
      if (el.value === OTHER) {
        rows[k].other = true;
        const input = tid(`player-reader-id-${k}`);
        input.hidden = false;
        input.focus();
      } else {
        rows[k].other = false;
        rows[k].reader = el.value;
        tid(`player-reader-id-${k}`).hidden = true;
      }
      $(`[data-role="rstate-${k}"]`).innerHTML = readerState(rows[k]);
    } else if (el.type === "radio") {
      first = k;
      rowsBox.querySelectorAll(".prow").forEach((r, i) => r.classList.toggle("is-first", i === first));
    }
    hideError();
  });

  rowsBox.addEventListener("click", (event) => {
    const btn = event.target.closest("button[data-act]");
    if (!btn) return;
    const k = Number(btn.dataset.k);
    const act = btn.dataset.act;
    if (act === "up" && k > 0) swap(k, k - 1, `move-up-${k - 1}`);
    else if (act === "down" && k < rows.length - 1) swap(k, k + 1, `move-down-${k + 1}`);
    else if (act === "remove" && rows.length > 2) {
      rows.splice(k, 1);
      if (first === k) first = 0;
      else if (first > k) first -= 1;
      autoAssign();
      renderRows(`player-name-${Math.min(k, rows.length - 1)}`);
    }
    hideError();
  });

  function swap(a, b, focus) {
    [rows[a], rows[b]] = [rows[b], rows[a]];
    if (first === a) first = b;
    else if (first === b) first = a;
    renderRows(focus);
  }

  tid("add-player").addEventListener("click", () => {
    if (rows.length >= 4) return;
    rows.push(newRow());
    autoAssign();
    renderRows(`player-name-${rows.length - 1}`);
    hideError();
  });

  // ---- deal for us -------------------------------------------------------------------------

  const dealBox = tid("deal-for-us");
  const seedInput = tid("deal-seed");
  function syncDeal() {
    seedInput.disabled = !dealBox.checked;
    tid("new-seed").disabled = !dealBox.checked;
    $('[data-role="seedrow"]').classList.toggle("off", !dealBox.checked);
    $('[data-role="manual-note"]').hidden = dealBox.checked;
  }
  dealBox.addEventListener("change", syncDeal);
  tid("new-seed").addEventListener("click", () => { seedInput.value = randomSeed(); });
  syncDeal();

  // ---- create ------------------------------------------------------------------------------

  function showError(html) {
    formError.innerHTML = html;
    formError.hidden = false;
    formError.scrollIntoView({ block: "nearest" });
  }
  function hideError() {
    formError.hidden = true;
  }

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    hideError();
    const players = rows.map((r) => r.name.trim());
    const readerIds = rows.map((r) => (r.other ? r.otherId.trim() : r.reader));
    const blank = players.findIndex((p) => !p);
    if (blank >= 0) {
      showError(`Give every player a name (seat ${blank + 1} has none).`);
      tid(`player-name-${blank}`).focus();
      return;
    }
    const noReader = readerIds.findIndex((r) => !r);
    if (noReader >= 0) {
      showError(`Choose a bag reader for ${esc(players[noReader])}.`);
      tid(rows[noReader].other ? `player-reader-id-${noReader}` : `player-reader-${noReader}`).focus();
      return;
    }
    const body = { players, readers: readerIds, first_player: first };
    const name = tid("table-name").value.trim();
    if (name) body.name = name;
    if (dealBox.checked) {
      const seed = Number(seedInput.value);
      if (seedInput.value.trim() === "" || !Number.isSafeInteger(seed)) {
        showError("The seed must be a whole number.");
        seedInput.focus();
        return;
      }
      body.deal_seed = seed;
    }
    const submit = tid("create-table");
    submit.disabled = true;
    submit.textContent = "Creating…";
    try {
      const table = await call("/api/tables", { method: "POST", body });
      if (!alive) return;
      savePin(table.id, table.pin);
      showCreated(table);
      ctx.toast(`${table.name} is ready.`, "ok");
      loadTables();
      loadReaders();
    } catch (err) {
      if (alive) showError(errorHtml(err));
    } finally {
      submit.disabled = false;
      submit.textContent = "Create table";
    }
  });

  function showCreated(table) {
    const box = tid("created");
    const links = table.players.map((player, k) => {
      const path = `/phone/${encodeURIComponent(table.id)}/${k}#token=${encodeURIComponent(table.tokens[k])}`;
      const url = location.origin + path;
      return `
        <li>
          <div class="who"><span class="seatno">${k + 1}</span> <b>${esc(player)}</b>
            ${k === table.first_player ? `<span class="badge">first player</span>` : ""}</div>
          <div class="linkrow">
            <a class="phonelink" data-testid="phone-link-${k}" href="${esc(path)}" target="_blank"
              rel="noopener">${esc(url)}</a>
            <button type="button" class="btn small" data-copy="${esc(url)}">Copy</button>
          </div>
        </li>`;
    }).join("");
    box.innerHTML = `
      <h2>${esc(table.name)} is ready</h2>
      <div class="pinbox">
        <div class="pinlabel">Table PIN</div>
        <div class="pin" data-testid="created-pin">${esc(table.pin)}</div>
        <p><b>Shown only once: write it down.</b> Undo, corrections and closing the table need it.
          This tablet remembers it.</p>
      </div>
      <h3>Phone links</h3>
      <p class="muted lead">Each player opens their own link on their phone to see and choose their
        secret awards. These links are shown only once too.</p>
      <ol class="links">${links}</ol>
      <div class="row">
        <button type="button" class="btn primary big" data-testid="open-table">Open the table</button>
        <button type="button" class="btn" data-testid="another-table">Set up another table</button>
      </div>`;
    box.hidden = false;
    tid("new-table-panel").hidden = true;
    box.querySelector('[data-testid="open-table"]').addEventListener("click", () => ctx.go(`/table/${table.id}`));
    box.querySelector('[data-testid="another-table"]').addEventListener("click", resetForm);
    box.scrollIntoView({ block: "start" });
  }

  root.addEventListener("click", async (event) => {
    const btn = event.target.closest("button[data-copy]");
    if (!btn) return;
    const text = btn.dataset.copy;
    try {
      await navigator.clipboard.writeText(text);
      ctx.toast("Link copied.", "ok");
    } catch {
      // No clipboard outside a secure context: select the link's text for a manual copy.
      const a = btn.parentElement.querySelector("a");
      const range = document.createRange();
      range.selectNodeContents(a);
      const sel = window.getSelection();
      sel.removeAllRanges();
      sel.addRange(range);
      ctx.toast("Link selected: copy it from the menu.", "info");
    }
  });

  function resetForm() {
    rows.splice(0, rows.length, newRow(), newRow());
    first = 0;
    tid("table-name").value = "";
    seedInput.value = randomSeed();
    autoAssign();
    renderRows("player-name-0");
    tid("created").hidden = true;
    tid("created").innerHTML = "";
    tid("new-table-panel").hidden = false;
    hideError();
  }

  // ---- tables ------------------------------------------------------------------------------

  function renderTables() {
    const key = JSON.stringify([tables, confirming]);
    if (key === tablesKey) return;
    tablesKey = key;
    const list = tid("tables-list");
    if (!tables.length) {
      list.innerHTML = `<p class="muted">No table yet: create one.</p>`;
      return;
    }
    const order = [...tables].reverse().sort((a, b) => a.closed - b.closed);
    list.innerHTML = `<ul class="tables">${order.map((t) => {
      const status = t.closed ? "closed" : t.over ? "game over" : "playing";
      const cls = t.closed ? "closed" : t.over ? "over" : "live";
      const confirm = confirming === t.id ? `
        <div class="confirm" data-testid="confirm-close-box-${esc(t.id)}">
          <span>Close <b>${esc(t.name)}</b> for good? Its readers are freed; the game can still be read.</span>
          <span class="row">
            <button type="button" class="btn danger small" data-testid="confirm-close-${esc(t.id)}"
              data-confirm="${esc(t.id)}">Close it</button>
            <button type="button" class="btn small" data-cancel="${esc(t.id)}">Cancel</button>
          </span>
        </div>` : "";
      return `
        <li class="tbl ${cls}" data-testid="table-${esc(t.id)}">
          <div class="tmain">
            <div class="tname"><b>${esc(t.name)}</b> <span class="badge ${cls}">${status}</span></div>
            <div class="muted meta">${t.players.map((name, k) =>
              `<span class="pr">${esc(name)} <small>(${esc(t.readers[k] ?? "?")})</small></span>`).join(", ")}
              · ${t.events} events · ${t.deal_for_us ? "deal for us" : "manual deal"}</div>
          </div>
          <div class="tbtns">
            <button type="button" class="btn small primary" data-open="${esc(t.id)}"
              data-testid="open-table-${esc(t.id)}">Open</button>
            <button type="button" class="btn small" data-close="${esc(t.id)}"
              data-testid="close-table-${esc(t.id)}" ${t.closed ? "disabled" : ""}>Close table</button>
          </div>
          ${confirm}
        </li>`;
    }).join("")}</ul>`;
  }

  tid("tables-list").addEventListener("click", async (event) => {
    const btn = event.target.closest("button");
    if (!btn) return;
    if (btn.dataset.open) ctx.go(`/table/${btn.dataset.open}`);
    else if (btn.dataset.close) {
      confirming = btn.dataset.close;
      renderTables();
    } else if (btn.dataset.cancel) {
      confirming = null;
      renderTables();
    } else if (btn.dataset.confirm) {
      const id = btn.dataset.confirm;
      btn.disabled = true;
      try {
        await tableCall(id, `/api/tables/${id}/close`, { method: "POST", body: {} }, ctx.askPin);
        const t = tables.find((x) => x.id === id);
        ctx.toast(`${t ? t.name : id} is closed.`, "ok");
        confirming = null;
      } catch (err) {
        ctx.toast(err instanceof ApiError ? `${err.code}: ${err.message}` : String(err), "error");
        btn.disabled = false;
      }
      await loadTables();
      loadReaders();
    }
  });
  tid("refresh-tables").addEventListener("click", () => { loadTables(); loadReaders(); loadCounts(); });

  async function loadTables() {
    try {
      const list = await call("/api/tables");
      if (!alive) return;
      tables = list;
      renderTables();
      refreshReaderSelects();
    } catch (err) {
      if (alive && !tables.length) tid("tables-list").innerHTML = `<p class="form-error">${errorHtml(err)}</p>`;
    }
  }

  async function loadReaders() {
    try {
      const list = await call("/api/readers");
      if (!alive) return;
      readers = list;
      refreshReaderSelects();
    } catch {
      // the `readers` push or the next poll will bring them
    }
  }

  // ---- tag enrollment ----------------------------------------------------------------------

  const enrollError = tid("enroll-error");
  function enrollFail(err) {
    enrollError.innerHTML = errorHtml(err);
    enrollError.hidden = false;
  }
  function adminPin() {
    const pin = tid("enroll-admin-pin").value.trim();
    if (!pin) {
      enrollFail(new Error("Type the hub's admin PIN first (the hub prints it when it starts)."));
      tid("enroll-admin-pin").focus();
      return null;
    }
    return pin;
  }

  function renderTags() {
    const { counts, capacity, enrolling } = tagInfo;
    for (const c of COLORS) {
      const btn = tid(`enroll-color-${c}`);
      const n = counts[c] ?? 0;
      const cap = capacity[c] ?? 0;
      tid(`enroll-count-${c}`).textContent = cap ? `${n} / ${cap}` : String(n);
      btn.querySelector(".bar span").style.width = cap ? `${Math.min(100, (100 * n) / cap)}%` : "0";
      btn.classList.toggle("full", cap > 0 && n >= cap);
      btn.classList.toggle("enrolling", enrolling === c);
      btn.setAttribute("aria-pressed", String(chosenColor === c));
    }
    const status = tid("enroll-status");
    status.classList.toggle("on", Boolean(enrolling));
    if (enrolling) {
      const n = counts[enrolling] ?? 0;
      const cap = capacity[enrolling] ?? 0;
      status.innerHTML = `${pawnHtml(null, enrolling)} <span>Enrolling <b>${esc(enrolling)}</b> pawns
        (${n} of ${cap}): tap each ${esc(enrolling)} pawn's tag on any reader. Game taps are paused
        until you stop.</span>`;
    } else {
      status.innerHTML = `<span>Not enrolling: taps are game taps.</span>`;
    }
    tid("enroll-stop").disabled = !enrolling;
    tid("enroll-start").textContent = enrolling && enrolling !== chosenColor
      ? `Switch to ${chosenColor}` : enrolling ? "Enrolling…" : `Start enrolling ${chosenColor}`;
    tid("enroll-start").disabled = enrolling === chosenColor;
    const last = tid("enroll-last");
    if (lastTap) {
      last.hidden = false;
      last.className = `enroll-last ${lastTap.ok ? "ok" : "bad"}`;
      last.innerHTML = lastTap.ok
        ? `${pawnHtml(lastTap.pawn, colorOfPawn(lastTap.pawn))} <span>Pawn ${esc(lastTap.pawn)} enrolled
            (tag ${esc(lastTap.uid)}).</span>`
        : `<span><b>${esc(lastTap.code)}</b> ${esc(lastTap.message)}</span>`;
    } else {
      last.hidden = true;
    }
  }

  /** Pawn ids by color: 0-19 white, 20-29 blue, 30-39 green, 40-49 red, 50-59 yellow. */
  function colorOfPawn(pawn) {
    let start = 0;
    for (const c of COLORS) {
      const cap = tagInfo.capacity[c] ?? (c === "white" ? 20 : 10);
      if (pawn < start + cap) return c;
      start += cap;
    }
    return "grey";
  }

  async function loadCounts() {
    try {
      const data = await call("/api/tags/counts");
      if (!alive) return;
      tagInfo = data;
      renderTags();
    } catch {
      // try again at the next poll
    }
  }

  root.querySelector(".colors").addEventListener("click", async (event) => {
    const btn = event.target.closest("button[data-color]");
    if (!btn) return;
    chosenColor = btn.dataset.color;
    renderTags();
  });

  tid("enroll-start").addEventListener("click", async () => {
    enrollError.hidden = true;
    const pin = adminPin();
    if (!pin) return;
    try {
      const data = await call("/api/enroll", { method: "POST", body: { admin_pin: pin, color: chosenColor } });
      if (!alive) return;
      tagInfo = { ...tagInfo, counts: data.counts, enrolling: data.enrolling };
      lastTap = null;
      renderTags();
    } catch (err) {
      if (alive) enrollFail(err);
    }
  });

  tid("enroll-stop").addEventListener("click", async () => {
    enrollError.hidden = true;
    const pin = adminPin();
    if (!pin) return;
    try {
      const data = await call("/api/enroll", { method: "DELETE", body: { admin_pin: pin } });
      if (!alive) return;
      tagInfo = { ...tagInfo, counts: data.counts, enrolling: data.enrolling };
      renderTags();
      ctx.toast("Enrollment stopped: taps are game taps again.", "info");
    } catch (err) {
      if (alive) enrollFail(err);
    }
  });

  tid("enroll-admin-pin").addEventListener("input", () => { enrollError.hidden = true; });

  tid("enroll-export").addEventListener("click", async () => {
    enrollError.hidden = true;
    const pin = adminPin();
    if (!pin) return;
    try {
      const data = await adminCall("/api/tags", { adminPin: pin });
      const doc = { format: data.format, version: data.version, tags: data.tags };
      const blob = new Blob([JSON.stringify(doc, null, 1) + "\n"], { type: "application/json" });
      const a = document.createElement("a");
      a.href = URL.createObjectURL(blob);
      a.download = `popcorn-tags-${new Date().toISOString().slice(0, 10)}.json`;
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
      ctx.toast(`Exported ${doc.tags.length} tags.`, "ok");
    } catch (err) {
      if (alive) enrollFail(err);
    }
  });

  const importInput = tid("enroll-import");
  const importBox = tid("import-confirm");
  importInput.addEventListener("change", async () => {
    enrollError.hidden = true;
    const file = importInput.files && importInput.files[0];
    importInput.value = "";
    if (!file) return;
    let doc;
    try {
      doc = JSON.parse(await file.text());
    } catch {
      enrollFail(new Error(`${file.name} is not a JSON file.`));
      return;
    }
    if (doc && typeof doc === "object" && doc.registry) doc = doc.registry;
    const count = doc && Array.isArray(doc.tags) ? doc.tags.length : 0;
    const now = Object.values(tagInfo.counts || {}).reduce((a, b) => a + b, 0);
    pendingImport = { name: file.name, registry: doc };
    importBox.innerHTML = `
      <span>Replace all ${now} enrolled tags with the ${count} tags of <b>${esc(file.name)}</b>?</span>
      <span class="row">
        <button type="button" class="btn danger small" data-testid="import-replace">Replace</button>
        <button type="button" class="btn small" data-testid="import-cancel">Cancel</button>
      </span>`;
    importBox.hidden = false;
  });

  importBox.addEventListener("click", async (event) => {
    const btn = event.target.closest("button");
    if (!btn || !pendingImport) return;
    if (btn.dataset.testid === "import-cancel") {
      pendingImport = null;
      importBox.hidden = true;
      return;
    }
    const pin = adminPin();
    if (!pin) return;
    btn.disabled = true;
    try {
      const data = await call("/api/tags", { method: "PUT", body: { admin_pin: pin, registry: pendingImport.registry } });
      ctx.toast(`Imported ${data.tags} tags.`, "ok");
      pendingImport = null;
      importBox.hidden = true;
      loadCounts();
    } catch (err) {
      btn.disabled = false;
      if (alive) enrollFail(err);
    }
  });

  // ---- live updates ------------------------------------------------------------------------

  ctx.socket.on("connect", () => {
    loadReaders();
    loadTables();
    loadCounts();
  });
  ctx.socket.on("readers", (list) => {
    if (!Array.isArray(list)) return;
    readers = list;
    refreshReaderSelects();
  });
  ctx.socket.on("enroll", (data) => {
    if (!data) return;
    lastTap = data;
    if (data.ok && data.counts) tagInfo = { ...tagInfo, counts: data.counts };
    renderTags();
  });

  renderRows();
  renderTags();
  loadReaders();
  loadTables();
  loadCounts();
  const timer = setInterval(() => {
    if (document.hidden) return;
    loadTables();
    loadCounts();
  }, POLL_MS);

  return () => {
    alive = false;
    clearInterval(timer);
  };
}

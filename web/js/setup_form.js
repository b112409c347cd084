// The new-table form: the game (setup_game.js: each hosted game and its options), the
// player rows (setup_rows.js), the table's name, "deal for us" with its seed and the hints
// (for a game that offers them: GET /api/games `features`, in the game's own `words`), and
// Create. Create checks the form first (a name for every player, a reader for
// every bag, a whole-number seed; the first gap is named and focused), then POSTs
// /api/tables; the hub's answer (PIN and phone links, setup_created.js) replaces the form
// until "Set up another table" brings back an empty one.

import { gameT, t } from "./i18n.js";
import { call, savePin } from "./api.js";
import { esc } from "./labels.js";
import { createdPanel } from "./setup_created.js";
import { GAMES, GAME_INFO, GAME_PLAYERS, gameHtml, gamePicker } from "./setup_game.js";
import { rowReader } from "./setup_readers.js";
import { playerRows } from "./setup_rows.js";
import { errorHtml, testIds } from "./setup_shared.js";

/** A random seed for "deal for us". */
function randomSeed() {
  return Math.floor(Math.random() * 1_000_000);
}

/** The form's card: the form itself, and the (hidden) created panel. */
export function formHtml() {
  const example = t("e.g. Kitchen (default: Table N)");
  return `<section class="card setup-new">
      <div data-testid="new-table-panel">
        <h2>${esc(t("New table"))}</h2>
        <form data-testid="new-table-form" novalidate autocomplete="off">
          ${gameHtml()}
          <p class="muted lead">${esc(t("One row per player, in seat order around the table."))}</p>
          <div class="prows" data-role="rows"></div>
          <div class="row">
            <button type="button" class="btn" data-testid="add-player">${esc(t("+ Add a player"))}</button>
          </div>
          <label class="field">${esc(t("Table name"))} <span class="muted">${esc(t("(optional)"))}</span>
            <input data-testid="table-name" maxlength="40" placeholder="${esc(example)}">
          </label>
          <fieldset class="deal" data-role="deal">
            <legend>${esc(t("Cards"))}</legend>
            <label class="check">
              <input type="checkbox" data-testid="deal-for-us" checked>
              <span><b>${esc(t("Deal for us"))}</b>: <span data-role="deal-words"></span></span>
            </label>
            <div class="row seedrow" data-role="seedrow">
              <label class="field inline">${esc(t("Seed"))}
                <input type="number" step="1" data-testid="deal-seed" value="${randomSeed()}">
              </label>
              <button type="button" class="btn small" data-testid="new-seed">${esc(t("New seed"))}</button>
            </div>
            <p class="muted manual-note" data-role="manual-note" hidden></p>
          </fieldset>
          <label class="check" data-role="hints">
            <input type="checkbox" data-testid="hints" checked>
            <span><b>${esc(t("Seating hints"))}</b>: <span data-role="hints-words"></span></span>
          </label>
          <label class="check" data-role="play-on">
            <input type="checkbox" data-testid="play-on">
            <span><b>${esc(t("The advisor plays on"))}</b>: <span data-role="play-on-words"></span></span>
          </label>
          <div class="form-error" data-testid="form-error" role="alert" hidden></div>
          <button type="submit" class="btn primary big" data-testid="create-table">${esc(t("Create table"))}</button>
        </form>
      </div>
      <div class="created" data-testid="created" hidden></div>
    </section>`;
}

export function newTableForm(root, ctx, shared) {
  const tid = testIds(root);
  const formError = tid("form-error");
  const dealBox = tid("deal-for-us");
  const seedInput = tid("deal-seed");
  const players = playerRows(root, shared, hideError);
  const { signal } = shared;

  /** The seed is used, and can be changed, only when the hub deals. */
  function syncDeal() {
    seedInput.disabled = !dealBox.checked;
    tid("new-seed").disabled = !dealBox.checked;
    root.querySelector('[data-role="seedrow"]').classList.toggle("off", !dealBox.checked);
    root.querySelector('[data-role="manual-note"]').hidden = dealBox.checked;
  }

  function showError(html) {
    formError.innerHTML = html;
    formError.hidden = false;
    formError.scrollIntoView({ block: "nearest" });
  }

  function hideError() {
    formError.hidden = true;
  }

  /** Show why the form can't be sent, focus the field to fix; null for `checkedBody`. */
  function refuse(html, focusId) {
    showError(html);
    tid(focusId).focus();
    return null;
  }

  /** The POST /api/tables body, or null (and the first problem shown). */
  function checkedBody() {
    const { rows, first } = players.state;
    const names = rows.map((r) => r.name.trim());
    const readerIds = rows.map(rowReader);
    const blank = names.findIndex((p) => !p);
    if (blank >= 0) return refuse(esc(t("Give every player a name (seat {seat} has none).", { seat: blank + 1 })), `player-name-${blank}`);
    const noReader = readerIds.findIndex((r) => !r);
    if (noReader >= 0) {
      const field = rows[noReader].other ? `player-reader-id-${noReader}` : `player-reader-${noReader}`;
      return refuse(esc(t("Choose a bag reader for {name}.", { name: names[noReader] })), field);
    }
    const limits = GAME_PLAYERS[games.game()];
    if (rows.length < limits.min || rows.length > limits.max) {
      return refuse(esc(t("This game is for {min} to {max} players.", limits)), "add-player");
    }
    const { features } = GAME_INFO[games.game()];
    const body = { players: names, readers: readerIds, first_player: first, ...games.fields() };
    if (features.hints) body.hints = tid("hints").checked;
    if (GAME_INFO[games.game()].words.play_on && tid("play-on").checked) body.play_on = true;
    const name = tid("table-name").value.trim();
    if (name) body.name = name;
    return features.deal && dealBox.checked ? withSeed(body) : body;
  }

  function withSeed(body) {
    const seed = Number(seedInput.value);
    if (seedInput.value.trim() === "" || !Number.isSafeInteger(seed)) {
      return refuse(esc(t("The seed must be a whole number.")), "deal-seed");
    }
    body.deal_seed = seed;
    return body;
  }

  async function submit(event) {
    event.preventDefault();
    hideError();
    const body = checkedBody();
    if (body) await create(body);
  }

  async function create(body) {
    const button = tid("create-table");
    button.disabled = true;
    button.textContent = t("Creating…");
    try {
      const table = await call("/api/tables", { method: "POST", body });
      if (!shared.alive) return;
      savePin(table.id, table.pin);
      created.show(table); // its heading says the table is ready: no toast over the panels
      shared.reload.tables();
      shared.reload.readers();
    } catch (err) {
      if (shared.alive) showError(errorHtml(err));
    } finally {
      button.disabled = false;
      button.textContent = t("Create table");
    }
  }

  /** "Set up another table": an empty form again. */
  function reset() {
    tid("table-name").value = "";
    seedInput.value = randomSeed();
    games.reset();
    pickGame(GAMES[0].id);
    players.reset("player-name-0");
    created.hide();
    hideError();
  }

  dealBox.addEventListener("change", syncDeal, { signal });
  tid("new-seed").addEventListener("click", () => { seedInput.value = randomSeed(); }, { signal });
  syncDeal();
  tid("new-table-form").addEventListener("submit", submit, { signal });
  /** Show the fields `game` offers only (with its own words), and its player counts. */
  function pickGame(game) {
    const { features, words } = GAME_INFO[game];
    root.querySelector('[data-role="deal"]').hidden = !features.deal;
    root.querySelector('[data-role="hints"]').hidden = !features.hints;
    const said = (text) => (text ? gameT(game, text) : "");
    root.querySelector('[data-role="deal-words"]').textContent = said(words.deal);
    root.querySelector('[data-role="manual-note"]').textContent = said(words.deal_manual);
    root.querySelector('[data-role="hints-words"]').textContent = said(words.hints);
    root.querySelector('[data-role="play-on"]').hidden = !words.play_on;
    root.querySelector('[data-role="play-on-words"]').textContent = said(words.play_on);
    const { min, max } = GAME_PLAYERS[game];
    players.setLimits(min, max);
    hideError();
  }

  const games = gamePicker(root, shared, pickGame);
  pickGame(games.game());
  const created = createdPanel(root, ctx, shared, reset);
  return { render: () => players.render(), refreshReaders: players.refreshReaders };
}

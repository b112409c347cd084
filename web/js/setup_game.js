// The new-table form's game: one choice per game the hub hosts (GET /api/games, in the hub's
// order), and the chosen game's options as its JSON Schema describes them, in this device's
// language: an `enum` is a row of choices (each titled by `enumTitles`), a `boolean` a
// checkbox, an `integer` a number box; a property with `x-shown-when` shows (and is sent)
// only while another option has that value. Nothing here names a game: a game installed
// from its own package appears with its options like the two that ship with the hub.
// `gamePicker` tells the form (`onChange(game)`) and gives the create request's `game` and
// `options` (docs/api.md, POST /api/tables).

import { call } from "./api.js";
import { gameT, t } from "./i18n.js";
import { esc } from "./labels.js";

/** The hosted games, as the hub lists them (it checks a table's players and options again
 *  when the table is created). */
export const GAMES = await call("/api/games");

/** Each game by id. */
export const GAME_INFO = Object.fromEntries(GAMES.map((g) => [g.id, g]));

/** Players per game, for the form's rows. */
export const GAME_PLAYERS = Object.fromEntries(GAMES.map((g) => [g.id, { min: g.min_players, max: g.max_players }]));

const idOf = (...parts) => parts.map((p) => String(p)).join("-");

/** One option's field, from its rule. */
function optionHtml(game, name, rule) {
  const id = idOf("option", game.id, name);
  const shownWhen = rule["x-shown-when"] ? ` data-shown-when="${esc(JSON.stringify(rule["x-shown-when"]))}"` : "";
  if (Array.isArray(rule.enum)) {
    const titles = rule.enumTitles || rule.enum.map(String);
    const choices = rule.enum.map((value, i) => `
                <label class="choice"><input type="radio" name="${esc(id)}" value="${i}" data-testid="${esc(idOf(id, value))}"${value === rule.default ? " checked" : ""}>
                  <span>${esc(gameT(game.id, titles[i]))}</span></label>`).join("");
    return `<fieldset class="option" data-option="${esc(name)}"${shownWhen}>
              <legend>${esc(gameT(game.id, rule.title || name))}</legend>
              <div class="row">${choices}</div>
            </fieldset>`;
  }
  if (rule.type === "boolean") {
    return `<label class="check option" data-option="${esc(name)}"${shownWhen}>
              <input type="checkbox" data-testid="${esc(id)}"${rule.default ? " checked" : ""}>
              <span>${esc(gameT(game.id, rule.title || name))}</span></label>`;
  }
  const range = `${rule.minimum !== undefined ? ` min="${rule.minimum}"` : ""}${rule.maximum !== undefined ? ` max="${rule.maximum}"` : ""}`;
  return `<label class="field inline option" data-option="${esc(name)}"${shownWhen}>${esc(gameT(game.id, rule.title || name))}
              <input type="number" step="1"${range} data-testid="${esc(id)}" value="${esc(rule.default ?? "")}"></label>`;
}

/** A game's block of the form: its player count, what its readers are, and its options. */
function optionsHtml(game) {
  const schema = game.options || {};
  const about = [t("{min} to {max} players.", { min: game.min_players, max: game.max_players })];
  if (schema.description) about.push(gameT(game.id, schema.description));
  const fields = Object.entries(schema.properties || {}).map(([name, rule]) => optionHtml(game, name, rule));
  return `<div class="game-options" data-role="game-options" data-game="${esc(game.id)}" hidden>
              <p class="muted">${esc(about.join(" "))}</p>
              ${fields.join("")}
            </div>`;
}

/** The game picker and each game's options (only the chosen game's show). */
export function gameHtml() {
  const choices = GAMES.map((game, i) => `
              <label class="choice"><input type="radio" name="game" value="${esc(game.id)}" data-testid="game-${esc(game.id)}"${i === 0 ? " checked" : ""}>
                <span>${esc(gameT(game.id, game.title))}</span></label>`).join("");
  return `<fieldset class="game-pick" data-testid="game-pick">
            <legend>${esc(t("Game"))}</legend>
            <div class="row">${choices}</div>
            ${GAMES.map(optionsHtml).join("")}
          </fieldset>`;
}

/** The picker's wiring; `onChange(game)` runs when the game changes. */
export function gamePicker(root, shared, onChange) {
  const block = (id) => root.querySelector(`[data-role="game-options"][data-game="${CSS.escape(id)}"]`);

  function game() {
    return root.querySelector('input[name="game"]:checked').value;
  }

  /** One option's value as its field holds it. */
  function valueOf(field, rule) {
    if (Array.isArray(rule.enum)) {
      const picked = field.querySelector("input:checked");
      return picked ? rule.enum[Number(picked.value)] : rule.default;
    }
    const input = field.querySelector("input");
    return rule.type === "boolean" ? input.checked : Number(input.value);
  }

  /** The chosen game's options, as the fields hold them, without the ones not shown. */
  function options() {
    const info = GAME_INFO[game()];
    const rules = (info.options && info.options.properties) || {};
    const out = {};
    for (const field of block(info.id).querySelectorAll("[data-option]")) {
      if (!field.hidden) out[field.dataset.option] = valueOf(field, rules[field.dataset.option]);
    }
    return out;
  }

  /** Show the chosen game's block, and each of its options whose condition holds. */
  function sync() {
    for (const info of GAMES) block(info.id).hidden = info.id !== game();
    const chosen = block(game());
    const rules = (GAME_INFO[game()].options || {}).properties || {};
    const values = Object.fromEntries([...chosen.querySelectorAll("[data-option]")]
      .map((f) => [f.dataset.option, valueOf(f, rules[f.dataset.option])]));
    for (const field of chosen.querySelectorAll("[data-shown-when]")) {
      const when = JSON.parse(field.dataset.shownWhen);
      field.hidden = !Object.entries(when).every(([name, value]) => values[name] === value);
    }
  }

  /** The create request's game fields: `game` and its `options`. */
  function fields() {
    return { game: game(), options: options() };
  }

  /** Back to the first game, every option at its default. */
  function reset() {
    root.querySelector('input[name="game"]').checked = true;
    for (const info of GAMES) {
      for (const [name, rule] of Object.entries((info.options || {}).properties || {})) {
        const field = block(info.id).querySelector(`[data-option="${CSS.escape(name)}"]`);
        if (Array.isArray(rule.enum)) {
          const i = rule.enum.indexOf(rule.default);
          field.querySelectorAll("input").forEach((input) => { input.checked = Number(input.value) === i; });
        } else if (rule.type === "boolean") {
          field.querySelector("input").checked = Boolean(rule.default);
        } else {
          field.querySelector("input").value = rule.default ?? "";
        }
      }
    }
    sync();
  }

  root.querySelector('[data-testid="game-pick"]').addEventListener("change", (event) => {
    sync();
    if (event.target.name === "game") onChange(game());
  }, { signal: shared.signal });
  sync();
  return { game, fields, reset };
}

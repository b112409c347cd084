// The new-table form's game: Popcorn (the default, its form exactly as it always was) or
// B Movies, with B Movies' own options: the variant (standard or Hidden Team) and, for Hidden
// Team, who deals the studio cards (the hub in secret, or the table's cardboard deal entered
// on the tablet with the PIN). `gamePicker` shows the options of the game picked, tells the
// form (`onChange(game)`), and gives the fields B Movies adds to POST /api/tables.

import { call } from "./api.js";
import { t } from "./i18n.js";
import { esc } from "./labels.js";
import { testIds } from "./setup_shared.js";

/** Players per game, for the form's rows, as the hub's GET /api/games gives them (the hub
 * checks them again when the table is created). */
export const GAME_PLAYERS = Object.fromEntries((await call("/api/games"))
  .map((g) => [g.id, { min: g.min_players, max: g.max_players }]));

/** The game picker and B Movies' options (hidden until B Movies is picked). */
export function gameHtml() {
  const gameLabel = t("Game");
  const bmPlayers = t("{min} to {max} players. Each player's token pad is their reader: a Popcorn token tapped on it is a token drawn.", GAME_PLAYERS["b-movies"]);
  return `<fieldset class="game-pick" data-testid="game-pick">
            <legend>${esc(gameLabel)}</legend>
            <div class="row">
              <label class="choice"><input type="radio" name="game" value="popcorn" data-testid="game-popcorn" checked>
                <span>${esc(t("Popcorn"))}</span></label>
              <label class="choice"><input type="radio" name="game" value="b-movies" data-testid="game-b-movies">
                <span>${esc(t("B Movies"))}</span></label>
            </div>
            <div class="bm-options" data-role="bm-options" hidden>
              <p class="muted">${esc(bmPlayers)}</p>
              <div class="row">
                <label class="choice"><input type="radio" name="bm-variant" value="standard" data-testid="bm-variant-standard" checked>
                  <span>${esc(t("Standard game"))}</span></label>
                <label class="choice"><input type="radio" name="bm-variant" value="hidden" data-testid="bm-variant-hidden">
                  <span>${esc(t("Hidden Team"))}</span></label>
              </div>
              <div class="row" data-role="bm-studios" hidden>
                <label class="choice"><input type="radio" name="bm-studios" value="deal" data-testid="bm-studios-deal" checked>
                  <span>${esc(t("The hub deals the studios in secret (each phone shows its own)"))}</span></label>
                <label class="choice"><input type="radio" name="bm-studios" value="entered" data-testid="bm-studios-entered">
                  <span>${esc(t("We deal the studio cards and enter the deal on the tablet (PIN)"))}</span></label>
              </div>
            </div>
          </fieldset>`;
}

/** The picker's wiring; `onChange(game)` runs when the game changes. */
export function gamePicker(root, shared, onChange) {
  const tid = testIds(root);
  const picked = (name) => root.querySelector(`input[name="${name}"]:checked`).value;

  function game() {
    return picked("game");
  }

  function sync() {
    const bm = game() === "b-movies";
    root.querySelector('[data-role="bm-options"]').hidden = !bm;
    root.querySelector('[data-role="bm-studios"]').hidden = !(bm && picked("bm-variant") === "hidden");
  }

  /** The fields B Movies adds to the create request (none for Popcorn). */
  function fields() {
    if (game() !== "b-movies") return {};
    const variant = picked("bm-variant");
    return variant === "hidden"
      ? { game: "b-movies", variant, studios: picked("bm-studios") }
      : { game: "b-movies", variant };
  }

  /** Back to Popcorn, standard, dealt by the hub. */
  function reset() {
    tid("game-popcorn").checked = true;
    tid("bm-variant-standard").checked = true;
    tid("bm-studios-deal").checked = true;
    sync();
  }

  root.querySelector('[data-testid="game-pick"]').addEventListener("change", (event) => {
    const changedGame = event.target.name === "game";
    sync();
    if (changedGame) onChange(game());
  }, { signal: shared.signal });
  sync();
  return { game, fields, reset };
}

// What the archive's screens share (archive.js, archive_game.js, archive_player.js): the
// words of a game (its title and variant), dates in this device's language, links to a game
// and to a player's page, files to save, and the calls that need the hub's admin PIN.
//
// The archive knows no game: a game's title comes from the hub as the game names itself
// (a title is a name, never translated), its variant as an English title the catalogs
// translate. Reading the archive needs no secret; importing, deleting and the records need
// the admin PIN, asked once and kept in this page's memory only (never in localStorage:
// it guards the whole hub), forgotten when the hub refuses it.

import { ApiError } from "./api.js";
import { language, t } from "./i18n.js";
import { esc } from "./labels.js";

let adminPin = null; // the admin PIN this page was given, until the hub refuses it

/** A game's name with its variant: "Popcorn", "B Movies · Hidden Team". */
export function gameLabel(game) {
  return game.variant_title ? `${game.title} · ${t(game.variant_title)}` : game.title;
}

/** A date (ISO 8601, from the hub) in this device's language, in figures: "12/06/2025 19:32". */
export function when(date) {
  return new Intl.DateTimeFormat(language(), { dateStyle: "short", timeStyle: "short" })
    .format(new Date(date));
}

/** A date alone, in figures ("12/06/2025"): a chart's axis. */
export function day(date) {
  return new Intl.DateTimeFormat(language(), { dateStyle: "short" }).format(new Date(date));
}

/** A game's page (where the replay board will stand). */
export function gameHref(id) {
  return `/archive/${encodeURIComponent(id)}`;
}

/** A player's page: their games gathered by name. */
export function playerHref(name) {
  return `/archive/player/${encodeURIComponent(name)}`;
}

/** A player's name as a link to their page (a 44 px chip), with their score if any. */
export function playerChip(player, testid = "") {
  const score = player.score === null || player.score === undefined ? ""
    : ` <b class="pscore">${esc(player.score)}</b>`;
  const id = testid ? ` data-testid="${esc(testid)}"` : "";
  const title = player.winner ? t("{name} won", { name: player.name }) : player.name;
  return `<a class="pchip${player.winner ? " won" : ""}" href="${esc(playerHref(player.name))}" data-nav${id}
    title="${esc(title)}">${esc(player.name)}${score}</a>`;
}

/** "Place 2 of 4", in this language. */
export function placeWords(place, players) {
  return place ? t("Place {place} of {players}", { place, players }) : "";
}

/** Save data as a file, through a link clicked once. */
export function saveFile(blob, name) {
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
}

/** The file name a download's answer gives (Content-Disposition), else `fallback`. */
function fileName(response, fallback) {
  const found = /filename="([^"]+)"/.exec(response.headers.get("Content-Disposition") || "");
  return found ? found[1] : fallback;
}

async function send(path, { method = "GET", body, pin }) {
  const response = await fetch(path, {
    method,
    headers: { "Content-Type": "application/json", "Accept-Language": language(), "X-Admin-Pin": pin },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) {
    const data = await response.json().catch(() => ({}));
    throw new ApiError(response.status, data.code || "HTTP", data.message || response.statusText, data.params);
  }
  return response;
}

/**
 * A request that needs the admin PIN: sent with the PIN this page knows, else asked with
 * `ctx.askPin`; a wrong PIN is forgotten and asked again (three times at most). Resolves to
 * the hub's answer (a fetch Response), or null when the PIN dialog is cancelled.
 */
export async function adminCall(ctx, path, options = {}) {
  for (let attempt = 0; attempt < 3; attempt++) {
    if (!adminPin) {
      adminPin = await ctx.askPin(attempt ? t("That PIN is wrong. Admin PIN:") : t("Admin PIN:"));
      if (!adminPin) return null;
    }
    try {
      return await send(path, { ...options, pin: adminPin });
    } catch (err) {
      if (!(err instanceof ApiError) || err.code !== "WRONG_PIN") throw err;
      adminPin = null;
    }
  }
  throw new ApiError(403, "WRONG_PIN", t("The admin PIN was refused three times."));
}

/** Download a file the hub serves with the admin PIN; false if the PIN was not given. */
export async function adminDownload(ctx, path, fallback) {
  const response = await adminCall(ctx, path);
  if (!response) return false;
  saveFile(await response.blob(), fileName(response, fallback));
  return true;
}

/** An error as words: the hub's code and its sentence in this language. */
export function errorLine(err) {
  if (err instanceof ApiError) return `<b>${esc(err.code)}</b> ${esc(err.message)}`;
  return esc(err && err.message ? err.message : String(err));
}

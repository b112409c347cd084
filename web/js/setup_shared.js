// What the setup screen's panels share. setup.js makes one `shared` object and hands it to
// each panel: the hub's readers and tables (the new-table form reads both to tell a free
// reader from a busy one), `alive` (false once the screen is gone, so a late answer is
// dropped), the `signal` that removes every DOM listener at unmount, and `reload`, the
// loaders of the hub's lists. Also the two helpers every panel uses.

import { ApiError } from "./api.js";
import { colorLetter, colorWord, errorText, t } from "./i18n.js";
import { esc } from "./labels.js";

/** The object the panels share; setup.js fills `reload` in once the panels exist. */
export function sharedState(signal) {
  return {
    alive: true,
    readers: [],  // the /api/readers list
    tables: [],   // the /api/tables list
    signal,       // aborted at unmount: give it to every addEventListener
    reload: null, // {tables, readers, counts}: each loads one list and redraws what shows it
  };
}

/** `tid("x")` is the element under root whose data-testid is "x". */
export function testIds(root) {
  return (id) => root.querySelector(`[data-testid="${id}"]`);
}

/** An error from `call` (or any other) as a sentence in this device's language: a tag the
 * registry refused says what the tag already is or what is full (`registryText`), any other
 * refusal its sentence. The stable code is left for the element's `data-code` (see
 * `errorCode`), never shown: it means nothing to the person at the tablet. */
export function errorHtml(err) {
  if (err instanceof ApiError) return esc(registryText(err.code, err.params, err.message));
  return esc(err && err.message ? err.message : String(err));
}

/** The code of an error from `call` ("" for another error), for a `data-code` attribute. */
export function errorCode(err) {
  return err instanceof ApiError ? err.code : "";
}

/** A card kind in words: "movie", "theater tile", "award card". */
export function kindWord(kind) {
  const words = { movie: t("movie"), theater: t("theater tile"), award: t("award card") };
  return words[kind] || String(kind || "");
}

/** What a known tag already stands for (a refusal's params: `thing` and its `color`,
 * `title` and `kind`, or `value`), named as a person sees it: a pawn by its color and
 * letter, a card by its title, a token by its value, any other piece by its title; never
 * by a number. */
function thingWords(params) {
  if (params.thing === "pawn") {
    return t("a {color} {letter} pawn", { color: colorWord(params.color), letter: colorLetter(params.color) });
  }
  if (params.thing === "card") return t("the card {title} ({kind})", { title: params.title, kind: kindWord(params.kind) });
  if (params.thing === "token") return t("a popcorn token of value {value}", { value: params.value });
  if (params.title !== undefined) return t("the piece {title} ({kind})", { title: t(String(params.title)), kind: params.kind });
  return null;
}

/** A refused tag (an enrollment tap, a card bound, an import) in this device's language,
 * from the refusal's `code` and `params`: what the tag already is, or that a color, a
 * card or a token value has all its tags. Any other code: its usual sentence. */
export function registryText(code, params, message) {
  const p = params || {};
  const what = thingWords(p);
  if (code === "DUPLICATE_UID" && what) {
    return t("This tag is already on {what}: a tag stands for one pawn, card or token only. Tap one that has no tag yet.", { what });
  }
  if (code === "COLOR_FULL" && p.color) {
    return t("All {cap} {color} pawns already have a tag.", { cap: p.cap, color: colorWord(p.color) });
  }
  if (code === "TOKEN_FULL" && p.value !== undefined) {
    return t("All {cap} popcorn tokens of value {value} already have a tag.", { cap: p.cap, value: p.value });
  }
  if (code === "CARD_FULL" && p.title) {
    return t("Every copy of {title} ({kind}) already has a tag.", { title: p.title, kind: kindWord(p.kind) });
  }
  if (code === "CARD_FULL" && p.kind) {
    return t("All {cap} cards of the kind {kind} already have a tag.", { cap: p.cap, kind: kindWord(p.kind) });
  }
  if (code === "VALUE_FULL" && p.title !== undefined) {
    return t("All {cap} pieces of {title} already have a tag.", { cap: p.cap, title: t(String(p.title)) });
  }
  if (code === "KIND_FULL" && p.kind) {
    return t("All {cap} pieces of the kind {kind} already have a tag.", { cap: p.cap, kind: p.kind });
  }
  return errorText(code, p, message);
}

// Every word the dashboard shows, in this device's language.
//
// The hub serves each language's catalog as JSON (GET /api/i18n/<lang>), made from the same
// gettext .po files as its own messages (companion/i18n). `t("English {name}", {name})`
// returns the translation with its placeholders filled; `tn(singular, plural, n, params)`
// picks the plural form with Intl.PluralRules. A refusal or an alert is rendered from its
// `code` and `params` with the catalog's templates (`errorText`, `alertText`), so a French
// tablet reads French even for a mistake an English phone made.
//
// A game's words are its own: on a game's screen (`useGame`), its own catalog (a game
// installed from its own package ships one) and its codes' templates come first, then the
// companion's; no game's template ever stands in for another's.
//
// The language: the one chosen on this device (the header's picker, kept in localStorage),
// else the first of the browser's languages the companion speaks, else the hub's default
// (`serve --lang`), else English.

const KEY = "popcorn:lang";
let lang = "en";
let catalog = { messages: {}, contexts: {}, games: {}, plurals: ["one", "other"], codes: { errors: {}, alerts: {}, words: {} } };
let known = { en: "English" };
let fallback = "en";

/** This device's language code ("en", "fr", "de" or "ja"). */
export function language() {
  return lang;
}

/** Every language the hub offers: code -> name in that language. */
export function languages() {
  return known;
}

function base(code) {
  return String(code || "").toLowerCase().split(/[-_]/)[0];
}

/** The language this device should show: its saved choice, the browser's, the hub's. */
export function preferred(saved, browser, offered, hubDefault) {
  for (const code of [saved, ...(browser || [])]) {
    if (base(code) in offered) return base(code);
  }
  return base(hubDefault) in offered ? base(hubDefault) : "en";
}

/** Load the catalog of this device's language (or of `choice`, which is then remembered). */
export async function loadLanguage(choice) {
  if (choice) localStorage.setItem(KEY, choice);
  // The likely language's catalog is asked for beside the list, not after it: one round trip
  // fewer on a slow network when the guess holds (else it is asked for once the list says).
  const guess = base(localStorage.getItem(KEY) || (navigator.languages || [])[0] || "en");
  const guessed = fetch(`/api/i18n/${encodeURIComponent(guess)}`).then((r) => (r.ok ? r.json() : null)).catch(() => null);
  try {
    const info = await (await fetch("/api/i18n")).json();
    known = info.languages;
    fallback = info.default;
    lang = preferred(localStorage.getItem(KEY), navigator.languages, known, fallback);
    catalog = (lang === guess && await guessed) || await (await fetch(`/api/i18n/${lang}`)).json();
  } catch {
    lang = "en"; // a hub that cannot say: English, as written
  }
  document.documentElement.lang = lang;
  return lang;
}

/** A number written this language's way. */
export function num(n) {
  return typeof n === "number" ? new Intl.NumberFormat(lang).format(n) : String(n);
}

function fill(text, params = {}) {
  return text.replace(/\{(\w+)\}/g, (whole, name) => {
    if (!(name in params)) return whole;
    const value = params[name];
    return typeof value === "number" ? num(value) : String(value ?? "");
  });
}

let gameId = null; // the game whose screen shows (useGame): its words come first

/** The game whose screen shows, or null (the setup screen, the archive's list): its own
 * catalog translates its messages first (a game installed from its own package ships one),
 * and its codes' templates and words are its own, never another game's. app.js sets it
 * before it mounts a table, a phone or a replay board. */
export function useGame(id) {
  gameId = id || null;
}

/** The current game's part of the catalog (its `messages` and `contexts`), or null. */
function own() {
  return (gameId && catalog.games && catalog.games[gameId]) || null;
}

/** A message's translation: the current game's own catalog first, then the companion's. */
function translated(msgid) {
  const mine = own();
  const found = mine && mine.messages ? mine.messages[msgid] : undefined;
  return found !== undefined ? found : catalog.messages[msgid];
}

/** The codes' templates and words the current game renders with: its own, over the hub's
 * own errors; with no game, every game's added up (as the hub gives them). */
function codes() {
  const game = gameId && catalog.codes.games && catalog.codes.games[gameId];
  if (!game) return catalog.codes;
  return { ...game, errors: { ...((catalog.codes.hub || {}).errors || {}), ...game.errors } };
}

/** `msgid` in this device's language, with its `{placeholders}` filled from `params`. */
export function t(msgid, params) {
  const found = translated(msgid);
  return fill(typeof found === "string" ? found : msgid, params);
}

/** `msgid` of `game` (its title, its options' words) where no screen of it shows: the setup
 * form names every game. */
export function gameT(game, msgid, params) {
  const before = gameId;
  gameId = game;
  try {
    return t(msgid, params);
  } finally {
    gameId = before;
  }
}

/** The form of a plural message for `n` (also given to the text as `{n}`). */
export function tn(singular, plural, n, params = {}) {
  const forms = translated(singular);
  const all = { n, ...params };
  if (!Array.isArray(forms)) return fill(n === 1 ? singular : plural, all);
  const index = catalog.plurals.indexOf(new Intl.PluralRules(lang).select(n));
  return fill(forms[Math.max(0, Math.min(index, forms.length - 1))], all);
}

/** An award card's `title` or `condition` (`field`) in this language: card facts are data,
 * so the catalog keys them by award id; `english` is the card's own text. */
export function awardText(id, field, english) {
  return contextText(field === "title" ? "award-title" : "award", id) || english;
}

/** What an action does (a tooltip) in this language; `english` is the catalog's sentence. */
export function actionMeaning(id, english) {
  return contextText("action", id) || english;
}

/** A sentence of a game's data in this language: the catalog keys it by the `kind` and `id`
 * of its thing (the message context `kind:id`); undefined if this language has none. */
export function contextText(kind, id) {
  const mine = own();
  const found = mine && mine.contexts && mine.contexts[kind] ? mine.contexts[kind][id] : undefined;
  if (found !== undefined) return found;
  const words = catalog.contexts && catalog.contexts[kind];
  return words ? words[id] : undefined;
}

/** A message that needs its context to be told apart (`context` is "kind:id", as the
 * message context in the catalogs): its translation in this language, else `msgid` itself.
 * Pawn letters are such messages: "B" is blue's letter in English, "Bl" in French, and no
 * other "B". */
export function tp(context, msgid) {
  const [kind, id] = context.split(":");
  return contextText(kind, id) || msgid;
}

/** A guest or seat color as an adjective in this language. */
export function colorWord(color) {
  const source = pick((codes().words || {}).color, { color });
  return source ? t(source) : color;
}

const LETTER = { white: "W", blue: "B", green: "G", red: "R", yellow: "Y", grey: "·" };

/** The letter a guest color's pawn disc carries (and a sentence names it by, with its color:
 * "the blue B guest"), so that color is never the only cue: the game's word `letter` in this
 * language's catalog (Popcorn's LETTERS, companion/games/popcorn/texts.py), else its English
 * letter. */
export function colorLetter(color) {
  const word = (codes().words || {}).letter;
  const source = pick(word, { color });
  return source ? wordText(word, source, { color }) : LETTER[color] || "?";
}

/** A game's word in this language: its template translated, under the word's message
 * context when it has one (a letter's "letter:blue"). */
function wordText(word, source, params) {
  return word.context ? tp(fillKey(word.context, params), source) : t(source);
}

function fillKey(key, params) {
  return key.replace(/\{(\w+)\}/g, (whole, param) => (param in params ? String(params[param]) : "?"));
}

/** The template a game's word takes for these params (see companion/kit/texts.py, Words):
 * the first of its keys that, filled with the params, names one of its templates. */
function pick(word, params) {
  if (!word) return undefined;
  for (const key of word.keys) {
    const name = fillKey(key, params);
    if (name in word.templates) return word.templates[name];
  }
  return undefined;
}

/** The params of a code's template, with the game's words (a color, a place) in this
 * language. */
function words(params = {}) {
  const out = { ...params };
  for (const [name, word] of Object.entries(codes().words || {})) {
    const source = pick(word, params);
    if (source) out[name] = fill(wordText(word, source, params), out);
  }
  return out;
}

/** A place a code's params name (`zone`, `owner`, `slot`, `seat`), in this device's
 * language: "Bob's exit zone", "the reserve" (the game's `place` word). */
export function placeText(params) {
  return words(params).place || "";
}

/** A refusal's sentence in this device's language: the hub's English `message` for an
 * English device, else its `code`'s template filled with its `params` (a refusal of a
 * body's field, whose params name its `field` and `problem`, the field's template: see
 * companion/i18n/texts.py, FIELDS). */
export function errorText(code, params, message) {
  const field = params && "field" in params ? (codes().fields || {})[params.problem] : undefined;
  const template = field || codes().errors[code];
  if (lang === "en" || !template) return message;
  return t(template, words(params));
}

/** An alert's `{message, fix}` in this device's language (from its code and params; a card
 * alert's `CODE:kind` texts when its kind has its own, as an award card does). */
export function alertText(alert) {
  const alerts = codes().alerts || {};
  const pair = alerts[`${alert.code}:${alert.params && alert.params.kind}`] || alerts[alert.code];
  if (lang === "en" || !pair || !alert.params) return { message: alert.message, fix: alert.fix };
  const params = words(alert.params);
  return { message: sentence(t(pair[0], params)), fix: sentence(t(pair[1], params)) };
}

/** `text` with its first letter in capitals: a word that opens a sentence may start small
 * ("the $2 one-seat tile …", a theater tile named as it looks). */
export function sentence(text) {
  return text ? text.charAt(0).toUpperCase() + text.slice(1) : text;
}

/** Fill the header's language picker; choosing a language reloads the catalog and calls
 * `then` (which redraws the screen). */
export function mountPicker(select, then) {
  // short codes keep the header on one line; each option's title and lang name it in full
  select.innerHTML = Object.entries(known).map(([code, name]) =>
    `<option value="${code}" lang="${code}" title="${name}"${code === lang ? " selected" : ""}>${code.toUpperCase()}</option>`).join("");
  select.title = known[lang] || lang;
  select.setAttribute("aria-label", t("Language"));
  select.onchange = async () => {
    await loadLanguage(select.value);
    then();
  };
}

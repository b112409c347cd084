// The page's router and shared context. One page serves every screen: /setup (and /),
// /table/<id>, a table's replay board at /table/<id>/replay, /phone/<id>/<seat>#token=...,
// and the archive (/archive, a game with its replay board at /archive/<id>, a player's page
// at /archive/player/<name>); moving between them is a history change, never a reload, and
// each screen lives on Socket.IO pushes from then on.

import { ApiError, call } from "./api.js";
import { loadLanguage, mountPicker, t, useGame } from "./i18n.js";
// the official Socket.IO client, pinned in web/vendor/ (a literal path, so the wheel's test
// finds it): WebSocket first, HTTP long-polling where a network or proxy refuses WebSockets,
// and emits made while the link is down are sent once it is back
import { io } from "../vendor/socket.io-client-4.8.4/socket.io.esm.min.js";

const root = document.getElementById("app");
const socket = io({ transports: ["websocket", "polling"], tryAllTransports: true,
  reconnectionDelay: 500, reconnectionDelayMax: 5000 });
window.popcornSocket = socket; // for the browser tests: its transport, and a way to drop it
const linkBox = document.getElementById("link");
socket.on("connect", () => { linkBox.textContent = linkBox.title = t("live"); linkBox.className = "link ok"; });
socket.on("disconnect", () => { linkBox.textContent = linkBox.title = t("reconnecting…"); linkBox.className = "link err"; });

/** The words of the page around the screens (header, PIN dialog), in this language. */
function translatePage() {
  document.getElementById("pin-cancel").textContent = t("Cancel");
  document.getElementById("pin-ok").textContent = t("OK");
  if (!socket.connected) linkBox.textContent = linkBox.title = t("connecting…");
  else linkBox.textContent = linkBox.title = t("live");
}

/** Ask for a PIN in a dialog; resolves to the PIN, or null when cancelled. OK is the form's
 * only submit button, so Enter (a tablet keyboard's Go) sends the PIN; Cancel and Escape
 * close the dialog with no PIN. */
function askPin(label = t("Table PIN:")) {
  const dialog = document.getElementById("pin-dialog");
  const input = document.getElementById("pin-input");
  document.getElementById("pin-label").textContent = label;
  document.getElementById("pin-cancel").onclick = () => dialog.close("cancel");
  input.value = "";
  dialog.returnValue = ""; // Escape keeps the last value: a PIN sent before is no answer now
  return new Promise((resolve) => {
    dialog.onclose = () => resolve(dialog.returnValue === "ok" && input.value.trim() ? input.value.trim() : null);
    dialog.showModal();
    input.focus();
  });
}

/** A short message at the bottom of the screen; kind is "ok", "error" or "info". */
function toast(message, kind = "info") {
  const box = document.createElement("div");
  box.className = `toast ${kind}`;
  box.textContent = message;
  document.getElementById("toasts").append(box);
  setTimeout(() => box.remove(), kind === "error" ? 8000 : 3500);
}

/** The screens of a game that brings none of its own (or not this one): its views as they
 * come (generic.js). */
const GENERIC = { table: () => import("./generic.js"), phone: () => import("./generic.js"),
  replay: () => import("./generic.js") };

let gamesCache = null;
/** The hosted games as GET /api/games lists them, by id (asked once; again after a failure). */
function hostedGames() {
  if (!gamesCache) {
    gamesCache = call("/api/games").then((list) => Object.fromEntries(list.map((g) => [g.id, g])));
    gamesCache.catch(() => { gamesCache = null; });
  }
  return gamesCache;
}

/** A game's screens, by the table's `game`: its table screen (a module exporting
 * `mountTable(root, ctx, tableId)`), its phone screen (`mountPhone(root, ctx, tableId,
 * seat)`) and its replay board (`replayScreen(ctx)`, see replay.js), each loaded when first
 * shown from where the hub serves the game's own files (GET /api/games: `screens`, under
 * /games/<id>/), and its styles linked; the generic screen for a role it does not bring.
 * The game's words come first from then on (i18n.js `useGame`).
 * Popcorn and B Movies are loaded this way too: nothing here names a game. */
async function screensOf(game) {
  useGame(game); // its words first, from here until the next screen
  const info = (await hostedGames())[game];
  const urls = (info && info.screens) || {};
  for (const href of urls.styles || []) linkStyle(href);
  const own = (role) => (urls[role] ? () => import(urls[role]) : GENERIC[role]);
  return { table: own("table"), phone: own("phone"), replay: own("replay") };
}

/** Link a game's stylesheet once. */
function linkStyle(href) {
  if (document.head.querySelector(`link[data-game-style="${CSS.escape(href)}"]`)) return;
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = href;
  link.dataset.gameStyle = href;
  document.head.append(link);
}

let unmount = null;

/** Show the screen for the current address. */
async function route() {
  if (unmount) unmount();
  unmount = null;
  socket.off(); // the last screen's listeners
  socket.on("connect", () => { linkBox.textContent = linkBox.title = t("live"); linkBox.className = "link ok"; });
  socket.on("disconnect", () => { linkBox.textContent = linkBox.title = t("reconnecting…"); linkBox.className = "link err"; });
  document.getElementById("facts").innerHTML = "";
  document.getElementById("banners").innerHTML = "";
  root.innerHTML = "";
  useGame(null);
  const parts = location.pathname.split("/").filter(Boolean);
  const ctx = { socket, catalog: await catalog(), askPin, toast, go, screens: screensOf };
  if (parts[0] === "table" && parts[1] && parts[2] === "replay") {
    unmount = await (await import("./replay_live.js")).mountLiveReplay(root, ctx, parts[1]);
  } else if (parts[0] === "table" && parts[1]) {
    const screens = await screensOf(await gameOf(parts[1]));
    unmount = (await screens.table()).mountTable(root, ctx, parts[1]);
  } else if (parts[0] === "phone" && parts[1]) {
    const screens = await screensOf(await gameOf(parts[1]));
    unmount = (await screens.phone()).mountPhone(root, ctx, parts[1], Number(parts[2]));
  } else if (parts[0] === "archive") {
    unmount = await mountArchiveScreen(parts.slice(1).map(decodeURIComponent), ctx);
  } else {
    unmount = (await import("./setup.js")).mountSetup(root, ctx);
  }
  if (socket.connected) for (const fn of socket.listeners("connect")) fn(); // a screen joins its room
}

/** The archive's screens: the list, a player's page (`player/<name>`), a game (`<id>`). */
async function mountArchiveScreen(parts, ctx) {
  if (parts[0] === "player" && parts.length > 1) {
    return (await import("./archive_player.js")).mountArchivePlayer(root, ctx, parts.slice(1).join("/"));
  }
  if (parts[0]) return (await import("./archive_game.js")).mountArchiveGame(root, ctx, parts[0]);
  return (await import("./archive.js")).mountArchive(root, ctx);
}

/** Go to another screen without reloading the page. */
function go(path) {
  history.pushState(null, "", path);
  loadLanguage().then(() => {
  translatePage();
  mountPicker(document.getElementById("lang-picker"), () => { translatePage(); route(); });
  route();
});
}

/** The game a table plays ("popcorn" or "b-movies"); Popcorn when the hub cannot say, so
 * Popcorn's screen shows its own error for a table that does not exist. The first screen's
 * answer was asked for as the page started (askEarly). */
async function gameOf(tableId) {
  if (early && early.tableId === tableId) {
    const { game } = early;
    early = null;
    return game;
  }
  return askGame(tableId);
}

async function askGame(tableId) {
  try {
    const table = await call(`/api/tables/${encodeURIComponent(tableId)}`);
    return table.game || (table.view && table.view.game) || "popcorn";
  } catch {
    return "popcorn";
  }
}

let catalogCache = null;
/** The card catalog a hosted game serves (Popcorn's cards, GET /api/catalog: its route, not
 * the hub's), which its screens and the setup screen's card tags read; empty on a hub that
 * hosts no game with one. Asked once (again after a failure). */
function catalog() {
  if (!catalogCache) {
    catalogCache = loadCatalog();
    catalogCache.catch(() => { catalogCache = null; });
  }
  return catalogCache;
}

async function loadCatalog() {
  let found;
  try {
    found = await call("/api/catalog");
  } catch (err) {
    if (!(err instanceof ApiError) || err.status !== 404) throw err;
    found = { movies: [], theaters: [], awards: [] };
  }
  found.byId = {};
  for (const item of [...found.movies, ...found.theaters, ...found.awards]) {
    found.byId[item.id] = item;
  }
  return found;
}

let early = null;
/** Ask at once, side by side with the language, what the first screen will ask for one
 * after another: the catalog, the hosted games and, on a table's or a phone's address, the
 * table's game (each round trip saved is one the slow Wi-Fi of a phone makes shorter). */
function askEarly() {
  catalog().catch(() => {});
  hostedGames().catch(() => {});
  const parts = location.pathname.split("/").filter(Boolean);
  if ((parts[0] === "table" && parts.length === 2) || parts[0] === "phone") {
    early = { tableId: parts[1], game: askGame(parts[1]) };
  }
}

window.addEventListener("popstate", route);
document.addEventListener("click", (event) => {
  const a = event.target.closest("a[data-nav]");
  if (a && a.origin === location.origin) {
    event.preventDefault();
    go(a.pathname + a.hash);
  }
});
askEarly();
loadLanguage().then(() => {
  translatePage();
  mountPicker(document.getElementById("lang-picker"), () => { translatePage(); route(); });
  route();
});

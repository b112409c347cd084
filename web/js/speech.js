// Spoken words at a table, as a DGT board with LiveChess calls out an illegal move: the
// tablet says each reader alert (and whatever moment its game adds) through the browser's
// speech synthesis. Off by default; the header's Voice toggle turns it on for this device
// (localStorage `popcorn:speak`), on every game's table screen. Every sentence is in this
// device's language, and the voice is asked for that language.
//
// A game's table screen calls `mountSpeech(ctx, tableId, onState)`: the shell speaks the
// table's alerts, and `onState(view)` (optional) returns what the game says about a new
// state, or nothing (Popcorn: the last-round notice; B Movies: a vote's outcome).

import { alertText, language, t } from "./i18n.js";

const KEY = "popcorn:speak";

/** Whether this device speaks. */
export function speechOn() {
  return localStorage.getItem(KEY) === "on";
}

/** Say `text`, if speech is on and the browser can speak. */
export function say(text) {
  if (!text || !speechOn() || !window.speechSynthesis) return;
  const utterance = new SpeechSynthesisUtterance(text);
  utterance.lang = language();
  window.speechSynthesis.speak(utterance);
}

/** The sentence for a reader alert: "Ana: <the alert's message>", in this language. */
export function alertSpoken(alert, names) {
  const who = names && alert.player !== null && alert.player !== undefined ? names[alert.player] : "";
  const message = alertText(alert).message;
  return who ? t("{name}: {text}", { name: who, text: message }) : message;
}

function drawToggle(button) {
  const on = speechOn();
  button.textContent = on ? t("Voice: on") : t("Voice: off");
  button.setAttribute("aria-pressed", String(on));
}

/** Show the header's Voice toggle, speak the table's alerts, and on each `state` push what
 * `onState(view)` returns. Returns the unmount function (it hides the toggle). */
export function mountSpeech(ctx, tableId, onState = null) {
  const button = document.getElementById("speak-toggle");
  button.hidden = false;
  drawToggle(button);
  button.onclick = () => {
    localStorage.setItem(KEY, speechOn() ? "off" : "on");
    drawToggle(button);
    if (!speechOn() && window.speechSynthesis) window.speechSynthesis.cancel();
  };
  let names = null;
  ctx.socket.on("state", (data) => {
    if (data.table !== tableId) return;
    names = data.view.names;
    if (onState) say(onState(data.view));
  });
  ctx.socket.on("alert", (data) => data.table === tableId && say(alertSpoken(data.alert, names)));
  return () => { button.hidden = true; button.onclick = null; };
}

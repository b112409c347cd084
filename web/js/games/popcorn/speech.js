// Alerts spoken aloud, as a DGT board with LiveChess calls out an illegal move. The tablet
// speaks each reader alert and the last-round notice through the browser's speech synthesis.
// Off by default; the header's toggle turns it on for this device (localStorage). Every
// spoken sentence comes from `spokenText`, in this device's language, and the voice speaks
// that language.

import { alertText, language, t } from "../../i18n.js";

const KEY = "popcorn:speak";

/** Whether this device speaks alerts. */
export function speechOn() {
  return localStorage.getItem(KEY) === "on";
}

/** The sentence the tablet says for an event: `{kind: "alert", alert, names}` or
 * `{kind: "last_round"}`, in this device's language. */
export function spokenText(event) {
  if (event.kind === "last_round") return t("Last round: the Final Showing card is out.");
  const { alert, names } = event;
  const who = names && alert.player !== null && alert.player !== undefined ? names[alert.player] : "";
  const message = alertText(alert).message;
  return who ? t("{name}: {text}", { name: who, text: message }) : message;
}

/** Say an event's sentence, if speech is on and the browser can speak. */
export function speak(event) {
  if (!speechOn() || !window.speechSynthesis) return;
  const utterance = new SpeechSynthesisUtterance(spokenText(event));
  utterance.lang = language();
  window.speechSynthesis.speak(utterance);
}

function drawToggle(button) {
  const on = speechOn();
  button.textContent = on ? t("Voice: on") : t("Voice: off");
  button.setAttribute("aria-pressed", String(on));
}

/** Show the header's voice toggle, and speak the table's alerts and its last-round notice
 * (on the round it begins, not on a page opened during it). Returns the unmount function. */
export function mountSpeech(ctx, tableId) {
  const button = document.getElementById("speak-toggle");
  button.hidden = false;
  drawToggle(button);
  button.onclick = () => {
    localStorage.setItem(KEY, speechOn() ? "off" : "on");
    drawToggle(button);
    if (!speechOn() && window.speechSynthesis) window.speechSynthesis.cancel();
  };
  let names = null;
  let lastRound = null;
  ctx.socket.on("state", (data) => {
    if (data.table !== tableId) return;
    const v = data.view;
    names = v.names;
    const now = Boolean(v.last_round || v.final_revealed) && v.phase !== "over";
    if (lastRound === false && now) speak({ kind: "last_round" });
    lastRound = now;
  });
  ctx.socket.on("alert", (data) => data.table === tableId && speak({ kind: "alert", alert: data.alert, names }));
  return () => { button.hidden = true; button.onclick = null; };
}

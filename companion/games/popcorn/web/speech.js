// What Popcorn's table screen says aloud besides the reader alerts (the shell's speech.js
// speaks those, with the header's Voice toggle): the last-round notice, once, when the round
// begins. Every spoken sentence comes from `spokenText`, in this device's language.

import { t } from "../../web/js/i18n.js";
import { alertSpoken, mountSpeech as mountVoice } from "../../web/js/speech.js";

/** The sentence the tablet says for an event: `{kind: "alert", alert, names}` or
 * `{kind: "last_round"}`, in this device's language. */
export function spokenText(event) {
  if (event.kind === "last_round") return t("Last round: the Final Showing card is out.");
  return alertSpoken(event.alert, event.names);
}

/** Show the header's voice toggle, and speak the table's alerts and its last-round notice
 * (on the round it begins, not on a page opened during it). Returns the unmount function. */
export function mountSpeech(ctx, tableId) {
  let lastRound = null;
  return mountVoice(ctx, tableId, (v) => {
    const now = Boolean(v.last_round || v.final_revealed) && v.phase !== "over";
    const begins = lastRound === false && now;
    lastRound = now;
    return begins ? spokenText({ kind: "last_round" }) : "";
  });
}

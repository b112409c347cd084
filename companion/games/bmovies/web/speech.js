// What a B Movies table screen says aloud besides the reader alerts (the shell's speech.js
// speaks those, with the header's Voice toggle, as on Popcorn's screen): each vote's outcome
// once it is revealed, "The movie is made: 3 Yes against 1 No.", in this device's language.

import { t } from "../../web/js/i18n.js";

/** The sentence for a revealed vote (`{yes, no, made}`, from the view's reveal or a finished
 * turn of its history). */
export function outcomeSpoken(turn) {
  return turn.made ? t("The movie is made: {yes} Yes against {no} No.", { yes: turn.yes, no: turn.no })
    : t("The pitch is rejected: {no} No against {yes} Yes.", { yes: turn.yes, no: turn.no });
}

/** A `state` hook for the shell's `mountSpeech`: the outcome of each vote revealed after the
 * page opened, said once (a reveal, then its turn in the history, count as one; Undo says
 * nothing). */
export function outcomeSpeaker() {
  let revealed = null; // votes revealed so far, as of the last state seen
  return (view) => {
    const now = view.history.length + (view.reveal ? 1 : 0);
    const fresh = revealed !== null && now > revealed;
    revealed = now;
    const turn = view.reveal || view.history[view.history.length - 1];
    return fresh && turn ? outcomeSpoken(turn) : "";
  };
}

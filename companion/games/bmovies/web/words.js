// B Movies' words, in this device's language: the vote cards, the roles, the studios, a
// number of Title cards. The hub's views carry ids ("yes", "yes!", "no", "pitch"...); the
// screens show these words.

import { t, tn } from "../../web/js/i18n.js";
import { esc } from "../../web/js/labels.js";

/** A vote card's word: Yes, Yes! or No. */
export function voteWord(vote) {
  const words = { yes: t("Yes"), "yes!": t("Yes!"), no: t("No") };
  return words[vote] || String(vote ?? "");
}

/** A vote card as a small colored mark (the word, never the color alone). */
export function voteHtml(vote) {
  const cls = vote === "no" ? "no" : vote === "yes!" ? "yesbang" : "yes";
  return `<span class="bm-vote ${cls}" data-vote="${esc(vote)}">${esc(voteWord(vote))}</span>`;
}

/** A studio's name (the cards are numbered 1 to 6 on the table). */
export function studioWord(studio) {
  return studio === null || studio === undefined ? "—" : t("Studio {n}", { n: studio + 1 });
}

/** "3 cards" for a movie or a pitch. */
export function cardsWord(n) {
  return tn("{n} card", "{n} cards", n);
}

/** The Producer / Screenwriter role words. */
export function roleWord(role) {
  return role === "screenwriter" ? t("Screenwriter") : t("Producer");
}

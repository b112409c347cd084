// A B Movies player's card and the bucket, as the tablet shows them (table.js) and the
// replay board draws them (replay.js): each player's token COUNT (never a value: the view
// has none), the draws they owe, the movies they made, their roles; the tokens left.

import { t, tn } from "../../web/js/i18n.js";
import { esc } from "../../web/js/labels.js";
import { cardsWord, roleWord } from "./words.js";

/** Player `p` (one of the public view's `players`) of `v`, the public view; `extra`: HTML the
 * tablet adds to the player's line (its pile check). */
export function playerHtml(v, p, extra = "") {
  const writer = v.phase !== "over" && v.screenwriter === p.seat;
  const first = v.first_player === p.seat;
  const badges = [
    writer ? `<span class="badge writer" data-testid="bm-screenwriter">${esc(roleWord("screenwriter"))}</span>` : "",
    first ? `<span class="badge" data-testid="bm-first-player">${esc(t("first player"))}</span>` : "",
    v.phase === "vote" && v.producers.includes(p.seat)
      ? `<span class="badge ${p.voted ? "ok" : ""}" data-testid="bm-voted-${p.seat}" data-voted="${p.voted}">${esc(p.voted ? t("voted") : t("voting…"))}</span>` : "",
  ].join("");
  const movies = p.movies.length
    ? `<span class="muted">${esc(tn("{n} movie made", "{n} movies made", p.movies.length))}</span>
      <ul class="bm-movies">${p.movies.map((m) => `<li>${esc(cardsWord(m.cards))}${m.title ? ` <q>${esc(m.title)}</q>` : ""}</li>`).join("")}</ul>`
    : `<span class="muted">${esc(t("no movie made yet"))}</span>`;
  const faceDown = t("Popcorn tokens (face down)");
  // a Yes! card is played once a game: say so in words, not "used"
  const yesBang = p.has_yes_bang ? "" : `<span class="muted bm-used" data-testid="bm-yes-bang-played-${p.seat}">${esc(t("Yes! card already played"))}</span>`;
  return `<article class="card bm-player${writer ? " writer" : ""}" data-testid="bm-player-${p.seat}">
      <header><span class="seatno">${p.seat + 1}</span> <b class="bm-name">${esc(p.name)}</b> ${badges}</header>
      <div class="bm-stats">
        <span class="bm-stat" title="${esc(faceDown)}"><span class="bm-token" aria-hidden="true">?</span>
          <b data-testid="bm-tokens-${p.seat}">${esc(String(p.tokens))}</b> ${esc(tn("token", "tokens", p.tokens))}</span>
        ${p.owed ? `<span class="bm-owed" data-testid="bm-owed-${p.seat}" data-owed="${p.owed}">${esc(tn("owes {n} draw", "owes {n} draws", p.owed))}</span>` : ""}
        ${yesBang}
        ${extra}
      </div>
      <div class="bm-made" data-testid="bm-movies-${p.seat}" data-count="${p.movies.length}">
        ${movies}</div>
    </article>`;
}

/** The bucket: how many tokens are left in it (face down). */
export function bucketHtml(v) {
  return `<div class="card bm-bucket" data-testid="bm-bucket" data-count="${v.bucket}">
      <span class="bm-token big" aria-hidden="true">?</span>
      <span>${esc(tn("{n} token left in the bucket", "{n} tokens left in the bucket", v.bucket))}</span></div>`;
}

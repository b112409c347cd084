// B Movies' replay board (web/js/replay.js asks for it through app.js's SCREENS): the
// players and the bucket as the tablet draws them (players.js), and beside them the turn as
// it stood: the pitch waited for, who has voted (never what, until the reveal), the reveal
// with every vote and the outcome, the draws owed, and at the end the Final Cut (turn.js,
// final_cut.js). Read-only: no button here sends anything. A move in words, in this
// device's language; a vote says only that it was cast, until the last one reveals them all.

import { t, tn } from "../../web/js/i18n.js";
import { esc } from "../../web/js/labels.js";
import { bucketHtml, playerHtml } from "./players.js";
import { cardsWord } from "./words.js";
import { finalCutHtml } from "./final_cut.js";
import { drawsHtml, lastTurnHtml, pitchSummary, revealHtml } from "./turn.js";

const nameOf = (view, seat) => (view && view.players[seat] ? view.players[seat].name : `#${Number(seat) + 1}`);

/** The producers of the pitch under vote: voted or choosing, never what. */
function votersHtml(v) {
  const done = v.producers.filter((s) => v.players[s].voted).length;
  const rows = v.producers.map((seat) => {
    const p = v.players[seat];
    return `<li class="bm-voter${p.voted ? " voted" : ""}" data-testid="bm-voter-${seat}" data-voted="${p.voted}">
        <span class="bm-check" aria-hidden="true">${p.voted ? "✓" : "…"}</span>
        <b>${esc(p.name)}</b> <span class="muted">${esc(p.voted ? t("voted") : t("choosing…"))}</span></li>`;
  }).join("");
  return `<div class="bm-panel bm-voting" data-testid="bm-voting">
      <h2>${esc(t("The producers vote"))}</h2>
      ${pitchSummary(v)}
      <p class="bm-count" data-testid="bm-voted-count">${esc(t("{n} of {count} have voted", { n: done, count: v.producers.length }))}</p>
      <ul class="bm-voters">${rows}</ul></div>`;
}

/** The turn at this position, read-only. */
function nowHtml(v) {
  if (v.phase === "over") {
    return v.final_cut ? finalCutHtml(v.final_cut, v.players.map((p) => p.name), v.variant === "hidden") : "";
  }
  if (v.phase === "setup") return `<p class="muted">${esc(t("The studios are dealt face down."))}</p>`;
  if (v.phase === "pitch") {
    return `${lastTurnHtml(v)}<div class="bm-panel bm-pitch" data-testid="bm-pitch">
        <h2>${esc(t("{name} pitches a movie", { name: nameOf(v, v.screenwriter) }))}</h2></div>`;
  }
  if (v.phase === "vote") return votersHtml(v);
  return revealHtml(v) + drawsHtml(v);
}

/** B Movies' replay module: `boardHtml`, `factsHtml`, `moveWords`, `movesWords`. */
export function replayScreen() {
  return {
    boardHtml(v) {
      const over = v.phase === "over";
      return `<div class="bm-grid${over ? " over" : ""}" data-testid="bm-table" data-phase="${esc(v.phase)}">
          <section class="bm-players" data-testid="bm-players">${v.players.map((p) => playerHtml(v, p)).join("")}
            ${bucketHtml(v)}</section>
          <section class="card bm-now" data-testid="bm-now">${nowHtml(v)}</section>
        </div>`;
    },

    /** The round of rounds, the clapboards left, the screenwriter. */
    factsHtml(v) {
      const round = v.phase === "over" ? t("Final Cut") : t("Round {round} of {rounds}", { round: v.round, rounds: v.rounds });
      const writer = v.players[v.screenwriter];
      return `<span class="fact"><b>${esc(round)}</b></span>
        <span class="fact">${esc(tn("{n} clapboard left", "{n} clapboards left", v.clapboards))}</span>
        ${writer && v.phase !== "over" ? `<span class="fact">${esc(t("Screenwriter:"))} <b>${esc(writer.name)}</b></span>` : ""}`;
    },

    /** The move that led from `before` to `after`: a vote is told as cast, and the last
     * one with the reveal it made. */
    moveWords(step, before, after) {
      const name = nameOf(after, step.player);
      switch (step.move) {
        case "pitch": return step.title
          ? t("{name} pitches “{title}”: {cards}.", { name, title: step.title, cards: cardsWord(step.cards) })
          : t("{name} pitches a movie: {cards}.", { name, cards: cardsWord(step.cards) });
        case "vote": {
          const revealed = before && before.phase === "vote" && after.phase !== "vote" && after.reveal;
          if (!revealed) return t("{name} votes, face down.", { name });
          const r = after.reveal;
          return t("{name} votes, the last vote: every vote is revealed, Yes {yes} · No {no}: the movie is {outcome}.",
            { name, yes: r.yes, no: r.no, outcome: r.made ? t("made") : t("rejected") });
        }
        case "draw_token": return t("{name} draws a popcorn token from the bucket (face down).", { name });
        case "deal_studios": return t("The studios are dealt face down.");
        default: return `${name}: ${step.move}`;
      }
    },

    /** Moves of a player in a few words (B Movies has no analysis). */
    movesWords(moves) {
      return moves.map((m) => m.move).join("; ");
    },
  };
}

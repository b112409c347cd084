// B Movies' Final Cut (the end of the game), drawn from the hub's FinalCut JSON (the view's
// `final_cut`, the same as GET /api/tables/<id>/scores). First what the table wants to know:
// who won, or that the top sides tied and how the rulebook's tie-break settled it (the
// longest movie made, else a shared victory), and every side's total, highest first (in
// Hidden Team the teams formed by a shared studio, their scores added, and the single
// players whose score is doubled). Then the details: every player's tokens revealed with
// their total, the movies they made (cards and typed titles) and their points, the score
// and, in Hidden Team, the studio. Pure HTML from the JSON and the names; nothing is
// computed here but the order of the totals.

import { t, tn } from "../../web/js/i18n.js";
import { esc } from "../../web/js/labels.js";
import { cardsWord, studioWord } from "./words.js";

function tokensHtml(values) {
  if (!values.length) return `<span class="muted">${esc(t("no tokens"))}</span>`;
  return values.map((v) => `<span class="bm-token v${esc(v)}">${esc(v)}</span>`).join("");
}

function moviesHtml(movies) {
  if (!movies.length) return `<span class="muted">${esc(t("no movie made"))}</span>`;
  return `<ul class="bm-movies">${movies.map((m) => `<li><b>${esc(cardsWord(m.cards))}</b>${m.title ? ` <q>${esc(m.title)}</q>` : ""}</li>`).join("")}</ul>`;
}

function sideName(side, names) {
  const members = side.members.map((s) => names[s]).join(" + ");
  return side.members.length > 1 ? t("Team {studio} ({members})", { studio: studioWord(side.studio), members }) : members;
}

/** The headline: the winner and their total, or a tie named as a tie with the tie-break
 * that settled it (the rulebook's: the longest movie made, else the victory is shared). */
function winnersHtml(fc, names) {
  const won = fc.winners.map((i) => fc.sides[i]);
  const best = won[0].total;
  const winner = won.map((side) => sideName(side, names)).join(t(" and "));
  if (fc.tie_break === "none") {
    const head = tn("Winner: {names} with {n} point", "Winner: {names} with {n} points", best, { names: winner });
    return `<div class="bm-winners" data-testid="fc-winners" data-tie="none"><span class="bm-trophy" aria-hidden="true">★</span>
      <b>${esc(head)}</b></div>`;
  }
  // the tied sides and their totals are listed right below: the headline says it is a tie
  const head = tn("Tie at {n} point", "Tie at {n} points", best);
  const why = fc.tie_break === "longest_movie"
    ? tn("{winner} wins the tie-break: the longest movie made ({n} Title card).", "{winner} wins the tie-break: the longest movie made ({n} Title cards).", won[0].longest, { winner })
    : tn("{names} share the victory: their longest movies are as long ({n} Title card).", "{names} share the victory: their longest movies are as long ({n} Title cards).", won[0].longest, { names: winner });
  return `<div class="bm-winners tie" data-testid="fc-winners" data-tie="${esc(fc.tie_break)}"><span class="bm-trophy" aria-hidden="true">★</span>
      <div><b>${esc(head)}</b><div class="bm-tie" data-testid="fc-tie-break" data-tie="${esc(fc.tie_break)}">${esc(why)}</div></div></div>`;
}

/** Every side's total, highest first, right under the headline: the totals are what the
 * table reads first. In Hidden Team a side is a team (scores added) or a single player
 * (score doubled); with a tie, each tied side's longest movie, which broke it. */
function totalsHtml(fc, names, hidden) {
  const order = fc.sides.map((side, i) => i).sort((a, b) => fc.sides[b].total - fc.sides[a].total || a - b);
  const best = Math.max(...fc.sides.map((side) => side.total));
  const rows = order.map((i) => {
    const side = fc.sides[i];
    const kind = !hidden ? "" : side.members.length > 1 ? t("team: scores added")
      : side.doubled ? t("single: score doubled") : t("single");
    const won = fc.winners.includes(i);
    const longest = fc.tie_break !== "none" && side.total === best
      ? `<span class="muted" data-testid="fc-longest-${i}">${esc(tn("longest movie: {n} card", "longest movie: {n} cards", side.longest))}</span>` : "";
    const studio = hidden ? `<span class="bm-studio">${esc(studioWord(side.studio))}</span>` : "";
    return `<li class="bm-side${won ? " won" : ""}${side.doubled ? " doubled" : ""}" data-testid="fc-side-${i}"
        data-members="${esc(side.members.join(","))}" data-doubled="${side.doubled}">
        ${studio}<span class="grow"><b>${esc(side.members.map((s) => names[s]).join(" + "))}</b>
        ${kind ? `<span class="muted">(${esc(kind)})</span>` : ""} ${longest}</span>
        <span class="bm-side-total" data-testid="fc-total-${i}">${esc(String(side.total))}</span>
        ${side.doubled ? `<span class="badge">×2</span>` : ""}
      </li>`;
  }).join("");
  const title = hidden ? t("Studios and teams") : t("Totals");
  return `<h3>${esc(title)}</h3><ol class="bm-sides" data-testid="fc-sides">${rows}</ol>`;
}

function playerRow(p, names, hidden, winnerSeats) {
  const studio = hidden ? `<td data-testid="fc-studio-${p.seat}">${esc(studioWord(p.studio))}</td>` : "";
  return `<tr data-testid="fc-player-${p.seat}"${winnerSeats.has(p.seat) ? ' class="won"' : ""}>
      <th scope="row">${esc(names[p.seat] ?? `#${p.seat + 1}`)}</th>
      ${studio}
      <td><div class="bm-tokens" data-testid="fc-tokens-${p.seat}">${tokensHtml(p.tokens)}</div>
        <div class="muted">${esc(t("= {n}", { n: p.token_total }))}</div></td>
      <td>${moviesHtml(p.movies)}<div class="muted">${esc(tn("+{n} point", "+{n} points", p.movie_points))}</div></td>
      <td class="bm-score" data-testid="fc-score-${p.seat}">${esc(String(p.score))}</td>
    </tr>`;
}

/** The Final Cut's HTML; `names` are the players' names by seat, `hidden` the variant. */
export function finalCutHtml(fc, names, hidden) {
  if (!fc) return "";
  const winnerSeats = new Set(fc.winners.flatMap((i) => fc.sides[i].members));
  const studioHead = hidden ? `<th scope="col">${esc(t("Studio"))}</th>` : "";
  return `<section class="card bm-final" data-testid="final-cut">
      <h2>${esc(t("Final Cut"))}</h2>
      ${winnersHtml(fc, names)}
      ${totalsHtml(fc, names, hidden)}
      <h3>${esc(t("Tokens and movies"))}</h3>
      <table class="bm-fc-table">
        <thead><tr><th scope="col">${esc(t("Player"))}</th>${studioHead}
          <th scope="col">${esc(t("Popcorn tokens"))}</th><th scope="col">${esc(t("Movies made"))}</th>
          <th scope="col">${esc(t("Score"))}</th></tr></thead>
        <tbody>${fc.players.map((p) => playerRow(p, names, hidden, winnerSeats)).join("")}</tbody>
      </table>
    </section>`;
}

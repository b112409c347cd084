// B Movies' Final Cut (the end of the game), drawn from the hub's FinalCut JSON (the view's
// `final_cut`, the same as GET /api/tables/<id>/scores): every player's tokens revealed with
// their total, the movies they made (cards and typed titles) and their points, the score; in
// Hidden Team, each player's studio and the sides: teams formed by a shared studio (their
// scores added) and the single players whose score is doubled. Then the winner(s) and the
// tie-break the rules used. Pure HTML from the JSON and the names; nothing is computed here.

import { t, tn } from "../../i18n.js";
import { esc } from "../../labels.js";
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
  return side.members.length > 1 ? t("Team {studio}: {members}", { studio: studioWord(side.studio), members }) : members;
}

function winnersHtml(fc, names) {
  const won = fc.winners.map((i) => sideName(fc.sides[i], names));
  const head = tn("Winner: {names}", "Winners: {names}", won.length, { names: won.join(", ") });
  const tie = {
    none: "",
    longest_movie: t("Tie broken by the longest movie made (most Title cards)."),
    shared: t("Still tied after the longest movie: the victory is shared."),
  }[fc.tie_break] ?? "";
  return `<div class="bm-winners" data-testid="fc-winners"><span class="bm-trophy" aria-hidden="true">★</span>
      <b>${esc(head)}</b></div>
    ${tie ? `<p class="bm-tie" data-testid="fc-tie-break" data-tie="${esc(fc.tie_break)}">${esc(tie)}</p>` : ""}`;
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

function sidesHtml(fc, names) {
  const rows = fc.sides.map((side, i) => {
    const kind = side.members.length > 1 ? t("team: scores added")
      : side.doubled ? t("single: score doubled") : t("single");
    const won = fc.winners.includes(i);
    return `<li class="bm-side${won ? " won" : ""}${side.doubled ? " doubled" : ""}" data-testid="fc-side-${i}"
        data-members="${esc(side.members.join(","))}" data-doubled="${side.doubled}">
        <span class="bm-studio">${esc(studioWord(side.studio))}</span>
        <span class="grow"><b>${esc(side.members.map((s) => names[s]).join(" + "))}</b> <span class="muted">(${esc(kind)})</span></span>
        <span class="bm-side-total">${esc(String(side.total))}</span>
        ${side.doubled ? `<span class="badge">×2</span>` : ""}
      </li>`;
  }).join("");
  return `<h3>${esc(t("Studios and teams"))}</h3><ol class="bm-sides" data-testid="fc-sides">${rows}</ol>`;
}

/** The Final Cut's HTML; `names` are the players' names by seat, `hidden` the variant. */
export function finalCutHtml(fc, names, hidden) {
  if (!fc) return "";
  const winnerSeats = new Set(fc.winners.flatMap((i) => fc.sides[i].members));
  const studioHead = hidden ? `<th scope="col">${esc(t("Studio"))}</th>` : "";
  return `<section class="card bm-final" data-testid="final-cut">
      <h2>${esc(t("Final Cut"))}</h2>
      ${winnersHtml(fc, names)}
      <table class="bm-fc-table">
        <thead><tr><th scope="col">${esc(t("Player"))}</th>${studioHead}
          <th scope="col">${esc(t("Popcorn tokens"))}</th><th scope="col">${esc(t("Movies made"))}</th>
          <th scope="col">${esc(t("Score"))}</th></tr></thead>
        <tbody>${fc.players.map((p) => playerRow(p, names, hidden, winnerSeats)).join("")}</tbody>
      </table>
      ${hidden ? sidesHtml(fc, names) : ""}
    </section>`;
}

// The final scoring table: each player's bucket, money, trophy and awards, the total, the
// winner (or the shared victory) and the advertising-token choices the scorer made.

import { esc } from "./labels.js";

const USES = { unused: "not used", count_as: "counted as", return_white: "returned a white guest" };

/** The scores section of the public view as a table, with the record export. */
export function scoresHtml(view, catalog) {
  const scores = view.scores;
  if (!scores) return "<p>Scoring…</p>";
  const players = scores.players;
  const awardIds = [...new Set(players.flatMap((p) => Object.keys(p.breakdown.awards)))];
  const title = (id) => (catalog.byId[id] ? catalog.byId[id].title : id);
  const row = (label, cell, key) => `<tr data-testid="row-${key}"><th>${esc(label)}</th>${players.map((p, i) =>
    `<td data-testid="score-${i}-${key}">${cell(p)}</td>`).join("")}</tr>`;
  const winners = scores.winners;
  const verdict = winners.length > 1 ? `Shared victory: ${winners.map(esc).join(" and ")}`
    : `Winner: ${esc(winners[0])}`;
  const tokens = players.map((p) => p.ad_tokens_used.length ? `<li><b>${esc(p.name)}</b>: ${p.ad_tokens_used.map((u) =>
    `${esc(u.space)} token ${USES[u.use] || u.use}${u.color ? " " + esc(u.color) : ""}`).join("; ")}</li>` : "").join("");
  return `<h2 data-testid="winner">${verdict}</h2>
    <table class="scores" data-testid="scores-table">
      <thead><tr><th></th>${players.map((p) => `<th>${esc(p.name)}</th>`).join("")}</tr></thead>
      <tbody>
        ${row("Bucket", (p) => p.breakdown.bucket, "bucket")}
        ${row("Money", (p) => p.breakdown.money, "money")}
        ${row("Trophy", (p) => p.breakdown.trophy, "trophy")}
        ${awardIds.map((id) => row(title(id), (p) => p.breakdown.awards[id] ?? "—", `award-${id}`)).join("")}
        ${row("Total", (p) => `<b>${p.total}</b>`, "total")}
      </tbody></table>
    ${tokens ? `<h3>Advertising tokens</h3><ul class="tokens">${tokens}</ul>` : ""}
    <button class="btn primary" data-act="export" data-testid="export-record">Export the game record</button>`;
}

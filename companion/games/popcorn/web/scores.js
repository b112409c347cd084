// The final scoring table: each player's bucket, money, trophy and awards, the total, the
// winner (or the shared victory) and the advertising-token choices the scorer made.

import { awardText, colorWord, t } from "../../web/js/i18n.js";
import { adSpace, esc } from "../../web/js/labels.js";

const USES = () => ({ unused: t("not used"), count_as: t("counted as"), return_white: t("returned a white guest") });

/** The scores section of the public view as a table, with the record export. */
export function scoresHtml(view, catalog) {
  const scores = view.scores;
  if (!scores) return `<p>${esc(t("Scoring…"))}</p>`;
  const players = scores.players;
  const awardIds = [...new Set(players.flatMap((p) => Object.keys(p.breakdown.awards)))];
  const title = (id) => awardText(id, "title", catalog.byId[id] ? catalog.byId[id].title : id);
  const row = (label, cell, key) => `<tr data-testid="row-${key}"><th>${esc(label)}</th>${players.map((p, i) =>
    `<td data-testid="score-${i}-${key}">${cell(p)}</td>`).join("")}</tr>`;
  const winners = scores.winners;
  const and = t(" and ");
  const verdict = winners.length > 1 ? esc(t("Shared victory: {names}", { names: winners.join(and) }))
    : esc(t("Winner: {name}", { name: winners[0] }));
  const uses = USES();
  const tokenWords = (u) => {
    const use = (uses[u.use] || u.use) + (u.color ? " " + colorWord(u.color) : "");
    return t("{space} token {use}", { space: adSpace(u.space), use });
  };
  const tokens = players.map((p) => p.ad_tokens_used.length ? `<li><b>${esc(p.name)}</b>: ${p.ad_tokens_used.map((u) =>
    esc(tokenWords(u))).join("; ")}</li>` : "").join("");
  const total = t("Total");
  return `<h2 data-testid="winner">${verdict}</h2>
    <table class="scores" data-testid="scores-table">
      <thead><tr><td></td>${players.map((p) => `<th>${esc(p.name)}</th>`).join("")}</tr></thead>
      <tbody>
        ${row(t("Bucket"), (p) => p.breakdown.bucket, "bucket")}
        ${row(t("Money"), (p) => p.breakdown.money, "money")}
        ${row(t("Trophy"), (p) => p.breakdown.trophy, "trophy")}
        ${awardIds.map((id) => row(title(id), (p) => p.breakdown.awards[id] ?? "—", `award-${id}`)).join("")}
        ${row(total, (p) => `<b>${p.total}</b>`, "total")}
      </tbody></table>
    ${tokens ? `<h3>${esc(t("Advertising tokens"))}</h3><ul class="tokens">${tokens}</ul>` : ""}
    <button class="btn primary" data-act="export" data-testid="export-record">${esc(t("Export the game record"))}</button>`;
}

// The bag audit panel of any game's table screen and phone (docs/dashboard.md, "Checking a
// bag"; docs/api.md, "Audits").
//
// A player taps every piece of their bag (or pile) on their reader; the hub counts the taps
// (never draws) and pushes the audit in the view (`view.audit`: whose, how many taps, and the
// report so far). The panel shows the counts as they grow, the differences in words, and one
// button that ends the tapping and applies every fix as one batch (one Undo takes it back):
// starting and accepting are the only taps an audit costs beyond the pieces themselves.
// The words that name the pieces are the game's: `opts.keyHtml(key)` draws a count's key (a
// guest color, a token value), `opts.title(name)` and `opts.hint(name)` say what is checked.

import { call, tableCall } from "./api.js";
import { errorText, t, tn } from "./i18n.js";
import { esc } from "./labels.js";

/** The audit under way as a panel, or "" when none runs. `names`: the players' names. */
export function auditHtml(audit, names, opts) {
  const parts = auditParts(audit, names, opts);
  return parts.head + parts.body;
}

/** The audit under way in two parts, `{head, body}` (both "" when none runs): the head, its
 * title and buttons, for a side panel's pinned part; the body, the counts and differences,
 * for the part that scrolls. Together they are one `.audit` panel. */
export function auditParts(audit, names, opts) {
  if (!audit) return { head: "", body: "" };
  const name = names[audit.player];
  const r = audit.report;
  const counts = r.counts.map((c) => `<span class="audit-count${c.tapped === c.expected ? "" : " off"}"
      data-testid="audit-count-${esc(String(c.key))}">${opts.keyHtml(c.key)} <b>${c.tapped}</b>/${c.expected}</span>`).join("");
  const line = (item, cls) => `<li class="${cls}" data-code="${esc(item.code)}">${esc(errorText(item.code, item.params, item.message))}</li>`;
  const found = [...r.findings.map((f) => line(f, f.fix === null ? "said" : "fix")), ...r.refused.map((x) => line(x, "refused"))];
  const said = r.clean ? `<p class="audit-clean" data-testid="audit-clean">${esc(t("Everything tapped so far matches."))}</p>`
    : `<h3>${esc(tn("{n} difference", "{n} differences", found.length))}</h3><ul class="audit-found" data-testid="audit-found">${found.join("")}</ul>`;
  const fixes = r.fixes.length;
  const accept = fixes ? tn("Accept {n} fix", "Accept {n} fixes", fixes) : t("Done: nothing to fix");
  const next = audit.then.length ? `<p class="muted">${esc(t("Next: {name}", { name: names[audit.then[0]] }))}</p>` : "";
  return {
    head: `<section class="audit audit-top" data-testid="audit" data-player="${audit.player}">
    <div class="audit-head"><h2>${esc(opts.title(name))}</h2>
      <button class="btn primary" data-act="audit-accept" data-testid="audit-accept">${esc(accept)}</button>
      <button class="btn small" data-act="audit-drop" data-testid="audit-drop">${esc(t("Stop"))}</button></div></section>`,
    body: `<section class="audit audit-rest" data-testid="audit-report">
    <p>${esc(opts.hint(name))} <span class="muted" data-testid="audit-taps">${esc(tn("{n} tap", "{n} taps", audit.taps))}</span></p>
    <div class="audit-counts">${counts}</div>${said}${next}</section>`,
  };
}

/**
 * One step of the audit at `tableId`: `start` (`body`: `{"player": n}` or `{"all": true}`),
 * `accept` or `drop`. The tablet sends the table's PIN (asked once, then saved); a phone
 * sends its player's token (`token`). Resolves to the hub's answer; throws an ApiError.
 */
export async function auditStep(ctx, tableId, step, { body = {}, token } = {}) {
  const base = `/api/tables/${tableId}/audits`;
  const route = { start: [base, "POST"], accept: [`${base}/current/accept`, "POST"], drop: [`${base}/current`, "DELETE"] }[step];
  const options = { method: route[1], body };
  if (token) return call(route[0], { ...options, token });
  return tableCall(tableId, route[0], options, ctx.askPin, true);
}

/** What the table is told once an accept went through: how many fixes, or that the bag
 * matched. */
export function acceptedText(answer) {
  return answer.applied ? tn("{n} fix applied: Undo takes it back.", "{n} fixes applied: Undo takes them back.", answer.applied)
    : t("The audit found nothing to fix.");
}

/**
 * A phone's tap on its own audit's buttons (`data-act` audit-start, -accept, -drop): the step
 * sent with the player's `token`; a refusal is written in `errorBox`. Returns whether the
 * click was one of them.
 */
export function phoneAuditClick(event, ctx, tableId, seat, token, errorBox) {
  const el = event.target.closest("[data-act^='audit-']");
  const step = el && { "audit-start": "start", "audit-accept": "accept", "audit-drop": "drop" }[el.dataset.act];
  if (!step) return false;
  auditStep(ctx, tableId, step, { body: { player: seat }, token }).then((answer) => {
    if (step === "accept") ctx.toast(acceptedText(answer), "ok");
    errorBox.hidden = true;
  }).catch((err) => {
    errorBox.textContent = err.message;
    errorBox.hidden = false;
  });
  return true;
}

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

/** Audits whose "it is done" came with nothing tapped: their panel asks whether the bag is
 * really empty before the hub may propose to take every piece out of it. */
const askedEmpty = new Set();

/** Whether an audit's fixes may be shown and accepted: the table said the bag is done, or
 * every piece the companion expects in it has been tapped. Before that a fix would only
 * say that a piece was not tapped yet. */
export function auditReady(audit) {
  return Boolean(audit.done) || audit.report.counts.every((c) => c.tapped >= c.expected);
}

/** What a tap on an audit's own buttons does (`act`: its `data-act`): the step to send to
 * the hub ("start", "done", "accept", "drop"), "" when it only changes what the panel
 * shows (draw it again), or null for another button. "It is done" with nothing tapped asks
 * first whether the bag is really empty. */
export function auditAct(act, audit) {
  if (act === "audit-done") {
    const expected = audit ? audit.report.counts.reduce((n, c) => n + c.expected, 0) : 0;
    if (audit && audit.taps === 0 && expected > 0 && !askedEmpty.has(audit.id)) {
      askedEmpty.add(audit.id);
      return "";
    }
    return "done";
  }
  if (act === "audit-empty-no") {
    if (audit) askedEmpty.delete(audit.id);
    return "";
  }
  return { "audit-empty-yes": "done", "audit-start": "start", "audit-accept": "accept", "audit-drop": "drop" }[act] ?? null;
}

/** The audit under way in two parts, `{head, body}` (both "" when none runs): the head, its
 * title and buttons, for a side panel's pinned part; the body, the counts and differences,
 * for the part that scrolls. Together they are one `.audit` panel. Accept waits until the
 * audit is ready (`auditReady`); until then the head offers "it is done" (`opts.finished`),
 * and the differences, each fix in words, appear once it is ready. */
export function auditParts(audit, names, opts) {
  if (!audit) return { head: "", body: "" };
  const name = names[audit.player];
  const r = audit.report;
  const ready = auditReady(audit);
  const expected = r.counts.reduce((n, c) => n + c.expected, 0);
  const counts = r.counts.map((c) => `<span class="audit-count${c.tapped === c.expected ? "" : " off"}"
      data-testid="audit-count-${esc(String(c.key))}">${opts.keyHtml(c.key)} <b>${c.tapped}</b>/${c.expected}</span>`).join("");
  const line = (item, cls) => `<li class="${cls}" data-code="${esc(item.code)}">${esc(errorText(item.code, item.params, item.message))}</li>`;
  const found = [...r.findings.map((f) => line(f, f.fix === null ? "said" : "fix")), ...r.refused.map((x) => line(x, "refused"))];
  const said = !ready ? `<p class="muted" data-testid="audit-waiting">${esc(t("The fixes come once every piece is tapped, or once you say it is done."))}</p>`
    : r.clean ? `<p class="audit-clean" data-testid="audit-clean">${esc(t("Everything tapped so far matches."))}</p>`
      : `<h3>${esc(tn("{n} difference", "{n} differences", found.length))}</h3><ul class="audit-found" data-testid="audit-found">${found.join("")}</ul>`;
  const fixes = r.fixes.length;
  const accept = !ready ? t("Accept") : fixes ? tn("Accept {n} fix", "Accept {n} fixes", fixes) : t("Done: nothing to fix");
  const finished = ready ? "" : `<button class="btn" data-act="audit-done" data-testid="audit-done">${esc(opts.finished(name))}</button>`;
  const empty = !ready && askedEmpty.has(audit.id) ? `<div class="audit-confirm" role="alert" data-testid="audit-empty">
      <p>${esc(opts.empty(name, expected))}</p>
      <button class="btn danger small" data-act="audit-empty-yes" data-testid="audit-empty-yes">${esc(t("Yes, it is empty"))}</button>
      <button class="btn small" data-act="audit-empty-no" data-testid="audit-empty-no">${esc(t("No, keep tapping"))}</button></div>` : "";
  const next = audit.then.length ? `<p class="muted">${esc(t("Next: {name}", { name: names[audit.then[0]] }))}</p>` : "";
  return {
    head: `<section class="audit audit-top" data-testid="audit" data-player="${audit.player}" data-ready="${ready}">
    <div class="audit-head"><h2>${esc(opts.title(name))}</h2>${finished}
      <button class="btn primary" data-act="audit-accept" data-testid="audit-accept"${ready ? "" : " disabled"}>${esc(accept)}</button>
      <button class="btn small" data-act="audit-drop" data-testid="audit-drop">${esc(t("Stop"))}</button></div>${empty}</section>`,
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
  const route = { start: [base, "POST"], done: [`${base}/current/done`, "POST"],
    accept: [`${base}/current/accept`, "POST"], drop: [`${base}/current`, "DELETE"] }[step];
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
 * A phone's tap on its own audit's buttons (`data-act` audit-start, -done, -accept, -drop, and
 * the empty bag's question): the step sent with the player's `token`; a refusal is written in
 * `errorBox`. `current()`: the audit under way (or null); `redraw()`: draw the panel again
 * (a question asked or withdrawn). Returns whether the click was one of them.
 */
export function phoneAuditClick(event, ctx, tableId, seat, token, errorBox, current, redraw) {
  const el = event.target.closest("[data-act^='audit-']");
  const step = el && auditAct(el.dataset.act, current());
  if (step === "") redraw();
  if (!step) return step === "";
  auditStep(ctx, tableId, step, { body: { player: seat }, token }).then((answer) => {
    if (step === "accept") ctx.toast(acceptedText(answer), "ok");
    errorBox.hidden = true;
  }).catch((err) => {
    errorBox.textContent = err.message;
    errorBox.hidden = false;
  });
  return true;
}

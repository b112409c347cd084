// The analysis of an archived game, on its page (/archive/<id>), for a game with an advisor
// (Popcorn): each player's accuracy (the share of the best value they kept, docs/advisor.md)
// over the decisions valued, and their three biggest misses, each a link that opens the
// replay board at the position before it, with the move played and the advisor's beside it.
//
// The hub runs an analysis once and keeps it (POST/GET /api/archive/<id>/analysis): a page
// that finds none starts it, and shows a progress bar fed by the job's own progress (the
// moves gone through) while it runs, asking again every few tenths of a second. A game
// without an advisor (B Movies) has no section at all.

import { ApiError, call } from "./api.js";
import { errorText, language, num, t } from "./i18n.js";
import { esc } from "./labels.js";

const POLL_MS = 250;

function percent(value) {
  if (value === null || value === undefined) return "–";
  return new Intl.NumberFormat(language(), { style: "percent", maximumFractionDigits: 1 }).format(value / 100);
}

/** The link of a miss: the page of the game at the miss's position. */
export function missHref(gameId, seat, k, index) {
  return `/archive/${encodeURIComponent(gameId)}?at=${index}&miss=${seat}.${k}`;
}

function missHtml(gameId, analysis, player, miss, k) {
  const unit = t(analysis.unit);
  const what = miss.kind === "placement" ? t("a placement of drawn guests") : t("a guest's action");
  const text = t("Round {round}, {what}: {lost} {unit} lost", { round: miss.round, what, lost: num(miss.lost), unit });
  return `<li><a class="miss" href="${esc(missHref(gameId, player.seat, k, miss.index))}" data-miss="${player.seat}.${k}"
      data-testid="miss-${player.seat}-${k}">${esc(text)}</a></li>`;
}

function doneHtml(gameId, analysis) {
  const rows = analysis.players.map((p) => `
      <tr data-testid="analysis-player-${p.seat}">
        <th scope="row">${esc(p.name)}</th>
        <td class="num accuracy" data-testid="accuracy-${p.seat}">${esc(percent(p.accuracy))}</td>
        <td class="num">${esc(num(p.decisions))}</td>
        <td>${p.misses.length ? `<ol class="misses">${p.misses.map((m, k) => missHtml(gameId, analysis, p, m, k)).join("")}</ol>`
          : `<span class="muted">${esc(t("no miss"))}</span>`}</td>
      </tr>`).join("");
  return `<table class="standings analysis-table" data-testid="analysis-table">
      <thead><tr><th>${esc(t("Player"))}</th><th class="num">${esc(t("Accuracy"))}</th>
        <th class="num">${esc(t("Decisions valued"))}</th><th>${esc(t("Biggest misses (open the board there)"))}</th></tr></thead>
      <tbody>${rows}</tbody></table>`;
}

function runningHtml(status) {
  const total = status.total || 0;
  const words = total ? t("Analysing the game… {done} of {total} moves", { done: num(status.done), total: num(total) })
    : t("Analysing the game…");
  return `<div class="analysis-running" data-testid="analysis-running">
      <progress data-testid="analysis-progress" max="${Math.max(total, 1)}" value="${status.done || 0}"
        aria-label="${esc(words)}"></progress>
      <span class="muted">${esc(words)}</span></div>`;
}

/**
 * The analysis section in `box` for archived game `gameId`; `open(miss)` is called with a
 * miss (its `index`, `played`, `best`, `lost`, and the player's `name`, `unit`) when its link
 * is followed, and once for `initial` ("seat.k" from the page's address) when it is known.
 * Returns the unmount function.
 */
export function mountAnalysis(box, gameId, open, initial = null) {
  const path = `/api/archive/${encodeURIComponent(gameId)}/analysis`;
  let alive = true;
  let timer = null;
  let analysis = null;

  function miss(key) {
    const [seat, k] = String(key).split(".").map(Number);
    const player = analysis && analysis.players.find((p) => p.seat === seat);
    const found = player && player.misses[k];
    return found ? { ...found, name: player.name, unit: analysis.unit } : null;
  }

  function show(status) {
    if (!alive) return;
    box.hidden = false;
    const head = `<h2>${esc(t("The advisor's analysis"))}</h2>
      <p class="muted lead">${esc(t("Each player's accuracy is the share of the best value they kept, over the decisions the seating advisor can value: the placements of drawn guests and the guests' actions in the Showings."))}</p>`;
    if (status.state === "done") {
      analysis = status.analysis;
      box.innerHTML = head + doneHtml(gameId, analysis);
      box.dataset.state = "done";
      if (initial && miss(initial)) open(miss(initial));
      initial = null;
      return;
    }
    if (status.state === "failed") {
      box.innerHTML = `${head}<p class="form-error" data-testid="analysis-failed">${esc(errorText(status.code, {}, status.message))}</p>`;
      box.dataset.state = "failed";
      return;
    }
    box.innerHTML = head + runningHtml(status);
    box.dataset.state = "running";
    timer = setTimeout(poll, POLL_MS);
  }

  async function poll() {
    try {
      show(await call(path));
    } catch (err) {
      if (alive) box.innerHTML = `<p class="form-error">${esc(err.message)}</p>`;
    }
  }

  async function start() {
    try {
      const status = await call(path);
      show(status.state === "none" || status.state === "failed" ? await call(path, { method: "POST" }) : status);
    } catch (err) {
      // a game without an advisor, or without a record: no analysis section
      if (!(err instanceof ApiError) || !["NO_ANALYSIS", "NO_RECORD"].includes(err.code)) {
        box.hidden = false;
        box.innerHTML = `<p class="form-error">${esc(err.message)}</p>`;
      }
    }
  }

  box.addEventListener("click", (event) => {
    const link = event.target.closest("a[data-miss]");
    if (!link) return;
    event.preventDefault();
    const found = miss(link.dataset.miss);
    if (!found) return;
    history.replaceState(null, "", link.getAttribute("href"));
    open(found);
  });
  start();
  return () => {
    alive = false;
    clearTimeout(timer);
  };
}

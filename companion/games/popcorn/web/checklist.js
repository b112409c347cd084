// The end-of-round checklist: what the table must now do by hand, worked out by comparing
// the last view of a round with the first view of the next one.

import { t } from "../../web/js/i18n.js";
import { actionLabel, esc } from "../../web/js/labels.js";

/** The checklist's facts: slider moves per player, the lineup change, the first player. */
export function roundChecklist(before, after) {
  const sliders = after.cinemas.map((c, p) => ({
    name: c.name,
    movies: c.slots.filter((s) => s.movie).map((s) => {
      const actions = s.movie.actions;
      const left = actions.slice(0, s.visible).filter((a) => a !== "none");
      return {
        title: s.movie.title,
        covers: s.covered > 0 ? actions[actions.length - s.covered] : null,
        left,
        changed: coveredBefore(before, p, s.movie.id) !== s.covered,
      };
    }),
  }));
  const known = new Set([...before.features, ...before.premiers].map((m) => m.id));
  return {
    round: after.round,
    sliders,
    discarded: before.features.map((m) => m.title),
    slid: before.premiers.map((m) => m.title),
    revealed: [...after.features, ...after.premiers].filter((m) => !known.has(m.id)).map((m) => m.title),
    reveal: after.pending.filter((t) => t.kind === "lineup").length > 0,
    firstPlayer: after.names[after.first_player],
    // a tap raised an alert in the round just ended: offer to check every bag
    alerted: (after.alert_rounds || []).includes(before.round),
  };
}

function coveredBefore(view, p, movieId) {
  const slot = view.cinemas[p].slots.find((s) => s.movie && s.movie.id === movieId);
  return slot ? slot.covered : 0;
}

/** What to do with one movie's lobby slider: slide it over an action, or leave it. */
function sliderHtml(m) {
  const covers = m.covers === "none" ? t("the empty space") : actionLabel(m.covers);
  const move = m.changed && covers
    ? esc(t("slide the lobby slider down to cover {action}.", { action: "\u0000" })).replace("\u0000", `<b>${esc(covers)}</b>`)
    : esc(t("the lobby slider stays where it is."));
  const open = m.left.length
    ? esc(t("Still open: {actions}.", { actions: m.left.map(actionLabel).join(", ") }))
    : `<span class="none-left">${esc(t("No action left on this movie."))}</span>`;
  return `${move} ${open}`;
}

/** The checklist's head: its title and Done button, pinned at the top of the side panel. */
export function checklistHeadHtml(list) {
  return `<div class="checklist-head" data-testid="checklist-head"><h2>${esc(t("End of round — before round {round}", { round: list.round }))}</h2>
      <button class="btn primary" data-act="checklist-done" data-testid="checklist-done">${esc(t("Done"))}</button></div>`;
}

/** The checklist's body: one tick box per thing to do (it scrolls with the side panel). */
export function checklistHtml(list) {
  // ticks live in the list, so a state push that redraws the screen keeps them
  const ticked = list.ticked || new Set();
  let n = 0;
  const item = (html) => {
    n += 1;
    const done = ticked.has(n) ? " done" : "";
    return `<li><button class="tick${done}" data-act="tick" data-n="${n}">${html}</button></li>`;
  };
  const sliders = list.sliders.map((p) => p.movies.map((m) => item(
    `<b>${esc(p.name)}</b> — ${esc(m.title)}: ${sliderHtml(m)}`)).join("")).join("");
  const none = t("none");
  return `<section class="checklist" data-testid="round-checklist">
    <h3>${esc(t("Lobby sliders"))}</h3><ul data-testid="checklist-sliders">${sliders || item(esc(t("No movies yet.")))}</ul>
    <h3>${esc(t("Movies"))}</h3><ul>
      ${item(esc(t("Discard the Features left: {movies}.", { movies: list.discarded.join(", ") || none })))}
      ${item(esc(t("Slide the Premiers down to Features: {movies}.", { movies: list.slid.join(", ") || none })))}
      ${list.revealed.length ? item(esc(t("Put out the new movies the companion dealt: {movies}.", { movies: list.revealed.join(", ") }))) : ""}
      ${list.reveal ? item(esc(t("Reveal the new movies from the movie deck, and enter them on the tablet (search box)."))) : ""}
    </ul>
    <h3>${esc(t("First player"))}</h3><ul>${item(esc(t("Pass the First Player marker to {name}.", { name: list.firstPlayer })))}</ul>
    ${list.alerted ? `<h3>${esc(t("Bags"))}</h3><p>${esc(t("A tap raised an alert this round: check that every bag holds what the companion shows."))}</p>
      <button class="btn" data-act="audit-all" data-testid="checklist-audit">${esc(t("Check every bag"))}</button>` : ""}
  </section>`;
}

// The end-of-round checklist: what the table must now do by hand, worked out by comparing
// the last view of a round with the first view of the next one.

import { actionLabel, esc } from "./labels.js";

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
  };
}

function coveredBefore(view, p, movieId) {
  const slot = view.cinemas[p].slots.find((s) => s.movie && s.movie.id === movieId);
  return slot ? slot.covered : 0;
}

/** What to do with one movie's lobby slider: slide it over an action, or leave it. */
function sliderHtml(m) {
  const covers = m.covers === "none" ? "the empty space" : actionLabel(m.covers);
  const move = m.changed && covers
    ? `slide the lobby slider down to cover <b>${esc(covers)}</b>.`
    : "the lobby slider stays where it is.";
  const open = m.left.length
    ? `Still open: ${m.left.map(actionLabel).map(esc).join(", ")}.`
    : '<span class="none-left">No action left on this movie.</span>';
  return `${move} ${open}`;
}

/** The checklist as a panel with one tick box per thing to do, its Done button on top. */
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
  // the head is the side panel's own child, so it stays stuck on top however far it scrolls
  return `<div class="checklist-head" data-testid="checklist-head"><h2>End of round — before round ${list.round}</h2>
      <button class="btn primary" data-act="checklist-done" data-testid="checklist-done">Done</button></div>
    <section class="checklist" data-testid="round-checklist">
    <h3>Lobby sliders</h3><ul data-testid="checklist-sliders">${sliders || item("No movies yet.")}</ul>
    <h3>Movies</h3><ul>
      ${item(`Discard the Features left: ${esc(list.discarded.join(", ") || "none")}.`)}
      ${item(`Slide the Premiers down to Features: ${esc(list.slid.join(", ") || "none")}.`)}
      ${list.revealed.length ? item(`Put out the new movies the companion dealt: ${esc(list.revealed.join(", "))}.`) : ""}
      ${list.reveal ? item("Reveal the new movies from the movie deck, and enter them on the tablet (search box).") : ""}
    </ul>
    <h3>First player</h3><ul>${item(`Pass the First Player marker to <b>${esc(list.firstPlayer)}</b>.`)}</ul>
  </section>`;
}

// The tablet's "now" panel for a B Movies table, one HTML function per moment of a turn:
// the studio deal typed in (Hidden Team, cardboard deal), the pitch (2 to 4 Title cards as
// big buttons and an optional typed title), the vote (who has voted, never what; the
// tablet's vote entry for cardboard vote cards), the reveal (each vote, the tally, MADE or
// REJECTED) and the draws owed. Pure HTML from the public view; table.js wires the
// buttons (data-act) and sends the moves.

import { t, tn } from "../../web/js/i18n.js";
import { esc } from "../../web/js/labels.js";
import { cardsWord, studioWord, voteHtml, voteWord } from "./words.js";

/** Pitch sizes: how many Title cards a pitch may have (the hub's facts, in the view). */
export function pitchSizes(view) {
  return view.pitch_sizes;
}

const nameOf = (view, seat) => (view.players[seat] ? view.players[seat].name : `#${seat + 1}`);

/** Hidden Team with the cardboard deal: which studio each player was dealt (PIN). */
export function studioDealHtml(view, studios, chosen) {
  const options = (seat) => Array.from({ length: studios }, (_, s) => `<option value="${s}"${chosen[seat] === s ? " selected" : ""}>${esc(studioWord(s))}</option>`).join("");
  const rows = view.players.map((p) => {
    const label = t("{name}'s studio", { name: p.name });
    return `<label class="field bm-deal-row">${esc(p.name)}
        <select data-testid="bm-deal-${p.seat}" data-seat="${p.seat}" data-act="deal-pick" aria-label="${esc(label)}">
          <option value="">—</option>${options(p.seat)}</select></label>`;
  }).join("");
  return `<div class="bm-panel bm-deal" data-testid="bm-studio-deal">
      <h2>${esc(t("Studio deal"))}</h2>
      <p class="muted">${esc(t("Deal the studio cards face down as the chart says, then one person enters the deal here with the table PIN. It stays secret until the Final Cut."))}</p>
      <div class="bm-deal-rows" data-role="deal-rows">${rows}</div>
      <button class="btn primary big" data-act="send-deal" data-testid="bm-deal-send">${esc(t("Enter the deal (PIN)"))}</button>
    </div>`;
}

/** The screenwriter's pitch: the number of Title cards played, and a title if they like. */
export function pitchHtml(view, typedTitle) {
  const writer = nameOf(view, view.screenwriter);
  const buttons = pitchSizes(view).map((n) => `<button class="btn bm-big" data-act="pitch" data-cards="${n}"
      data-testid="pitch-size-${n}">${esc(cardsWord(n))}</button>`).join("");
  const placeholder = t("the movie's title (optional)");
  const label = t("Title");
  return `<div class="bm-panel bm-pitch" data-testid="bm-pitch">
      <h2>${esc(t("{name} pitches a movie", { name: writer }))}</h2>
      <p class="muted">${esc(t("How many Title cards did the Screenwriter lay face up?"))}</p>
      <label class="field bm-title">${esc(label)}
        <input data-testid="pitch-title" data-act="title" maxlength="120" placeholder="${esc(placeholder)}" value="${esc(typedTitle)}">
      </label>
      <div class="bm-sizes">${buttons}</div>
    </div>`;
}

/** The pitch under vote (or revealed): who pitched, how many Title cards, its title. */
export function pitchSummary(view) {
  const pitch = view.pitch;
  if (!pitch) return "";
  return `<p class="bm-pitched" data-testid="bm-pitched"><b>${esc(nameOf(view, view.screenwriter))}</b>:
      ${esc(cardsWord(pitch.cards))}${pitch.title ? ` · <q>${esc(pitch.title)}</q>` : ""}</p>`;
}

/** The vote: the producers, voted or waiting (never what), and the tablet's vote entry. */
export function votingHtml(view, tabletVotes) {
  const producers = view.producers.map((seat) => {
    const p = view.players[seat];
    const state = p.voted ? t("voted") : t("choosing…");
    const entry = tabletVotes ? tabletVoteButtons(view, p) : "";
    return `<li class="bm-voter${p.voted ? " voted" : ""}" data-testid="bm-voter-${seat}" data-voted="${p.voted}">
        <span class="bm-check" aria-hidden="true">${p.voted ? "✓" : "…"}</span>
        <b>${esc(p.name)}</b> <span class="muted">${esc(state)}</span>${entry}</li>`;
  }).join("");
  const done = view.producers.filter((s) => view.players[s].voted).length;
  const toggle = tabletVotes ? t("Votes on the phones") : t("Enter votes on the tablet");
  return `<div class="bm-panel bm-voting" data-testid="bm-voting">
      <h2>${esc(t("The producers vote"))}</h2>
      ${pitchSummary(view)}
      <p class="bm-count" data-testid="bm-voted-count">${esc(t("{n} of {count} have voted", { n: done, count: view.producers.length }))}</p>
      <ul class="bm-voters">${producers}</ul>
      <p class="muted">${esc(tabletVotes ? t("One person enters each producer's vote card; the reveal comes when the last vote is in.") : t("Each producer picks a vote card on their phone; the reveal comes when the last vote is in."))}</p>
      <button class="btn" data-act="tablet-votes" data-testid="bm-enter-votes" aria-pressed="${tabletVotes}">${esc(toggle)}</button>
    </div>`;
}

function tabletVoteButtons(view, p) {
  const cards = ["yes", ...(p.has_yes_bang ? ["yes!"] : []), "no"];
  return `<span class="bm-tvotes">${cards.map((v) => `<button class="btn bm-tvote" data-act="tablet-vote"
      data-seat="${p.seat}" data-vote="${esc(v)}" data-testid="bm-tablet-vote-${p.seat}-${esc(v)}">${esc(voteWord(v))}</button>`).join("")}</span>`;
}

/** The reveal: each producer's vote, the tally, MADE or REJECTED. */
export function revealHtml(view) {
  const r = view.reveal;
  if (!r) return "";
  const votes = Object.entries(r.votes).map(([seat, vote]) => `<li data-testid="bm-reveal-vote-${seat}" data-vote="${esc(vote)}">
      <b>${esc(nameOf(view, Number(seat)))}</b> ${voteHtml(vote)}</li>`).join("");
  const outcome = r.made ? t("MADE") : t("REJECTED");
  return `<div class="bm-panel bm-reveal" data-testid="bm-reveal">
      <h2>${esc(t("The reveal"))}</h2>
      ${pitchSummary(view)}
      <ul class="bm-revealed">${votes}</ul>
      <p class="bm-tally" data-testid="bm-tally">${esc(t("Yes {yes} · No {no}", { yes: r.yes, no: r.no }))}</p>
      <p class="bm-outcome ${r.made ? "made" : "rejected"}" data-testid="bm-outcome" data-made="${r.made}">${esc(outcome)}</p>
    </div>`;
}

/** Who draws how many tokens, live as the taps come in. */
export function drawsHtml(view) {
  const r = view.reveal;
  const draws = r ? Object.entries(r.draws).filter(([, n]) => n > 0) : [];
  if (!draws.length) return "";
  const rows = draws.map(([seat, n]) => {
    const p = view.players[Number(seat)];
    const owed = p ? p.owed : 0;
    const drawn = n - owed;
    return `<li class="${owed ? "owed" : "done"}" data-testid="bm-draw-${seat}" data-owed="${owed}" data-drawn="${drawn}">
        <b>${esc(nameOf(view, Number(seat)))}</b>
        ${esc(tn("draws {n} token", "draws {n} tokens", n))}: ${esc(t("{drawn} of {n} drawn", { drawn, n }))}
        ${owed ? `<span class="bm-owed">${esc(tn("{n} to go", "{n} to go", owed))}</span>` : `<span class="bm-check">✓</span>`}</li>`;
  }).join("");
  return `<div class="bm-panel bm-draws" data-testid="bm-draws">
      <h3>${esc(t("Draws from the bucket"))}</h3>
      <p class="muted">${esc(t("Each player taps the tokens they draw on their own reader (or reports them on their phone)."))}</p>
      <ul>${rows}</ul></div>`;
}

/** The last turn, while the next pitch is awaited. */
export function lastTurnHtml(view) {
  const last = (view.history || [])[view.history.length - 1];
  if (!last) return "";
  const outcome = last.made ? t("made") : t("rejected");
  return `<p class="muted bm-last" data-testid="bm-last-turn">${esc(t("Last pitch: {name}, {cards}, {outcome} (Yes {yes} · No {no}).",
    { name: nameOf(view, last.screenwriter), cards: cardsWord(last.cards), outcome, yes: last.yes, no: last.no }))}</p>`;
}

// A player's phone (/phone/<table>/<seat>#token=...): the secret awards (held, and the choice
// during an award draw, or reporting the card drawn when the hub does not deal), the
// player's own turn (phone_turn.js: their seating, activations, the slot of a card they
// bought, their ads; sent with the token, so the hub takes only their own moves), plus the
// player's own public cinema and whose turn it is. The link and its token are handled by
// `PhoneLink` (phone_link.js), shared with the other games' phones.

import { ApiError, call } from "../../web/js/api.js";
import { auditHtml, phoneAuditClick } from "../../web/js/audit.js";
import { awardText, colorWord, t, tn } from "../../web/js/i18n.js";
import { COLORS, actionLabel, esc, letter, pawnHtml } from "../../web/js/labels.js";
import { PhoneLink } from "../../web/js/phone_link.js";
import { ranked } from "../../web/js/search.js";
import { PhoneTurn } from "./phone_turn.js";

const SLOT_NAMES = () => [t("Left"), t("Center"), t("Right")];

/** The tip of an empty seat: "empty red seat", or "empty seat (any color)". */
function emptyTitle(color) {
  return color === "grey" ? t("empty seat (any color)") : t("empty {color} seat", { color: colorWord(color) });
}

export function mountPhone(root, ctx, tableId, seat) {
  const link = new PhoneLink(root, tableId, seat);
  const token = link.token;
  let pub = null;        // the latest public view
  let pubEvents = -1;    // its log length
  let priv = null;       // the latest private view
  let tableName = "";
  let tableClosed = false;
  let reportKey = "";    // the draw_award outcomes the search box lists
  let busy = false;      // a move is being posted

  root.innerHTML = `
  <div class="phone" data-testid="phone">
    <div class="ph-error" data-testid="phone-error" role="alert" hidden></div>
    <div class="ph-main" data-role="main">
      <section class="ph-head" data-testid="phone-head">
        <div class="ph-who">
          <span class="ph-seatno" data-role="seatno">${Number.isInteger(seat) ? seat + 1 : "?"}</span>
          <div>
            <div class="ph-name" data-testid="phone-name">…</div>
            <div class="ph-sub" data-testid="phone-seat">${esc(t("Seat {n}", { n: Number.isInteger(seat) ? seat + 1 : "?" }))}</div>
          </div>
        </div>
        <div class="ph-turn" data-testid="phone-turn">${esc(t("connecting…"))}</div>
      </section>
      <div class="ph-cols">
        <div class="ph-col">
          <section class="ph-card ph-score" data-testid="phone-score" hidden></section>
          <section class="ph-card ph-choose" data-testid="award-choice" hidden></section>
          <section class="ph-card ph-report" data-testid="award-report" hidden></section>
          <section class="ph-card ph-play" data-testid="phone-play" hidden></section>
          <div class="ph-move-error" data-testid="phone-move-error" role="alert" hidden></div>
          <section class="ph-card ph-audit" data-testid="phone-audit"></section>
          <section class="ph-card ph-awards" data-testid="awards-held">
            <h3>${esc(t("Your awards"))} <span class="ph-secret">${esc(t("secret"))}</span></h3>
            <div data-role="awards"><p class="ph-muted">${esc(t("Loading…"))}</p></div>
          </section>
        </div>
        <div class="ph-col">
          <section class="ph-card ph-cinema" data-testid="phone-cinema">
            <h3>${esc(t("Your cinema"))}</h3>
            <div data-role="cinema"><p class="ph-muted">${esc(t("Loading…"))}</p></div>
          </section>
        </div>
      </div>
    </div>
  </div>`;

  const tid = (id) => root.querySelector(`[data-testid="${id}"]`);
  const role = (name) => root.querySelector(`[data-role="${name}"]`);

  link.onFail = () => { priv = null; };  // nothing private stays in the page
  if (!link.usable()) return () => { link.alive = false; };
  const ownTurn = new PhoneTurn(ctx, tableId, seat, token, () => renderTurn());

  // ---- private: awards -----------------------------------------------------------------------

  function cardHtml(card, extra = "") {
    return `<div class="ph-award" ${extra}>
      <div class="ph-award-title">${esc(awardText(card.id, "title", card.title))}</div>
      <div class="ph-award-cond">${esc(awardText(card.id, "condition", card.condition))}</div>
    </div>`;
  }

  function awardCard(id) {
    const c = ctx.catalog.byId[id];
    return { id, title: awardText(id, "title", c && c.title ? c.title : id),
      condition: awardText(id, "condition", c && c.condition ? c.condition : "") };
  }

  function renderPrivate() {
    if (link.failed || !priv) return;
    const held = role("awards");
    held.innerHTML = priv.awards.length
      ? priv.awards.map((a) => cardHtml(a, `data-testid="award-held-${esc(a.id)}"`)).join("")
      : `<p class="ph-muted">${esc(t("No award yet."))}</p>`;

    // Choose 1 of N: the cards drawn, with a keep button where the hub lists keep_award.
    const choose = tid("award-choice");
    const keeps = new Map(priv.legal.filter((m) => m.move === "keep_award").map((m) => [m.card, m]));
    if (priv.choose_from.length) {
      const ready = keeps.size > 0;
      choose.innerHTML = `
        <h2>${esc(ready ? t("Choose 1 of {n}", { n: priv.choose_from.length }) : t("Award draw"))}</h2>
        <p class="ph-muted">${esc(ready
    ? t("Keep one card secretly; the other goes back under the award deck.")
    : t("Cards drawn so far; draw the next one."))}</p>
        <div class="ph-choices">
          ${priv.choose_from.map((card) => `
            <div class="ph-choice${keeps.has(card.id) ? " can-keep" : ""}">
              ${cardHtml(card, `data-testid="choice-${esc(card.id)}"`)}
              ${keeps.has(card.id) ? `<button type="button" class="btn primary ph-keep"
                data-testid="keep-${esc(card.id)}" data-keep="${esc(card.id)}" ${busy ? "disabled" : ""}>
                ${esc(t("Keep this one"))}</button>` : ""}
            </div>`).join("")}
        </div>`;
      choose.hidden = false;
    } else {
      choose.hidden = true;
      choose.innerHTML = "";
    }

    // Report the card drawn (no "deal for us"): a search box over the draw_award outcomes.
    const report = tid("award-report");
    const draws = priv.chance.filter((m) => m.move === "draw_award");
    const key = JSON.stringify(draws.map((m) => m.card));
    if (!draws.length) {
      report.hidden = true;
      report.innerHTML = "";
      reportKey = "";
    } else if (key !== reportKey) {
      reportKey = key;
      const nth = priv.choose_from.length + 1;
      const typeTitle = t("Type the card's title…");
      const titleLabel = t("Award card title");
      report.innerHTML = `
        <h2>${esc(t("Draw award card {n}", { n: nth }))}</h2>
        <p class="ph-muted">${esc(t("Draw the top card of the award deck without showing it, then find it here."))}</p>
        <div class="search">
          <input type="search" data-testid="award-search" placeholder="${esc(typeTitle)}"
            autocomplete="off" aria-label="${esc(titleLabel)}">
          <ul data-role="report-list"></ul>
        </div>`;
      report.hidden = false;
      const input = tid("award-search");
      input.addEventListener("input", () => filterReport(input.value));
      input.addEventListener("keydown", (event) => { // Enter takes the only card left
        const only = role("report-list").querySelectorAll("button[data-draw]");
        if (event.key === "Enter" && only.length === 1) only[0].click();
      });
      filterReport("");
    }
  }

  function filterReport(query) {
    const list = role("report-list");
    if (!list || !priv) return;
    // only the awards still in the deck: the hub lists no other draw_award outcome
    const deck = priv.chance.filter((m) => m.move === "draw_award").map((m) => awardCard(m.card))
      .sort((a, b) => a.title.localeCompare(b.title));
    const cards = ranked(deck, query, (c) => c.title);
    list.innerHTML = cards.length
      ? cards.map((c) => `<li><button type="button" data-testid="draw-award-${esc(c.id)}" data-draw="${esc(c.id)}"
          ${busy ? "disabled" : ""}><b>${esc(c.title)}</b><small>${esc(c.condition)}</small></button></li>`).join("")
      : `<li class="ph-none">${esc(t("No award card matches “{query}”.", { query }))}</li>`;
  }

  /** The phone's own buttons: the award ones and those of the player's turn. */
  const SENDERS = "[data-keep], [data-draw], [data-act^='turn-']";

  function postMove(move, button, doneText) {
    return act(() => call(`/api/tables/${encodeURIComponent(tableId)}/moves`, { method: "POST", body: { move }, token }),
      button, doneText);
  }

  /** Send one request of this phone (`send`, with the token); a refusal shows the hub's
   * sentence above the player's turn, and the buttons wait until the answer is in. */
  async function act(send, button, doneText) {
    if (busy) return;
    busy = true;
    const errorBox = tid("phone-move-error");
    errorBox.hidden = true;
    root.querySelectorAll(SENDERS).forEach((b) => { b.disabled = true; });
    if (button) button.classList.add("ph-working");
    try {
      await send();
      if (link.alive) ctx.toast(doneText, "ok");
    } catch (err) {
      if (!link.alive) return;
      const text = err instanceof ApiError ? err.message : String(err && err.message ? err.message : err);
      errorBox.innerHTML = `<b>${esc(err instanceof ApiError ? err.code : "ERROR")}</b> ${esc(text)}`;
      errorBox.hidden = false;
      ctx.toast(text, "error");
    } finally {
      busy = false;
      if (link.alive && !link.failed) {
        root.querySelectorAll(SENDERS).forEach((b) => { b.disabled = false; });
        if (button) button.classList.remove("ph-working");
      }
    }
  }

  root.addEventListener("click", (event) => {
    if (link.failed) return;
    const play = event.target.closest("button[data-act^='turn-']");
    if (play && pub && !busy) {
      const request = ownTurn.request(play, pub);
      if (request) act(() => ownTurn.send(request), play, t("Done: {what}", { what: request.label }));
      return;
    }
    const keep = event.target.closest("button[data-keep]");
    if (keep && priv) {
      const move = priv.legal.find((m) => m.move === "keep_award" && m.card === keep.dataset.keep);
      if (move) postMove(move, keep, t("Kept “{title}”.", { title: awardCard(move.card).title }));
      return;
    }
    const draw = event.target.closest("button[data-draw]");
    if (draw && priv) {
      const move = priv.chance.find((m) => m.move === "draw_award" && m.card === draw.dataset.draw);
      if (move) postMove(move, draw, t("Reported “{title}”.", { title: awardCard(move.card).title }));
    }
  });

  // ---- public: the player's cinema -----------------------------------------------------------

  /** The headline: whose turn it is, in the phone's words. It stands out ("urgent", in the
   * your-turn color, never the error red) only when this player is the one the table waits
   * for; it asks for a choice on the phone only when the phone offers one (an award to keep
   * or to report). */
  function turnText(view) {
    const names = view.names;
    const mine = view.waiting.includes(seat);
    const awards = view.pending.filter((p) => p.kind === "award");
    const award = awards.find((p) => p.player === seat);
    const choosing = priv && (priv.legal.some((m) => m.move === "keep_award")
      || priv.chance.some((m) => m.move === "draw_award"));
    let text;
    let urgent = false;
    if (view.phase === "over") text = t("Game over");
    else if (award && choosing) { text = t("Your award draw: choose below"); urgent = true; }
    else if (award) {
      // another player's draw comes first: this one waits, with nothing to do yet
      const ahead = awards.slice(0, awards.indexOf(award)).map((p) => names[p.player]);
      text = ahead.length ? t("Your award draw comes after {names}", { names: ahead.join(", ") })
        : t("Your award draw: the cards are coming");
    } else if (view.phase === "setup") {
      const others = awards.map((p) => names[p.player]);
      text = others.length ? t("Setting up: {names} choosing an award", { names: others.join(", ") }) : t("Setting up the table");
    }
    else if (view.phase === "buying") {
      if (view.current === seat) { text = t("Your turn to buy"); urgent = true; }
      else text = t("{name}'s turn to buy", { name: names[view.current] ?? "?" });
    } else if (view.phase === "showings") {
      // draws are tapped on the bag's reader; seating and playing here or on the tablet
      if (mine) { text = t("Showings: your turn"); urgent = true; }
      else if (view.waiting.length) text = t("Showings: waiting for {names}", { names: view.waiting.map((s) => names[s]).join(", ") });
      else text = t("Showings");
    } else text = view.phase;
    const bits = [];
    const drawing = view.cinemas[seat] && view.cinemas[seat].showing && view.cinemas[seat].showing.to_draw > 0;
    if (view.phase === "showings" && mine) {
      bits.push(drawing ? t("draw from your bag on its reader") : t("seat and play here or on the tablet"));
    }
    if (view.round > 0 && view.phase !== "over") bits.push(t("Round {n}", { n: view.round }));
    if (view.last_round && view.phase !== "over") bits.push(t("last round"));
    if (view.first_player === seat) bits.push(t("you hold the First Player marker"));
    return { text, urgent, bits };
  }

  function seatHtml(slot, i) {
    const theater = slot.theater;
    const who = slot.seats[i];
    const color = theater.seat_colors[i] || "grey";
    const mark = who
      ? pawnHtml(who.pawn, who.color)
      : `<span class="dot ph-empty s-${esc(color)}" title="${esc(emptyTitle(color))}">${letter(color)}</span>`;
    return `<span class="ph-seatcell">${mark}<small>${esc(actionLabel(theater.seat_actions[i]))}</small></span>`;
  }

  function slotHtml(slot, k) {
    const movie = slot.movie;
    let movieHtml;
    if (movie) {
      const acts = movie.actions.map((a, i) => {
        const cls = i >= slot.visible ? "covered" : slot.used.includes(i) ? "used" : "";
        const title = i >= slot.visible ? esc(t("covered by the lobby slider")) : slot.used.includes(i) ? esc(t("used this round")) : "";
        return `<li class="${cls}" ${title ? `title="${title}"` : ""}>${esc(actionLabel(a))}</li>`;
      }).join("");
      movieHtml = `
        <div class="ph-movie"><span class="chip c-${esc(movie.color)}" title="${esc(colorWord(movie.color))}"></span>
          <b>${esc(movie.title)}</b> <span class="ph-muted">(${esc(colorWord(movie.color))}, ${letter(movie.color)})</span></div>
        <ul class="ph-acts">${acts}</ul>`;
    } else {
      movieHtml = `<div class="ph-muted">${esc(t("no movie"))}</div>`;
    }
    const theaterHtml = slot.theater
      ? `<div class="ph-seats">${slot.seats.map((_, i) => seatHtml(slot, i)).join("")}</div>`
      : `<div class="ph-muted">${esc(t("no theater"))}</div>`;
    return `<div class="ph-slot${slot.movie || slot.theater ? "" : " is-empty"}" data-testid="slot-${k}">
      <div class="ph-slotname">${esc(SLOT_NAMES()[k] || "?")}</div>
      <div class="ph-slotbody">${movieHtml}${theaterHtml}</div>
    </div>`;
  }

  function guestsHtml(counts, testid) {
    return `<div class="ph-guests" data-testid="${testid}">${COLORS.map((c) => `
      <span class="ph-count${counts[c] ? "" : " zero"}">${pawnHtml(null, c)}<b>${counts[c] ?? 0}</b></span>`).join("")}
    </div>`;
  }

  function scoreHtml(view) {
    const scores = view.scores;
    if (!scores || !scores.players) return "";
    const me = scores.players[seat];
    if (!me) return "";
    const rank = 1 + scores.players.filter((p) => p.total > me.total).length;
    const won = scores.winners.includes(me.name);
    const b = me.breakdown || {};
    const awards = Object.entries(b.awards || {})
      .map(([id, n]) => `<li>${esc(awardCard(id).title)}: <b>${n}</b></li>`).join("");
    return `
      <h2>${esc(won ? t("You win!") : t("Final score: place {rank} of {n}", { rank, n: scores.players.length }))}</h2>
      <div class="ph-total"><b data-testid="phone-total">${esc(me.total)}</b> ${esc(t("popcorn"))}</div>
      <ul class="ph-breakdown">
        <li>${esc(t("Popcorn bucket:"))} <b>${esc(b.bucket ?? 0)}</b></li>
        <li>${esc(t("Money:"))} <b>${esc(b.money ?? 0)}</b></li>
        <li>${esc(t("Theater trophy:"))} <b>${esc(b.trophy ?? 0)}</b></li>
        ${awards}
      </ul>
      <p class="ph-muted">${esc(tn("Winner: {names}", "Winners: {names}", scores.winners.length, { names: scores.winners.join(", ") }))}</p>`;
  }

  function renderPublic() {
    if (link.failed || !pub || !priv) return; // nothing shows until the hub has accepted the token
    const view = pub;
    const cinema = view.cinemas[seat];
    if (!cinema) {
      link.fail(t("No such seat"), t("This table has {count} players; seat {n} is not one of them.", { count: view.names.length, n: seat + 1 }));
      return;
    }
    tid("phone-name").textContent = cinema.name;
    tid("phone-seat").textContent = t("Seat {n} of {count}", { n: seat + 1, count: view.names.length }) + (tableName ? ` · ${tableName}` : "");
    const turn = turnText(view);
    const turnBox = tid("phone-turn");
    turnBox.className = `ph-turn${turn.urgent ? " urgent" : ""}${view.phase === "over" ? " over" : ""}`;
    turnBox.innerHTML = `<b>${esc(turn.text)}</b>${turn.bits.length ? `<span>${esc(turn.bits.join(" · "))}</span>` : ""}
      ${tableClosed ? `<span>${esc(t("This table is closed."))}</span>` : ""}`;

    const track = ctx.catalog.audience || [];
    const stats = [
      [t("Money"), `$${cinema.money}`, "phone-money"],
      [t("Popcorn"), cinema.popcorn, "phone-popcorn"],
      [t("Audience"), `${cinema.audience}${track.length ? `<small>/${track.length - 1}</small>` : ""}`, "phone-audience"],
      [t("Draws"), cinema.draw, "phone-draw"],
      [t("Ad tokens"), cinema.tokens, "phone-tokens"],
      [t("Awards"), cinema.awards, "phone-awards-count"],
    ];
    const hand = cinema.hand.length
      ? `<h4>${esc(t("Drawn, to seat"))}</h4><div class="ph-hand">${cinema.hand.map((h) => pawnHtml(h.pawn, h.color)).join("")}</div>`
      : "";
    role("cinema").innerHTML = `
      <div class="ph-stats">${stats.map(([label, value, testid]) => `
        <div class="ph-stat"><span>${esc(label)}</span><b data-testid="${testid}">${value}</b></div>`).join("")}
      </div>
      <div class="ph-slots">${cinema.slots.map(slotHtml).join("")}</div>
      ${hand}
      <h4>${esc(t("Guests in your bag"))}</h4>${guestsHtml(cinema.bag, "phone-bag")}
      <h4>${esc(t("Exit zone"))}</h4>${guestsHtml(cinema.exit, "phone-exit")}
      ${cinema.archive.length ? `<p class="ph-muted">${esc(t("Archived movies: {n}", { n: cinema.archive.length }))}</p>` : ""}`;

    const score = tid("phone-score");
    if (view.phase === "over" && view.scores) {
      score.innerHTML = scoreHtml(view);
      score.hidden = false;
    } else {
      score.hidden = true;
    }
  }

  // ---- the player's own turn (phone_turn.js) -----------------------------------------------

  function renderTurn() {
    if (link.failed || !pub || !priv) return;
    const box = tid("phone-play");
    const html = ownTurn.html(pub);
    box.hidden = !html;
    box.innerHTML = html;
    if (busy) box.querySelectorAll("button").forEach((b) => { b.disabled = true; });
  }

  // ---- the bag audit (web/js/audit.js): this player's own bag, with their token -------------

  function renderAudit() {
    const box = tid("phone-audit");
    const audit = priv && priv.audit;
    if (audit) {
      box.innerHTML = auditHtml(audit, pub ? pub.names : [], {
        keyHtml: (color) => pawnHtml(null, color, "small"),
        title: () => t("Checking your bag"),
        hint: () => t("Tap every guest in your bag on your reader, then accept."),
        finished: () => t("My bag is done"),
        empty: (_, n) => tn("No guest was tapped: is your bag really empty? The companion would take its {n} guest out of it.",
          "No guest was tapped: is your bag really empty? The companion would take its {n} guests out of it.", n),
      });
      return;
    }
    const busyElsewhere = pub && pub.audit;
    box.innerHTML = busyElsewhere || !pub || pub.phase === "over" ? ""
      : `<button type="button" class="btn" data-act="audit-start" data-testid="phone-audit-start">${esc(t("Check my bag"))}</button>`;
  }

  root.addEventListener("click", (event) => {
    phoneAuditClick(event, ctx, tableId, seat, token, tid("phone-move-error"),
      () => priv && priv.audit, renderAudit);
  });

  // ---- wiring --------------------------------------------------------------------------------

  function takeView(view, events) {
    if (events !== undefined && events !== null && events < pubEvents) return;
    if (events !== undefined && events !== null) pubEvents = events;
    window.popcornEvents = pubEvents; // for tests and the bench: the state drawn
    pub = view;
    ownTurn.refresh(view, pubEvents);
    renderPublic();
    renderTurn();
    renderAudit();
  }

  // a mat's zone state that played nothing: the public view drawn is the table's as of
  // `events` (it pushes no view)
  ctx.socket.on("mat_zones", (data) => {
    if (data.table !== tableId || pub === null || !(data.events > pubEvents)) return;
    pubEvents = data.events;
    window.popcornEvents = pubEvents;
  });

  link.wire(ctx.socket, {
    onPrivate(view) {
      priv = view;
      renderPrivate();
      renderPublic(); // the headline says whether this phone has a choice to make
      renderTurn();
      renderAudit();
    },
    onState: takeView,
    onInfo(info) {  // the table's name and a first view before the socket is up
      tableName = info.name || "";
      tableClosed = Boolean(info.closed);
      takeView(info.view, info.events);
    },
  });

  return () => {
    link.alive = false;
  };
}

// A player's phone (/phone/<table>/<seat>#token=...): the secret awards (held, and the choice
// during an award draw, or reporting the card drawn when the hub does not deal), plus the
// player's own public cinema and whose turn it is. The token comes from the link's fragment,
// and is kept in localStorage once the hub has accepted it, so a reload without it still works.

import { ApiError, call } from "./api.js";
import { COLORS, actionLabel, esc, letter, pawnHtml } from "./labels.js";
import { ranked } from "./search.js";

const SLOT_NAMES = ["Left", "Center", "Right"];

function tokenKey(tableId, seat) {
  return `popcorn:token:${tableId}:${seat}`;
}

/** The token in the address fragment (#token=...), or null. */
function fragmentToken() {
  const params = new URLSearchParams(location.hash.replace(/^#/, ""));
  const token = params.get("token");
  return token ? token.trim() : null;
}

export function mountPhone(root, ctx, tableId, seat) {
  let alive = true;
  let failed = false;
  const fromLink = fragmentToken();
  let fromStorage = false;
  let token = fromLink;
  if (!token) {
    token = localStorage.getItem(tokenKey(tableId, seat));
    fromStorage = Boolean(token);
  }
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
            <div class="ph-sub" data-testid="phone-seat">Seat ${Number.isInteger(seat) ? seat + 1 : "?"}</div>
          </div>
        </div>
        <div class="ph-turn" data-testid="phone-turn">Connecting…</div>
      </section>
      <div class="ph-cols">
        <div class="ph-col">
          <section class="ph-card ph-score" data-testid="phone-score" hidden></section>
          <section class="ph-card ph-choose" data-testid="award-choice" hidden></section>
          <section class="ph-card ph-report" data-testid="award-report" hidden></section>
          <div class="ph-move-error" data-testid="phone-move-error" role="alert" hidden></div>
          <section class="ph-card ph-awards" data-testid="awards-held">
            <h3>Your awards <span class="ph-secret">secret</span></h3>
            <div data-role="awards"><p class="ph-muted">Loading…</p></div>
          </section>
        </div>
        <div class="ph-col">
          <section class="ph-card ph-cinema" data-testid="phone-cinema">
            <h3>Your cinema</h3>
            <div data-role="cinema"><p class="ph-muted">Loading…</p></div>
          </section>
        </div>
      </div>
    </div>
  </div>`;

  const tid = (id) => root.querySelector(`[data-testid="${id}"]`);
  const role = (name) => root.querySelector(`[data-role="${name}"]`);

  /** Replace the whole screen with an error; nothing private stays in the page. */
  function fail(title, text) {
    if (failed) return;
    failed = true;
    priv = null;
    role("main").remove();
    const box = tid("phone-error");
    box.innerHTML = `
      <div class="ph-error-icon" aria-hidden="true">!</div>
      <h2>${esc(title)}</h2>
      <p>${esc(text)}</p>
      <p class="ph-muted">Table ${esc(tableId)}, seat ${Number.isInteger(seat) ? seat + 1 : "?"}</p>`;
    box.hidden = false;
  }

  if (!Number.isInteger(seat) || seat < 0) {
    fail("This phone link is broken", "The address has no seat number. Open the link from the table's setup screen again.");
    return () => { alive = false; };
  }
  if (!token) {
    fail("This phone has no player link", "Open your own phone link (it has #token=… at the end); the table showed one per player when it was created.");
    return () => { alive = false; };
  }

  // ---- private: awards -----------------------------------------------------------------------

  function cardHtml(card, extra = "") {
    return `<div class="ph-award" ${extra}>
      <div class="ph-award-title">${esc(card.title)}</div>
      <div class="ph-award-cond">${esc(card.condition)}</div>
    </div>`;
  }

  function awardCard(id) {
    const c = ctx.catalog.byId[id];
    return { id, title: c && c.title ? c.title : id, condition: c && c.condition ? c.condition : "" };
  }

  function renderPrivate() {
    if (failed || !priv) return;
    const held = role("awards");
    held.innerHTML = priv.awards.length
      ? priv.awards.map((a) => cardHtml(a, `data-testid="award-held-${esc(a.id)}"`)).join("")
      : `<p class="ph-muted">No award yet.</p>`;

    // Choose 1 of N: the cards drawn, with a keep button where the hub lists keep_award.
    const choose = tid("award-choice");
    const keeps = new Map(priv.legal.filter((m) => m.move === "keep_award").map((m) => [m.card, m]));
    if (priv.choose_from.length) {
      const ready = keeps.size > 0;
      choose.innerHTML = `
        <h2>${ready ? `Choose 1 of ${priv.choose_from.length}` : "Award draw"}</h2>
        <p class="ph-muted">${ready
          ? "Keep one card secretly; the other goes back under the award deck."
          : "Cards drawn so far; draw the next one."}</p>
        <div class="ph-choices">
          ${priv.choose_from.map((card) => `
            <div class="ph-choice${keeps.has(card.id) ? " can-keep" : ""}">
              ${cardHtml(card, `data-testid="choice-${esc(card.id)}"`)}
              ${keeps.has(card.id) ? `<button type="button" class="btn primary ph-keep"
                data-testid="keep-${esc(card.id)}" data-keep="${esc(card.id)}" ${busy ? "disabled" : ""}>
                Keep this one</button>` : ""}
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
      report.innerHTML = `
        <h2>Draw award card ${nth}</h2>
        <p class="ph-muted">Draw the top card of the award deck without showing it, then find it here.</p>
        <div class="search">
          <input type="search" data-testid="award-search" placeholder="Type the card's title…"
            autocomplete="off" aria-label="Award card title">
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
      : `<li class="ph-none">No award card matches “${esc(query)}”.</li>`;
  }

  async function postMove(move, button, doneText) {
    if (busy) return;
    busy = true;
    const errorBox = tid("phone-move-error");
    errorBox.hidden = true;
    root.querySelectorAll("[data-keep], [data-draw]").forEach((b) => { b.disabled = true; });
    if (button) button.classList.add("ph-working");
    try {
      await call(`/api/tables/${encodeURIComponent(tableId)}/moves`, { method: "POST", body: { move }, token });
      if (alive) ctx.toast(doneText, "ok");
    } catch (err) {
      if (!alive) return;
      const text = err instanceof ApiError ? err.message : String(err && err.message ? err.message : err);
      errorBox.innerHTML = `<b>${esc(err instanceof ApiError ? err.code : "ERROR")}</b> ${esc(text)}`;
      errorBox.hidden = false;
      ctx.toast(text, "error");
    } finally {
      busy = false;
      if (alive && !failed) {
        root.querySelectorAll("[data-keep], [data-draw]").forEach((b) => { b.disabled = false; });
        if (button) button.classList.remove("ph-working");
      }
    }
  }

  root.addEventListener("click", (event) => {
    if (failed) return;
    const keep = event.target.closest("button[data-keep]");
    if (keep && priv) {
      const move = priv.legal.find((m) => m.move === "keep_award" && m.card === keep.dataset.keep);
      if (move) postMove(move, keep, `Kept “${awardCard(move.card).title}”.`);
      return;
    }
    const draw = event.target.closest("button[data-draw]");
    if (draw && priv) {
      const move = priv.chance.find((m) => m.move === "draw_award" && m.card === draw.dataset.draw);
      if (move) postMove(move, draw, `Reported “${awardCard(move.card).title}”.`);
    }
  });

  // ---- public: the player's cinema -----------------------------------------------------------

  function turnText(view) {
    const names = view.names;
    const mine = view.waiting.includes(seat);
    const award = view.pending.find((p) => p.kind === "award" && p.player === seat);
    let text;
    let urgent = false;
    if (view.phase === "over") text = "Game over";
    else if (award) { text = "Your award draw"; urgent = true; }
    else if (view.phase === "setup") {
      const others = view.pending.filter((p) => p.kind === "award").map((p) => names[p.player]);
      text = others.length ? `Setting up: ${others.join(", ")} choosing an award` : "Setting up the table";
    }
    else if (view.phase === "buying") {
      if (view.current === seat) { text = "Your turn to buy"; urgent = true; }
      else text = `${names[view.current] ?? "?"}'s turn to buy`;
    } else if (view.phase === "showings") {
      if (mine) { text = "Showings: your turn to act"; urgent = true; }
      else if (view.waiting.length) text = `Showings: waiting for ${view.waiting.map((s) => names[s]).join(", ")}`;
      else text = "Showings";
    } else text = view.phase;
    const bits = [];
    if (view.round > 0 && view.phase !== "over") bits.push(`Round ${view.round}`);
    if (view.last_round && view.phase !== "over") bits.push("last round");
    if (view.first_player === seat) bits.push("you hold the First Player marker");
    return { text, urgent, bits };
  }

  function seatHtml(slot, i) {
    const theater = slot.theater;
    const who = slot.seats[i];
    const color = theater.seat_colors[i] || "grey";
    const mark = who
      ? pawnHtml(who.pawn, who.color)
      : `<span class="dot ph-empty s-${esc(color)}" title="empty ${esc(color === "grey" ? "seat (any color)" : color + " seat")}">${letter(color)}</span>`;
    return `<span class="ph-seatcell">${mark}<small>${esc(actionLabel(theater.seat_actions[i]))}</small></span>`;
  }

  function slotHtml(slot, k) {
    const movie = slot.movie;
    let movieHtml;
    if (movie) {
      const acts = movie.actions.map((a, i) => {
        const cls = i >= slot.visible ? "covered" : slot.used.includes(i) ? "used" : "";
        const title = i >= slot.visible ? "covered by the lobby slider" : slot.used.includes(i) ? "used this round" : "";
        return `<li class="${cls}" ${title ? `title="${title}"` : ""}>${esc(actionLabel(a))}</li>`;
      }).join("");
      movieHtml = `
        <div class="ph-movie"><span class="chip c-${esc(movie.color)}" title="${esc(movie.color)}"></span>
          <b>${esc(movie.title)}</b> <span class="ph-muted">(${esc(movie.color)}, ${letter(movie.color)})</span></div>
        <ul class="ph-acts">${acts}</ul>`;
    } else {
      movieHtml = `<div class="ph-muted">No movie</div>`;
    }
    const theaterHtml = slot.theater
      ? `<div class="ph-seats">${slot.seats.map((_, i) => seatHtml(slot, i)).join("")}</div>`
      : `<div class="ph-muted">No theater</div>`;
    return `<div class="ph-slot${slot.movie || slot.theater ? "" : " is-empty"}" data-testid="slot-${k}">
      <div class="ph-slotname">${SLOT_NAMES[k] || `Slot ${k + 1}`}</div>
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
      <h2>${won ? "You win!" : `Final score: place ${rank} of ${scores.players.length}`}</h2>
      <div class="ph-total"><b data-testid="phone-total">${esc(me.total)}</b> popcorn</div>
      <ul class="ph-breakdown">
        <li>Popcorn bucket: <b>${esc(b.bucket ?? 0)}</b></li>
        <li>Money: <b>${esc(b.money ?? 0)}</b></li>
        <li>Theater trophy: <b>${esc(b.trophy ?? 0)}</b></li>
        ${awards}
      </ul>
      <p class="ph-muted">Winner${scores.winners.length > 1 ? "s" : ""}: ${scores.winners.map(esc).join(", ")}</p>`;
  }

  function renderPublic() {
    if (failed || !pub || !priv) return; // nothing shows until the hub has accepted the token
    const view = pub;
    const cinema = view.cinemas[seat];
    if (!cinema) {
      fail("No such seat", `This table has ${view.names.length} players; seat ${seat + 1} is not one of them.`);
      return;
    }
    tid("phone-name").textContent = cinema.name;
    tid("phone-seat").textContent = `Seat ${seat + 1} of ${view.names.length}${tableName ? ` · ${tableName}` : ""}`;
    const turn = turnText(view);
    const turnBox = tid("phone-turn");
    turnBox.className = `ph-turn${turn.urgent ? " urgent" : ""}${view.phase === "over" ? " over" : ""}`;
    turnBox.innerHTML = `<b>${esc(turn.text)}</b>${turn.bits.length ? `<span>${esc(turn.bits.join(" · "))}</span>` : ""}
      ${tableClosed ? `<span>This table is closed.</span>` : ""}`;

    const track = ctx.catalog.audience || [];
    const stats = [
      ["Money", `$${cinema.money}`, "phone-money"],
      ["Popcorn", cinema.popcorn, "phone-popcorn"],
      ["Audience", `${cinema.audience}${track.length ? `<small>/${track.length - 1}</small>` : ""}`, "phone-audience"],
      ["Draws", cinema.draw, "phone-draw"],
      ["Ad tokens", cinema.tokens, "phone-tokens"],
      ["Awards", cinema.awards, "phone-awards-count"],
    ];
    const hand = cinema.hand.length
      ? `<h4>Drawn, to seat</h4><div class="ph-hand">${cinema.hand.map((h) => pawnHtml(h.pawn, h.color)).join("")}</div>`
      : "";
    role("cinema").innerHTML = `
      <div class="ph-stats">${stats.map(([label, value, testid]) => `
        <div class="ph-stat"><span>${label}</span><b data-testid="${testid}">${value}</b></div>`).join("")}
      </div>
      <div class="ph-slots">${cinema.slots.map(slotHtml).join("")}</div>
      ${hand}
      <h4>Guests in your bag</h4>${guestsHtml(cinema.bag, "phone-bag")}
      <h4>Exit zone</h4>${guestsHtml(cinema.exit, "phone-exit")}
      ${cinema.archive.length ? `<p class="ph-muted">Archived movies: ${cinema.archive.length}</p>` : ""}`;

    const score = tid("phone-score");
    if (view.phase === "over" && view.scores) {
      score.innerHTML = scoreHtml(view);
      score.hidden = false;
    } else {
      score.hidden = true;
    }
  }

  // ---- wiring --------------------------------------------------------------------------------

  function takeView(view, events) {
    if (events !== undefined && events !== null && events < pubEvents) return;
    if (events !== undefined && events !== null) pubEvents = events;
    pub = view;
    renderPublic();
  }

  ctx.socket.on("connect", () => {
    if (failed) return;
    ctx.socket.emit("join_private", { table: tableId, player: seat, token });
    ctx.socket.emit("join", { table: tableId });
  });
  ctx.socket.on("private", (data) => {
    if (failed || !data || data.table !== tableId || !data.view || data.view.player !== seat) return;
    if (!priv) localStorage.setItem(tokenKey(tableId, seat), token);
    const firstPush = !priv;
    priv = data.view;
    renderPrivate();
    if (firstPush) renderPublic();
  });
  ctx.socket.on("state", (data) => {
    if (failed || !data || data.table !== tableId || !data.view) return;
    takeView(data.view, data.events);
  });
  ctx.socket.on("error", (data) => {
    if (failed || !data) return;
    if (data.code === "WRONG_TOKEN") {
      if (fromStorage) localStorage.removeItem(tokenKey(tableId, seat));
      fail("This link is not this player's phone link",
        "The hub did not accept this link for this seat, or it was replaced by a new one. Ask the table for your own QR code: the tablet shows it under Phones.");
    } else if (data.code === "TABLE_NOT_FOUND") {
      fail("No such table", "This hub has no table with this link's id. Was the link copied whole?");
    }
  });

  // The table's name and a first view before the socket is up.
  call(`/api/tables/${encodeURIComponent(tableId)}`).then((info) => {
    if (!alive || failed) return;
    tableName = info.name || "";
    tableClosed = Boolean(info.closed);
    takeView(info.view, info.events);
  }).catch((err) => {
    if (!alive || failed) return;
    if (err instanceof ApiError && err.code === "TABLE_NOT_FOUND") {
      fail("No such table", "This hub has no table with this link's id. Was the link copied whole?");
    }
  });

  return () => {
    alive = false;
  };
}

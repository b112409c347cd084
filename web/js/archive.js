// The archive (/archive): every finished game of this hub, newest first, by pages of 20;
// each with its date, its game and variant, its players with their scores (each a link to
// the player's page) and its winners, and a link to the game's page. Filters by game and by
// a piece of a player's name (kept in the address, so Back and a shared link keep them).
//
// Import: record files chosen here (from `simulate --record`, a table's "Export the game
// record", or another hub's export), each sent to the hub with the admin PIN; the hub checks
// each as `replay` does and adds it, or refuses it with the line and the reason, storing
// nothing. Export: every record as one zip (admin PIN), the plays as CSV (the filters
// apply). Reading needs no secret.

import { call } from "./api.js";
import { num, t, tn } from "./i18n.js";
import { esc } from "./labels.js";
import {
  adminCall, adminDownload, errorLine, gameHref, gameLabel, playerChip, when,
} from "./archive_shared.js";

const PAGE = 20;

function layoutHtml() {
  const hint = t("part of a name"); // outside the template: Babel misses t() in an attribute's quotes
  return `
  <div class="archive">
    <section class="card">
      <div class="row spread">
        <h2>${esc(t("Archive"))}</h2>
        <a class="btn small" href="/setup" data-nav data-testid="archive-tables">${esc(t("Tables"))}</a>
      </div>
      <p class="muted lead">${esc(t("Every finished game of this hub, newest first. Tap a name for that player's games."))}</p>
      <div class="row filters">
        <label class="field inline">${esc(t("Game"))}
          <select data-testid="archive-game"><option value="">${esc(t("All games"))}</option></select></label>
        <label class="field inline">${esc(t("Player"))}
          <input type="search" data-testid="archive-player" autocomplete="off" maxlength="24"
            placeholder="${esc(hint)}"></label>
      </div>
      <div data-testid="archive-list" class="archive-list"><p class="muted">${esc(t("Loading…"))}</p></div>
      <div class="row pager">
        <button type="button" class="btn small" data-testid="archive-newer" disabled>${esc(t("Newer"))}</button>
        <span data-testid="archive-range" class="muted"></span>
        <button type="button" class="btn small" data-testid="archive-older" disabled>${esc(t("Older"))}</button>
      </div>
    </section>
    <section class="card">
      <h2>${esc(t("Import and export"))}</h2>
      <p class="muted lead">${esc(t("Records are checked move by move before they go in; a bad file is refused and changes nothing. Importing, and the records themselves, need the hub's admin PIN."))}</p>
      <div class="row">
        <label class="btn small filebtn">${esc(t("Import records…"))}
          <input type="file" multiple accept=".jsonl,.json,.txt,application/x-ndjson" data-testid="archive-import"></label>
        <button type="button" class="btn small" data-testid="archive-export-zip">${esc(t("Export every record (zip)"))}</button>
        <a class="btn small" data-testid="archive-export-csv" download="plays.csv" href="/api/archive/plays.csv">${esc(t("Export the plays (CSV)"))}</a>
      </div>
      <div data-testid="archive-import-result" class="import-result" hidden></div>
    </section>
  </div>`;
}

/** One game of the list. */
function gameHtml(game) {
  const winners = game.winners.length
    ? tn("Winner: {names}", "Winners: {names}", game.winners.length, { names: game.winners.join(", ") })
    : "";
  const source = game.source === "import" ? t("imported") : game.name || "";
  return `
      <li class="agame" data-testid="archive-row-${esc(game.id)}">
        <div class="ahead">
          <span class="adate">${esc(when(game.date))}</span>
          <b class="agname">${esc(gameLabel(game))}</b>
          <span class="muted asource">${esc(source)}</span>
        </div>
        <div class="aplayers">${game.players.map((p, k) => playerChip(p, `archive-player-${game.id}-${k}`)).join("")}</div>
        <div class="awin" data-testid="archive-winners-${esc(game.id)}">${esc(winners)}</div>
        <a class="btn small" href="${esc(gameHref(game.id))}" data-nav data-testid="archive-open-${esc(game.id)}">${esc(t("Open"))}</a>
      </li>`;
}

export function mountArchive(root, ctx) {
  root.innerHTML = layoutHtml();
  const tid = (id) => root.querySelector(`[data-testid="${id}"]`);
  const list = tid("archive-list");
  const gameBox = tid("archive-game");
  const playerBox = tid("archive-player");
  const result = tid("archive-import-result");
  const controller = new AbortController();
  const { signal } = controller;
  const query = new URLSearchParams(location.search);
  let offset = Math.max(0, Number(query.get("offset")) || 0);
  let total = 0;
  let typing = null;
  let loads = 0; // the number of the latest load (an older answer is dropped)
  playerBox.value = query.get("player") || "";

  function filters() {
    const params = new URLSearchParams();
    if (gameBox.value) params.set("game", gameBox.value);
    if (playerBox.value.trim()) params.set("player", playerBox.value.trim());
    return params;
  }

  /** Keep the filters and the page in the address (no new history entry). */
  function remember() {
    const params = filters();
    if (offset) params.set("offset", String(offset));
    const search = params.toString();
    history.replaceState(null, "", `/archive${search ? `?${search}` : ""}`);
    const csv = filters().toString();
    tid("archive-export-csv").href = `/api/archive/plays.csv${csv ? `?${csv}` : ""}`;
  }

  async function load() {
    const mine = ++loads;
    const params = filters();
    params.set("limit", String(PAGE));
    params.set("offset", String(offset));
    try {
      const page = await call(`/api/archive?${params}`);
      if (mine !== loads || signal.aborted) return;
      total = page.total;
      render(page);
    } catch (err) {
      if (mine === loads && !signal.aborted) list.innerHTML = `<p class="form-error">${errorLine(err)}</p>`;
    }
  }

  function render(page) {
    remember();
    if (!page.games.length) {
      const filtered = filters().toString() !== "";
      list.innerHTML = `<p class="muted" data-testid="archive-empty">${esc(filtered
        ? t("No finished game matches these filters.") : t("No finished game yet: games come here when they end."))}</p>`;
    } else {
      list.innerHTML = `<ul class="agames">${page.games.map(gameHtml).join("")}</ul>`;
    }
    const last = page.offset + page.games.length;
    tid("archive-range").textContent = page.games.length
      ? t("{first}–{last} of {total}", { first: num(page.offset + 1), last: num(last), total: num(page.total) }) : "";
    tid("archive-newer").disabled = page.offset === 0;
    tid("archive-older").disabled = last >= page.total;
  }

  async function loadGames() {
    try {
      const games = await call("/api/games");
      const chosen = query.get("game") || "";
      gameBox.insertAdjacentHTML("beforeend", games.map((g) =>
        `<option value="${esc(g.id)}"${g.id === chosen ? " selected" : ""}>${esc(g.title)}</option>`).join(""));
    } catch {
      // the list still works, unfiltered by game
    }
  }

  function refilter() {
    offset = 0;
    load();
  }

  /** Send each chosen record file; show what went in and what was refused, and why. */
  async function importFiles() {
    const files = [...(tid("archive-import").files || [])];
    tid("archive-import").value = "";
    if (!files.length) return;
    const lines = [];
    let added = 0;
    for (const file of files) {
      try {
        const answer = await adminCall(ctx, "/api/archive", { method: "POST", body: { record: await file.text() } });
        if (!answer) return; // the PIN dialog was cancelled: nothing sent
        added += 1;
        const game = await answer.json();
        lines.push(`<li class="ok" data-testid="archive-import-added">${esc(t("{file}: added ({game}).", { file: file.name, game: gameLabel(game) }))}</li>`);
      } catch (err) {
        lines.push(`<li class="bad" data-testid="archive-import-refused">${esc(file.name)}: ${errorLine(err)}</li>`);
      }
    }
    result.hidden = false;
    result.innerHTML = `<p><b>${esc(tn("{n} record added.", "{n} records added.", added))}</b></p><ul>${lines.join("")}</ul>`;
    if (added) ctx.toast(tn("{n} record added.", "{n} records added.", added), "ok");
    refilter();
  }

  async function exportZip() {
    try {
      await adminDownload(ctx, "/api/archive/export.zip", "popcorn-companion-archive.zip");
    } catch (err) {
      ctx.toast(`${err.code || ""} ${err.message}`.trim(), "error");
    }
  }

  // a change of game reads the player box too: a search typed just before needs no second load
  // (whose redraw would swap the rows under a tap)
  gameBox.addEventListener("change", () => { clearTimeout(typing); refilter(); }, { signal });
  playerBox.addEventListener("input", () => {
    clearTimeout(typing);
    typing = setTimeout(refilter, 300);
  }, { signal });
  tid("archive-newer").addEventListener("click", () => { offset = Math.max(0, offset - PAGE); load(); }, { signal });
  tid("archive-older").addEventListener("click", () => { if (offset + PAGE < total) { offset += PAGE; load(); } }, { signal });
  tid("archive-import").addEventListener("change", importFiles, { signal });
  tid("archive-export-zip").addEventListener("click", exportZip, { signal });
  loadGames().then(load);
  return () => {
    controller.abort();
    clearTimeout(typing);
  };
}

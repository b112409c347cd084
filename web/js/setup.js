// The setup screen (/ and /setup): the tables this hub holds, a form for a new table (players
// in seat order, a bag reader each, the first player, "deal for us"), the one-time PIN and
// phone links of a table just created, and the tag enrollment panel (admin PIN).
//
// This file lays the screen out from the panels' markup, gives every panel one `shared`
// object (setup_shared.js), and keeps the screen live: it loads the hub's tables, readers and
// tag counts, follows the `readers` and `enroll` pushes, polls, and tears it all down at
// unmount. The panels: setup_tables.js (the list of tables), setup_form.js (the new-table
// form, with setup_rows.js, setup_readers.js and setup_created.js), setup_enroll.js (tag
// enrollment, with setup_tagfile.js).

import { call } from "./api.js";
import { enrollHtml, enrollPanel } from "./setup_enroll.js";
import { formHtml, newTableForm } from "./setup_form.js";
import { sharedState } from "./setup_shared.js";
import { tablesHtml, tablesPanel } from "./setup_tables.js";

const POLL_MS = 5000;

function layoutHtml() {
  return `
  <div class="setup">
    ${formHtml()}
    <div class="setup-side">
      ${tablesHtml()}
      ${enrollHtml()}
    </div>
  </div>`;
}

/** Listen to a socket event until the returned function is called. */
function listen(socket, name, fn) {
  socket.on(name, fn);
  return () => socket.off(name, fn);
}

/** The loaders of the hub's lists: each fetches one and hands it to the panels showing it. */
function loaders(shared, { form, tables, enroll }) {
  async function loadTables() {
    try {
      const list = await call("/api/tables");
      if (!shared.alive) return;
      shared.tables = list;
      tables.render();
      form.refreshReaders();
    } catch (err) {
      if (shared.alive && !shared.tables.length) tables.showError(err);
    }
  }
  async function loadReaders() {
    try {
      const list = await call("/api/readers");
      if (!shared.alive) return;
      shared.readers = list;
      form.refreshReaders();
    } catch {
      // the `readers` push or the next poll will bring them
    }
  }
  async function loadCounts() {
    try {
      const data = await call("/api/tags/counts");
      if (shared.alive) enroll.showCounts(data);
    } catch {
      // try again at the next poll
    }
  }
  return { tables: loadTables, readers: loadReaders, counts: loadCounts };
}

/** Follow the hub's pushes; returns the function that stops following them. */
function followPushes(socket, shared, { form, enroll }) {
  const offs = [
    listen(socket, "connect", () => {
      shared.reload.readers();
      shared.reload.tables();
      shared.reload.counts();
      enroll.rejoin();
    }),
    listen(socket, "admin", (data) => {
      enroll.showCounts(data);
      if (data && data.last) enroll.tap(data.last); // a tap made before this screen joined
    }),
    listen(socket, "readers", (list) => {
      if (!Array.isArray(list)) return;
      shared.readers = list;
      form.refreshReaders();
    }),
    listen(socket, "enroll", (data) => enroll.tap(data)),
  ];
  return () => offs.forEach((off) => off());
}

/** Show the setup screen in root; returns the unmount function. */
export function mountSetup(root, ctx) {
  root.innerHTML = layoutHtml();
  const listeners = new AbortController();
  const shared = sharedState(listeners.signal);
  const panels = {
    form: newTableForm(root, ctx, shared),
    tables: tablesPanel(root, ctx, shared),
    enroll: enrollPanel(root, ctx, shared),
  };
  shared.reload = loaders(shared, panels);
  const unfollow = followPushes(ctx.socket, shared, panels);

  panels.form.render();
  panels.enroll.render();
  shared.reload.readers();
  shared.reload.tables();
  shared.reload.counts();
  const timer = setInterval(() => {
    if (document.hidden) return;
    shared.reload.tables();
    shared.reload.counts();
  }, POLL_MS);

  return () => {
    shared.alive = false;
    clearInterval(timer);
    listeners.abort();
    unfollow();
  };
}

// What the setup screen's panels share. setup.js makes one `shared` object and hands it to
// each panel: the hub's readers and tables (the new-table form reads both to tell a free
// reader from a busy one), `alive` (false once the screen is gone, so a late answer is
// dropped), the `signal` that removes every DOM listener at unmount, and `reload`, the
// loaders of the hub's lists. Also the two helpers every panel uses.

import { ApiError } from "./api.js";
import { esc } from "./labels.js";

/** The object the panels share; setup.js fills `reload` in once the panels exist. */
export function sharedState(signal) {
  return {
    alive: true,
    readers: [],  // the /api/readers list
    tables: [],   // the /api/tables list
    signal,       // aborted at unmount: give it to every addEventListener
    reload: null, // {tables, readers, counts}: each loads one list and redraws what shows it
  };
}

/** `tid("x")` is the element under root whose data-testid is "x". */
export function testIds(root) {
  return (id) => root.querySelector(`[data-testid="${id}"]`);
}

/** "CODE: message" for an error from `call`, or the plain message of any other error. */
export function errorHtml(err) {
  if (err instanceof ApiError) return `<b>${esc(err.code)}</b> ${esc(err.message)}`;
  return esc(err && err.message ? err.message : String(err));
}

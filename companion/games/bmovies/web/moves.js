// B Movies' moves as the hub takes them (POST /api/tables/<id>/moves {"move": {...}}): the
// one place that writes a move's JSON, for the tablet (no secret, or the table PIN) and for
// a phone (its player token).

import { call, tableCall } from "../../web/js/api.js";

/** A move's JSON: its kind and its fields (fields left undefined or null are dropped). */
export function bmMove(kind, fields = {}) {
  const move = { move: kind };
  for (const [name, value] of Object.entries(fields)) {
    if (value !== undefined && value !== null && value !== "") move[name] = value;
  }
  return move;
}

/** A move from the tablet: sent with this device's saved PIN, the PIN asked when refused. */
export function tabletMove(tableId, move, askPin) {
  return tableCall(tableId, `/api/tables/${encodeURIComponent(tableId)}/moves`,
    { method: "POST", body: { move } }, askPin);
}

/** A move from a phone, with its player token. */
export function phoneMove(tableId, move, token) {
  return call(`/api/tables/${encodeURIComponent(tableId)}/moves`, { method: "POST", body: { move }, token });
}

// B Movies' moves as the hub takes them (POST /api/tables/<id>/moves {"move": {...}}): the
// one place that writes a move's JSON, for the tablet (no secret, or the table PIN) and for
// a phone (its player token).

import { ApiError, call, savePin, savedPin, tableCall } from "./api.js";
import { t } from "./i18n.js";

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

/** A move one person makes at the tablet for a player (a vote, a hand-reported token) with
 * the table PIN in the body, which is how the hub tells it from that player's phone; the PIN
 * is asked (again) when missing or refused. */
export async function pinMove(tableId, move, askPin) {
  let pin = savedPin(tableId) || await askPin(t("Table PIN:"));
  for (let attempt = 0; pin && attempt < 3; attempt++) {
    try {
      const answer = await call(`/api/tables/${encodeURIComponent(tableId)}/moves`,
        { method: "POST", body: { move, pin }, pin });
      savePin(tableId, pin);
      return answer;
    } catch (err) {
      if (!(err instanceof ApiError) || !["PIN_REQUIRED", "WRONG_PIN"].includes(err.code)) throw err;
      savePin(tableId, null);
      pin = await askPin(t("That PIN is wrong. Table PIN:"));
    }
  }
  throw new ApiError(403, "WRONG_PIN", t("The table PIN was refused three times."));
}

/** A move from a phone, with its player token. */
export function phoneMove(tableId, move, token) {
  return call(`/api/tables/${encodeURIComponent(tableId)}/moves`, { method: "POST", body: { move }, token });
}

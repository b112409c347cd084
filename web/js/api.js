// Talking to the hub's REST API (docs/api.md). Errors come back as {code, params, message},
// shown in this device's language (i18n.js renders the code and params). A request known to
// need the table PIN asks for it first when this device does not know it yet (so no request
// goes out to be refused); the PIN is kept for this table on this device, and a request the
// hub refuses for its PIN (a PIN changed elsewhere, a move the screen could not tell needs
// one) asks again and retries.

import { errorText, language, t } from "./i18n.js";

export class ApiError extends Error {
  constructor(status, code, message, params = {}) {
    super(errorText(code, params, message));
    this.status = status;
    this.code = code;
    this.params = params;
  }
}

const PIN_CODES = new Set(["PIN_REQUIRED", "WRONG_PIN"]);

export function savedPin(table) {
  return localStorage.getItem(`popcorn:pin:${table}`);
}

export function savePin(table, pin) {
  if (pin) localStorage.setItem(`popcorn:pin:${table}`, pin);
  else localStorage.removeItem(`popcorn:pin:${table}`);
}

/** One request; JSON (or text for the record) back, or an ApiError with the hub's code. */
export async function call(path, { method = "GET", body, pin, token } = {}) {
  const headers = { "Content-Type": "application/json", "Accept-Language": language() };
  if (pin) headers["X-Table-Pin"] = pin;
  if (token) headers["X-Player-Token"] = token;
  const response = await fetch(path, {
    method, headers, body: body === undefined ? undefined : JSON.stringify(body),
  });
  const type = response.headers.get("Content-Type") || "";
  const data = type.includes("application/json") ? await response.json() : await response.text();
  if (!response.ok) {
    throw new ApiError(response.status, data.code || "HTTP", data.message || String(data), data.params);
  }
  return data;
}

/**
 * A table request that may need the PIN: sent with the saved PIN; on a PIN refusal, `askPin`
 * (a function returning a promise of the PIN, or null if the user cancels) is asked and the
 * request retried. `needsPin`: the route needs the PIN (docs/api.md), so with no saved PIN
 * it is asked before the request is sent; a cancel then sends nothing and throws
 * `PIN_REQUIRED`.
 */
export async function tableCall(table, path, options, askPin, needsPin = false) {
  let pin = savedPin(table);
  if (needsPin && !pin) {
    pin = await askPin(t("Table PIN:"));
    if (!pin) throw new ApiError(403, "PIN_REQUIRED", "This needs the table's PIN.");
    savePin(table, pin);
  }
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      return await call(path, { ...options, pin });
    } catch (err) {
      if (!(err instanceof ApiError) || !PIN_CODES.has(err.code)) throw err;
      if (err.code === "WRONG_PIN") savePin(table, null);
      pin = await askPin(err.code === "WRONG_PIN" ? t("That PIN is wrong. Table PIN:") : t("Table PIN:"));
      if (!pin) throw err;
      savePin(table, pin);
    }
  }
  throw new ApiError(403, "WRONG_PIN", t("The table PIN was refused three times."));
}

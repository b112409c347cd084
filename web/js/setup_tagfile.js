// Export and import of the hub's whole tag registry (which tag is which pawn), under the
// enrollment panel; both need the admin PIN. Export downloads a JSON file
// (popcorn-tags-<date>.json); Import reads one (a bare registry, or a file that holds one
// under "registry"), asks before replacing every enrolled tag, then PUTs it.

import { ApiError, call } from "./api.js";
import { t, tn } from "./i18n.js";
import { esc } from "./labels.js";
import { testIds } from "./setup_shared.js";

/** The export and import buttons, in this device's language. */
export function tagfileHtml() {
  const exportWord = t("Export tags");
  return `<div class="row tagfile">
          <button type="button" class="btn small" data-testid="enroll-export">${esc(exportWord)}</button>
          <label class="btn small filebtn">${esc(t("Import tags…"))}
            <input type="file" accept=".json,application/json" data-testid="enroll-import">
          </label>
        </div>
        <div class="import-confirm" data-testid="import-confirm" hidden></div>`;
}

/** A request with the hub's admin PIN in its header (api.js sends only table PINs). */
async function adminCall(path, { method = "GET", body, adminPin }) {
  const response = await fetch(path, {
    method,
    headers: { "Content-Type": "application/json", "X-Admin-Pin": adminPin || "" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const type = response.headers.get("Content-Type") || "";
  const data = type.includes("application/json") ? await response.json() : await response.text();
  if (!response.ok) throw new ApiError(response.status, data.code || "HTTP", data.message || String(data), data.params);
  return data;
}

/** Save a registry as a JSON file, through a link clicked once. */
function download(doc) {
  const blob = new Blob([JSON.stringify(doc, null, 1) + "\n"], { type: "application/json" });
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = `popcorn-tags-${new Date().toISOString().slice(0, 10)}.json`;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
}

/**
 * Wire the Export and Import buttons. `admin` is the enrollment panel's PIN box and error
 * line ({pin, fail, clear}); `enrolled()` is how many tags are enrolled now.
 */
export function tagFile(root, ctx, shared, admin, enrolled) {
  const tid = testIds(root);
  const input = tid("enroll-import");
  const box = tid("import-confirm");
  let pending = null; // {name, registry} waiting for "Replace"

  async function exportTags() {
    admin.clear();
    const pin = admin.pin();
    if (!pin) return;
    try {
      const data = await adminCall("/api/tags", { adminPin: pin });
      const doc = { format: data.format, version: data.version, tags: data.tags };
      if (data.cards) doc.cards = data.cards; // version 2: card tags too
      download(doc);
      const cards = doc.cards ? doc.cards.length : 0;
      ctx.toast(cards ? t("Exported {n} pawn tags and {cards} card tags.", { n: doc.tags.length, cards })
        : tn("Exported {n} tag.", "Exported {n} tags.", doc.tags.length), "ok");
    } catch (err) {
      if (shared.alive) admin.fail(err);
    }
  }

  async function readFile() {
    admin.clear();
    const file = input.files && input.files[0];
    input.value = "";
    if (!file) return;
    let doc;
    try {
      doc = JSON.parse(await file.text());
    } catch {
      admin.fail(new Error(t("{name} is not a JSON file.", { name: file.name })));
      return;
    }
    askReplace(file.name, doc);
  }

  /** Ask before the file's tags replace every enrolled one. */
  function askReplace(name, doc) {
    if (doc && typeof doc === "object" && doc.registry) doc = doc.registry;
    const count = (doc && Array.isArray(doc.tags) ? doc.tags.length : 0)
      + (doc && Array.isArray(doc.cards) ? doc.cards.length : 0);
    pending = { name, registry: doc };
    box.innerHTML = `
      <span>${esc(t("Replace all {enrolled} enrolled tags with the {count} tags of {name}?", { enrolled: enrolled(), count, name }))}</span>
      <span class="row">
        <button type="button" class="btn danger small" data-testid="import-replace">${esc(t("Replace"))}</button>
        <button type="button" class="btn small" data-testid="import-cancel">${esc(t("Cancel"))}</button>
      </span>`;
    box.hidden = false;
  }

  async function onAnswer(event) {
    const btn = event.target.closest("button");
    if (!btn || !pending) return;
    if (btn.dataset.testid === "import-cancel") {
      pending = null;
      box.hidden = true;
      return;
    }
    await replace(btn);
  }

  async function replace(btn) {
    const pin = admin.pin();
    if (!pin) return;
    btn.disabled = true;
    try {
      const data = await call("/api/tags", { method: "PUT", body: { admin_pin: pin, registry: pending.registry } });
      ctx.toast(tn("Imported {n} tag.", "Imported {n} tags.", data.tags), "ok");
      pending = null;
      box.hidden = true;
      shared.reload.counts();
    } catch (err) {
      btn.disabled = false;
      if (shared.alive) admin.fail(err);
    }
  }

  const { signal } = shared;
  tid("enroll-export").addEventListener("click", exportTags, { signal });
  input.addEventListener("change", readFile, { signal });
  box.addEventListener("click", onAnswer, { signal });
}

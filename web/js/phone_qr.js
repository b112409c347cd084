// Phone links as QR codes. The hub draws each code as SVG (docs/api.md, "Phone links and QR
// codes") in the answers that make a token: the table's creation, and a seat's re-issue. The
// page shows it as a `data:` image (the CSP allows `img-src data:`), so the token is never in
// a URL the browser fetches. On the table screen, "Phones" shows one player's code again:
// with the table PIN the hub gives that seat a new token, and the old link stops working.

import { ApiError, tableCall } from "./api.js";
import { t } from "./i18n.js";
import { esc } from "./labels.js";

/** A QR code figure: the hub's SVG as an image, big enough to scan at arm's length, with the
 * player's name under it. `phone` is `{seat, name, url, qr_svg}` from the hub. */
export function qrFigure(phone) {
  const src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(phone.qr_svg)}`;
  const alt = t("QR code of {name}'s phone link", { name: phone.name });
  return `<figure class="qr" data-testid="phone-qr-${phone.seat}" data-url="${esc(phone.url)}">
      <img src="${esc(src)}" alt="${esc(alt)}" width="240" height="240">
      <figcaption>${esc(phone.name)}</figcaption></figure>`;
}

function dialogBox() {
  let dialog = document.getElementById("qr-dialog");
  if (!dialog) {
    dialog = document.createElement("dialog");
    dialog.id = "qr-dialog";
    dialog.dataset.testid = "qr-dialog";
    document.body.append(dialog);
  }
  return dialog;
}

function pickerHtml(names) {
  const buttons = names.map((name, seat) => `<button type="button" class="btn" data-qr-seat="${seat}"
      data-testid="qr-seat-${seat}">${esc(name)}</button>`).join("");
  const title = t("Show a phone's QR code");
  const note = t("This makes a new link for that player: the old one stops working.");
  const close = t("Close");
  return `<h2>${esc(title)}</h2>
    <p class="muted">${esc(note)}</p>
    <div class="row qr-seats">${buttons}</div>
    <div class="row"><button type="button" class="btn" data-qr-close data-testid="qr-close">${esc(close)}</button></div>`;
}

/** The "Phones" dialog of the table screen: pick a player, then show their new QR code. */
export function showPhoneQr(ctx, tableId, names) {
  const dialog = dialogBox();
  dialog.innerHTML = pickerHtml(names);
  dialog.onclick = async (event) => {
    if (event.target.closest("[data-qr-close]")) { dialog.close(); return; }
    const btn = event.target.closest("[data-qr-seat]");
    if (!btn) return;
    try {
      const phone = await tableCall(tableId, `/api/tables/${encodeURIComponent(tableId)}/players/${btn.dataset.qrSeat}/token`,
        { method: "POST", body: {} }, ctx.askPin, true);
      const scan = t("Scan it with {name}'s phone. The old link no longer works.", { name: phone.name });
      const done = t("Done");
      dialog.innerHTML = `${qrFigure(phone)}
        <p class="muted">${esc(scan)}</p>
        <div class="row"><button type="button" class="btn primary" data-qr-close data-testid="qr-close">${esc(done)}</button></div>`;
    } catch (err) {
      ctx.toast(err instanceof ApiError ? err.message : String(err), "error");
    }
  };
  if (!dialog.open) dialog.showModal();
}

// Phone links as QR codes. The hub draws each code as SVG (docs/api.md, "Phone links and QR
// codes") in the answers that make or show a link: the table's creation, a seat's link shown
// again, a seat's new link. The page shows it as a `data:` image (the CSP allows `img-src
// data:`), so the token is never in a URL the browser fetches. On the table screen, "Phones"
// shows one player's code again (table PIN): the same link, which keeps working; a new link,
// which ends the old one, only when asked for.

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
  const note = t("Shows that player's link again: the phone that has it keeps working. A new link, which ends the old one, is offered with it.");
  const close = t("Close");
  return `<h2>${esc(title)}</h2>
    <p class="muted">${esc(note)}</p>
    <div class="row qr-seats">${buttons}</div>
    <div class="row"><button type="button" class="btn" data-qr-close data-testid="qr-close">${esc(close)}</button></div>`;
}

/** The dialog once a link is shown: its code, what the link is, Done, and (for a link shown
 * again) a new link that ends it. */
function shownHtml(phone, renewed) {
  const scan = renewed ? t("Scan it with {name}'s phone. The old link no longer works.", { name: phone.name })
    : t("Scan it with {name}'s phone. It is the link {name} already has: it keeps working.", { name: phone.name });
  const done = t("Done");
  const again = renewed ? "" : newLinkButton(phone.seat, phone.name);
  return `${qrFigure(phone)}
    <p class="muted" data-testid="qr-note">${esc(scan)}</p>
    <div class="row">${again}<button type="button" class="btn primary" data-qr-close data-testid="qr-close">${esc(done)}</button></div>`;
}

function newLinkButton(seat, name) {
  const label = t("New link for {name} (the old one stops working)", { name });
  return `<button type="button" class="btn" data-qr-new="${seat}" data-testid="qr-new-${seat}">${esc(label)}</button>`;
}

/** The "Phones" dialog of the table screen: pick a player, see their current link again
 * (with the table PIN; it keeps working), and make a new one only when asked. A hub that
 * restarted since the link was made cannot show it (it keeps no copy on disk): the dialog
 * says so and offers the new link. */
export function showPhoneQr(ctx, tableId, names) {
  const dialog = dialogBox();
  dialog.innerHTML = pickerHtml(names);
  const route = (seat, what) => `/api/tables/${encodeURIComponent(tableId)}/players/${seat}/${what}`;
  // both routes need the table PIN: it is asked first when this device does not know it
  const ask = (seat, what) => tableCall(tableId, route(seat, what), { method: "POST", body: {} }, ctx.askPin, true);
  dialog.onclick = async (event) => {
    if (event.target.closest("[data-qr-close]")) { dialog.close(); return; }
    const show = event.target.closest("[data-qr-seat]");
    const renew = event.target.closest("[data-qr-new]");
    if (!show && !renew) return;
    const seat = Number((show || renew).dataset[show ? "qrSeat" : "qrNew"]);
    try {
      dialog.innerHTML = shownHtml(await ask(seat, renew ? "token" : "link"), Boolean(renew));
    } catch (err) {
      if (err instanceof ApiError && err.code === "LINK_NOT_KEPT") {
        dialog.innerHTML = `<p data-testid="qr-note">${esc(err.message)}</p>
          <div class="row">${newLinkButton(seat, names[seat])}
          <button type="button" class="btn" data-qr-close data-testid="qr-close">${esc(t("Close"))}</button></div>`;
        return;
      }
      ctx.toast(err instanceof ApiError ? err.message : String(err), "error");
    }
  };
  if (!dialog.open) dialog.showModal();
}

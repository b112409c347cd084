// A player's phone at a B Movies table (/phone/<table>/<seat>#token=...): the vote cards the
// player still holds as big buttons (the one chosen for this pitch marked; another tap
// changes it until the reveal), their secret pile of Popcorn tokens and its total, the draws
// they still owe, "report a drawn token by hand" for a table without readers, and their
// studio in Hidden Team. Everything private comes from the hub's `private` push to this
// seat's room (PRIVATE_VIEW), which the hub sends only after accepting the link's token; the
// public view (`state`) says whose turn it is. The link and its token: `PhoneLink`.

import { ApiError } from "../../web/js/api.js";
import { auditHtml, phoneAuditClick } from "../../web/js/audit.js";
import { t, tn } from "../../web/js/i18n.js";
import { esc } from "../../web/js/labels.js";
import { bmMove, phoneMove } from "./moves.js";
import { finalCutHtml } from "./final_cut.js";
import { cardsWord, roleWord, studioWord, voteWord } from "./words.js";
import { PhoneLink } from "../../web/js/phone_link.js";

export function mountPhone(root, ctx, tableId, seat) {
  const link = new PhoneLink(root, tableId, seat);
  const token = link.token;
  let pub = null;
  let pubEvents = -1;
  let priv = null;
  let busy = false;
  const seatText = link.seatText;

  root.innerHTML = `
  <div class="phone bm-phone" data-testid="phone">
    <div class="ph-error" data-testid="phone-error" role="alert" hidden></div>
    <div class="ph-main" data-role="main">
      <section class="ph-head" data-testid="phone-head">
        <div class="ph-who">
          <span class="ph-seatno">${esc(seatText)}</span>
          <div>
            <div class="ph-name" data-testid="phone-name">…</div>
            <div class="ph-sub" data-testid="phone-seat">${esc(t("Seat {n}", { n: seatText }))}</div>
          </div>
        </div>
        <div class="ph-turn" data-testid="phone-turn">${esc(t("connecting…"))}</div>
      </section>
      <div class="ph-move-error" data-testid="phone-move-error" role="alert" hidden></div>
      <div class="ph-cols">
        <div class="ph-col">
          <section class="ph-card bm-ph-vote" data-testid="bm-vote" hidden></section>
          <section class="ph-card bm-ph-draw" data-testid="bm-phone-draw" hidden></section>
          <section class="ph-card bm-ph-final" data-testid="bm-phone-final" hidden></section>
          <section class="ph-card ph-audit" data-testid="phone-audit"></section>
        </div>
        <div class="ph-col">
          <section class="ph-card bm-ph-pile" data-testid="bm-pile">
            <h3>${esc(t("Your Popcorn tokens"))} <span class="ph-secret">${esc(t("secret"))}</span></h3>
            <div data-role="pile"><p class="ph-muted">${esc(t("Loading…"))}</p></div>
          </section>
          <section class="ph-card bm-ph-cards" data-testid="bm-held">
            <h3>${esc(t("Your vote cards"))} <span class="ph-secret">${esc(t("secret"))}</span></h3>
            <div data-role="held"></div>
          </section>
          <section class="ph-card bm-ph-studio" data-testid="bm-studio" hidden></section>
        </div>
      </div>
    </div>
  </div>`;

  const tid = (id) => root.querySelector(`[data-testid="${id}"]`);
  const role = (name) => root.querySelector(`[data-role="${name}"]`);

  link.onFail = () => { priv = null; };  // nothing private stays in the page
  if (!link.usable()) return () => { link.alive = false; };

  function showMoveError(message) {
    const box = tid("phone-move-error");
    if (!box) return;
    box.textContent = message || "";
    box.hidden = !message;
  }

  async function send(move) {
    if (busy) return;
    busy = true;
    try {
      await phoneMove(tableId, move, token);
      showMoveError("");
    } catch (err) {
      showMoveError(err instanceof ApiError ? err.message : String(err));
    } finally {
      busy = false;
    }
  }

  // ---- drawing ---------------------------------------------------------------------------

  function amProducer() {
    return pub && pub.phase === "vote" && pub.producers.includes(seat);
  }

  function turnText() {
    const v = pub;
    const writer = v.players[v.screenwriter] ? v.players[v.screenwriter].name : "";
    if (v.phase === "over") return { text: t("The Final Cut"), urgent: false };
    if (v.phase === "setup") return { text: t("The table is dealing the studios."), urgent: false };
    if (priv && priv.owed > 0) return { text: tn("Draw {n} token from the bucket", "Draw {n} tokens from the bucket", priv.owed), urgent: true };
    if (v.phase === "pitch" && v.screenwriter === seat) return { text: t("You are the Screenwriter: pitch your movie!"), urgent: true };
    if (v.phase === "pitch") return { text: t("{name} is pitching.", { name: writer }), urgent: false };
    if (amProducer() && !priv.my_vote) return { text: t("Vote on {name}'s pitch.", { name: writer }), urgent: true };
    if (amProducer()) return { text: t("Voted: you can change it until the reveal."), urgent: false };
    if (v.phase === "vote") return { text: t("The producers are voting on your pitch."), urgent: false };
    return { text: t("Draws from the bucket."), urgent: false };
  }

  function voteHtml() {
    const v = pub;
    const pitch = v.pitch ? `${cardsWord(v.pitch.cards)}${v.pitch.title ? ` · “${v.pitch.title}”` : ""}` : "";
    const writer = v.players[v.screenwriter].name;
    const cards = v.pitch ? v.pitch.cards : 0;
    const buttons = priv.vote_cards.map((card) => {
      const chosen = priv.my_vote === card;
      const cls = card === "no" ? "no" : card === "yes!" ? "yesbang" : "yes";
      return `<button type="button" class="bm-votecard ${cls}${chosen ? " chosen" : ""}" data-vote="${esc(card)}"
          data-testid="bm-vote-card-${esc(card)}" aria-pressed="${chosen}">${esc(voteWord(card))}
          <small class="bm-means" data-testid="bm-means-${esc(card)}">${esc(voteMeans(card, cards))}</small>
          ${chosen ? `<small class="bm-chosen">${esc(t("chosen"))}</small>` : ""}</button>`;
    }).join("");
    return `<h2>${esc(t("{name}'s pitch", { name: writer }))}</h2>
      <p class="ph-muted">${esc(pitch)}</p>
      <p class="ph-muted">${esc(t("As a {role}, pick one vote card. Nobody sees it until everyone has voted.", { role: roleWord("producer") }))}</p>
      <div class="bm-votecards" data-testid="bm-vote-cards">${buttons}</div>
      <p class="ph-muted" data-testid="bm-vote-help">${esc(t("Yes and Yes! each count as one Yes: the movie is made when the Yes votes are at least the No votes."))}</p>`;
  }

  /** What a vote card brings its player, for the pitch of `cards` Title cards. */
  function voteMeans(card, cards) {
    if (card === "yes!") return tn("+{n} token if the movie is made (one per Title card); played once a game", "+{n} tokens if the movie is made (one per Title card); played once a game", cards);
    if (card === "yes") return t("+1 token if the movie is made");
    return t("+1 token if the pitch is rejected");
  }

  function drawHtml() {
    const values = priv.token_values;
    const buttons = values.map((value) => `<button type="button" class="btn bm-report" data-report="${value}"
        data-testid="bm-report-${value}">${esc(String(value))}</button>`).join("");
    return `<h2 data-testid="bm-phone-owed" data-owed="${priv.owed}">${esc(tn("You draw {n} more token", "You draw {n} more tokens", priv.owed))}</h2>
      <p class="ph-muted">${esc(t("Take them face down from the bucket and tap each one on your reader."))}</p>
      <h4>${esc(t("No reader? Report a drawn token by hand: its value"))}</h4>
      <div class="bm-reports">${buttons}</div>`;
  }

  function pileHtml() {
    const tokens = [...priv.tokens].sort((a, b) => a - b);
    const chips = tokens.length
      ? tokens.map((value) => `<span class="bm-token v${esc(value)}">${esc(String(value))}</span>`).join("")
      : `<span class="ph-muted">${esc(t("no tokens yet"))}</span>`;
    return `<div class="bm-tokens" data-testid="bm-my-tokens" data-values="${esc(tokens.join(","))}">${chips}</div>
      <div class="ph-total">${esc(t("Total"))}: <b data-testid="bm-token-total">${esc(String(priv.token_total))}</b></div>`;
  }

  function heldHtml() {
    if (!priv.vote_cards.length) return `<p class="ph-muted">${esc(t("no vote cards"))}</p>`;
    const played = priv.vote_cards.includes("yes!") ? ""
      : `<p class="ph-muted" data-testid="bm-yes-bang-played">${esc(t("Your Yes! card is played: it is out of the game, so you vote Yes or No from now on."))}</p>`;
    return `<div class="bm-held">${priv.vote_cards.map((card) => `<span class="bm-vote ${card === "no" ? "no" : card === "yes!" ? "yesbang" : "yes"}">${esc(voteWord(card))}</span>`).join("")}</div>
      <p class="ph-muted" data-testid="bm-held-help">${esc(t("Yes! counts as one Yes, but if the movie is made you draw a token per Title card instead of one. It leaves the game once played, whatever the outcome."))}</p>${played}`;
  }

  function render() {
    if (link.failed || !pub || !priv) return; // nothing shows until the hub has accepted the token
    const me = pub.players[seat];
    if (!me) {
      link.fail(t("No such seat"), t("This table has {count} players; seat {n} is not one of them.", { count: pub.players.length, n: seat + 1 }));
      return;
    }
    tid("phone-name").textContent = me.name;
    tid("phone-seat").textContent = t("Seat {n} of {count}", { n: seat + 1, count: pub.players.length });
    const turn = turnText();
    const turnBox = tid("phone-turn");
    turnBox.className = `ph-turn${turn.urgent ? " urgent" : ""}${pub.phase === "over" ? " over" : ""}`;
    turnBox.innerHTML = `<b>${esc(turn.text)}</b>`;
    const vote = tid("bm-vote");
    vote.hidden = !amProducer();
    vote.innerHTML = amProducer() ? voteHtml() : "";
    const draw = tid("bm-phone-draw");
    draw.hidden = !(priv.owed > 0);
    draw.innerHTML = priv.owed > 0 ? drawHtml() : "";
    role("pile").innerHTML = pileHtml();
    role("held").innerHTML = heldHtml();
    const studio = tid("bm-studio");
    studio.hidden = priv.studio === null || priv.studio === undefined;
    studio.innerHTML = studio.hidden ? "" : `<h3>${esc(t("Your studio"))} <span class="ph-secret">${esc(t("secret"))}</span></h3>
      <p class="bm-studio-name" data-testid="bm-my-studio" data-studio="${priv.studio}">${esc(studioWord(priv.studio))}</p>
      <p class="ph-muted">${esc(t("Players with the same studio are a secret team; a studio nobody else has doubles its score."))}</p>`;
    renderAudit();
    const final = tid("bm-phone-final");
    final.hidden = !(pub.phase === "over" && pub.final_cut);
    final.innerHTML = final.hidden ? "" : finalCutHtml(pub.final_cut, pub.players.map((p) => p.name), pub.variant === "hidden");
  }

  /** The pile audit (web/js/audit.js): this player's own pile, with its values. */
  function renderAudit() {
    const box = tid("phone-audit");
    if (priv.audit) {
      box.innerHTML = auditHtml(priv.audit, pub.players.map((p) => p.name), {
        keyHtml: (value) => `<span class="bm-token" aria-hidden="true">${esc(String(value))}</span>`,
        title: () => t("Checking your pile"),
        hint: () => t("Tap every popcorn token of your pile on your pad, then accept."),
        finished: () => t("My pile is done"),
        empty: (_, n) => tn("No token was tapped: is your pile really empty? The companion would take its {n} token out of it.",
          "No token was tapped: is your pile really empty? The companion would take its {n} tokens out of it.", n),
      });
      return;
    }
    box.innerHTML = pub.audit || pub.phase === "over" ? ""
      : `<button type="button" class="btn" data-act="audit-start" data-testid="phone-audit-start">${esc(t("Check my pile"))}</button>`;
  }

  const listeners = new AbortController();
  root.addEventListener("click", (event) => {
    phoneAuditClick(event, ctx, tableId, seat, token, tid("phone-move-error"),
      () => priv && priv.audit, renderAudit);
  }, { signal: listeners.signal });
  root.addEventListener("click", (event) => {
    const card = event.target.closest("button[data-vote]");
    if (card && amProducer()) {
      send(bmMove("vote", { player: seat, vote: card.dataset.vote }));
      return;
    }
    const report = event.target.closest("button[data-report]");
    if (report && priv && priv.owed > 0) send(bmMove("draw_token", { player: seat, value: Number(report.dataset.report) }));
  }, { signal: listeners.signal });

  // ---- wiring ----------------------------------------------------------------------------

  function takeView(view, events) {
    if (events !== undefined && events !== null && events < pubEvents) return;
    if (events !== undefined && events !== null) pubEvents = events;
    pub = view;
    window.popcornEvents = pubEvents;
    render();
  }

  link.wire(ctx.socket, {
    onPrivate(view) {
      priv = view;
      render();
    },
    onState: takeView,
    onInfo: (info) => takeView(info.view, info.events),
  });
  return () => {
    link.alive = false;
    listeners.abort();
  };
}

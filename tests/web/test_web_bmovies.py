"""B Movies' screens in a real browser: the setup form, the tablet, the phones and the Final
Cut, on Debian's Chromium driven by Playwright against a real hub process on loopback.

The secrets are checked where they could leak: the tablet's page and every ``state`` push it
receives never hold a vote before the reveal, nor a token's value; a token reported by hand
shows its value on that player's phone only."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from companion.games.bmovies.record import loads_record, replay
from companion.hub.remote import ServeProcess
from companion.kit.http import HttpError
from tests.web.room import PHONE, READERS, TABLET, Room, call, save_shots, watch_csp
from tests.web.untranslated import foreign_texts, visible_texts

PADS = ["pad-1", "pad-2", "pad-3", "pad-4"]
"""The players' token pads (one reader per seat); no test taps them."""


@pytest.fixture
def hub(tmp_path: Path):
    """A hub process that knows four token pads."""
    server = ServeProcess(tmp_path / "hub.db", readers=PADS).start()
    yield server
    server.stop()


def new_page(browser: Browser, viewport: dict, errors: list[str]) -> Page:
    """A page in its own context (its own localStorage), script errors and CSP violations
    collected."""
    page = browser.new_context(viewport=viewport).new_page()
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    watch_csp(page, errors)
    return page


def record_pushes(page: Page) -> list[dict[str, Any]]:
    """Every Socket.IO ``state`` push the page receives, decoded, in order."""
    pushes: list[dict[str, Any]] = []

    def frame(payload: str | bytes) -> None:
        text = payload if isinstance(payload, str) else payload.decode(errors="replace")
        if text.startswith("42"):
            name, data = json.loads(text[2:])
            if name == "state":
                pushes.append(data)

    page.on("websocket", lambda ws: ws.on("framereceived", frame))
    return pushes


# -- the hub's API, as the test's own hands ----------------------------------------------------


class Api:
    """A B Movies table seen through the hub's API: the public view, and moves sent with a
    player's token or the table PIN."""

    def __init__(self, base: str, table_id: str, pin: str, tokens: list[str]) -> None:
        self.base, self.id, self.pin, self.tokens = base, table_id, pin, tokens

    def view(self) -> dict[str, Any]:
        """The public view."""
        return call(f"{self.base}/api/tables/{self.id}")["view"]

    def move(self, move: dict[str, Any], seat: int | None = None) -> Any:
        """Send a move with seat's token, or with the PIN when no seat is given."""
        headers = ({"X-Player-Token": self.tokens[seat]} if seat is not None
                   else {"X-Table-Pin": self.pin})
        return call(f"{self.base}/api/tables/{self.id}/moves", "POST", {"move": move},
                    headers=headers)

    def draw_by_hand(self, seat: int) -> int:
        """Report one drawn token for seat by hand: the first value the bucket still has."""
        for value in range(5):
            try:
                self.move({"move": "draw_token", "player": seat, "value": value}, seat)
                return value
            except HttpError as exc:
                if exc.code != "NO_TOKEN_OF_VALUE":
                    raise
        raise AssertionError("the bucket has no token of any value")


def create_by_api(hub: ServeProcess, names: list[str], **options: Any) -> Api:
    """A B Movies table made through POST /api/tables."""
    info = hub.create_table({"players": names, "readers": PADS[:len(names)], "game": "b-movies",
                             **options})
    assert info["game"] == "b-movies"
    return Api(hub.base, info["id"], info["pin"], info["tokens"])


def open_tablet(page: Page, api: Api, with_pin: bool = True) -> None:
    """The table screen, with this device knowing the table PIN if asked."""
    page.goto(f"{api.base}/setup")
    if with_pin:
        page.evaluate("([id, pin]) => localStorage.setItem(`popcorn:pin:${id}`, pin)",
                      [api.id, api.pin])
    page.goto(f"{api.base}/table/{api.id}")
    page.wait_for_function("(id) => window.popcornLoaded === id", arg=api.id)
    expect(page.get_by_test_id("bm-table")).to_be_visible()


def open_phone(browser: Browser, api: Api, seat: int, errors: list[str]) -> Page:
    """Seat's phone, opened from its link."""
    phone = new_page(browser, PHONE, errors)
    phone.goto(f"{api.base}/phone/{api.id}/{seat}#token={api.tokens[seat]}")
    expect(phone.get_by_test_id("bm-pile")).to_be_visible()
    expect(phone.get_by_test_id("bm-token-total")).to_be_visible()
    return phone


def phase(page: Page, name: str) -> None:
    """Wait until the tablet draws that phase."""
    expect(page.get_by_test_id("bm-table")).to_have_attribute("data-phase", name, timeout=15000)


VOTE_KEYS = {"vote", "votes", "my_vote"}


def vote_values(data: Any) -> list[Any]:
    """Every vote value anywhere in a JSON document (a key named vote, votes or my_vote with a
    value, or a reveal)."""
    found: list[Any] = []
    if isinstance(data, dict):
        for key, value in data.items():
            if (key in VOTE_KEYS and value) or (key == "reveal" and value):
                found.append(value)
            found += vote_values(value)
    elif isinstance(data, list):
        for item in data:
            found += vote_values(item)
    return found


# -- the tests ---------------------------------------------------------------------------------


def test_a_b_movies_turn_from_the_setup_screen_to_the_draws(
        hub: ServeProcess, browser: Browser) -> None:
    """A 4-player table made on the setup screen; a pitch on the tablet; phones vote in secret
    (one changes its vote) while the tablet shows only who has voted; the reveal; owed draws,
    one reported by hand on a phone; Undo."""
    errors: list[str] = []
    tablet = new_page(browser, TABLET, errors)
    pushes = record_pushes(tablet)
    tablet.goto(f"{hub.base}/setup")
    tablet.get_by_test_id("game-b-movies").check()
    expect(tablet.get_by_test_id("deal-for-us")).to_be_hidden()  # no "deal for us" to choose
    names = ["Ana", "Bob", "Chloe", "Dan"]
    tablet.get_by_test_id("add-player").click()  # B Movies starts with 3 rows
    for k, name in enumerate(names):
        tablet.get_by_test_id(f"player-name-{k}").fill(name)
        tablet.get_by_test_id(f"player-reader-{k}").select_option(PADS[k])
    tablet.get_by_test_id("first-player-1").check()
    # its options, from the schema the hub gives: Hidden Team's studio deal only for Hidden Team
    expect(tablet.get_by_test_id("option-b-movies-variant-standard")).to_be_checked()
    expect(tablet.get_by_test_id("option-b-movies-studios-deal")).to_be_hidden()
    tablet.get_by_test_id("option-b-movies-variant-hidden").check()
    expect(tablet.get_by_test_id("option-b-movies-studios-deal")).to_be_checked()
    tablet.get_by_test_id("option-b-movies-variant-standard").check()
    expect(tablet.get_by_test_id("option-b-movies-studios-deal")).to_be_hidden()
    save_shots(tablet, "bmovies-setup")
    tablet.get_by_test_id("create-table").click()
    pin = tablet.get_by_test_id("created-pin")
    expect(pin).to_have_text(re.compile(r"^\d{6}$"))
    tables = call(f"{hub.base}/api/tables")
    assert len(tables) == 1 and tables[0]["players"] == names and tables[0]["readers"] == PADS
    tokens = []
    for k in range(4):
        href = tablet.get_by_test_id(f"phone-link-{k}").get_attribute("href") or ""
        tokens.append(href.split("#token=")[1])
    api = Api(hub.base, tables[0]["id"], pin.inner_text(), tokens)
    expect(tablet.get_by_test_id(f"table-{api.id}")).to_contain_text("B Movies")
    tablet.get_by_test_id("open-table").click()
    phase(tablet, "pitch")

    view = api.view()
    assert view["game"] == "b-movies" and view["first_player"] == 1 and view["screenwriter"] == 1
    expect(tablet.get_by_test_id("bm-round")).to_have_attribute("data-round", "1")
    expect(tablet.get_by_test_id("bm-round")).to_have_attribute("data-rounds", str(view["rounds"]))
    expect(tablet.get_by_test_id("bm-clapboards")).to_have_attribute(
        "data-count", str(view["clapboards"]))
    # the first player and the screenwriter are badges on their cards (the header keeps to
    # one line in every language)
    expect(tablet.get_by_test_id("bm-player-1").get_by_test_id("bm-first-player")).to_be_visible()
    expect(tablet.get_by_test_id("bm-player-1").get_by_test_id("bm-screenwriter")).to_be_visible()
    expect(tablet.get_by_test_id("bm-bucket")).to_have_attribute("data-count", str(view["bucket"]))
    save_shots(tablet, "bmovies-table-pitch")

    # the pitch: a typed title, then three Title cards
    tablet.get_by_test_id("pitch-title").fill("Attack of the Killer Tomatoes")
    tablet.get_by_test_id("pitch-size-3").click()
    phase(tablet, "vote")
    assert api.view()["pitch"] == {"cards": 3, "title": "Attack of the Killer Tomatoes"}

    phones = {seat: open_phone(browser, api, seat, errors) for seat in (0, 2, 3)}
    for phone in phones.values():
        expect(phone.get_by_test_id("bm-vote-cards")).to_be_visible()
    ana = phones[0]
    ana.get_by_test_id("bm-vote-card-yes").click()
    expect(ana.get_by_test_id("bm-vote-card-yes")).to_have_attribute("aria-pressed", "true")
    expect(tablet.get_by_test_id("bm-voter-0")).to_have_attribute("data-voted", "true")
    ana.get_by_test_id("bm-vote-card-no").click()  # changed before the reveal
    expect(ana.get_by_test_id("bm-vote-card-no")).to_have_attribute("aria-pressed", "true")
    expect(ana.get_by_test_id("bm-vote-card-yes")).to_have_attribute("aria-pressed", "false")
    phones[2].get_by_test_id("bm-vote-card-yes!").click()
    expect(tablet.get_by_test_id("bm-voter-2")).to_have_attribute("data-voted", "true")
    expect(tablet.get_by_test_id("bm-voter-3")).to_have_attribute("data-voted", "false")
    expect(tablet.get_by_test_id("bm-voted-count")).to_contain_text("2")
    save_shots(phones[2], "bmovies-phone-vote")
    save_shots(tablet, "bmovies-table-voting")

    # before the reveal: no vote in the tablet's page, its pushes or the public view
    html = tablet.content()
    assert "data-vote=" not in html and "bm-reveal" not in html
    assert pushes and all(p["view"]["reveal"] is None for p in pushes)
    assert vote_values([p["view"] for p in pushes]) == []
    assert vote_values(api.view()) == []
    seen = len(pushes)

    phones[3].get_by_test_id("bm-vote-card-yes").click()  # the last vote: the reveal
    phase(tablet, "draw")
    expect(tablet.get_by_test_id("bm-reveal-vote-0")).to_have_attribute("data-vote", "no")
    expect(tablet.get_by_test_id("bm-reveal-vote-2")).to_have_attribute("data-vote", "yes!")
    expect(tablet.get_by_test_id("bm-reveal-vote-3")).to_have_attribute("data-vote", "yes")
    expect(tablet.get_by_test_id("bm-tally")).to_contain_text("Yes 2")
    expect(tablet.get_by_test_id("bm-tally")).to_contain_text("No 1")
    expect(tablet.get_by_test_id("bm-outcome")).to_have_attribute("data-made", "true")
    expect(tablet.get_by_test_id("bm-outcome")).to_have_text("MADE")
    # the draws owed: Yes! draws one per Title card, Yes one, No none
    expect(tablet.get_by_test_id("bm-draw-2")).to_have_attribute("data-owed", "3")
    expect(tablet.get_by_test_id("bm-draw-3")).to_have_attribute("data-owed", "1")
    expect(tablet.get_by_test_id("bm-draw-0")).to_have_count(0)
    expect(tablet.get_by_test_id("bm-movies-1")).to_have_attribute("data-count", "1")
    expect(tablet.get_by_test_id("bm-movies-1")).to_contain_text("Attack of the Killer Tomatoes")
    assert len(pushes) > seen
    save_shots(tablet, "bmovies-table-reveal")

    # Dan reports his token by hand: its value on his phone only, a count on the tablet
    dan = phones[3]
    expect(dan.get_by_test_id("bm-phone-owed")).to_have_attribute("data-owed", "1")
    expect(ana.get_by_test_id("bm-phone-draw")).to_be_hidden()
    dan.get_by_test_id("bm-report-2").click()
    expect(dan.get_by_test_id("bm-my-tokens")).to_have_attribute("data-values", "2")
    expect(dan.get_by_test_id("bm-token-total")).to_have_text("2")
    expect(dan.get_by_test_id("bm-phone-draw")).to_be_hidden()
    expect(tablet.get_by_test_id("bm-tokens-3")).to_have_text("1")
    expect(tablet.get_by_test_id("bm-draw-3")).to_have_attribute("data-owed", "0")
    assert tablet.locator('[data-testid="bm-player-3"] .bm-token.v2').count() == 0
    expect(ana.get_by_test_id("bm-my-tokens")).to_have_attribute("data-values", "")
    assert all("tokens" not in p or isinstance(p["tokens"], int) for p in api.view()["players"])
    save_shots(dan, "bmovies-phone-draw")

    # Chloe's three draws (through the API); Undo takes the last one back
    for _ in range(3):
        api.draw_by_hand(2)
    expect(tablet.get_by_test_id("bm-tokens-2")).to_have_text("3")
    phase(tablet, "pitch")  # every draw in: Chloe pitches next
    expect(tablet.get_by_test_id("bm-player-2").get_by_test_id("bm-screenwriter")).to_be_visible()
    tablet.get_by_test_id("undo").click()
    phase(tablet, "draw")
    expect(tablet.get_by_test_id("bm-tokens-2")).to_have_text("2")
    expect(tablet.get_by_test_id("bm-draw-2")).to_have_attribute("data-owed", "1")
    assert api.view()["players"][2]["owed"] == 1
    for page in (tablet, *phones.values()):
        page.context.close()
    assert errors == []


def test_votes_entered_on_the_tablet_with_the_pin_and_undone(
        hub: ServeProcess, browser: Browser) -> None:
    """A table with cardboard vote cards: the tablet asks the PIN once, then one person enters
    each producer's vote; the reveal follows the last one; Undo (the PIN known) takes the
    revealed vote back."""
    errors: list[str] = []
    api = create_by_api(hub, ["Ana", "Bob", "Chloe"], variant="standard")
    tablet = new_page(browser, TABLET, errors)
    open_tablet(tablet, api, with_pin=False)
    tablet.get_by_test_id("pitch-size-2").click()
    phase(tablet, "vote")
    writer = api.view()["screenwriter"]
    producers = [s for s in range(3) if s != writer]
    tablet.get_by_test_id("bm-enter-votes").click()
    tablet.locator("#pin-input").fill(api.pin)
    tablet.locator("#pin-ok").click()
    expect(tablet.get_by_test_id("bm-enter-votes")).to_have_attribute("aria-pressed", "true")
    tablet.get_by_test_id(f"bm-tablet-vote-{producers[0]}-no").click()
    voter = tablet.get_by_test_id(f"bm-voter-{producers[0]}")
    expect(voter).to_have_attribute("data-voted", "true")
    assert api.view()["reveal"] is None
    save_shots(tablet, "bmovies-table-tablet-votes")
    tablet.get_by_test_id(f"bm-tablet-vote-{producers[1]}-no").click()
    phase(tablet, "draw")
    expect(tablet.get_by_test_id("bm-outcome")).to_have_attribute("data-made", "false")
    expect(tablet.get_by_test_id("bm-outcome")).to_have_text("REJECTED")
    expect(tablet.get_by_test_id("bm-tally")).to_contain_text("No 2")
    for seat in producers:  # a rejected pitch: each No voter draws one
        expect(tablet.get_by_test_id(f"bm-draw-{seat}")).to_have_attribute("data-owed", "1")

    tablet.get_by_test_id("undo").click()  # the PIN is known on this device now
    phase(tablet, "vote")
    voter = tablet.get_by_test_id(f"bm-voter-{producers[1]}")
    expect(voter).to_have_attribute("data-voted", "false")
    assert api.view()["reveal"] is None
    tablet.get_by_test_id(f"bm-tablet-vote-{producers[1]}-yes").click()
    phase(tablet, "draw")
    expect(tablet.get_by_test_id("bm-outcome")).to_have_attribute("data-made", "true")
    tablet.context.close()
    assert errors == []


def play_to_the_end(api: Api) -> None:
    """Every pitch of four cards, every producer voting Yes! while they hold it, every draw
    reported by hand, until the Final Cut."""
    for _ in range(500):
        view = api.view()
        if view["phase"] == "over":
            return
        if view["phase"] == "pitch":
            api.move({"move": "pitch", "player": view["screenwriter"], "cards": 4,
                      "title": f"Movie {len(view['history']) + 1}"})
        elif view["phase"] == "vote":
            for seat in view["producers"]:
                if not view["players"][seat]["voted"]:
                    yes_bang = view["players"][seat]["has_yes_bang"] and seat % 2 == 0
                    vote = "yes!" if yes_bang else "yes"
                    api.move({"move": "vote", "player": seat, "vote": vote}, seat)
        elif view["phase"] == "draw":
            for player in view["players"]:
                if player["owed"]:
                    api.draw_by_hand(player["seat"])
        else:
            raise AssertionError(f"unexpected phase {view['phase']}")
    raise AssertionError("the game never ended")


def test_the_final_cut_of_a_hidden_team_game(hub: ServeProcess, browser: Browser) -> None:
    """Hidden Team with the cardboard deal: the studios entered on the tablet with the PIN,
    the game played to the end through the API, then the Final Cut: every player's tokens,
    movies and score, the studios, the team formed and the doubled single, the winners."""
    errors: list[str] = []
    api = create_by_api(hub, ["Ana", "Bob", "Chloe"], variant="hidden", studios="entered")
    tablet = new_page(browser, TABLET, errors)
    open_tablet(tablet, api)
    phase(tablet, "setup")
    expect(tablet.get_by_test_id("bm-studio-deal")).to_be_visible()
    deal = [2, 2, 4]  # 3 players: two copies of one studio, one of another
    for seat, studio in enumerate(deal):
        tablet.get_by_test_id(f"bm-deal-{seat}").select_option(str(studio))
    tablet.get_by_test_id("bm-deal-send").click()
    phase(tablet, "pitch")
    assert "studio" not in json.dumps(api.view()["players"])  # secret until the Final Cut
    phone = open_phone(browser, api, 2, errors)
    expect(phone.get_by_test_id("bm-my-studio")).to_have_attribute("data-studio", "4")

    play_to_the_end(api)
    phase(tablet, "over")
    scores = call(f"{api.base}/api/tables/{api.id}/scores")
    final = tablet.get_by_test_id("final-cut")
    expect(final).to_be_visible()
    for p in scores["players"]:
        expect(tablet.get_by_test_id(f"fc-score-{p['seat']}")).to_have_text(str(p["score"]))
        studio = tablet.get_by_test_id(f"fc-studio-{p['seat']}")
        expect(studio).to_contain_text(str(deal[p["seat"]] + 1))
        shown = tablet.get_by_test_id(f"fc-tokens-{p['seat']}").locator(".bm-token")
        expect(shown).to_have_count(len(p["tokens"]))
    assert {tuple(s["members"]) for s in scores["sides"]} == {(0, 1), (2,)}
    for i, side in enumerate(scores["sides"]):
        row = tablet.get_by_test_id(f"fc-side-{i}")
        expect(row).to_have_attribute("data-members", ",".join(map(str, side["members"])))
        expect(row).to_have_attribute("data-doubled", "true" if side["members"] == [2] else "false")
        expect(row).to_contain_text(str(side["total"]))
    assert scores["winners"]
    for i in scores["winners"]:
        expect(tablet.get_by_test_id(f"fc-side-{i}")).to_have_class(re.compile(r"\bwon\b"))
    expect(tablet.get_by_test_id("fc-winners")).to_contain_text("Winner")
    expect(final).to_contain_text("Movie 1")
    save_shots(tablet, "bmovies-final-cut")
    with tablet.expect_download() as download:
        tablet.get_by_test_id("export-record").click()
    record = loads_record(Path(download.value.path()).read_text(encoding="utf-8"))
    assert list(record.names) == ["Ana", "Bob", "Chloe"] and record.variant == "hidden"
    assert replay(record).is_over
    expect(phone.get_by_test_id("final-cut")).to_be_visible()
    save_shots(phone, "bmovies-phone-final-cut")
    tablet.context.close()
    phone.context.close()
    assert errors == []


def test_token_enrollment_counts_taps_live_and_moves_on(room: Room, browser: Browser) -> None:
    """The setup screen's Popcorn tokens: the counts against the box's capacity (from the
    hub), a tap enrolls the next token of the value chosen, and a full value moves on to the
    next value by itself."""
    errors: list[str] = []
    capacity = call(f"{room.base}/api/tags/counts")["token_capacity"]
    assert capacity == {"0": 25, "1": 28, "2": 25, "3": 15, "4": 5}
    page = new_page(browser, TABLET, errors)
    page.goto(f"{room.base}/setup")
    ids = "b-movies-token"  # the kind's test ids: its game and kind, from the hub's list
    for value, cap in capacity.items():
        expect(page.get_by_test_id(f"enroll-piece-count-{ids}-{value}")).to_have_text(f"0 / {cap}")
    page.get_by_test_id("enroll-admin-pin").fill(room.server.admin_pin)
    page.get_by_test_id(f"enroll-piece-{ids}-0").click()
    page.get_by_test_id(f"enroll-pieces-start-{ids}").click()
    status = page.get_by_test_id(f"enroll-pieces-status-{ids}")
    expect(status).to_contain_text("popcorn token “0”")
    for n in range(capacity["0"]):
        room.bank.tap("bag-1", f"04cc000000{n:04x}")
        if n == 2:
            expect(page.get_by_test_id(f"enroll-piece-count-{ids}-0")).to_have_text("3 / 25")
            # a token's last tap is told in the tokens' section, not under Pawn tags
            expect(page.get_by_test_id("enroll-pieces-last")).to_contain_text("popcorn token")
            expect(page.get_by_test_id("enroll-last")).to_be_hidden()
    expect(page.get_by_test_id(f"enroll-piece-count-{ids}-0")).to_have_text("25 / 25",
                                                                           timeout=15000)
    expect(status).to_contain_text("popcorn token “1”")  # moved on
    room.bank.tap("bag-2", "04cc0000000100")
    expect(page.get_by_test_id(f"enroll-piece-count-{ids}-1")).to_have_text("1 / 28")
    save_shots(page, "bmovies-setup-tokens")
    page.get_by_test_id("enroll-stop").click()
    expect(status).to_contain_text("Not enrolling")
    status = call(f"{room.base}/api/tags/counts")
    assert status["tokens"]["0"] == 25 and status["tokens"]["1"] == 1
    assert status["enrolling_tokens"] is None
    assert errors == []


def test_a_token_tapped_on_a_pad_draws_or_raises_an_alert(room: Room, browser: Browser) -> None:
    """Tokens with tags: a tap by a player owed a draw draws that token (a count on the
    tablet, the value on that phone only); a tap by a player owed nothing, or of a token
    already drawn, is an alert on the tablet and changes nothing."""
    errors: list[str] = []
    admin = {"admin_pin": room.server.admin_pin}
    call(f"{room.base}/api/enroll", "POST", {**admin, "tokens": 3})
    uids = [f"04dd000000{n:04x}" for n in range(2)]
    for uid in uids:
        room.bank.tap("bag-1", uid)
    assert room.bank.wait_acked(10)
    call(f"{room.base}/api/enroll", "DELETE", admin)
    assert call(f"{room.base}/api/tags/counts")["tokens"]["3"] == 2
    info = room.server.create_table({"players": ["Ana", "Bob", "Chloe"], "readers": READERS,
                                     "game": "b-movies"})
    api = Api(room.base, info["id"], info["pin"], info["tokens"])
    tablet = new_page(browser, TABLET, errors)
    open_tablet(tablet, api)
    phase(tablet, "pitch")
    room.bank.tap("bag-1", uids[0])  # Ana pitches next: she owes no draw
    alert = tablet.get_by_test_id("alert")
    expect(alert).to_have_attribute("data-code", "TOKEN_NOT_OWED", timeout=15000)
    expect(alert).to_contain_text("Ana")
    save_shots(tablet, "bmovies-table-alert")
    assert api.view()["bucket"] == 98
    tablet.locator('[data-testid="alert"] [data-act="dismiss"]').click()
    expect(alert).to_have_count(0)

    api.move({"move": "pitch", "player": 0, "cards": 2})
    for seat in (1, 2):
        api.move({"move": "vote", "player": seat, "vote": "no"}, seat)
    phase(tablet, "draw")
    bob = open_phone(browser, api, 1, errors)
    room.bank.tap("bag-2", uids[0])  # Bob owes one: he draws that 3
    expect(tablet.get_by_test_id("bm-tokens-1")).to_have_text("1", timeout=15000)
    expect(bob.get_by_test_id("bm-my-tokens")).to_have_attribute("data-values", "3")
    assert "3" not in tablet.get_by_test_id("bm-player-1").inner_text().replace("Bob", "")
    room.bank.tap("bag-3", uids[0])  # Chloe taps the token Bob drew
    expect(alert).to_have_attribute("data-code", "TOKEN_ALREADY_DRAWN", timeout=15000)
    expect(tablet.get_by_test_id("bm-tokens-2")).to_have_text("0")
    assert api.view()["players"][2]["owed"] == 1
    tablet.context.close()
    bob.context.close()
    assert errors == []


def localized_page(browser: Browser, viewport: dict, lang: str, errors: list[str]) -> Page:
    """A page whose device chose ``lang`` (kept in localStorage, as the header's picker does)."""
    page = new_page(browser, viewport, errors)
    page.add_init_script(f"localStorage.setItem('popcorn:lang', '{lang}');")
    return page


def speaks(page: Page, lang: str, names: list[str], screen: str) -> None:
    """The page is drawn in ``lang`` with no English word left (names aside)."""
    page.wait_for_function("(l) => document.documentElement.lang === l", arg=lang)
    page.screenshot(path=str(Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"
                             / f"bmovies-{lang}-{screen}.png"), full_page=True)
    assert foreign_texts(visible_texts(page), lang, names) == [], (lang, screen)


@pytest.mark.parametrize("lang", ["fr", "de", "ja"])
def test_b_movies_screens_speak_the_devices_language(
        hub: ServeProcess, browser: Browser, lang: str) -> None:
    """A Hidden Team game (the hub deals the studios) on a tablet and a phone in French,
    German or Japanese: the vote, the reveal with its draws, and the Final Cut hold no English
    word."""
    errors: list[str] = []
    api = create_by_api(hub, ["Ana", "Bob", "Chloe"], variant="hidden", studios="deal")
    names = ["Ana", "Bob", "Chloe", "Table 1", "Popcorn", "Companion", "B Movies"]
    tablet = localized_page(browser, TABLET, lang, errors)
    open_tablet(tablet, api)
    phone = localized_page(browser, PHONE, lang, errors)
    phone.goto(f"{api.base}/phone/{api.id}/1#token={api.tokens[1]}")
    expect(phone.get_by_test_id("bm-my-studio")).to_be_visible()
    api.move({"move": "pitch", "player": 0, "cards": 3, "title": "Zombie Beach"})
    names.append("Zombie Beach")
    phase(tablet, "vote")
    api.move({"move": "vote", "player": 2, "vote": "yes!"}, 2)
    expect(phone.get_by_test_id("bm-vote-cards")).to_be_visible()
    speaks(tablet, lang, names, "table-voting")
    speaks(phone, lang, names, "phone-vote")
    phone.get_by_test_id("bm-vote-card-yes").click()  # made: Bob draws one
    phase(tablet, "draw")
    expect(phone.get_by_test_id("bm-phone-owed")).to_be_visible()
    speaks(tablet, lang, names, "table-reveal")
    speaks(phone, lang, names, "phone-draw")
    play_to_the_end(api)
    names += [f"Movie {n}" for n in range(1, 20)]
    phase(tablet, "over")
    expect(phone.get_by_test_id("final-cut")).to_be_visible()
    speaks(tablet, lang, names, "final-cut")
    speaks(phone, lang, names, "phone-final-cut")
    tablet.context.close()
    phone.context.close()
    assert errors == []


def test_a_hidden_team_table_from_the_setup_form_in_french(
        hub: ServeProcess, browser: Browser) -> None:
    """The setup form builds B Movies' options from the schema the hub gives, in the
    device's language: Hidden Team shows the studio deal (hidden for a standard game), and
    the table is created with ``{"game", "options"}`` as the form holds them."""
    errors: list[str] = []
    tablet = localized_page(browser, TABLET, "fr", errors)
    tablet.goto(f"{hub.base}/setup")
    tablet.get_by_test_id("game-b-movies").check()
    options = tablet.locator('[data-role="game-options"][data-game="b-movies"]')
    expect(options).to_contain_text("Équipes cachées")  # the enumTitles, in French
    expect(options).to_contain_text("De 3 à 6 joueurs.")
    expect(tablet.get_by_test_id("hints")).to_be_hidden()  # B Movies has no hints
    tablet.get_by_test_id("option-b-movies-variant-hidden").check()
    tablet.get_by_test_id("option-b-movies-studios-entered").check()
    for k, name in enumerate(["Ana", "Bob", "Chloe"]):
        tablet.get_by_test_id(f"player-name-{k}").fill(name)
        tablet.get_by_test_id(f"player-reader-{k}").select_option(PADS[k])
    tablet.get_by_test_id("create-table").click()
    expect(tablet.get_by_test_id("created-pin")).to_have_text(re.compile(r"^\d{6}$"))
    table = call(f"{hub.base}/api/tables")[0]
    info = call(f"{hub.base}/api/tables/{table['id']}")
    assert (info["game"], info["options"]) == ("b-movies",
                                               {"variant": "hidden", "studios": "entered"})
    assert info["deal_for_us"] is False  # the table deals its own studio cards
    tablet.context.close()
    assert errors == []

"""A guest tapped into a bag that may have come from several places, on the table screen.

A tag says which pawn, not which place: a guest gained from another player's exit zone (the
reserve has none of its color), never tapped so far, may have come from Bob's exit zone or
Chloe's. The hub takes it from the first at once, and the side panel says so and offers the
other place; one tap there moves the gain. A French tablet reads the prompt in French.
Real parts: a serve process, virtual bag readers on pseudo-terminals, Chromium.
"""

from __future__ import annotations

from playwright.sync_api import Browser, Page, expect

from companion.games.popcorn.engine import pawns as P
from companion.games.popcorn.remote import RemoteTable
from tests.waiting import wait_for
from tests.web.room import Room, Tablet, call
from tests.web.test_web_cards import english_left, french_page


def gain_from_exit_zones(room: Room) -> tuple[RemoteTable, str]:
    """A 3-player table where Ana can buy a Premiers movie, its color gone from the reserve
    (corrected into the box with the PIN, as a table would), and the movie bought: Ana must
    gain a guest of that color from Bob's or Chloe's exit zone. The table and the color."""
    for seed in range(1, 40):
        table = room.table(["Ana", "Bob", "Chloe"], seed)
        state = table.state
        buy = next((m for m in state.legal_moves() if m.kind == "buy_movie"
                    and m.card in state.premiers and m.player == 0), None)
        pin = {"X-Table-Pin": table.info["pin"]}
        if buy is None:
            call(f"{room.base}/api/tables/{table.id}/close", "POST", {}, pin)
            continue
        color = state.catalog.movies[buy.card].color
        while any(state.pawn_color[q] == color for q in state.pawns_at(P.RESERVE)):
            call(f"{room.base}/api/tables/{table.id}/correct", "POST",
                 {"color": color, "from": {"zone": "reserve"}, "zone": "box"}, pin)
            state = table.state
        call(f"{room.base}/api/tables/{table.id}/moves", "POST", {"move": buy.to_dict()})
        return table, color
    raise AssertionError("no seed lets Ana buy a Premiers movie")


def test_the_place_a_tapped_guest_came_from_is_one_tap(room: Room, page: Page,
                                                       browser: Browser) -> None:
    table, color = gain_from_exit_zones(room)
    tablet = Tablet(page, room, table).open()
    state = table.state
    bobs = next(q for q in state.pawns_at(P.exit_zone(1)) if state.pawn_color[q] == color)
    count = table.count
    room.bank.tap("bag-1", room.uids[bobs])
    page.wait_for_function("(n) => (window.popcornEvents ?? -1) > n", arg=count, timeout=15000)
    prompt = page.get_by_test_id("guest-choice")
    expect(prompt).to_contain_text("Ana's bag from Bob's exit zone")
    other = page.get_by_test_id("guest-choice-1")
    expect(other).to_have_text("Chloe's exit zone")
    tablet.shot("guest-choice")
    french, errors = french_page(browser)
    Tablet(french, room, table).open()
    prompt_fr = french.get_by_test_id("guest-choice")
    expect(prompt_fr).to_contain_text("Il venait d’ailleurs")
    assert english_left([prompt_fr.inner_text()], ["Ana", "Bob", "Chloe"]) == []
    french.context.close()
    assert errors == [], errors
    mine = lambda seat: sum(1 for q in table.state.pawns_at(P.exit_zone(seat))  # noqa: E731
                            if table.state.pawn_color[q] == color)
    assert (mine(1), mine(2)) == (0, 1)
    other.click()  # it came from Chloe's exit zone
    assert wait_for(lambda: (mine(1), mine(2)) == (1, 0))
    assert table.state.loc[bobs] == P.bag(0)
    expect(page.get_by_test_id("guest-choice")).to_contain_text("from Chloe's exit zone")

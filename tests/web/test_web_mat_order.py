"""Guests set down together on a cinema mat, on the table screen (issue 40, item 4).

Ana draws a blue and a red guest and sets them down on her two-seat theater in one go: the
mat reports them in one message, in its scan's order. The hub seats them in that order, and
the side panel says how they sit and offers the other order; one tap there seats them the
other way. A French tablet reads the prompt in French. Real parts: a serve process, virtual
bag readers and mats on pseudo-terminals, Chromium.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from companion.games.popcorn.engine import pawns as P
from companion.games.popcorn.remote import RemoteTable
from companion.hub.remote import ServeProcess
from companion.kit.tags import random_uid
from companion.readers.virtual import SerialBank, VirtualMat, VirtualReader
from tests.waiting import wait_for
from tests.web.room import CATALOG, Room, Tablet
from tests.web.test_web_cards import english_left, french_page

BAGS = ["bag-1", "bag-2"]
MATS = ["mat-1", "mat-2"]
THEATER = 1
"""The two-seat theater, showing the movie each player bought into it."""


class OrderRoom(Room):
    """A hub process with two bag readers, two cinema mats and an enrolled box."""

    def __init__(self, tmp: Path) -> None:  # noqa: D107 - a Room with mats
        self.readers = BAGS
        self.mats = {m: VirtualMat(m, resend_interval=0.3) for m in MATS}
        self.bank = SerialBank([*(VirtualReader(r, resend_interval=0.3) for r in BAGS),
                                *self.mats.values()], tmp / "dev").start()
        self.server = ServeProcess(tmp / "hub.db",
                                   serial=[self.bank.path(r) for r in [*BAGS, *MATS]],
                                   readers=BAGS).start()
        rng = random.Random(7)
        self.uids = {pawn: random_uid(rng) for pawn in range(60)}
        self.server.import_tags(self.uids)

    def showings(self) -> RemoteTable:
        """A table in its first Showings, each player's two-seat theater showing a movie."""
        info = self.server.create_table({"players": ["Ana", "Bob"], "readers": BAGS,
                                         "mats": MATS, "deal_seed": 3})
        table = RemoteTable(self.base, info, CATALOG)
        table.keep_first_awards()
        bought: set[int] = set()
        while (state := table.state).phase == "buying":
            player = state.current
            moves = [m for m in state.legal_moves() if m.player == player]
            buys = [m for m in moves if m.kind == "buy_movie" and m.slot == THEATER]
            ends = [m for m in moves if m.kind == "end_turn"]
            move = buys[0] if buys and player not in bought else (ends or moves)[0]
            bought.add(player)
            table.decide(move)
        return table

    def draw(self, table: RemoteTable, player: int, colors: list[str]) -> list[int]:
        """The player's audience tapped out of their bag, one guest of each of ``colors``
        first: the pawns drawn."""
        state = table.state
        in_bag = state.pawns_at(P.bag(player))
        chosen = [next(p for p in in_bag if state.pawn_color[p] == c) for c in colors]
        pawns = (chosen + [p for p in in_bag if p not in chosen])[:state.draw_value(player)]
        for pawn in pawns:
            count = table.count
            self.bank.tap(BAGS[player], self.uids[pawn])
            assert wait_for(lambda count=count: table.count > count)
        return pawns


@pytest.fixture
def order_room(tmp_path: Path):
    """A hub process (``serve``) with two bag readers and two cinema mats."""
    r = OrderRoom(tmp_path)
    yield r
    r.close()


def test_guests_set_down_together_offer_the_other_order(order_room: OrderRoom, page: Page,
                                                        browser: Browser) -> None:
    table = order_room.showings()
    player = table.state.current
    name = ["Ana", "Bob"][player]
    blue, red = order_room.draw(table, player, ["blue", "red"])[:2]
    tablet = Tablet(page, order_room, table).open()
    count = table.count
    order_room.mats[MATS[player]].set_down(THEATER, order_room.uids[blue],
                                           order_room.uids[red])
    page.wait_for_function("(n) => (window.popcornEvents ?? -1) >= n + 2", arg=count,
                           timeout=15000)
    prompt = page.get_by_test_id("order-choice")
    expect(prompt).to_contain_text(f"{name}'s guests set down together in theater 2 sit in "
                                   "this order: blue B guest → red R guest.")
    other = page.get_by_test_id("order-choice-1")
    expect(other).to_have_text("red R guest → blue B guest")
    expect(page.get_by_test_id("order-choice-0")).to_have_count(0)
    tablet.shot("mat-order-choice")

    french, errors = french_page(browser)
    Tablet(french, order_room, table).open()
    prompt_fr = french.get_by_test_id("order-choice")
    expect(prompt_fr).to_contain_text("posés ensemble dans la salle 2")
    assert english_left([prompt_fr.inner_text()], ["Ana", "Bob"]) == []
    french.context.close()
    assert errors == [], errors

    other.click()  # they sat the other way round
    seat = lambda pawn: table.state.loc[pawn]  # noqa: E731
    assert wait_for(lambda: (seat(red), seat(blue)) ==
                    (P.seat(player, THEATER, 0), P.seat(player, THEATER, 1)))
    expect(prompt).to_contain_text("sit in this order: red R guest → blue B guest.")
    expect(page.get_by_test_id("order-choice-0")).to_have_text("blue B guest → red R guest")

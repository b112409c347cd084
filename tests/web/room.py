"""A real hub process, virtual bag readers and Debian's Chromium, for the browser tests.

:class:`Room` is everything around one table: ``popcorn-companion serve`` on loopback with
virtual readers on pseudo-terminals, and a :class:`RemoteTable` whose engine mirror tells the
test what the players may do. :class:`Tablet` drives the dashboard the way fingers do: it
taps a card and then a slot to buy, a drawn pawn and then a seat to seat it, and the button of
any other move. Screenshots go to ``artifacts/screenshots/`` (ignored by git).

The hub's Content Security Policy forbids evaluating strings as script, so a page is waited
on with a function (``"(n) => window.popcornEvents >= n"`` and an argument), never with a
bare expression, which Playwright would have to ``eval`` in the page.
"""

from __future__ import annotations

import json
import random
import time
from pathlib import Path

from playwright.sync_api import Page, expect

from companion.games.popcorn.demo import ScriptedPlayers
from companion.games.popcorn.engine import ACTIVATION_KINDS, Move
from companion.games.popcorn.facts_file import load_catalog
from companion.games.popcorn.remote import RemoteTable
from companion.hub.remote import ServeProcess
from companion.kit.http import call
from companion.kit.tags import random_uid
from companion.readers.virtual import SerialBank, VirtualReader

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
SHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"
TABLET = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
READERS = ["bag-1", "bag-2", "bag-3"]
SLOTS = ("left", "center", "right")
CATALOG = load_catalog()


class Room:
    """A hub process with three virtual bag readers and a box of enrolled pawns."""

    def __init__(self, tmp: Path, readers: list[str] = READERS) -> None:
        """``readers``: the bag readers' names (three by default; one per seat)."""
        self.readers = readers
        self.bank = SerialBank([VirtualReader(r, resend_interval=0.3) for r in readers],
                               tmp / "dev").start()
        self.server = ServeProcess(tmp / "hub.db", serial=[self.bank.path(r) for r in readers],
                                   readers=readers).start()
        rng = random.Random(7)
        self.uids = {pawn: random_uid(rng) for pawn in range(60)}
        self.server.import_tags(self.uids)

    @property
    def base(self) -> str:
        """The hub's address."""
        return self.server.base

    def table(self, players: list[str], seed: int, keep_awards: bool = True) -> RemoteTable:
        """A dealt table (by the API), each phone keeping its first award if asked."""
        info = self.server.create_table({"players": players, "readers": self.readers[:len(players)],
                                         "deal_seed": seed})
        table = RemoteTable(self.base, info, CATALOG)
        if keep_awards:
            table.keep_first_awards()
        return table

    def players(self, table: RemoteTable, seed: int) -> ScriptedPlayers:
        """Scripted players of ``table``: they choose; the test decides who carries it out."""
        return table.players(self.bank, self.uids, seed)

    def close(self) -> None:
        """Stop the hub and the readers."""
        self.server.stop()
        self.bank.stop()


class Tablet:
    """The dashboard in a browser page, driven by taps."""

    def __init__(self, page: Page, room: Room, table: RemoteTable) -> None:
        self.page, self.room, self.table = page, room, table

    def open(self) -> Tablet:
        """Open the table screen with the table's PIN already known to this device."""
        self.page.goto(f"{self.room.base}/setup")
        self.page.evaluate("([id, pin]) => localStorage.setItem(`popcorn:pin:${id}`, pin)",
                           [self.table.id, self.table.info["pin"]])
        self.page.goto(f"{self.room.base}/table/{self.table.id}")
        self.page.wait_for_function("(id) => window.popcornLoaded === id", arg=self.table.id)
        self.wait_events()
        return self

    def events_shown(self) -> int:
        """The log length of the last state the page drew (-1 before the first)."""
        return self.page.evaluate("window.popcornEvents ?? -1")

    def wait_events(self, at_least: int | None = None) -> None:
        """Wait until the page has drawn the hub's state (or one at least that recent)."""
        target = self.table.count if at_least is None else at_least
        self.page.wait_for_function("(n) => (window.popcornEvents ?? -1) >= n", arg=target,
                                   timeout=15000)

    def do(self, move: Move) -> None:
        """Carry out ``move`` through the dashboard, and wait until the hub has it."""
        before = self.table.count
        kind = move.kind
        if kind in ("buy_movie", "buy_theater"):
            self.tap_card(move)
            self.page.get_by_test_id(f"slot-{move.player}-{move.slot}").click()
        elif kind == "place":
            self.page.get_by_test_id(f"hand-{move.pawn}").click()
            self.page.get_by_test_id(f"seat-{move.player}-{move.slot}-{move.seat}").click()
        elif kind == "to_exit":
            self.page.get_by_test_id(f"hand-{move.pawn}").click()
            self.page.get_by_test_id("to-exit").click()
        elif kind in ("keep_award", "draw_award"):
            self.table.decide(move)  # a phone's move (the phone tests cover that screen)
        else:
            self.tap_move_button(move)
        deadline = time.monotonic() + 15
        while self.table.count == before:
            assert time.monotonic() < deadline, f"the hub never got {move} from the dashboard"
            time.sleep(0.02)
        self.wait_events(self.table.count)

    def tap_card(self, move: Move) -> None:
        """Tap a movie or a theater in the market."""
        ids = ([f"theater-{move.card}"] if move.kind == "buy_theater"
               else [f"feature-{move.card}", f"premiere-{move.card}"])
        for test_id in ids:
            card = self.page.get_by_test_id(test_id)
            if card.count():
                card.click()
                return
        raise AssertionError(f"{move.card} is not in the market the dashboard shows")

    def tap_move_button(self, move: Move) -> None:
        """Tap the button the dashboard shows for exactly this move."""
        wanted = move.to_dict()
        buttons = self.page.locator("button.move")
        for n in range(buttons.count()):  # one button may stand for look-alike moves
            if wanted in json.loads(buttons.nth(n).get_attribute("data-same") or "[]"):
                if move.kind in ACTIVATION_KINDS:  # the button says which guest acts
                    title = buttons.nth(n).get_attribute("title") or ""
                    assert f"seat {move.seat + 1})" in title or "seat" not in title, wanted
                    # a guest's button in a choice of guests: its action's words lead
                    words = buttons.nth(n).evaluate(
                        "(b) => (b.closest('.guest-pick') || b).innerText")
                    assert SLOTS[move.slot] in words, wanted
                buttons.nth(n).click()
                return
        raise AssertionError(f"no button for {wanted}")

    def shot(self, name: str) -> None:
        """Save the screen at tablet and at phone size under artifacts/screenshots/."""
        save_shots(self.page, name)


CSP_REPORTER = """document.addEventListener('securitypolicyviolation', (e) =>
  console.error(`CSP violation: ${e.violatedDirective} blocked ${e.blockedURI || 'inline'}`));"""


def watch_csp(page: Page, errors: list[str]) -> None:
    """Put every Content Security Policy violation the page reports (as an event or as
    Chromium's console message) into ``errors``, across navigations."""
    page.add_init_script(CSP_REPORTER)

    def seen(msg) -> None:
        if msg.type == "error" and ("CSP violation" in msg.text
                                    or "Content Security Policy" in msg.text):
            errors.append(msg.text)
    page.on("console", seen)


SMALL_TARGETS = """() => [...document.querySelectorAll('button, select, summary, [data-act], '
    + 'input:not([type=radio]):not([type=checkbox]):not([type=file])')]
  .filter((el) => el.offsetParent !== null && !el.closest('dialog:not([open])'))
  .map((el) => [el, el.getBoundingClientRect()])
  .filter(([el, box]) => box.width < 44 || box.height < 44)
  .map(([el, box]) => `${el.tagName} ${el.dataset.testid || el.textContent.trim().slice(0, 30)}`
    + ` ${Math.round(box.width)}x${Math.round(box.height)}`)"""


def small_targets(page: Page) -> list[str]:
    """Every visible control smaller than 44 x 44 px (the touch-target floor)."""
    return page.evaluate(SMALL_TARGETS)


def save_shots(page: Page, name: str) -> None:
    """Screenshots of ``page`` as ``<name>-tablet.png`` and ``<name>-phone.png``."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    size = page.viewport_size
    for label, viewport in (("tablet", TABLET), ("phone", PHONE)):
        page.set_viewport_size(viewport)
        page.screenshot(path=str(SHOTS / f"{name}-{label}.png"), full_page=True)
        assert small_targets(page) == [], f"{name} at {label} size"
    if size:
        page.set_viewport_size(size)


def play_step(players: ScriptedPlayers, tablet: Tablet | None) -> bool:
    """One choice of the scripted players: taps go to the readers, decisions to the
    dashboard (or to the API when ``tablet`` is None). False when nobody can act."""
    with players.lock:
        choice = players._choose()
    if choice is None:
        return False
    how, move = choice
    if how == "tap" or tablet is None:
        players._do(how, move)
    else:
        tablet.do(move)
    return True


def shown(page: Page, test_id: str) -> None:
    """The element is on screen (fails with Playwright's message otherwise)."""
    expect(page.get_by_test_id(test_id).first).to_be_visible(timeout=15000)


__all__ = ["CHROMIUM", "CHROMIUM_ARGS", "PHONE", "TABLET", "Room", "Tablet", "call",
           "play_step", "save_shots", "shown", "small_targets", "watch_csp"]

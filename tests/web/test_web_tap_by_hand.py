"""Issue 38, item 4, as a newcomer sees it: ``readers tap --made-up-tags`` on a hub with no
tag yet, a table created on the hub, and the tablet (Chromium) showing each tap typed into the
command: a card bought into Ana's cinema, and the unknown tag's alert banner."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Page, expect

from companion.games.popcorn.facts_file import load_catalog
from companion.games.popcorn.remote import RemoteTable
from companion.hub.remote import ServeProcess
from tests.readers.test_readers_tap import BAGS, table_view, tap

CATALOG = load_catalog()


def test_taps_typed_by_hand_show_on_the_tablet(tmp_path: Path, page: Page) -> None:
    """The command's made-up tags enroll every piece; then a movie tapped on Ana's reader
    by name lands in her cinema on the tablet, and a tag no piece has raises the alert
    banner there, as the command printed."""
    bags = tmp_path / "bags"
    server = ServeProcess(tmp_path / "hub.db", serial=[str(bags / r) for r in BAGS],
                          readers=BAGS).start()
    try:
        transport = ["--serial", "--dir", str(bags)]
        made = tap(server, transport, BAGS, ["quit"], "--made-up-tags")
        assert made.returncode == 0, made.stderr
        info = server.create_table({"players": ["Ana", "Bob"], "readers": BAGS,
                                    "deal_seed": 3})
        table = RemoteTable(server.base, info, CATALOG)
        table.keep_first_awards()
        page.goto(f"{server.base}/setup")
        page.evaluate("([id, pin]) => localStorage.setItem(`popcorn:pin:${id}`, pin)",
                      [info["id"], info["pin"]])
        page.goto(f"{server.base}/table/{info['id']}")
        page.wait_for_function("(id) => window.popcornLoaded === id", arg=info["id"])
        view = table_view(server, info)["view"]
        card = next(m["card"] for m in view["legal"]
                    if m["move"] == "buy_movie" and m["player"] == 0)
        done = tap(server, transport, BAGS, [f"bag-1 card {card}", "bag-2 04ffffffffffff"])
        assert done.returncode == 0, done.stderr
        assert f"hub: recorded buy_movie by Ana (card {card}" in done.stdout
        slot = next(k for k, s in enumerate(table.state.players[0].movies) if s == card)
        expect(page.get_by_test_id(f"slot-0-{slot}")).to_contain_text(CATALOG.movies[card].title)
        banner = page.get_by_test_id("alert")
        expect(banner).to_have_attribute("data-code", "UNKNOWN_TAG")
        expect(banner).to_contain_text("04ffffffffffff")
    finally:
        server.stop()

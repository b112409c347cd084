"""The cinema mats in the table screen's Readers panel (issue 40, item 7), in Chromium against
a real ``serve`` with two virtual bag readers and a virtual cinema mat on pseudo-terminals.

A Popcorn table binds the mat under Ana's cinema (Bob has none). The panel lists it below
the bag readers, under "Cinema mats": its state, the age of its heartbeat, its signal and
battery, its last scan (``scan_ms`` from its heartbeat, and how long ago its last zone state
came) and the tags on each of its zones, named as Popcorn names them (three theaters, then
the exit zone). A tag set down on the mat reaches the hub (a tag no piece has: an alert,
but the zone holds it all the same), whose ``mat_zones`` push brings the new count, and the
table's event count, though no view was pushed; a mat with
a weak signal counts on the header's button and brings a notice naming the player's mat.
The panel fits the tablet's screen at both sizes and has no serious accessibility finding; a
French tablet reads it in French.
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from companion.hub.remote import ServeProcess
from companion.kit.http import call
from companion.kit.tags import random_uid
from companion.readers.virtual import SerialBank, VirtualMat, VirtualReader
from tests.web.room import Room, save_shots
from tests.web.test_web_axe import Findings, axe_check, no_failures
from tests.web.test_web_reader_health import open_table

BAGS = ["bag-1", "bag-2"]
MAT = "mat-1"
SIZES = ({"width": 1280, "height": 800}, {"width": 1180, "height": 820})

FITS = """() => {
  const doc = document.scrollingElement, panel = document.getElementById('readers-dialog');
  const box = panel.getBoundingClientRect();
  return {page: doc.scrollHeight - innerHeight, pageWide: doc.scrollWidth - innerWidth,
          inside: panel.scrollHeight - panel.clientHeight,
          wide: panel.scrollWidth - panel.clientWidth,
          top: box.top, bottom: innerHeight - box.bottom};
}"""
"""How far the page and the open panel overflow (0 or less: they fit), and the panel's room
above and below it on the screen."""


class MatRoom(Room):
    """A hub process with two virtual bag readers and one virtual cinema mat."""

    def __init__(self, tmp: Path) -> None:  # noqa: D107 - a Room with a mat
        self.readers = BAGS
        self.mat = VirtualMat(MAT, resend_interval=0.3)
        self.bank = SerialBank([*(VirtualReader(r, resend_interval=0.3) for r in BAGS),
                                self.mat], tmp / "dev").start()
        self.server = ServeProcess(tmp / "hub.db",
                                   serial=[self.bank.path(r) for r in [*BAGS, MAT]],
                                   readers=BAGS).start()

    def mat_table(self) -> dict[str, Any]:
        """A Popcorn table whose first seat has the mat (its readers beat once)."""
        info = self.server.create_table({"players": ["Ana", "Bob"], "readers": BAGS,
                                         "mats": [MAT, None], "deal_seed": 3})
        self.mat.set_health(scan_ms=42, rssi=-58)
        self.mat.heartbeat()  # the hub trusts the mat once the table binds it
        for bag in BAGS:
            self.bank.readers[bag].heartbeat()
        return info


@pytest.fixture
def mat_room(tmp_path: Path):
    """A hub process (``serve``) with two bag readers and a cinema mat."""
    r = MatRoom(tmp_path)
    yield r
    r.close()


def zone(page: Page, z: int):
    """Zone ``z`` of the mat at seat 0, in the panel."""
    return page.get_by_test_id(f"mat-zone-0-{z}")


def check_fits(page: Page) -> None:
    """The open panel makes no page scroll, and fits the screen whole, at both sizes."""
    for size in SIZES:
        page.set_viewport_size(size)
        fit = page.evaluate(FITS)
        assert fit["page"] <= 0 and fit["pageWide"] <= 0, (size, fit)
        assert fit["inside"] <= 1 and fit["wide"] <= 1, (size, fit)
        assert fit["top"] >= 0 and fit["bottom"] >= 0, (size, fit)
    page.set_viewport_size(SIZES[0])


def test_the_panel_shows_the_mats_zones_signal_and_last_scan(mat_room: MatRoom,
                                                             page: Page) -> None:
    """The mat's row, its zones' counts following a tag set down and moved, its signal in
    the header's count; the panel fits and passes axe."""
    info = mat_room.mat_table()
    open_table(page, mat_room, info["id"])
    page.get_by_test_id("readers-open").click()
    panel = page.get_by_test_id("readers-panel")
    expect(panel).to_contain_text("Cinema mats")
    row = page.get_by_test_id("mat-row-0")
    expect(row).to_have_attribute("data-online", "true", timeout=15000)
    expect(row).to_have_attribute("data-reader", MAT)
    expect(row).to_contain_text("Ana")
    expect(page.get_by_test_id("mat-row-1")).to_have_count(0)  # Bob has no mat
    expect(page.get_by_test_id("reader-row-1")).to_be_visible()  # the bag readers stay
    expect(page.get_by_test_id("mat-signal-0")).to_contain_text("good signal (-58 dBm)")
    expect(page.get_by_test_id("mat-scan-0")).to_contain_text("42 ms")
    expect(page.get_by_test_id("mat-zones-0").locator("li")).to_have_count(4)
    expect(zone(page, 0)).to_have_text("Theater 1: 0 tags")
    expect(zone(page, 3)).to_have_text("Exit zone: 0 tags")

    uid = random_uid(random.Random(40))  # no piece's tag: an alert, but the zone holds it
    mat_room.mat.set_down(0, uid)
    expect(zone(page, 0)).to_have_attribute("data-count", "1", timeout=15000)
    expect(zone(page, 0)).to_have_text("Theater 1: 1 tag")
    expect(page.get_by_test_id("mat-zones-age-0")).to_have_text(re.compile(r"^zones \d+ s ago$"))
    age = page.get_by_test_id("mat-zones-age-0").inner_text()
    expect(page.get_by_test_id("mat-zones-age-0")).not_to_have_text(age, timeout=5000)  # ticking
    mat_room.mat.move(uid, 3)
    expect(zone(page, 3)).to_have_attribute("data-count", "1", timeout=15000)
    expect(zone(page, 0)).to_have_attribute("data-count", "0", timeout=15000)
    expect(zone(page, 3)).to_have_text("Exit zone: 1 tag")
    # neither state played a move (pushed no view), yet the tablet knows it is up to date
    state = call(f"{mat_room.server.base}/api/tables/{info['id']}/state",
                 headers={"X-Table-Pin": info["pin"]})
    page.wait_for_function("(n) => window.popcornEvents === n", arg=state["events"],
                           timeout=15000)

    check_fits(page)
    findings = Findings()
    no_failures(axe_check(page, findings, "readers-panel-mats", "en"))
    save_shots(page, "reader-health-mats")

    page.get_by_test_id("readers-close").click()
    expect(page.get_by_test_id("readers-open")).to_have_text("Readers")
    mat_room.mat.set_health(scan_ms=40, rssi=-88)  # the mat's Wi-Fi turns weak
    mat_room.mat.heartbeat()
    expect(page.get_by_test_id("readers-open")).to_contain_text("1", timeout=15000)
    signal = page.locator(f'[data-testid="health-notice"][data-reader="{MAT}"]')
    expect(signal).to_contain_text("Ana's cinema mat has a weak Wi-Fi signal", timeout=15000)
    page.get_by_test_id("readers-open").click()
    expect(page.get_by_test_id("mat-row-0")).to_have_attribute("data-signal", "weak")
    expect(page.get_by_test_id("mat-signal-0")).to_contain_text("weak signal (-88 dBm)")


def test_a_french_tablet_reads_the_mats_in_french(mat_room: MatRoom, page: Page) -> None:
    """The mats' heading, columns and zones in French, with Popcorn's French names."""
    info = mat_room.mat_table()
    page.goto(f"{mat_room.base}/setup")
    page.evaluate("() => localStorage.setItem('popcorn:lang', 'fr')")
    open_table(page, mat_room, info["id"])
    page.get_by_test_id("readers-open").click()
    panel = page.get_by_test_id("readers-panel")
    expect(panel).to_contain_text("Tapis de cinéma")
    expect(panel).to_contain_text("Dernier balayage")
    expect(page.get_by_test_id("mat-row-0")).to_contain_text("en ligne", timeout=15000)
    expect(zone(page, 0)).to_have_text("Salle 1 : 0 puce")
    mat_room.mat.set_down(3, random_uid(random.Random(41)))
    expect(zone(page, 3)).to_have_text("Zone de sortie : 1 puce", timeout=15000)
    expect(page.get_by_test_id("mat-scan-0")).to_contain_text("42 ms")
    expect(page.get_by_test_id("mat-zones-age-0")).to_contain_text("zones il y a")
    check_fits(page)
    save_shots(page, "reader-health-mats-fr")


def test_the_panel_fits_in_german_and_japanese(mat_room: MatRoom, page: Page) -> None:
    """The longer German words and the Japanese ones fit the panel at both sizes too."""
    info = mat_room.mat_table()
    mat_room.mat.set_down(1, random_uid(random.Random(42)))
    page.goto(f"{mat_room.base}/setup")
    for lang, heading, theater in (("de", "Kinomatten", "Saal 2: 1 Tag"),
                                   ("ja", "シネママット", "シアター2：タグ1個")):
        page.evaluate("(l) => localStorage.setItem('popcorn:lang', l)", lang)
        open_table(page, mat_room, info["id"])
        page.get_by_test_id("readers-open").click()
        expect(page.get_by_test_id("readers-panel")).to_contain_text(heading)
        expect(zone(page, 1)).to_have_text(theater, timeout=15000)
        check_fits(page)
        page.get_by_test_id("readers-close").click()

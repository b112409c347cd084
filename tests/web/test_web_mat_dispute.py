"""A cinema mat that disagrees with the table after the hub's restart, on the table screen
(issue 40, item 5), in Chromium against a real ``serve`` with a virtual mat on a
pseudo-terminal.

The hub is killed (a power cut); meanwhile a guest still in Ana's bag is set down on her
theater 1. The new hub cannot read that without an alert, so it plays nothing: the banner
says what the mat shows that the companion does not have, in the tablet's language, and
offers **Accept the mat**. A tablet that does not know the PIN asks for it (Enter sends it);
the hub then reads the mat's change (a guest not drawn: the mats' own alert), and the
dispute's banner goes.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from companion.kit.http import call
from tests.web.room import save_shots
from tests.web.test_web_reader_health import open_table
from tests.web.test_web_reader_health_mats import MAT, MatRoom


@pytest.fixture
def mat_room(tmp_path: Path):
    """A hub process (``serve``) with two bag readers and a cinema mat under Ana's cinema."""
    r = MatRoom(tmp_path)
    yield r
    r.close()


def _guest_in_anas_bag(room: MatRoom, table_id: str, pin: str) -> str:
    """The tag of a guest in Ana's bag (every pawn given a made-up tag)."""
    uids = {pawn: f"04c0ffee{pawn:06x}" for pawn in range(60)}
    room.server.import_tags(uids)
    state = call(f"{room.base}/api/tables/{table_id}/state",
                 headers={"X-Table-Pin": pin})["state"]
    return uids[state["players"][0]["bag"][0]]


def test_a_mat_that_disagrees_after_a_restart_is_accepted_from_its_banner(
        mat_room: MatRoom, page: Page) -> None:
    """The dispute's banner, in French, with its button; the PIN by Enter; then the mat's
    reading in place of the dispute."""
    info = mat_room.mat_table()
    uid = _guest_in_anas_bag(mat_room, info["id"], info["pin"])
    mat_room.server.kill()
    mat_room.mat.set_down(0, uid)
    mat_room.server.start()

    page.goto(f"{mat_room.base}/setup")
    page.evaluate("() => localStorage.setItem('popcorn:lang', 'fr')")
    open_table(page, mat_room, info["id"])
    banner = page.locator('[data-testid="alert"][data-code="MAT_EXTRA_GUEST"]')
    expect(banner).to_contain_text("Le tapis de Ana montre un Spectateur", timeout=15000)
    expect(banner).to_contain_text("salle 1")
    accept = banner.get_by_test_id("alert-accept-mat")
    expect(accept).to_have_text("Accepter le tapis")
    save_shots(page, "mat-dispute-fr")
    accept.click()
    expect(page.locator("#pin-dialog")).to_be_visible()
    page.locator("#pin-input").fill(info["pin"])
    page.locator("#pin-input").press("Enter")
    expect(banner).to_have_count(0, timeout=15000)
    expect(page.locator('[data-testid="alert"][data-code="GUEST_NOT_DRAWN"]')).to_be_visible(
        timeout=15000)
    alerts = call(f"{mat_room.base}/api/tables/{info['id']}")["alerts"]
    assert [a["code"] for a in alerts] == ["GUEST_NOT_DRAWN"], alerts
    assert MAT in info["mats"]

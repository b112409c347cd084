"""A game from outside, all the way: Number Tokens (``examples/number-tokens``), pip-installed
from its own distribution, through the unchanged hub.

It enrolls its own pieces, appears on the setup screen with its options and is created
there, plays from reader taps (a refused tap's alert is that move's own violation), shows
its own table screen served from its package, speaks French from its own catalog, and
replays, scores and archives through the defaults. Its hub is the authors' rig
(:class:`companion.kit.testing.HubRig`): a real ``serve`` with virtual readers on ptys.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion import games
from companion.kit.http import HttpError
from companion.kit.testing import HubRig

READERS = ["r-1", "r-2", "r-3"]
GAME = "number-tokens"


@pytest.fixture
def rig(installed: Path, tmp_path: Path) -> Iterator[HubRig]:
    """A hub with three virtual readers and Number Tokens' twelve tokens enrolled."""
    with HubRig(tmp_path, READERS) as hub:
        yield hub


def test_the_hub_finds_it_by_its_entry_point_and_lists_it(installed: Path,
                                                          tmp_path: Path) -> None:
    """After the package's own games; ``GET /api/games`` gives its options, features and
    screens (its table module only: the phone and replay boards are the generic ones)."""
    assert games.game_ids()[-1] == GAME and games.load(GAME).title == "Number Tokens"
    with HubRig(tmp_path, READERS) as rig:
        listed = {g["id"]: g for g in rig.call("/api/games")}
    info = listed[GAME]
    assert (info["min_players"], info["max_players"]) == (2, 4)
    assert info["options"]["properties"]["rounds"]["type"] == "integer"
    assert info["features"]["tags"] and not info["features"]["deal"]
    assert set(info["screens"]) == {"table", "styles"} and info["screens"]["styles"] == []
    assert re.fullmatch(r"/v/[0-9a-f]{16}/games/number-tokens/table\.js", info["screens"]["table"])


def test_it_enrolls_its_own_pieces(rig: HubRig) -> None:
    """Twelve tokens, numbered 1 to 12: each tap enrolls the next in the kind's order; one
    more tap is refused (every token has a tag)."""
    tokens = rig.enroll_kind(GAME, "token")
    assert len(tokens) == 12
    kind = next(k for k in rig.call("/api/tags/counts")["pieces"] if k["game"] == GAME)
    assert [(v["value"], v["enrolled"]) for v in kind["values"]] == [(n, 1) for n in range(1, 13)]
    admin = {"admin_pin": rig.admin_pin}
    rig.call("/api/enroll", "POST", {**admin, "game": GAME, "kind": "token", "next": True})
    assert rig.tap("r-1", "04abcdefabcdef") == "error"  # KIND_FULL: all twelve have tags
    rig.call("/api/enroll", "DELETE", admin)


def test_taps_are_moves_and_its_rules_say_what_is_wrong(rig: HubRig) -> None:
    """A token tapped on the player's reader is played; out of turn, twice, or a tag of no
    piece: an alert whose code and params are the game's own (the refused move's own
    violation), and nothing changes. Undo needs the PIN."""
    tokens = rig.enroll_kind(GAME, "token")
    table = rig.create(GAME, ["Ana", "Bob", "Chloe"], {"rounds": 2, "double_last": True})
    assert rig.view(table)["rounds"] == 2
    assert rig.tap("r-1", tokens[4]) == "ok"  # Ana plays 5
    assert rig.view(table)["played"] == [1, 0, 0]
    before = rig.view(table)
    for reader, uid, code in (("r-3", tokens[6], "NOT_YOUR_TURN"),
                              ("r-2", tokens[4], "ALREADY_PLAYED"),
                              ("r-2", "04ffffffffff01", "UNKNOWN_TAG")):
        assert rig.tap(reader, uid) == "error"
        alert = rig.call(f"/api/tables/{table['id']}")["alerts"][-1]
        assert alert["code"] == code and rig.view(table) == before, code
    assert alert["params"]["name"] == "Bob"
    with pytest.raises(HttpError) as refused:
        rig.call(f"/api/tables/{table['id']}/undo", "POST", {})
    assert refused.value.code == "PIN_REQUIRED"
    rig.call(f"/api/tables/{table['id']}/undo", "POST", {}, pin=table["pin"])
    assert rig.view(table)["played"] == [0, 0, 0]


def test_secrets_scores_record_replay_and_the_archive(rig: HubRig, tmp_path: Path) -> None:
    """Tokens lie face down: the public view counts them, a seat's private view (its token)
    lists its own; the record waits for the end. Then the default record replays with
    ``popcorn-companion replay`` to the hub's scores, and the archive and its replay board
    have the game."""
    tokens = rig.enroll_kind(GAME, "token")
    table = rig.create(GAME, ["Ana", "Bob", "Chloe"], {"rounds": 2, "double_last": True})
    assert rig.tap("r-1", tokens[4]) == "ok"
    assert "5" not in json.dumps(rig.view(table)["played"]) and rig.view(table)["scores"] is None
    assert rig.private(table, 0)["tokens"] == [5]
    with pytest.raises(HttpError) as other:
        rig.call(f"/api/tables/{table['id']}/players/0/private", token=table["tokens"][1])
    assert other.value.status == 403
    with pytest.raises(HttpError) as early:
        rig.call(f"/api/tables/{table['id']}/record", pin=table["pin"])
    assert early.value.code == "SECRET_UNTIL_END"
    for reader, number in (("r-2", 1), ("r-3", 3), ("r-1", 12), ("r-2", 2), ("r-3", 4)):
        assert rig.tap(reader, tokens[number - 1]) == "ok", number
    scores = rig.call(f"/api/tables/{table['id']}/scores")
    assert scores["winners"] == ["Ana"] and scores["players"][0]["total"] == 5 + 12 * 2
    record = tmp_path / "game.jsonl"
    record.write_text(rig.call(f"/api/tables/{table['id']}/record", pin=table["pin"]))
    done = subprocess.run([sys.executable, "-m", "companion", "replay", str(record)],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["scores"] == scores
    [archived] = rig.call("/api/archive")["games"]
    assert (archived["game"], archived["title"]) == (GAME, "Number Tokens")
    board = rig.call(f"/api/archive/{table['id']}/replay")
    assert board["over"] and board["steps"][-1] == {"move": "play", "player": 2, "round": None}
    with pytest.raises(HttpError) as again:  # the default record reads back as the same game
        rig.call("/api/archive", "POST", {"record": record.read_text(),
                                          "admin_pin": rig.admin_pin})
    assert again.value.code == "DUPLICATE_GAME"


def test_it_speaks_french_from_its_own_catalog(rig: HubRig) -> None:
    """A refusal at a table of the game, asked in French, is the game's own template from
    its own catalog; a hub-wide refusal still reads the hub's."""
    table = rig.create(GAME, ["Ana", "Bob"])
    with pytest.raises(HttpError) as refused:
        rig.call(f"/api/tables/{table['id']}/moves", "POST",
                 {"move": {"move": "play", "player": 1, "token": 3}}, pin=table["pin"],
                 lang="fr")
    assert (refused.value.code, refused.value.message) == (
        "NOT_YOUR_TURN", "C’est au tour d’un autre joueur.")
    catalog = rig.call("/api/i18n/fr")
    assert catalog["games"][GAME]["messages"]["Number Tokens"] == "Jetons numérotés"
    assert catalog["codes"]["games"][GAME]["alerts"]["ALREADY_PLAYED"][0] == (
        "Token {token} was played already.")


def test_the_setup_screen_creates_it_and_its_own_screen_shows_it_in_french(
        rig: HubRig, browser) -> None:
    """On a French tablet: the setup screen counts its enrolled tokens, offers the game with
    its options (a number and a checkbox, from its schema, in its own words), creates the
    table, and the table screen is the game's own module (served from its package), live on
    taps, in French."""
    from playwright.sync_api import expect

    tokens = rig.enroll_kind(GAME, "token")
    page = browser.new_context(viewport={"width": 1024, "height": 768}).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.add_init_script("localStorage.setItem('popcorn:lang', 'fr');")
    page.goto(f"{rig.base}/setup")
    # its tokens have a section of the enrollment panel, counted against its box
    section = page.get_by_test_id(f"enroll-pieces-{GAME}-token")
    expect(section).to_contain_text("jeton numéroté (Jetons numérotés)")
    expect(page.get_by_test_id(f"enroll-piece-count-{GAME}-token-7")).to_have_text("1 / 1")
    page.get_by_test_id(f"game-{GAME}").check()
    options = page.locator(f'[data-role="game-options"][data-game="{GAME}"]')
    expect(options).to_contain_text("Jetons par joueur")
    expect(options).to_contain_text("Le dernier jeton compte double")
    expect(page.get_by_test_id(f"game-{GAME}").locator("xpath=..")).to_contain_text(
        "Jetons numérotés")
    page.get_by_test_id(f"option-{GAME}-rounds").fill("2")
    page.get_by_test_id(f"option-{GAME}-double_last").check()
    for seat, name in enumerate(["Ana", "Bob"]):
        page.get_by_test_id(f"player-name-{seat}").fill(name)
        page.get_by_test_id(f"player-reader-{seat}").select_option(READERS[seat])
    page.get_by_test_id("create-table").click()
    expect(page.get_by_test_id("created-pin")).to_have_text(re.compile(r"^\d{6}$"))
    [made] = rig.call("/api/tables")
    info = rig.call(f"/api/tables/{made['id']}")
    assert (info["game"], info["options"]) == (GAME, {"rounds": 2, "double_last": True})
    page.get_by_test_id("open-table").click()
    expect(page.get_by_test_id("nt-table")).to_be_visible()  # its own module, not generic
    expect(page.get_by_test_id("nt-turn")).to_have_text("Ana joue un jeton.")
    rig.tap("r-1", tokens[6])
    expect(page.get_by_test_id("nt-played-0")).to_have_text("1 jetons joués sur 2")
    expect(page.get_by_test_id("nt-turn")).to_have_text("Bob joue un jeton.")
    rig.tap("r-1", tokens[7])  # not Ana's turn: the game's alert, in French
    expect(page.get_by_test_id("nt-alert")).to_contain_text("Ana a joué un jeton hors de son tour.")
    page.context.close()
    assert errors == []

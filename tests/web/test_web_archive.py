"""The archive's screens in Chromium, on a real ``serve``: the list of finished games, a
game's page, a player's page with its chart (Chart.js), imports refused and accepted, and the
screens in French, German and Japanese. Screenshots ``archive-<screen>-<size>.png`` and
``archive-<lang>-<screen>.png`` in ``artifacts/screenshots/``."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from companion.games.popcorn.facts_file import load_catalog
from companion.hub.remote import ServeProcess
from companion.kit.http import HttpError, call
from tests.bmovies.test_bm_hub import kept_demo
from tests.hub.archive_games import (
    bmovies_game,
    play_over_http,
    popcorn_first_player,
    popcorn_game,
)
from tests.web.room import PHONE, SHOTS, TABLET, small_targets, watch_csp
from tests.web.untranslated import foreign_texts, visible_texts

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = (ROOT / "docs" / "examples" / "game-4p.jsonl").read_text(encoding="utf-8")


@pytest.fixture
def hub(tmp_path: Path) -> Iterator[ServeProcess]:
    """``serve`` on loopback with an empty archive (its admin PIN: ``hub.admin_pin``)."""
    server = ServeProcess(tmp_path / "hub.db").start()
    yield server
    server.stop()


def new_page(browser: Browser, errors: list[str], lang: str | None = None) -> Page:
    """A tablet-sized page that reports script errors and CSP violations into ``errors``."""
    context = browser.new_context(viewport=TABLET, accept_downloads=True)
    page = context.new_page()
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    watch_csp(page, errors)
    if lang:
        page.add_init_script(f"localStorage.setItem('popcorn:lang', '{lang}');")
    return page


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    errors: list[str] = []
    tab = new_page(browser, errors)
    yield tab
    tab.context.close()
    assert errors == [], errors


CHART_FITS = """() => [...document.querySelectorAll('canvas')].every((c) =>
    Math.abs(c.getBoundingClientRect().width - c.parentElement.clientWidth) < 2)"""
"""Every chart has been drawn again for its box's width (Chart.js follows a resize)."""


def save_shots(page: Page, name: str) -> None:
    """``<name>-tablet.png`` and ``<name>-phone.png``, each once the charts fit the width;
    no control under 44 px at either size."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    for label, viewport in (("tablet", TABLET), ("phone", PHONE)):
        page.set_viewport_size(viewport)
        page.wait_for_function(CHART_FITS)
        page.screenshot(path=str(SHOTS / f"{name}-{label}.png"), full_page=True)
        assert small_targets(page) == [], f"{name} at {label} size"
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"], name
    page.set_viewport_size(TABLET)
    page.wait_for_function(CHART_FITS)


def archive(hub: ServeProcess, query: str = "") -> dict:
    return call(f"{hub.base}/api/archive{query}")


def add(hub: ServeProcess, text: str) -> dict:
    """Import a record through the API."""
    return call(f"{hub.base}/api/archive", "POST", {"record": text, "admin_pin": hub.admin_pin})


def answer_pin(page: Page, pin: str) -> None:
    """Type a PIN into the page's PIN dialog and confirm it."""
    expect(page.locator("#pin-dialog")).to_be_visible()
    page.locator("#pin-input").fill(pin)
    page.locator("#pin-ok").click()


def played_table(hub: ServeProcess, players: int = 3, seed: int = 1) -> dict:
    """A Popcorn table created on the hub and played to its end through its API, as the
    tablet and the phones send moves."""
    text, moves = popcorn_game(players, seed)
    names = ["Ana", "Bob", "Chloe", "Dev"][:players]
    info = hub.create_table({"players": names, "first_player": popcorn_first_player(text),
                             "readers": [f"bag-{n + 1}" for n in range(players)],
                             "name": "Kitchen"})
    play_over_http(hub.base, info, moves)
    assert call(f"{hub.base}/api/tables/{info['id']}")["over"]
    return info


def test_the_archive_lists_a_game_played_to_its_end(hub: ServeProcess, page: Page) -> None:
    """A game played to its end on the hub is listed with its date, game, players, scores
    and winner, as ``/scores`` has them; a filter by player and by game; the game's page; the
    setup screen leads there."""
    info = played_table(hub)
    add(hub, bmovies_game(4, 3, "hidden", names=("Eve", "Finn", "Gus", "Hana"))[0])
    scores = call(f"{hub.base}/api/tables/{info['id']}/scores")
    page.goto(f"{hub.base}/setup")
    page.get_by_test_id("open-archive").click()
    expect(page).to_have_url(re.compile(r"/archive$"))
    row = page.get_by_test_id(f"archive-row-{info['id']}")
    expect(row).to_be_visible()
    expect(row).to_contain_text("Popcorn")
    expect(row).to_contain_text("Kitchen")
    for n, player in enumerate(scores["players"]):
        chip = page.get_by_test_id(f"archive-player-{info['id']}-{n}")
        expect(chip).to_have_text(re.compile(rf"{player['name']}\s*{player['total']}"))
        winner = player["name"] in scores["winners"]
        expect(chip).to_have_class(re.compile(r"\bwon\b") if winner else re.compile(r"^pchip$"))
    expect(page.get_by_test_id(f"archive-winners-{info['id']}")).to_contain_text(
        ", ".join(scores["winners"]))
    expect(page.locator(".agame")).to_have_count(2)
    expect(page.locator(".agame").first).to_contain_text("B Movies · Hidden Team")
    expect(page.get_by_test_id("archive-range")).to_have_text("1–2 of 2")
    save_shots(page, "archive-list")

    page.get_by_test_id("archive-player").fill("fin")
    expect(page.locator(".agame")).to_have_count(1)
    expect(page.locator(".agame")).to_contain_text("Finn")
    expect(page).to_have_url(re.compile(r"player=fin"))
    page.get_by_test_id("archive-player").fill("")
    page.get_by_test_id("archive-game").select_option("popcorn")
    expect(page.locator(".agame")).to_have_count(1)
    expect(page.get_by_test_id(f"archive-row-{info['id']}")).to_be_visible()

    page.get_by_test_id(f"archive-open-{info['id']}").click()
    expect(page.get_by_test_id("archive-standings")).to_be_visible()
    for n, player in enumerate(scores["players"]):
        expect(page.get_by_test_id(f"archive-score-{n}")).to_have_text(str(player["total"]))
    expect(page.get_by_test_id("archive-game")).to_contain_text("Kitchen")
    save_shots(page, "archive-game")


def test_a_bad_import_is_refused_and_nothing_is_stored(hub: ServeProcess, page: Page,
                                                       tmp_path: Path) -> None:
    """A record with an illegal line is refused with its line and code, and the archive is
    as it was; a wrong admin PIN is asked again; then a good record goes in."""
    add(hub, popcorn_game(2, 2)[0])
    before = archive(hub)
    lines = EXAMPLE.splitlines()
    lines[33] = '{"move": "gain_pawn", "player": 2, "pawn": 3}'
    bad = tmp_path / "broken.jsonl"
    bad.write_text("\n".join(lines) + "\n", encoding="utf-8")
    page.goto(f"{hub.base}/archive")
    expect(page.locator(".agame")).to_have_count(1)
    page.get_by_test_id("archive-import").set_input_files(str(bad))
    answer_pin(page, "000000")  # wrong: forgotten, and asked again
    answer_pin(page, hub.admin_pin)
    refused = page.get_by_test_id("archive-import-refused")
    expect(refused).to_contain_text("broken.jsonl")
    expect(refused).to_contain_text("BAD_RECORD")
    expect(refused).to_contain_text("line 34")
    expect(refused).to_contain_text("PAWN_NOT_AVAILABLE")
    expect(page.locator(".agame")).to_have_count(1)
    assert archive(hub) == before
    save_shots(page, "archive-import-refused")

    good = tmp_path / "game-4p.jsonl"
    good.write_text(EXAMPLE, encoding="utf-8")
    page.get_by_test_id("archive-import").set_input_files(str(good))  # the PIN is known now
    expect(page.get_by_test_id("archive-import-added")).to_contain_text("game-4p.jsonl")
    expect(page.locator(".agame")).to_have_count(2)
    assert archive(hub)["total"] == 2


def test_a_players_page_shows_their_games_and_a_chart(hub: ServeProcess, page: Page) -> None:
    """Ana's games of both games: her games and wins, per game the mean and best, the list
    of her games, and Chart.js's chart with one point per game; a point opens that game."""
    info = played_table(hub, 2, 7)
    for seed in (8, 9, 10):
        add(hub, popcorn_game(3, seed)[0])
    for seed in (11, 12):
        add(hub, bmovies_game(3, seed, names=("Ana", "Zoë", "Bob"))[0])
    add(hub, bmovies_game(3, 13, names=("Ola", "Zoë", "Bob"))[0])  # not Ana's
    expected = call(f"{hub.base}/api/archive/players/Ana")
    assert expected["games"] == 6
    page.goto(f"{hub.base}/archive")
    page.get_by_test_id(f"archive-player-{info['id']}-0").click()
    expect(page).to_have_url(re.compile(r"/archive/player/Ana$"))
    expect(page.get_by_test_id("player-name")).to_have_text("Ana")
    summary = page.get_by_test_id("player-summary")
    expect(summary).to_contain_text("6 games")
    expect(summary).to_contain_text(f"{expected['wins']} win")
    for totals in expected["by_game"]:
        row = page.get_by_test_id(f"player-totals-{totals['game']}")
        expect(row).to_contain_text(str(totals["best"]))
        expect(row).to_contain_text(f"{totals['mean']:g}")
    expect(page.get_by_test_id("player-plays").locator("li")).to_have_count(6)
    canvas = page.get_by_test_id("player-chart")
    points = canvas.evaluate("""(c) => {
        const chart = Chart.getChart(c);
        return chart ? chart.data.datasets.map((d) => d.data.map((p) => p.y)) : null; }""")
    by_game = {g["game"]: [p["score"] for p in expected["plays"] if p["game"] == g["game"]]
               for g in expected["by_game"]}
    assert sorted(points) == sorted(by_game.values())
    inked = canvas.evaluate("""(c) => {
        const data = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
        let n = 0; for (let i = 3; i < data.length; i += 4) if (data[i] > 0) n++; return n; }""")
    assert inked > 1000, "the chart drew nothing"
    save_shots(page, "archive-player")

    first = canvas.evaluate("""(c) => {
        const chart = Chart.getChart(c);
        const point = chart.getDatasetMeta(0).data[0];
        const box = c.getBoundingClientRect();
        return {x: point.x, y: point.y, id: chart.data.datasets[0].data[0].id}; }""")
    canvas.click(position={"x": first["x"], "y": first["y"]})
    expect(page).to_have_url(re.compile(rf"/archive/{first['id']}$"))
    expect(page.get_by_test_id("archive-standings")).to_be_visible()


def test_a_game_is_deleted_from_its_page_with_the_admin_pin(hub: ServeProcess,
                                                            page: Page) -> None:
    game = add(hub, popcorn_game(2, 21)[0])
    page.goto(f"{hub.base}/archive/{game['id']}")
    page.get_by_test_id("archive-delete").click()
    expect(page.get_by_test_id("archive-delete-box")).to_be_visible()
    page.get_by_test_id("archive-delete-yes").click()
    answer_pin(page, hub.admin_pin)
    expect(page).to_have_url(re.compile(r"/archive$"))
    expect(page.get_by_test_id("archive-empty")).to_be_visible()
    with pytest.raises(HttpError) as gone:
        call(f"{hub.base}/api/archive/{game['id']}")
    assert gone.value.code == "ARCHIVE_NOT_FOUND"


def test_a_game_deleted_while_its_board_loads_leaves_no_script_error(hub: ServeProcess,
                                                                     page: Page) -> None:
    """Another device deletes the game between its page's first answers and its board's
    views: the board says so, and no promise is left rejected (a script error)."""
    game = add(hub, popcorn_game(2, 23)[0])
    url = f"{hub.base}/api/archive/{game['id']}"

    def delete_first(route) -> None:  # the hub really deletes it, then answers the views
        call(url, "DELETE", {"admin_pin": hub.admin_pin})
        route.continue_()

    page.route("**/replay/views*", delete_first)
    page.goto(f"{hub.base}/archive/{game['id']}")
    expect(page.get_by_test_id("replay-board-error")).to_contain_text(game["id"])
    with pytest.raises(HttpError) as gone:
        call(url)
    assert gone.value.code == "ARCHIVE_NOT_FOUND"


def test_the_plays_export_downloads_as_csv(hub: ServeProcess, page: Page) -> None:
    add(hub, popcorn_game(2, 22)[0])
    page.goto(f"{hub.base}/archive")
    expect(page.locator(".agame")).to_have_count(1)
    with page.expect_download() as download:
        page.get_by_test_id("archive-export-csv").click()
    text = Path(download.value.path()).read_bytes().decode("utf-8-sig")
    assert text == call(f"{hub.base}/api/archive/plays.csv").lstrip("\ufeff")
    with page.expect_download() as download:
        page.get_by_test_id("archive-export-zip").click()
        answer_pin(page, hub.admin_pin)
    assert download.value.suggested_filename == "popcorn-companion-archive.zip"


@pytest.mark.parametrize("lang", ["fr", "de", "ja"])
def test_the_archive_screens_speak_the_devices_language(hub: ServeProcess, browser: Browser,
                                                        lang: str) -> None:
    """The list, a game's page, a player's page and a refused import in French, German or
    Japanese hold no English word (names and game titles aside)."""
    errors: list[str] = []
    info = played_table(hub, 2, 31)
    add(hub, bmovies_game(3, 32, "hidden", names=("Ana", "Zoë", "Bob"))[0])
    page = new_page(browser, errors, lang)
    names = ["Ana", "Bob", "Zoë", "Kitchen", "Popcorn", "Companion", "B Movies",
             "CSV", "zip", "BAD_RECORD", "broken.jsonl",
             # the game's board opens at its end: card titles stay as printed
             *(m.title for m in load_catalog().movies.values())]

    def speaks(screen: str) -> None:
        page.wait_for_function("(l) => document.documentElement.lang === l", arg=lang)
        page.screenshot(path=str(SHOTS / f"archive-{lang}-{screen}.png"), full_page=True)
        assert foreign_texts(visible_texts(page), lang, names) == [], (lang, screen)

    page.goto(f"{hub.base}/archive")
    expect(page.locator(".agame")).to_have_count(2)
    speaks("list")
    page.get_by_test_id(f"archive-open-{info['id']}").click()
    expect(page.get_by_test_id("archive-standings")).to_be_visible()
    speaks("game")
    page.goto(f"{hub.base}/archive/player/Ana")
    expect(page.get_by_test_id("player-plays").locator("li")).to_have_count(2)
    page.wait_for_function("(c) => window.Chart && Chart.getChart(c)",
                           arg=page.get_by_test_id("player-chart").element_handle())
    speaks("player")
    page.goto(f"{hub.base}/archive")
    page.get_by_test_id("archive-import").set_input_files(
        files=[{"name": "broken.jsonl", "mimeType": "application/x-ndjson",
                "buffer": b'{"format": "popcorn-record", "version": 2}\n'}])
    answer_pin(page, hub.admin_pin)
    expect(page.get_by_test_id("archive-import-refused")).to_be_visible()
    speaks("import-refused")
    page.context.close()
    assert errors == []


def test_the_demo_keeps_what_it_played_for_the_archive_page(tmp_path: Path, page: Page) -> None:
    """Issue 38, item 5: ``demo --db PATH --exit-when-done`` plays a whole game and keeps the
    hub's database; a ``serve`` started on that file afterwards lists the game on ``/archive``
    with the demo's players and the winners it printed, and its page opens with the
    standings."""
    db = tmp_path / "kept.sqlite"
    done = kept_demo(tmp_path, db)
    lines = done.stdout.splitlines()
    assert f"kept in {db}" in lines[-1], lines[-1]
    winners = re.search(r"winner\(s\): ([^(]+?)\s*(\(|$)", lines[-2])
    assert winners, lines[-2]
    names = [line.split(":")[0].strip() for line in lines[3:7]]
    hub = ServeProcess(db).start()
    try:
        page.goto(f"{hub.base}/archive")
        row = page.locator(".agame")
        expect(row).to_have_count(1)
        expect(row).to_contain_text("B Movies")
        for name in names:
            expect(row).to_contain_text(name)
        game = archive(hub)["games"][0]
        expect(page.get_by_test_id(f"archive-winners-{game['id']}")).to_contain_text(
            winners.group(1).strip())
        page.get_by_test_id(f"archive-open-{game['id']}").click()
        expect(page.get_by_test_id("archive-standings")).to_be_visible()
    finally:
        hub.stop()

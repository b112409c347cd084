"""The replay board in Chromium, on a real ``serve``: an archived game stepped forward and back
(buttons, arrow keys, the slider) and jumped to a round, the move in words with what it
changed outlined, the charts (Chart.js) and a click on one that moves the board, the
analysis with its progress bar and misses (a miss opens the board there, the advisor's move
beside the one played), B Movies' pitches and votes as revealed, a live table's read-only
board, and the screens in French, German and Japanese.

Screenshots in ``artifacts/screenshots/``: ``replay-board-{tablet,phone}.png`` (the board with
its charts), ``replay-analysis-{tablet,phone}.png``, ``replay-bmovies-tablet.png``,
``replay-live-tablet.png`` and ``replay-<lang>.png``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from companion.games.popcorn.facts_file import load_catalog
from companion.hub.remote import ServeProcess
from companion.kit.http import call
from tests.hub.archive_games import bmovies_game, play_over_http, popcorn_first_player, popcorn_game
from tests.web.room import SHOTS, TABLET
from tests.web.test_web_archive import add, new_page, save_shots
from tests.web.untranslated import foreign_texts, visible_texts

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = (ROOT / "docs" / "examples" / "game-4p.jsonl").read_text(encoding="utf-8")
CATALOG = load_catalog()
PROGRESS_SPY = """window.progressSeen = [];
new MutationObserver(() => {
  const bar = document.querySelector('[data-testid="analysis-progress"]');
  if (bar) window.progressSeen.push([Number(bar.max), Number(bar.value)]);
}).observe(document, { subtree: true, childList: true });"""
"""Every state of the analysis's progress bar the page showed goes to ``window.progressSeen``."""


@pytest.fixture
def hub(tmp_path: Path) -> Iterator[ServeProcess]:
    """``serve`` on loopback with an empty archive."""
    server = ServeProcess(tmp_path / "hub.db").start()
    yield server
    server.stop()


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    """A tablet page that fails the test on a script error or a CSP violation."""
    errors: list[str] = []
    tab = new_page(browser, errors)
    yield tab
    tab.context.close()
    assert errors == [], errors


def replay(hub: ServeProcess, path: str) -> dict[str, Any]:
    return call(f"{hub.base}{path}/replay")


def at(page: Page, position: int) -> None:
    """Wait until the board shows ``position``."""
    expect(page.get_by_test_id("replay-board")).to_have_attribute("data-position", str(position))


def changed(page: Page) -> list[str]:
    return (page.get_by_test_id("replay-board").get_attribute("data-changed") or "").split()


def test_the_replay_board_steps_forward_and_back_and_jumps_to_a_round(
        hub: ServeProcess, page: Page) -> None:
    """Forward and Back, the arrow keys, Home and End, the slider and a round's jump; each
    position names its move in words and outlines what it changed (a guest seated: its seat;
    a guest drawn: the drawer's bag and the drawn guest); the address keeps the position."""
    game = add(hub, EXAMPLE)
    summary = replay(hub, f"/api/archive/{game['id']}")
    steps = summary["steps"]
    page.goto(f"{hub.base}/archive/{game['id']}")
    at(page, 611)  # issue 38, item 6: a finished game opens at its end, the address bare
    expect(page.get_by_test_id("replay-position")).to_contain_text("Move 611 of 611")
    expect(page.get_by_test_id("replay-forward")).to_be_disabled()
    expect(page).to_have_url(re.compile(rf"/archive/{game['id']}$"))
    page.keyboard.press("Home")
    at(page, 0)
    expect(page).to_have_url(re.compile(rf"/archive/{game['id']}\?at=0$"))
    expect(page.get_by_test_id("replay-position")).to_contain_text("611 moves")
    expect(page.get_by_test_id("replay-back")).to_be_disabled()
    page.get_by_test_id("replay-forward").click()
    at(page, 1)
    first = CATALOG.movies[steps[0]["card"]].title
    expect(page.get_by_test_id("replay-words")).to_have_text(re.compile(rf"is dealt {first}"))
    name = summary["names"][steps[0]["player"]]
    expect(page.get_by_test_id(f"cinema-{steps[0]['player']}")).to_contain_text(first)
    expect(page.get_by_test_id("replay-words")).to_contain_text(name)
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    at(page, 3)
    page.keyboard.press("ArrowLeft")
    at(page, 2)
    page.get_by_test_id("replay-back").click()
    at(page, 1)
    expect(page).to_have_url(re.compile(rf"/archive/{game['id']}\?at=1$"))

    third = next(r for r in summary["rounds"] if r["round"] == 3)
    page.get_by_test_id("replay-round-3").click()
    at(page, third["position"])
    expect(page.get_by_test_id("replay-position")).to_have_text(
        f"Move {third['position']} of 611 · Round 3")
    expect(page.get_by_test_id("replay-round-3")).to_have_attribute("aria-current", "true")

    place = next(n for n, s in enumerate(steps, start=1) if s["move"] == "place" and n > 150)
    page.get_by_test_id("replay-slider").fill(str(place))
    at(page, place)
    move = steps[place - 1]
    color = load_colors()[move["pawn"]]
    expect(page.get_by_test_id("replay-words")).to_have_text(
        re.compile(rf"{summary['names'][move['player']]} seats a {color} \w+ guest in the "))
    assert f"seat-{move['player']}-{move['slot']}-{move['seat']}" in changed(page)
    expect(page.get_by_test_id(f"seat-{move['player']}-{move['slot']}-{move['seat']}")) \
        .to_have_class(re.compile(r"\bchanged\b"))
    draw = next(n for n, s in enumerate(steps, start=1) if s["move"] == "draw_pawn" and n > place)
    page.get_by_test_id("replay-slider").fill(str(draw))
    at(page, draw)
    player = steps[draw - 1]["player"]
    assert {f"zones-{player}", f"hand-{steps[draw - 1]['pawn']}"} <= set(changed(page))
    page.keyboard.press("End")
    at(page, 611)
    expect(page.get_by_test_id("replay-forward")).to_be_disabled()
    page.keyboard.press("Home")
    at(page, 0)


def load_colors() -> list[str]:
    """The color of each pawn id."""
    from companion.games.popcorn.engine import GUEST_COLORS
    from companion.games.popcorn.engine.pawns import pawn_colors
    return list(pawn_colors(CATALOG.box, GUEST_COLORS))


def test_the_charts_render_and_a_click_moves_the_board(hub: ServeProcess, page: Page) -> None:
    """A game played to its end on the hub: Popcorn's four charts, each inked, their points
    the hub's series; a click on a point of the popcorn chart moves the board to the end of
    that round, and a click on the final score's bars to the end of the game."""
    info = played_table(hub)
    summary = replay(hub, f"/api/archive/{info['id']}")
    page.goto(f"{hub.base}/archive/{info['id']}")
    at(page, summary["moves"])
    for chart in summary["charts"]:
        canvas = page.get_by_test_id(f"chart-{chart['id']}")
        page.wait_for_function("(c) => window.Chart && Chart.getChart(c)",
                               arg=canvas.element_handle())
        values = canvas.evaluate("(c) => Chart.getChart(c).data.datasets.map((d) => d.data)")
        assert values == [s["values"] for s in chart["series"]]
        assert inked(canvas) > 500, chart["id"]
    popcorn = next(c for c in summary["charts"] if c["id"] == "popcorn")
    point = 2  # the end of round 3
    page.get_by_test_id("chart-popcorn").scroll_into_view_if_needed()
    where = point_of(page, "chart-popcorn", 0, point)
    page.get_by_test_id("chart-popcorn").click(position=where)
    at(page, popcorn["series"][0]["positions"][point])
    expect(page.get_by_test_id("replay-position")).to_contain_text("Round 4")
    score = next(c for c in summary["charts"] if c["id"] == "score")
    tallest = max(range(len(score["series"])), key=lambda k: score["series"][k]["values"][0])
    page.get_by_test_id("chart-score").scroll_into_view_if_needed()
    page.get_by_test_id("chart-score").click(position=point_of(page, "chart-score", tallest, 0))
    at(page, summary["moves"])
    page.get_by_test_id("replay-slider").fill("200")
    at(page, 200)
    save_shots(page, "replay-board")


def played_table(hub: ServeProcess, players: int = 3, seed: int = 1) -> dict[str, Any]:
    """A Popcorn table played to its end through the hub's API."""
    text, moves = popcorn_game(players, seed)
    names = ["Ana", "Bob", "Chloe", "Dev"][:players]
    info = hub.create_table({"players": names, "first_player": popcorn_first_player(text),
                             "readers": [f"bag-{n + 1}" for n in range(players)],
                             "name": "Kitchen"})
    play_over_http(hub.base, info, moves)
    return info


def inked(canvas: Any) -> int:
    return canvas.evaluate("""(c) => {
        const data = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
        let n = 0; for (let i = 3; i < data.length; i += 4) if (data[i] > 0) n++; return n; }""")


def point_of(page: Page, testid: str, series: int, index: int) -> dict[str, float]:
    """Where a chart's point (or bar) is drawn on its canvas, in CSS pixels."""
    return page.get_by_test_id(testid).evaluate("""(c, [s, k]) => {
        const el = Chart.getChart(c).getDatasetMeta(s).data[k];
        const box = el.getProps(['x', 'y', 'base'], true);
        const y = box.base !== undefined ? (box.y + box.base) / 2 : box.y;
        return {x: box.x, y}; }""", [series, index])


def test_the_analysis_shows_its_progress_then_misses_that_open_the_board(
        hub: ServeProcess, browser: Browser) -> None:
    """The page starts the analysis and shows the job's progress bar, then each player's
    accuracy and three misses, as the hub keeps them; a miss opens the board before it, with
    the move played and the advisor's beside it, and the address keeps it."""
    errors: list[str] = []
    page = new_page(browser, errors)
    page.add_init_script(PROGRESS_SPY)
    game = add(hub, EXAMPLE)
    page.goto(f"{hub.base}/archive/{game['id']}")
    expect(page.get_by_test_id("analysis")).to_have_attribute("data-state", "done", timeout=30_000)
    seen = page.evaluate("() => window.progressSeen")
    assert seen, "no progress bar was shown"
    kept = call(f"{hub.base}/api/archive/{game['id']}/analysis")
    assert kept["state"] == "done"
    analysis = kept["analysis"]
    for player in analysis["players"]:
        seat = player["seat"]
        expect(page.get_by_test_id(f"accuracy-{seat}")).to_have_text(f"{player['accuracy']:g}%")
        expect(page.get_by_test_id(f"analysis-player-{seat}").locator("a.miss")) \
            .to_have_count(len(player["misses"]))
    miss = analysis["players"][1]["misses"][0]
    link = page.get_by_test_id("miss-1-0")
    expect(link).to_contain_text(f"Round {miss['round']}")
    link.click()
    at(page, miss["index"])
    expect(page).to_have_url(re.compile(rf"\?at={miss['index']}&miss=1\.0$"))
    compare = page.get_by_test_id("replay-compare")
    expect(compare).to_be_visible()
    expect(compare).to_contain_text(f"Bob's miss: {miss['lost']:g} popcorn lost")
    for side in ("played", "best"):
        expect(page.get_by_test_id(f"compare-{side}")).to_contain_text(
            f"worth {miss[side]['value']:g}")
    best, played = (page.get_by_test_id(f"compare-{side}").inner_text()
                    for side in ("best", "played"))
    assert best.splitlines()[-1] != played.splitlines()[-1]  # two different moves
    save_shots(page, "replay-analysis")
    page.reload()  # the address opens the same miss, from the analysis the hub kept
    at(page, miss["index"])
    expect(page.get_by_test_id("replay-compare")).to_contain_text("Bob's miss")
    page.get_by_test_id("replay-forward").click()
    at(page, miss["index"] + 1)
    expect(page.get_by_test_id("replay-compare")).to_be_hidden()
    page.context.close()
    assert errors == [], errors


def test_a_b_movies_replay_shows_each_pitch_its_votes_as_revealed_and_the_draws(
        hub: ServeProcess, page: Page) -> None:
    """Before the last vote the board shows who voted, never what; the last vote reveals
    every vote with the outcome; then the draws owed; the charts are B Movies' own."""
    text, moves = bmovies_game(4, 3, "hidden")
    game = add(hub, text)
    summary = replay(hub, f"/api/archive/{game['id']}")
    reveal = next(n for n in range(2, len(moves) + 1)
                  if moves[n - 1].kind == "vote" and moves[n].kind != "vote")
    page.goto(f"{hub.base}/archive/{game['id']}?at={reveal - 1}")
    at(page, reveal - 1)
    expect(page.get_by_test_id("bm-voting")).to_be_visible()
    expect(page.get_by_test_id("replay-words")).to_contain_text("votes, face down")
    expect(page.get_by_test_id("bm-reveal")).to_have_count(0)
    page.keyboard.press("ArrowRight")
    at(page, reveal)
    expect(page.get_by_test_id("replay-words")).to_contain_text("every vote is revealed")
    votes = {m.player: m.vote for m in moves[:reveal] if m.kind == "vote"}
    pitch = max(n for n in range(reveal) if moves[n].kind == "pitch")
    for seat in {m.player for m in moves[pitch:reveal] if m.kind == "vote"}:
        expect(page.get_by_test_id(f"bm-reveal-vote-{seat}")).to_have_attribute(
            "data-vote", votes[seat])
    expect(page.get_by_test_id("bm-outcome")).to_be_visible()
    draws = [n for n in range(reveal, len(moves)) if moves[n].kind == "draw_token"]
    if draws and draws[0] == reveal:
        expect(page.get_by_test_id("bm-draws")).to_be_visible()
    assert [c["id"] for c in summary["charts"]] == ["tokens", "movies"]
    expect(page.get_by_test_id("chart-tokens")).to_be_visible()
    page.screenshot(path=str(SHOTS / "replay-bmovies-tablet.png"), full_page=True)


def test_a_correction_is_a_step_in_words(hub: ServeProcess, page: Page) -> None:
    """A table corrects a guest's place mid-game (a guest of Ana's bag is really in her exit
    zone): the live replay board shows the correction as a step of its own, in words, with
    the guest where the table put it."""
    text, moves = popcorn_game(3, 11)
    info = hub.create_table({"players": ["Ana", "Bob", "Chloe"],
                             "first_player": popcorn_first_player(text),
                             "readers": ["bag-1", "bag-2", "bag-3"]})
    play_over_http(hub.base, info, moves[:60])
    state = call(f"{hub.base}/api/tables/{info['id']}/state",
                 headers={"X-Table-Pin": info["pin"]})["state"]
    color = load_colors()[state["players"][0]["bag"][0]]
    call(f"{hub.base}/api/tables/{info['id']}/correct", "POST",
         {"color": color, "from": {"zone": "bag", "player": 0}, "zone": "exit", "player": 0},
         {"X-Table-Pin": info["pin"]})
    page.goto(f"{hub.base}/table/{info['id']}/replay")
    at(page, 61)
    expect(page.get_by_test_id("replay-words")).to_have_text(
        re.compile(rf"The table says a {color} \w+ guest is in Ana's exit zone\."))
    page.get_by_test_id("replay-back").click()
    at(page, 60)


def test_a_live_table_offers_its_moves_so_far_read_only(hub: ServeProcess, page: Page) -> None:
    """From the table screen, Replay opens the board of the moves so far, at the last one,
    without a PIN; it follows the table as moves come, and leads back to the table."""
    text, moves = popcorn_game(3, 11)
    info = hub.create_table({"players": ["Ana", "Bob", "Chloe"],
                             "first_player": popcorn_first_player(text),
                             "readers": ["bag-1", "bag-2", "bag-3"], "name": "Porch"})
    play_over_http(hub.base, info, moves[:120])
    page.goto(f"{hub.base}/table/{info['id']}")
    page.wait_for_function("(id) => window.popcornLoaded === id", arg=info["id"])
    page.get_by_test_id("open-replay").click()
    expect(page).to_have_url(re.compile(rf"/table/{info['id']}/replay$"))
    at(page, 120)
    expect(page.get_by_test_id("replay-live")).to_be_visible()
    expect(page.get_by_test_id("replay-table-name")).to_have_text("Porch")
    expect(page.locator("#pin-dialog")).not_to_be_visible()
    expect(page.get_by_test_id("replay-charts").locator("canvas")).to_have_count(3)
    page.get_by_test_id("replay-back").click()
    at(page, 119)
    play_over_http(hub.base, info, moves[120:124])
    expect(page.get_by_test_id("replay-slider")).to_have_attribute("max", "124")
    at(page, 119)  # a board looking back stays where it is
    page.keyboard.press("End")
    at(page, 124)
    play_over_http(hub.base, info, moves[124:130])
    at(page, 130)  # a board at the end follows the table
    page.screenshot(path=str(SHOTS / "replay-live-tablet.png"), full_page=True)
    page.get_by_test_id("replay-back-to-table").click()
    page.wait_for_function("(id) => window.popcornLoaded === id", arg=info["id"])
    expect(page).to_have_url(re.compile(rf"/table/{info['id']}$"))


@pytest.mark.parametrize("lang", ["fr", "de", "ja"])
def test_the_replay_board_speaks_the_devices_language(hub: ServeProcess, browser: Browser,
                                                      lang: str) -> None:
    """The board, its moves in words, the charts' cards, the analysis and a miss's
    comparison in French, German or Japanese hold no English word (names and card titles
    aside)."""
    errors: list[str] = []
    page = new_page(browser, errors, lang)
    page.set_viewport_size(TABLET)
    game = add(hub, EXAMPLE)
    page.goto(f"{hub.base}/archive/{game['id']}?at=150")
    page.wait_for_function("(l) => document.documentElement.lang === l", arg=lang)
    at(page, 150)
    expect(page.get_by_test_id("analysis")).to_have_attribute("data-state", "done", timeout=30_000)
    page.get_by_test_id("miss-0-0").click()
    expect(page.get_by_test_id("replay-compare")).to_be_visible()
    titles = [m.title for m in CATALOG.movies.values()]
    names = ["Ana", "Bob", "Chloe", "Dev", "Popcorn", "Companion", *titles]
    page.screenshot(path=str(SHOTS / f"replay-{lang}.png"), full_page=True)
    assert foreign_texts(visible_texts(page), lang, names) == []
    labels = page.evaluate("""() => [...document.querySelectorAll('canvas')].flatMap((c) => {
        const chart = Chart.getChart(c); const scales = chart.options.scales;
        return [scales.x.title.text, scales.y.title.text,
                ...chart.data.datasets.map((d) => d.label), c.getAttribute('aria-label')]; })""")
    assert foreign_texts(labels, lang, names) == []
    page.context.close()
    assert errors == [], errors

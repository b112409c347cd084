"""Card tags on the table screen, in a real browser (Debian's Chromium and Playwright), with
a real hub process and virtual bag readers on pseudo-terminals: a starting movie reported by
its tag and a movie bought by tag (the slot chosen with one tap), and a wrong card."""

from __future__ import annotations

import random
import re

from playwright.sync_api import Browser, Page, expect

from companion.games.popcorn.cardbook import CardBook
from companion.games.popcorn.demo import card_uids
from companion.games.popcorn.engine.simulator import random_move
from companion.games.popcorn.facts_file import card_copies
from companion.games.popcorn.remote import RemoteTable
from companion.games.popcorn.tile_looks import sentence, tile_look
from tests.waiting import wait_for
from tests.web.room import CATALOG, READERS, TABLET, Room, Tablet, call, save_shots
from tests.web.untranslated import foreign_texts, visible_texts

CARDS = card_uids(CardBook.from_catalog(CATALOG, card_copies()), 5)


def enroll_cards(room: Room) -> None:
    """Every pawn and every card of the box get a tag (registry format version 2)."""
    registry = {"format": "popcorn-tags", "version": 2,
                "tags": [{"uid": u, "pawn": p} for p, u in room.uids.items()],
                "cards": [{"uid": u, "kind": k, "card": c} for (k, c), u in CARDS.items()]}
    call(f"{room.base}/api/tags", "PUT", {"registry": registry,
                                          "admin_pin": room.server.admin_pin})


def tap_card(room: Room, tablet: Tablet, reader: str, kind: str, card: str) -> None:
    """Tap a card's tag and wait until the page has drawn what followed."""
    before = tablet.table.count
    room.bank.tap(reader, CARDS[(kind, card)])
    tablet.page.wait_for_function("(n) => (window.popcornEvents ?? -1) > n", arg=before,
                                  timeout=15000)


def test_a_card_tag_reported_and_one_bought(room: Room, page: Page) -> None:
    """A starting movie dealt by its tag; then a movie tapped to buy it: the side panel
    offers its two slots, and one tap buys it into the one chosen."""
    enroll_cards(room)
    info = room.server.create_table({"players": ["Ana", "Bob"], "readers": READERS[:2]})
    table = RemoteTable(room.base, info, CATALOG)
    tablet = Tablet(page, room, table).open()
    starting = sorted(table.state.starting_pool)[0]
    tap_card(room, tablet, "bag-1", "movie", starting)
    title = CATALOG.movies[starting].title
    expect(page.get_by_test_id("slot-0-0")).to_contain_text(title)
    tablet.shot("card-reported")
    call(f"{room.base}/api/tables/{table.id}/deal", "POST", {"seed": 4},
         {"X-Table-Pin": info["pin"]})
    table.keep_first_awards()
    tablet.wait_events()
    state = table.state
    assert state.phase == "buying" and state.current == 0
    card = next(m.card for m in state.legal_moves() if m.kind == "buy_movie")
    tap_card(room, tablet, "bag-1", "movie", card)
    choice = page.get_by_test_id("card-choice")
    expect(choice).to_contain_text(CATALOG.movies[card].title)
    expect(choice).to_contain_text("Ana")
    placed = next(k for k in range(3) if table.state.players[0].movies[k] == card)
    other = next(k for k in (0, 1) if k != placed)  # the two slots with a theater
    expect(page.get_by_test_id(f"just-placed-0-{placed}")).to_be_visible()
    expect(page.get_by_test_id(f"slot-0-{placed}")).to_contain_text(CATALOG.movies[card].title)
    expect(page.get_by_test_id(f"card-choice-{placed}")).to_have_count(0)
    tablet.shot("card-choice")
    count = table.count
    page.get_by_test_id(f"slot-0-{other}").click()  # one tap on the other slot moves it
    page.wait_for_function("(n) => (window.popcornEvents ?? -1) > n", arg=count)
    expect(page.get_by_test_id(f"just-placed-0-{other}")).to_be_visible()
    expect(page.get_by_test_id(f"slot-0-{other}")).to_contain_text(CATALOG.movies[card].title)
    assert table.state.players[0].movies[other] == card
    assert table.state.players[0].movies[placed] != card
    page.get_by_test_id(f"card-choice-{placed}").click()  # and back, from the side panel
    expect(page.get_by_test_id(f"just-placed-0-{placed}")).to_be_visible()
    assert wait_for(lambda: table.state.players[0].movies[placed] == card)


def test_a_wrong_card_tag(room: Room, page: Page) -> None:
    """A market movie tapped on the reader of a player who is not to buy: a banner naming
    the card and the fix, and nothing changes."""
    enroll_cards(room)
    table = room.table(["Ana", "Bob", "Chloe"], seed=2)
    tablet = Tablet(page, room, table).open()
    state = table.state
    card = state.features[0]
    before = table.full_state()
    room.bank.tap("bag-2", CARDS[("movie", card)])
    banner = page.get_by_test_id("alert")
    expect(banner).to_be_visible()
    expect(banner).to_have_attribute("data-code", "NOT_PLAYERS_TURN")
    expect(banner).to_contain_text(CATALOG.movies[card].title)
    expect(banner).to_contain_text("Bob")
    expect(banner).not_to_contain_text("Pawn")
    tablet.shot("card-alert")
    assert table.full_state() == before


def test_card_enrollment_on_the_setup_screen(room: Room, page: Page) -> None:
    """Awards in catalog order, then a movie by "tap, then pick" with the search box; the
    counts go up live against the box's capacity."""
    call(f"{room.base}/api/tags", "PUT", {"admin_pin": room.server.admin_pin, "registry": {
        "format": "popcorn-tags", "version": 2, "tags": [], "cards": []}})
    page.goto(f"{room.base}/setup")
    page.get_by_test_id("enroll-admin-pin").fill(room.server.admin_pin)
    expect(page.get_by_test_id("enroll-cards-count-movie")).to_contain_text("0 / 48")
    page.get_by_test_id("enroll-cards-kind-award").click()
    page.get_by_test_id("enroll-cards-order").click()
    expect(page.get_by_test_id("enroll-cards-status")).to_contain_text("Awards")
    for n in range(2):
        room.bank.tap("bag-1", f"04cc0000000{n:03x}")
    expect(page.get_by_test_id("enroll-cards-count-award")).to_contain_text("2 / 26")
    second = list(CATALOG.awards.values())[1].title
    expect(page.get_by_test_id("enroll-cards-last")).to_contain_text(second)
    expect(page.get_by_test_id("enroll-last")).to_be_hidden()  # Pawn tags: no card here
    page.get_by_test_id("enroll-cards-pick").click()
    expect(page.get_by_test_id("enroll-cards-status")).to_contain_text("pick it below")
    room.bank.tap("bag-2", "04dd00000000aa")
    expect(page.get_by_test_id("enroll-card-pending")).to_contain_text("04dd00000000aa")
    movie = next(iter(CATALOG.movies.values()))
    page.get_by_test_id("enroll-card-search").fill(movie.title[:4])
    page.get_by_test_id(f"enroll-card-option-movie-{movie.id}").click()
    expect(page.get_by_test_id("enroll-cards-count-movie")).to_contain_text("1 / 48")
    expect(page.get_by_test_id("enroll-card-pending")).to_be_hidden()
    save_shots(page, "setup-card-enrollment")
    page.get_by_test_id("enroll-stop").click()
    expect(page.get_by_test_id("enroll-cards-status")).to_contain_text("Not enrolling")
    counts = call(f"{room.base}/api/tags/counts")
    assert counts["cards"] == {"movie": 1, "theater": 0, "award": 2}


def french_page(browser: Browser) -> tuple[Page, list[str]]:
    """A tablet page whose device language is French, and the list its script errors go to."""
    context = browser.new_context(viewport=TABLET, locale="fr-FR")
    tab = context.new_page()
    tab.add_init_script("localStorage.setItem('popcorn:lang', 'fr');")
    errors: list[str] = []
    tab.on("pageerror", lambda exc: errors.append(str(exc)))
    return tab, errors


def english_left(texts: list[str], names: list[str]) -> list[str]:
    """The texts holding a word that is not French (names and card titles excepted)."""
    titles = [m.title for m in CATALOG.movies.values()] + [a.title for a in CATALOG.awards.values()]
    return foreign_texts(texts, "fr", names + titles)


def test_card_words_in_french(room: Room, browser: Browser) -> None:
    """A French tablet: the Cards section of the enrollment panel, a wrong card's alert and
    the slot prompt of a card tapped to buy, with no English word left."""
    call(f"{room.base}/api/tags", "PUT", {"admin_pin": room.server.admin_pin, "registry": {
        "format": "popcorn-tags", "version": 2, "tags": [], "cards": []}})
    page, errors = french_page(browser)
    page.goto(f"{room.base}/setup")
    page.get_by_test_id("enroll-admin-pin").fill(room.server.admin_pin)
    page.get_by_test_id("enroll-cards-pick").click()
    # as a person would, tap once the panel says the hub is enrolling (else it is a game tap)
    expect(page.get_by_test_id("enroll-cards-status")).to_have_class(re.compile(r"\bon\b"))
    assert call(f"{room.base}/api/tags/counts")["enrolling_cards"] == "pick"
    room.bank.tap("bag-2", "04dd00000000ab")
    expect(page.get_by_test_id("enroll-card-pending")).to_contain_text("04dd00000000ab")
    section = page.get_by_test_id("enroll-cards")
    expect(section).to_contain_text("Étiquettes des cartes")
    names = ["Popcorn", "Companion", "04dd00000000ab", *READERS]
    assert english_left(visible_texts(page), names) == []
    page.get_by_test_id("enroll-stop").click()
    enroll_cards(room)
    table = room.table(["Ana", "Bob", "Chloe"], seed=2)
    tablet = Tablet(page, room, table).open()
    card = table.state.features[0]
    room.bank.tap("bag-2", CARDS[("movie", card)])
    banner = page.get_by_test_id("alert")
    expect(banner).to_have_attribute("data-code", "NOT_PLAYERS_TURN")
    expect(banner).to_contain_text("c’est à Ana d’acheter")
    assert english_left([banner.inner_text()], ["Ana", "Bob", "Chloe"]) == []
    buy = next(m.card for m in table.state.legal_moves() if m.kind == "buy_movie")
    tap_card(room, tablet, "bag-1", "movie", buy)
    choice = page.get_by_test_id("card-choice")
    expect(choice).to_contain_text("Un autre emplacement")
    assert english_left([choice.inner_text()], ["Ana", "Bob", "Chloe"]) == []
    tablet.shot("card-choice-fr")
    page.context.close()
    assert errors == [], errors


def test_an_alert_names_what_the_table_waits_for_and_a_tile_as_it_looks(
        room: Room, page: Page, browser: Browser) -> None:
    """Issue 38, item 3: a market theater tile tapped while a gained guest is still owed.
    The banner says whose guest the table waits for, and names the tile by what is printed
    on it (price, seats, seat colors, actions), on an English and on a French tablet; the
    tile's old made-up title ("One seat …") appears nowhere, and nothing changes."""
    enroll_cards(room)
    table = room.table(["Ana", "Bob"], seed=5)
    rng = random.Random(5)
    state = table.state
    while not (state.phase == "buying" and state.tasks and state.tasks[0].kind == "gain"):
        table.decide(random_move(state, rng))  # as the tablet reports it, move by move
        state = table.state
    owner, color = state.names[state.tasks[0].player], state.tasks[0].color
    tile = next(c for column in state.columns.values() for c in column)
    look = tile_look(CATALOG.theaters[tile])
    tablet = Tablet(page, room, table).open()
    french, errors = french_page(browser)
    Tablet(french, room, table).open()
    before = table.full_state()
    room.bank.tap("bag-2", CARDS[("theater", tile)])
    banner = page.get_by_test_id("alert")
    expect(banner).to_have_attribute("data-code", "WAITING_FOR_GAIN")
    expect(banner).to_contain_text(f"{sentence(look)} was tapped on Bob's reader")
    expect(banner).to_contain_text(f"{owner} still has to take a {color} guest")
    expect(banner).not_to_contain_text("turn to buy")
    expect(banner).not_to_contain_text(tile.replace("_", " ").capitalize())
    tablet.shot("alert-tile-as-it-looks")
    words = french.get_by_test_id("alert")
    french_look = re.compile(r"Bob\s*: La tuile Salle à \d \$ à (une|deux|trois) place")
    expect(words).to_contain_text(french_look)
    expect(words).to_contain_text(f"{owner} doit encore prendre")
    assert english_left([words.inner_text()], ["Ana", "Bob"]) == []
    assert table.full_state() == before
    french.context.close()
    assert errors == [], errors

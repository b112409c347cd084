"""Popcorn's cards and pawns in the tag registry (export version 3; an older hub's version 1
and 2 files and databases still load), and the two ways of enrolling cards (tap then pick;
tap in catalog order)."""

from __future__ import annotations

import dataclasses
import json
import sqlite3
from pathlib import Path

import pytest

from companion.games.popcorn.cardbook import CardBook
from companion.games.popcorn.facts_file import card_copies, load_catalog
from companion.games.popcorn.parts import PopcornPieces
from companion.kit.game import Piece, PieceKind
from companion.table.registry import RegistryError, TagRegistry
from companion.table.store import HUB_SCHEMA_VERSION, HubStore
from tests.hub.rig import ADMIN, Rig
from tests.waiting import wait_for

CATALOG = load_catalog()
BOOK = CardBook.from_catalog(CATALOG, card_copies())
KINDS = PopcornPieces(CATALOG).kinds()
FIRST_MOVIE = next(iter(CATALOG.movies))
FIRST_THEATER = next(iter(CATALOG.theaters))
FIRST_AWARD = next(iter(CATALOG.awards))


def registry(path: Path, kinds: tuple[PieceKind, ...] = KINDS) -> TagRegistry:
    return TagRegistry(HubStore(path), {"popcorn": kinds})


def card(reg: TagRegistry, uid: str) -> tuple[str, object] | None:
    """The ``(kind, card id)`` of a card's tag, as the registry reads it."""
    piece = reg.piece_of(uid)
    return None if piece is None else (piece.kind, piece.value)


def doc(tags=(), cards=(), version=2) -> dict:
    out = {"format": "popcorn-tags", "version": version, "tags": list(tags)}
    if version == 2:
        out["cards"] = list(cards)
    return out


@pytest.fixture
def rig(tmp_path: Path):
    """A hub with four virtual readers and an empty registry."""
    r = Rig(tmp_path)
    assert r.client.put("/api/tags", json={"admin_pin": ADMIN,
                                           "registry": doc()}).status_code == 200
    yield r
    r.close()


def test_capacities_come_from_the_catalog() -> None:
    """48 movies, 28 theater tiles (copies counted), 26 awards: counted, not written down."""
    doc_copies = card_copies()
    assert BOOK.capacity() == {"movie": len(CATALOG.movies),
                               "theater": sum(doc_copies["theater"].values()),
                               "award": len(CATALOG.awards)}
    assert BOOK.capacity() == {"movie": 48, "theater": 28, "award": 26}


def test_version_3_round_trips_and_versions_1_and_2_still_load(tmp_path: Path) -> None:
    """Export holds every piece with its game, kind, number and value; a reopened database
    has them all; an older export's pawns (version 1) and cards (version 2) load."""
    reg = registry(tmp_path / "a.sqlite")
    assert reg.enroll("04000000000001", "popcorn", "pawn", "red") == Piece(
        "pawn", 40, "red", "popcorn")  # 20 white, 10 blue, 10 green: the first red is 40
    reg.enroll("04000000000002", "popcorn", "movie", FIRST_MOVIE)
    reg.enroll("04000000000003", "popcorn", "theater", FIRST_THEATER)
    exported = reg.export()
    assert (exported["format"], exported["version"]) == ("companion-tags", 3)
    assert {"uid": "04000000000002", "game": "popcorn", "kind": "movie", "id": 0,
            "value": FIRST_MOVIE} in exported["pieces"]
    reg.store.close()
    again = registry(tmp_path / "a.sqlite")
    assert again.export() == exported
    assert card(again, "04000000000003") == ("theater", FIRST_THEATER)
    other = registry(tmp_path / "b.sqlite")
    assert other.import_(exported) == 3 and other.export() == exported
    assert other.import_(doc([{"uid": "04000000000001", "pawn": 20}], version=1)) == 1
    assert other.card_counts() == {"movie": 0, "theater": 0, "award": 0}
    assert other.piece_of("04000000000001") == Piece("pawn", 20, "blue", "popcorn")
    assert other.import_(doc([], [{"uid": "04000000000009", "kind": "award",
                                   "card": FIRST_AWARD}])) == 1
    assert card(other, "04000000000009") == ("award", FIRST_AWARD)


@pytest.mark.parametrize(("tags", "cards", "code"), [
    ([{"uid": "04000000000001", "pawn": 1}],
     [{"uid": "04000000000001", "kind": "movie", "card": FIRST_MOVIE}], "DUPLICATE_UID"),
    ([], [{"uid": "04000000000001", "kind": "movie", "card": "no_such_movie"}], "BAD_CARD"),
    ([], [{"uid": "04000000000001", "kind": "poster", "card": FIRST_MOVIE}], "BAD_CARD"),
    ([], [{"uid": "04000000000001", "kind": "award", "card": FIRST_MOVIE}], "BAD_CARD"),
    ([], [{"uid": "04000000000001", "kind": "movie", "card": FIRST_MOVIE},
          {"uid": "04000000000002", "kind": "movie", "card": FIRST_MOVIE}], "CARD_FULL"),
    ([], [{"uid": "04000000000001", "kind": "award", "card": FIRST_AWARD},
          {"uid": "04000000000002", "kind": "award", "card": FIRST_AWARD}], "CARD_FULL"),
    ([], [{"uid": "04000000000001", "kind": "theater", "card": FIRST_THEATER},
          {"uid": "04000000000002", "kind": "theater", "card": FIRST_THEATER}], "CARD_FULL"),
    ([], [{"uid": "zz", "kind": "movie", "card": FIRST_MOVIE}], "BAD_UID"),
    ([], "not a list", "BAD_REGISTRY"),
])
def test_bad_registries_are_refused_whole(tmp_path: Path, tags, cards, code) -> None:
    """Each refusal has its code, and the registry is left as it was."""
    reg = registry(tmp_path / "hub.sqlite")
    reg.enroll("04aaaaaaaaaaaa", "popcorn", "award", FIRST_AWARD)
    before = reg.export()
    with pytest.raises(RegistryError) as caught:
        reg.import_(doc(tags, cards))
    assert caught.value.code == code and caught.value.message
    assert reg.export() == before


def test_a_theater_id_takes_as_many_tags_as_its_copies(tmp_path: Path) -> None:
    """With two copies of a tile, two tags map to it and a third is refused."""
    theaters = next(k for k in KINDS if k.kind == "theater")
    two = dataclasses.replace(theaters.values[0], count=2)
    kinds = tuple(dataclasses.replace(k, values=(two, *k.values[1:])) if k is theaters else k
                  for k in KINDS)
    reg = registry(tmp_path / "hub.sqlite", kinds)
    for n in range(2):
        assert reg.enroll_next(f"0400000000000{n}", "popcorn", "theater").value == FIRST_THEATER
    with pytest.raises(RegistryError, match="2 pieces") as refused:
        reg.enroll("04000000000009", "popcorn", "theater", FIRST_THEATER)
    assert refused.value.code == "VALUE_FULL" and refused.value.params["cap"] == 2
    assert reg.enroll_next("04000000000009", "popcorn", "theater").value != FIRST_THEATER


def test_an_old_hub_database_is_migrated_and_keeps_its_pawns(tmp_path: Path) -> None:
    """A hub file of schema version 1 (no card table) opens, keeps its tags as pieces (its
    older table emptied, so that nothing is read twice), and takes cards."""
    path = tmp_path / "old.sqlite"
    db = sqlite3.connect(path)
    db.executescript("""
        CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        INSERT INTO meta VALUES ('schema', '1'), ('hub_schema', '1');
        CREATE TABLE tags (uid TEXT PRIMARY KEY, pawn INTEGER NOT NULL UNIQUE) WITHOUT ROWID;
        INSERT INTO tags VALUES ('04000000000011', 33);
    """)
    db.commit()
    db.close()
    reg = registry(path)
    assert reg.piece_of("04000000000011") == Piece("pawn", 33, "green", "popcorn")
    reg.enroll("04000000000012", "popcorn", "movie", FIRST_MOVIE)
    reg.store.close()
    db = sqlite3.connect(path)
    assert db.execute("SELECT value FROM meta WHERE key='hub_schema'").fetchone() == (
        str(HUB_SCHEMA_VERSION),)
    assert sorted(db.execute("SELECT uid, game, kind, id FROM pieces").fetchall()) == [
        ("04000000000011", "popcorn", "pawn", 33), ("04000000000012", "popcorn", "movie", 0)]
    assert db.execute("SELECT COUNT(*) FROM tags").fetchone() == (0,)
    db.close()
    assert card(registry(path), "04000000000012") == ("movie", FIRST_MOVIE)


def test_a_version_4_database_moves_its_cards_and_tokens_into_pieces(tmp_path: Path) -> None:
    """Schema 4 kept cards by id and B Movies' tokens by number in ``card_tags``: each
    becomes the piece of its game (a theater with copies, its next copy)."""
    from companion.games.bmovies.facts_file import load_facts
    from companion.games.bmovies.parts import BMoviesPieces

    path = tmp_path / "v4.sqlite"
    HubStore(path).close()
    db = sqlite3.connect(path)
    db.executescript(f"""
        UPDATE meta SET value='4' WHERE key='hub_schema';
        DROP TABLE pieces;
        INSERT INTO card_tags VALUES ('04000000000021', 'theater', '{FIRST_THEATER}'),
            ('04000000000022', 'award', '{FIRST_AWARD}'), ('04000000000023', 'token', '30');
    """)
    db.commit()
    db.close()
    tokens = BMoviesPieces(load_facts()).kinds()
    reg = TagRegistry(HubStore(path), {"popcorn": KINDS, "b-movies": tokens})
    assert card(reg, "04000000000021") == ("theater", FIRST_THEATER)
    assert card(reg, "04000000000022") == ("award", FIRST_AWARD)
    token = reg.piece_of("04000000000023")
    assert token is not None and (token.game, token.kind, token.id) == ("b-movies", "token", 30)
    assert token.value == tokens[0].value_of(30) == 1  # 25 zeros, then the ones
    assert reg.token_counts()["1"] == 1 and reg.card_counts()["award"] == 1


def test_counts_list_cards_against_the_box(rig: Rig) -> None:
    """``GET /api/tags/counts`` keeps the pawn counts and adds the cards'."""
    counts = rig.client.get("/api/tags/counts").json
    assert counts["card_capacity"] == {"movie": 48, "theater": 28, "award": 26}
    assert counts["cards"] == {"movie": 0, "theater": 0, "award": 0}
    assert counts["counts"]["red"] == 0 and counts["capacity"]["red"] == 10
    put = rig.client.put("/api/tags", json={"admin_pin": ADMIN, "registry": doc(cards=[
        {"uid": "04000000000001", "kind": "award", "card": "nope"}])})
    assert (put.status_code, put.json["code"]) == (400, "BAD_CARD")


def enroll_pushes(rig: Rig):
    client = rig.socketio.test_client(rig.app)
    client.emit("join_admin", {"admin_pin": ADMIN})
    client.get_received()
    pushes: list[dict] = []

    stamps: list[list] = []

    def until(n: int) -> list[dict]:
        """The first ``n`` enroll pushes, each without its ``revision`` stamp (kept in
        ``stamps``: one run of the hub, counting up)."""
        def more() -> bool:
            for m in client.get_received():
                if m["name"] == "enroll":
                    push = dict(m["args"][0])
                    stamps.append(push.pop("revision"))
                    pushes.append(push)
            return len(pushes) >= n
        assert wait_for(more, 10), pushes
        assert len({boot for boot, _ in stamps}) == 1
        assert [n for _, n in stamps] == sorted({n for _, n in stamps})
        return pushes
    return until


def tap_ok(rig: Rig, reader: str, uid: str, level: str = "ok") -> None:
    seq = rig.tap(reader, uid)
    assert wait_for(lambda: rig.feedback(reader, seq) is not None)
    assert rig.feedback(reader, seq) == level


def test_tap_then_pick(rig: Rig) -> None:
    """``{"cards": true}``: a tap pushes the pending UID; ``/api/enroll/card`` binds it."""
    until = enroll_pushes(rig)
    started = rig.client.post("/api/enroll", json={"admin_pin": ADMIN, "cards": True})
    assert started.json["enrolling_cards"] == "pick" and started.json["enrolling"] is None
    tap_ok(rig, "bag-3", "04bb000000000a")
    assert until(1)[0] == {"ok": True, "pending": "04bb000000000a",
                           "waiting": ["04bb000000000a"]}
    assert "04bb000000000a" not in rig.client.get("/api/tags/counts").get_data(as_text=True)
    bound = rig.client.post("/api/enroll/card", json={
        "admin_pin": ADMIN, "uid": "04bb000000000a", "kind": "movie", "card": FIRST_MOVIE})
    assert bound.status_code == 200, bound.json
    assert bound.json["title"] == CATALOG.movies[FIRST_MOVIE].title
    assert bound.json["pending"] == [] and bound.json["cards"]["movie"] == 1
    assert until(2)[1]["card"] == FIRST_MOVIE
    again = rig.client.post("/api/enroll/card", json={
        "admin_pin": ADMIN, "uid": "04bb000000000b", "kind": "movie", "card": FIRST_MOVIE})
    assert (again.status_code, again.json["code"]) == (409, "CARD_FULL")
    bad = rig.client.post("/api/enroll/card", json={
        "admin_pin": ADMIN, "uid": "04bb000000000b", "kind": "movie", "card": "nope"})
    assert (bad.status_code, bad.json["code"]) == (400, "BAD_CARD")
    no_pin = rig.client.post("/api/enroll/card", json={
        "uid": "04bb000000000b", "kind": "award", "card": FIRST_AWARD})
    assert no_pin.status_code == 403
    tap_ok(rig, "bag-3", "04bb000000000a", "error")  # already the movie
    assert until(3)[2]["code"] == "DUPLICATE_UID"
    assert "movie card" in until(3)[2]["message"]


def test_tap_in_catalog_order(rig: Rig) -> None:
    """``{"cards": "award"}``: each new UID is the next award of the catalog's order."""
    until = enroll_pushes(rig)
    rig.client.post("/api/enroll", json={"admin_pin": ADMIN, "cards": "award"})
    awards = list(CATALOG.awards.values())
    for n in range(3):
        tap_ok(rig, "bag-1", f"04cc00000000{n:02x}")
    pushes = until(3)
    assert [(p["kind"], p["card"], p["title"]) for p in pushes] == [
        ("award", a.id, a.title) for a in awards[:3]]
    counts = rig.client.get("/api/tags/counts").json
    assert counts["cards"]["award"] == 3 and counts["enrolling_cards"] == "award"
    assert "pending" not in counts
    tap_ok(rig, "bag-1", "04cc0000000001", "error")
    assert until(4)[3]["code"] == "DUPLICATE_UID"
    stop = rig.client.delete("/api/enroll", json={"admin_pin": ADMIN})
    assert stop.json["enrolling_cards"] is None


def test_pawns_and_cards_refuse_each_others_tags(rig: Rig) -> None:
    """A pawn's UID during card enrollment, a card's during pawn enrollment: DUPLICATE_UID."""
    until = enroll_pushes(rig)
    rig.client.post("/api/enroll", json={"admin_pin": ADMIN, "color": "red"})
    tap_ok(rig, "bag-1", "04dd0000000001")
    rig.client.post("/api/enroll", json={"admin_pin": ADMIN, "cards": "movie"})
    tap_ok(rig, "bag-1", "04dd0000000001", "error")
    tap_ok(rig, "bag-1", "04dd0000000002")
    rig.client.post("/api/enroll", json={"admin_pin": ADMIN, "cards": True})
    tap_ok(rig, "bag-1", "04dd0000000001", "error")
    rig.client.post("/api/enroll", json={"admin_pin": ADMIN, "color": "blue"})
    tap_ok(rig, "bag-1", "04dd0000000002", "error")
    pushes = until(5)
    refused = [p for p in pushes if not p["ok"]]
    assert [p["code"] for p in refused] == ["DUPLICATE_UID"] * 3
    assert "pawn" in refused[0]["message"] and "movie card" in refused[2]["message"]
    counts = rig.client.get("/api/tags/counts").json
    assert counts["counts"]["red"] == 1 and counts["counts"]["blue"] == 0
    assert counts["cards"]["movie"] == 1
    bad = rig.client.post("/api/enroll", json={"admin_pin": ADMIN, "cards": "poster"})
    assert (bad.status_code, bad.json["code"]) == (400, "BAD_REQUEST")


def test_the_card_list_is_the_order_catalog_enrollment_follows(rig: Rig, capsys) -> None:
    """``readers card-list``: every card once (per copy), in the order taps get them."""
    from companion.cli import main

    assert main(["readers", "card-list", "--kind", "movie"]) == 0
    lines = [line for line in capsys.readouterr().out.splitlines() if ". [ ] " in line]
    titles = [m.title for m in CATALOG.movies.values()]
    assert [line.split(". [ ] ", 1)[1] for line in lines] == titles
    assert main(["readers", "card-list", "--json"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(rows) == 48 + 28 + 26
    rig.client.post("/api/enroll", json={"admin_pin": ADMIN, "cards": "movie"})
    for n in range(2):
        tap_ok(rig, "bag-2", f"04ee00000000{n:02x}")
    movies = [r["card"] for r in rows if r["kind"] == "movie"]
    assert [card(rig.hub.registry, f"04ee00000000{n:02x}") for n in range(2)] == [
        ("movie", movie) for movie in movies[:2]]

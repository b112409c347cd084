"""The archive: every finished game of the hub, and the records imported into it.

A game gets into the archive in two ways. A table whose game is over is archived as it
stands (:meth:`Archive.sync`, which the hub calls when it loads its tables and before each
reading of the archive, so a game that Undo reopens leaves the archive until it ends
again); its id is the table's. A game record imported by the admin (:meth:`Archive.import_record`)
is read and replayed by its game with the check ``popcorn-companion replay`` makes, and goes
in only if every line is legal and the game reached its end; its id starts with ``i``.

The archive knows no game: what it shows comes through each game's
:class:`~companion.kit.game.GameKind` (``standings``, ``variant``, ``scores``,
``public_view``, ``record_text``, ``read_record``). It keeps, per game, the record (the
replay board's source, served with the admin PIN only: a Popcorn record names the award
cards a player drew and put back, which nobody else saw), the final public view and the
scores, and one row per seat for the filters and the players' pages (see
:mod:`.archive_store`), and a game's analysis once it is made (a game whose
:class:`~companion.kit.game.GameKind` ``analyzes``), kept with the digest of the record it
judged. Callers hold the hub's lock (the store's).
"""

from __future__ import annotations

import csv
import hashlib
import io
import logging
import secrets
import time
import unicodedata
import zipfile
from collections.abc import Iterable, Mapping
from datetime import UTC, datetime
from typing import Any

from companion.kit.errors import TableError
from companion.kit.game import GameKind
from companion.kit.records import RecordError
from companion.table.archive_store import ArchiveRow, Filter, Seat
from companion.table.store import HubStore
from companion.table.table import Table

log = logging.getLogger("companion.archive")

IMPORTED = "i"
"""The first letter of an imported game's id (a table's id is hex, so the two never meet)."""
CSV_COLUMNS = ("date", "game", "variant", "player", "score", "place", "winner", "id")
"""The columns of the plays' CSV, one row per player per play."""
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
"""What a spreadsheet would take a text cell starting with for a formula."""


def name_key(name: str) -> str:
    """A player's name as the archive compares names: NFKC-normalized, casefolded, trimmed
    ("Ana", " ana " and "ＡＮＡ" are one player)."""
    return unicodedata.normalize("NFKC", name).casefold().strip()


def iso_date(played: int) -> str:
    """A time in nanoseconds since the epoch as ISO 8601 in UTC (``2025-06-01T19:32:10Z``)."""
    return datetime.fromtimestamp(played / 1e9, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


class Archive:
    """The hub's finished games (``store``: the hub's file; ``games``: the games it hosts by
    id; ``default``: the game of a record whose header names none)."""

    def __init__(self, store: HubStore, games: Mapping[str, GameKind[Any, Any]],
                 default: str) -> None:
        self.store, self.games, self.default = store, games, default
        self._seen: dict[str, int] = {}
        """Each table's log length when :meth:`sync` last looked at it."""
        self._marks: dict[str, tuple[int | None, bool]] | None = None
        """The games archived from tables (and the deleted ones): the log length archived,
        and whether the admin deleted it; read from the store once."""

    # -- what goes in ----------------------------------------------------------------------

    def sync(self, tables: Iterable[Table]) -> None:
        """Bring the archive in step with the hub's tables: a table whose game is over is
        archived (again, if its log grew since), one whose game Undo reopened leaves the
        archive, and a game the admin deleted stays out. Cheap when nothing changed."""
        changed = [t for t in tables if self._seen.get(t.id) != t.count]
        if not changed:
            return
        marks = self._table_marks()
        with self.store.transaction():
            for table in changed:
                try:
                    self._sync_table(table, marks)
                except Exception:  # one game that cannot be archived never stops the hub
                    log.exception("archive: table %s could not be archived", table.id)
        self._seen.update((t.id, t.count) for t in changed)

    def _table_marks(self) -> dict[str, tuple[int | None, bool]]:
        if self._marks is None:
            self._marks = self.store.archive_marks()
        return self._marks

    def _sync_table(self, table: Table, marks: dict[str, tuple[int | None, bool]]) -> None:
        mark = marks.get(table.id)
        if mark is not None and mark[1]:
            return  # deleted by the admin
        if table.state.is_over:
            if mark is None or mark[0] != table.count:
                self._archive_table(table)
                marks[table.id] = (table.count, False)
        elif mark is not None:
            self.store.archive_remove(table.id, tombstone=False)
            del marks[table.id]

    def _archive_table(self, table: Table) -> None:
        try:
            record: str | None = table.record_text()
        except TableError:  # a game with corrections has no record
            record = None
        config = table.config
        row = self._row(table.id, table.game, config.players, config.options, table.state,
                        config.created, "table", table.count, record is not None, config.name)
        self._put(row, record)

    def import_record(self, text: str) -> dict[str, Any]:
        """Add a game record (JSON Lines) to the archive, as its game reads and replays it;
        returns the archived game's summary. Refuses, storing nothing: ``BAD_RECORD`` (400)
        naming the first bad line, ``RECORD_NOT_OVER`` (400) for a game that stops before its
        end, ``DUPLICATE_GAME`` (409) for a game the archive holds already."""
        game = self._game_of(text)
        try:
            recorded = game.records.read(text)
        except RecordError as exc:
            raise TableError("BAD_RECORD", f"line {exc.line}: {exc.code}: {exc.message}", 400,
                             params={"line": exc.line, "reason": exc.code}) from exc
        if not recorded.state.is_over:
            last = len(text.rstrip("\n").splitlines())
            raise TableError("RECORD_NOT_OVER", f"The record stops at line {last}, before "
                             "the end of the game: only finished games go in the archive.",
                             400, params={"line": last})
        names = list(recorded.names)
        canonical = game.records.text(names, recorded.first_player, recorded.options,
                                      recorded.moves)
        known = self.store.archive_digest(_digest(canonical))
        if known is not None:
            raise TableError("DUPLICATE_GAME", f"This game is in the archive already, as "
                             f"{known}.", 409, params={"id": known})
        row = self._row(self._new_id(), game, names, recorded.options, recorded.state,
                        time.time_ns(), "import", None, True, None)
        with self.store.transaction():
            self._put(row, canonical)
        return summary(row)

    def _game_of(self, text: str) -> GameKind[Any, Any]:
        """The game whose header the record's first line is; the default game's otherwise
        (Popcorn's headers name no game), as ``replay`` decides."""
        first = text.split("\n", 1)[0]
        owners = [g for g in self.games.values() if g.records.owns(first)]
        return owners[0] if owners else self.games.get(self.default,
                                                       next(iter(self.games.values())))

    def _new_id(self) -> str:
        while True:
            game_id = IMPORTED + secrets.token_hex(4)[:7]
            if self.store.archive_get(game_id) is None:
                return game_id

    def _row(self, game_id: str, game: GameKind[Any, Any], names: list[str],
             options: dict[str, Any], state: Any, played: int, source: str,
             events: int | None, has_record: bool, table_name: str | None) -> ArchiveRow:
        standings = None if game.archive is None else game.archive.standings(state, names)
        seats = (tuple(Seat(s.name, s.score, s.place, s.winner) for s in standings)
                 if standings is not None else tuple(Seat(n) for n in names))
        variant = game.options.variant(options)
        detail = {"title": game.title, "name": table_name,
                  "variant": variant.id if variant else None,
                  "variant_title": variant.title if variant else None,
                  "scores": game.scores(state, names), "view": game.public_view(state, names)}
        return ArchiveRow(game_id, game.id, played, source, events, has_record, detail, seats)

    def _put(self, row: ArchiveRow, record: str | None) -> None:
        self.store.archive_put(row, record, None if record is None else _digest(record),
                               [name_key(s.name) for s in row.seats])

    # -- what comes out --------------------------------------------------------------------

    def page(self, where: Filter, limit: int, offset: int) -> dict[str, Any]:
        """One page of the games ``where`` keeps, newest first: ``games`` (summaries),
        ``total``, ``limit`` and ``offset``."""
        rows = self.store.archive_page(where, limit, offset)
        return {"games": [summary(r) for r in rows], "total": self.store.archive_count(where),
                "limit": limit, "offset": offset}

    def entry(self, game_id: str) -> ArchiveRow:
        """An archived game, or ``ARCHIVE_NOT_FOUND`` (404)."""
        row = self.store.archive_get(game_id)
        if row is None:
            raise TableError("ARCHIVE_NOT_FOUND", f"There is no game {game_id!r} in the "
                             "archive.", 404, params={"id": game_id})
        return row

    def detail(self, game_id: str) -> dict[str, Any]:
        """An archived game's summary with its game's ``scores`` and final public ``view``."""
        row = self.entry(game_id)
        return {**summary(row), "scores": row.detail.get("scores"),
                "view": row.detail.get("view")}

    def record(self, game_id: str) -> str:
        """An archived game's record, or ``NO_RECORD`` (409) for a game with corrections."""
        self.entry(game_id)
        text = self.store.archive_record(game_id)
        if text is None:
            raise TableError("NO_RECORD", "This game has corrections, which a game record "
                             "cannot hold: the archive has no record of it.", 409,
                             params={"id": game_id})
        return text

    def replay_source(self, game_id: str) -> tuple[GameKind[Any, Any], str]:
        """What the replay board of an archived game is made from: its game and its record
        (``NO_RECORD`` for a game with corrections; ``GAME_NOT_HOSTED``, 409, for a game
        this hub no longer hosts). The caller builds the
        :class:`~companion.table.timeline.Timeline` outside the lock."""
        row = self.entry(game_id)
        text = self.record(game_id)
        game = self.games.get(row.game)
        if game is None:
            raise TableError("GAME_NOT_HOSTED", f"This hub does not host {row.game!r} any "
                             "more: it cannot replay that game.", 409,
                             params={"game": row.game})
        return game, text

    def analysis_source(self, game_id: str) -> tuple[GameKind[Any, Any], str, str]:
        """What a game's analysis is made from: its game, its record and the record's digest
        (the analysis kept is that record's). ``NO_ANALYSIS`` (409) for a game without an
        advisor to judge it, ``NO_RECORD`` for a game with corrections."""
        game, text = self.replay_source(game_id)
        if game.advisor is None:
            raise TableError("NO_ANALYSIS", f"{game.title} has no advisor to analyse its "
                             "games.", 409, params={"game": game.id})
        return game, text, _digest(text)

    def analysis(self, game_id: str) -> dict[str, Any] | None:
        """A game's kept analysis (None until one is kept); the errors of
        :meth:`analysis_source`."""
        self.analysis_source(game_id)
        return self.store.archive_analysis(game_id)

    def keep_analysis(self, game_id: str, digest: str, analysis: dict[str, Any]) -> bool:
        """Keep the analysis of the record ``digest`` names; False when the game is gone or
        was archived again with another record meanwhile (nothing kept)."""
        return self.store.archive_analysis_put(game_id, digest, analysis)

    def delete(self, game_id: str) -> None:
        """Take a game out of the archive (a table's game stays out; its table is kept)."""
        row = self.entry(game_id)
        with self.store.transaction():
            self.store.archive_remove(game_id, tombstone=row.source == "table")
        if row.source == "table":
            self._table_marks()[game_id] = (row.events, True)

    def player(self, name: str) -> dict[str, Any]:
        """A player's page: every archived game of a seat named ``name`` (compared as
        :func:`name_key` does), oldest first, with their games and wins in all and, per
        game, games, wins, mean and best score. ``PLAYER_NOT_FOUND`` (404) if none."""
        found = self.store.archive_of_player(name_key(name))
        if not found:
            raise TableError("PLAYER_NOT_FOUND", f"No game in the archive has a player "
                             f"called {name!r}.", 404, params={"name": name})
        plays = [_play(row, row.seats[seat]) for row, seat in found]
        by_game: dict[str, list[dict[str, Any]]] = {}
        for play in plays:
            by_game.setdefault(play["game"], []).append(play)
        return {"name": found[-1][0].seats[found[-1][1]].name, "games": len(plays),
                "wins": sum(p["winner"] for p in plays),
                "by_game": [_totals(game, ps) for game, ps in by_game.items()],
                "plays": plays}

    def zip_bytes(self) -> bytes:
        """Every archived record in one zip: ``<date>-<game>-<id>.jsonl``, newest first."""
        out = io.BytesIO()
        with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
            for row, record in self.store.archive_records():
                name = f"{iso_date(row.played)[:10]}-{row.game}-{row.id}.jsonl"
                info = zipfile.ZipInfo(name, date_time=_zip_time(row.played))
                info.compress_type = zipfile.ZIP_DEFLATED
                archive.writestr(info, record)
        return out.getvalue()

    def plays_csv(self, where: Filter) -> str:
        """The plays ``where`` keeps as CSV, newest first, one row per player per play:
        :data:`CSV_COLUMNS` (date and time in UTC, the game's and the variant's names)."""
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\r\n")
        writer.writerow(CSV_COLUMNS)
        offset, size = 0, 200
        while True:
            rows = self.store.archive_page(where, size, offset)
            for row in rows:
                writer.writerows(_csv_rows(row))
            if len(rows) < size:
                return out.getvalue()
            offset += size


def summary(row: ArchiveRow) -> dict[str, Any]:
    """What the archive lists of a game: ``id``, ``date``, ``game`` and its ``title``, the
    ``variant`` and its ``variant_title``, ``source`` (``table`` or ``import``), the
    ``table`` and its ``name`` for a table's game, the ``players`` (name, score, place,
    winner), the ``winners``' names, and whether it has a ``record``."""
    detail = row.detail
    return {"id": row.id, "date": iso_date(row.played), "game": row.game,
            "title": detail.get("title", row.game), "variant": detail.get("variant"),
            "variant_title": detail.get("variant_title"), "source": row.source,
            "table": row.id if row.source == "table" else None, "name": detail.get("name"),
            "players": [s.to_dict() for s in row.seats],
            "winners": [s.name for s in row.seats if s.winner], "record": row.has_record}


def _play(row: ArchiveRow, seat: Seat) -> dict[str, Any]:
    """One play of a player's page: the game's facts and this seat's result."""
    return {"id": row.id, "date": iso_date(row.played), "game": row.game,
            "title": row.detail.get("title", row.game), "variant": row.detail.get("variant"),
            "variant_title": row.detail.get("variant_title"), "players": len(row.seats),
            "score": seat.score, "place": seat.place, "winner": seat.winner}


def _totals(game: str, plays: list[dict[str, Any]]) -> dict[str, Any]:
    scores = [p["score"] for p in plays if p["score"] is not None]
    return {"game": game, "title": plays[0]["title"], "games": len(plays),
            "wins": sum(p["winner"] for p in plays),
            "mean": round(sum(scores) / len(scores), 1) if scores else None,
            "best": max(scores) if scores else None}


def _csv_rows(row: ArchiveRow) -> list[list[Any]]:
    date = iso_date(row.played).replace("T", " ").removesuffix("Z")
    title = row.detail.get("title", row.game)
    variant = row.detail.get("variant_title") or ""
    return [[date, _cell(title), _cell(variant), _cell(s.name),
             "" if s.score is None else s.score, "" if s.place is None else s.place,
             int(s.winner), row.id] for s in row.seats]


def _cell(text: str) -> str:
    """A text cell a spreadsheet will not run as a formula (a leading ``'``)."""
    return f"'{text}" if text.startswith(FORMULA_STARTS) else text


def _digest(record: str) -> str:
    return hashlib.sha256(record.encode()).hexdigest()


def _zip_time(played: int) -> tuple[int, int, int, int, int, int]:
    when = datetime.fromtimestamp(max(played / 1e9, 315_532_800), UTC)  # zip: 1980 at least
    return (when.year, when.month, when.day, when.hour, when.minute, when.second)

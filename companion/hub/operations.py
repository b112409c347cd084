"""The contract of the core's routes: one :class:`~companion.kit.contract.Operation` each.

The hub's OpenAPI document (:mod:`.openapi`) is built from these and from each game's
(:meth:`~companion.kit.parts.Routes.operations`). Bodies are :mod:`.models`; answers are
JSON Schemas that name the keys a route always gives (``docs/api.md`` tells each one's full
meaning), typed key by key for the most used routes (a table's info, the hub's health and
games, the archive's summaries, an audit), or a typed model (``GET /api/readers``: the
``readers`` push's :class:`~.push_models.ReaderStatus`). A test checks that every ``/api/``
rule of the app is here or in a game's list; ``tests/hub/test_answer_schemas.py`` checks
the typed answers against real ones.
"""

from __future__ import annotations

from typing import Any

from companion.hub import models
from companion.hub.archive import MAX_OFFSET, MAX_PAGE
from companion.hub.push_models import ReaderStatus
from companion.kit.contract import (
    ADMIN_PIN,
    PLAYER_TOKEN,
    TABLE_PIN,
    Link,
    Operation,
    Query,
    array_of,
    keys,
    nullable,
)
from companion.table.timeline import MAX_VIEWS

OBJECT: dict[str, Any] = {"type": "object"}
TEXT: dict[str, Any] = {"type": "string"}
INTEGER: dict[str, Any] = {"type": "integer"}
COUNT: dict[str, Any] = {"type": "integer", "minimum": 0}
BOOLEAN: dict[str, Any] = {"type": "boolean"}
OK = keys("ok", ok={"const": True})

INFO: dict[str, dict[str, Any]] = {
    "id": TEXT, "name": TEXT, "game": TEXT, "options": OBJECT, "players": array_of(TEXT),
    "readers": array_of(TEXT), "mats": array_of({"type": ["string", "null"]}),
    "first_player": COUNT, "deal_for_us": BOOLEAN,
    "hints": BOOLEAN, "play_on": BOOLEAN, "events": COUNT, "over": BOOLEAN, "closed": BOOLEAN}
"""Each key of a table's info (``GET /api/tables`` lists them) and its schema."""

STATUS = ("pieces", "enrolling_piece", "counts", "capacity", "revision")
"""Keys the tag registry's counts always have (``GET /api/tags/counts``)."""

SEAT = keys("name", "score", "place", "winner", name=TEXT, score=nullable(INTEGER),
            place=nullable(COUNT), winner=BOOLEAN)
"""A seat of an archived game: the player's name, and their score, place and win (a score
and a place are null for a game that gives no standings)."""

ARCHIVED: dict[str, dict[str, Any]] = {
    "id": TEXT, "date": {"type": "string", "format": "date-time"}, "game": TEXT,
    "title": TEXT, "variant": nullable(TEXT), "variant_title": nullable(TEXT),
    "source": {"enum": ["table", "import"]}, "table": nullable(TEXT), "name": nullable(TEXT),
    "players": array_of(SEAT), "winners": array_of(TEXT), "record": BOOLEAN}
"""Each key of an archived game's summary and its schema."""

REPORT = keys("clean", "findings", "fixes", "refused", "counts", clean=BOOLEAN,
              findings=array_of(keys("code", "message", "params", "fix", code=TEXT,
                                     message=TEXT, params=OBJECT, fix=nullable(COUNT))),
              fixes=array_of(OBJECT), refused=array_of(OBJECT), counts=array_of(OBJECT))
"""An audit's report: whether the bag is as believed, the findings (each with the index of
its fix, if any), the fixes, the differences no fix mends, and the counts."""

AUDIT_RUN: dict[str, dict[str, Any]] = {
    "id": COUNT, "player": COUNT, "then": array_of(COUNT),
    "by": {"enum": ["tablet", "phone"]}, "taps": COUNT, "done": BOOLEAN}
"""Each key of an audit's summary (who, how many taps, whether done) and its schema."""

AUDIT = keys(*AUDIT_RUN, "report", **AUDIT_RUN, report=REPORT)
"""The audit under way, as its routes answer it: its summary and its report so far."""

PHONE = keys("seat", "name", "url", "qr_svg", seat=COUNT, name=TEXT, url=TEXT, qr_svg=TEXT)
"""A seat's phone link: the seat, its player's name, the link and its QR code (SVG)."""

GAME = keys("id", "title", "min_players", "max_players", "options", "features", "words",
            "screens", id=TEXT, title=TEXT, min_players=COUNT, max_players=COUNT,
            options=OBJECT, features={"type": "object", "additionalProperties": BOOLEAN},
            words={"type": "object", "additionalProperties": TEXT},
            screens={**keys("styles", styles=array_of(TEXT)), "additionalProperties": TEXT})
"""A hosted game, as a setup screen reads it (``GET /api/games``)."""

RECORD: dict[str, Any] = {"anyOf": [TEXT, OBJECT], "description": (
    "JSON Lines: the record's header, then one move a line. A record of its header alone "
    "(a table with no move yet) is one JSON object, which a client that reads the answer as "
    "JSON gets as such.")}
"""A game record's answer (``application/x-ndjson``)."""

FILTERS = (Query("game", TEXT, "only this game's plays"),
           Query("player", TEXT, "only plays of a player whose name holds this"))
WINDOW = (Query("from", {"type": "integer", "minimum": 0, "maximum": 999_999_999},
                "the first position (default 0)"),
          Query("count", {"type": "integer", "minimum": 1, "maximum": MAX_VIEWS},
                "how many positions (default a page)"))
TABLE = "/api/tables/<table_id>"

_T, _P, _A, _G, _X = "tables", "phones", "tags", "archive", "hub"

NEW = {"table_id": "$response.body#/id"}
"""A link's table: the one this answer created."""
SAME = {"table_id": "$request.path.table_id"}
"""A link's table: the one this request named."""
LEGAL = {"move": "$response.body#/view/legal/0"}
"""A link's move: the first legal move of the public view in this answer."""


def _table_links(table: dict[str, str]) -> tuple[Link, ...]:
    """From a table's answer to what a screen does next: read it, play the first legal
    move its view offers, a seat's private view and its first legal move, undo, an audit,
    "deal for us", and the readings of its record."""
    return (
        Link("read", "GET", TABLE, table),
        Link("seat", "GET", f"{TABLE}/players/<int:seat>/private", {**table, "seat": "0"}),
        Link("undo", "POST", f"{TABLE}/undo", table),
        Link("audit", "POST", f"{TABLE}/audits", table, {"player": 0}),
        Link("deal", "POST", f"{TABLE}/deal", table),
        Link("record", "GET", f"{TABLE}/record", table),
        Link("views", "GET", f"{TABLE}/replay/views", table),
    )


def _audit_links() -> tuple[Link, ...]:
    """From an audit to its next steps: read it, say the bag is done, accept, drop."""
    current = f"{TABLE}/audits/current"
    return (Link("current", "GET", current, SAME),
            Link("done", "POST", f"{current}/done", SAME),
            Link("accept", "POST", f"{current}/accept", SAME),
            Link("drop", "DELETE", current, SAME))


def _game_links(game: dict[str, str]) -> tuple[Link, ...]:
    """From an archived game to its readings and its deletion."""
    where = "/api/archive/<game_id>"
    return (Link("read", "GET", where, game),
            Link("record", "GET", f"{where}/record", game),
            Link("replay", "GET", f"{where}/replay", game),
            Link("views", "GET", f"{where}/replay/views", game),
            Link("analysis", "GET", f"{where}/analysis", game),
            Link("delete", "DELETE", where, game))


def operations() -> list[Operation]:
    """Every core route's operation."""
    return [*_hub(), *_tables(), *_changes(), *_audits(), *_phones(), *_tags(), *_archive()]


def _hub() -> list[Operation]:
    return [
        Operation("GET", "/api/health", "Whether the hub answers", _X,
                  answer=keys("ok", "tables", ok={"const": True}, tables=COUNT)),
        Operation("GET", "/api/games", "The games the hub hosts", _X,
                  answer=array_of(GAME)),
        Operation("GET", "/api/readers", "The readers and their health", _X,
                  answer=list[ReaderStatus]),
        Operation("GET", "/api/i18n", "The languages and the default one", _X,
                  answer=keys("default", "languages")),
        Operation("GET", "/api/i18n/<lang>", "A language's browser catalog", _X,
                  answer=keys("lang", "messages", "codes")),
        Operation("GET", "/api/openapi.json", "This document", _X,
                  answer=keys("openapi", "info", "paths", "components")),
    ]


def _tables() -> list[Operation]:
    return [
        Operation("GET", "/api/tables", "Every table", _T, answer=array_of(keys(*INFO, **INFO)),
                  links=_table_links({"table_id": "$response.body#/0/id"})),
        Operation("POST", "/api/tables", "Create a table: its PIN and tokens, shown once", _T,
                  body=models.CreateTable, status=201,
                  answer=keys(*INFO, "pin", "tokens", "phones", **INFO, pin=TEXT,
                              tokens=array_of(TEXT), phones=array_of(PHONE)),
                  links=(*_table_links(NEW),
                         Link("close", "POST", f"{TABLE}/close", NEW))),
        Operation("GET", TABLE, "A table's info, public view and alerts", _T,
                  answer=keys(*INFO, "view", "alerts", **INFO, view=OBJECT,
                              alerts=array_of(OBJECT)),
                  links=(Link("play", "POST", f"{TABLE}/moves", SAME, LEGAL),
                         *_table_links(SAME)[1:])),
        Operation("POST", f"{TABLE}/moves", "Play a move, or a batch all or none", _T,
                  body=models.MoveBody, secrets=(TABLE_PIN, PLAYER_TOKEN),
                  secret_optional=True,
                  answer=keys("applied", "view"),
                  links=(Link("next", "POST", f"{TABLE}/moves", SAME, LEGAL),
                         *_table_links(SAME)[:3])),
        Operation("POST", f"{TABLE}/choice", "Move a chosen card to another slot", _T,
                  body=models.ChoiceBody, secrets=(PLAYER_TOKEN,), secret_optional=True,
                  answer=keys("ok", "view")),
        Operation("GET", f"{TABLE}/record", "The game record (JSON Lines)", _T,
                  secrets=(TABLE_PIN,), answer=RECORD, media_type="application/x-ndjson"),
        Operation("GET", f"{TABLE}/state", "The full state, secrets included", _T,
                  secrets=(TABLE_PIN,), answer=keys("events", "state")),
        Operation("GET", f"{TABLE}/scores", "The final scores of an ended game", _T,
                  answer=OBJECT),
        Operation("GET", f"{TABLE}/replay", "A live table's moves so far, for the replay", _T,
                  answer=keys("id", "source", "events", "game", "moves")),
        Operation("GET", f"{TABLE}/replay/views", "A live table's views, a page", _T,
                  query=WINDOW, answer=keys("from", "views", "events")),
    ]


def _changes() -> list[Operation]:
    pin = (TABLE_PIN,)
    return [
        Operation("POST", f"{TABLE}/undo", "Undo the last move", _T, body=models.PinBody,
                  body_optional=True, secrets=pin, answer=keys("ok", "events"),
                  links=_table_links(SAME)[:1]),
        Operation("POST", f"{TABLE}/correct", "Correct where a piece is", _T,
                  body=models.CorrectBody, secrets=pin, answer=OK),
        Operation("POST", f"{TABLE}/mats/<int:seat>/accept",
                  "Accept what a mat shows after a restart", _T, body=models.PinBody,
                  body_optional=True, secrets=pin,
                  answer=keys("ok", "handled", "events", handled=array_of(INTEGER),
                              events=INTEGER)),
        Operation("POST", f"{TABLE}/identify", "Light the table's readers", _T,
                  body=models.IdentifyBody, secrets=pin, answer=keys("ok", "seconds")),
        Operation("POST", f"{TABLE}/alerts/<int:alert_id>/dismiss", "Dismiss an alert", _T,
                  answer=keys("ok", "events")),
        Operation("POST", f"{TABLE}/hints", "Turn the advisor's hints on or off", _T,
                  body=models.HintsBody, secrets=pin, answer=keys("ok", "hints", "play_on")),
        Operation("POST", f"{TABLE}/deal", 'Turn "deal for us" on', _T,
                  body=models.DealBody, secrets=pin, answer=OK),
        Operation("POST", f"{TABLE}/close", "Close the table and free its readers", _T,
                  body=models.CloseBody, body_optional=True, secrets=(TABLE_PIN, ADMIN_PIN),
                  answer=keys("ok", "table")),
    ]


def _audits() -> list[Operation]:
    audit = f"{TABLE}/audits"
    both = (TABLE_PIN, PLAYER_TOKEN)
    return [
        Operation("POST", audit, "Start a bag audit", _T, body=models.AuditBody,
                  secrets=both, status=201, answer=AUDIT, links=_audit_links()),
        Operation("GET", f"{audit}/current", "The audit under way (the player's own report "
                  "with their token)", _T, secrets=(PLAYER_TOKEN,), secret_optional=True,
                  answer=AUDIT),
        Operation("POST", f"{audit}/current/done", "The audited bag is all tapped", _T,
                  body=models.PinBody, body_optional=True, secrets=both, answer=AUDIT,
                  links=_audit_links()[2:3]),
        Operation("POST", f"{audit}/current/accept", "Apply the audit's fixes", _T,
                  body=models.PinBody, body_optional=True, secrets=both,
                  answer=keys("audit", "player", "applied", "report", "next", audit=COUNT,
                              player=COUNT, applied=COUNT, report=REPORT,
                              next=nullable(keys(*AUDIT_RUN, **AUDIT_RUN)))),
        Operation("DELETE", f"{audit}/current", "Drop the audit", _T, body=models.PinBody,
                  body_optional=True, secrets=both, answer=OK),
    ]


def _phones() -> list[Operation]:
    seat = f"{TABLE}/players/<seat>"
    return [
        Operation("GET", f"{TABLE}/players/<int:seat>/private", "A player's private view",
                  _P, secrets=(PLAYER_TOKEN,), answer=keys("player", "name"),
                  links=(Link("play", "POST", f"{TABLE}/moves", SAME,
                              {"move": "$response.body#/legal/0"}),
                         Link("next_seat", "GET", f"{TABLE}/players/<int:seat>/private",
                              {**SAME, "seat": "1"}))),
        Operation("POST", f"{seat}/token", "Replace a seat's token (a new phone link)", _P,
                  body=models.PinBody, body_optional=True, secrets=(TABLE_PIN,),
                  answer=keys("seat", "name", "url", "qr_svg", "token")),
        Operation("POST", f"{seat}/link", "Show a seat's phone link again", _P,
                  body=models.PinBody, body_optional=True, secrets=(TABLE_PIN,),
                  answer=PHONE),
    ]


def _tags() -> list[Operation]:
    admin = (ADMIN_PIN,)
    enrolled = keys(*STATUS, "pending")
    return [
        Operation("GET", "/api/tags", "Export the tag registry", _A, secrets=admin,
                  answer=keys("format", "version", "pieces", "counts", "kinds")),
        Operation("PUT", "/api/tags", "Replace the tag registry", _A, body=models.TagsImport,
                  secrets=admin, answer=keys("ok", "tags")),
        Operation("GET", "/api/tags/counts", "How many pieces have tags", _A,
                  answer=keys(*STATUS)),
        Operation("POST", "/api/enroll", "Start enrollment", _A, body=models.EnrollBody,
                  secrets=admin, answer=enrolled),
        Operation("DELETE", "/api/enroll", "Stop enrollment", _A, body=models.AdminBody,
                  body_optional=True, secrets=admin, answer=enrolled),
        Operation("POST", "/api/enroll/piece", "Bind a UID to a piece", _A,
                  body=models.EnrollPiece, secrets=admin, answer=keys(*STATUS, "ok", "uid")),
        Operation("POST", "/api/enroll/card", "Bind a UID to a card (older screens)", _A,
                  body=models.EnrollCard, secrets=admin, answer=keys(*STATUS, "ok", "uid")),
    ]


def _archive() -> list[Operation]:
    game = "/api/archive/<game_id>"
    admin = (ADMIN_PIN,)
    paging = (*FILTERS,
              Query("limit", {"type": "integer", "minimum": 1, "maximum": MAX_PAGE},
                    "games per page"),
              Query("offset", {"type": "integer", "minimum": 0, "maximum": MAX_OFFSET},
                    "games to skip"))
    replay = ("id", "source", "game", "moves")
    return [
        Operation("GET", "/api/archive", "A page of archived games", _G, query=paging,
                  answer=keys("games", "total", "limit", "offset", total=COUNT,
                              limit=COUNT, offset=COUNT,
                              games=array_of(keys(*ARCHIVED, **ARCHIVED))),
                  links=_game_links({"game_id": "$response.body#/games/0/id"})[:-1]),
        Operation("POST", "/api/archive", "Import a game record", _G,
                  body=models.ArchiveImport, secrets=admin, status=201,
                  answer=keys(*ARCHIVED, **ARCHIVED),
                  links=_game_links({"game_id": "$response.body#/id"})),
        Operation("GET", game, "An archived game", _G,
                  answer=keys(*ARCHIVED, "scores", "view", **ARCHIVED)),
        Operation("DELETE", game, "Delete an archived game", _G, body=models.AdminBody,
                  body_optional=True, secrets=admin, answer=keys("ok", "deleted")),
        Operation("GET", f"{game}/record", "An archived game's record (JSON Lines)", _G,
                  secrets=admin, answer=RECORD, media_type="application/x-ndjson"),
        Operation("GET", "/api/archive/players/<path:name>", "A player's page", _G,
                  answer=keys("name", "games", "wins")),
        Operation("GET", "/api/archive/plays.csv", "Every play, one row each (CSV)", _G,
                  query=FILTERS, answer=TEXT, media_type="text/csv"),
        Operation("GET", "/api/archive/export.zip", "The whole archive (a zip of records)",
                  _G, secrets=admin, answer={"type": "string", "format": "binary"},
                  media_type="application/zip"),
        Operation("GET", f"{game}/replay", "An archived game, for the replay board", _G,
                  answer=keys(*replay)),
        Operation("GET", f"{game}/replay/views", "An archived game's views, a page", _G,
                  query=WINDOW, answer=keys("from", "views")),
        Operation("GET", f"{game}/analysis", "A finished game's analysis, or its job", _G,
                  answer=keys("state")),
        Operation("POST", f"{game}/analysis", "Start a finished game's analysis", _G,
                  answer=keys("state"), statuses=(202,)),
    ]

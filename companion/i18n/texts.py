"""The hub's own sentences, and the book of every sentence the hub renders by ``code``.

A refusal or an alert reaches a client as ``{"code", "params", "message"}``. The ``message``
of an English request is the precise sentence the engine or the table wrote; any other
language gets the template for that ``code``, translated through the gettext catalogs
(``companion/i18n/<lang>/LC_MESSAGES/messages.po``) and filled with ``params``. The dashboard
does the same with the browser catalog, so every device reads its own language.

The hub's own refusals (tables, PINs, the tag registry, HTTP) are :data:`ERRORS`. Each game
brings the templates of its own codes as a :class:`~companion.kit.texts.GameTexts`
(``companion/games/<game>/texts.py``); a :class:`TextBook` adds them up for the games a hub
hosts, and :func:`book` is the one of every installed game. A template names only the
``params`` that every refusal of its code carries; :func:`companion.i18n.localize.render`
fills a missing one with "?" rather than failing.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from companion.kit.texts import N_, GameTexts, Nn_, Words

ERRORS: dict[str, str] = {
    "BAD_JSON": N_("The request body is not the JSON object the hub expects."),
    "BAD_ORIGIN": N_("A page of another site may not change this hub."),
    "BAD_PLAYER": N_("There is no such player at this table."),
    "BAD_REQUEST": N_("A field of the request is missing or has a wrong value."),
    "BAD_SEAT": N_("There is no such seat at this table."),
    "GAME_NOT_OVER": N_("The game has not ended yet."),
    "HAS_CORRECTIONS": N_("This game has corrections, which a game record cannot hold."),
    "NOTHING_TO_UNDO": N_("No move has been made at this table yet."),
    "PIN_REQUIRED": N_("This needs the table's PIN."),
    "WRONG_PIN": N_("That PIN is wrong."),
    "WRONG_TOKEN": N_("Only that player's own phone may do this: a phone makes only its own "
                      "player's moves."),
    "READER_IN_USE": N_("That bag reader is already in use at another table."),
    "TABLE_CLOSED": N_("This table is closed: its game can no longer change."),
    "TABLE_NOT_FOUND": N_("There is no such table."),
    "TOO_MANY_TRIES": N_("Too many wrong PINs: wait a moment and try again."),
    "BAD_COLOR": N_("That is not a guest color."),
    "BAD_REGISTRY": N_("The tag file is not a valid tag registry."),
    "BAD_UID": N_("That is not a tag UID."),
    "COLOR_FULL": N_("Every guest of that color already has a tag."),
    "DUPLICATE_PAWN": N_("That guest already has a tag."),
    "DUPLICATE_UID": N_("That tag is already enrolled."),
    "BAD_CARD": N_("That is not a card of the catalog."),
    "BAD_KIND": N_("No game on this hub has pieces of that kind."),
    "BAD_VALUE": N_("No piece of that kind has that value."),
    "VALUE_FULL": N_("Every piece of that value already has a tag."),
    "KIND_FULL": N_("Every piece of that kind already has a tag."),
    "DUPLICATE_PIECE": N_("That piece already has a tag."),
    "CARD_FULL": N_("Every card of that kind, or every copy of that card, already has a tag."),
    "NOT_FOUND": N_("There is no such page."),
    "METHOD_NOT_ALLOWED": N_("This request method is not allowed here."),
    "BODY_TOO_LARGE": N_("The request body is too large."),
    "INTERNAL_ERROR": N_("The hub hit an unexpected error; nothing was changed."),
    "NOT_FOR_THIS_GAME": N_("This table plays another game: that request is not for it."),
    "SECRET_UNTIL_END": N_("This holds the players' secrets: it can be read once the game is "
                           "over."),
    "TOKEN_FULL": N_("Every popcorn token of that value already has a tag."),
    "BAD_TOKEN_VALUE": N_("That is not a popcorn token value."),
    "DUPLICATE_TOKEN": N_("That popcorn token already has a tag."),
    "ALERT_NOT_FOUND": N_("That alert is no longer open: it was handled already."),
    # the archive (companion/hub/archive.py)
    "ARCHIVE_NOT_FOUND": N_("There is no such game in the archive."),
    "BAD_RECORD": N_("Line {line} of the record is refused ({reason}): nothing was added to "
                     "the archive."),
    "RECORD_NOT_OVER": N_("The record stops at line {line}, before the end of the game: only "
                          "finished games go in the archive."),
    "DUPLICATE_GAME": N_("This game is in the archive already."),
    "NO_RECORD": N_("This game has corrections, so the archive has no record of it."),
    "PLAYER_NOT_FOUND": N_("No game in the archive has a player of that name."),
    "GAME_NOT_HOSTED": N_("This hub no longer hosts that game, so it cannot replay it."),
    "CANNOT_REPLAY": N_("This game cannot read its record back, so it cannot be replayed."),
    "NO_ANALYSIS": N_("This game has no advisor to analyse its games."),
    "LINK_NOT_KEPT": N_("The hub has restarted since this phone link was made, and it keeps no "
                        "copy of a link on disk: make a new link (the old one then stops "
                        "working)."),
}
"""One template per hub error code (table, PIN, registry, advisor and HTTP refusals)."""

FIELDS: dict[str, str] = {
    "missing": N_("The request needs the field “{field}”."),
    "type": N_("The field “{field}” must be of type {expected}, not {got}."),
    "value": N_("The field “{field}” has a value the hub does not take ({expected})."),
}
"""A refusal of a body's field, whatever its code (``BAD_REQUEST``, ``BAD_MOVE``...): by its
params' ``problem``, the sentence naming the ``field`` (:func:`companion.hub.bodies.decode`
gives these params; ``expected`` and ``got`` are JSON types, ``bool`` or ``int | null``)."""

BATCH: tuple[str, str] = Nn_(
    "The move was refused, so it was not made: {reason}",
    "Move {index} of {size} was refused, so none of the {size} moves was made: {reason}")
"""A refused batch of moves (its params have ``index``, from 1 here, and ``size``): the
singular and plural forms, chosen by ``size`` with the language's plural rule."""

NUMBERS = ("count", "index", "size")
"""Params every sentence writes as numbers in the language's own way (games add theirs)."""


@dataclass(frozen=True)
class TextBook:
    """Every template a hub renders codes with: the hub's :data:`ERRORS` and the texts of
    each game it hosts, each game in a namespace of its own (:attr:`games`).

    A table's refusals and alerts are rendered with its game's book (:meth:`of_game`): the
    game's own template for each of its codes, the hub's for the others; the hub's never
    overrides a game's, and two games may give one code two sentences. The book itself
    (no game: a request about the hub as a whole) holds the hub's :data:`ERRORS` over the
    games' templates added up, the first game's first."""

    refusals: Mapping[str, str] = field(default_factory=dict)
    alerts: Mapping[str, tuple[str, str]] = field(default_factory=dict)
    words: Mapping[str, Words] = field(default_factory=dict)
    numbers: tuple[str, ...] = NUMBERS
    games: Mapping[str, TextBook] = field(default_factory=dict)
    """Each game's own book, by game id."""
    catalogs: Path | None = None
    """A game's book: the folder of its own catalogs (:attr:`GameTexts.catalogs`), if any."""
    domain: str = "messages"
    """A game's book: the file name of its own catalogs."""

    @classmethod
    def of(cls, games: Mapping[str, GameTexts]) -> TextBook:
        """The book of the hub's :data:`ERRORS` and the texts of ``games`` (by game id)."""
        refusals: dict[str, str] = {}
        alerts: dict[str, tuple[str, str]] = {}
        words: dict[str, Words] = {}
        for texts in games.values():
            _add(refusals, texts.refusals)
            _add(alerts, texts.alerts)
            _add(words, texts.words)
        numbers = _numbers(texts.numbers for texts in games.values())
        own = {game: cls({**ERRORS, **texts.refusals}, dict(texts.alerts), dict(texts.words),
                         _numbers([texts.numbers]), catalogs=texts.catalogs,
                         domain=texts.domain) for game, texts in games.items()}
        return cls({**refusals, **ERRORS}, alerts, words, numbers, own)

    def of_game(self, game: str | None) -> TextBook:
        """The book a table of ``game`` renders with (this one for no game or an unknown
        one)."""
        return self.games.get(game, self) if game else self

    def template(self, code: str, params: Mapping[str, Any] | None = None) -> str | None:
        """The English template of a refusal ``code`` (a violation or a hub error), or None:
        :data:`FIELDS`' sentence for a body's field when ``params`` name its ``field`` and
        ``problem``, else the code's own."""
        return field_template(params) or self.refusals.get(code)

    def alert_texts(self, code: str, params: Mapping[str, Any]) -> tuple[str, str] | None:
        """The English message and fix templates of an alert: those of ``CODE:kind`` for a
        thing whose ``kind`` has its own (an award card), else the code's; None if unknown."""
        return self.alerts.get(f"{code}:{params.get('kind')}") or self.alerts.get(code)

    def codes(self) -> dict[str, Any]:
        """The templates as the dashboard's catalog carries them (``codes``), with each
        game's own under ``games`` (the hub's templates left out of them: a screen falls
        back on the hub's)."""
        out: dict[str, Any] = {
            "errors": dict(self.refusals), "fields": dict(FIELDS),
            "alerts": {code: list(pair) for code, pair in self.alerts.items()},
            "words": {name: words.to_dict() for name, words in self.words.items()},
            "numbers": list(self.numbers)}
        if self.games:
            out["hub"] = {"errors": dict(ERRORS)}
            out["games"] = {game: {**book.codes(), "errors": {
                code: text for code, text in book.refusals.items() if ERRORS.get(code) != text}}
                for game, book in self.games.items()}
        return out


def field_template(params: Mapping[str, Any] | None) -> str | None:
    """The template of a refusal whose ``params`` name a body's ``field`` and its
    ``problem`` (:data:`FIELDS`), or None for any other refusal."""
    problem = params.get("problem") if params and "field" in params else None
    return FIELDS.get(problem) if isinstance(problem, str) else None


def _numbers(games: Iterable[tuple[str, ...]]) -> tuple[str, ...]:
    """:data:`NUMBERS` and the games' own number params, each once."""
    numbers = list(NUMBERS)
    for names in games:
        numbers += [name for name in names if name not in numbers]
    return tuple(numbers)


def _add(into: dict[str, Any], more: Mapping[str, Any]) -> None:
    for key, value in more.items():
        into.setdefault(key, value)


@cache
def book() -> TextBook:
    """The book of every installed game (the registry's order), made once per process."""
    from companion import games  # the registry of installed games, not any one game

    return TextBook.of({game_id: game.texts for game_id, game in games.build().items()})

"""The sentences a game brings to the hub: its refusals' and alerts' templates, and its words.

A refusal or an alert reaches a client as ``{"code", "params", "message"}``. An English
device reads the precise ``message`` the engine or the table wrote; any other language gets
the code's English template, translated through the gettext catalogs and filled with the
``params`` (:mod:`companion.i18n.localize` on the hub, ``web/js/i18n.js`` on a screen). Each
game hands its templates over as one :class:`GameTexts`
(:meth:`companion.kit.game.GameKind.texts`); the hub adds up those of every game it hosts.

Mark each template with :func:`N_` (and a plural pair with :func:`Nn_`): they return their
argument unchanged, and only tell ``pybabel extract`` (``babel.cfg``) that the string is a
message, so it lands in the catalogs to translate.

Some params are words themselves: Popcorn's guest ``color`` ("white" is "blanc" in French)
and the ``place`` an alert names, made from the guest's ``zone``, ``owner``, ``slot`` and
``seat``. A :class:`Words` says how to pick the template of such a word from the params, so
the hub and the dashboard render it the same way without knowing the game.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any


def N_(message: str) -> str:  # noqa: N802 - the gettext convention for a deferred message
    """Mark ``message`` for extraction; translation happens later, when it is rendered."""
    return message


def Nn_(singular: str, plural: str) -> tuple[str, str]:  # noqa: N802 - as N_, for plurals
    """Mark a plural message (its singular and plural English forms) for extraction."""
    return singular, plural


class Lenient(dict[str, Any]):
    """Params for :meth:`str.format_map`: a name a template has but the params lack is "?"."""

    def __missing__(self, key: str) -> str:
        return "?"


@dataclass(frozen=True)
class Words:
    """How one param of a sentence is written as a word: the first of ``keys`` that, filled
    with the params, names one of ``templates`` picks the template, which is then translated
    and filled with the params too.

    Popcorn's ``{place}``: ``keys=("{zone}-{slot}", "{zone}")`` picks ``"seat-1"`` ("seat
    {seat} of {owner}'s center theater") for a guest on a seat, else the zone's own template
    (``"bag"``: "{owner}'s bag"). Its ``{color}``: ``keys=("{color}",)`` over the color
    adjectives.

    ``context``, if given, is the message context the picked template is translated under,
    filled with the params: Popcorn's ``{letter}`` is ``"letter:{color}"``, since one letter
    ("B") may stand for two colors in another language (blanc and bleu)."""

    keys: tuple[str, ...]
    templates: Mapping[str, str]
    context: str = ""

    def pick(self, params: Mapping[str, Any]) -> str | None:
        """The English template these params call for, or None (the param stays as it is)."""
        for key in self.keys:
            found = self.templates.get(key.format_map(Lenient(params)))
            if found is not None:
                return found
        return None

    def to_dict(self) -> dict[str, Any]:
        """As JSON, for the dashboard's catalog (``codes.words``)."""
        return {"keys": list(self.keys), "templates": dict(self.templates),
                "context": self.context}


@dataclass(frozen=True)
class DataWord:
    """A sentence of a game's data (an award card's condition, what an action does) to
    translate: ``context`` keys it in the catalogs (``"award:best-drama"``), so the
    dashboard finds it by the thing's id; ``comment`` guides the translator."""

    context: str
    message: str
    comment: str = ""


@dataclass(frozen=True)
class GameTexts:
    """Every sentence a game's codes need, in English, marked for the catalogs.

    - ``refusals``: one template per refusal code the game raises (its engine's violations,
      its routes' errors), filled with the refusal's params.
    - ``alerts``: per alert code, its message and its fix. A key ``CODE:kind`` holds the
      texts of that code for a thing of that ``kind`` param when they differ (Popcorn's award
      cards, which are private, are never named).
    - ``words``: the params written as words (:class:`Words`), by param name.
    - ``numbers``: the params written as numbers in each language's way.
    - ``data_words``: the sentences of the game's data to translate (:class:`DataWord`).
    - ``catalogs``: the folder of the game's own gettext catalogs, shipped with its package
      (``<catalogs>/<lang>/LC_MESSAGES/<domain>.po``, made and updated by
      ``popcorn-companion i18n``); None: its messages are in the companion's own catalogs
      (the games that ship with the hub). A game's own catalog translates its messages
      first, the companion's the rest.
    - ``domain``: the file name of its catalogs (by convention, the game's id)."""

    refusals: Mapping[str, str] = field(default_factory=dict)
    alerts: Mapping[str, tuple[str, str]] = field(default_factory=dict)
    words: Mapping[str, Words] = field(default_factory=dict)
    numbers: tuple[str, ...] = ()
    data_words: tuple[DataWord, ...] = ()
    catalogs: Path | None = None
    domain: str = "messages"

    @classmethod
    def catalogs_in(cls, package: str, folder: str = "i18n") -> Path:
        """The folder ``folder`` of ``package``, as installed (a checkout's or a wheel's):
        where a game's own catalogs are."""
        found = resources.files(package).joinpath(folder)
        if not isinstance(found, Path):
            raise FileNotFoundError(f"{package}/{folder} is not a folder on disk ({found})")
        return found

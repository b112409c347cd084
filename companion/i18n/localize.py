"""Render a ``code`` and its ``params`` as a sentence in a language.

The hub and the dashboard share one scheme: each code has an English template
(:mod:`.texts`), the catalogs translate it, and the params fill it. Some params are words
themselves and are translated first: a guest ``color`` (which also gives the ``letter`` on
its pawn), and the ``place`` an alert names,
which comes as ``zone`` (``bag``, ``exit``, ``seat``...), ``owner``, ``slot`` and ``seat``.
Numbers are written the language's way (Babel's :func:`~babel.numbers.format_decimal`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from string import Formatter
from typing import Any

from babel.numbers import format_decimal

from .texts import ALERTS, BATCH, BM_VIOLATIONS, COLORS, ERRORS, LETTERS, PLACES, VIOLATIONS

Gettext = Callable[[str], str]
"""A function that translates one message, such as ``Translations.gettext``."""
Ngettext = Callable[[str, str, int], str]
"""A function that picks and translates a plural form, such as ``Translations.ngettext``
(Babel's catalogs carry each language's plural rule)."""

NUMBERS = ("pawn", "seat", "count", "index", "size", "price", "money")
"""Params written as numbers in the language's own way."""


class _Lenient(dict):
    """Params for :meth:`str.format_map`: a name a template has but the params lack is "?"."""

    def __missing__(self, key: str) -> str:
        return "?"


def place(params: Mapping[str, Any], gettext: Gettext) -> str:
    """Where ``params`` say a guest is, in words: "Ana's exit zone", "the reserve"..."""
    zone = params.get("zone")
    key = f"seat-{params.get('slot')}" if zone == "seat" else zone
    template = PLACES.get(str(key))
    if template is None:
        return "?"
    return gettext(template).format_map(_Lenient(params))


def fill(template: str, params: Mapping[str, Any], gettext: Gettext, locale: str) -> str:
    """``template`` (already translated) with ``params``: colors, places and numbers in the
    language of ``locale``; a name the params lack shows as "?"."""
    values: dict[str, Any] = dict(params)
    for name in NUMBERS:
        if isinstance(values.get(name), int) and not isinstance(values[name], bool):
            values[name] = format_decimal(values[name], locale=locale)
    if isinstance(values.get("color"), str) and values["color"] in COLORS:
        values["letter"] = LETTERS.get(values["color"], "?")
        values["color"] = gettext(COLORS[values["color"]])
    if "{place}" in template:
        values["place"] = place(values, gettext)
    return template.format_map(_Lenient(values))


def template(code: str) -> str | None:
    """The English template of a refusal ``code`` (a violation or a hub error), or None."""
    return VIOLATIONS.get(code) or BM_VIOLATIONS.get(code) or ERRORS.get(code)


def render(code: str, params: Mapping[str, Any], english: str, gettext: Gettext,
           locale: str, ngettext: Ngettext | None = None) -> str:
    """The sentence for a refusal in ``locale``: in English the precise ``english`` sentence
    the code was raised with; in another language the code's translated template (or the
    English sentence, for a code no template knows). A refused batch (params ``index`` and
    ``size``) says which of how many moves, in the plural form ``size`` takes."""
    source = template(code)
    if locale == "en" or source is None:
        return english
    reason = fill(gettext(source), params, gettext, locale)
    size = params.get("size")
    if ngettext is None or not isinstance(size, int) or not isinstance(params.get("index"), int):
        return reason
    batch = {**params, "index": params["index"] + 1, "reason": reason}
    return fill(ngettext(BATCH[0], BATCH[1], size), batch, gettext, locale)


def alert_texts(code: str, params: Mapping[str, Any]) -> tuple[str, str]:
    """The English message and fix templates of an alert: those of ``CODE:kind`` for a card
    whose ``kind`` has its own (an award card), else the code's."""
    return ALERTS.get(f"{code}:{params.get('kind')}") or ALERTS[code]


def render_alert(code: str, params: Mapping[str, Any], gettext: Gettext,
                 locale: str) -> tuple[str, str]:
    """An alert's message and fix in ``locale``, from its code and params."""
    message, fix = alert_texts(code, params)
    return (fill(gettext(message), params, gettext, locale),
            fill(gettext(fix), params, gettext, locale))


def placeholders(text: str) -> set[str]:
    """The ``{names}`` a template fills, for checking that a translation keeps them."""
    return {name for _, name, _, _ in Formatter().parse(text) if name}

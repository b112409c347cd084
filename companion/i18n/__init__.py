"""Languages: which ones the companion speaks, and which one a request or a device gets.

The companion speaks English, French, German and Japanese (:data:`LANGUAGES`). Every word a
player reads comes from gettext catalogs kept in git beside this file
(``<lang>/LC_MESSAGES/messages.po``, extracted into ``messages.pot`` from the Python and the
dashboard's JavaScript, see ``babel.cfg``): the hub's refusals are rendered through them
(:mod:`.localize`), and the dashboard loads the same catalogs as JSON (:mod:`.catalogs`).

A request names its language with ``?lang=`` or ``Accept-Language``; a device picks its own in
the dashboard's header. Anything unknown falls back to the hub's default (``serve --lang``),
which is English unless told otherwise.
"""

from __future__ import annotations

LANGUAGES: dict[str, str] = {"en": "English", "fr": "Français", "de": "Deutsch", "ja": "日本語"}
"""Every language the companion speaks: its code and its name, in itself."""

SOURCE = "en"
"""The language of the sources: the catalogs translate from it."""


def known(lang: object) -> str | None:
    """``lang`` as one of :data:`LANGUAGES` ("fr-CA" and "FR" are "fr"), or None."""
    if not isinstance(lang, str):
        return None
    base = lang.strip().replace("_", "-").split("-")[0].lower()
    return base if base in LANGUAGES else None


def choose(asked: object, accepted: list[str], default: str = SOURCE) -> str:
    """The language to answer in: ``asked`` (a ``?lang=``) if known, else the first known one
    of ``accepted`` (an ``Accept-Language``, best first), else ``default``."""
    for candidate in [asked, *accepted]:
        lang = known(candidate)
        if lang:
            return lang
    return known(default) or SOURCE

"""The gettext catalogs: where they are, compiling them to ``.mo``, and the browser's JSON.

The ``.po`` files are kept in git (``companion/i18n/<lang>/LC_MESSAGES/messages.po``); the
``.mo`` files gettext reads are made from them by ``python -m companion.i18n.catalogs``
(``scripts/install-deps`` runs it) or, when missing or older than their ``.po``, the first
time :func:`translations_dir` is asked: beside the ``.po`` if that folder is writable, else
in a folder of the system's temporary directory. So a plain checkout, an editable install
and a wheel all work.

The dashboard gets the same catalogs as JSON (:func:`browser_catalog`): every message of the
template with its translation (plurals as a list of forms), the codes' templates, and the
plural rule's number of forms.
"""

from __future__ import annotations

import functools
import io
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

from babel import Locale
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import Translations

from . import LANGUAGES, SOURCE
from .texts import TextBook, book

HERE = Path(__file__).resolve().parent
"""The folder of the catalogs: ``messages.pot`` and one ``<lang>/LC_MESSAGES`` per language."""
DOMAIN = "messages"
"""The gettext domain: every message of the companion is in this one."""
TRANSLATED = tuple(lang for lang in LANGUAGES if lang != SOURCE)
"""The languages that have a catalog (English is the source)."""


def po_path(lang: str, root: Path = HERE) -> Path:
    """The ``.po`` file of a language."""
    return root / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


@functools.cache
def read_catalog(lang: str) -> Catalog:
    """A language's ``.po`` catalog, parsed (once per process)."""
    with po_path(lang).open("rb") as handle:
        return read_po(handle, locale=lang)


def read_template() -> Catalog:
    """The ``.pot`` template: the English messages, as last extracted."""
    with (HERE / f"{DOMAIN}.pot").open("rb") as handle:
        return read_po(handle)


def _stale(po: Path, mo: Path) -> bool:
    return not mo.exists() or mo.stat().st_mtime < po.stat().st_mtime


def compile_all(target: Path = HERE) -> Path:
    """Write ``<lang>/LC_MESSAGES/messages.mo`` under ``target`` for each stale catalog."""
    for lang in TRANSLATED:
        mo = po_path(lang, target).with_suffix(".mo")
        if target == HERE and not _stale(po_path(lang), mo):
            continue
        mo.parent.mkdir(parents=True, exist_ok=True)
        partial = mo.with_name(f"{mo.name}.{os.getpid()}.tmp")
        with partial.open("wb") as handle:
            write_mo(handle, read_catalog(lang), use_fuzzy=False)
        os.replace(partial, mo)  # whole or not at all, for a hub starting at the same time
    return target


@functools.cache
def translations_dir() -> Path:
    """A folder of up-to-date ``.mo`` files: compiled here if needed and writable, else in
    the system's temporary folder."""
    try:
        return compile_all(HERE)
    except OSError:
        return compile_all(Path(tempfile.mkdtemp(prefix="popcorn-i18n-")))


@functools.cache
def translations(lang: str) -> Translations:
    """The gettext translations of a language (English: none, every message as written)."""
    if lang not in TRANSLATED:
        return Translations()
    with (po_path(lang, translations_dir()).with_suffix(".mo")).open("rb") as handle:
        return Translations(handle, domain=DOMAIN)


PLURAL_ORDER = ("zero", "one", "two", "few", "many", "other")
"""CLDR's plural categories in the order Babel numbers a catalog's plural forms."""


def plural_tags(lang: str) -> list[str]:
    """The CLDR plural categories of ``lang`` in the order of its catalog's plural forms: the
    dashboard picks a form with ``Intl.PluralRules`` and finds its index here."""
    tags = Locale.parse(lang).plural_form.tags | {"other"}
    return [tag for tag in PLURAL_ORDER if tag in tags]


def browser_catalog(lang: str, texts: TextBook | None = None) -> dict[str, Any]:
    """The JSON the dashboard loads for ``lang``: ``messages`` maps each English message to
    its translation (a list of forms for a plural message); ``contexts`` holds the sentences
    of the games' data by the kind and id of their thing (``contexts["award"]["best-drama"]``
    is that award's condition, from the message context ``award:best-drama``); with the
    ``plurals`` categories (:func:`plural_tags`) and the codes' English templates of
    ``texts`` (every installed game's by default, :meth:`TextBook.codes`). ``games`` holds,
    by game id, the ``messages`` and ``contexts`` of each game's own catalog (a game
    installed from its own package), which a screen of that game reads first."""
    texts = texts or book()
    own = {game: _own_part(lang, g.catalogs, g.domain) for game, g in texts.games.items()
           if g.catalogs is not None}
    return {**_language_part(lang), "codes": texts.codes(), "games": own}


def own_po(folder: Path, domain: str, lang: str) -> Path:
    """A game's own ``.po`` file for ``lang`` in its catalogs folder."""
    return folder / lang / "LC_MESSAGES" / f"{domain}.po"


@functools.cache
def _own_catalog(folder: Path, domain: str, lang: str) -> Catalog | None:
    """A game's own catalog for ``lang``, parsed once; None if it ships none."""
    path = own_po(folder, domain, lang)
    if lang not in TRANSLATED or not path.is_file():
        return None
    with path.open("rb") as handle:
        return read_po(handle, locale=lang)


@functools.cache
def _own_part(lang: str, folder: Path, domain: str) -> dict[str, Any]:
    catalog = _own_catalog(folder, domain, lang)
    return {"messages": {}, "contexts": {}} if catalog is None else _messages(catalog)


@functools.cache
def game_translations(lang: str, folder: Path | None, domain: str) -> Translations:
    """The translations a game's messages are rendered with: its own catalog's first (made
    in memory from its ``.po``), then the companion's (:func:`translations`)."""
    hub = translations(lang)
    catalog = None if folder is None else _own_catalog(folder, domain, lang)
    if catalog is None:
        return hub
    buffer = io.BytesIO()
    write_mo(buffer, catalog, use_fuzzy=False)
    buffer.seek(0)
    own = Translations(buffer, domain=domain)
    own.add_fallback(hub)
    return own


@functools.cache
def _language_part(lang: str) -> dict[str, Any]:
    if lang not in TRANSLATED:
        return {"lang": SOURCE, "plurals": plural_tags(SOURCE), "messages": {}, "contexts": {}}
    return {"lang": lang, "plurals": plural_tags(lang), **_messages(read_catalog(lang))}


def _messages(catalog: Catalog) -> dict[str, Any]:
    """A catalog's translated messages and its data's sentences by context, as JSON."""
    messages: dict[str, Any] = {}
    contexts: dict[str, dict[str, str]] = {}
    for message in catalog:
        if not message.id or message.fuzzy:
            continue
        if message.context and isinstance(message.string, str) and message.string:
            kind, _, thing = message.context.partition(":")
            contexts.setdefault(kind, {})[thing] = message.string
        elif isinstance(message.id, tuple):
            forms = list(message.string or ())
            if all(forms):
                messages[message.id[0]] = forms
        elif isinstance(message.id, str) and message.string:
            messages[message.id] = message.string
    return {"messages": messages, "contexts": contexts}


def main() -> None:
    """``python -m companion.i18n.catalogs``: compile every catalog to ``.mo`` beside it."""
    compile_all(HERE)
    sys.stdout.write(f"compiled {', '.join(TRANSLATED)} in {HERE}\n")


if __name__ == "__main__":
    main()

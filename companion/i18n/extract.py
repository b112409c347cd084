"""Extract the companion's messages into the template ``messages.pot``, with Babel.

``babel.cfg`` at the top of the repository maps files to Babel's extractors (``python``,
``javascript``) and names, per kind of file, the functions that mark a message. This module
runs Babel's extraction per section, so ``t`` marks a message in the dashboard's
JavaScript only, never a Python variable named ``t``. ``scripts/i18n-extract`` runs it, then
merges the template into each language's ``.po`` (``pybabel update``).

Card facts are data, so the sentences of a game's data (Popcorn's award conditions and
titles, what each action does) come from the game itself
(:attr:`companion.kit.texts.GameTexts.data_words`), each keyed by its thing's id in the message
context: ``award:<id>`` for an award's condition, ``award-title:<id>`` for its title,
``action:<id>`` for what an action does.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_keywords, parse_mapping_cfg
from babel.messages.pofile import write_po

from companion.games import build

from .catalogs import DOMAIN, HERE, read_template

ROOT = HERE.parent.parent
"""The repository's top folder (where ``babel.cfg`` is)."""


GAME_SOURCES: tuple[tuple[str, str, dict[str, str]], ...] = (
    ("**.py", "python", {"keywords": "N_ Nn_:1,2"}),
    ("**.js", "javascript", {"keywords": "t tn:1,2 tp:1c,2", "parse_template_string": "true"}),
)
"""Where a game's messages are in its own package (``popcorn-companion i18n``): ``N_()`` and
``Nn_()`` in its Python, ``t()``, ``tn()`` and ``tp()`` in its screens, as in ``babel.cfg``."""


def extract(root: Path = ROOT) -> Catalog:
    """Every message of the sources under ``root``, as a template catalog."""
    with (root / "babel.cfg").open(encoding="utf-8") as handle:
        methods, options = parse_mapping_cfg(handle)
    catalog = Catalog(project="Popcorn Companion", copyright_holder="Popcorn Companion")
    for pattern, method in methods:
        _add_found(catalog, root, pattern, method, dict(options.get(pattern, {})))
    _card_words(catalog)
    return catalog


def extract_game(folder: Path, project: str) -> Catalog:
    """Every message of a game's own package (``folder``), as a template catalog: what
    ``popcorn-companion i18n`` writes into the game's ``<domain>.pot``."""
    catalog = Catalog(project=project, copyright_holder=project)
    for pattern, method, section in GAME_SOURCES:
        _add_found(catalog, folder, pattern, method, dict(section))
    return catalog


def _add_found(catalog: Catalog, root: Path, pattern: str, method: str,
               section: dict[str, Any]) -> None:
    """Add the messages one section (a pattern and its extractor) finds under ``root``."""
    keywords = section.pop("keywords", {})
    if isinstance(keywords, str):  # older Babel leaves the option unparsed
        keywords = parse_keywords(keywords.split())
    found = extract_from_dir(str(root), [(pattern, method)], {pattern: section},
                             keywords=keywords, strip_comment_tags=True)
    for _, _, message, comments, context in found:
        message = _message(message)
        catalog.add(message, None, flags=_flags(message), auto_comments=comments,
                    context=context)


def _card_words(catalog: Catalog) -> None:
    """Add the sentences of every installed game's data, each under its message context."""
    for game in build().values():
        for word in game.texts.data_words:
            catalog.add(word.message, None, context=word.context,
                        auto_comments=[word.comment] if word.comment else [])


def _message(found: str | tuple[str | None, ...]) -> str | tuple[str, ...]:
    """A message as found: a string, or (singular, plural) for ``tn``; the extractor reports
    ``t("...", {params})`` as a tuple whose other parts are None."""
    if isinstance(found, str):
        return found
    parts = tuple(part for part in found if part is not None)
    return parts[0] if len(parts) == 1 else parts[:2]


def _flags(message: str | tuple[str, ...]) -> tuple[str, ...]:
    text = message if isinstance(message, str) else message[0]
    return ("python-brace-format",) if "{" in text else ()


def _ids(catalog: Catalog) -> set[object]:
    return {(message.context, message.id) for message in catalog if message.id}


def main() -> None:
    """``python -m companion.i18n.extract``: write ``companion/i18n/messages.pot``."""
    catalog = extract()
    path = HERE / f"{DOMAIN}.pot"
    if path.exists() and _ids(catalog) == _ids(read_template()):
        sys.stdout.write(f"{len(catalog)} messages, unchanged: {path}\n")
        return  # no new date in the header, so no change for git to merge
    with path.open("wb") as handle:
        write_po(handle, catalog, omit_header=False, sort_output=True, no_location=True,
                 width=100)
    sys.stdout.write(f"{len(catalog)} messages in {path}\n")


if __name__ == "__main__":
    main()

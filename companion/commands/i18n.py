"""``popcorn-companion i18n FOLDER --domain ID``: a game's own catalogs, made and kept up.

A game installed from its own package brings its own words (``GameTexts.catalogs``): its
templates marked with ``N_()`` in its Python and its screens' ``t()`` in its JavaScript.
This command extracts them from the package ``FOLDER`` into ``FOLDER/i18n/ID.pot``, then
creates or updates ``FOLDER/i18n/<lang>/LC_MESSAGES/ID.po`` for each language the companion
speaks: a new message waits there for its translation, a message gone from the sources is
dropped, and every translation kept is kept as it was. The hub compiles them when it loads
the game, so nothing else is needed. It prints, per language, how many messages still wait.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # Babel is imported when the command runs, not with every command's parser
    from babel.messages.catalog import Catalog


def register(subparsers: Any) -> None:
    """Add the ``i18n`` subcommand to the ``popcorn-companion`` parser."""
    parser = subparsers.add_parser(
        "i18n", help="extract a game package's messages into its own catalogs",
        description="Extract the messages of a game's package (N_() in its Python, t() in "
                    "its screens) into FOLDER/i18n/DOMAIN.pot, and create or update its "
                    "catalog of each language the companion speaks.")
    parser.add_argument("folder", type=Path, help="the game's package folder")
    parser.add_argument("--domain", required=True, help="the catalogs' name: the game's id")
    parser.add_argument("--catalogs", default="i18n",
                        help="the catalogs' folder inside the package (default: i18n)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Extract, then update each language's catalog; 2 for a folder that is not one."""
    from companion.i18n.catalogs import TRANSLATED, own_po
    from companion.i18n.extract import extract_game

    folder: Path = args.folder
    if not folder.is_dir():
        print(f"popcorn-companion i18n: error: {folder} is not a folder", file=sys.stderr)
        return 2
    template = extract_game(folder, args.domain)
    target = folder / args.catalogs
    target.mkdir(parents=True, exist_ok=True)
    _write(target / f"{args.domain}.pot", template)
    print(f"{len(template)} messages in {target / f'{args.domain}.pot'}")
    for lang in TRANSLATED:
        waiting = update(own_po(target, args.domain, lang), template, lang)
        print(f"{lang}: {waiting} of {len(template)} waiting for a translation")
    return 0


def update(path: Path, template: Catalog, lang: str) -> int:
    """Create or update one language's catalog from the template; how many messages wait
    for a translation."""
    from babel.messages.catalog import Catalog
    from babel.messages.pofile import read_po

    if path.is_file():
        with path.open("rb") as handle:
            catalog = read_po(handle, locale=lang)
        catalog.update(template, no_fuzzy_matching=True)
        catalog.obsolete.clear()
    else:
        catalog = Catalog(locale=lang, project=template.project,
                          copyright_holder=template.copyright_holder)
        catalog.update(template, no_fuzzy_matching=True)
    path.parent.mkdir(parents=True, exist_ok=True)
    _write(path, catalog)
    return sum(1 for message in catalog if message.id and not _translated(message.string))


def _translated(string: Any) -> bool:
    return all(string) if isinstance(string, tuple | list) else bool(string)


def _write(path: Path, catalog: Catalog) -> None:
    from babel.messages.pofile import write_po

    with path.open("wb") as handle:
        write_po(handle, catalog, sort_output=True, no_location=True, width=100)

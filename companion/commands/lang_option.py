"""The ``--lang`` option of ``serve`` and ``demo``: the hub's default language."""

from __future__ import annotations

import argparse

from companion.i18n import LANGUAGES, known


def language(value: str) -> str:
    """``--lang``'s value as a known language code ("fr-FR" is "fr"), or a usage error."""
    lang = known(value)
    if lang is None:
        raise argparse.ArgumentTypeError(
            f"{value!r} is not a language of the companion ({', '.join(LANGUAGES)})")
    return lang


def add_lang_option(parser: argparse.ArgumentParser) -> None:
    """Add ``--lang``: the language of devices and requests that ask for none."""
    parser.add_argument("--lang", type=language, default="en", metavar="LANG",
                        help="default language of the dashboards and of API messages for "
                        f"devices that ask for none: {', '.join(LANGUAGES)} (en)")

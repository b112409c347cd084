"""``popcorn-companion i18n``: a game package's own catalogs, made from its sources and kept
up to date without losing a translation."""

from __future__ import annotations

import shutil
from pathlib import Path

from babel.messages.pofile import read_po

from companion.cli import main

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "number-tokens" / "number_tokens"


def catalog(folder: Path, lang: str):
    with (folder / "i18n" / lang / "LC_MESSAGES" / "nt.po").open("rb") as handle:
        return read_po(handle, locale=lang)


def test_it_makes_each_languages_catalog_then_keeps_its_translations(tmp_path: Path,
                                                                     capsys) -> None:
    folder = tmp_path / "number_tokens"
    shutil.copytree(EXAMPLE, folder, ignore=shutil.ignore_patterns("i18n", "__pycache__"))
    assert main(["i18n", str(folder), "--domain", "nt"]) == 0
    out = capsys.readouterr().out
    assert "25 messages in" in out and "fr: 25 of 25 waiting for a translation" in out
    french = catalog(folder, "fr")
    assert french.get("Number Tokens") is not None and not french.get("Number Tokens").string
    assert french.get("{n} of {rounds} tokens played") is not None  # from its screen's t()
    french.get("Number Tokens").string = "Jetons numérotés"
    from babel.messages.pofile import write_po
    with (folder / "i18n" / "fr" / "LC_MESSAGES" / "nt.po").open("wb") as handle:
        write_po(handle, french)
    source = folder / "__init__.py"  # a message added, one gone
    text = source.read_text().replace('N_("Put it back in the box.")',
                                      'N_("Put it back where it was.")')
    source.write_text(text)
    assert main(["i18n", str(folder), "--domain", "nt"]) == 0
    assert "fr: 24 of 25 waiting" in capsys.readouterr().out
    french = catalog(folder, "fr")
    assert french.get("Number Tokens").string == "Jetons numérotés"  # kept
    assert french.get("Put it back where it was.") is not None
    assert french.get("Put it back in the box.") is None and not french.obsolete


def test_a_folder_that_is_not_one_is_refused(tmp_path: Path, capsys) -> None:
    assert main(["i18n", str(tmp_path / "nope"), "--domain", "nt"]) == 2
    assert "is not a folder" in capsys.readouterr().err

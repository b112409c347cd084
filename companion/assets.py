"""The files the companion carries besides its code: the dashboard and the reader firmware.

In the repository they sit at the top, in ``web/`` and ``firmware/``, where people edit them.
The package reaches them as ``companion/web`` and ``companion/firmware``: links to those
folders in a checkout, real folders in a wheel (the build copies the files in). Either way
:func:`importlib.resources.files` finds them, so an editable checkout, a wheel in a venv and a
``pipx`` install all serve the same dashboard and flash the same firmware.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

WEB = "web"
"""The dashboard: ``index.html`` and the ES modules and styles it loads."""
FIRMWARE = "firmware"
"""The bag reader's MicroPython sources and ``config.example.json``."""


class AssetMissing(RuntimeError):
    """An installation without one of its folders: a broken or partial install."""


def asset_dir(name: str) -> Path:
    """The folder ``name`` (:data:`WEB` or :data:`FIRMWARE`) as a path on disk.

    Flask serves files from a real directory and ``mpremote`` copies real files, so a
    package imported from a zip (which has no such directory) is refused with a message.
    """
    found = resources.files("companion").joinpath(name)
    if not isinstance(found, Path) or not found.is_dir():
        raise AssetMissing(f"This installation of popcorn-companion has no {name}/ folder "
                           f"(looked for {found}); reinstall the package.")
    return found


def web_dir() -> Path:
    """Where the dashboard's files are."""
    return asset_dir(WEB)


def firmware_dir() -> Path:
    """Where the reader firmware's sources are."""
    return asset_dir(FIRMWARE)

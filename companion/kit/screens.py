"""A game's own screens: a folder of ES modules (and styles) its distribution ships.

The hub serves the folder under ``/games/<id>/`` and ``GET /api/games`` names the modules,
so the dashboard loads a game's screens the same way whoever wrote the game: from its own
package, with nothing of the game in the dashboard's files. A module imports the dashboard's
shell and its own files by relative path: ``import { t } from "../../web/js/i18n.js"`` from the
top of the folder (served as ``/games/<id>/`` beside ``/web/``, and under the hub's version as
``/v/<version>/games/<id>/`` beside ``/v/<version>/web/``), and ``./board.js``. An absolute
``/web/js/...`` would load a second copy of the shell beside the page's versioned one. The
roles:

- ``table``: exports ``mountTable(root, ctx, tableId)``, the tablet's screen;
- ``phone``: exports ``mountPhone(root, ctx, tableId, seat)``, a player's private screen;
- ``replay``: exports ``replayScreen(ctx)``, the replay board's drawing of one position.

A role the game leaves out gets the dashboard's generic screen (its views as they come).
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

ROLES = ("table", "phone", "replay")
"""The screens a game may bring, each a module of its folder."""


@dataclass(frozen=True)
class Screens:
    """A game's folder of screens (``folder``), its module for each role it brings
    (``modules``: role -> file name in the folder) and its ``styles`` (CSS files the
    dashboard links while any of its screens shows)."""

    folder: Path
    modules: dict[str, str]
    styles: tuple[str, ...] = ()

    @classmethod
    def in_package(cls, package: str, folder: str = "web", styles: tuple[str, ...] = (),
                   **modules: str) -> Screens:
        """The folder ``folder`` of ``package`` (as installed: a checkout's or a wheel's);
        ``modules`` name the file of each role (default: ``table.js``, ``phone.js`` and
        ``replay.js``, those of them the folder has)."""
        found = resources.files(package).joinpath(folder)
        if not isinstance(found, Path) or not found.is_dir():
            raise FileNotFoundError(f"{package} has no {folder}/ folder of screens ({found})")
        named = modules or {role: f"{role}.js" for role in ROLES
                            if found.joinpath(f"{role}.js").is_file()}
        return cls(found, dict(named), styles)

    def urls(self, game_id: str, base: str | None = None) -> dict[str, Any]:
        """Where the dashboard loads them: ``{"table": "/games/<id>/table.js", ...,
        "styles": [...]}`` (what ``GET /api/games`` gives as the game's ``screens``);
        ``base`` is the folder's address if not ``/games/<id>/`` (the hub's versioned one)."""
        base = base or f"/games/{game_id}/"
        return {**{role: base + name for role, name in self.modules.items()},
                "styles": [base + name for name in self.styles]}

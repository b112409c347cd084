"""The dashboard's files under versioned addresses, cached for a year, and the page naming them.

At start the hub hashes the dashboard's folder and each hosted game's folder of screens
together (:func:`content_version`) and serves them under that version:
``/v/<version>/web/<name>`` and ``/v/<version>/games/<id>/<name>``, with
``Cache-Control: public, max-age=31536000, immutable``. A browser keeps them and asks for none
of them again until the hub serves other files, whose version is another address. The page
itself (``index.html``) is answered ``no-cache`` with an ``ETag``: a reload asks for it, gets
``304`` while nothing changed, and the page names the versioned files (:class:`Page`).

The two folders sit side by side under the one version, so a game's module reaches the
dashboard's shell by a path relative to its own (``../../web/js/i18n.js``), which stays
inside the version the page was loaded with, and inside the old unversioned ``/web/`` and
``/games/<id>/`` addresses, which keep working with a short cache.

The page lists the modules the first screen needs as ``<link rel="modulepreload">``: those
``app.js`` imports, followed through their static imports, and for a table's or a phone's
address the game's own screen and its imports (:class:`ModuleGraph`). The browser fetches
them all at once instead of one level of imports per round trip.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from posixpath import normpath
from urllib.parse import urljoin

IMMUTABLE = "public, max-age=31536000, immutable"
"""The ``Cache-Control`` of a file under the hub's own version."""
PREFIX = "/v/"
"""Where versioned files start: ``/v/<version>/web/...``, ``/v/<version>/games/<id>/...``."""

STATIC_IMPORT = re.compile(r"""^[ \t]*(?:import|export)\b[^"'()]*?["']([^"']+\.js)["']""",
                           re.MULTILINE)
"""An ``import ... from "x.js"`` (or ``export ... from``, or a bare ``import "x.js"``) at the
start of a line; ``import("x.js")`` (loaded when needed) is left out."""
PAGE_LINK = re.compile(r"""((?:href|src)=")/web/""")
"""An address of the page's own files in ``index.html``."""
MODULE_SCRIPT = '<script type="module"'


def content_version(folders: Mapping[str, Path]) -> str:
    """A short hash of every file (name and bytes) of ``folders`` (label -> folder): it
    changes when any file does."""
    digest = hashlib.sha256()
    for label, folder in sorted(folders.items()):
        for path in sorted(p for p in folder.rglob("*") if p.is_file()):
            name = path.relative_to(folder).as_posix()
            if any(part.startswith(".") or part == "__pycache__" for part in name.split("/")):
                continue
            digest.update(f"{label}/{name}\0".encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


@dataclass(frozen=True)
class Folders:
    """The dashboard's folder (``web``) and each game's folder of screens (``games``: game id
    -> folder), and the ``version`` of their files together."""

    web: Path
    games: dict[str, Path]
    version: str

    @classmethod
    def of(cls, web: Path, games: Mapping[str, Path]) -> Folders:
        """The folders, their version hashed once here."""
        labelled = {"web": web, **{f"games/{gid}": path for gid, path in games.items()}}
        return cls(web, dict(games), content_version(labelled))

    @property
    def base(self) -> str:
        """The address the versioned files start with: ``/v/<version>/``."""
        return f"{PREFIX}{self.version}/"

    def game_base(self, game_id: str) -> str:
        """Where a game's screens are served under the version."""
        return f"{self.base}games/{game_id}/"

    def file_of(self, url: str) -> Path | None:
        """The file an address of the dashboard names (versioned or not); None for another
        address or a name outside the folders."""
        path = url.removeprefix(self.base.rstrip("/")) if url.startswith(self.base) else url
        if path.startswith("/web/"):
            return _inside(self.web, path.removeprefix("/web/"))
        if path.startswith("/games/"):
            game_id, _, name = path.removeprefix("/games/").partition("/")
            folder = self.games.get(game_id)
            return None if folder is None else _inside(folder, name)
        return None


def _inside(folder: Path, name: str) -> Path | None:
    """``folder/name`` when that is a file inside ``folder``."""
    clean = normpath(name)
    if clean.startswith(("..", "/")):
        return None
    path = folder / clean
    return path if path.is_file() else None


@dataclass
class ModuleGraph:
    """The static imports between the dashboard's modules, read from the files once each."""

    folders: Folders
    _imports: dict[str, tuple[str, ...]] = field(default_factory=dict)

    def imports(self, url: str) -> tuple[str, ...]:
        """The addresses ``url``'s module imports statically (none for an unknown file)."""
        if url not in self._imports:
            path = self.folders.file_of(url)
            text = path.read_text(encoding="utf-8") if path is not None else ""
            self._imports[url] = tuple(urljoin(url, spec)
                                       for spec in STATIC_IMPORT.findall(text))
        return self._imports[url]

    def closure(self, roots: Iterable[str]) -> list[str]:
        """``roots`` and every module they import, directly or not, in the order met."""
        seen: dict[str, None] = {}
        todo = list(roots)
        while todo:
            url = todo.pop(0)
            if url in seen or self.folders.file_of(url) is None:
                continue
            seen[url] = None
            todo.extend(self.imports(url))
        return list(seen)


@dataclass
class Page:
    """``index.html`` with its files' addresses versioned and the first screen's modules
    preloaded; ``screen_of`` gives, for a path of the page, the game's modules and styles that
    screen shows (addresses, versioned), if any."""

    folders: Folders
    screen_of: Callable[[str], tuple[list[str], list[str]]]
    graph: ModuleGraph = field(init=False)
    _template: str = field(init=False)
    _pages: dict[tuple[tuple[str, ...], tuple[str, ...]], str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.graph = ModuleGraph(self.folders)
        html = (self.folders.web / "index.html").read_text(encoding="utf-8")
        self._template = PAGE_LINK.sub(rf"\g<1>{self.folders.base}web/", html)

    @property
    def entry(self) -> str:
        """The versioned address of the page's first module."""
        return f"{self.folders.base}web/js/app.js"

    def html(self, path: str) -> str:
        """The page for the address ``path``."""
        modules, styles = self.screen_of(path)
        key = (tuple(modules), tuple(styles))
        if key not in self._pages:
            self._pages[key] = self._render(modules, styles)
        return self._pages[key]

    def _render(self, modules: list[str], styles: list[str]) -> str:
        """The template with the preload links of ``app.js`` (first: the browser fetches in
        the order named, and it is the one that starts the screen's calls), its modules, and
        ``modules``."""
        urls = list(dict.fromkeys(self.graph.closure([self.entry]) + self.graph.closure(modules)))
        links = [f'<link rel="modulepreload" href="{url}">' for url in urls]  # app.js first
        links += [f'<link rel="preload" href="{href}" as="style">' for href in styles]
        head, found, tail = self._template.partition(MODULE_SCRIPT)
        if not found:
            return self._template
        return head + "\n".join(links) + "\n" + found + tail

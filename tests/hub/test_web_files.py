"""The dashboard's files over a real ``serve``: compressed when the browser accepts it,
under versioned addresses kept a year, the page itself checked again each time, and the old
unversioned addresses still answering (docs/api.md, "Static files")."""

from __future__ import annotations

import gzip
import json
import re
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.hub.remote import ServeProcess

READERS = ["bag-1", "bag-2"]
IMMUTABLE = "public, max-age=31536000, immutable"
ENTRY = re.compile(r'<script type="module" src="(/v/([0-9a-f]{16})/web/js/app\.js)"></script>')


class Answer:
    """A response's status, headers and body (as sent: maybe compressed)."""

    def __init__(self, status: int, headers: dict[str, str], body: bytes) -> None:
        self.status, self.headers, self.body = status, headers, body

    def text(self) -> str:
        """The body, uncompressed."""
        packed = self.headers.get("Content-Encoding") == "gzip"
        return (gzip.decompress(self.body) if packed else self.body).decode()


def get(base: str, path: str, **headers: str) -> Answer:
    """``GET path`` with ``headers``; any status."""
    request = urllib.request.Request(base + path, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as r:
            return Answer(r.status, dict(r.headers), r.read())
    except urllib.error.HTTPError as err:
        return Answer(err.code, dict(err.headers), err.read())


@pytest.fixture(scope="module")
def hub(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServeProcess]:
    """A ``serve``."""
    tmp: Path = tmp_path_factory.mktemp("web-files")
    server = ServeProcess(tmp / "hub.db", readers=READERS).start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def table_id(hub: ServeProcess) -> str:
    """A table of ``hub``."""
    return hub.create_table({"players": ["Ana", "Bo"], "readers": READERS})["id"]


def version(hub: ServeProcess) -> str:
    """The hub's version, as its page names it."""
    found = ENTRY.search(get(hub.base, "/").text())
    assert found, "the page names no versioned app.js"
    return found.group(2)


@pytest.mark.parametrize("path", ["/web/js/app.js", "/web/css/base.css",
                                  "/games/popcorn/table.js", "/api/games"])
def test_text_is_compressed_when_the_client_accepts_gzip(hub: ServeProcess, path: str) -> None:
    """A module, a stylesheet, a game's module and JSON come gzipped (and whole) to a client
    that accepts gzip, and as they are to one that does not."""
    for prefix in ("", f"/v/{version(hub)}") if not path.startswith("/api") else ("",):
        plain = get(hub.base, prefix + path, **{"Accept-Encoding": "identity"})
        packed = get(hub.base, prefix + path, **{"Accept-Encoding": "gzip"})
        assert plain.status == packed.status == 200, prefix + path
        assert "Content-Encoding" not in plain.headers
        assert packed.headers["Content-Encoding"] == "gzip"
        assert "Accept-Encoding" in packed.headers["Vary"]
        assert len(packed.body) < len(plain.body) and packed.text() == plain.text()


def test_versioned_files_are_kept_a_year(hub: ServeProcess, table_id: str) -> None:
    """Everything the page names, and each game's screens as ``GET /api/games`` gives them,
    sits under the hub's version and is answered ``immutable`` for a year."""
    page = get(hub.base, f"/table/{table_id}").text()
    v = version(hub)
    named = re.findall(r'(?:href|src)="(/[^"]+)"', page)
    games = json.loads(get(hub.base, "/api/games").text())
    named += [url for g in games for role, url in g["screens"].items() if role != "styles"]
    named += [url for g in games for url in g["screens"]["styles"]]
    assert any("modulepreload" in line and "/games/popcorn/" in line
               for line in page.splitlines())  # the table's own screen, preloaded
    for url in named:
        assert url.startswith(f"/v/{v}/"), url
        answer = get(hub.base, url)
        assert answer.status == 200 and answer.headers["Cache-Control"] == IMMUTABLE, url


def test_the_page_is_checked_again_each_time(hub: ServeProcess) -> None:
    """The page is ``no-cache`` with an ETag: asked again with it, ``304`` and no body
    (compressed or not)."""
    for encoding in ("identity", "gzip"):
        first = get(hub.base, "/setup", **{"Accept-Encoding": encoding})
        assert first.status == 200 and "no-cache" in first.headers["Cache-Control"]
        again = get(hub.base, "/setup", **{"Accept-Encoding": encoding,
                                           "If-None-Match": first.headers["ETag"]})
        assert again.status == 304 and again.body == b"", encoding


def test_the_old_addresses_still_answer_with_a_short_cache(hub: ServeProcess) -> None:
    """``/web/...`` and ``/games/<id>/...`` serve the same files, checked again each time;
    another version's address serves today's file without the year's promise."""
    v = version(hub)
    for path in ("/web/js/app.js", "/web/css/base.css", "/games/b-movies/bmovies.css"):
        old, new = get(hub.base, path), get(hub.base, f"/v/{v}{path}")
        assert old.status == 200 and old.body == new.body, path
        assert "max-age=0" in old.headers["Cache-Control"], path
    other = get(hub.base, "/v/0123456789abcdef/web/js/app.js")
    assert other.status == 200 and other.headers["Cache-Control"] != IMMUTABLE


@pytest.mark.parametrize("path", ["/v/{v}/web/nope.js", "/v/{v}/games/nope/table.js",
                                  "/v/{v}/games/popcorn/../parts.py",
                                  "/v/{v}/web/../../pyproject.toml"])
def test_nothing_else_is_served_under_a_version(hub: ServeProcess, path: str) -> None:
    """No such file, no such game, nothing outside the folders: 404."""
    assert get(hub.base, path.format(v=version(hub))).status == 404


def test_a_game_module_reaches_the_shell_by_a_relative_path() -> None:
    """No game module of this repository imports the dashboard's shell by an absolute
    ``/web/`` path: under a version, that would load a second copy of the shell."""
    root = Path(__file__).resolve().parents[2]
    modules = [*root.glob("companion/games/*/web/*.js"), *root.glob("examples/*/*/web/*.js")]
    assert modules
    absolute = [m.name for m in modules if re.search(r"""from\s*["']/web/""", m.read_text())]
    assert absolute == []


def test_the_preloaded_modules_are_the_static_imports_followed() -> None:
    """From ``app.js``: its static imports and theirs, never a module loaded with
    ``import()`` when needed; from a game's table screen: its own files and the shell's it
    imports, under the version."""
    from companion.assets import web_dir
    from companion.games import load
    from companion.hub.webfiles import Folders, ModuleGraph

    popcorn = load("popcorn").screens
    assert popcorn is not None
    folders = Folders.of(web_dir(), {"popcorn": popcorn.folder})
    graph = ModuleGraph(folders)
    shell = graph.closure([f"{folders.base}web/js/app.js"])
    assert {f"{folders.base}web/js/{name}" for name in ("api.js", "i18n.js")} <= set(shell)
    assert not any(url.endswith(("/generic.js", "/setup.js", "/archive.js")) for url in shell)
    table = graph.closure([f"{folders.game_base('popcorn')}table.js"])
    assert f"{folders.game_base('popcorn')}board.js" in table
    assert f"{folders.base}web/js/labels.js" in table
    assert all(url.startswith(folders.base) for url in table)

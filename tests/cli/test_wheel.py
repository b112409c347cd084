"""The installed wheel works on its own: it serves the dashboard and carries the firmware.

A user who runs ``pipx install`` or ``pip install popcorn_companion-*.whl`` gets no checkout
beside the package, so everything the hub serves and the user flashes must be inside the
wheel. These tests build the wheel from a copy of the source tree, install it with its
dependencies into a fresh virtual environment outside the checkout, and use only that
environment's ``popcorn-companion``: ``serve`` must answer every page and every file that
``web/index.html`` loads, directly or through module imports, and Chromium must render the
setup screen without a console error.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import urllib.parse
import zipfile
from pathlib import Path

import pytest

from companion.hub.remote import ServeProcess
from companion.kit.http import call

pytestmark = pytest.mark.slow  # builds the wheel and installs it in a venv (module fixture)
ROOT = Path(__file__).resolve().parents[2]
SKIP_COPY = shutil.ignore_patterns(".git", ".venv", "build", "dist", "*.egg-info", "artifacts",
                                   "__pycache__", ".pytest_cache", ".ruff_cache", ".hypothesis")
LOADS = re.compile(r"""(?:src|href)="((?:/v/[0-9a-f]+)?/web/[^"]+)\"""")
VERSION = re.compile(r"^/v/[0-9a-f]{16}(?=/)")
IMPORTS = re.compile(r"""(?:\bfrom\s*|\bimport\s*\(?\s*)["']((?:\.{1,2}|/web)/[^"']+)["']""")


class Installed:
    """A wheel built from this checkout and installed into its own venv under ``tmp``."""

    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.wheel = self._build()
        self.venv = tmp / "venv"
        subprocess.run([sys.executable, "-m", "venv", str(self.venv)], check=True)
        self._run(self.venv / "bin" / "python", "-m", "pip", "install", "--quiet",
                  "--disable-pip-version-check", str(self.wheel))
        self.program = self.venv / "bin" / "popcorn-companion"

    def _build(self) -> Path:
        source = self.tmp / "source"
        shutil.copytree(ROOT, source, symlinks=True, ignore=SKIP_COPY)
        self._run(sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps",
                  "--disable-pip-version-check", "-w", str(self.tmp / "dist"), str(source))
        return next((self.tmp / "dist").glob("popcorn_companion-*.whl"))

    def _run(self, *args: object) -> str:
        run = subprocess.run([str(a) for a in args], capture_output=True, text=True,
                             cwd=self.tmp)
        assert run.returncode == 0, f"{args}: {run.stdout}{run.stderr}"
        return run.stdout

    def python(self, code: str) -> str:
        """Run ``code`` with the installed environment's interpreter; its stdout."""
        return self._run(self.venv / "bin" / "python", "-c", code).strip()


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Installed:
    """The wheel, built and installed once for this module."""
    return Installed(tmp_path_factory.mktemp("wheel"))


@pytest.fixture(scope="module")
def served(installed: Installed):
    """``serve`` from the installed environment, run outside the checkout."""
    server = ServeProcess(installed.tmp / "hub.db", readers=["bag-1", "bag-2"],
                          program=[str(installed.program)], cwd=installed.tmp).start()
    yield server
    server.stop()


def repo_files(folder: str, pattern: str = "*") -> set[str]:
    """The checkout's files under ``folder``, as paths relative to it."""
    base = ROOT / folder
    return {p.relative_to(base).as_posix() for p in base.rglob(pattern)
            if p.is_file() and "__pycache__" not in p.parts}


def test_the_wheel_carries_the_dashboard_the_firmware_and_the_catalog(installed) -> None:
    """Every file of ``web/``, every firmware source and the card catalog are in the wheel."""
    names = set(zipfile.ZipFile(installed.wheel).namelist())
    for folder in ("web", "firmware"):
        inside = {n.removeprefix(f"companion/{folder}/") for n in names
                  if n.startswith(f"companion/{folder}/")}
        assert repo_files(folder) - inside == set(), folder
    assert "companion/games/popcorn/data/popcorn-cards.json" in names
    for game in ("popcorn", "bmovies"):  # each game's own screens, in its package
        folder = f"companion/games/{game}/web"
        assert repo_files(folder) and {f"{folder}/{n}" for n in repo_files(folder)} <= names
    for vendored in ("chart.js-4.6.1/chart.umd.min.js", "chart.js-4.6.1/LICENSE.md",
                     "socket.io-client-4.8.4/socket.io.esm.min.js",
                     "socket.io-client-4.8.4/LICENSE"):
        assert f"companion/web/vendor/{vendored}" in names  # the charts, the pages' link
    assert "companion/games/bmovies/data/b-movies.json" in names
    assert "companion/games/bmovies/engine/state.py" in names


def test_the_installed_package_is_the_wheel_not_the_checkout(installed) -> None:
    """The venv imports its own copy, and finds its folders inside it, not in this tree."""
    where = installed.python(
        "import companion, companion.assets as a; "
        "print(companion.__file__); print(a.web_dir()); print(a.firmware_dir())").splitlines()
    assert all(Path(p).is_relative_to(installed.venv) for p in where), where
    assert not Path(where[1]).is_symlink()


def dashboard_files(base: str) -> set[str]:
    """Every ``/web/...`` and ``/games/...`` path the dashboard loads: from ``index.html``
    and each hosted game's screens (``GET /api/games``), then each module's static and
    dynamic imports, followed until no new file turns up. All are under the hub's version
    (``/v/<version>/``), which is left out of the paths returned."""
    todo = set(LOADS.findall(call(base + "/")))
    for game in call(base + "/api/games"):
        screens = game["screens"]
        todo |= {screens[role] for role in ("table", "phone", "replay") if role in screens}
        todo |= set(screens["styles"])
    seen: set[str] = set()
    while todo:
        path = todo.pop()
        seen.add(path)
        if path.endswith(".js"):
            text = call(base + path)
            found = {urllib.parse.urljoin(path, rel) for rel in IMPORTS.findall(text)}
            todo |= found - seen
    assert all(VERSION.match(path) for path in seen), sorted(seen)
    return {VERSION.sub("", path) for path in seen}


def test_the_installed_hub_serves_every_page_and_every_file(served) -> None:
    """``/``, ``/setup``, a real table's page and all that ``index.html`` loads answer 200."""
    table = served.create_table({"players": ["Ana", "Bo"], "readers": ["bag-1", "bag-2"]})
    for page in ("/", "/setup", f"/table/{table['id']}", f"/phone/{table['id']}/0", "/archive",
                 "/archive/player/Ana"):
        assert "<main id=\"app\">" in call(served.base + page), page
    files = dashboard_files(served.base)
    assert {"/web/js/app.js", "/web/js/setup.js", "/games/popcorn/table.js",
            "/games/popcorn/phone.js", "/games/b-movies/table.js", "/games/b-movies/bmovies.css",
            "/games/b-movies/phone.js", "/web/css/base.css", "/web/js/archive.js",
            "/web/js/archive_player.js", "/web/vendor/chart.js-4.6.1/chart.umd.min.js",
            "/web/vendor/socket.io-client-4.8.4/socket.io.esm.min.js"} <= files
    games = len(repo_files("companion/games/popcorn/web")) + len(
        repo_files("companion/games/bmovies/web"))
    assert len(files) == len(repo_files("web", "*.js")) + len(repo_files("web", "*.css")) + games


def test_chromium_renders_the_installed_setup_screen_without_a_console_error(
        served, browser) -> None:
    """The setup screen comes up from the installed hub with nothing in the console, and no
    Content Security Policy violation."""
    from tests.web.room import watch_csp

    page = browser.new_page()
    errors: list[str] = []
    watch_csp(page, errors)
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(served.base + "/setup")
    page.get_by_test_id("link").filter(has_text="live").wait_for()
    page.wait_for_load_state("networkidle")
    assert page.locator("main#app .loading").count() == 0
    assert errors == []
    page.close()


def test_the_installed_wheel_builds_a_reader_image(installed) -> None:
    """``reader flash --dry-run`` from the venv compiles the firmware the wheel carries."""
    run = subprocess.run([str(installed.program), "reader", "flash", "--port", "/dev/ttyUSB0",
                          "--reader", "bag-1", "--dry-run"], capture_output=True, text=True,
                         cwd=installed.tmp, timeout=120)
    assert run.returncode == 0, run.stderr
    for source in (ROOT / "firmware").glob("*.py"):
        shown = source.name if source.name == "main.py" else source.stem + ".mpy"
        assert shown in run.stdout

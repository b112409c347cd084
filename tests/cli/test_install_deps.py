"""``scripts/install-deps`` on a Debian whose Python has no ``venv`` bootstrap yet.

Debian's own Python leaves ``ensurepip`` out until ``python3-venv`` is installed, and refuses
``pip install`` into itself (PEP 668). The script must notice the first, install that package
with ``apt-get``, make ``.venv`` and install there. Here ``python3`` on ``PATH`` is a wrapper
around the real interpreter that hides ``ensurepip`` until a fake ``apt-get`` has "installed"
``python3-venv``; everything else (venv, pip, the package) is real.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BASH = shutil.which("bash") or "/bin/bash"
SKIP_COPY = shutil.ignore_patterns(".git", ".venv", "build", "dist", "*.egg-info", "artifacts",
                                   "__pycache__", ".pytest_cache", ".ruff_cache", ".hypothesis")

PYTHON = """#!/bin/sh
# python3 without ensurepip until python3-venv is installed (the marker file)
case "$*" in
  *ensurepip*) [ -e "{marker}" ] || exit 1 ;;
esac
exec "{python}" "$@"
"""
APT_GET = """#!/bin/sh
echo "$*" >> "{log}"
case "$*" in *install*python3-venv*) touch "{marker}" ;; esac
exit 0
"""
OLD_PYTHON = """#!/bin/sh
case "$*" in *version_info*) exit 1 ;; esac
exit 0
"""


def base_python() -> str:
    """The interpreter the test's venv was made from: a real Python 3.11+ with ``venv``."""
    return str(Path(sys.base_prefix) / "bin" / f"python{sys.version_info[0]}."
               f"{sys.version_info[1]}")


def script(folder: Path, name: str, text: str) -> None:
    """Write an executable shell script ``name`` into ``folder``."""
    path = folder / name
    path.write_text(text)
    path.chmod(0o755)


def checkout(tmp: Path) -> Path:
    """A copy of the source tree, links included, as a fresh clone would be."""
    copy = tmp / "popcorn-companion"
    shutil.copytree(ROOT, copy, symlinks=True, ignore=SKIP_COPY)
    return copy


def tools(tmp: Path, *names: str) -> Path:
    """A folder for ``PATH`` holding links to the real ``names`` (and nothing else yet)."""
    folder = tmp / "bin"
    folder.mkdir()
    for name in names:
        (folder / name).symlink_to(shutil.which(name) or f"/usr/bin/{name}")
    return folder


@pytest.mark.slow
def test_python3_venv_comes_from_apt_then_the_package_goes_into_dot_venv(tmp_path) -> None:
    """apt-get is asked for python3-venv, .venv is made from that python3, and the tool runs."""
    source = checkout(tmp_path)
    fake = tools(tmp_path, "dirname", "id", "rm")
    marker, log = tmp_path / "venv-installed", tmp_path / "apt.log"
    script(fake, "python3", PYTHON.format(marker=marker, python=base_python()))
    script(fake, "apt-get", APT_GET.format(log=log, marker=marker))
    script(fake, "sudo", '#!/bin/sh\nexec "$@"\n')
    script(fake, "mosquitto", "#!/bin/sh\nexit 0\n")
    env = {"PATH": str(fake), "HOME": str(Path.home())}  # HOME: pip's cache
    run = subprocess.run([BASH, "scripts/install-deps"], cwd=source, capture_output=True,
                         text=True, timeout=600, env=env)
    assert run.returncode == 0, run.stdout + run.stderr
    version = f"{sys.version_info[0]}.{sys.version_info[1]}"
    assert f"install -y -qq --no-install-recommends python3-venv python{version}-venv" in (
        log.read_text())
    made_with = (source / ".venv" / "pyvenv.cfg").read_text()
    assert f"home = {Path(base_python()).parent}\n" in made_with  # python3 on PATH made it
    tool = subprocess.run([str(source / ".venv" / "bin" / "popcorn-companion"), "--version"],
                          capture_output=True, text=True, check=True)
    assert tool.stdout.startswith("popcorn-companion ")
    again = subprocess.run([BASH, "scripts/install-deps"], cwd=source, capture_output=True,
                           text=True, timeout=600, env=env)
    assert again.returncode == 0 and "making the virtual environment" not in again.stderr
    installs = [line for line in log.read_text().splitlines() if line.startswith("install")]
    assert len(installs) == 1, "the second run asked apt-get again"


def test_a_python_older_than_3_11_is_refused_with_a_message(tmp_path) -> None:
    """Only a too-old python3 on PATH: one line says what is needed, nothing is made."""
    source = checkout(tmp_path)
    fake = tools(tmp_path, "dirname")
    script(fake, "python3", OLD_PYTHON)
    run = subprocess.run([BASH, "scripts/install-deps"], cwd=source, capture_output=True,
                         text=True, timeout=60, env={"PATH": str(fake)})
    assert run.returncode == 1
    assert "needs Python 3.11 or newer" in run.stderr
    assert not (source / ".venv").exists()

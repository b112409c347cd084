"""The dashboard's third-party files are the pinned ones, unmodified, each with its licence.

``web/vendor/README.md`` lists each file with the SHA-256 it had in its package; a file
changed by hand, or another version put under the same name, fails here. Every folder there
carries its licence, and the page loads the files from the hub alone (no CDN).
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

VENDOR = Path(__file__).resolve().parents[1] / "web" / "vendor"
LISTED = re.compile(r"^([0-9a-f]{64})  (\S+)$", re.MULTILINE)


def test_each_vendored_file_has_the_checksum_of_its_package() -> None:
    listed = LISTED.findall((VENDOR / "README.md").read_text(encoding="utf-8"))
    files = {p.relative_to(VENDOR).as_posix() for p in VENDOR.rglob("*")
             if p.is_file() and p.name != "README.md"}
    assert {name for _, name in listed} == files
    for digest, name in listed:
        assert hashlib.sha256((VENDOR / name).read_bytes()).hexdigest() == digest, name


def test_each_library_carries_its_licence_and_names_its_version() -> None:
    for folder in (p for p in VENDOR.iterdir() if p.is_dir()):
        assert (folder / "LICENSE.md").is_file() or (folder / "LICENSE").is_file(), folder
        version = folder.name.rsplit("-", 1)[1]
        for script in folder.glob("*.js"):
            head = script.read_text(encoding="utf-8")[:300]
            assert f"v{version}" in head, script  # the build's own banner names its version

"""The reader firmware's heap after import on real MicroPython: ``.py`` sources against ``.mpy``.

An ESP32 without PSRAM gives MicroPython about 110 KB of heap, so what the firmware's modules
take once imported decides how much is left for the reader's work. This script runs
MicroPython's WebAssembly port (the npm package ``@micropython/micropython-webassembly-pyscript``,
installed with ``npm`` into a cache folder on first use) under Node.js, imports the firmware's
modules from sources and then from ``mpy-cross`` output, and prints ``gc.mem_alloc()`` after
each, side by side. The board modules (``board*.py``) are left out: they import the
hardware's ``machine`` module, which the WebAssembly port lacks.

    python bench/firmware_heap.py [--cache DIR]
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from companion.assets import firmware_dir

PACKAGE = "@micropython/micropython-webassembly-pyscript"
RUNNER = """
import { loadMicroPython } from "%s";
import fs from "fs";
const mp = await loadMicroPython({ stdout: (s) => process.stdout.write(s + "\\n") });
for (const f of process.argv.slice(3)) mp.FS.writeFile("/" + f.split("/").pop(),
                                                        fs.readFileSync(f));
mp.runPython(fs.readFileSync(process.argv[2], "utf8"));
"""
MEASURE = """
import gc, sys
sys.path.insert(0, "/")
gc.collect()
before = gc.mem_alloc()
for name in %r:
    __import__(name)
gc.collect()
print(gc.mem_alloc() - before)
"""


def modules() -> list[Path]:
    """The firmware modules that import without a board."""
    return [p for p in sorted(firmware_dir().glob("*.py"))
            if p.name != "main.py" and not p.name.startswith("board")]


def install(cache: Path) -> Path:
    """The WebAssembly port's module file, installed with npm into ``cache`` if missing."""
    entry = cache / "node_modules" / PACKAGE / "micropython.mjs"
    if not entry.exists():
        if shutil.which("npm") is None:
            sys.exit("firmware_heap: needs Node.js and npm (apt-get install nodejs npm)")
        cache.mkdir(parents=True, exist_ok=True)
        subprocess.run(["npm", "install", "--silent", "--prefix", str(cache), PACKAGE],
                       check=True)
    return entry


def heap(entry: Path, files: list[Path], names: list[str], work: Path) -> int:
    """Bytes of heap in use after importing ``names`` from ``files`` on MicroPython."""
    runner = work / "run.mjs"
    runner.write_text(RUNNER % entry.as_uri())
    script = work / "measure.py"
    script.write_text(MEASURE % (names,))
    run = subprocess.run(["node", str(runner), str(script), *map(str, files)],
                         capture_output=True, text=True, check=True)
    return int(run.stdout.split()[-1])


def compiled(sources: list[Path], work: Path) -> list[Path]:
    """``sources`` compiled by mpy-cross into ``work``."""
    out = []
    for source in sources:
        target = work / (source.stem + ".mpy")
        subprocess.run([sys.executable, "-m", "mpy_cross", "-o", str(target), str(source)],
                       check=True)
        out.append(target)
    return out


def main() -> None:
    """Measure both builds and print them with their ratio."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cache", type=Path,
                        default=Path(tempfile.gettempdir()) / "popcorn-mpwasm",
                        help="where npm installs the WebAssembly port")
    args = parser.parse_args()
    entry = install(args.cache)
    sources = modules()
    names = [p.stem for p in sources]
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        as_py = heap(entry, sources, names, work)
        as_mpy = heap(entry, compiled(sources, work), names, work)
    print(json.dumps({"modules": len(names), "heap_py_bytes": as_py, "heap_mpy_bytes": as_mpy,
                      "ratio": round(as_mpy / as_py, 2)}))
    print(f"{len(names)} modules: {as_py / 1024:.1f} KB of heap as .py, "
          f"{as_mpy / 1024:.1f} KB as .mpy ({as_mpy / as_py:.0%})")


if __name__ == "__main__":
    main()

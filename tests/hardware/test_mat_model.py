"""The cinema mat's model (``hardware/mat/mat.scad``) renders with OpenSCAD to a closed,
manifold STL whose size follows its parameters; its wiring diagram is well-formed XML.

The rendering tests need the ``openscad`` command (Debian's ``openscad``, which
``scripts/install-deps --test`` installs). Without it they are skipped on a workstation and
fail in CI (the ``CI`` environment variable set), so that a CI machine never passes them by
skipping.
"""

from __future__ import annotations

import os
import re
import shutil
import struct
import subprocess
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[2]
MAT = ROOT / "hardware" / "mat"
SCAD = MAT / "mat.scad"

IN_CI = bool(os.environ.get("CI"))
needs_openscad = pytest.mark.skipif(
    shutil.which("openscad") is None and not IN_CI,
    reason="openscad is not installed (scripts/install-deps --test installs it; "
           "apt-get install openscad)")

Vertex = tuple[float, float, float]
Triangle = tuple[Vertex, Vertex, Vertex]


def scad_parameter(name: str) -> float:
    """The default value of a numeric parameter at the top of ``mat.scad``."""
    match = re.search(rf"^{name}\s*=\s*([-0-9.]+)\s*;", SCAD.read_text(encoding="utf-8"),
                      re.MULTILINE)
    assert match, f"no numeric parameter {name} in {SCAD.name}"
    return float(match.group(1))


def render(tmp: Path, name: str, *defines: str) -> Path:
    """Render ``mat.scad`` to ``tmp/name`` with ``-D`` settings; fail on an OpenSCAD error."""
    openscad = shutil.which("openscad")
    if openscad is None:  # only in CI: the marker skips elsewhere
        pytest.fail("openscad is missing and CI is set: scripts/install-deps --test installs it")
    out = tmp / name
    args = [openscad, "-o", str(out)]
    for define in defines:
        args += ["-D", define]
    env = {key: value for key, value in os.environ.items() if key != "DISPLAY"}
    run = subprocess.run([*args, str(SCAD)], capture_output=True, text=True, timeout=600,
                         env=env, check=False)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "WARNING" not in run.stderr and "ERROR" not in run.stderr, run.stderr
    assert out.is_file() and out.stat().st_size > 0, run.stderr
    return out


def read_stl(path: Path) -> list[Triangle]:
    """The triangles of an STL file, ASCII or binary."""
    data = path.read_bytes()
    if len(data) >= 84:
        (count,) = struct.unpack_from("<I", data, 80)
        if len(data) == 84 + 50 * count:  # binary: a 50-byte record per triangle
            triangles = []
            for i in range(count):
                values = struct.unpack_from("<12f", data, 84 + 50 * i)
                a, b, c = (tuple(values[k:k + 3]) for k in (3, 6, 9))
                triangles.append((a, b, c))
            return triangles
    text = data.decode("ascii")
    assert text.lstrip().startswith("solid"), "neither a binary nor an ASCII STL"
    vertices = [tuple(float(v) for v in match.groups()) for match in re.finditer(
        r"vertex\s+(\S+)\s+(\S+)\s+(\S+)", text)]
    assert len(vertices) % 3 == 0, "an ASCII facet without three vertices"
    return [(vertices[i], vertices[i + 1], vertices[i + 2]) for i in range(0, len(vertices), 3)]


def manifold_problems(triangles: list[Triangle]) -> list[str]:
    """What keeps the mesh from being a closed 2-manifold: each edge must be used by exactly
    two triangles, once in each direction. An empty list means none."""
    problems = []
    directed: Counter[tuple[Vertex, Vertex]] = Counter()
    for tri in triangles:
        if len(set(tri)) < 3:
            problems.append(f"degenerate triangle {tri}")
            continue
        for a, b in ((tri[0], tri[1]), (tri[1], tri[2]), (tri[2], tri[0])):
            directed[(a, b)] += 1
    for (a, b), count in directed.items():
        if count != 1:
            problems.append(f"edge {a}-{b} used {count} times in the same direction")
        if directed.get((b, a), 0) != 1:
            problems.append(f"edge {a}-{b} has no single opposite twin")
    return problems[:20]


def bounding_box(triangles: list[Triangle]) -> tuple[Vertex, Vertex]:
    """The lowest and highest corner of the triangles' box."""
    xs, ys, zs = zip(*(p for tri in triangles for p in tri), strict=True)
    return (min(xs), min(ys), min(zs)), (max(xs), max(ys), max(zs))


def signed_volume(triangles: list[Triangle]) -> float:
    """The enclosed volume, positive when the triangles face outwards."""
    total = 0.0
    for (ax, ay, az), (bx, by, bz), (cx, cy, cz) in triangles:
        total += ax * (by * cz - bz * cy) - ay * (bx * cz - bz * cx) + az * (bx * cy - by * cx)
    return total / 6


def expected_size(board_width: float, board_depth: float) -> Vertex:
    """The mat's outer size as ``mat.scad`` defines it: the board, its play and the lip on
    each side; the carrier's thickness plus the lip's height."""
    clear, wall = scad_parameter("board_clear"), scad_parameter("wall")
    return (board_width + 2 * clear + 2 * wall, board_depth + 2 * clear + 2 * wall,
            scad_parameter("mat_t") + scad_parameter("board_t"))


@pytest.fixture(scope="module")
def default_mesh(tmp_path_factory: pytest.TempPathFactory) -> list[Triangle]:
    """The mat rendered once with its default parameters."""
    return read_stl(render(tmp_path_factory.mktemp("mat"), "mat.stl"))


@needs_openscad
def test_default_mat_is_a_closed_manifold(default_mesh: list[Triangle]) -> None:
    """With its defaults the mat renders to a non-empty mesh in which every edge is shared
    by exactly two triangles of opposite orientation, enclosing a positive volume."""
    assert len(default_mesh) > 100
    assert manifold_problems(default_mesh) == []
    assert signed_volume(default_mesh) > 0


@needs_openscad
def test_default_mat_has_the_size_its_parameters_give(default_mesh: list[Triangle]) -> None:
    """The bounding box starts at the origin and measures the board plus its play and lip,
    by the carrier's thickness plus the lip's height."""
    low, high = bounding_box(default_mesh)
    size = expected_size(scad_parameter("board_width"), scad_parameter("board_depth"))
    assert low == pytest.approx((0, 0, 0), abs=1e-3)
    assert high == pytest.approx(size, abs=1e-3)


@needs_openscad
def test_a_wider_board_widens_the_mat_only(default_mesh: list[Triangle],
                                           tmp_path: Path) -> None:
    """``-D board_width=...`` makes the mat exactly that much wider, leaves its depth and
    height alone, and the wider mat is still a closed manifold."""
    width = scad_parameter("board_width") + 37.5
    wider = read_stl(render(tmp_path, "wide.stl", f"board_width={width}"))
    assert manifold_problems(wider) == []
    (_, high), (_, default_high) = bounding_box(wider), bounding_box(default_mesh)
    assert high == pytest.approx(expected_size(width, scad_parameter("board_depth")), abs=1e-3)
    assert high[0] - default_high[0] == pytest.approx(37.5, abs=1e-3)
    assert high[1:] == pytest.approx(default_high[1:], abs=1e-3)


@needs_openscad
def test_a_print_piece_is_a_closed_manifold(tmp_path: Path) -> None:
    """A piece cut to the print bed (``part="tile"``) is a manifold no larger than the bed,
    starting where its column and row say."""
    piece = read_stl(render(tmp_path, "tile.stl", 'part="tile"', "tile=[1,0]",
                            "print_bed=[200,180]"))
    assert manifold_problems(piece) == []
    low, high = bounding_box(piece)
    assert low == pytest.approx((200, 0, 0), abs=1e-3)
    assert high[0] - low[0] <= 200 + 1e-3 and high[1] - low[1] <= 180 + 1e-3


def test_stl_reader_reads_binary_and_checks_edges(tmp_path: Path) -> None:
    """The test's own STL reader reads a binary tetrahedron as a closed manifold, and finds
    the open edges once a face is dropped."""
    points = [(0.0, 0.0, 0.0), (1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0)]
    faces = [(0, 2, 1), (0, 1, 3), (0, 3, 2), (1, 2, 3)]
    records = b"".join(struct.pack("<12fH", 0, 0, 0, *points[a], *points[b], *points[c], 0)
                       for a, b, c in faces)
    path = tmp_path / "tetra.stl"
    path.write_bytes(b"\0" * 80 + struct.pack("<I", len(faces)) + records)
    triangles = read_stl(path)
    assert len(triangles) == 4 and manifold_problems(triangles) == []
    assert signed_volume(triangles) == pytest.approx(1 / 6)
    assert manifold_problems(triangles[:3])


def test_wiring_diagram_is_well_formed_svg() -> None:
    """``wiring.svg`` parses as XML, is an SVG document, and labels every zone's chip-select
    and reset line and the shared bus."""
    root = ET.parse(MAT / "wiring.svg").getroot()
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    text = " ".join("".join(node.itertext()) for node in root.iter(
        "{http://www.w3.org/2000/svg}text"))
    for label in ("SCK", "MOSI", "MISO", "3V3", "GND", *(f"CS{z}" for z in range(4)),
                  *(f"RST{z}" for z in range(4))):
        assert label in text, label

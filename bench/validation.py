"""Request-body validation: the candidates for the hub's typed models, side by side.

Run ``python bench/validation.py [--n N]``. Each candidate describes the same bodies the hub
takes (a table's creation, one move, a batch of 20 moves, a whole tag registry of 60 pawns,
an enrollment) as typed models, and validates real bodies (a table of ``tests/conftest.py``,
the moves of a played game of ``docs/examples/game-4p.jsonl``, a registry as the hub
exports it) N times each, from the raw bytes a request carries. The figures are the median
of 5 runs, in microseconds per request, and the memory each library adds to the process
(its import and its models, measured in a fresh interpreter: resident set growth).

Candidates: pydantic v2 (``model_validate_json``) and msgspec (``msgspec.json.decode`` with
a type), both of which also give each model's JSON Schema (what the OpenAPI document is
built from), and, for scale, ``json.loads`` plus the hub's own hand checks of a body
(:func:`companion.hub.bodies.nesting_exceeds`), the floor any of them adds to. The last
column is what the hub does now: that floor, then :func:`companion.hub.bodies.decode` with
the hub's own models (:mod:`companion.hub.models`, ``msgspec.convert``).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
import types
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

PYDANTIC_MODELS = '''
from typing import Any
from pydantic import BaseModel, ConfigDict, Field

class CreateTable(BaseModel):
    model_config = ConfigDict(extra="allow")
    players: list[str] = Field(min_length=2, max_length=6)
    readers: list[str]
    game: str = "popcorn"
    first_player: int = 0
    name: Any = None
    deal_seed: int | None = None
    hints: bool = True
    options: dict[str, Any] | None = None

class Move(BaseModel):
    model_config = ConfigDict(extra="allow")
    move: dict[str, Any] | None = None
    moves: list[dict[str, Any]] | None = Field(default=None, min_length=1, max_length=64)
    forced: bool = False
    token: str | None = None

class Piece(BaseModel):
    uid: str
    game: str
    kind: str
    id: int
    value: Any = None

class Registry(BaseModel):
    format: str
    version: int
    pieces: list[Piece]

class TagsImport(BaseModel):
    registry: Registry
    admin_pin: str | None = None

class Enroll(BaseModel):
    model_config = ConfigDict(extra="allow")
    game: str | None = None
    kind: str | None = None
    value: Any = None
    next: bool | None = None
    pick: bool | None = None
    admin_pin: str | None = None
'''

MSGSPEC_MODELS = '''
from typing import Annotated, Any
import msgspec

class CreateTable(msgspec.Struct):
    players: Annotated[list[str], msgspec.Meta(min_length=2, max_length=6)]
    readers: list[str]
    game: str = "popcorn"
    first_player: int = 0
    name: Any = None
    deal_seed: int | None = None
    hints: bool = True
    options: dict[str, Any] | None = None

class Move(msgspec.Struct):
    move: dict[str, Any] | None = None
    moves: Annotated[list[dict[str, Any]], msgspec.Meta(min_length=1, max_length=64)] | None = None
    forced: bool = False
    token: str | None = None

class Piece(msgspec.Struct):
    uid: str
    game: str
    kind: str
    id: int
    value: Any = None

class Registry(msgspec.Struct):
    format: str
    version: int
    pieces: list[Piece]

class TagsImport(msgspec.Struct):
    registry: Registry
    admin_pin: str | None = None

class Enroll(msgspec.Struct):
    game: str | None = None
    kind: str | None = None
    value: Any = None
    next: bool | None = None
    pick: bool | None = None
    admin_pin: str | None = None
'''


def real_bodies() -> dict[str, tuple[str, bytes]]:
    """Each bench body: its model's name and the bytes a request carries."""
    lines = (ROOT / "docs/examples/game-4p.jsonl").read_text().splitlines()
    moves = [json.loads(line) for line in lines[1:]]
    colors = ["white"] * 12 + ["blue", "red", "green", "yellow"] * 12
    pieces = [{"uid": f"04a1b2c3d4{i:04x}", "game": "popcorn", "kind": "pawn", "id": i,
               "value": colors[i]} for i in range(60)]
    bodies: dict[str, tuple[str, Any]] = {
        "create a table": ("CreateTable", {"players": ["Ana", "Bob"],
                                           "readers": ["bag-1", "bag-2"], "deal_seed": 4}),
        "one move": ("Move", {"move": moves[10]}),
        "a batch of 20 moves": ("Move", {"moves": moves[:20], "forced": True}),
        "a registry of 60 pawns": ("TagsImport", {"registry": {
            "format": "companion-tags", "version": 3, "pieces": pieces}}),
        "an enrollment": ("Enroll", {"game": "b-movies", "kind": "token", "value": 1,
                                     "admin_pin": "123456"}),
    }
    return {name: (model, json.dumps(body).encode()) for name, (model, body) in bodies.items()}


def _module(name: str, source: str) -> dict[str, Any]:
    """The bench's own models (above) as a module's names (typing needs a real module)."""
    module = types.ModuleType(name)
    sys.modules[name] = module
    exec(source, module.__dict__)  # noqa: S102 - the bench's own source
    return module.__dict__


def candidates() -> dict[str, Any]:
    """Each candidate's validator: ``(model name, body bytes) -> validated value``."""
    import msgspec

    from companion.hub import models
    from companion.hub.bodies import MAX_DEPTH, decode, nesting_exceeds

    pyd, msg = _module("bench_pydantic", PYDANTIC_MODELS), _module("bench_msgspec", MSGSPEC_MODELS)
    hub_models = {"CreateTable": models.CreateTable, "Move": models.MoveBody,
                  "TagsImport": models.TagsImport, "Enroll": models.EnrollBody}
    decoders = {name: msgspec.json.Decoder(msg[name])
                for name in ("CreateTable", "Move", "TagsImport", "Enroll")}

    def by_hand(model: str, data: bytes) -> Any:
        value = json.loads(data)
        assert isinstance(value, dict) and not nesting_exceeds(value, MAX_DEPTH)
        return value

    return {
        "json + hub checks": by_hand,
        "pydantic v2": lambda model, data: pyd[model].model_validate_json(data),
        "msgspec": lambda model, data: decoders[model].decode(data),
        "the hub: json + decode": lambda model, data: decode(hub_models[model],
                                                             by_hand(model, data)),
    }


def per_request(check: Any, model: str, data: bytes, n: int) -> float:
    """The median over 5 runs of µs per validation."""
    runs = []
    for _ in range(5):
        start = time.perf_counter()
        for _ in range(n):
            check(model, data)
        runs.append((time.perf_counter() - start) / n * 1e6)
    return statistics.median(runs)


MEMORY = '''
import sys, types
def rss():
    status = open("/proc/self/status").read().split("VmRSS:")[1]
    return int(status.split()[0])
before = rss()
module = types.ModuleType("models")
sys.modules["models"] = module
exec(sys.argv[1], module.__dict__)
print((rss() - before) / 1024)
'''


def memory_mib(models: str) -> float:
    """Resident memory (MiB) that importing a library and building its models adds."""
    out = subprocess.run([sys.executable, "-c", MEMORY, models], capture_output=True,
                         text=True, check=True)
    return float(out.stdout)


def main() -> int:
    """Print the side-by-side table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=2000, help="validations per run")
    args = parser.parse_args()
    checks = candidates()
    names = list(checks)
    print(f"{'body':24} {'bytes':>6} " + " ".join(f"{n:>18}" for n in names))
    for body, (model, data) in real_bodies().items():
        for check in checks.values():  # each one must take every real body
            check(model, data)
        times = [per_request(checks[name], model, data, args.n) for name in names]
        print(f"{body:24} {len(data):>6} " + " ".join(f"{t:>15.1f} µs" for t in times))
    print(f"{'memory (import + models)':31} {'-':>15}    "
          f"{memory_mib(PYDANTIC_MODELS):>12.1f} MiB {memory_mib(MSGSPEC_MODELS):>14.1f} MiB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

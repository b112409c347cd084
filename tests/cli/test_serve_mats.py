"""``serve --mat ID``: the hub trusts a cinema mat (protocol version 2) from the start, as
``--reader`` does a bag reader, and knows it as a mat before any table binds it (issue 40)."""

from __future__ import annotations

from pathlib import Path

from companion.hub.remote import ServeProcess
from companion.kit.http import HttpError, call


def test_serve_trusts_the_mats_it_is_given(tmp_path: Path) -> None:
    """The reader list shows each ``--mat`` as a mat and each ``--reader`` as a bag reader;
    a table that names a mat as a bag reader is refused, one that binds it as a mat is made."""
    server = ServeProcess(tmp_path / "hub.db", readers=["bag-1", "bag-2"],
                          mats=["mat-1", "mat-2"]).start()
    try:
        kinds = {r["reader"]: r["kind"] for r in call(server.base + "/api/readers")}
        assert kinds == {"bag-1": "bag", "bag-2": "bag", "mat-1": "mat", "mat-2": "mat"}
        body = {"players": ["Ana", "Bob"], "readers": ["mat-1", "bag-2"]}
        try:
            server.create_table(body)
        except HttpError as exc:
            assert exc.status == 400
        else:
            raise AssertionError("a mat was taken as a bag reader")
        table = server.create_table({**body, "readers": ["bag-1", "bag-2"],
                                     "mats": ["mat-1", "mat-2"]})
        bound = {r["reader"]: r["seat"] for r in call(server.base + "/api/readers")}
        assert table["id"] and bound["mat-1"] == 0 and bound["mat-2"] == 1
    finally:
        server.stop()

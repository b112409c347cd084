"""Numbers in a request's text that ``int()`` alone cannot take: twenty digits (past what
SQLite stores) and five thousand (past Python's limit for reading an int). Each was a
``500 INTERNAL_ERROR`` that fuzzing the OpenAPI document found (``tests/hub/fuzzing.py``);
each is now the route's own 400, and the sane numbers still work."""

from __future__ import annotations

import pytest

from companion.hub.archive import MAX_OFFSET

HUGE = "9" * 5000
"""More digits than ``int()`` reads."""
LONG = "99999999999999999999"
"""More than SQLite's largest integer."""


@pytest.mark.parametrize("query", [f"?offset={LONG}", f"?offset={HUGE}", f"?limit={HUGE}",
                                   f"?limit={LONG}", f"?offset={MAX_OFFSET + 1}"])
def test_a_page_of_the_archive_past_any_number_is_a_bad_request(api, query: str) -> None:
    _, client, _ = api
    answer = client.get(f"/api/archive{query}")
    assert answer.status_code == 400, answer.json
    assert answer.json["code"] == "BAD_REQUEST" and answer.json["params"] == {
        "field": query[1:].split("=")[0]}


def test_the_largest_offset_is_an_empty_page(api) -> None:
    _, client, _ = api
    answer = client.get(f"/api/archive?offset={MAX_OFFSET}&limit=001")
    assert answer.status_code == 200, answer.json
    assert answer.json["games"] == [] and answer.json["offset"] == MAX_OFFSET
    assert answer.json["limit"] == 1


@pytest.mark.parametrize("route", ["link", "token"])
def test_a_seat_of_five_thousand_digits_is_no_seat(api, route: str) -> None:
    hub, client, table_id = api
    pin = {"X-Table-Pin": "000000"}  # the seat is read before the PIN
    answer = client.post(f"/api/tables/{table_id}/players/{HUGE}/{route}", headers=pin)
    assert answer.status_code == 400 and answer.json["code"] == "BAD_SEAT", answer.json
    assert len(answer.json["message"]) < 200


@pytest.mark.parametrize(("query", "code"), [
    (f"gains?player={HUGE}", "BAD_PLAYER"), (f"suggestion?player={LONG}", "BAD_PLAYER"),
    (f"reach?player=0&slot={HUGE}&seat=0", "BAD_PLACE"),
    (f"reach?player=0&slot=0&seat={HUGE}", "BAD_PLACE")])
def test_popcorns_readings_refuse_a_number_too_long(api, query: str, code: str) -> None:
    _, client, table_id = api
    answer = client.get(f"/api/tables/{table_id}/{query}")
    assert answer.status_code == 400 and answer.json["code"] == code, answer.json


def test_a_seat_with_leading_zeros_is_still_that_seat(api) -> None:
    _, client, table_id = api
    answer = client.get(f"/api/tables/{table_id}/gains?player=0001")
    assert answer.status_code == 200 and answer.json["player"] == 1, answer.json

"""Many rows' values read at once (scoresheet/json_rows.py): what ``values_list`` reads, the
JSON columns parsed a chunk at a time, on SQLite and on PostgreSQL (jsonb's text)."""

from decimal import Decimal

import pytest

from scoresheet import json_rows
from scoresheet.models import Hand

pytestmark = pytest.mark.django_db


def stored_hand(sheet, number: int, **fields) -> Hand:
    values = {
        "dealer": 0,
        "taker": 1,
        "contract": "garde",
        "bouts": 2,
        "points": Decimal("49"),
        "scores": [-46, 138, -46, -46],
    }
    return Hand.objects.create(sheet=sheet, position=number, **(values | fields))


def test_read_gives_what_values_list_gives_across_chunks(sheet4):
    """JSON columns parsed a chunk at once, every other value as Django reads it; the rows in
    the query's order, whatever the chunk size."""
    stored_hand(sheet4, 1, poignees={"2": "double"}, miseres={"0": 1})
    stored_hand(sheet4, 2, passed=True, taker=None, contract="", bouts=None, points=None)
    stored_hand(sheet4, 3, points=Decimal("40.5"), poignees={"10": "simple", "3": "triple"})
    stored_hand(sheet4, 4, scores=[])
    stored_hand(sheet4, 5, dealer=3, petit_au_bout="defence")
    names = ("id", "position", "scores", "dealer", "passed", "points", "poignees", "miseres")
    hands = sheet4.hands.order_by("-position")
    expected = list(hands.values_list(*names))
    assert [row[1] for row in expected] == [5, 4, 3, 2, 1]
    for chunk in (1, 2, 5, 2000):
        assert list(json_rows.read(hands, names, chunk=chunk)) == expected
    assert list(json_rows.read(hands, ("position", "dealer"))) == list(
        hands.values_list("position", "dealer")
    )


def test_read_gives_each_row_its_own_objects(sheet4):
    for number in (1, 2):
        stored_hand(sheet4, number)
    first, second = json_rows.read(sheet4.hands.order_by("position"), ("poignees", "scores"))
    first[0]["1"] = "simple"
    first[1].append(0)
    assert second == ({}, [-46, 138, -46, -46])

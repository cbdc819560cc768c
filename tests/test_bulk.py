"""Many rows written at once (scoresheet/bulk.py): what is written is what the ORM reads back,
on SQLite and on PostgreSQL; only the rows given change; one statement whatever their number."""

import uuid
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from scoresheet import bulk
from scoresheet.models import ClubResult, Hand, Seat
from tests.test_clubs import club  # noqa: F401  (the fixture)

pytestmark = pytest.mark.django_db


def test_inserted_rows_read_back_as_saved(sheet4):
    """Every kind of column (UUID, Decimal, JSON, date, bool, None) as a save writes it."""
    key = uuid.uuid4()
    hand = Hand(
        position=1,
        dealer=2,
        key=key,
        taker=1,
        partner=None,
        contract="garde",
        bouts=2,
        points=Decimal("40.5"),
        petit_au_bout="",
        poignees={"1": "simple"},
        chelem="",
        miseres={},
        scores=[-66, 198, -66, -66],
    )
    names = ("sheet", "position", "dealer", "key", "passed", "taker", "partner", "contract")
    names += ("bouts", "points", "petit_au_bout", "poignees", "chelem", "defence_chelem")
    names += ("miseres", "created", "version", "scores")
    hand.sheet = sheet4
    bulk.insert(Hand, names, bulk.Columns(Hand, names).values([hand]))
    stored = Hand.objects.get(key=key)
    # auto_now_add stamped it, as a save does.
    assert hand.created is not None
    for name in names:
        assert getattr(stored, name) == getattr(hand, name), name
    assert stored.points == Decimal("40.5")


def test_a_seat_gets_its_name_key_as_a_save_gives_it(sheet4):
    seat = Seat(sheet=sheet4, position=4, name="Élodie")
    bulk.insert(
        Seat,
        ("sheet", "position", "name", "key"),
        bulk.Columns(Seat, ("sheet", "position", "name", "key")).values([seat]),
    )
    assert Seat.objects.get(sheet=sheet4, position=4).key == "élodie"


def test_update_changes_the_rows_given_and_no_other(club):  # noqa: F811
    rows = list(ClubResult.objects.filter(club=club).order_by("pk"))
    first, second, *others = rows
    before = {row.pk: (row.points, row.mu, row.record) for row in others}
    changed = bulk.update(
        ClubResult,
        ("points", "mu", "record"),
        [(first.pk, -5, None, {"best": [1, 2]}), (second.pk, 7, 1.5, {})],
    )
    assert changed == 2
    first.refresh_from_db()
    second.refresh_from_db()
    assert (first.points, first.mu, first.record) == (-5, None, {"best": [1, 2]})
    assert (second.points, second.mu, second.record) == (7, 1.5, {})
    for row in ClubResult.objects.filter(pk__in=before):
        assert (row.points, row.mu, row.record) == before[row.pk]


def test_one_statement_whatever_the_rows_and_none_for_none(club):  # noqa: F811
    rows = list(ClubResult.objects.filter(club=club).values_list("pk", "points"))
    with CaptureQueriesContext(connection) as captured:
        assert bulk.update(ClubResult, ("points",), []) == 0
    assert len(captured) == 0
    counts = []
    for size in (1, len(rows)):
        with CaptureQueriesContext(connection) as captured:
            bulk.update(ClubResult, ("points",), [(pk, points + 1) for pk, points in rows[:size]])
        counts.append(len(captured))
    assert counts == [1, 1]
    assert len(rows) > 1


def test_a_change_of_rules_writes_the_scores_beside_the_old_ones_on_postgresql(sheet4):
    """PostgreSQL keeps half of each page of hands free (migration 0020): a change of rules
    writes each hand's new scores in its own page, a heap-only tuple that no index has to
    follow. SQLite has no such setting: there the scores change all the same."""
    from scoresheet import scoring
    from scoresheet.sheets import writes

    hand = {"taker": 1, "contract": "garde", "bouts": 2, "points": 49}
    played = [(None, scoring.Hand(seats=4, **hand)) for _ in range(60)]
    sheet = writes.create_sheet("Long", ["Ana", "Ben", "Chloé", "Dan"], 0, hands=played)
    # docs/rules.md §2: a garde with 2 bouts made by 8 is (25 + 8) × 2 = 66 a defender; rounded
    # to 10 (§6.2), 8 is 10: (25 + 10) × 2 = 70.
    assert sheet.hands.first().scores == [-66, 198, -66, -66]
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(
                "SELECT reloptions FROM pg_class WHERE oid = 'scoresheet_hand'::regclass"
            )
            assert cursor.fetchone()[0] == ["fillfactor=50"]
        rules = scoring.Rules.from_data({**scoring.FFT.to_data(), "rounding": 10})
        writes.change_rules(sheet.token, rules)
        assert {tuple(scores) for scores in sheet.hands.values_list("scores", flat=True)} == {
            (-70, 210, -70, -70)
        }
        if connection.vendor == "postgresql":
            cursor.execute(
                "SELECT pg_stat_get_xact_tuples_updated(oid),"
                " pg_stat_get_xact_tuples_hot_updated(oid)"
                " FROM pg_class WHERE oid = 'scoresheet_hand'::regclass"
            )
            assert cursor.fetchone() == (60, 60)

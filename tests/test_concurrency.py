"""No hand is ever lost: double submissions, phones saving at once, corrections that collide.

The threaded tests need a database that lets two writers work at once: PostgreSQL. SQLite
serialises writers (IMMEDIATE transactions), so there the same guarantees hold trivially;
CI runs this module against both.
"""

import threading
import uuid

import pytest
from django.db import connection, connections
from django.test import Client
from django.urls import reverse

from scoresheet.models import Hand
from tests.reading import totals_of

GARDE = {"taker": "0", "contract": "garde", "bouts": "2", "points": "49"}

postgresql_only = pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="two writers at once need PostgreSQL; SQLite serialises them",
)


def at_once(*calls):
    """Run the calls in threads released together; return their results in order."""
    barrier = threading.Barrier(len(calls))
    results = [None] * len(calls)

    def run(index, call):
        try:
            barrier.wait(timeout=10)
            results[index] = call()
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    return results


@pytest.mark.django_db
def test_a_later_correction_does_not_overwrite_an_earlier_one(client, sheet4):
    client.post(reverse("hand_new", args=[sheet4.token]), {"key": str(uuid.uuid4()), **GARDE})
    hand = sheet4.hands.get()
    edit = reverse("hand_edit", args=[sheet4.token, 1])
    # Two phones open the correction form: both start from version 1.
    first, second = Client(), Client()
    for phone in (first, second):
        assert 'name="version" value="1"' in phone.get(edit).content.decode()
    base = {"key": str(hand.key), "version": "1", **GARDE}
    assert first.post(edit, {**base, "points": "60"}).status_code == 302
    response = second.post(edit, {**base, "points": "30"})
    page = response.content.decode()
    assert response.status_code == 200
    assert "This hand was changed on another phone meanwhile" in page
    # The second phone is shown the hand as the first phone saved it.
    assert 'value="60"' in page
    assert 'name="version" value="2"' in page
    hand.refresh_from_db()
    assert (hand.points, hand.version) == (60, 2)


@pytest.mark.django_db
def test_a_correction_from_the_current_version_goes_through(client, sheet4):
    client.post(reverse("hand_new", args=[sheet4.token]), {"key": str(uuid.uuid4()), **GARDE})
    hand = sheet4.hands.get()
    edit = reverse("hand_edit", args=[sheet4.token, 1])
    for version, points in [(1, "60"), (2, "61"), (3, "62")]:
        data = {"key": str(hand.key), "version": str(version), **GARDE, "points": points}
        assert client.post(edit, data).status_code == 302
    hand.refresh_from_db()
    assert (hand.points, hand.version) == (62, 4)


@postgresql_only
@pytest.mark.django_db(transaction=True)
def test_two_phones_saving_at_the_same_moment_store_both(sheet4):
    url = reverse("hand_new", args=[sheet4.token])
    hands = [{"key": str(uuid.uuid4()), **GARDE, "taker": str(seat)} for seat in range(4)]
    statuses = at_once(*[lambda data=data: Client().post(url, data).status_code for data in hands])
    assert statuses == [302] * 4
    assert sheet4.hands.count() == 4
    # Numbered in the order they were stored; every total is the sum of its column.
    assert sorted(h.taker for h in sheet4.hands.all()) == [0, 1, 2, 3]
    assert totals_of(sheet4) == (0, 0, 0, 0)


@postgresql_only
@pytest.mark.django_db(transaction=True)
def test_the_same_submission_sent_twice_at_once_stores_one_hand(sheet4):
    url = reverse("hand_new", args=[sheet4.token])
    data = {"key": str(uuid.uuid4()), **GARDE}
    statuses = at_once(*[lambda: Client().post(url, data).status_code] * 3)
    assert statuses == [302] * 3
    assert sheet4.hands.count() == 1


@postgresql_only
@pytest.mark.django_db(transaction=True)
def test_two_phones_correcting_one_hand_at_once(sheet4):
    Client().post(reverse("hand_new", args=[sheet4.token]), {"key": str(uuid.uuid4()), **GARDE})
    hand = sheet4.hands.get()
    edit = reverse("hand_edit", args=[sheet4.token, 1])
    base = {"key": str(hand.key), "version": "1", **GARDE}
    statuses = at_once(
        lambda: Client().post(edit, {**base, "points": "60"}).status_code,
        lambda: Client().post(edit, {**base, "points": "30"}).status_code,
    )
    # One correction is saved; the other phone is shown it (200) instead of overwriting it.
    assert sorted(statuses) == [200, 302]
    hand.refresh_from_db()
    assert hand.version == 2
    assert hand.points in (60, 30)
    assert Hand.objects.count() == 1


@postgresql_only
@pytest.mark.django_db(transaction=True)
def test_two_tables_of_one_club_saving_at_once():
    """Two sessions of one club, the older one's places moving (it re-rates the newer one)
    while the newer one saves: every hand is kept and the club's stored results are what a
    recount from scratch gives."""
    from scoresheet import club_results, club_writes

    club = club_writes.create_club("Jeudi")
    older = club_writes.start_session(club, "Mardi", ["Ana", "Ben", "Chloé", "Dan"], 0)
    newer = club_writes.start_session(club, "Jeudi", ["Ana", "Ben", "Élise", "Fanny"], 0)
    for taker in range(4):
        taken = {**GARDE, "taker": str(taker)}
        statuses = at_once(
            *[
                lambda sheet=sheet, data=taken: (
                    Client()
                    .post(
                        reverse("hand_new", args=[sheet.token]), {"key": str(uuid.uuid4()), **data}
                    )
                    .status_code
                )
                for sheet in (older, newer)
            ]
        )
        assert statuses == [302, 302]
    assert [older.hands.count(), newer.hands.count()] == [4, 4]
    assert not club_results.recount(club)

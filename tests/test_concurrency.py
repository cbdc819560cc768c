"""No hand is ever lost, and every race has one outcome: double submissions, phones saving at
once, corrections that collide; and the club's races: two sessions started at once
with a new name, a double tap on "Add player", renames that collide, a merge and a rename, a
session attached twice, two confirmations of a change of rules from one revision.

The threaded tests run on SQLite and PostgreSQL alike (``concurrent_db``: on SQLite a file
database opened as the app opens it, where IMMEDIATE transactions queue the writers; on
PostgreSQL they really run at once and meet at the row locks). Each checks the expected winner,
what the others are told, that nothing answers a 500, and the rows stored.
"""

import threading
import uuid

import pytest
from django.db import connections
from django.test import Client
from django.urls import reverse

from scoresheet import scoring
from scoresheet.clubs import results as club_results
from scoresheet.clubs import writes as club_writes
from scoresheet.models import Club, ClubPlayer, ClubSheet, Hand, Sheet
from scoresheet.sheets import writes
from tests.reading import totals_of

GARDE = {"taker": "0", "contract": "garde", "bouts": "2", "points": "49"}


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


def test_two_phones_saving_at_the_same_moment_store_both(concurrent_db, sheet4):
    url = reverse("hand_new", args=[sheet4.token])
    hands = [{"key": str(uuid.uuid4()), **GARDE, "taker": str(seat)} for seat in range(4)]
    statuses = at_once(*[lambda data=data: Client().post(url, data).status_code for data in hands])
    assert statuses == [302] * 4
    assert sheet4.hands.count() == 4
    # Numbered in the order they were stored; every total is the sum of its column.
    assert sorted(h.taker for h in sheet4.hands.all()) == [0, 1, 2, 3]
    assert totals_of(sheet4) == (0, 0, 0, 0)


def test_the_same_submission_sent_twice_at_once_stores_one_hand(concurrent_db, sheet4):
    url = reverse("hand_new", args=[sheet4.token])
    data = {"key": str(uuid.uuid4()), **GARDE}
    statuses = at_once(*[lambda: Client().post(url, data).status_code] * 3)
    assert statuses == [302] * 3
    assert sheet4.hands.count() == 1


def test_two_phones_correcting_one_hand_at_once(concurrent_db, sheet4):
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


def test_two_tables_of_one_club_saving_at_once(concurrent_db):
    """Two sessions of one club, the older one's places moving (the newer one's ratings wait
    to be rated again) while the newer one saves: every hand is kept and the club's stored
    results are what a recount from scratch gives."""
    club = club_writes.create_club("Jeudi").club
    older = club_writes.start_sheet(club, "Mardi", ["Ana", "Ben", "Chloé", "Dan"], 0).sheet
    newer = club_writes.start_sheet(club, "Jeudi", ["Ana", "Ben", "Élise", "Fanny"], 0).sheet
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
    # The ratings the older one's hands left waiting were caught up once each request was
    # answered: every stored rating is a recount's.
    club.refresh_from_db()
    assert club.rate_from_played is None
    assert not club_results.recount(club)


def post(path, data):
    """A POST from a phone of its own: (status, page)."""
    response = Client().post(path, data)
    return response.status_code, response.content.decode()


def new_players(club, names, key=None):
    data = {"players": str(len(names)), "first_dealer": "0", "key": key or str(uuid.uuid4())}
    data.update({f"player_{seat}": name for seat, name in enumerate(names)})
    return lambda: post(f"/c/{club.token}/new/", data)


def test_two_club_sheets_started_at_once_with_one_new_name(concurrent_db):
    """Both sessions start; the new name joins the roster once, and both seats are that one
    player (it was a 500 on PostgreSQL every time: the roster looked up, then created)."""
    club = club_writes.create_club("Jeudi", players=["Ana", "Ben"]).club
    answers = at_once(
        new_players(club, ["Ana", "Ben", "Zoé"]), new_players(club, ["Ben", "Ana", "ZOÉ"])
    )
    assert [status for status, _page in answers] == [302, 302]
    zoe = ClubPlayer.objects.get(club=club, key="zoé")
    assert zoe.name in ("Zoé", "ZOÉ")
    assert club.players.count() == 3
    assert sorted(s.players[2] for s in ClubSheet.objects.filter(club=club)) == [zoe.pk] * 2
    assert not club_results.recount(club)


def test_a_double_tap_on_add_player_adds_one(concurrent_db):
    """The first tap adds the player; the others are shown the form again, saying so."""
    club = club_writes.create_club("Jeudi").club
    add = {"action": "add", "add-names": "Chloé"}
    answers = at_once(*[lambda: post(f"/c/{club.token}/players/", add)] * 3)
    assert sorted(status for status, _page in answers) == [200, 200, 302]
    for status, page in answers:
        if status == 200:
            assert "“Chloé” is already one of the club&#x27;s players." in page
    assert list(club.players.values_list("name", flat=True)) == ["Chloé"]


def test_two_players_renamed_to_one_name_at_once(concurrent_db):
    """One rename wins; the other is told to merge instead; the roster stays two people."""
    club = club_writes.create_club("Jeudi", players=["Ana", "Anne"]).club
    ana, anne = club.players.order_by("name")
    answers = at_once(
        *[
            lambda pk=pk: post(
                f"/c/{club.token}/players/", {"action": "rename", "player": pk, "name": "Annie"}
            )
            for pk in (ana.pk, anne.pk)
        ]
    )
    assert sorted(status for status, _page in answers) == [200, 302]
    refused = next(page for status, page in answers if status == 200)
    assert "“Annie” is already one of the club&#x27;s players: merge them instead." in refused
    names = sorted(club.players.values_list("name", flat=True))
    assert names in (["Ana", "Annie"], ["Anne", "Annie"])


def test_a_merge_and_a_rename_of_the_same_player_at_once(concurrent_db):
    """Merging Bea into Ben while Bea is renamed: the merge always happens; the rename either
    came first (and Bea, renamed, is merged all the same) or is told she is gone. Every
    session of hers counts for Ben; the stored results are a recount's."""
    club = club_writes.create_club("Jeudi", players=["Ana", "Ben", "Bea", "Chloé"]).club
    sheet = writes.create_sheet("Lundi", ["Ana", "Bea", "Chloé"], 0)
    writes.add_hand(sheet.token, scoring.Hand(3, 1, "garde", 2, 51), uuid.uuid4())
    club_writes.attach(club, sheet, ["Ana", "Bea", "Chloé"])
    ben, bea = club.players.get(name="Ben"), club.players.get(name="Bea")
    players = f"/c/{club.token}/players/"
    merge = {"action": "merge", "merge-drop": bea.pk, "merge-keep": ben.pk}
    rename = {"action": "rename", "player": bea.pk, "name": "Béatrice"}
    (merged, _page), (renamed, page) = at_once(
        lambda: post(players, merge), lambda: post(players, rename)
    )
    assert merged == 302
    assert renamed in (200, 302)
    if renamed == 200:
        assert "That player is not one of the club&#x27;s players." in page
    assert sorted(club.players.values_list("name", flat=True)) == ["Ana", "Ben", "Chloé"]
    assert ClubSheet.objects.get(sheet=sheet).players[1] == ben.pk
    assert not club_results.recount(club)


@pytest.mark.parametrize("clubs", [1, 2], ids=["the same club", "two clubs"])
def test_one_session_attached_twice_at_once(concurrent_db, clubs):
    """The first attach counts it; the other is told the session belongs to a club."""
    sheet = writes.create_sheet("Lundi", ["Ana", "Ben", "Chloé"], 0)
    targets = [club_writes.create_club(f"Club {n}").club for n in range(clubs)] * (3 - clubs)
    confirm = {
        "session": sheet.get_absolute_url(),
        "confirm": "1",
        **{f"seat_{seat}": name for seat, name in enumerate(["Ana", "Ben", "Chloé"])},
    }
    answers = at_once(
        *[lambda club=club: post(f"/c/{club.token}/attach/", confirm) for club in targets]
    )
    assert sorted(status for status, _page in answers) == [200, 302]
    refused = next(page for status, page in answers if status == 200)
    assert "This session already belongs to a club." in refused
    session = ClubSheet.objects.get()
    assert session.sheet_id == sheet.pk
    assert session.club.players.count() == 3
    assert sum(club.players.count() for club in Club.objects.exclude(pk=session.club_id)) == 0


def test_two_confirmations_of_a_change_of_rules_from_one_revision(concurrent_db, sheet4):
    """Both phones were shown the totals at one revision: the first confirmation re-scores the
    sheet; the second is shown the totals again, as they are now, and changes nothing."""
    writes.add_hand(sheet4.token, scoring.Hand(4, 0, "garde", 2, 49), uuid.uuid4())
    shown = Sheet.objects.get(pk=sheet4.pk).revision
    rules = reverse("rules", args=[sheet4.token])
    confirm = [{"rounding": str(r), "revision": str(shown), "confirm": "1"} for r in (5, 10)]
    answers = at_once(*[lambda data=data: post(rules, data) for data in confirm])
    assert sorted(status for status, _page in answers) == [200, 302]
    won = [data for data, (status, _page) in zip(confirm, answers, strict=True) if status == 302]
    refused = next(page for status, page in answers if status == 200)
    assert "Hands were entered or corrected meanwhile" in refused
    stored = Sheet.objects.get(pk=sheet4.pk)
    assert stored.game_rules == scoring.Rules(rounding=int(won[0]["rounding"]))
    assert stored.revision == shown + 1
    # The refused phone is shown the sheet's current revision, to confirm from.
    assert f'name="revision" value="{stored.revision}"' in refused
    # Garde, 2 bouts, 49: made by 8, rounded to 10 either way: (25 + 10) × 2 = 70 a defender.
    assert stored.totals == [210, -70, -70, -70]


@pytest.mark.parametrize("path", ["/new/", "club"], ids=["session", "club's session"])
def test_a_new_session_form_sent_twice_at_once_opens_one_session(concurrent_db, path):
    club = club_writes.create_club("Jeudi").club
    key = str(uuid.uuid4())
    data = {"players": "3", "first_dealer": "0", "key": key}
    data |= {"player_0": "Ana", "player_1": "Ben", "player_2": "Chloé"}
    target = "/new/" if path == "/new/" else f"/c/{club.token}/new/"
    answers = at_once(*[lambda: Client().post(target, data)] * 3)
    assert [response.status_code for response in answers] == [302] * 3
    sheet = Sheet.objects.get()
    assert {response["Location"] for response in answers} == {sheet.get_absolute_url()}
    assert ClubSheet.objects.count() == (0 if path == "/new/" else 1)


def test_a_new_club_form_sent_twice_at_once_opens_one_club(concurrent_db):
    data = {"name": "Le jeudi", "key": str(uuid.uuid4())}
    answers = at_once(*[lambda: Client().post("/club/new/", data)] * 3)
    assert [response.status_code for response in answers] == [302] * 3
    club = Club.objects.get()
    assert {response["Location"] for response in answers} == {club.get_absolute_url()}

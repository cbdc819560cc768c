"""A form's key is spent for good: once it stored a hand, made a session or a club,
the same form sent again never does it again, even after the hand was deleted or undone. The
answer says it was already handled and shows the sheet as it is (the offline queue takes it as
done: tests/e2e/test_offline.py)."""

import uuid

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.urls import reverse

from scoresheet import keys, scoring
from scoresheet.clubs import writes as club_writes
from scoresheet.models import Club, ClubSheet, Hand, Sheet, SpentKey
from scoresheet.sheets import writes

pytestmark = pytest.mark.django_db

GARDE = {"taker": "0", "contract": "garde", "bouts": "2", "points": "49"}
ALREADY = "This hand was already saved; it is not saved again."


def url(name, sheet, *args):
    return reverse(name, args=[sheet.token, *args])


def text(response):
    return response.content.decode()


def test_a_deleted_hands_key_sent_again_stores_nothing(client, htmx, sheet4):
    data = {"key": str(uuid.uuid4()), **GARDE}
    assert client.post(url("hand_new", sheet4), data).status_code == 302
    client.post(url("hand_delete", sheet4, 1), {"key": data["key"]})
    assert not sheet4.hands.exists()
    # The offline queue, whose first answer was lost, sends it again (htmx).
    again = htmx.post(url("hand_new", sheet4), data)
    assert again.status_code == 200
    page = text(again)
    assert ALREADY in page
    # What the queue takes as done: the sheet's totals, no form.
    assert 'id="totals"' in page
    assert 'class="entry-panel"' not in page
    # Without JavaScript: back to the sheet, with the same message.
    again = client.post(url("hand_new", sheet4), data, follow=True)
    assert again.redirect_chain == [(sheet4.get_absolute_url(), 302)]
    assert ALREADY in text(again)
    stored = Sheet.objects.get(pk=sheet4.pk)
    assert (stored.hand_count, stored.totals) == (0, [0, 0, 0, 0])
    assert not Hand.objects.exists()


def test_an_undone_hands_key_sent_again_stores_nothing(client, htmx, sheet4):
    first = {"key": str(uuid.uuid4()), **GARDE}
    client.post(url("hand_new", sheet4), first)
    second = {"key": str(uuid.uuid4()), **GARDE, "taker": "1"}
    client.post(url("hand_new", sheet4), second)
    client.post(url("undo", sheet4), {"key": second["key"]})
    assert htmx.post(url("hand_new", sheet4), second).status_code == 200
    # Garde, 2 bouts, 49: made by 8, (25 + 8) × 2 = 66 a defender; one hand, Ana's.
    stored = Sheet.objects.get(pk=sheet4.pk)
    assert (stored.hand_count, stored.totals) == (1, [198, -66, -66, -66])


def test_a_passed_deals_key_sent_again_after_an_undo_stores_nothing(client, sheet4):
    data = {"key": str(uuid.uuid4()), "passed": "1"}
    client.post(url("hand_new", sheet4), data)
    client.post(url("undo", sheet4), {"key": data["key"]})
    response = client.post(url("hand_new", sheet4), data, follow=True)
    assert ALREADY in text(response)
    assert not sheet4.hands.exists()
    assert Sheet.objects.get(pk=sheet4.pk).next_dealer == 0


def test_the_write_path_answers_already_with_the_hand_or_none(sheet4):
    key = uuid.uuid4()
    hand = scoring.Hand(4, 0, "garde", 2, 49)
    stored = writes.add_hand(sheet4.token, hand, key)
    assert (stored.done, stored.already) == (True, False)
    again = writes.add_hand(sheet4.token, hand, key)
    assert (again.done, again.already, again.hand.pk, again.number) == (
        False,
        True,
        stored.hand.pk,
        1,
    )
    writes.delete_hand(sheet4.token, key)
    again = writes.add_hand(sheet4.token, hand, key)
    assert (again.done, again.already, again.hand, again.number) == (False, True, None, None)
    assert again.sheet.hand_count == 0
    # Spent on this sheet, the key is another sheet's to refuse.
    other = writes.create_sheet("Samedi", ["Ana", "Ben", "Chloé", "Dan"], 0)
    with pytest.raises(keys.KeyTaken):
        writes.add_hand(other.token, hand, key)
    assert not other.hands.exists()


def test_a_key_spent_on_another_sheet_gets_the_form_a_new_one(client, sheet4, make_sheet):
    other = make_sheet(name="Samedi")
    key = uuid.uuid4()
    writes.add_hand(other.token, scoring.Hand(4, 0, "garde", 2, 49), key)
    writes.delete_hand(other.token, key)
    response = client.post(url("hand_new", sheet4), {"key": str(key), **GARDE})
    assert response.status_code == 200
    assert "This form had expired" in text(response)
    assert str(key) not in text(response)
    assert not sheet4.hands.exists()


def session_form(key, names=("Ana", "Ben", "Chloé")):
    data = {"players": str(len(names)), "first_dealer": "0", "key": str(key)}
    return data | {f"player_{seat}": name for seat, name in enumerate(names)}


def test_the_new_session_form_sent_twice_opens_one_session(client):
    page = text(client.get(reverse("new_sheet")))
    key = page.split('name="key" value="')[1].split('"')[0]
    first = client.post(reverse("new_sheet"), session_form(key))
    second = client.post(reverse("new_sheet"), session_form(key))
    sheet = Sheet.objects.get()
    assert first["Location"] == second["Location"] == sheet.get_absolute_url()
    # A new form is a new key: another session.
    client.post(reverse("new_sheet"), session_form(uuid.uuid4()))
    assert Sheet.objects.count() == 2


def test_the_new_club_form_sent_twice_opens_one_club(client):
    page = text(client.get(reverse("club_new")))
    key = page.split('name="key" value="')[1].split('"')[0]
    answers = [client.post(reverse("club_new"), {"name": "Jeudi", "key": key}) for _ in "ab"]
    club = Club.objects.get()
    assert {answer["Location"] for answer in answers} == {club.get_absolute_url()}
    assert SpentKey.objects.get(key=key).club == club


def test_the_clubs_new_session_form_sent_twice_opens_one_session(client):
    club = club_writes.create_club("Jeudi").club
    key = uuid.uuid4()
    answers = [client.post(f"/c/{club.token}/new/", session_form(key)) for _ in "ab"]
    session = ClubSheet.objects.get()
    assert {answer["Location"] for answer in answers} == {session.sheet.get_absolute_url()}
    assert club.players.count() == 3
    # The same key in another club is a tampered form: a fresh key, nothing made.
    other = club_writes.create_club("Autre").club
    response = client.post(f"/c/{other.token}/new/", session_form(key))
    assert response.status_code == 200
    assert f'value="{key}"' not in text(response)
    assert not other.club_sheets.exists()


def test_a_key_spent_on_a_hand_makes_no_session(client, sheet4):
    key = uuid.uuid4()
    writes.add_hand(sheet4.token, scoring.Hand(4, 0, "garde", 2, 49), key)
    response = client.post(reverse("new_sheet"), session_form(key))
    assert response.status_code == 200
    assert Sheet.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_the_migration_spends_the_key_of_every_stored_hand():
    """A hand stored before keys were spent: deleted after the migration, its form sent again
    stores nothing."""
    executor = MigrationExecutor(connection)
    executor.migrate([("scoresheet", "0010_club_results")])
    apps = executor.loader.project_state([("scoresheet", "0010_club_results")]).apps
    OldSheet = apps.get_model("scoresheet", "Sheet")
    OldHand = apps.get_model("scoresheet", "Hand")
    sheet = OldSheet.objects.create(name="Lundi", first_dealer=0, token="t1", view_token="v1")
    keys = [uuid.uuid4() for _ in range(3)]
    for number, key in enumerate(keys, start=1):
        OldHand.objects.create(sheet=sheet, number=number, dealer=0, key=key, passed=True)
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())
    assert sorted(SpentKey.objects.values_list("key", "made", "sheet_id")) == sorted(
        (key, "hand", sheet.pk) for key in keys
    )

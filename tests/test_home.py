"""The home page's lists: each session's date and hand count, a restored copy told
from its original, and a session or a club taken off this browser's list, and put back."""

import json
import re
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
from django.urls import reverse

from scoresheet import scoring
from scoresheet.clubs import writes as club_writes
from scoresheet.files import session_backup as backup
from scoresheet.models import Club, Sheet
from tests.conftest import BACKUPS
from tests.reading import store

pytestmark = pytest.mark.django_db

PARIS = ZoneInfo("Europe/Paris")


def home(client) -> str:
    return client.get(reverse("home")).content.decode()


def cards(page: str) -> list[str]:
    return re.findall(r'<a class="session-card".*?</a>', page, re.S)


def test_each_card_shows_its_date_and_hand_count(client, sheet4):
    store(sheet4, scoring.Hand(4, 0, "garde", 2, 49), None, scoring.Hand(4, 1, "prise", 1, 51))
    Sheet.objects.filter(pk=sheet4.pk).update(created=datetime(2026, 3, 14, 21, 5, tzinfo=PARIS))
    client.get(sheet4.get_absolute_url())
    (card,) = cards(home(client))
    assert '<time datetime="2026-03-14">March 14, 2026</time>' in card
    assert "3 hands" in card
    assert "restored" not in card


def test_the_date_is_the_local_one(client, sheet4):
    # 23:30 UTC on 31 December is already New Year's Day in Paris.
    Sheet.objects.filter(pk=sheet4.pk).update(
        created=datetime(2025, 12, 31, 23, 30, tzinfo=ZoneInfo("UTC"))
    )
    client.get(sheet4.get_absolute_url())
    assert 'datetime="2026-01-01"' in home(client)


def test_a_restored_copy_is_told_from_its_original(client, sheet4):
    store(sheet4, scoring.Hand(4, 0, "garde", 2, 49))
    Sheet.objects.filter(pk=sheet4.pk).update(created=datetime(2026, 11, 27, 20, 41, tzinfo=PARIS))
    client.get(sheet4.get_absolute_url())
    copy = backup.load(client.get(reverse("export_json", args=[sheet4.token])).getvalue())
    client.get(copy.get_absolute_url())
    first, second = cards(home(client))
    # Newest first: the copy, then the original; same name, date and hands, one says restored.
    assert copy.token in first
    assert sheet4.token in second
    for card in (first, second):
        assert "Vendredi" in card
        assert 'datetime="2026-11-27"' in card
        assert "1 hand" in card
    assert "restored" in first
    assert "restored" not in second


def test_the_import_view_marks_the_session_restored(client):
    from django.core.files.uploadedfile import SimpleUploadedFile

    upload = SimpleUploadedFile("b.json", json.dumps(BACKUPS[4]).encode(), "application/json")
    client.post(reverse("import_backup"), {"backup": upload})
    assert Sheet.objects.get().restored is not None


def forget(client, kind, entries):
    return client.post(reverse("forget"), {"list": kind, "entry": entries})


def test_a_session_comes_off_the_list_and_still_opens(client, make_sheet):
    kept, gone = make_sheet(name="Lundi"), make_sheet(name="Mardi")
    for sheet in (kept, gone):
        client.get(sheet.get_absolute_url())
    response = forget(client, "sheets", [gone.token])
    assert response.status_code == 302
    page = home(client)
    assert [kept.token in card for card in cards(page)] == [True]
    # Said once, with the way back.
    assert "“Mardi” is off this list. The session is not deleted" in page
    assert reverse("put_back") in page
    assert "is off this list" not in home(client)
    # Not deleted: its link opens it (and lists it again).
    assert client.get(gone.get_absolute_url()).status_code == 200
    assert Sheet.objects.filter(pk=gone.pk).exists()


def test_both_links_of_a_session_come_off_together(client, sheet4):
    client.get(sheet4.get_view_url())
    client.get(sheet4.get_absolute_url())
    page = home(client)
    assert len(cards(page)) == 1
    entries = re.findall(r'name="entry" value="([^"]+)"', page)
    assert sorted(entries) == sorted([sheet4.token, "v/" + sheet4.view_token])
    forget(client, "sheets", entries)
    assert cards(home(client)) == []


def test_put_back_restores_the_place_in_the_list(client, make_sheet):
    sheets = [make_sheet(name=name) for name in ("Lundi", "Mardi", "Mercredi")]
    for sheet in sheets:
        client.get(sheet.get_absolute_url())
    order = [sheet.name for sheet in reversed(sheets)]
    forget(client, "sheets", [sheets[1].token])
    assert client.post(reverse("put_back")).status_code == 302
    page = home(client)
    assert [re.search(r'id="sheets-\d+">([^<]+)', c).group(1) for c in cards(page)] == order
    # A second undo has nothing left to put back.
    client.post(reverse("put_back"))
    assert len(cards(home(client))) == 3


def test_an_entry_not_on_the_list_changes_nothing(client, make_sheet):
    listed, other = make_sheet(name="Lundi"), make_sheet(name="Mardi")
    client.get(listed.get_absolute_url())
    for kind, entries in [
        ("sheets", [other.token]),
        ("sheets", ["v/" + listed.view_token]),
        ("sheets", []),
        ("nonsense", [listed.token]),
        ("clubs", [listed.token]),
    ]:
        assert forget(client, kind, entries).status_code == 302
        assert len(cards(home(client))) == 1
    # And put back, with nothing taken off, adds nothing: not even what a form could send.
    client.post(reverse("put_back"), {"list": "sheets", "entry": other.token})
    assert len(cards(home(client))) == 1
    assert client.get(reverse("forget")).status_code == 405


def test_a_club_comes_off_the_list_and_back(client):
    club = club_writes.create_club("Les amis").club
    client.get(club.get_absolute_url())
    assert "Les amis" in home(client)
    forget(client, "clubs", [club.token])
    page = home(client)
    assert "“Les amis” is off this list. The club is not deleted" in page
    assert f'href="{club.get_absolute_url()}"' not in page
    assert Club.objects.filter(pk=club.pk).exists()
    client.post(reverse("put_back"))
    assert f'href="{club.get_absolute_url()}"' in home(client)

"""The club's pages through Django's test client: creating, the two links, the roster, new and
attached sessions, the CSV, and a constant number of queries at two sizes."""

import csv
import io
import uuid

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoresheet import clubs, scoring, writes
from scoresheet.models import Club, Sheet
from tests.test_clubs import club_of

pytestmark = pytest.mark.django_db


def test_create_a_club_and_find_it_on_the_home_page(client):
    response = client.post("/club/new/", {"name": " Le jeudi ", "rounding": "10"})
    club = Club.objects.get()
    assert response.status_code == 302
    assert response["Location"] == club.get_absolute_url()
    assert club.name == "Le jeudi"
    assert club.game_rules == scoring.Rules(rounding=10)
    home = client.get("/").content.decode()
    assert "Le jeudi" in home
    assert club.get_absolute_url() in home


def test_create_refuses_an_empty_name(client):
    response = client.post("/club/new/", {"name": "  "})
    assert response.status_code == 200
    assert "Club name: enter a name." in response.content.decode()
    assert not Club.objects.exists()


def test_new_session_from_the_club(client):
    club = clubs.create_club("Maison", scoring.Rules(rounding=5), players=["Ana"])
    page = client.get(f"/c/{club.token}/new/").content.decode()
    assert '<option value="Ana">' in page
    response = client.post(
        f"/c/{club.token}/new/",
        {
            "players": "3",
            "player_0": "ana",
            "player_1": "Ben",
            "player_2": "Chloé",
            "first_dealer": "0",
            "rounding": "5",
        },
    )
    sheet = Sheet.objects.get()
    assert response["Location"] == sheet.get_absolute_url()
    assert sheet.game_rules == scoring.Rules(rounding=5)
    assert sorted(club.players.values_list("name", flat=True)) == ["Ana", "Ben", "Chloé"]
    # The session's own pages never lead to the club.
    for url in (sheet.get_absolute_url(), sheet.get_view_url()):
        body = client.get(url).content.decode()
        assert club.token not in body
        assert club.view_token not in body


def test_read_only_link_shows_and_changes_nothing(client):
    club = club_of(2)
    page = client.get(club.get_view_url())
    assert page.status_code == 200
    body = page.content.decode()
    assert "Ana" in body
    assert club.token not in body
    for path in ("new/", "players/", "attach/"):
        assert client.get(f"/cv/{club.view_token}/{path}").status_code == 404
    session = club.sessions.first()
    response = client.post(f"/cv/{club.view_token}/sessions/{session.pk}/detach/")
    assert response.status_code == 404
    assert club.sessions.count() == 2
    # Its sessions open read-only.
    assert session.sheet.get_view_url() in body
    assert session.sheet.get_absolute_url() not in body


def test_roster_rename_merge_and_add(client):
    club = clubs.create_club("Maison", players=["Ana", "Anne", "Ben"])
    url = f"/c/{club.token}/players/"
    anne = club.players.get(name="Anne")
    response = client.post(url, {"action": "rename", "player": anne.pk, "name": "ben"})
    assert "already one of the club" in response.content.decode()
    assert 'value="ben"' in response.content.decode()
    client.post(url, {"action": "add", "add-name": "Chloé"})
    ana = club.players.get(name="Ana")
    client.post(url, {"action": "merge", "merge-drop": anne.pk, "merge-keep": ana.pk})
    assert sorted(club.players.values_list("name", flat=True)) == ["Ana", "Ben", "Chloé"]


def test_attach_matches_seats_by_name_and_confirms(client):
    club = clubs.create_club("Maison", players=["Ana"])
    sheet = writes.create_sheet("Hier", ["ANA", "Ben", "Chloé"], 0)
    url = f"/c/{club.token}/attach/"
    shown = client.post(url, {"session": "https://example.org" + sheet.get_absolute_url()})
    body = shown.content.decode()
    assert 'name="seat_0" value="Ana"' in body
    assert not club.sessions.exists()
    assert client.post(url, {"session": sheet.get_view_url()}).status_code == 200
    response = client.post(
        url,
        {
            "session": sheet.get_absolute_url(),
            "seat_0": "Ana",
            "seat_1": "Ben",
            "seat_2": "Chloé",
            "confirm": "1",
        },
    )
    assert response.status_code == 302
    assert club.sessions.get().sheet == sheet
    detach = f"/c/{club.token}/sessions/{club.sessions.get().pk}/detach/"
    client.post(detach)
    assert not club.sessions.exists()
    assert Sheet.objects.filter(pk=sheet.pk).exists()


def test_standings_csv(client):
    club = clubs.create_club("Maison")
    sheet = clubs.start_session(club, "S", ["=Ana", "Ben", "Chloé", "Dan"], 0)
    writes.add_hand(sheet.token, scoring.Hand(4, 0, "garde", 2, 51), uuid.uuid4())
    response = client.get(f"/cv/{club.view_token}/standings.csv")
    text = b"".join(response.streaming_content).decode("utf-8")
    assert text.startswith("\ufeff")
    rows = list(csv.reader(io.StringIO(text.removeprefix("\ufeff"))))
    assert rows[0][:4] == ["Player", "Sessions", "Hands", "Points"]
    # A name that would run as a formula is written as text.
    assert rows[1][:4] == ["'=Ana", "1", "1", "210"]
    assert '"\'=Ana",1,1,210' in text


def test_bad_period_is_said_and_shows_all_time(client):
    club = club_of(2)
    response = client.get(club.get_absolute_url() + "?period=range&from=bad")
    body = response.content.decode()
    assert response.status_code == 200
    assert "give a date like" in body


def test_htmx_sort_sends_the_standings_alone(client):
    club = club_of(2)
    response = client.get(club.get_absolute_url() + "?sort=hands", headers={"HX-Request": "true"})
    body = response.content.decode()
    assert body.lstrip().startswith('<section id="standings"')
    assert "<html" not in body


@pytest.mark.parametrize("name", ["club", "view_club", "standings_csv"])
def test_club_pages_read_a_constant_number_of_queries(client, name):
    """The same queries at two sizes, and the first view after a hand was added to a session
    (cold) costs what the next one does (warm): nothing is computed on read."""
    counts = []
    for size in (3, 25):
        club = club_of(size)
        token = club.view_token if name.startswith("view") else club.token
        sheet = club.sessions.order_by("sheet__created").first().sheet
        writes.add_hand(sheet.token, scoring.Hand(4, 1, "garde", 2, 51), uuid.uuid4())
        for _cold_then_warm in range(2):
            with CaptureQueriesContext(connection) as captured:
                response = client.get(reverse(name, args=[token]))
                if hasattr(response, "streaming_content"):
                    b"".join(response.streaming_content)
            assert response.status_code == 200
            counts.append(len(captured))
    assert len(set(counts)) == 1


def test_the_player_page_reads_a_constant_number_of_queries(client):
    """No hand and no session is read one by one: the stored results, in one query."""
    counts = []
    for size in (3, 25):
        club = club_of(size)
        ana = club.players.get(name="Ana")
        with CaptureQueriesContext(connection) as captured:
            response = client.get(reverse("club_player", args=[club.token, ana.pk]))
        assert response.status_code == 200
        counts.append(len(captured))
    assert counts[0] == counts[1]


def test_player_page(client):
    club = club_of(3)
    ana = club.players.get(name="Ana")
    response = client.get(reverse("view_club_player", args=[club.view_token, ana.pk]))
    assert response.status_code == 200
    assert "Ana" in response.content.decode()
    other = clubs.create_club("Autre", players=["Zoé"])
    zoe = other.players.get()
    assert client.get(reverse("club_player", args=[club.token, zoe.pk])).status_code == 404


def test_an_empty_club_and_an_empty_period(client):
    club = clubs.create_club("Vide", players=["Ana"])
    for url in (club.get_absolute_url(), club.get_view_url() + "?period=month"):
        response = client.get(url)
        assert response.status_code == 200
        assert "No session of the club in this period yet." in response.content.decode()

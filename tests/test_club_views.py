"""The club's pages through Django's test client: creating, the two links, the roster, new and
attached sessions, the CSV, and a constant number of queries at two sizes."""

import csv
import html
import io
import json
import re
import uuid

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoresheet import limits, scoring
from scoresheet.clubs import standings as clubs
from scoresheet.clubs import writes as club_writes
from scoresheet.models import Club, Sheet
from scoresheet.sheets import writes
from tests.conftest import BACKUPS
from tests.test_club_backup import valid
from tests.test_clubs import club as worked_club  # noqa: F401  (a fixture: the worked club)
from tests.test_clubs import club_of, day, long_club

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
    club = club_writes.create_club("Maison", scoring.Rules(rounding=5), players=["Ana"]).club
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
    session = club.club_sheets.first()
    response = client.post(f"/cv/{club.view_token}/sessions/{session.pk}/detach/")
    assert response.status_code == 404
    assert club.club_sheets.count() == 2
    # Its sessions open read-only.
    assert session.sheet.get_view_url() in body
    assert session.sheet.get_absolute_url() not in body


def test_roster_rename_merge_and_add(client):
    club = club_writes.create_club("Maison", players=["Ana", "Anne", "Ben"]).club
    url = f"/c/{club.token}/players/"
    anne = club.players.get(name="Anne")
    response = client.post(url, {"action": "rename", "player": anne.pk, "name": "ben"})
    assert "already one of the club" in response.content.decode()
    assert 'value="ben"' in response.content.decode()
    client.post(url, {"action": "add", "add-names": "Chloé"})
    ana = club.players.get(name="Ana")
    client.post(url, {"action": "merge", "merge-drop": anne.pk, "merge-keep": ana.pk})
    assert sorted(club.players.values_list("name", flat=True)) == ["Ana", "Ben", "Chloé"]


def test_attach_matches_seats_by_name_and_confirms(client):
    club = club_writes.create_club("Maison", players=["Ana"]).club
    sheet = writes.create_sheet("Hier", ["ANA", "Ben", "Chloé"], 0)
    url = f"/c/{club.token}/attach/"
    shown = client.post(url, {"session": "https://example.org" + sheet.get_absolute_url()})
    body = shown.content.decode()
    assert 'name="seat_0" value="Ana"' in body
    assert not club.club_sheets.exists()
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
    assert club.club_sheets.get().sheet == sheet
    detach = f"/c/{club.token}/sessions/{club.club_sheets.get().pk}/detach/"
    client.post(detach)
    assert not club.club_sheets.exists()
    assert Sheet.objects.filter(pk=sheet.pk).exists()


def test_standings_csv(client):
    club = club_writes.create_club("Maison").club
    sheet = club_writes.start_sheet(club, "S", ["=Ana", "Ben", "Chloé", "Dan"], 0).sheet
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
        sheet = club.club_sheets.order_by("sheet__created").first().sheet
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
    """No hand and no session is read one by one, and the figures over all the player's
    sessions are added up by the database: the same queries for 2 sessions as for 25, on
    the latest page as on an earlier one."""
    counts = []
    for size in (3, 50):
        club = club_of(size)
        ana = club.players.get(name="Ana")
        url = reverse("club_player", args=[club.token, ana.pk])
        for query in ("", "?before=3"):
            with CaptureQueriesContext(connection) as captured:
                response = client.get(url + query)
            assert response.status_code == 200
            counts.append(len(captured))
    assert len(set(counts)) == 1


def shown_days(response) -> list[str]:
    return re.findall(
        r'<th scope="row"><a href="[^"]*">Soirée ([-\d]+)</a>', response.content.decode()
    )


def paging_links(response) -> list[tuple[str, str]]:
    found = re.findall(
        r'<p class="earlier"><a href="([^"]*)">((?:Earlier|Later) sessions \(\d+ more\))</a>',
        response.content.decode(),
    )
    return [(html.unescape(href), text) for href, text in found]


def test_the_player_page_shows_the_latest_sessions_and_pages_back(client):
    club = long_club()
    ana = club.players.get(name="Ana")
    url = reverse("club_player", args=[club.token, ana.pk])
    latest = client.get(url)
    assert shown_days(latest) == [day(n) for n in range(45, 25, -1)]
    assert paging_links(latest) == [(f"{url}?before=26", "Earlier sessions (25 more)")]
    # The figures are over all 45 sessions: Ana's 7 wins in a row are all on earlier pages.
    page = latest.content.decode()
    assert "7 sessions won in a row" in page
    assert "hand 1 of “Soirée 2026-01-01”" in page

    earlier = client.get(f"{url}?before=26")
    assert shown_days(earlier) == [day(n) for n in range(25, 5, -1)]
    assert paging_links(earlier) == [
        (url, "Later sessions (20 more)"),
        (f"{url}?before=6", "Earlier sessions (5 more)"),
    ]
    first = client.get(f"{url}?before=6")
    assert shown_days(first) == [day(n) for n in range(5, 0, -1)]
    assert paging_links(first) == [(f"{url}?before=26", "Later sessions (40 more)")]


@pytest.mark.parametrize(
    "before",
    [
        *["", "x", "0", "1", "-4", "2.5", "1e3", "46", "9" * 5000, "%00", "26&before=x"],
        *["²", "٢٦", "%2B26", "%2026", "2_6"],
    ],
)
def test_a_bad_before_shows_the_latest_sessions(client, before):
    club = long_club(22, wins=())
    ana = club.players.get(name="Ana")
    response = client.get(reverse("club_player", args=[club.token, ana.pk]) + "?before=" + before)
    assert response.status_code == 200
    assert shown_days(response) == [day(n) for n in range(22, 2, -1)]


def test_the_read_only_player_page_pages_on_its_own_link(client):
    club = long_club(22, wins=())
    ana = club.players.get(name="Ana")
    url = reverse("view_club_player", args=[club.view_token, ana.pk])
    latest = client.get(url)
    assert paging_links(latest) == [(f"{url}?before=3", "Earlier sessions (2 more)")]
    earlier = client.get(f"{url}?before=3")
    assert shown_days(earlier) == [day(2), day(1)]
    assert paging_links(earlier) == [(url, "Later sessions (20 more)")]
    for response in (latest, earlier):
        assert club.token not in response.content.decode()


def test_player_page(client):
    club = club_of(3)
    ana = club.players.get(name="Ana")
    response = client.get(reverse("view_club_player", args=[club.view_token, ana.pk]))
    assert response.status_code == 200
    assert "Ana" in response.content.decode()
    other = club_writes.create_club("Autre", players=["Zoé"]).club
    zoe = other.players.get()
    assert client.get(reverse("club_player", args=[club.token, zoe.pk])).status_code == 404


def test_an_empty_club_and_an_empty_period(client):
    club = club_writes.create_club("Vide", players=["Ana"]).club
    for url in (club.get_absolute_url(), club.get_view_url() + "?period=month"):
        response = client.get(url)
        assert response.status_code == 200
        assert "No session of the club in this period yet." in response.content.decode()


# Importing a club's backup from the new club page


def club_upload(content: bytes | str, name: str = "club.json") -> SimpleUploadedFile:
    if isinstance(content, str):
        content = content.encode()
    return SimpleUploadedFile(name, content, content_type="application/json")


def test_import_a_club_backup_from_the_page(client, worked_club):  # noqa: F811
    club = worked_club
    page = client.get("/club/new/").content.decode()
    assert 'action="/club/import/"' in page
    assert 'enctype="multipart/form-data"' in page
    exported = client.get(club.get_view_url() + "club.json").content
    response = client.post("/club/import/", {"backup": club_upload(exported)})
    restored = Club.objects.exclude(pk=club.pk).get()
    # Lands on the new club's full link, with new links.
    assert response.status_code == 302
    assert response["Location"] == restored.get_absolute_url()
    assert restored.token != club.token
    assert restored.name == "Le jeudi"
    assert restored.club_sheets.count() == 3
    assert restored.players.count() == 6
    home = client.get("/").content.decode()
    assert restored.get_absolute_url() in home
    # The same standings as the worked example (tests/test_clubs.py): Ana 420 points.
    ana = next(r for r in clubs.standings(restored).rows if r.player.name == "Ana")
    assert (ana.sessions, ana.hands, ana.points) == (3, 4, 420)


def club_counts() -> tuple[int, int]:
    return Club.objects.count(), Sheet.objects.count()


def one_bad_hand() -> str:
    data = valid()
    data["sessions"][1]["hands"][1]["bouts"] = 7
    return json.dumps(data)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({}, "Choose a club's backup file."),
        ({"backup": "not a file"}, "Choose a club's backup file."),
        ({"backup": club_upload(b"")}, "This file is empty: it is not a backup of a club."),
        ({"backup": club_upload(b"Ana;Ben;Chlo")}, "it is not JSON"),
        ({"backup": club_upload("Ana;Ben;Chloé".encode("latin-1"))}, "it is not UTF-8 text"),
        ({"backup": club_upload(b"[1, 2]")}, "it has no “format”"),
        (
            {"backup": club_upload(b'{"format": "tarot-club/9"}')},
            "This backup's format is “tarot-club/9”; this app reads “tarot-club/1”.",
        ),
        (
            {"backup": club_upload(json.dumps(BACKUPS[4]))},
            "backup of one session, not of a club: import it on the home page",
        ),
        # The session and the hand are named: session 2 ("…"), hand 2.
        ({"backup": lambda: club_upload(one_bad_hand())}, "Session 2 (“"),
        ({"backup": lambda: club_upload(one_bad_hand())}, "Hand 2:"),
    ],
)
def test_a_bad_club_backup_is_refused_whole(client, data, message):
    data = {key: value() if callable(value) else value for key, value in data.items()}
    response = client.post("/club/import/", data)
    assert response.status_code == 422
    assert club_counts() == (0, 0)
    errors = response.context["import_form"].errors["backup"]
    assert message in errors[0]
    body = html.unescape(response.content.decode())
    assert message in body
    assert 'aria-invalid="true"' in body
    assert "clubs" not in client.session


def test_after_a_refused_import_the_page_still_creates_a_club(client):
    refused = client.post("/club/import/", {"backup": club_upload(b"nope")})
    # The page is shown at /club/import/: its create form must still post to /club/new/.
    assert 'action="/club/new/"' in refused.content.decode()
    response = client.post("/club/new/", {"name": "Le jeudi"})
    assert response["Location"] == Club.objects.get().get_absolute_url()


def test_a_club_backup_over_the_limit_is_refused(client):
    # One byte over the 10 MB: refused before it is read as JSON.
    text = json.dumps(valid())
    padded = text[:-1] + " " * (limits.CLUB_BACKUP_BYTES - len(text) + 1) + "}"
    response = client.post("/club/import/", {"backup": club_upload(padded)})
    assert club_counts() == (0, 0)
    assert response.context["import_form"].errors["backup"][0] == (
        "This file is larger than 10 MB, the most a club's backup can be: a bigger one would "
        "take too long to import."
    )


def test_a_club_backup_of_too_many_hands_is_refused(client, monkeypatch):
    # The limit is 50,000 hands; a smaller one keeps the test light, the check is the same.
    monkeypatch.setattr(limits, "CLUB_BACKUP_HANDS", 5)
    data = valid()
    hands = sum(len(session["hands"]) for session in data["sessions"])
    assert hands > 5
    response = client.post("/club/import/", {"backup": club_upload(json.dumps(data))})
    assert club_counts() == (0, 0)
    assert response.context["import_form"].errors["backup"][0] == (
        f"This backup has {hands} hands; a club's backup holds at most 5: a bigger one would "
        "take too long to import."
    )


def test_club_import_is_post_only(client):
    assert client.get("/club/import/").status_code == 405


# The club's name and default rules


def test_change_the_name_and_default_rules(client, worked_club):  # noqa: F811
    club = worked_club
    url = f"/c/{club.token}/settings/"
    page = client.get(url).content.decode()
    assert 'value="Le jeudi"' in page
    assert "only the sessions started afterwards" in page
    before = [(s.sheet.game_rules, s.sheet.totals) for s in club.club_sheets.order_by("pk")]
    response = client.post(url, {"name": " Le vendredi ", "rounding": "10", "misere": "10"})
    assert response.status_code == 302
    assert response["Location"] == club.get_absolute_url()
    club.refresh_from_db()
    assert club.name == "Le vendredi"
    assert club.game_rules == scoring.Rules(rounding=10, misere=10)
    # The sessions already played keep their rules and totals (docs/rules.md §6.1: a session's
    # rules).
    after = [(s.sheet.game_rules, s.sheet.totals) for s in club.club_sheets.order_by("pk")]
    assert after == before
    # A session started afterwards takes the new rules.
    new_session = client.get(f"/c/{club.token}/new/").content.decode()
    assert re.search(r'name="rounding" value="10"[^>]* checked', new_session)
    assert re.search(r'name="misere" value="10"[^>]* checked', new_session)
    page = client.get(club.get_absolute_url()).content.decode()
    assert "Le vendredi" in page
    assert f'href="/c/{club.token}/settings/"' in page


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"name": "  ", "rounding": "10"}, "Club name: enter a name."),
        ({"name": "x" * 81}, "Club name: a name has at most 80 characters."),
        ({"name": "Autre", "rounding": "7"}, "Rounding: choose none, 5 or 10."),
        ({"name": "Autre", "poignees": "1-2-3"}, "Poignées: choose 20, 30, 40 or 20, 40, 60."),
    ],
)
def test_bad_settings_change_nothing(client, data, message):
    club = club_writes.create_club("Maison", scoring.Rules(rounding=5)).club
    response = client.post(f"/c/{club.token}/settings/", data)
    assert response.status_code == 200
    assert message in html.unescape(response.content.decode())
    club.refresh_from_db()
    assert (club.name, club.game_rules) == ("Maison", scoring.Rules(rounding=5))
    # What was typed is kept.
    if data["name"].strip():
        assert f'value="{data["name"]}"' in response.content.decode()


def test_the_read_only_link_cannot_change_the_club(client):
    club = club_writes.create_club("Maison", scoring.Rules(rounding=5)).club
    body = client.get(club.get_view_url()).content.decode()
    # It shows the default rules, and no way to change them.
    assert "Default rules of new sessions: <strong>Differences rounded to 5</strong>" in body
    assert "/settings/" not in body
    assert client.get(f"/cv/{club.view_token}/settings/").status_code == 404
    post = {"name": "Pirate", "rounding": "10"}
    assert client.post(f"/cv/{club.view_token}/settings/", post).status_code == 404
    assert client.post(club.get_view_url(), post).status_code == 405
    club.refresh_from_db()
    assert (club.name, club.game_rules) == ("Maison", scoring.Rules(rounding=5))


# Sorting both ways, and the minus sign


def header(body: str, label: str) -> str:
    """The standings' header cell whose link reads ``label``."""
    match = re.search(
        r"<th scope=\"col\"[^>]*><a href=\"[^\"]*\"[^>]*>" + label + r"\b.*?</th>", body
    )
    assert match, label
    return match[0]


def played_names(body: str) -> list[str]:
    table = body[body.index("<tbody>") : body.index("</tbody>")]
    return re.findall(r'<th scope="row"><a href="[^"]*">([^<]+)</a>', table)


def test_tapping_the_sorted_column_again_reverses_it(client, worked_club):  # noqa: F811
    club = worked_club
    url = club.get_absolute_url()
    body = html.unescape(client.get(url + "?period=all").content.decode())
    points = header(body, "Points")
    # Points first (most first); its link reverses it, keeping the period.
    assert 'aria-sort="descending"' in points
    assert f'href="/c/{club.token}/?period=all&sort=-points"' in points
    assert "aria-sort" not in header(body, "Hands")
    assert played_names(body) == ["Ana", "Chloé", "Fanny", "Ben", "Élise", "Dan"]
    reverse = html.unescape(client.get(url + "?period=all&sort=-points").content.decode())
    points = header(reverse, "Points")
    assert 'aria-sort="ascending"' in points
    assert f'href="/c/{club.token}/?period=all&sort=points"' in points
    # Fewest points first; Ben and Élise both have −105, in the names' order.
    assert played_names(reverse) == ["Dan", "Ben", "Élise", "Fanny", "Chloé", "Ana"]
    # The leader of the column is still the one with the most points, Ana.
    ana = reverse[reverse.index(">Ana</a>") :]
    assert '<td class="lead">420 <span class="crown"' in ana
    # Another column's link sorts by it, best first, in the same period.
    assert f'href="/c/{club.token}/?period=all&sort=hands"' in header(reverse, "Hands")


def test_names_sort_a_to_z_then_z_to_a(client, worked_club):  # noqa: F811
    club = worked_club
    url = club.get_view_url()
    body = html.unescape(client.get(url + "?period=year&sort=name").content.decode())
    assert 'aria-sort="ascending"' in header(body, "Player")
    assert "sort=-name" in header(body, "Player")
    names = played_names(body)
    back = html.unescape(client.get(url + "?period=year&sort=-name").content.decode())
    assert 'aria-sort="descending"' in header(back, "Player")
    assert played_names(back) == names[::-1]


@pytest.mark.parametrize("sort", ["-", "--points", "-nope", "-player"])
def test_an_unknown_sort_shows_points(client, worked_club, sort):  # noqa: F811
    club = worked_club
    response = client.get(club.get_absolute_url(), {"sort": sort})
    assert response.status_code == 200
    assert 'aria-sort="descending"' in header(html.unescape(response.content.decode()), "Points")


def test_negative_figures_have_a_true_minus_sign(client, worked_club):  # noqa: F811
    club = worked_club
    body = client.get(club.get_absolute_url()).content.decode()
    # Dan: −70 + 35 in the first session, −70 − 140 in the second (tests/test_clubs.py).
    dan = body[body.index(">Dan</a>") :]
    dan = dan[: dan.index("</tr>")]
    assert "<td>−245</td>" in dan
    assert "-245" not in body
    # Fanny: −35 in 2 hands, −17.5 a hand; in French −17,5.
    assert "<td>−17.5</td>" in body
    french = client.get(club.get_absolute_url(), headers={"accept-language": "fr"})
    assert "<td>−17,5</td>" in french.content.decode()
    player = club.players.get(name="Dan")
    page = client.get(reverse("club_player", args=[club.token, player.pk])).content.decode()
    assert "<td>−210</td>" in page
    assert "<td>−35</td>" in page
    # Worst hand: −140, his prise alone lost in the second session.
    assert "−140 · " in page
    # The CSV keeps ASCII '-' for a spreadsheet.
    text = b"".join(client.get(f"/c/{club.token}/standings.csv").streaming_content).decode()
    assert '"Dan",2,4,-245' in text
    assert "−" not in text


# One order for names, and the roster's text box

SORTED = ["Anaïs", "Bruno", "Élodie", "émile", "Zoé"]


def in_order(page: str, pattern: str) -> list[str]:
    """The five names of ``SORTED`` in the order ``pattern``'s first group finds them."""
    found = [html.unescape(name) for name in re.findall(pattern, page)]
    return [name for name in found if name in SORTED]


def test_names_are_in_one_order_on_every_page(client):
    """Anaïs, Bruno, Élodie, émile, Zoé: on the roster, the night form, the standings (ties and
    sorted by name), the night's ranking (a tie: no hand yet) and its menus."""
    from datetime import date

    from scoresheet.nights import writes as night_writes

    typed = ["Zoé", "Élodie", "émile", "Anaïs", "Bruno"]
    club = club_writes.create_club("Maison", players=typed).club
    roster = client.get(f"/c/{club.token}/players/").content.decode()
    assert in_order(roster, r'<label for="rename-\d+">Rename ([^<]*)</label>') == SORTED
    merge = roster.split('id="id_merge-drop"')[1].split("</select>")[0]
    assert in_order(merge, r'<option value="\d+"[^>]*>([^<]*)</option>') == SORTED
    form = client.get(reverse("night_new", args=[club.token])).content.decode()
    assert in_order(form, r'name="players" value="([^"]*)"') == SORTED
    new_session = client.get(f"/c/{club.token}/new/").content.decode()
    assert in_order(new_session, r'<option value="([^"]*)">') == SORTED
    # Standings: everyone at 0 after a session without a hand, then sorted by name.
    club_writes.start_sheet(club, "Lundi", typed, 0)
    for query in ("", "?sort=name"):
        page = client.get(f"/c/{club.token}/{query}").content.decode()
        assert in_order(page, r'<th scope="row"><a href="[^"]*">([^<]*)</a></th>') == SORTED
    reverse_page = client.get(f"/c/{club.token}/?sort=-name").content.decode()
    found = in_order(reverse_page, r'<th scope="row"><a href="[^"]*">([^<]*)</a></th>')
    assert found == SORTED[::-1]
    # A night of them and three more, no hand yet: all share the first place.
    night = night_writes.create_night(
        club, "Vendredi", date(2026, 12, 4), [*typed, "Xavier", "Yann", "Walid"], 2, 2
    ).night
    page = client.get(reverse("night", args=[club.token, night.number])).content.decode()
    ranking = page.split('class="standings ranking"')[1].split("</table>")[0]
    assert in_order(ranking, r'<th scope="row">([^<]*)</th>') == SORTED
    leave = page.split('id="leave-player"')[1].split("</select>")[0]
    assert in_order(leave, r'<option value="\d+">([^<]*)</option>') == SORTED
    # The screen shows the ranking once a round has a deal stored (right after the draw, the
    # seating): a deal everyone passed, which leaves every total at 0.
    table = night.tables.select_related("club_sheet__sheet").first()
    writes.add_hand(table.club_sheet.sheet.token, None, uuid.uuid4())
    screen = client.get(reverse("night_screen", args=[club.token, night.number]))
    found = in_order(screen.content.decode(), r'<span class="name">([^<]*)</span>')
    assert found == SORTED


SIXTEEN = [
    "Zoé",
    "Élodie",
    "émile",
    "Anaïs",
    "Bruno",
    "Chloé Martin",
    "Dan",
    "François-Xavier",
    "Gaëlle",
    "Hugo",
    "Inès",
    "Jean-Noël",
    "Katia",
    "Łukasz",
    "Maëlys",
    "Noé O'Brien",
]


def test_sixteen_names_pasted_at_once_are_stored_as_typed(client):
    club = club_writes.create_club("Maison").club
    url = f"/c/{club.token}/players/"
    # Pasted from a list: a blank line, spaces around a name and Windows line ends.
    text = "\r\n".join([*SIXTEEN[:8], "", *(f"  {name} " for name in SIXTEEN[8:])])
    response = client.post(url, {"action": "add", "add-names": text})
    assert response.status_code == 302
    assert response.url == url + "?added=1"
    assert sorted(club.players.values_list("name", flat=True)) == sorted(SIXTEEN)
    page = client.get(response.url).content.decode()
    assert "16 players joined the club:" in html.unescape(page)
    # The focus stays in the box, for the next names.
    assert re.search(r"<textarea[^>]*autofocus[^>]*>", page)
    assert re.search(r'<textarea[^>]*name="add-names"', page)


@pytest.mark.parametrize(
    ("lines", "messages"),
    [
        # A look-alike of a roster player (case), and the same name exactly.
        (
            ["Ana", "ZOÉ", "Ben", "Dan"],
            [
                "Names, line 2: “ZOÉ” is the same name as “Zoé”, already one of the club's "
                "players.",
                "Names, line 4: “Dan” is already one of the club's players.",
            ],
        ),
        # Typed twice in the box, and alike but for case and an accent typed apart.
        (
            ["Ana", "Ben", "Ana", "e\u0301lise", "ÉLISE"],
            [
                "Names, line 3: “Ana” is on line 1 already.",
                "Names, line 5: “ÉLISE” is the same name as “élise” (line 4).",
            ],
        ),
        # Blank lines count as lines: the number is the one the box shows.
        (["Ana", "", "x" * 41], ["Names, line 3: a name has at most 40 characters."]),
        # An invisible character is no difference.
        (["Ana", "Ana\u200b"], ["Names, line 2: “Ana” is on line 1 already."]),
        (["", "  "], ["Names: enter the players' names, one a line."]),
    ],
)
def test_a_refused_line_is_named_and_nothing_is_stored(client, lines, messages):
    club = club_writes.create_club("Maison", players=["Zoé", "Dan"]).club
    text = "\n".join(lines)
    response = client.post(f"/c/{club.token}/players/", {"action": "add", "add-names": text})
    assert response.status_code == 200
    assert response.context["add_form"].errors["names"] == messages
    assert sorted(club.players.values_list("name", flat=True)) == ["Dan", "Zoé"]
    # What was typed is still there, the focus in it.
    box = re.search(r"<textarea[^>]*>(.*?)</textarea>", response.content.decode(), re.S)
    assert html.unescape(box[1]).strip("\n") == text.strip("\n")
    assert "autofocus" in box[0]


def test_more_names_than_a_box_takes_are_refused(client):
    club = club_writes.create_club("Maison").club
    text = "\n".join(f"Player {number}" for number in range(limits.ROSTER_ADD + 1))
    response = client.post(f"/c/{club.token}/players/", {"action": "add", "add-names": text})
    assert response.context["add_form"].errors["names"] == [
        "Names: at most 200 names at once, not 201."
    ]
    assert not club.players.exists()

"""Renaming the players and the session: through the one write path, from the full
link only, checked as at creation; every page and export follows the new names."""

import csv
import io
import json
import re

import pytest
from django.urls import reverse
from hypothesis import given
from hypothesis import strategies as st

from scoresheet import player_names, scoring
from scoresheet.clubs import writes as club_writes
from scoresheet.models import ClubPlayer, Sheet
from scoresheet.sheets import writes
from tests.reading import store
from tests.test_hardening import FUZZ, form_text

pytestmark = pytest.mark.django_db

# FFT rulebook: garde, 2 bouts, 49 points, taker Ana (seat 0) alone at 4 players: made by 8,
# (25 + 8) × 2 = 66 per defender, 198 for the taker.
GARDE = scoring.Hand(4, 0, "garde", 2, 49)


def players_url(sheet):
    return reverse("players", args=[sheet.token])


def form_data(name="Vendredi", players=("Ana", "Ben", "Chloé", "Dan")):
    return {"name": name} | {f"player_{seat}": player for seat, player in enumerate(players)}


def names_of(sheet):
    return list(sheet.seats.values_list("name", flat=True))


# The write path


def test_rename_changes_the_names_and_moves_the_revision_on(sheet4):
    store(sheet4, GARDE)
    before = Sheet.objects.get(pk=sheet4.pk)
    change = writes.rename(sheet4.token, "Samedi", ["Anne-Sophie", "Ben", "Chloé", "Dan"])
    assert change.done
    sheet = Sheet.objects.get(pk=sheet4.pk)
    assert sheet.name == "Samedi"
    assert names_of(sheet) == ["Anne-Sophie", "Ben", "Chloé", "Dan"]
    assert sheet.revision == before.revision + 1
    # The hands keep their seats: the scores do not move.
    assert sheet.totals == [198, -66, -66, -66] == before.totals
    assert sheet.hands.get().taker == 0


def test_two_players_can_swap_names(sheet4):
    writes.rename(sheet4.token, "Vendredi", ["Ben", "Ana", "Chloé", "Dan"])
    assert names_of(sheet4) == ["Ben", "Ana", "Chloé", "Dan"]
    assert list(sheet4.seats.values_list("key", flat=True)) == ["ben", "ana", "chloé", "dan"]


def test_the_same_names_write_nothing(sheet4):
    revision = Sheet.objects.get(pk=sheet4.pk).revision
    change = writes.rename(sheet4.token, "Vendredi", ["Ana", "Ben", "Chloé", "Dan"])
    assert not change.done
    assert Sheet.objects.get(pk=sheet4.pk).revision == revision


@pytest.mark.parametrize(
    ("name", "players"),
    [
        ("", ["Ana", "Ben", "Chloé", "Dan"]),
        ("x" * 81, ["Ana", "Ben", "Chloé", "Dan"]),
        ("Samedi", ["Ana", " ", "Chloé", "Dan"]),
        ("Samedi", ["Ana", "b" * 41, "Chloé", "Dan"]),
        ("Samedi", ["Ana", "ANA", "Chloé", "Dan"]),
        ("Samedi", ["Ana", "Ben", "Chloé"]),
    ],
    ids=["blank session", "long session", "blank player", "long player", "twice", "3 of 4"],
)
def test_the_write_path_refuses_what_the_form_refuses(sheet4, name, players):
    with pytest.raises(ValueError):
        writes.rename(sheet4.token, name, players)
    sheet = Sheet.objects.get(pk=sheet4.pk)
    assert (sheet.name, names_of(sheet), sheet.revision) == ("Vendredi", names_of(sheet4), 0)


def test_a_rename_of_a_club_sheet_keeps_each_seat_s_club_player():
    club = club_writes.create_club("Les amis").club
    sheet = club_writes.start_sheet(club, "Lundi", ["Ana", "Ben", "Chloé"], 0).sheet
    roster = club.club_sheets.get().players
    writes.rename(sheet.token, "Lundi", ["Anaïs", "Ben", "Chloé"])
    # The club still counts seat 0 for the roster's Ana, under her roster name.
    assert club.club_sheets.get().players == roster
    assert ClubPlayer.objects.get(pk=roster[0]).name == "Ana"


# The page


def test_the_sheet_links_to_the_players_page_from_the_full_link_only(client, sheet4):
    assert players_url(sheet4) in client.get(sheet4.get_absolute_url()).content.decode()
    read_only = client.get(sheet4.get_view_url()).content.decode()
    assert "/players/" not in read_only


def test_the_page_shows_the_names_to_change(client, sheet4):
    page = client.get(players_url(sheet4)).content.decode()
    for seat, name in enumerate(["Ana", "Ben", "Chloé", "Dan"]):
        assert re.search(rf'name="player_{seat}" value="{name}"', page)
    assert 'name="player_4"' not in page
    assert 'value="Vendredi"' in page


def test_a_rename_from_the_page_redirects_to_the_sheet_which_shows_it(client, sheet4):
    response = client.post(
        players_url(sheet4), form_data("Samedi", ["Ana", "Béa", "Chloé", "Dan"])
    )
    assert response.status_code == 302
    assert response["Location"] == sheet4.get_absolute_url()
    page = client.get(sheet4.get_absolute_url()).content.decode()
    assert "Samedi" in page
    assert "Béa" in page
    assert "Ben" not in page
    assert "Names saved." in page


@pytest.mark.parametrize(
    ("data", "field", "message"),
    [
        (form_data(name="  "), "name", "Session name: enter a name."),
        (form_data(name="n" * 81), "name", "at most 80 characters"),
        (form_data(players=("Ana", "", "Chloé", "Dan")), "player_1", "Player 2: enter a name."),
        (
            form_data(players=("Ana", "Ben", "\u200b", "Dan")),
            "player_2",
            "Player 3: enter a name.",
        ),
        (
            form_data(players=("Ana", "Ben", "Chloé", "b" * 41)),
            "player_3",
            "at most 40 characters",
        ),
        (
            form_data(players=("Ana", "Ben", "CHLOÉ", "chloé")),
            "player_3",
            "Player 4: “chloé” is already at the table.",
        ),
        (
            form_data(players=("Ana", "Ben", "Chloé", "ＡＮＡ")),
            "player_3",
            "is already at the table",
        ),
    ],
    ids=["blank session", "long session", "blank", "invisible", "long", "case", "full-width"],
)
def test_a_refused_rename_names_the_field_keeps_the_typing_and_changes_nothing(
    client, sheet4, data, field, message
):
    response = client.post(players_url(sheet4), data)
    assert response.status_code == 200
    errors = response.context["form"].errors[field]
    assert any(message in error for error in errors), errors
    page = response.content.decode()
    typed = data[field].strip()
    if typed and len(typed) <= 80:
        assert f'value="{typed}"' in page
    sheet = Sheet.objects.get(pk=sheet4.pk)
    assert (sheet.name, names_of(sheet), sheet.revision) == (
        "Vendredi",
        ["Ana", "Ben", "Chloé", "Dan"],
        0,
    )


def test_names_are_cleaned_as_at_creation(client, sheet4):
    client.post(
        players_url(sheet4),
        form_data("  Soirée   du  lundi ", ["A\u200bna", "Ben", "Chloé", "Dan"]),
    )
    sheet = Sheet.objects.get(pk=sheet4.pk)
    assert sheet.name == "Soirée du lundi"
    assert names_of(sheet)[0] == "Ana"


def test_the_read_only_link_reaches_no_rename(client, sheet4):
    # No such page under the read-only link; and its token is no full-access token.
    assert client.get(f"/v/{sheet4.view_token}/players/").status_code == 404
    assert client.post(f"/v/{sheet4.view_token}/players/", form_data("Pirate")).status_code == 404
    response = client.post(f"/s/{sheet4.view_token}/players/", form_data("Pirate"))
    assert response.status_code == 404
    assert Sheet.objects.get(pk=sheet4.pk).name == "Vendredi"


def test_a_club_sheet_says_what_the_club_keeps(client):
    club = club_writes.create_club("Les amis").club
    sheet = club_writes.start_sheet(club, "Lundi", ["Ana", "Ben", "Chloé"], 0).sheet
    page = client.get(players_url(sheet)).content.decode()
    assert "Les amis" in page


# Everything follows the new names


@pytest.fixture
def renamed(client, sheet4):
    store(sheet4, GARDE, None)
    client.post(players_url(sheet4), form_data("Samedi", ["Zoé", "Ben", "Chloé", "Dan"]))
    return Sheet.objects.get(pk=sheet4.pk)


def test_the_sheet_and_totals_follow(client, renamed):
    page = client.get(renamed.get_view_url()).content.decode()
    totals = re.search(r'<section id="totals".*?</section>', page, re.S).group(0)
    assert re.search(r'class="name"[^>]*>Zoé</span>\s*<span class="score positive">\+198', totals)
    assert "Ana" not in page
    assert '<h1 class="sheet-name" id="sheet-name">Samedi</h1>' in page


def test_the_statistics_and_chart_follow(client, renamed):
    stats = client.get(reverse("statistics", args=[renamed.token])).content.decode()
    assert "Zoé" in stats
    assert "Ana" not in stats
    chart = client.get(reverse("chart", args=[renamed.token])).content.decode()
    assert "Zoé" in chart
    assert "Ana" not in chart


def test_the_csv_and_the_backup_follow(client, renamed):
    response = client.get(reverse("export_csv", args=[renamed.token]))
    rows = list(csv.reader(io.StringIO(b"".join(response.streaming_content).decode("utf-8-sig"))))
    assert "Zoé" in rows[0]
    assert "Ana" not in rows[0]
    assert "Zoé" in rows[1]  # the taker of hand 1
    backup = client.get(reverse("export_json", args=[renamed.token]))
    data = json.loads(backup.getvalue())
    assert data["name"] == "Samedi"
    assert data["players"] == ["Zoé", "Ben", "Chloé", "Dan"]
    assert "Samedi" in backup["Content-Disposition"]


def test_another_phone_s_live_poll_brings_the_new_names(client, htmx, sheet4):
    page = client.get(sheet4.get_view_url()).content.decode()
    revision = re.search(r'data-revision="(\d+)"', page).group(1)
    writes.rename(sheet4.token, "Samedi", ["Zoé", "Ben", "Chloé", "Dan"])
    response = htmx.get(reverse("view_live", args=[sheet4.view_token]), {"revision": revision})
    html = response.content.decode()
    assert re.search(
        r'<h1 class="sheet-name" id="sheet-name" hx-swap-oob="true">Samedi</h1>', html
    )
    assert re.search(r'id="totals"[^>]*hx-swap-oob="true"', html)
    assert re.search(r'class="name"[^>]*>Zoé</span>', html)


def test_the_new_session_form_suggests_the_new_names(client, renamed):
    client.get(renamed.get_absolute_url())
    known = client.get(reverse("new_sheet")).context["known_names"]
    assert "Zoé" in known
    assert "Ana" not in known


@FUZZ
@given(players=st.lists(form_text, min_size=4, max_size=4), name=form_text)
def test_fuzz_rename(client, sheet4, players, name):
    before = Sheet.objects.get(pk=sheet4.pk)
    response = client.post(players_url(sheet4), form_data(name, players))
    assert response.status_code in (200, 302)
    after = Sheet.objects.get(pk=sheet4.pk)
    if response.status_code == 200:
        # Refused: nothing changed.
        assert (after.name, after.revision) == (before.name, before.revision)
    else:
        cleaned = [player_names.clean(player) for player in players]
        assert names_of(after) == cleaned
        assert len({player_names.key(player) for player in cleaned}) == 4
        assert after.name == player_names.clean(name)

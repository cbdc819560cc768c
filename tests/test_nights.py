"""The club night: creating one, its tables as club sessions, the round's flow, the
ranking from stored totals, its pages live and read-only, its files."""

import csv
import html
import io
import itertools
import re
import uuid
from datetime import UTC, date, datetime, timedelta

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoresheet import scoring
from scoresheet.clubs import writes as club_writes
from scoresheet.files import club_backup
from scoresheet.models import ClubSheet, Night, NightTable, Sheet, SpentKey
from scoresheet.nights import draw, ranking
from scoresheet.nights import writes as night_writes
from scoresheet.sheets import writes
from tests.reading import totals_of
from tests.test_concurrency import at_once

NAMES = ["Ana", "Ben", "Chloé", "Dan", "Élise", "Farid", "Gaëlle", "Hugo", "Inès", "Jules"]


def players(count):
    return [*NAMES, *(f"Player {n}" for n in range(count))][:count]


@pytest.fixture
def club(db):
    return club_writes.create_club("Le Petit", players=NAMES[:4]).club


def new_night(club, count=9, rounds=3, deals=2, minutes=None, rules=None, seed="123456"):
    return night_writes.create_night(
        club,
        "Vendredi",
        date(2026, 12, 4),
        players(count),
        rounds,
        deals,
        minutes,
        rules,
        seed=seed,
    ).night


def garde(seats, taker=0, points=56):
    """A garde made with 2 bouts (docs/rules.md §2.1: 41 needed at 2 bouts, so 56 points is made
    by 15)."""
    partner = (taker + 1) % seats if seats == 5 else None
    return scoring.Hand(
        seats=seats, taker=taker, contract="garde", bouts=2, points=points, partner=partner
    )


def play(table_sheet, hands):
    seats = table_sheet.seats.count()
    for taker, points in hands:
        # Past the plan too: what is summed here is every stored hand.
        writes.add_hand(
            table_sheet.token, garde(seats, taker % seats, points), uuid.uuid4(), beyond_plan=True
        )


def form(**changes):
    data = {
        "name": "Tournoi de décembre",
        "date": "2026-12-04",
        "players": NAMES[:4],
        "new_players": "Élise\nFarid\nGaëlle\nHugo\nInès",
        "rounds": "5",
        "deals": "4",
        "minutes": "",
        # Ticked, as the form shows it.
        "passed_counts": "on",
        "key": str(uuid.uuid4()),
    }
    data.update(changes)
    return data


# Creating a night


def test_the_new_night_page_ticks_from_the_roster(client, club):
    page = client.get(reverse("night_new", args=[club.token])).content.decode()
    for name in NAMES[:4]:
        assert f'value="{name}"' in page
    assert 'name="rounds"' in page
    assert 'value="5"' in page


def test_a_new_night_draws_round_1_as_sessions_of_the_club(client, club):
    response = client.post(reverse("night_new", args=[club.token]), form())
    night = Night.objects.get(club=club)
    assert response.status_code == 302
    assert response.url == reverse("night", args=[club.token, night.number])
    # Nine players: a table of 5 and a table of 4, each a session of the club.
    tables = list(night.tables.select_related("club_sheet__sheet"))
    assert sorted(len(t.players) for t in tables) == [4, 5]
    assert [t.club_sheet.sheet.name for t in tables] == [
        "Tournoi de décembre · Round 1 · Table 1",
        "Tournoi de décembre · Round 1 · Table 2",
    ]
    names = dict(club.players.values_list("pk", "name"))
    for table in tables:
        sheet = table.club_sheet.sheet
        seats = list(sheet.seats.order_by("position").values_list("name", flat=True))
        assert seats == [names[p] for p in table.players]
        assert table.club_sheet.players == table.players
        assert sheet.game_rules == scoring.FFT
    # The new names joined the roster.
    assert club.players.count() == 9
    assert night.seed in client.get(response.url).content.decode()


def test_the_same_new_night_form_sent_twice_makes_one_night(client, club):
    data = form()
    first = client.post(reverse("night_new", args=[club.token]), data)
    second = client.post(reverse("night_new", args=[club.token]), data)
    assert first.url == second.url
    assert Night.objects.count() == 1
    assert SpentKey.objects.filter(made=SpentKey.Made.NIGHT).count() == 1


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        ({"players": ["Ana"], "new_players": "Ben2\nCarl"}, "players", "at least 8 players"),
        ({"new_players": "Élise\nFarid\nGaëlle\nHugo\nélise"}, "new_players", "there twice"),
        ({"new_players": "Ana\nFarid\nGaëlle\nHugo\nInès"}, "new_players", "there twice"),
        ({"rounds": "500"}, "rounds", "Rounds: a whole number from 1 to 20."),
        ({"rounds": "0"}, "rounds", "Rounds: a whole number from 1 to 20."),
        ({"deals": "-3"}, "deals", "Deals per round: a whole number from 1 to 40."),
        ({"deals": "many"}, "deals", "Deals per round: a whole number from 1 to 40."),
        ({"minutes": "100000"}, "minutes", "Minutes per round: leave it empty"),
        ({"name": "  "}, "name", "Name of the night: enter a name."),
        ({"date": "31/02/2026"}, "date", "Date: enter a date such as 2026-03-14."),
        ({"players": ["Nobody"]}, "players", "Players present: tick the club's players."),
    ],
)
def test_a_refused_night_names_the_field_and_keeps_the_input(
    client, club, changes, field, message
):
    data = form(**changes)
    response = client.post(reverse("night_new", args=[club.token]), data)
    page = response.content.decode()
    assert response.status_code == 200
    assert message in page.replace("&#x27;", "'")
    assert response.context["form"].has_error(field)
    # What was typed is still there.
    assert "Tournoi de décembre" in page or field == "name"
    assert Night.objects.count() == 0


def test_eleven_players_play_at_4_4_and_3(club):
    night = new_night(club, count=11)
    sizes = sorted(len(t.players) for t in night.tables.all())
    assert sizes == [3, 4, 4]
    # The table of 3 is a session of 3 seats, scored as such.
    small = night.tables.get(table=3).club_sheet.sheet
    play(small, [(0, 56)])
    small.refresh_from_db()
    assert sum(small.totals) == 0


def test_the_dealer_sits_out_at_the_tables_of_5_only(club):
    rules = scoring.Rules(dealer_sits_out=True)
    night = new_night(club, count=9, rules=rules)
    by_size = {
        len(t.players): t.club_sheet.sheet for t in night.tables.select_related("club_sheet")
    }
    assert by_size[5].game_rules.dealer_sits_out
    assert not by_size[4].game_rules.dealer_sits_out


# The round's flow


def test_draw_round_appears_once_every_table_has_its_deals(client, club):
    night = new_night(club, count=8, deals=2)
    url = reverse("night", args=[club.token, night.number])
    assert "Draw round 2 now" in client.get(url).content.decode()
    for table in night.tables.select_related("club_sheet__sheet"):
        play(table.club_sheet.sheet, [(0, 56), (1, 40)])
    page = client.get(url).content.decode()
    assert "Draw round 2</button>" in page
    assert "4 of 4 deals entered" in page
    response = client.post(reverse("night_draw", args=[club.token, night.number]), {"round": "2"})
    assert response.status_code == 302
    night.refresh_from_db()
    assert night.drawn == 2
    assert NightTable.objects.filter(night=night, round=2).count() == 2


def test_a_double_draw_draws_once(client, club):
    night = new_night(club, count=12)
    url = reverse("night_draw", args=[club.token, night.number])
    client.post(url, {"round": "2"})
    response = client.post(url, {"round": "2"}, follow=True)
    assert "Round 2 was drawn already." in response.content.decode()
    night.refresh_from_db()
    assert night.drawn == 2
    assert night.tables.count() == 6
    assert ClubSheet.objects.filter(club=club).count() == 6


@pytest.mark.parametrize("wanted", ["", "x", "99999", "1"])
def test_a_draw_of_another_round_draws_nothing(client, club, wanted):
    night = new_night(club, count=8)
    client.post(reverse("night_draw", args=[club.token, night.number]), {"round": wanted})
    assert night.tables.count() == 2


def test_no_round_is_drawn_beyond_those_planned(club):
    night = new_night(club, count=8, rounds=1)
    assert not night_writes.draw_round(club, night, 2).done
    client = Client()
    page = client.get(reverse("night", args=[club.token, night.number])).content.decode()
    assert "Draw round" not in page


@pytest.mark.django_db(transaction=True)
def test_two_organisers_drawing_at_once_draw_once(concurrent_db):
    club = club_writes.create_club("Le Petit").club
    night = new_night(club, count=16)
    url = reverse("night_draw", args=[club.token, night.number])
    responses = at_once(*(lambda: Client().post(url, {"round": "2"}) for _each in range(3)))
    assert [r.status_code for r in responses] == [302, 302, 302]
    night.refresh_from_db()
    assert night.drawn == 2
    assert NightTable.objects.filter(night=night).count() == 8
    assert ClubSheet.objects.filter(club=club).count() == 8


def test_a_player_who_leaves_is_out_and_a_late_arrival_in(client, club):
    night = new_night(club, count=9)
    url = reverse("night_players", args=[club.token, night.number])
    ana = club.players.get(name="Ana")
    client.post(url, {"action": "leave", "player": str(ana.pk)})
    client.post(url, {"action": "join", "name": "Zoé"})
    client.post(reverse("night_draw", args=[club.token, night.number]), {"round": "2"})
    second = [p for t in night.tables.filter(round=2) for p in t.players]
    zoe = club.players.get(name="Zoé")
    assert ana.pk not in second
    assert zoe.pk in second
    assert len(second) == 9
    # Ana's round 1 still counts: she stays in the ranking, marked as gone.
    night.refresh_from_db()
    lines = {line.name: line for line in ranking.read(night).lines}
    assert lines["Ana"].gone
    assert lines["Ana"].rounds[1] is None


def test_a_late_arrival_past_the_night_s_limit_is_refused(client, club):
    # limits.NIGHT_MOST: a night seats 200 players at most, late arrivals included.
    night = new_night(club, count=200)
    roster = club.players.count()
    url = reverse("night_players", args=[club.token, night.number])
    response = client.post(url, {"action": "join", "name": "Zoé"}, follow=True)
    assert "A late arrival: a night seats at most 200 players." in response.content.decode()
    night.refresh_from_db()
    assert len(night.players) == 200
    # Refused whole: the new name did not join the roster either.
    assert club.players.count() == roster
    assert not club.players.filter(name="Zoé").exists()
    # One who left and comes back is no new place: still 200.
    ana = club.players.get(name="Ana")
    night_writes.leave(club, night, ana.pk)
    response = client.post(url, {"action": "join", "name": "Ana"}, follow=True)
    assert "Added: in the next draws." in response.content.decode()
    night.refresh_from_db()
    assert (len(night.players), night.gone) == (200, [])


def test_a_late_arrival_takes_the_last_place(club):
    night = new_night(club, count=199)
    night_writes.join(club, night, "Zoé")
    night.refresh_from_db()
    assert len(night.players) == 200
    assert club.players.get(name="Zoé").pk in night.players


@pytest.mark.django_db(transaction=True)
def test_two_late_arrivals_at_once_for_the_last_place_one_gets_in(concurrent_db):
    club = club_writes.create_club("Le Petit").club
    night = new_night(club, count=199)
    url = reverse("night_players", args=[club.token, night.number])
    responses = at_once(
        *(
            lambda name=name: Client().post(url, {"action": "join", "name": name}, follow=True)
            for name in ("Zoé", "Yves")
        )
    )
    pages = [response.content.decode() for response in responses]
    assert [r.status_code for r in responses] == [200, 200]
    assert sorted("Added: in the next draws." in page for page in pages) == [False, True]
    assert sum("a night seats at most 200 players." in page for page in pages) == 1
    night.refresh_from_db()
    assert len(night.players) == 200
    # The one refused did not join the roster: 199 and the one who got in.
    assert club.players.filter(name__in=["Zoé", "Yves"]).count() == 1
    assert club.players.count() == 200


def test_a_round_with_fewer_than_8_present_is_refused(client, club):
    night = new_night(club, count=8)
    ana = club.players.get(name="Ana")
    client.post(
        reverse("night_players", args=[club.token, night.number]),
        {"action": "leave", "player": str(ana.pk)},
    )
    response = client.post(
        reverse("night_draw", args=[club.token, night.number]), {"round": "2"}, follow=True
    )
    assert "A round needs at least 8 players present." in response.content.decode()
    night.refresh_from_db()
    assert night.drawn == 1


def test_the_night_s_sessions_count_in_the_club_s_standings(club):
    night = new_night(club, count=8)
    table = night.tables.select_related("club_sheet__sheet").first()
    play(table.club_sheet.sheet, [(0, 56)])
    from scoresheet.clubs import standings as clubs

    standings = clubs.standings(club, clubs.Period("all"), "points")
    assert standings.session_count == 2
    points = {row.player.pk: row.points for row in standings.rows}
    sheet = Sheet.objects.get(pk=table.club_sheet.sheet_id)
    assert [points[p] for p in table.players] == list(sheet.totals)


# The ranking


def expected_places(totals):
    """Places as a ranking gives them: ties share the place, the next skips (1, 1, 3)."""
    return [1 + sum(other > mine for other in totals) for mine in totals]


@settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    count=st.integers(8, 14),
    rounds=st.integers(1, 3),
    hands=st.lists(st.tuples(st.integers(0, 4), st.integers(8, 87)), max_size=4),
)
@pytest.mark.django_db
def test_the_ranking_is_the_sum_of_the_tables_totals(count, rounds, hands):
    club = club_writes.create_club("Hypothèse").club
    night = new_night(club, count=count, rounds=rounds)
    for number in range(1, rounds + 1):
        if number > 1:
            night_writes.draw_round(club, night, number)
        for table in night.tables.filter(round=number).select_related("club_sheet__sheet"):
            play(table.club_sheet.sheet, hands)
    night.refresh_from_db()
    sums, per_round = {}, {}
    for table in night.tables.select_related("club_sheet__sheet"):
        for player, total in zip(table.players, totals_of(table.club_sheet.sheet), strict=True):
            sums[player] = sums.get(player, 0) + total
            per_round[player, table.round] = total
    lines = ranking.read(night).lines
    assert {line.player: line.total for line in lines} == sums
    for line in lines:
        assert line.rounds == [per_round[line.player, n] for n in range(1, rounds + 1)]
    totals = [line.total for line in lines]
    assert totals == sorted(totals, reverse=True)
    assert [line.place for line in lines] == expected_places(totals)


def test_ties_share_a_place():
    tables = [ranking.Table(1, 1, [1, 2, 3, 4], totals=[30, 30, -30, -30])]
    lines = ranking.ranking({1: "Ana", 2: "Ben", 3: "Chloé", 4: "Dan"}, tables, 1)
    assert [(line.place, line.name) for line in lines] == [
        (1, "Ana"),
        (1, "Ben"),
        (3, "Chloé"),
        (3, "Dan"),
    ]


# Pages, live, read-only


def night_of(count, rounds=5, deals=4):
    """A night of ``count`` players, every round drawn and every deal played."""
    club = club_writes.create_club(f"Club {count}").club
    night = new_night(club, count=count, rounds=rounds, deals=deals)
    for number in range(1, rounds + 1):
        if number > 1:
            night_writes.draw_round(club, night, number)
        for table in night.tables.filter(round=number).select_related("club_sheet__sheet"):
            play(table.club_sheet.sheet, [(seat, 40 + seat) for seat in range(deals)])
    night.refresh_from_db()
    return club, night


@pytest.mark.parametrize(
    ("name", "readonly"),
    [
        ("night", False),
        ("night_screen", False),
        ("night_csv", False),
        ("view_night", True),
        ("view_night_screen", True),
    ],
)
def test_the_night_s_pages_cost_the_same_at_8_and_60_players(
    db, name, readonly, django_assert_num_queries
):
    counts = {}
    for players_count in (8, 60):
        club, night = night_of(players_count, rounds=2, deals=2)
        token = club.view_token if readonly else club.token
        url = reverse(name, args=[token, night.number])
        client = Client()
        client.get(url)
        from django.db import connection
        from django.test.utils import CaptureQueriesContext

        with CaptureQueriesContext(connection) as queries:
            assert client.get(url).status_code == 200
        counts[players_count] = len(queries)
    assert counts[8] == counts[60]
    assert counts[8] <= 6


def test_an_unchanged_poll_is_a_204_of_two_queries(client, club, django_assert_num_queries):
    night = new_night(club, count=8)
    page = client.get(reverse("night", args=[club.token, night.number]))
    version = page.context["version"]
    live = reverse("night_live", args=[club.token, night.number])
    with django_assert_num_queries(2):
        assert client.get(live, {"version": version}).status_code == 204
    # A hand at any table: the poll answers the live region with the new ranking.
    table = night.tables.select_related("club_sheet__sheet").first()
    play(table.club_sheet.sheet, [(0, 56)])
    response = client.get(live, {"version": version, "screen": "1"})
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="night-live"' in html
    assert html.count('class="screen-line"') == 8
    assert "<html" not in html
    # The night's page asks for its own region: the ranking's table and the tables' codes.
    page_region = client.get(live, {"version": version}).content.decode()
    assert page_region.count("<tr") == 1 + 8
    assert page_region.count('class="qr"') == 2
    assert f'data-version="{version}"' not in html


def test_the_read_only_links_show_no_full_link_and_change_nothing(client, club):
    night = new_night(club, count=8)
    for name in ("view_night", "view_night_screen", "view_night_json", "view_night_csv"):
        response = client.get(reverse(name, args=[club.view_token, night.number]))
        assert response.status_code == 200
        body = response.content.decode()
        assert club.token not in body
        for table in night.tables.select_related("club_sheet__sheet"):
            assert table.club_sheet.sheet.token not in body
    # The view token opens no write, and the full links are under /c/ only.
    for path in ("draw/", "players/"):
        url = f"/cv/{club.view_token}/nights/{night.number}/{path}"
        assert client.post(url, {"round": "2"}).status_code == 404
    assert client.get(f"/c/{club.view_token}/nights/1/").status_code == 404
    assert client.get(f"/c/{club.token}/nights/99999999/").status_code == 404


def test_the_night_page_shows_each_table_s_code_and_progress(client, club):
    night = new_night(club, count=9, deals=4)
    page = client.get(reverse("night", args=[club.token, night.number])).content.decode()
    for table in night.tables.select_related("club_sheet__sheet"):
        sheet = table.club_sheet.sheet
        assert reverse("qr", args=[sheet.token]) in page
        assert sheet.get_absolute_url() in page
    assert "0/4 deals" in page


def test_the_timer_counts_the_round_s_minutes(client, club):
    night = new_night(club, count=8, minutes=45)
    page = client.get(reverse("night_screen", args=[club.token, night.number])).content.decode()
    assert "data-left=" in page
    assert ("45:00" in page) or ("44:59" in page)


def test_the_club_page_shows_the_night_and_its_winner(client, club):
    night = new_night(club, count=8)
    table = night.tables.select_related("club_sheet__sheet").get(table=1)
    play(table.club_sheet.sheet, [(0, 80)])
    names = dict(club.players.values_list("pk", "name"))
    winner = names[table.players[0]]
    for url in (club.get_absolute_url(), club.get_view_url()):
        page = client.get(url).content.decode()
        assert "Vendredi" in page
        assert f"Winner: <strong>{winner}</strong>" in page
    assert (
        reverse("night_new", args=[club.token])
        in client.get(club.get_absolute_url()).content.decode()
    )


# Files


def test_the_ranking_csv(client, club):
    night = new_night(club, count=8, rounds=2)
    night_writes.draw_round(club, night, 2)
    for table in night.tables.select_related("club_sheet__sheet"):
        play(table.club_sheet.sheet, [(0, 56)])
    night.refresh_from_db()
    response = client.get(reverse("night_csv", args=[club.token, night.number]))
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert rows[0] == ["Place", "Player", "Round 1", "Round 2", "Total"]
    assert len(rows) == 9
    for row in rows[1:]:
        assert int(row[2]) + int(row[3]) == int(row[4])
    lines = ranking.read(night).lines
    assert [row[1] for row in rows[1:]] == [line.name for line in lines]


def test_the_backup_round_trip_keeps_the_nights(club):
    night = new_night(club, count=9, rounds=3, minutes=30)
    night_writes.draw_round(club, night, 2)
    ana = club.players.get(name="Ana")
    night_writes.leave(club, night, ana.pk)
    for table in night.tables.select_related("club_sheet__sheet"):
        play(table.club_sheet.sheet, [(0, 56), (1, 30)])
    # A session of the club outside the night, played earlier: indexes must still match.
    club_writes.start_sheet(club, "Mardi", NAMES[:4], 0)
    data = club_backup.dump(club)
    assert [n["name"] for n in data["nights"]] == ["Vendredi"]
    saved = data["nights"][0]
    assert len(saved["rounds"]) == 2
    for tables in saved["rounds"]:
        for table in tables:
            assert data["sessions"][table["session"]]["players"] == table["players"]
    restored = club_backup.load(club_backup.dumps(data))
    again = restored.nights.get()
    assert (again.name, again.date, again.seed, again.deals, again.rounds, again.minutes) == (
        "Vendredi",
        date(2026, 12, 4),
        night.seed,
        2,
        3,
        30,
    )
    names = dict(restored.players.values_list("pk", "name"))
    assert [names[p] for p in again.gone] == ["Ana"]
    before = {line.name: line.total for line in ranking.read(Night.objects.get(pk=night.pk)).lines}
    after = {line.name: line.total for line in ranking.read(again).lines}
    assert after == before
    for table in again.tables.select_related("club_sheet__sheet"):
        assert (
            table.club_sheet.sheet.name == f"Vendredi · Round {table.round} · Table {table.table}"
        )
    # And the restored club writes the same nights again.
    assert club_backup.dump(restored)["nights"] == data["nights"]


def test_an_older_backup_without_nights_is_still_valid(club):
    club_writes.start_sheet(club, "Mardi", NAMES[:4], 0)
    data = club_backup.dump(club)
    assert "nights" not in data
    assert club_backup.load(club_backup.dumps(data)).nights.count() == 0


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda n: n.update(nights={}), "Nights: give the list"),
        (lambda n: n["nights"][0].pop("seed"), "Night 1: it has no “seed”."),
        (lambda n: n["nights"][0].update(deals=0), "Night 1: Deals"),
        (lambda n: n["nights"][0].update(date="soon"), "Night 1: Date"),
        (lambda n: n["nights"][0].update(extra=1), "unknown entry"),
        (lambda n: n["nights"][0]["rounds"][0][0].update(session=99), "“session”"),
        (
            lambda n: n["nights"][0]["rounds"][0][0].update(players=["Ana", "X", "Y", "Z"]),
            "is not one of",
        ),
        (lambda n: n["nights"][0]["rounds"][0][0]["players"].reverse(), "same seats"),
    ],
)
def test_a_wrong_night_in_a_backup_is_refused_whole(club, change, message):
    new_night(club, count=8)
    data = club_backup.dump(club)
    change(data)
    from scoresheet.files import session_backup as backup

    with pytest.raises(backup.BackupError) as refused:
        club_backup.read(club_backup.dumps(data))
    assert message in refused.value.message


def test_night_json_is_the_backup_s_night(client, club):
    night = new_night(club, count=8)
    import json

    response = client.get(reverse("night_json", args=[club.token, night.number]))
    data = json.loads(response.content)
    assert data["club"] == "Le Petit"
    assert {k: v for k, v in data.items() if k != "club"} == club_backup.dump(club)["nights"][0]
    assert data["rounds"][0][0]["table"] == 1


def test_table_sizes_and_repeats_hold_for_the_app_s_ids(club):
    """The draw through the app: 16 players over 5 rounds meet nobody twice."""
    night = new_night(club, count=16, rounds=5)
    for number in range(2, 6):
        night_writes.draw_round(club, night, number)
    rounds = [[t.players for t in night.tables.filter(round=n)] for n in range(1, 6)]
    assert draw.repeated_meetings(rounds) == 0
    assert len(set(itertools.chain.from_iterable(itertools.chain.from_iterable(rounds)))) == 16


def test_round_1_is_redrawn_from_the_night_s_file_alone(client, club):
    """docs/club-night.md, "Redraw round 1": the file's players in their order (those seated
    in round 1), shuffled by Python's random seeded with "<seed>:1", seated in turn at tables
    of 4, of 5 for the players 4s leave over, 4 + 4 + 3 for eleven, the larger first. Written
    here from the documentation, not from the app's draw."""
    import json
    import random

    def sizes(count):
        if count == 11:
            return [4, 4, 3]
        tables, over = divmod(count, 4)
        return [5] * over + [4] * (tables - over)

    for count, seed in ((8, "123456"), (9, "777"), (11, "42"), (13, "990011"), (16, "5")):
        night = new_night(club, count=count, seed=seed)
        # A late arrival after round 1 is listed too, after those who came first.
        night_writes.join(club, night, f"Late {count}")
        response = client.get(reverse("view_night_json", args=[club.view_token, night.number]))
        data = json.loads(response.content)
        seated = {name for table in data["rounds"][0] for name in table["players"]}
        order = [name for name in data["players"] if name in seated]
        random.Random(f"{data['seed']}:1").shuffle(order)
        redrawn, start = [], 0
        for size in sizes(len(order)):
            redrawn.append(order[start : start + size])
            start += size
        assert [table["players"] for table in data["rounds"][0]] == redrawn
        assert data["players"][-1] == f"Late {count}"


def test_everyone_ticks_every_player_without_javascript(client, club):
    """The "Everyone" button sends the form: it comes back with every box ticked (or none,
    when all were), what was typed kept, and no night made."""
    url = reverse("night_new", args=[club.token])
    data = form(players=["Ben"], everyone="1", new_players="Élise")
    response = client.post(url, data)
    assert response.status_code == 200
    assert Night.objects.count() == 0
    page = response.content.decode()
    ticked = re.findall(r'<input type="checkbox" name="players" value="([^"]*)"[^>]*checked', page)
    assert ticked == ["Ana", "Ben", "Chloé", "Dan"]
    assert 'aria-pressed="true"' in page
    assert "Tournoi de décembre" in page
    assert "Élise</textarea>" in page
    assert '<ul class="errorlist' not in page
    response = client.post(url, form(everyone="1"))
    page = response.content.decode()
    assert re.findall(r'name="players" value="[^"]*"[^>]*checked', page) == []
    assert 'aria-pressed="false"' in page
    # The form's own button then makes the night, with the players ticked.
    response = client.post(url, form(players=ticked))
    assert response.status_code == 302
    assert Night.objects.count() == 1


@pytest.mark.parametrize(
    ("language", "not_yet", "draw_number", "why"),
    [
        (
            "en",
            "Not every table has played its deals yet.",
            "Draw number:",
            "anyone can redraw round 1 from it",
        ),
        (
            "fr",
            "Toutes les tables n’ont pas encore joué leurs donnes.",
            "Numéro du tirage\u00a0:",
            "chacun peut refaire le tirage de la manche 1 à partir de lui",
        ),
        (
            "es",
            "No todas las mesas han jugado aún sus manos.",
            "Número del sorteo:",
            "cualquiera puede repetir con él el sorteo de la ronda 1",
        ),
    ],
)
def test_the_night_page_says_what_is_not_done_and_what_the_draw_number_is(
    client, club, language, not_yet, draw_number, why
):
    """Before every table has played: "not every table", never "every table has not"; the seed
    is named for what it does, with its value."""
    night = new_night(club, count=8, deals=2, seed="424242")
    url = reverse("night", args=[club.token, night.number])
    page = html.unescape(client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode())
    assert not_yet in page
    assert "Every table has not" not in page
    assert "Seed" not in page
    assert f'{draw_number} <strong class="seed">424242</strong>' in page
    assert f"({why})" in page
    # Once every table has played its deals, the warning goes.
    for table in night.tables.select_related("club_sheet__sheet"):
        play(table.club_sheet.sheet, [(0, 56), (1, 40)])
    page = html.unescape(client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode())
    assert not_yet not in page


# The room: the screen, its short address, the plan of deals


def screen_of(client, club, night) -> str:
    return client.get(reverse("night_screen", args=[club.token, night.number])).content.decode()


def test_right_after_a_draw_the_seating_takes_the_screen_until_a_deal(client, club):
    night = new_night(club, count=8, rounds=2, deals=1)
    page = screen_of(client, club, night)
    assert 'class="screen-live seating"' in page
    assert "Round 1: the tables" in page
    assert 'class="screen-lines"' not in page
    names = dict(club.players.values_list("pk", "name"))
    for table in night.tables.all():
        # Each table's players, one a line, in full.
        assert "".join(f"<li>{names[p]}</li>" for p in table.players) in page
    tables = list(night.tables.select_related("club_sheet__sheet"))
    play(tables[0].club_sheet.sheet, [(0, 56)])
    page = screen_of(client, club, night)
    assert 'class="screen-live playing"' in page
    assert page.count('class="screen-line"') == 8
    assert page.count('<li class="screen-table') == 2
    play(tables[1].club_sheet.sheet, [(0, 56)])
    night_writes.draw_round(club, night, 2)
    assert 'class="screen-live seating"' in screen_of(client, club, night)


def test_after_the_last_round_the_screen_shows_the_final_ranking_and_no_timer(client, club):
    night = new_night(club, count=8, rounds=1, deals=1, minutes=30)
    assert "data-left=" in screen_of(client, club, night)
    for table in night.tables.select_related("club_sheet__sheet"):
        play(table.club_sheet.sheet, [(0, 56)])
    page = screen_of(client, club, night)
    assert 'class="screen-live final"' in page
    assert "Final ranking" in page
    assert "Round 1 of 1" not in page
    assert "data-left=" not in page
    # A garde made by 15 at each table: each taker +240, each defender −80 (docs/rules.md
    # §2): the two takers share first place, the first defender by name is third.
    podium = page.split('class="podium">', 1)[1].split("</ol>", 1)[0]
    assert podium.count("<li") == 3
    places = [int(p) for p in re.findall(r'class="place">(\d+)<', podium)]
    totals = re.findall(r'class="total">([^<]+)<', podium)
    assert places == [1, 1, 3]
    assert totals == ["240", "240", "−80"]
    # The five others below it.
    assert page.count('class="screen-line"') == 5


def test_a_table_past_its_plan_shows_5_of_4_in_the_warning_colour(client, club):
    night = new_night(club, count=8, deals=4)
    first, _second = night.tables.select_related("club_sheet__sheet").order_by("table")
    play(first.club_sheet.sheet, [(seat, 56) for seat in range(5)])
    page = client.get(reverse("night", args=[club.token, night.number])).content.decode()
    assert '<li class="night-table done beyond"><h3>Table 1</h3>' in page
    assert '<p class="progress">5/4 deals</p>' in page
    assert '<li class="night-table"><h3>Table 2</h3>' in page
    screen = screen_of(client, club, night)
    assert re.search(
        r'<li class="screen-table done beyond"><strong>Table 1</strong> '
        r'<span class="count">5/4</span>',
        screen,
    )
    assert '<li class="screen-table"><strong>Table 2</strong> <span class="count">0/4</span>' in (
        screen
    )


@pytest.mark.parametrize(("passed_counts", "shown"), [(True, "2/4 deals"), (False, "1/4 deals")])
def test_a_passed_deal_counts_as_a_deal_unless_the_night_says_not(
    client, club, passed_counts, shown
):
    night = night_writes.create_night(
        club, "Samedi", date(2026, 12, 5), players(8), 2, 4, seed="1", passed_counts=passed_counts
    ).night
    sheet = night.tables.select_related("club_sheet__sheet").get(table=1).club_sheet.sheet
    writes.add_hand(sheet.token, None, uuid.uuid4())
    writes.add_hand(sheet.token, garde(4), uuid.uuid4())
    page = client.get(reverse("night", args=[club.token, night.number])).content.decode()
    assert f'<p class="progress">{shown}</p>' in page
    sentence = (
        "A passed deal counts as a deal."
        if passed_counts
        else "A passed deal does not count as a deal: the table deals again."
    )
    assert sentence in page


def test_the_new_night_form_says_whether_a_passed_deal_counts(client, club):
    url = reverse("night_new", args=[club.token])
    assert re.search(
        r'<input type="checkbox" name="passed_counts"[^>]* checked',
        (client.get(url).content.decode()),
    )
    client.post(url, form())
    unticked = form()
    del unticked["passed_counts"]
    client.post(url, unticked)
    assert list(Night.objects.order_by("number").values_list("passed_counts", flat=True)) == [
        True,
        False,
    ]


SCREEN_CODE = re.compile(r"^[23456789abcdefghjkmnpqrstuvwxyz]{8}$")


def test_every_night_has_a_short_screen_code_of_its_own(club):
    nights = [new_night(club, count=8, rounds=1) for _night in range(25)]
    codes = [night.screen for night in nights]
    assert len(set(codes)) == 25
    for code in codes:
        assert SCREEN_CODE.match(code)
        # At most 12 characters after the host.
        assert len(reverse("tv", args=[code])) <= 12


def test_the_short_address_opens_the_screen_read_only(client, club):
    night = new_night(club, count=8)
    other = club_writes.create_club("Ailleurs").club
    new_night(other, count=8)
    address = f"/tv/{night.screen}"
    response = client.get(address)
    assert response.status_code == 200
    page = response.content.decode()
    assert 'id="night-live" class="screen-live' in page
    assert "<h1>Vendredi</h1>" in page
    # Read-only: no full link, no form; it polls under the read-only link.
    assert club.token not in page
    for table in night.tables.select_related("club_sheet__sheet"):
        assert table.club_sheet.sheet.token not in page
    assert "<form" not in page
    assert f"/cv/{club.view_token}/nights/{night.number}/live/" in page
    # Typed on a remote: either case, with or without the slash.
    assert client.get(address.upper().replace("/TV/", "/tv/")).status_code == 200
    assert client.get(address + "/").status_code == 200
    assert client.post(address).status_code == 405
    for wrong in ("/tv/22222222", "/tv/abc", f"/tv/{night.screen}x", "/tv/"):
        assert client.get(wrong).status_code == 404, wrong


def test_the_night_page_shows_the_short_address_to_copy_never_a_long_link(client, club):
    night = new_night(club, count=8)
    for token, name in ((club.token, "night"), (club.view_token, "view_night")):
        page = client.get(reverse(name, args=[token, night.number])).content.decode()
        assert (
            f'<input type="text" id="tv-link" readonly value="http://testserver/tv/{night.screen}">'
            in page
        )
        assert 'data-copy="tv-link"' in page
        shown = re.sub(r"<[^>]+>", " ", page)
        assert "/cv/" not in shown
        assert "/c/" not in shown


def test_the_screen_s_qr_code_is_the_read_only_ranking(client, club):
    night = new_night(club, count=8)
    qr = reverse("view_night_qr", args=[club.view_token, night.number])
    assert f'src="{qr}"' in screen_of(client, club, night)
    response = client.get(qr)
    assert response.status_code == 200
    assert response["Content-Type"] == "image/svg+xml"
    assert f"<title>http://testserver/cv/{club.view_token}/nights/1/</title>" in (
        response.content.decode()
    )
    assert club.token not in response.content.decode()
    assert client.get(f"/c/{club.token}/nights/1/qr.svg").status_code == 404
    assert client.get(f"/cv/{club.view_token}/nights/9/qr.svg").status_code == 404


def test_the_backup_carries_whether_a_passed_deal_counts(club):
    night_writes.create_night(
        club, "Samedi", date(2026, 12, 5), players(8), 2, 4, seed="1", passed_counts=False
    )
    new_night(club, count=8)
    data = club_backup.dump(club)
    assert [n["passed_counts"] for n in data["nights"]] == [False, True]
    restored = club_backup.load(club_backup.dumps(data))
    assert list(restored.nights.order_by("number").values_list("passed_counts", flat=True)) == [
        False,
        True,
    ]
    # A file written before the setting: a passed deal counts, as it did then.
    for each in data["nights"]:
        del each["passed_counts"]
    older = club_backup.load(club_backup.dumps(data))
    assert list(older.nights.values_list("passed_counts", flat=True)) == [True, True]
    # A new code for each restored night, never the file's.
    codes = set(Night.objects.values_list("screen", flat=True))
    assert len(codes) == Night.objects.count() == 6


def test_a_passed_deal_setting_that_is_not_true_or_false_is_refused(club):
    new_night(club, count=8)
    data = club_backup.dump(club)
    data["nights"][0]["passed_counts"] = "yes"
    from scoresheet.files import session_backup as backup

    with pytest.raises(backup.BackupError) as refused:
        club_backup.read(club_backup.dumps(data))
    assert refused.value.message == (
        "Night 1: A passed deal counts as a deal: write true or false."
    )


# A night at the cost of the night


def club_with_past(sessions: int):
    """A club whose players (``players(20)``) played ``sessions`` sessions of 4, one a day,
    each with a garde made."""
    club = club_writes.create_club("Le Grand").club
    names = players(20)
    for day in range(sessions):
        seated = [names[(day + seat * 3) % 20] for seat in range(4)]
        sheet = writes.create_sheet(
            f"Soirée {day}",
            seated,
            0,
            created=datetime(2025, 1, 1, 20, tzinfo=UTC) + timedelta(days=day),
            hands=[(0, garde(4, day % 4))],
        )
        club_writes.attach(club, sheet, seated)
    return club


def test_a_night_costs_the_same_queries_whatever_its_size_and_the_club_s_past(db):
    """Creating a night and drawing its round 2 read the night (its players, its rounds), the
    roster's names and write the round's tables in a few statements: nothing of the club's
    past results, and no query per table or per player."""
    counts = []
    for past, count in ((0, 8), (15, 40)):
        club = club_with_past(past)
        with CaptureQueriesContext(connection) as created:
            night = new_night(club, count=count, rounds=2)
        with CaptureQueriesContext(connection) as drawn:
            assert night_writes.draw_round(club, night, 2).done
        counts.append((len(created), len(drawn)))
        assert night.tables.count() == 2 * (count // 4)
    assert counts[0] == counts[1]
    for queries in (created, drawn):
        assert not any("clubresult" in q["sql"] and "SELECT" in q["sql"] for q in queries)


def test_a_draw_outrun_by_a_change_to_the_night_is_drawn_again(club, monkeypatch):
    """The draw is computed before the club is locked: a player who leaves meanwhile makes it
    drawn again, without them."""
    night = new_night(club, count=9)
    ana = club.players.get(name="Ana")
    next_round = draw.next_round
    calls = []

    def meanwhile(present, history, seed):
        calls.append(list(present))
        if len(calls) == 1:
            night_writes.leave(club, night, ana.pk)
        return next_round(present, history, seed)

    monkeypatch.setattr(draw, "next_round", meanwhile)
    assert night_writes.draw_round(club, night, 2).done
    assert ana.pk in calls[0]
    assert ana.pk not in calls[1]
    second = [p for t in night.tables.filter(round=2) for p in t.players]
    assert sorted(second) == sorted(calls[1])
    assert len(second) == 8


def test_a_night_of_new_names_adds_them_to_the_roster_at_once(club):
    night = new_night(club, count=40)
    assert club.players.count() == 40
    seated = sorted(p for t in night.tables.all() for p in t.players)
    assert seated == sorted(club.players.values_list("pk", flat=True))
    names = dict(club.players.values_list("pk", "name"))
    for table in night.tables.select_related("club_sheet__sheet"):
        sheet = table.club_sheet.sheet
        seats = list(sheet.seats.order_by("position").values_list("name", flat=True))
        assert seats == [names[p] for p in table.players]

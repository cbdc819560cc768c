"""The club's domain (scoresheet/clubs/standings.py): standings on hand-built clubs, periods, the
rating, the roster's renames and merges. Expected values are worked out from docs/rules.md by
hand."""

import re
import uuid
from datetime import date, datetime
from zoneinfo import ZoneInfo

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from openskill.models import PlackettLuce

from scoresheet import player_names, scoring
from scoresheet.clubs import results as club_results
from scoresheet.clubs import standings as clubs
from scoresheet.clubs import views as club_views
from scoresheet.clubs import writes as club_writes
from scoresheet.models import ClubPlayer
from scoresheet.sheets import writes
from tests.reading import numbered

pytestmark = pytest.mark.django_db
PARIS = ZoneInfo("Europe/Paris")


def at(day: str) -> datetime:
    return datetime.fromisoformat(day + "T20:00").replace(tzinfo=PARIS)


def session(club, names, hands, created, rules=scoring.FFT, first_dealer=0):
    """A session of the club, stored through the write path with its hands."""
    sheet = writes.create_sheet(
        "Soirée " + created, names, first_dealer, rules=rules, created=at(created), hands=hands
    )
    club_writes.attach(club, sheet, names)
    return sheet


@pytest.fixture
def club():
    """Three sessions: attendance varies, one at 6 seats with the dealer sitting out, one
    under house rules (rounding to 10).

    A (4 players): Ana garde 2 bouts 51 (made by 10: 70 a defender): +210, −70 ×3; Ben prise
    1 bout 41 (lost by 10: 35): −105, +35 ×3. Totals Ana 245, Ben −175, Chloé −35, Dan −35.
    B (6 seats, dealer out): hand 1 Ana deals, Ben garde with Chloé, 2 bouts 51 → Ben +140,
    Chloé +70, Dan, Élise, Fanny −70, Ana 0; hand 2 Ben deals, Dan prise alone 1 bout 41
    (lost by 10: 35) → Dan −140, Ana, Chloé, Élise, Fanny +35, Ben 0.
    Totals Ana 35, Ben 140, Chloé 105, Dan −210, Élise −35, Fanny −35.
    C (3 players, rounding 10): Ana garde 2 bouts 49 (made by 8 → 10: 70) → +140, −70, −70.
    """
    club = club_writes.create_club("Le jeudi").club
    session(
        club,
        ["Ana", "Ben", "Chloé", "Dan"],
        [
            (0, scoring.Hand(4, 0, "garde", 2, 51)),
            (1, scoring.Hand(4, 1, "prise", 1, 41)),
        ],
        "2026-01-10",
    )
    session(
        club,
        ["Ana", "Ben", "Chloé", "Dan", "Élise", "Fanny"],
        [
            (0, scoring.Hand(6, 1, "garde", 2, 51, partner=2, dealer=0)),
            (1, scoring.Hand(6, 3, "prise", 1, 41, partner=None, dealer=1)),
        ],
        "2026-02-05",
        rules=scoring.Rules(dealer_sits_out=True),
    )
    session(
        club,
        ["Ana", "Ben", "Élise"],
        [(2, scoring.Hand(3, 0, "garde", 2, 49))],
        "2026-03-01",
        rules=scoring.Rules(rounding=10),
    )
    return club


def lines(result):
    return {row.player.name: row for row in result.rows}


def test_the_sheets_hold_the_worked_totals(club):
    totals = [s.sheet.totals for s in club.club_sheets.order_by("sheet__created")]
    assert totals == [
        [245, -175, -35, -35],
        [35, 140, 105, -210, -35, -35],
        [140, -70, -70],
    ]


def test_all_time_standings(club):
    found = lines(clubs.standings(club))
    expected = {
        # name: sessions, hands, points, wins, taken, made, share, average contract
        "Ana": (3, 4, 420, 2, 2, 2, 100, 2.0),
        "Ben": (3, 4, -105, 1, 2, 1, 50, 1.5),
        "Chloé": (2, 4, 70, 0, 0, 0, None, None),
        "Dan": (2, 4, -245, 0, 1, 0, 0, 1.0),
        "Élise": (2, 3, -105, 0, 0, 0, None, None),
        "Fanny": (1, 2, -35, 0, 0, 0, None, None),
    }
    for name, values in expected.items():
        row = found[name]
        assert (
            row.sessions,
            row.hands,
            row.points,
            row.wins,
            row.taken,
            row.made,
            row.share_made,
            row.average_contract,
        ) == values, name
    assert found["Ana"].per_hand == 105.0
    assert found["Fanny"].per_hand == -17.5


def test_the_dealer_sitting_out_plays_fewer_hands(club):
    sheet = club.club_sheets.get(sheet__seats__name="Fanny").sheet
    assert sheet.hand_count == 2
    found = lines(
        clubs.standings(club, clubs.Period("range", date(2026, 2, 1), date(2026, 2, 28)))
    )
    # Ana dealt hand 1 and Ben hand 2: each sat out one of the two hands.
    assert found["Ana"].hands == 1
    assert found["Ben"].hands == 1
    assert found["Chloé"].hands == 2


def test_leaders_are_marked_and_sorting(club):
    result = clubs.standings(club, sort="points")
    assert [row.player.name for row in result.rows] == [
        "Ana",
        "Chloé",
        "Fanny",
        "Ben",
        "Élise",
        "Dan",
    ]
    found = lines(result)
    assert "points" in found["Ana"].leads
    assert "points" not in found["Ben"].leads
    # Four players share the most hands (4).
    assert {n for n, row in found.items() if "hands" in row.leads} == {
        "Ana",
        "Ben",
        "Chloé",
        "Dan",
    }
    assert "made" in found["Ana"].leads
    by_name = clubs.standings(club, sort="name")
    assert next(row.player.name for row in by_name.rows) == "Ana"
    by_wins = clubs.standings(club, sort="wins")
    assert [row.player.name for row in by_wins.rows][:2] == ["Ana", "Ben"]


def test_sorting_the_other_way_round(club):
    # March: Ana +140, Ben −70, Élise −70 (session C); Chloé, Dan and Fanny did not play.
    march = clubs.Period("range", date(2026, 3, 1), date(2026, 3, 31))
    result = clubs.standings(club, march, sort="-points")
    assert result.sort == "-points"
    # Fewest points first, ties in the names' order, those absent still last.
    assert [row.player.name for row in result.rows] == [
        "Ben",
        "Élise",
        "Ana",
        "Chloé",
        "Dan",
        "Fanny",
    ]
    # The leader marks do not depend on the order.
    # Ana leads every column (she alone took, made and won); all three played 1 hand.
    assert [row.leads for row in result.rows[:3]] == [
        {"hands", "sessions"},
        {"hands", "sessions"},
        {key for key, _attribute in clubs.COLUMNS},
    ]
    by_name = [row.player.name for row in clubs.standings(club, march, sort="name").rows]
    back = [row.player.name for row in clubs.standings(club, march, sort="-name").rows]
    assert by_name[:3] == ["Ana", "Ben", "Élise"]
    # Z to A, among those who played and among those absent.
    assert back == [*by_name[:3][::-1], *by_name[3:][::-1]]
    assert clubs.standings(club, march, sort="-bogus").sort == "points"


@pytest.mark.parametrize(
    ("params", "today", "sessions"),
    [
        ({"period": "month"}, date(2026, 2, 20), 1),
        ({"period": "year"}, date(2026, 2, 20), 3),
        ({"period": "year"}, date(2027, 1, 2), 0),
        ({}, date(2030, 1, 1), 3),
        ({"period": "range", "from": "2026-01-01", "to": "2026-01-31"}, None, 1),
        ({"period": "range", "from": "2026-02-05", "to": ""}, None, 2),
        ({"period": "range", "from": "", "to": "2026-02-05"}, None, 2),
    ],
)
def test_periods(club, params, today, sessions):
    period = clubs.period_of(params, today)
    assert clubs.standings(club, period).session_count == sessions


def test_period_refuses_bad_dates():
    with pytest.raises(clubs.ClubError, match="From"):
        clubs.period_of({"period": "range", "from": "yesterday"})
    with pytest.raises(clubs.ClubError, match="starts after"):
        clubs.period_of({"period": "range", "from": "2026-03-01", "to": "2026-02-01"})


def test_a_month_reads_only_its_sessions(club):
    found = lines(clubs.standings(club, clubs.period_of({"period": "month"}, date(2026, 1, 15))))
    assert found["Ana"].points == 245
    assert found["Élise"].sessions == 0
    assert found["Élise"].rating == 0.0


def test_rating_follows_openskill_plackett_luce(club):
    """The rating is the library's: fresh players (mu 25, sigma 25/3), each session rated in
    date order with the totals as scores; the figure is the ordinal, mu − 3 sigma."""
    model = PlackettLuce()
    ratings = {}
    for names, totals in [
        (["Ana", "Ben", "Chloé", "Dan"], [245, -175, -35, -35]),
        (["Ana", "Ben", "Chloé", "Dan", "Élise", "Fanny"], [35, 140, 105, -210, -35, -35]),
        (["Ana", "Ben", "Élise"], [140, -70, -70]),
    ]:
        teams = [[ratings.get(name) or model.rating()] for name in names]
        for name, (rating,) in zip(names, model.rate(teams, scores=totals), strict=True):
            ratings[name] = rating
    found = lines(clubs.standings(club))
    for name, rating in ratings.items():
        assert found[name].mu == pytest.approx(rating.mu)
        assert found[name].sigma == pytest.approx(rating.sigma)
        assert found[name].rating == round(rating.mu - 3 * rating.sigma, 1)


def test_rating_of_one_session_moves_the_winner_up_and_ties_alike():
    """openskill's documented behaviour: players start at mu 25, sigma 25/3; the winner's mu
    rises, the others' fall, players with equal scores move alike, every sigma shrinks."""
    club = club_writes.create_club("Petit club", players=["Zoé"]).club
    session(
        club,
        ["Ana", "Ben", "Chloé", "Dan"],
        [(0, scoring.Hand(4, 0, "garde", 2, 51))],
        "2026-01-10",
    )
    found = lines(clubs.standings(club))
    assert found["Ana"].mu > 25 > found["Ben"].mu
    assert found["Ben"].mu == pytest.approx(found["Chloé"].mu) == pytest.approx(found["Dan"].mu)
    assert all(found[n].sigma < 25 / 3 for n in ("Ana", "Ben", "Chloé", "Dan"))
    # Zoé did not play: untouched, and last.
    assert (found["Zoé"].mu, found["Zoé"].sigma, found["Zoé"].sessions) == (25, 25 / 3, 0)
    assert clubs.standings(club).rows[-1].player.name == "Zoé"


def test_rename_keeps_the_history(club):
    ana = club.players.get(name="Ana")
    club_writes.rename_player(club, ana.pk, "  Anna  ")
    found = lines(clubs.standings(club))
    assert found["Anna"].points == 420
    with pytest.raises(clubs.ClubError, match="already"):
        club_writes.rename_player(club, ana.pk, "BEN")
    assert club.players.get(pk=ana.pk).name == "Anna"


def test_merge_two_entries(club):
    session(
        club, ["Anne", "Ben", "Chloé"], [(0, scoring.Hand(3, 0, "garde", 2, 49))], "2026-03-02"
    )
    ana, anne = club.players.get(name="Ana"), club.players.get(name="Anne")
    # Anne's session: garde made by 8, at 3 players: (25 + 8) × 2 = 66 a defender, +132.
    assert lines(clubs.standings(club))["Anne"].points == 132
    club_writes.merge_players(club, ana.pk, anne.pk)
    found = lines(clubs.standings(club))
    assert "Anne" not in found
    assert (found["Ana"].sessions, found["Ana"].points, found["Ana"].wins) == (4, 552, 3)
    assert not ClubPlayer.objects.filter(pk=anne.pk).exists()


def test_merge_refuses_two_people_of_one_session(club):
    ana, ben = club.players.get(name="Ana"), club.players.get(name="Ben")
    with pytest.raises(clubs.ClubError, match="two people"):
        club_writes.merge_players(club, ana.pk, ben.pk)
    assert club.players.filter(pk=ben.pk).exists()


def test_roster_names_are_unique_by_key(club):
    with pytest.raises(clubs.ClubError, match="already"):
        club_writes.add_player(club, "chloe\u0301")  # "chloé" typed with a combining accent
    with pytest.raises(clubs.ClubError, match="Name"):
        club_writes.add_player(club, "\u200b ")


def test_start_sheet_takes_the_club_rules_and_adds_new_names():
    club = club_writes.create_club(
        "Maison", scoring.Rules(rounding=5), players=["Ana", "Ben"]
    ).club
    sheet = club_writes.start_sheet(club, "Lundi", ["ANA", "Ben", "Chloé"], 0).sheet
    assert sheet.game_rules == scoring.Rules(rounding=5)
    assert sorted(club.players.values_list("name", flat=True)) == ["Ana", "Ben", "Chloé"]
    assert club.club_sheets.get().players == [
        club.players.get(name=n).pk for n in ("Ana", "Ben", "Chloé")
    ]


def test_attach_and_detach():
    club = club_writes.create_club("Maison", players=["Ana"]).club
    sheet = writes.create_sheet("Hier", ["ana", "Ben", "Chloé"], 0)
    match = club_views.proposed_match(club, sheet)
    assert [(name, p.name if p else None) for name, p in match] == [
        ("ana", "Ana"),
        ("Ben", None),
        ("Chloé", None),
    ]
    with pytest.raises(clubs.ClubError, match="different"):
        club_writes.attach(club, sheet, ["Ana", "Ana", "Chloé"])
    club_writes.attach(club, sheet, ["Ana", "Benoît", "Chloé"])
    assert sorted(club.players.values_list("name", flat=True)) == ["Ana", "Benoît", "Chloé"]
    other = club_writes.create_club("Autre").club
    with pytest.raises(clubs.ClubError, match="already belongs"):
        club_writes.attach(other, sheet, ["Ana", "Ben", "Chloé"])
    club_writes.detach(club, club.club_sheets.get().pk)
    assert not club.club_sheets.exists()
    sheet.refresh_from_db()
    assert sheet.name == "Hier"


def test_player_record(club):
    ana = club.players.get(name="Ana")
    record = clubs.player_record(club, ana)
    assert [(r["total"], r["rank"], r["won"]) for r in record.sessions] == [
        (140, 1, True),
        (35, 3, False),
        (245, 1, True),
    ]
    # Ana sat out hand 1 of B (a 0 that is no hand of hers); her hands: +210, +35 (A), +35
    # (B hand 2), +140 (C).
    assert record.best["score"] == 210
    assert record.worst["score"] == 35
    assert [(c.contract, c.taken, c.made) for c in record.contracts] == [("garde", 2, 2)]
    chloe = club.players.get(name="Chloé")
    assert clubs.player_record(club, chloe).partners == [("Ben", 1)]


def club_of(sessions: int):
    club = club_writes.create_club(f"Club {sessions}").club
    names = ["Ana", "Ben", "Chloé", "Dan", "Élise"]
    for number in range(sessions):
        seated = names[number % 2 :][:4]
        session(
            club,
            seated,
            [(0, scoring.Hand(4, number % 4, "garde", 2, 51))] * 3,
            f"2026-01-{number % 28 + 1:02d}",
        )
    return club


def test_standings_read_a_constant_number_of_queries():
    counts = []
    for size in (3, 30):
        club = club_of(size)
        # Sessions 29 and 30 come before later-dated ones: the ratings after them wait, until
        # the catch-up that follows the request attaching them (not run inside a test's
        # transaction).
        club_results.catch_up(club.pk)
        for _cold_then_warm in range(2):
            with CaptureQueriesContext(connection) as captured:
                result = clubs.standings(club)
                result.chart_points()
            counts.append(len(captured))
        assert result.session_count == size
    # The roster with each rating, the period's sums, its session count; the chart's points.
    # Nothing is kept from one reading to the next: the first costs what the others do.
    assert counts == [4, 4, 4, 4]


def test_standings_rate_the_waiting_sessions_with_one_query_more():
    """While ratings wait to be rated again (a hand added to the club's first session, before
    the catch-up that follows its request), the standings read one query more, the rows of
    the sessions waiting, at any size, and show what the caught-up ratings will be."""
    counts = []
    for size in (3, 30):
        club = club_of(size)
        club_results.catch_up(club.pk)
        first = club.club_sheets.order_by("sheet__created", "id").first().sheet
        # That session: Ana took three gardes made by 10 at 4 players, +630 and −210 each
        # other. Ben takes one too (+210, −70 each other): Ana 560, Ben 0, Chloé and Dan
        # −280; he was second with them, tied, he is second alone: the places move.
        writes.add_hand(first.token, scoring.Hand(4, 1, "garde", 2, 51), uuid.uuid4())
        club.refresh_from_db()
        assert club.rate_from_played == first.created
        for _cold_then_warm in range(2):
            with CaptureQueriesContext(connection) as captured:
                result = clubs.standings(club)
                result.chart_points()
            counts.append(len(captured))
        assert club_results.catch_up(club.pk)
        assert lines(clubs.standings(club)) == lines(result)
    assert counts == [5, 5, 5, 5]


def test_stored_standings_follow_a_changed_session(club):
    before = lines(clubs.standings(club))["Chloé"].points
    sheet = club.club_sheets.get(sheet__seats__name="Fanny").sheet
    # Chloé takes a garde made by 10 at 5 players (dealer Chloé? no: the rotation's dealer).
    change = writes.undo(sheet.token, numbered(sheet).last().key)
    assert change.done
    # Hand 2 of B gave Chloé +35: it is gone.
    assert lines(clubs.standings(club))["Chloé"].points == before - 35


def long_club(count: int = 45, wins=(0, 1, 2, *range(10, 17))):
    """``count`` sessions at 3 players, one a day from 2026-01-01: a garde with 2 bouts and
    51 points, made by 10: (25 + 10) × 2 = 70 a defender, +140 the taker. Ana takes in the
    sessions numbered ``wins`` (from 0; she wins them), Ben in the others."""
    club = club_writes.create_club("Long").club
    for number in range(count):
        day = date(2026, 1, 1).toordinal() + number
        taker = 0 if number in wins else 1
        hand = scoring.Hand(3, taker, "garde", 2, 51)
        session(club, ["Ana", "Ben", "Chloé"], [(0, hand)], date.fromordinal(day).isoformat())
    return club


def days(record) -> list[str]:
    return [row["sheet"].name.removeprefix("Soirée ") for row in record.sessions]


def day(number: int) -> str:
    """The date of session ``number`` of ``long_club`` (from 1)."""
    return date.fromordinal(date(2026, 1, 1).toordinal() + number - 1).isoformat()


def test_a_player_record_shows_a_page_of_sessions_and_figures_over_all():
    club = long_club()
    ana = club.players.get(name="Ana")
    record = clubs.player_record(club, ana)
    assert record.session_count == 45
    # The latest 20, newest first: sessions 45 … 26; 25 earlier, the next page before 26.
    assert days(record) == [day(n) for n in range(45, 25, -1)]
    assert (record.hidden, record.later, record.earlier_page) == (25, 0, 26)
    # Ana won sessions 1–3 and 11–17 (numbered from 1): the longest run is 7, all on
    # earlier pages; her hands: +140 when she took, −70 otherwise.
    assert record.session_streak == 7
    assert record.best_streak == 1
    assert (record.best["score"], record.best["sheet"].name) == (140, "Soirée " + day(1))
    assert (record.worst["score"], record.worst["sheet"].name) == (-70, "Soirée " + day(4))
    assert [(c.contract, c.taken, c.made) for c in record.contracts] == [("garde", 10, 10)]
    assert record.partners == []
    assert all(row["total"] == -70 and row["rank"] == 2 for row in record.sessions)

    earlier = clubs.player_record(club, ana, before=26)
    assert days(earlier) == [day(n) for n in range(25, 5, -1)]
    # 20 later: the latest page, its plain link.
    assert (earlier.hidden, earlier.later, earlier.earlier_page, earlier.later_page) == (
        5,
        20,
        6,
        None,
    )
    # Index k is session 25 − k: 18 lost, 17 … 11 won, 10 lost.
    won = [(r["total"], r["won"]) for r in earlier.sessions]
    assert won[7:16] == [(-70, False)] + [(140, True)] * 7 + [(-70, False)]
    assert earlier.session_streak == 7

    first = clubs.player_record(club, ana, before=6)
    assert days(first) == [day(n) for n in range(5, 0, -1)]
    assert (first.hidden, first.later, first.later_page) == (0, 40, 26)
    second = clubs.player_record(club, ana, before=2)
    assert days(second) == [day(1)]
    assert (second.hidden, second.later, second.later_page) == (0, 44, 22)


@pytest.mark.parametrize("before", [None, 0, 1, -3, 46, 10**30])
def test_a_player_record_out_of_range_shows_the_latest_page(before):
    club = long_club(22, wins=())
    record = clubs.player_record(club, club.players.get(name="Ana"), before=before)
    assert days(record) == [day(n) for n in range(22, 2, -1)]
    assert (record.hidden, record.later, record.earlier_page) == (2, 0, 3)
    assert record.best["score"] == -70
    assert record.session_streak == 0
    assert record.contracts == []


def test_a_player_record_reads_a_constant_number_of_queries():
    counts = []
    for size in (4, 45):
        club = long_club(size)
        ana = club.players.get(name="Ana")
        for before in (None, 3):
            with CaptureQueriesContext(connection) as captured:
                record = clubs.player_record(club, ana, before=before)
            counts.append(len(captured))
        assert record.session_count == size
    assert len(set(counts)) == 1


def test_a_merge_costs_the_same_at_two_sizes():
    """Anna is Ana typed again in every other session: merging them rewrites those sessions,
    their results and the ratings from the first of them, in a constant number of queries."""
    counts = []
    for size in (4, 20):
        club = club_writes.create_club(f"Club {size}").club
        for number in range(size):
            names = ["Anna" if number % 2 else "Ana", "Ben", "Chloé"]
            hand = scoring.Hand(3, number % 3, "garde", 2, 51)
            session(club, names, [(0, hand)], f"2026-01-{number + 1:02d}")
        ana, anna = (club.players.get(name=name).pk for name in ("Ana", "Anna"))
        with CaptureQueriesContext(connection) as captured:
            club_writes.merge_players(club, ana, anna)
        counts.append(len(captured))
        assert lines(clubs.standings(club))["Ana"].sessions == size
    assert counts[0] == counts[1], counts


def test_the_standings_and_the_summary_show_one_of_eight_alike(client):
    """Ana takes all 8 hands and makes one: 1 of 8 is 12.5 %, which both pages show as 13 %
    (half up, numbers.percent). Python's round() made it 12 % in the standings (half to even).
    Made: garde 2 bouts 51 (docs/rules.md E1). Lost: prise 1 bout 41, lost by 10."""
    club = club_writes.create_club("Le mardi").club
    made = scoring.Hand(4, 0, "garde", 2, 51)
    lost = scoring.Hand(4, 0, "prise", 1, 41)
    hands = [(number % 4, made if number == 0 else lost) for number in range(8)]
    sheet = session(club, ["Ana", "Ben", "Chloé", "Dan"], hands, "2026-04-07")

    assert lines(clubs.standings(club))["Ana"].share_made == 13
    summary = client.get(f"/s/{sheet.token}/summary/", headers={"accept-language": "en"})
    assert "Ana: 8 hands, 13% made" in summary.content.decode()
    page = client.get(club.get_absolute_url(), headers={"accept-language": "en"}).content.decode()
    row = re.search(r'<th scope="row"><a [^>]*>Ana</a></th>(.*?)</tr>', page, re.S).group(1)
    cells = re.findall(r"<td[^>]*>([^<]*)", row)
    columns = [key for key, _attribute in clubs.COLUMNS]
    assert cells[columns.index("made")].strip() == "13"
    assert cells[columns.index("taken")].strip() == "8"


def test_names_added_at_once_are_one_write(db):
    club = club_writes.create_club("Maison", players=["Zoé"]).club
    lines = ["Anaïs", "  Bruno  ", "", "Élodie", "émile"]
    with CaptureQueriesContext(connection) as queries:
        change = club_writes.add_players(club, lines)
    assert [player.name for player in change.players] == ["Anaïs", "Bruno", "Élodie", "émile"]
    assert all(player.pk for player in change.players)
    # One INSERT for every name, in the one transaction that locked the club.
    inserts = [q["sql"] for q in queries.captured_queries if q["sql"].startswith("INSERT")]
    assert len(inserts) == 1
    stored = club.players.order_by("id").values_list("name", "key")
    names = ["Zoé", "Anaïs", "Bruno", "Élodie", "émile"]
    assert list(stored) == [(name, player_names.key(name)) for name in names]


def test_one_refused_line_stores_none_of_the_names(db):
    club = club_writes.create_club("Maison", players=["Zoé"]).club
    with pytest.raises(club_writes.RosterRefused) as refused:
        club_writes.add_players(club, ["Anaïs", "Bruno", "zoe\u0301", "Dan", "bruno"])
    # Every wrong line at once, in the box's order: line 3 is Zoé's, line 5 line 2's.
    assert [(p.message, p.params) for p in refused.value.problems] == [
        (club_writes.LINE_ALIKE_TAKEN, {"line": 3, "name": "zoé", "other": "Zoé"}),
        (club_writes.LINE_ALIKE, {"line": 5, "name": "bruno", "other": "Bruno", "first": 2}),
    ]
    assert list(club.players.values_list("name", flat=True)) == ["Zoé"]

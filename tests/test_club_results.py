"""The club's stored results (scoresheet/clubs/results.py): after any sequence of writes to its
sessions and to the club, they are what a computation from scratch gives, and the standings
read from them are the sums and the rating chain worked out here from the sessions' totals."""

import uuid
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.core import signals
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)
from openskill.models import PlackettLuce

from scoresheet import scoring
from scoresheet.clubs import results as club_results
from scoresheet.clubs import standings as clubs
from scoresheet.clubs import writes as club_writes
from scoresheet.files import club_backup
from scoresheet.models import ClubResult, Sheet
from scoresheet.sheets import writes
from tests.reading import numbered
from tests.test_writes import hands_or_passes, rules_for

pytestmark = pytest.mark.django_db
PARIS = ZoneInfo("Europe/Paris")
ROSTER = ["Ana", "Ben", "Chloé", "Dan", "Élise", "Fanny"]
START = datetime(2026, 3, 1, 20, tzinfo=PARIS)


def expected_standings(club) -> dict:
    """Each roster name's sessions, points, wins and (mu, sigma), worked out from the sheets'
    totals alone: openskill's Plackett–Luce over the sessions with a hand, in date order, the
    totals as scores (as test_clubs.py's worked rating)."""
    model = PlackettLuce()
    names = {p.pk: p.name for p in club.players.all()}
    found = {name: [0, 0, 0, None] for name in names.values()}
    ratings = {}
    for session in club.club_sheets.select_related("sheet").order_by("sheet__created", "id"):
        sheet = session.sheet
        totals = sheet.totals
        players = [names[pk] for pk in session.players]
        for name, total in zip(players, totals, strict=True):
            found[name][0] += 1
            found[name][1] += total
            found[name][2] += sheet.hand_count > 0 and total == max(totals)
        if sheet.hand_count:
            teams = [[ratings.get(name) or model.rating()] for name in players]
            for name, (rating,) in zip(players, model.rate(teams, scores=totals), strict=True):
                ratings[name] = rating
    for name, rating in ratings.items():
        found[name][3] = (rating.mu, rating.sigma)
    return found


class ClubChanges(RuleBasedStateMachine):
    """Sessions of a club (3 to 5 seats, any house rules, started on any day, some before
    others already there) played, corrected, deleted from, undone, re-ruled; sessions
    attached and detached; players renamed and merged."""

    def __init__(self):
        super().__init__()
        self.club = club_writes.create_club("Jeudi", players=ROSTER).club
        self.sheets = []  # the sheets the club counts
        self.seats = {}  # sheet pk → seats
        self.rules = {}  # sheet pk → rules

    @precondition(lambda self: len(self.sheets) < 5)
    @rule(
        seats=st.sampled_from([3, 4, 5]),
        day=st.integers(0, 20),
        first=st.integers(0, 4),
        data=st.data(),
    )
    def attach_session(self, seats, day, first, data):
        names = data.draw(st.permutations(ROSTER))[:seats]
        rules = data.draw(rules_for(seats))
        created = START + timedelta(days=day)
        sheet = writes.create_sheet(
            f"Soirée {day}", names, first % seats, rules=rules, created=created
        )
        club_writes.attach(self.club, sheet, names)
        self.sheets.append(sheet)
        self.seats[sheet.pk], self.rules[sheet.pk] = seats, rules

    def pick(self, data) -> Sheet:
        sheet = data.draw(st.sampled_from(self.sheets))
        sheet.refresh_from_db()
        return sheet

    @precondition(lambda self: self.sheets)
    @rule(data=st.data())
    def add(self, data):
        sheet = self.pick(data)
        seats, rules = self.seats[sheet.pk], self.rules[sheet.pk]
        for _ in range(data.draw(st.integers(1, 3))):
            sheet.refresh_from_db()
            hand = data.draw(hands_or_passes(seats, rules, sheet.next_dealer))
            assert writes.add_hand(sheet.token, hand, uuid.uuid4()).done

    @precondition(lambda self: self.sheets)
    @rule(data=st.data())
    def correct(self, data):
        sheet = self.pick(data)
        hands = list(numbered(sheet))
        if not hands:
            return self.add(data)
        stored = data.draw(st.sampled_from(hands))
        seats, rules = self.seats[sheet.pk], self.rules[sheet.pk]
        hand = data.draw(hands_or_passes(seats, rules, stored.dealer))
        assert writes.correct_hand(sheet.token, stored.key, stored.version, hand).done

    @precondition(lambda self: self.sheets)
    @rule(data=st.data(), last=st.booleans())
    def delete_or_undo(self, data, last):
        sheet = self.pick(data)
        hands = list(numbered(sheet))
        if not hands:
            return self.add(data)
        if last:
            assert writes.undo(sheet.token, hands[-1].key).done
        else:
            assert writes.delete_hand(sheet.token, data.draw(st.sampled_from(hands)).key).done

    @precondition(lambda self: self.sheets)
    @rule(data=st.data())
    def change_rules(self, data):
        sheet = self.pick(data)
        rules = data.draw(rules_for(self.seats[sheet.pk]))
        try:
            writes.change_rules(sheet.token, rules)
        except writes.HandRefused:
            return
        self.rules[sheet.pk] = rules

    @precondition(lambda self: self.sheets)
    @rule(data=st.data())
    def detach(self, data):
        sheet = self.pick(data)
        club_writes.detach(self.club, sheet.club_sheet.pk)
        self.sheets.remove(sheet)

    @precondition(lambda self: self.club.players.count() > 1)
    @rule(data=st.data())
    def merge(self, data):
        players = list(self.club.players.all())
        keep, drop = data.draw(st.permutations(players))[:2]
        try:
            club_writes.merge_players(self.club, keep.pk, drop.pk)
        except clubs.ClubError:
            return  # they played one session together: two people

    @rule(data=st.data())
    def rename(self, data):
        player = data.draw(st.sampled_from(list(self.club.players.all())))
        try:
            club_writes.rename_player(self.club, player.pk, player.name + "e")
        except clubs.ClubError:
            return

    @rule()
    def catch_up(self):
        """The catch-up that follows a request whose write left ratings waiting (a test's
        transaction never commits, so it runs here): every stored rating up to date."""
        club_results.catch_up(self.club.pk)
        self.club.refresh_from_db()
        assert self.club.rate_from_played is None

    @precondition(lambda self: self.sheets)
    @rule()
    def round_trip(self):
        """The club's backup restored (every session scored in memory, the results and the
        rating chain computed at once, then written in bulk) holds what a recount gives, and
        the standings of the club it came from."""
        restored = club_backup.load(club_backup.dumps(club_backup.dump(self.club)))
        assert not club_results.recount(restored)

        def lines(club):
            return {
                row.player.name: (row.sessions, row.hands, row.points, row.wins, row.mu)
                for row in clubs.standings(club).rows
            }

        assert lines(restored) == lines(self.club)
        Sheet.objects.filter(club_sheet__club=restored).delete()
        restored.delete()

    @invariant()
    def stored_equals_a_recount(self):
        """A computation from scratch finds nothing to change."""
        assert not club_results.recount(self.club)

    @invariant()
    def standings_are_the_sheets_sums_and_rating(self):
        expected = expected_standings(self.club)
        for row in clubs.standings(self.club).rows:
            sessions, points, wins, rating = expected[row.player.name]
            assert (row.sessions, row.points, row.wins) == (sessions, points, wins)
            if rating is None:
                assert (row.mu, row.sigma) == (25, 25 / 3)
            else:
                assert (row.mu, row.sigma) == pytest.approx(rating)

    @invariant()
    def player_pages_are_the_hands_best_and_worst(self):
        """Each player's best and worst hand and partners at 5 players, worked out from the
        stored hands of their sessions (a passed deal or a hand the dealer sat out is none of
        theirs)."""
        for player in self.club.players.all():
            scores, partners = [], {}
            sessions = [s for s in self.club.club_sheets.all() if player.pk in s.players]
            for session in sessions:
                seat = session.players.index(player.pk)
                rules = session.sheet.game_rules
                for hand in session.sheet.hands.filter(passed=False):
                    if rules.dealer_sits_out and hand.dealer == seat:
                        continue
                    scores.append(hand.scores[seat])
                    alone = hand.partner is None or hand.partner == hand.taker
                    if rules.players(len(hand.scores)) != 5 or alone:
                        continue
                    other = {hand.taker: hand.partner, hand.partner: hand.taker}.get(seat)
                    if other is not None:
                        name = self.club.players.get(pk=session.players[other]).name
                        partners[name] = partners.get(name, 0) + 1
            record = clubs.player_record(self.club, player)
            assert record.session_count == len(sessions)
            assert (record.best and record.best["score"]) == (max(scores) if scores else None)
            assert (record.worst and record.worst["score"]) == (min(scores) if scores else None)
            assert dict(record.partners) == dict(
                sorted(partners.items(), key=lambda item: (-item[1], item[0]))[:3]
            )


# 27 sequences, drawn as three independent runs of 9 (random draws: derandomize off whatever the
# profile): as many sequences as one run of 25 drew, in three tests that make test's processes
# share (one took 22 s on PostgreSQL under load).
@pytest.mark.parametrize("run", [1, 2, 3])
def test_any_sequence_of_writes_keeps_the_club_results_exact(run):
    run_state_machine_as_test(
        ClubChanges,
        settings=settings(
            max_examples=9,
            stateful_step_count=10,
            derandomize=False,
            deadline=None,
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
        ),
    )


def played(club, names, day, hands):
    sheet = writes.create_sheet(
        "Soirée", names, 0, created=START + timedelta(days=day), hands=hands
    )
    club_writes.attach(club, sheet, names)
    return sheet


def test_a_hand_in_an_earlier_session_re_rates_the_later_ones():
    """Ana wins the first session, then a correction makes Ben win it: the second session's
    ratings start from other ones, though nothing of it changed."""
    club = club_writes.create_club("Jeudi").club
    first = played(club, ["Ana", "Ben", "Chloé"], 0, [(0, scoring.Hand(3, 0, "garde", 2, 49))])
    played(club, ["Ana", "Ben", "Chloé"], 1, [(1, scoring.Hand(3, 2, "garde", 2, 49))])
    before = {r.player.name: r.mu for r in clubs.standings(club).rows}
    hand = first.hands.get()
    writes.correct_hand(first.token, hand.key, hand.version, scoring.Hand(3, 1, "garde", 2, 49))
    after = {r.player.name: r.mu for r in clubs.standings(club).rows}
    assert after["Ben"] > before["Ben"]
    assert after["Ana"] < before["Ana"]
    assert not club_results.recount(club)


def test_a_sheets_write_reaches_its_club_through_what_the_app_registers(monkeypatch):
    """The sheets' write path knows nothing of clubs: the app registers the club's results
    with it when it is ready (apps.py), and they follow each change in its transaction;
    without that, a hand added to a club's session leaves the club's results behind."""
    assert club_results.sheet_changed in writes._AFTER_CHANGE
    club = club_writes.create_club("Jeudi").club
    sheet = played(club, ["Ana", "Ben", "Chloé"], 0, [])
    writes.add_hand(sheet.token, scoring.Hand(3, 0, "garde", 2, 49), uuid.uuid4())
    # Garde made by 8 at 3 players: (25 + 8) × 2 = 66 a defender, +132 for Ana.
    assert {r.player.name: r.points for r in clubs.standings(club).rows}["Ana"] == 132
    monkeypatch.setattr(writes, "_AFTER_CHANGE", [])
    writes.add_hand(sheet.token, scoring.Hand(3, 0, "garde", 2, 49), uuid.uuid4())
    assert {r.player.name: r.points for r in clubs.standings(club).rows}["Ana"] == 132
    assert club_results.recount(club)
    assert {r.player.name: r.points for r in clubs.standings(club).rows}["Ana"] == 264


def test_a_period_shows_the_rating_at_its_end():
    """The rating is a running estimate: a period shows each player's after their last
    session in it, the sessions before the period counted."""
    club = club_writes.create_club("Jeudi").club
    model = PlackettLuce()
    played(club, ["Ana", "Ben", "Chloé"], -100, [(0, scoring.Hand(3, 0, "garde", 2, 49))])
    played(club, ["Ana", "Ben", "Chloé"], 0, [(1, scoring.Hand(3, 1, "garde", 2, 49))])
    played(club, ["Ana", "Ben", "Chloé"], 60, [(2, scoring.Hand(3, 2, "garde", 2, 49))])
    # Each session: one garde made at 3 players, the taker first, the two others tied.
    teams = [[model.rating()] for _ in range(3)]
    teams = [[r] for (r,) in model.rate(teams, ranks=[1, 2, 2])]
    teams = [[r] for (r,) in model.rate(teams, ranks=[2, 1, 2])]
    march = START.date()
    period = clubs.Period("range", march, march)
    found = {r.player.name: r for r in clubs.standings(club, period).rows}
    for name, (rating,) in zip(["Ana", "Ben", "Chloé"], teams, strict=True):
        assert (found[name].mu, found[name].sigma) == pytest.approx((rating.mu, rating.sigma))
        assert found[name].sessions == 1


def test_rescore_repairs_the_club_results_and_says_so(capsys):
    club = club_writes.create_club("Jeudi").club
    played(club, ["Ana", "Ben", "Chloé"], 0, [(0, scoring.Hand(3, 0, "garde", 2, 49))])
    call_command("rescore")
    assert "1 clubs recounted, 0 had stored results that differed." in capsys.readouterr().out
    ClubResult.objects.filter(player__name="Ana").update(points=0, mu=None)
    assert clubs.standings(club).rows[0].points == 0
    call_command("rescore")
    assert "1 clubs recounted, 1 had stored results that differed." in capsys.readouterr().out
    # Garde made by 8 at 3 players: (25 + 8) × 2 = 66 a defender, +132 for Ana.
    assert {r.player.name: r.points for r in clubs.standings(club).rows}["Ana"] == 132


def test_a_tie_keeps_the_earliest_best_and_worst_hand():
    """docs/rules.md E9 and E10 at 4 players: a prise with 1 bout and exactly 51 points is made by
    0, so the taker gets 3 × 25 = +75 and each defender −25; with 49 points it is lost by 2: the
    taker
    −81, each defender +27. Hands 1 and 3 are alike: each record keeps hand 1."""
    made = (1, 0, 0, None, False, (75, -25, -25, -25))
    lost = (2, 1, 0, None, False, (-81, 27, 27, 27))
    made_again = (3, 2, 0, None, False, (75, -25, -25, -25))
    records = club_results.records_of(4, [made, lost, made_again], scoring.FFT)
    assert records[0]["best"] == [75, 1]
    assert records[0]["worst"] == [-81, 2]
    for defender in records[1:]:
        assert defender["best"] == [27, 2]
        assert defender["worst"] == [-25, 1]


def sessions_of_days(count: int):
    """A club of ``count`` sessions of Ana, Ben and Chloé, one a day, each with one garde made
    by 8 at 3 players, taken in turn by each of them: +132 the taker, −66 the others."""
    club = club_writes.create_club("Jeudi").club
    sheets = [
        played(club, ["Ana", "Ben", "Chloé"], day, [(0, scoring.Hand(3, day % 3, "garde", 2, 49))])
        for day in range(count)
    ]
    return club, sheets


def corrected(sheet) -> int:
    """Hand 1 of ``sheet`` taken by the next seat instead (the session's winner changes): the
    queries of that correction."""
    hand = sheet.hands.get()
    again = scoring.Hand(3, (hand.taker + 1) % 3, "garde", 2, 49)
    with CaptureQueriesContext(connection) as captured:
        assert writes.correct_hand(sheet.token, hand.key, hand.version, again).done
    return len(captured)


def test_a_correction_costs_the_same_in_the_first_session_as_in_the_latest():
    """The first session's correction changes every later rating: it reads and writes none of
    them, but notes on the club's row that they wait (a catch-up rates them once the request
    is answered); the latest's, which nothing rated follows, is rated at once. Each costs
    the same queries in a club of 3 sessions as in one of 25."""
    first, latest = {}, {}
    for size in (3, 25):
        club, sheets = sessions_of_days(size)
        latest[size] = corrected(sheets[-1])
        club.refresh_from_db()
        assert club.rate_from_played is None
        first[size] = corrected(sheets[0])
        club.refresh_from_db()
        assert (club.rate_from_played, club.rate_from_club_sheet) == (
            sheets[0].created,
            sheets[0].club_sheet.pk,
        )
        assert not club_results.recount(club)
        assert club_results.catch_up(club.pk)
        assert not club_results.recount(club)
    assert first[3] == first[25]
    assert latest[3] == latest[25]
    # The latest rates its session (the players' ratings before it, its rows written); the
    # first writes the club's row instead.
    assert first[3] == latest[3] - 1


def test_a_catch_up_outrun_by_a_change_rates_again_from_it(monkeypatch):
    """A change to the places while a catch-up computes (outside the club's lock) moves the
    club's revision: the catch-up does not write what it computed, it computes again."""
    club, sheets = sessions_of_days(4)
    corrected(sheets[0])
    rate_rows = club_results._rate_rows
    calls = []

    def meanwhile(rows, priors):
        calls.append(len(rows))
        changed = rate_rows(rows, priors)
        if len(calls) == 1:
            # Another phone corrects the second session while this one computes.
            corrected(sheets[1])
        return changed

    monkeypatch.setattr(club_results, "_rate_rows", meanwhile)
    assert club_results.catch_up(club.pk)
    assert len(calls) == 2
    club.refresh_from_db()
    assert club.rate_from_played is None
    monkeypatch.undo()
    assert not club_results.recount(club)
    expected = expected_standings(club)
    for row in clubs.standings(club).rows:
        assert (row.mu, row.sigma) == pytest.approx(expected[row.player.name][3])


@pytest.mark.django_db(transaction=True)
def test_ratings_left_waiting_are_caught_up_once_the_request_is_answered():
    """As a server runs a request: the write commits and the answer is made while the later
    sessions' ratings wait; they are caught up when the response is closed (sent), at
    Django's request_finished."""
    club, sheets = sessions_of_days(3)
    signals.request_started.send(sender=None)
    try:
        corrected(sheets[0])
        club.refresh_from_db()
        assert club.rate_from_played == sheets[0].created
    finally:
        signals.request_finished.send(sender=None)
    club.refresh_from_db()
    assert club.rate_from_played is None
    assert not club_results.recount(club)


@pytest.mark.django_db(transaction=True)
def test_a_correction_posted_leaves_the_club_caught_up(client):
    club, sheets = sessions_of_days(3)
    first = sheets[0]
    hand = first.hands.get()
    data = {"key": str(hand.key), "version": hand.version, "taker": "1", "contract": "garde"}
    data |= {"bouts": "2", "points": "49"}
    response = client.post(reverse("hand_edit", args=[first.token, 1]), data)
    assert response.status_code == 302
    club.refresh_from_db()
    assert club.rate_from_played is None
    assert not club_results.recount(club)


@pytest.mark.django_db(transaction=True)
def test_outside_a_request_they_are_caught_up_once_the_write_commits():
    """A command or a thread: no response to wait for."""
    club, sheets = sessions_of_days(3)
    corrected(sheets[0])
    club.refresh_from_db()
    assert club.rate_from_played is None
    assert not club_results.recount(club)

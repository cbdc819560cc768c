"""The one write path (scoresheet/sheets/writes.py): every change keeps the stored scores equal to
a full re-scoring, and the stored facts (who dealt) never move."""

import uuid
from decimal import Decimal

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from hypothesis import HealthCheck, assume, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from scoresheet import keys, scoring, stats, tally
from scoresheet.files import session_csv
from scoresheet.models import Hand, Sheet
from scoresheet.sheets import feuille, views, writes
from tests import scored
from tests.reading import hand_numbered, numbered, rescored, store

pytestmark = pytest.mark.django_db

NAMES = ["Ana", "Ben", "Chloé", "Dan", "Élise", "Fanny"]


@st.composite
def valid_hands(draw, seats, rules=scoring.FFT, dealer=0):
    """A hand the rules accept at this table (dealt by ``dealer``), announcements included."""
    players = rules.players(seats)
    playing = [seat for seat in range(seats) if not (rules.dealer_sits_out and seat == dealer)]
    bouts = draw(st.integers(0, 3))
    low, high = 4 * bouts, 91 - 4 * (3 - bouts)
    step = 1 if players == 4 else 2  # half points only when 3 or 5 play
    points = Decimal(draw(st.integers(step * low, step * high))) / step
    taker = draw(st.sampled_from(playing))
    partner = None
    if players == 5:
        partner = draw(st.none() | st.sampled_from([s for s in playing if s != taker]))
    chelem = draw(st.sampled_from([None, *scoring.Chelem]))
    miseres = {}
    if rules.misere:
        miseres = draw(st.dictionaries(st.sampled_from(playing), st.sampled_from([1, 2])))
    hand = scoring.Hand(
        seats,
        taker,
        draw(st.sampled_from(scoring.Contract)),
        bouts,
        points,
        partner=partner,
        petit_au_bout=draw(st.sampled_from([None, *scoring.Camp])),
        poignees=draw(st.dictionaries(st.sampled_from(playing), st.sampled_from(scoring.Poignee))),
        chelem=chelem,
        defence_chelem=chelem is None and draw(st.booleans()),
        dealer=dealer,
        miseres=miseres,
    )
    # Poignées together may show more trumps than there are: drawn again, rarely.
    assume(not scoring.validate(hand, rules))
    return hand


def hands_or_passes(seats, rules=scoring.FFT, dealer=0):
    return st.none() | valid_hands(seats, rules, dealer)


@st.composite
def rules_for(draw, seats):
    """Any house rules a table of ``seats`` can play (docs/rules.md §6.1)."""
    return scoring.Rules(
        poignees=draw(st.sampled_from(["20-30-40", "20-40-60"])),
        rounding=draw(st.sampled_from([1, 5, 10])),
        misere=draw(st.sampled_from([0, 10, 20])),
        dealer_sits_out=seats == 6 or (seats == 5 and draw(st.booleans())),
    )


def stored_matches_a_full_rescoring(sheet: Sheet) -> None:
    """The stored rows, count, totals, checkpoints, next dealer and statistics are exactly what
    scoring every stored hand afresh gives, and so is every running total a page or a file
    shows (``pages_match``)."""
    sheet.refresh_from_db()
    fresh = rescored(sheet)
    hands = list(numbered(sheet))
    assert [hand.number for hand in hands] == list(range(1, len(hands) + 1))
    assert [tuple(hand.scores) for hand in hands] == [row.scores for row in fresh.rows]
    assert sheet.hand_count == fresh.count
    assert tuple(sheet.totals) == fresh.totals
    assert sheet.next_dealer == fresh.next_dealer
    counters = stats.Counters.from_data(sheet.statistics, fresh.seats)
    assert counters.statistics(tuple(sheet.totals)) == scored.statistics(fresh)
    # Every counter as one pass over the rows leaves it (the swing, the chelems, each
    # player's current run), so that the next hand counts on from the right state.
    once = stats.Counters(fresh.seats)
    for row in fresh.rows:
        once.add(row)
    assert sheet.statistics == once.to_data()
    running = list(tally.running((0,) * fresh.seats, [row.scores for row in fresh.rows]))
    checkpoints = tally.Checkpoints.from_data(sheet.checkpoints)
    assert len(checkpoints.totals) == fresh.count // checkpoints.every
    for number, totals in zip(checkpoints.numbers(), checkpoints.totals, strict=True):
        assert tuple(totals) == running[number - 1]
    pages_match(sheet, running)


def pages_match(sheet: Sheet, running: list[tuple[int, ...]]) -> None:
    """The running totals the sheet's pages show (its latest hands, a page of earlier ones, the
    chart's points), the printed sheet and the CSV are those of the rows scored afresh,
    ``running``: each computed on read."""
    names = list(sheet.seats.values_list("name", flat=True))
    seats, count = len(names), sheet.hand_count
    windows = [(max(1, count - views.LATEST + 1), count + 1)]
    windows += [(max(1, end - views.PAGE), end) for end in {count, count // 2 + 1} if end > 1]
    for start, end in windows:
        hands, shown = views.page_of(sheet, start, end, seats)
        assert [hand.number for hand in hands] == list(range(start, end))
        assert shown == running[start - 1 : end - 1]
    points, _kept = views.chart_points(sheet, seats)
    for number, totals in points.items():
        assert totals == (running[number - 1] if number else (0,) * seats)
    lines = [line for chunk in feuille.chunks(sheet, names, sheet.game_rules) for line in chunk]
    assert [tuple(cell.total for cell in line.cells) for line in lines] == running
    rows = list(session_csv.csv_rows(sheet))
    assert [tuple(row[-seats:]) for row in rows[1 : 1 + count]] == [
        tuple(hand.scores) for hand in numbered(sheet)
    ]
    assert tuple(rows[-2][-seats:]) == (running[-1] if running else (0,) * seats)


class SheetChanges(RuleBasedStateMachine):
    """Any sequence of adds, passes, corrections (of the hand or its dealer), deletions, undos,
    changes of rules and re-scorings, at 3 to 6 seats under any house rules."""

    def __init__(self):
        super().__init__()
        self.seats = None
        self.sheet = None
        self.rules = None
        # What the players entered, in play order: (dealer, hand or None).
        self.expected = []
        # The keys of the forms that added hands (an imported hand's was never a form's).
        self.sent = set()

    @precondition(lambda self: self.sheet is None)
    @rule(
        seats=st.sampled_from([3, 4, 5, 6]),
        first=st.integers(0, 5),
        imported=st.integers(0, 6),
        data=st.data(),
    )
    def open_sheet(self, seats, first, imported, data):
        """A new session, or one restored with its first hands (an import: scored in memory,
        then written in bulk), some with their dealer, the others dealt in turn."""
        self.seats = seats
        self.rules = data.draw(rules_for(seats))
        first %= seats
        dealt = []
        for _ in range(imported):
            dealer = (self.expected[-1][0] + 1) % seats if self.expected else first
            hand = data.draw(hands_or_passes(seats, self.rules, dealer))
            self.expected.append((dealer, hand))
            dealt.append((data.draw(st.sampled_from([None, dealer])), hand))
        self.sheet = writes.create_sheet(
            "Test", NAMES[:seats], first, rules=self.rules, hands=dealt
        )

    def next_dealer(self):
        if not self.expected:
            return self.sheet.first_dealer
        return (self.expected[-1][0] + 1) % self.seats

    @precondition(lambda self: self.sheet is not None)
    @rule(data=st.data())
    def add(self, data):
        dealer = self.next_dealer()
        hand = data.draw(hands_or_passes(self.seats, self.rules, dealer))
        key = uuid.uuid4()
        change = writes.add_hand(self.sheet.token, hand, key)
        assert change.done
        self.sent.add(key)
        self.expected.append((dealer, hand))
        assert change.number == len(self.expected)
        assert change.hand.dealer == dealer

    @precondition(lambda self: self.sheet is not None and self.expected)
    @rule()
    def resend(self):
        """The same form sent again stores nothing more."""
        stored = numbered(self.sheet).last()
        if stored.key not in self.sent:
            return  # restored from a backup: no form ever carried its key
        change = writes.add_hand(self.sheet.token, self.expected[-1][1], stored.key)
        assert not change.done
        assert change.hand.pk == stored.pk

    @precondition(lambda self: self.sheet is not None and self.expected)
    @rule(data=st.data())
    def correct(self, data):
        number = data.draw(st.integers(1, len(self.expected)))
        # Sometimes the dealer was wrong too.
        dealer = data.draw(st.sampled_from([self.expected[number - 1][0], *range(self.seats)]))
        hand = data.draw(hands_or_passes(self.seats, self.rules, dealer))
        stored = hand_numbered(self.sheet, number)
        change = writes.correct_hand(self.sheet.token, stored.key, stored.version, hand, dealer)
        assert change.done
        self.expected[number - 1] = (dealer, hand)
        # A second phone still holding the old version changes nothing.
        stale = writes.correct_hand(self.sheet.token, stored.key, stored.version, None)
        assert stale.conflict

    @precondition(lambda self: self.sheet is not None and self.expected)
    @rule(data=st.data())
    def delete(self, data):
        number = data.draw(st.integers(1, len(self.expected)))
        stored = hand_numbered(self.sheet, number)
        assert writes.delete_hand(self.sheet.token, stored.key).done
        del self.expected[number - 1]
        assert not writes.delete_hand(self.sheet.token, stored.key).done

    @precondition(lambda self: self.sheet is not None and self.expected)
    @rule()
    def undo(self):
        last = numbered(self.sheet).last()
        assert writes.undo(self.sheet.token, last.key).done
        self.expected.pop()
        assert not writes.undo(self.sheet.token, last.key).done

    @precondition(lambda self: self.sheet is not None)
    @rule(data=st.data())
    def change_rules(self, data):
        rules = data.draw(rules_for(self.seats))
        self.sheet.refresh_from_db()
        revision = self.sheet.revision
        try:
            writes.change_rules(self.sheet.token, rules)
        except writes.HandRefused as refused:
            # A stored hand these rules refuse (a misère once misère is off, a partner once
            # the dealer sits out…): nothing changes.
            _dealer, hand = self.expected[refused.number - 1]
            assert hand is not None
            assert scoring.validate(hand, rules)
            self.sheet.refresh_from_db()
            assert self.sheet.revision == revision
            assert self.sheet.game_rules == self.rules
        else:
            self.rules = rules

    @precondition(lambda self: self.sheet is not None)
    @rule()
    def rescore(self):
        """The command finds nothing to repair."""
        assert not writes.rescore(self.sheet)

    @invariant()
    def stored_equals_rescored(self):
        if self.sheet is None:
            return
        stored_matches_a_full_rescoring(self.sheet)

    @invariant()
    def stored_inputs_are_the_entered_ones(self):
        if self.sheet is None:
            return
        hands = list(numbered(self.sheet))
        for stored, (dealer, hand) in zip(hands, self.expected, strict=True):
            assert stored.dealer == dealer
            assert stored.to_scoring(self.seats) == hand


# 50 sequences, drawn as two independent runs of 25 (random draws: derandomize off whatever the
# profile): as many sequences, in two tests that make test's processes share, each a few seconds.
@pytest.mark.parametrize("run", [1, 2])
def test_any_sequence_of_changes_keeps_stored_scores_exact(run):
    run_state_machine_as_test(
        SheetChanges,
        settings=settings(
            max_examples=25,
            stateful_step_count=15,
            derandomize=False,
            deadline=None,
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
        ),
    )


# The same with the streaks repaired from one hand on either side of a change: most changes
# then read too little to know, and count every hand again; the others repair from the edge.
def test_any_sequence_keeps_the_streaks_exact_read_from_one_hand_around(monkeypatch):
    monkeypatch.setattr(writes, "AROUND", 1)
    run_state_machine_as_test(
        SheetChanges,
        settings=settings(
            max_examples=25,
            stateful_step_count=15,
            derandomize=False,
            deadline=None,
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
        ),
    )


def garde(taker, seats=4):
    return scoring.Hand(seats, taker, "garde", 2, 49)


def best_streaks(sheet):
    """Each seat's longest run as (length, first hand, last hand), and its current run."""
    sheet.refresh_from_db()
    counters = stats.Counters.from_data(sheet.statistics, 4)
    return [
        ((seat.best.length, seat.best.first, seat.best.last), (seat.run, seat.run_first))
        for seat in counters.seats
    ]


@pytest.mark.parametrize("around", [48, 1, 0])
def test_a_deletion_a_correction_and_an_undo_move_the_streaks(make_sheet, monkeypatch, around):
    monkeypatch.setattr(writes, "AROUND", around)
    sheet = make_sheet()
    lost = scoring.Hand(4, 0, "garde", 2, 30)
    # Ana takes six gardes and loses the third: the defenders score only in that one.
    store(sheet, garde(0), garde(0), lost, garde(0), garde(0), garde(0))
    none = ((0, 0, 0), (0, 0))
    defender = ((1, 3, 3), (0, 0))
    assert best_streaks(sheet) == [((3, 4, 6), (3, 4)), defender, defender, defender]
    # Without the lost garde, Ana's two runs join: hands 1 to 5.
    writes.delete_hand(sheet.token, hand_numbered(sheet, 3).key)
    assert best_streaks(sheet) == [((5, 1, 5), (5, 1)), none, none, none]
    # Hand 2 lost: her longest run is now hands 3 to 5, the defenders' hand 2.
    target = hand_numbered(sheet, 2)
    writes.correct_hand(sheet.token, target.key, target.version, lost)
    defender = ((1, 2, 2), (0, 0))
    assert best_streaks(sheet) == [((3, 3, 5), (3, 3)), defender, defender, defender]
    # Taking back hand 5 shortens it to hands 3 and 4.
    writes.undo(sheet.token, hand_numbered(sheet, 5).key)
    assert best_streaks(sheet) == [((2, 3, 4), (2, 3)), defender, defender, defender]


def test_deleting_a_hand_keeps_every_dealer(make_sheet):
    sheet = make_sheet(first_dealer=1)
    store(sheet, garde(0), None, garde(1), garde(2))
    dealers = list(numbered(sheet).values_list("dealer", flat=True))
    assert dealers == [1, 2, 3, 0]
    writes.delete_hand(sheet.token, hand_numbered(sheet, 2).key)
    assert list(numbered(sheet).values_list("number", "dealer")) == [
        (1, 1),
        (2, 3),
        (3, 0),
    ]
    sheet.refresh_from_db()
    # The next deal follows the last hand's dealer.
    assert sheet.next_dealer == 1


def test_undo_gives_back_the_deal(make_sheet):
    sheet = make_sheet(first_dealer=3)
    store(sheet, garde(0), garde(1))
    writes.undo(sheet.token, hand_numbered(sheet, 2).key)
    sheet.refresh_from_db()
    assert sheet.next_dealer == 0
    assert sheet.hand_count == 1


def test_rulebook_sheet_totals_are_stored(make_sheet):
    """docs/rules.md §5.1: the rulebook's sample sheet ends at −446, +1346, −390, −510."""
    sheet = make_sheet()
    store(
        sheet,
        scoring.Hand(4, 2, "garde", 2, 49, petit_au_bout="attack", poignees={2: "simple"}),
        scoring.Hand(4, 3, "garde_sans", 1, 55, petit_au_bout="defence"),
        scoring.Hand(4, 1, "prise", 0, 49, petit_au_bout="attack", poignees={1: "simple"}),
        scoring.Hand(4, 0, "garde", 3, 47, poignees={2: "simple"}),
        scoring.Hand(
            4,
            1,
            "garde",
            2,
            87,
            petit_au_bout="attack",
            poignees={1: "simple"},
            chelem="announced_made",
        ),
    )
    sheet.refresh_from_db()
    assert sheet.totals == [-446, 1346, -390, -510]
    assert hand_numbered(sheet, 1).scores == [-106, -106, 318, -106]
    # The running totals after hand 2, as the page adds them up: back from the sheet's totals
    # on its latest hands, on from the first on the printed sheet.
    _hands, running = views.page_of(sheet, 1, 6, 4)
    assert running[1] == (-182, -182, 242, 122)
    lines = next(feuille.chunks(sheet, ["A", "B", "C", "D"], sheet.game_rules))
    assert tuple(cell.total for cell in lines[1].cells) == (-182, -182, 242, 122)


def test_a_hand_the_rules_refuse_writes_nothing(make_sheet):
    sheet = make_sheet()
    with pytest.raises(scoring.InvalidHand) as refused:
        writes.add_hand(sheet.token, scoring.Hand(4, 0, "garde", 2, 40.5), uuid.uuid4())
    assert [problem.field for problem in refused.value.problems] == ["points"]
    sheet.refresh_from_db()
    assert (sheet.hand_count, sheet.revision, sheet.hands.count()) == (0, 0, 0)


def test_a_key_of_another_sheet_is_refused(make_sheet):
    first, second = make_sheet(), make_sheet(name="Samedi")
    key = uuid.uuid4()
    writes.add_hand(first.token, garde(0), key)
    with pytest.raises(keys.KeyTaken):
        writes.add_hand(second.token, garde(0), key)
    assert second.hands.count() == 0


def test_every_write_moves_the_revision_once(make_sheet):
    sheet = make_sheet()
    revisions = []
    for act in (
        lambda: writes.add_hand(sheet.token, garde(0), uuid.uuid4()),
        lambda: writes.add_hand(sheet.token, None, uuid.uuid4()),
        lambda: writes.correct_hand(sheet.token, hand_numbered(sheet, 1).key, 1, garde(1)),
        lambda: writes.delete_hand(sheet.token, hand_numbered(sheet, 1).key),
        lambda: writes.undo(sheet.token, hand_numbered(sheet, 1).key),
        lambda: writes.change_rules(sheet.token, scoring.FFT),
    ):
        act()
        sheet.refresh_from_db()
        revisions.append(sheet.revision)
    assert revisions == [1, 2, 3, 4, 5, 6]


def test_rescore_command_repairs_stored_scores(make_sheet, capsys):
    sheet = make_sheet()
    store(sheet, garde(0), garde(1))
    Hand.objects.filter(sheet=sheet, position=1).update(scores=[0, 0, 0, 0])
    Sheet.objects.filter(pk=sheet.pk).update(totals=[1, 2, 3, 4], checkpoints={})
    untouched = make_sheet(name="Samedi")
    store(untouched, garde(2))
    call_command("rescore")
    assert "2 sessions re-scored, 1 had stored scores that differed." in capsys.readouterr().out
    stored_matches_a_full_rescoring(sheet)
    sheet.refresh_from_db()
    # garde, 2 bouts, 49: (25 + 8) × 2 = 66 per defender; seat 0 then seat 1 takes.
    assert sheet.totals == [198 - 66, -66 + 198, -132, -132]
    call_command("rescore", sheet.token)
    assert "1 sessions re-scored, 0 had stored scores that differed." in capsys.readouterr().out


def hand_statements(act) -> list[str]:
    """The statements ``act`` sends that write the hands' table."""
    with CaptureQueriesContext(connection) as captured:
        act()
    table = connection.ops.quote_name(Hand._meta.db_table)
    return [
        query["sql"]
        for query in captured
        if table in query["sql"] and query["sql"].lstrip().startswith(("UPDATE", "DELETE"))
    ]


def test_a_change_writes_the_hand_it_changes_and_no_other(make_sheet):
    """A correction writes its hand, a deletion deletes its hand and moves the later ones'
    numbers down in one statement, an undo deletes its hand: the running totals of the hands
    after them are nobody's to write. A change of rules writes the rows it changed in one
    statement."""
    sheet = make_sheet()
    store(sheet, garde(0), garde(1), None, garde(2), garde(3))
    second = hand_numbered(sheet, 2)
    written = hand_statements(
        lambda: writes.correct_hand(sheet.token, second.key, second.version, garde(3))
    )
    assert len(written) == 1
    assert written[0].startswith("UPDATE")
    assert str(second.pk) in written[0]
    written = hand_statements(lambda: writes.delete_hand(sheet.token, hand_numbered(sheet, 3).key))
    assert [sql.split()[0] for sql in written] == ["DELETE", "UPDATE"]
    assert '"number" = ("scoresheet_hand"."number" - 1)' in written[1].replace("`", '"')
    written = hand_statements(lambda: writes.undo(sheet.token, hand_numbered(sheet, 4).key))
    assert [sql.split()[0] for sql in written] == ["DELETE"]
    written = hand_statements(lambda: writes.change_rules(sheet.token, scoring.Rules(rounding=10)))
    assert [sql.split()[0] for sql in written] == ["UPDATE"]
    stored_matches_a_full_rescoring(sheet)
    # garde, 2 bouts, 49: made by 8 → 10, (25 + 10) × 2 = 70 per defender.
    assert hand_numbered(sheet, 1).scores == [210, -70, -70, -70]


def test_deleting_an_early_hand_moves_the_hands_before_it_and_no_later_one(make_sheet, client):
    """A hand with fewer hands before it than after it: the earlier ones move one place on,
    into its place, and the numbers start one place later (``Sheet.hand_offset``); deleting
    the first hand moves none. The hands keep their numbers in play order on every page, and
    a hand's links open that hand."""
    sheet = make_sheet()
    takers = [0, 1, 2, 3, 0, 1, 2, 3, 0]
    store(sheet, *(garde(taker) for taker in takers))
    written = hand_statements(lambda: writes.delete_hand(sheet.token, hand_numbered(sheet, 1).key))
    assert [sql.split()[0] for sql in written] == ["DELETE"]
    del takers[0]
    second = hand_numbered(sheet, 2)
    written = hand_statements(lambda: writes.delete_hand(sheet.token, second.key))
    assert [sql.split()[0] for sql in written] == ["DELETE", "UPDATE"]
    assert '"number" = ("scoresheet_hand"."number" + 1)' in written[1].replace("`", '"')
    del takers[1]
    sheet.refresh_from_db()
    assert (sheet.hand_offset, sheet.hand_count) == (2, 7)
    assert [hand.taker for hand in numbered(sheet)] == takers
    stored_matches_a_full_rescoring(sheet)
    # The deal goes on from the last hand: nine hands from seat 0, the tenth is seat 1's.
    assert sheet.next_dealer == 1
    # Hand 1 is now the second one entered (seat 1 took it), found through its number.
    first = hand_numbered(sheet, 1)
    assert first.taker == 1
    page = client.get(reverse("hand_edit", args=[sheet.token, 1]))
    assert str(first.key) in page.content.decode()
    assert client.get(reverse("hand_edit", args=[sheet.token, 8])).status_code == 404
    # A later hand deleted moves the later ones down, as before; an undo moves none.
    written = hand_statements(lambda: writes.delete_hand(sheet.token, hand_numbered(sheet, 5).key))
    assert '"number" = ("scoresheet_hand"."number" - 1)' in written[1].replace("`", '"')
    del takers[4]
    written = hand_statements(lambda: writes.undo(sheet.token, numbered(sheet).last().key))
    assert [sql.split()[0] for sql in written] == ["DELETE"]
    takers.pop()
    assert [hand.taker for hand in numbered(sheet)] == takers
    stored_matches_a_full_rescoring(sheet)


def test_rescore_puts_a_hand_stored_at_another_s_place_after_it(make_sheet):
    """A hand stored at the place of the last one (a previous release's server adding a hand,
    unaware of the offset a deletion of hand 1 moved on: CHANGELOG, migration 0021): the
    command puts it after that hand, in the order they were stored, and the sheet adds up."""
    sheet = make_sheet()
    store(sheet, garde(0), garde(1), garde(2))
    writes.delete_hand(sheet.token, hand_numbered(sheet, 1).key)
    sheet.refresh_from_db()
    assert sheet.hand_offset == 1
    # As the previous release stored a fourth hand: at the sheet's count plus one, 3.
    last = Hand.objects.get(sheet=sheet, position=3)
    Hand.objects.create(
        sheet=sheet, position=3, dealer=3, scores=[0, 0, 0, 0], **Hand.inputs_of(garde(3))
    )
    Sheet.objects.filter(pk=sheet.pk).update(hand_count=3)
    assert writes.rescore(sheet)
    assert [hand.taker for hand in numbered(sheet)] == [1, 2, 3]
    assert hand_numbered(sheet, 2).pk == last.pk
    stored_matches_a_full_rescoring(sheet)
    # garde, 2 bouts, 49: (25 + 8) × 2 = 66 per defender, 198 to the taker; seats 1, 2, 3.
    assert hand_numbered(sheet, 3).scores == [-66, -66, -66, 198]

"""The tally (scoresheet/tally.py): rows in play order, dealers, running totals, standings.

docs/rules.md §4: the dealer moves one seat on after every hand, a passed deal (None) included;
rows and totals always sum to zero.
"""

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoresheet.scoring import Contract, Hand, InvalidHand
from scoresheet.tally import dealer
from tests.scored import build, scored_rows

# Rows: (3 players) seat 0 takes a prise, 2 bouts, 46: made by 5, u = 30.
WON_BY_0 = Hand(3, 0, "prise", 2, 46)  # (60, -30, -30)
LOST_BY_1 = Hand(3, 1, "prise", 2, 36)  # (30, -60, 30)

# (first dealer, hand number, players, dealer)
DEALERS = [
    (0, 1, 4, 0),
    (0, 2, 4, 1),
    (0, 4, 4, 3),
    (0, 5, 4, 0),
    (2, 1, 3, 2),
    (2, 2, 3, 0),
    (4, 1, 5, 4),
    (4, 2, 5, 0),
    (1, 11, 5, 1),
]


@pytest.mark.parametrize(("first", "number", "players", "expected"), DEALERS)
def test_dealer(first, number, players, expected):
    assert dealer(first, number, players) == expected


def test_passed_deals_move_the_dealer_on():
    built = build(3, 1, [WON_BY_0, None, None, LOST_BY_1])
    assert [row.number for row in built.rows] == [1, 2, 3, 4]
    assert [row.dealer for row in built.rows] == [1, 2, 0, 1]
    assert [row.passed for row in built.rows] == [False, True, True, False]
    assert built.rows[1].hand is None
    assert built.rows[1].breakdown is None
    assert built.rows[1].scores == (0, 0, 0)
    assert built.next_dealer == 2


def test_rows_and_totals():
    built = build(3, 0, [WON_BY_0, LOST_BY_1, None, WON_BY_0])
    assert [row.scores for row in built.rows] == [
        (60, -30, -30),
        (30, -60, 30),
        (0, 0, 0),
        (60, -30, -30),
    ]
    assert built.rows[0].breakdown.per_defender == 30
    assert built.rows[0].hand is WON_BY_0
    assert built.totals == (150, -120, -30)
    assert all(row.balanced for row in built.rows)
    assert built.seats == 3


def test_empty_sheet():
    built = build(4, 3, [])
    assert built.rows == ()
    assert built.totals == (0, 0, 0, 0)
    assert built.next_dealer == 3
    assert built.leaders == ()
    assert [standing.rank for standing in built.standings] == [1, 1, 1, 1]


def test_only_passed_deals():
    built = build(4, 0, [None, None])
    assert built.totals == (0, 0, 0, 0)
    assert built.next_dealer == 2
    assert built.leaders == ()


@pytest.mark.parametrize(
    ("hands", "totals", "ranks", "leaders"),
    [
        ([WON_BY_0], (60, -30, -30), [1, 2, 2], (0,)),
        ([LOST_BY_1], (30, -60, 30), [1, 3, 1], (0, 2)),
        ([WON_BY_0, LOST_BY_1], (90, -90, 0), [1, 3, 2], (0,)),
        (
            [Hand(5, 0, "prise", 2, 46, partner=1), Hand(5, 1, "prise", 2, 46, partner=0)],
            (90, 90, -60, -60, -60),
            [1, 1, 3, 3, 3],
            (0, 1),
        ),
        ([Hand(4, 2, "prise", 2, 36)], (30, 30, -90, 30), [1, 1, 4, 1], (0, 1, 3)),
    ],
)
def test_standings(hands, totals, ranks, leaders):
    built = build(hands[0].seats, 0, hands)
    assert built.totals == totals
    assert [standing.seat for standing in built.standings] == list(range(built.seats))
    assert [standing.total for standing in built.standings] == list(totals)
    assert [standing.rank for standing in built.standings] == ranks
    assert built.leaders == leaders


def test_streamed_rows_are_the_sheets_rows_with_their_running_totals():
    hands = [WON_BY_0, None, LOST_BY_1, LOST_BY_1, None]
    whole = build(3, 2, hands)
    streamed = list(scored_rows(3, 2, iter(hands)))
    assert tuple(row for row, _totals in streamed) == whole.rows
    for number, (_row, totals) in enumerate(streamed, start=1):
        assert totals == tuple(
            sum(r.scores[seat] for r in whole.rows[:number]) for seat in range(3)
        )
    assert streamed[-1][1] == whole.totals
    assert whole.next_dealer == 1


def test_an_invalid_hand_stops_the_sheet():
    with pytest.raises(InvalidHand):
        build(3, 0, [WON_BY_0, Hand(3, 0, "prise", 2, 92)])


@st.composite
def hands_or_passes(draw, players):
    if draw(st.integers(0, 4)) == 0:
        return None
    bouts = draw(st.integers(0, 3))
    low, high = 4 * bouts, 91 - 4 * (3 - bouts)
    step = 1 if players == 4 else 2  # half points at 3 and 5 players only
    points = Decimal(draw(st.integers(step * low, step * high))) / step
    taker = draw(st.integers(0, players - 1))
    return Hand(players, taker, draw(st.sampled_from(Contract)), bouts, points)


@st.composite
def sheets(draw):
    players = draw(st.sampled_from([3, 4, 5]))
    first = draw(st.integers(0, players - 1))
    hands = draw(st.lists(hands_or_passes(players), max_size=12))
    return players, first, hands


@given(sheets())
def test_totals_are_the_column_sums(sheet):
    players, first, hands = sheet
    built = build(players, first, hands)
    assert len(built.rows) == len(hands)
    for seat in range(players):
        assert built.totals[seat] == sum(row.scores[seat] for row in built.rows)
    assert sum(built.totals) == 0
    assert all(row.balanced for row in built.rows)
    assert [row.dealer for row in built.rows] == [
        (first + index) % players for index in range(len(hands))
    ]
    assert built.next_dealer == (first + len(hands)) % players

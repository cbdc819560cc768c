"""The club night's draw (scoresheet/nights/draw.py): table sizes, round 1 from the seed, and
later rounds with as few repeated meetings as possible."""

import itertools
import random

import pytest

from scoresheet.nights import draw


@pytest.mark.parametrize("players", range(8, 61))
def test_table_sizes_seat_everyone_at_tables_of_4_and_5(players):
    sizes = draw.table_sizes(players)
    assert sum(sizes) == players
    if players == 11:
        # 11 cannot be seated in 4s and 5s: the docs say 4 + 4 + 3.
        assert sorted(sizes) == [3, 4, 4]
    else:
        assert set(sizes) <= {4, 5}
        # As many tables of 4 as possible: a 5 only for a player 4s leave over.
        assert sizes.count(5) == players % 4


@pytest.mark.parametrize(
    ("players", "sizes"),
    [(8, [4, 4]), (9, [5, 4]), (10, [5, 5]), (13, [5, 4, 4]), (15, [5, 5, 5]), (16, [4] * 4)],
)
def test_table_sizes_worked_examples(players, sizes):
    """NIGHTS.md: 9 = 4 + 5, 13 = 4 + 4 + 5, 10 = 5 + 5."""
    assert draw.table_sizes(players) == sizes


@pytest.mark.parametrize("players", [0, 3, 7])
def test_fewer_than_eight_players_is_refused(players):
    with pytest.raises(ValueError):
        draw.table_sizes(players)


def test_round_one_is_the_seed_s_shuffle():
    players = list(range(1, 14))
    first = draw.first_round(players, "4242")
    assert draw.first_round(list(players), "4242") == first
    # The players in the order given, shuffled as Python's random does from "<seed>:1", seated
    # in turn (docs/club-night.md, "Redraw round 1").
    order = list(players)
    random.Random("4242:1").shuffle(order)
    assert first == [order[:5], order[5:9], order[9:]]
    # The order they came in is part of the draw: the file lists them in it.
    assert draw.first_round(list(reversed(players)), "4242") != first
    assert sorted(p for table in first for p in table) == players
    assert [len(t) for t in first] == [5, 4, 4]
    others = {str(draw.first_round(players, str(seed))) for seed in range(20)}
    assert len(others) > 1


def night(players, seed, rounds=5, simple=False):
    """A night drawn round after round: by ``next_round``, or (``simple``) by the plain
    greedy draw alone, the baseline the issue compares against."""
    history = []
    for number in range(1, rounds + 1):
        if not history:
            tables = draw.first_round(players, seed)
        elif simple:
            met = draw.meetings(history)
            rng = random.Random(f"{seed}:{number}")
            tables = draw.greedy(players, draw.table_sizes(len(players)), met, rng)
        else:
            tables = draw.next_round(players, history, seed)
        history.append(tables)
    return history


def assert_seated(players, tables):
    assert sorted(p for table in tables for p in table) == sorted(players)
    assert sorted(len(t) for t in tables) == sorted(draw.table_sizes(len(players)))


@pytest.mark.parametrize("seed", ["1", "club", "98765"])
def test_sixteen_players_over_five_rounds_never_meet_twice(seed):
    """The affine plane of order 4: 5 rounds × 4 tables × 6 pairs = the 120 pairs, once each."""
    players = list(range(101, 117))
    rounds = night(players, seed)
    for tables in rounds:
        assert_seated(players, tables)
    met = draw.meetings(rounds)
    assert len(met) == 16 * 15 // 2
    assert set(met.values()) == {1}


def test_a_player_seen_twice_in_sixteen_breaks_no_round():
    """After the plane's 5 rounds a sixth must repeat; it still seats everyone."""
    players = list(range(16))
    rounds = night(players, "x", rounds=6)
    assert_seated(players, rounds[5])
    assert draw.repeated_meetings(rounds) > 0


@pytest.mark.parametrize("players", range(8, 61))
def test_repeats_never_exceed_a_simple_greedy_redraw(players):
    """Measured as the meetings beyond each pair's first, over a night of 5 rounds, against
    the same night whose later rounds are each one plain greedy draw (same seed)."""
    everyone = list(range(1, players + 1))
    for seed in ("a", "b"):
        ours = night(everyone, seed)
        for tables in ours:
            assert_seated(everyone, tables)
        assert draw.repeated_meetings(ours) <= draw.repeated_meetings(
            night(everyone, seed, simple=True)
        )


@pytest.mark.parametrize("players", [28, 32, 40, 60])
def test_with_room_enough_nobody_meets_twice(players):
    """With 7 tables or more, five rounds without a repeat exist and the search finds them."""
    assert draw.repeated_meetings(night(list(range(players)), "s")) == 0


def test_leavers_are_out_and_arrivals_in_the_next_round():
    players = list(range(1, 13))
    first = draw.first_round(players, "7")
    present = [p for p in players if p not in (3, 4)] + [20, 21, 22]
    second = draw.next_round(present, [first], "7")
    assert_seated(present, second)
    seated = list(itertools.chain(*second))
    assert 3 not in seated
    assert 20 in seated


def test_the_draw_is_the_same_from_the_same_seed_and_history():
    players = list(range(1, 20))
    first = draw.first_round(players, "5")
    assert draw.next_round(players, [first], "5") == draw.next_round(players, [first], "5")

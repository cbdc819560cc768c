"""A session's statistics (scoresheet/stats.py) on hand-built sessions with known answers.

Every expected number is worked out by hand in the comments (docs/rules.md §2: targets 56/51/41/36
by bouts, base 25, multipliers 1/2/4/6, u = per defender; the taker gets (n − 1)·u, or 2·u
with a partner who gets u).
"""

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoresheet.scoring import Contract, Hand, Poignee
from scoresheet.stats import BiggestHand, Streak
from tests.scored import build, statistics


def player(result, seat):
    return result.players[seat]


def rates(record):
    """{contract: (taken, made)} for the contracts a player took."""
    return {r.contract: (r.taken, r.made) for r in record.contracts_taken}


def poignees(record):
    return {p.size: p.count for p in record.poignee_sizes}


# 3 players, a passed deal as hand 2.
THREE = [
    # 1: seat 0 prise, 2 bouts, 46: made by 5, u = 30 → (60, −30, −30)
    Hand(3, 0, "prise", 2, 46),
    # 2: passed
    None,
    # 3: seat 1 garde, 1 bout, 45: lost by 6, −31×2 = −62, petit to the defence −20,
    # u = −82 → (82, −164, 82)
    Hand(3, 1, "garde", 1, 45, petit_au_bout="defence"),
    # 4: seat 0 garde, 2 bouts, 50: made by 9, 34×2 = 68, petit +20, poignée simple +20,
    # u = 108 → (216, −108, −108)
    Hand(3, 0, "garde", 2, 50, petit_au_bout="attack", poignees={0: "simple"}),
    # 5: seat 2 prise, 3 bouts, 36: made by 0 ("juste fait"), u = 25 → (−25, −25, 50)
    Hand(3, 2, "prise", 3, 36),
]


@pytest.fixture
def three():
    return statistics(build(3, 0, THREE))


def test_three_players_session(three):
    # Totals: 60 + 82 + 216 − 25 = 333; −30 − 164 − 108 − 25 = −327; −30 + 82 − 108 + 50 = −6
    assert [p.total for p in three.players] == [333, -327, -6]
    assert three.hands == 5
    assert three.passed == 1
    assert three.scored == 4
    mix = {c.contract: c.count for c in three.contracts}
    assert mix == {
        Contract.PRISE: 2,
        Contract.GARDE: 2,
        Contract.GARDE_SANS: 0,
        Contract.GARDE_CONTRE: 0,
    }
    assert [c.label for c in three.contracts] == ["Prise", "Garde", "Garde sans", "Garde contre"]
    # |u| by hand: 30, 82, 108, 25: hand 4 is the biggest.
    assert three.biggest == BiggestHand(
        number=4,
        taker=0,
        partner=None,
        contract=Contract.GARDE,
        made=True,
        per_defender=108,
        scores=(216, -108, -108),
    )
    assert three.biggest.value == 108
    assert three.biggest.label == "Garde"


def test_three_players_takers(three):
    ana, ben, chloe = three.players
    # Ana took hands 1 and 4 and made both: (60 + 216) / 2 = 138.
    assert (ana.taken, ana.made, ana.lost, ana.percent) == (2, 2, 0, 100)
    assert rates(ana) == {Contract.PRISE: (1, 1), Contract.GARDE: (1, 1)}
    assert ana.taker_average == 138
    # Ben took hand 3 and lost it: −164.
    assert (ben.taken, ben.made, ben.lost, ben.percent) == (1, 0, 1, 0)
    assert rates(ben) == {Contract.GARDE: (1, 0)}
    assert ben.by_contract[1].rate == 0.0
    assert ben.by_contract[0].rate is None
    assert ben.taker_average == -164
    # Chloé made hand 5 "juste": +50.
    assert (chloe.taken, chloe.made, chloe.taker_average) == (1, 1, 50)


def test_three_players_defenders(three):
    ana, ben, chloe = three.players
    # Ana defended hands 3 (+82) and 5 (−25): 57 / 2 = 28.5, rounded half away from zero.
    assert (ana.defended, ana.defender_total, ana.defender_average) == (2, 57, 29)
    # Ben: hands 1, 4, 5: (−30 − 108 − 25) / 3 = −54.3.
    assert (ben.defended, ben.defender_average) == (3, -54)
    # Chloé: hands 1, 3, 4: (−30 + 82 − 108) / 3 = −18.7.
    assert (chloe.defended, chloe.defender_average) == (3, -19)
    # No partner at 3 players.
    assert [p.called for p in three.players] == [0, 0, 0]


def test_three_players_petits_poignees_streaks(three):
    ana, ben, chloe = three.players
    # Hand 3: the defence (Ana, Chloé) took the petit; hand 4: the attack (Ana).
    assert (ana.petits_won, ana.petits_lost) == (2, 0)
    assert (ben.petits_won, ben.petits_lost) == (0, 2)
    assert (chloe.petits_won, chloe.petits_lost) == (1, 1)
    assert poignees(ana) == {Poignee.SIMPLE: 1}
    assert ana.poignees_shown == 1
    assert ben.poignees_shown == chloe.poignees_shown == 0
    assert [(p.chelems_made, p.chelems_failed, p.defence_chelems) for p in three.players] == [
        (0, 0, 0)
    ] * 3
    # Ana: +60, (passed), +82, +216, then −25: three hands in a row, hands 1 to 4.
    # Ben never scored positive; Chloé +82 on hand 3, −108, +50: one hand.
    assert [p.best_streak for p in three.players] == [3, 0, 1]
    assert three.streaks == (Streak(seat=0, length=3, first=1, last=4),)
    assert three.streak_length == 3


# 4 players: the FFT rulebook's sample sheet (docs/rules.md §5.1) with a passed deal as hand 3.
FOUR = [
    # 1: seat 2 garde, 2 bouts, 49: (25 + 8)×2 + 20 petit + 20 poignée = 106
    # → (−106, −106, 318, −106)
    Hand(4, 2, "garde", 2, 49, petit_au_bout="attack", poignees={2: "simple"}),
    # 2: seat 3 garde sans, 1 bout, 55: (25 + 4)×4 − 40 petit to the defence = 76
    # → (−76, −76, −76, 228)
    Hand(4, 3, "garde_sans", 1, 55, petit_au_bout="defence"),
    # 3: passed
    None,
    # 4: seat 1 prise, 0 bouts, 49: −(25 + 7) + 10 petit − 20 poignée = −42 → (42, −126, 42, 42)
    Hand(4, 1, "prise", 0, 49, petit_au_bout="attack", poignees={1: "simple"}),
    # 5: seat 0 garde, 3 bouts, 47: (25 + 11)×2 + 20 poignée (seat 2's) = 92
    # → (276, −92, −92, −92)
    Hand(4, 0, "garde", 3, 47, poignees={2: "simple"}),
    # 6: seat 1 garde, 2 bouts, 87: (25 + 46)×2 + 20 + 20 + 400 announced chelem = 582
    # → (−582, 1746, −582, −582)
    Hand(
        4,
        1,
        "garde",
        2,
        87,
        petit_au_bout="attack",
        poignees={1: "simple"},
        chelem="announced_made",
    ),
]


@pytest.fixture
def four():
    return statistics(build(4, 0, FOUR))


def test_four_players_rulebook_session(four):
    assert [p.total for p in four.players] == [-446, 1346, -390, -510]
    assert (four.hands, four.passed) == (6, 1)
    assert {c.contract: c.count for c in four.contracts} == {
        Contract.PRISE: 1,
        Contract.GARDE: 3,
        Contract.GARDE_SANS: 1,
        Contract.GARDE_CONTRE: 0,
    }
    assert four.biggest.number == 6
    assert (four.biggest.taker, four.biggest.per_defender) == (1, 582)


def test_four_players_per_player(four):
    ana, ben, chloe, dan = four.players
    assert [(p.taken, p.made, p.lost) for p in four.players] == [
        (1, 1, 0),
        (2, 1, 1),
        (1, 1, 0),
        (1, 1, 0),
    ]
    assert rates(ben) == {Contract.PRISE: (1, 0), Contract.GARDE: (1, 1)}
    assert ben.percent == 50
    # As taker: Ana 276; Ben (−126 + 1746) / 2 = 810; Chloé 318; Dan 228.
    assert [p.taker_average for p in four.players] == [276, 810, 318, 228]
    # As defender: Ana (−106 − 76 + 42 − 582) / 4 = −180.5 → −181 (half away from zero);
    # Ben (−106 − 76 − 92) / 3 = −91.3; Chloé (−76 + 42 − 92 − 582) / 4 = −177;
    # Dan (−106 + 42 − 92 − 582) / 4 = −184.5 → −185.
    assert [p.defender_average for p in four.players] == [-181, -91, -177, -185]
    assert [p.defended for p in four.players] == [4, 3, 4, 4]
    # Petits: hand 1 attack (Chloé), 2 defence (Ana, Ben, Chloé), 4 attack (Ben), 6 attack (Ben).
    assert [(p.petits_won, p.petits_lost) for p in four.players] == [
        (1, 3),
        (3, 1),
        (2, 2),
        (0, 4),
    ]
    assert poignees(ben) == {Poignee.SIMPLE: 2}
    assert poignees(chloe) == {Poignee.SIMPLE: 2}
    assert ana.poignees_shown == dan.poignees_shown == 0
    assert [p.chelems_made for p in four.players] == [0, 1, 0, 0]


def test_a_passed_deal_neither_breaks_nor_extends_a_streak(four):
    # Dan: +228 on hand 2, hand 3 passed, +42 on hand 4, −92 on hand 5: two hands, 2 to 4.
    # Ana: +42 and +276 on hands 4 and 5: two hands. Ben: hand 6 only; Chloé: hand 1 only.
    assert [p.best_streak for p in four.players] == [2, 1, 1, 2]
    assert four.streaks == (
        Streak(seat=0, length=2, first=4, last=5),
        Streak(seat=3, length=2, first=2, last=4),
    )


# 5 players: called partners, a taker alone, chelems of every kind.
FIVE = [
    # 1: seat 0 garde with seat 3, 2 bouts, 50: (25 + 9)×2 + 20 petit = 88
    # → (176, −88, −88, 88, −88)
    Hand(5, 0, "garde", 2, 50, partner=3, petit_au_bout="attack"),
    # 2: seat 1 prise alone, 1 bout, 45: −(25 + 6) = −31, the taker pays 4×
    # → (31, −124, 31, 31, 31)
    Hand(5, 1, "prise", 1, 45),
    # 3: passed
    None,
    # 4: seat 2 garde contre with seat 4, 0 bouts, 30: −(25 + 26)×6 = −306, and the
    # defence's poignée double (seat 1) −30: u = −336 → (336, 336, −672, 336, −336)
    Hand(5, 2, "garde_contre", 0, 30, partner=4, poignees={1: "double"}),
    # 5: seat 4 garde sans with seat 0, 3 bouts, 91: (25 + 55)×4 + 40 petit + 40 poignée
    # triple + 400 announced chelem = 800 → (800, −800, −800, −800, 1600)
    Hand(
        5,
        4,
        "garde_sans",
        3,
        91,
        partner=0,
        petit_au_bout="attack",
        poignees={4: "triple"},
        chelem="announced_made",
    ),
    # 6: seat 3 prise with seat 2, 0 bouts, 4: −(25 + 52) − 10 petit to the defence
    # − 200 chelem announced and failed − 200 defence chelem = −487
    # → (487, 487, −487, −974, 487)
    Hand(
        5,
        3,
        "prise",
        0,
        4,
        partner=2,
        petit_au_bout="defence",
        chelem="announced_failed",
        defence_chelem=True,
    ),
]


@pytest.fixture
def five():
    return statistics(build(5, 4, FIVE))


def test_five_players_session(five):
    # Ana 176 + 31 + 336 + 800 + 487 = 1830; Ben −88 − 124 + 336 − 800 + 487 = −189;
    # Chloé −88 + 31 − 672 − 800 − 487 = −2016; Dan 88 + 31 + 336 − 800 − 974 = −1319;
    # Élise −88 + 31 − 336 + 1600 + 487 = 1694.
    assert [p.total for p in five.players] == [1830, -189, -2016, -1319, 1694]
    assert {c.contract: c.count for c in five.contracts} == {
        Contract.PRISE: 2,
        Contract.GARDE: 1,
        Contract.GARDE_SANS: 1,
        Contract.GARDE_CONTRE: 1,
    }
    assert five.passed == 1
    # |u|: 88, 31, 336, 800, 487: hand 5. Its taker's +1600 is also the largest single score.
    assert five.biggest == BiggestHand(
        number=5,
        taker=4,
        partner=0,
        contract=Contract.GARDE_SANS,
        made=True,
        per_defender=800,
        scores=(800, -800, -800, -800, 1600),
    )


def test_five_players_partners_and_the_taker_alone(five):
    ben = five.players[1]
    # Called: Dan (hand 1), Élise (4), Ana (5), Chloé (6); Ben took alone on hand 2,
    # so nobody was called then, and a taker alone is not their own partner.
    assert [p.called for p in five.players] == [1, 0, 1, 1, 1]
    assert sum(p.called for p in five.players) == 4
    assert (ben.taken, ben.lost, ben.taker_average) == (1, 1, -124)
    # Every scored hand, each player is taker, partner or defender exactly once.
    for p in five.players:
        assert p.taken + p.called + p.defended == 5
    # As defender (partners excluded): Ana 2, 4, 6: (31 + 336 + 487) / 3 = 284.7;
    # Ben 1, 4, 5, 6: (−88 + 336 − 800 + 487) / 4 = −16.25; Chloé 1, 2, 5: −857 / 3 = −285.7;
    # Dan 2, 4, 5: −433 / 3 = −144.3; Élise 1, 2, 6: 430 / 3 = 143.3.
    assert [p.defender_average for p in five.players] == [285, -16, -286, -144, 143]
    assert [p.taker_average for p in five.players] == [176, -124, -672, -974, 1600]


def test_five_players_petits_poignees_chelems(five):
    ben, elise = five.players[1], five.players[4]
    # Petits: hand 1 to the attack (Ana, Dan), 5 to the attack (Élise, Ana),
    # 6 to the defence (Ana, Ben, Élise).
    assert [(p.petits_won, p.petits_lost) for p in five.players] == [
        (3, 0),
        (1, 2),
        (0, 3),
        (1, 2),
        (2, 1),
    ]
    assert poignees(ben) == {Poignee.DOUBLE: 1}
    assert poignees(elise) == {Poignee.TRIPLE: 1}
    # Chelem made on hand 5 by Élise and her partner Ana; announced and failed on hand 6 by
    # Dan and his partner Chloé, whose defence (Ana, Ben, Élise) made a chelem.
    assert [(p.chelems_made, p.chelems_failed, p.defence_chelems) for p in five.players] == [
        (1, 0, 1),
        (0, 0, 1),
        (0, 1, 0),
        (0, 1, 0),
        (1, 0, 1),
    ]


def test_five_players_streaks(five):
    # Ana is positive on every scored hand (1, 2, 4, 5, 6; 3 passed): five in a row.
    # Dan: 1, 2, (3), 4, then −800: three. Élise: 5 and 6: two. Ben: 4. Chloé: 2.
    assert [p.best_streak for p in five.players] == [5, 1, 1, 3, 2]
    assert five.streaks == (Streak(seat=0, length=5, first=1, last=6),)


def test_no_hand_at_all():
    result = statistics(build(4, 0, []))
    assert (result.hands, result.passed, result.scored) == (0, 0, 0)
    assert result.biggest is None
    assert result.streaks == ()
    assert result.streak_length == 0
    assert all(c.count == 0 for c in result.contracts)
    for p in result.players:
        assert (p.taken, p.defended, p.called, p.total) == (0, 0, 0, 0)
        assert p.taker_average is p.defender_average is p.percent is None
        assert p.contracts_taken == ()


def test_only_passed_deals():
    result = statistics(build(5, 0, [None, None, None]))
    assert (result.hands, result.passed, result.scored) == (3, 3, 0)
    assert result.biggest is None
    assert result.streaks == ()
    assert all(p.defended == 0 and p.defender_average is None for p in result.players)


def test_a_tie_for_the_biggest_hand_goes_to_the_earliest():
    # Both u = 30: (60, −30, −30) then (−30, 60, −30).
    result = statistics(build(3, 0, [Hand(3, 0, "prise", 2, 46), Hand(3, 1, "prise", 2, 46)]))
    assert result.biggest.number == 1


def test_biggest_hand_is_by_value_per_defender_lost_or_made():
    # u = 30 made, then u = −62 lost (garde, 1 bout, 45: −(25 + 6)×2): the lost hand is bigger.
    hands = [Hand(3, 0, "prise", 2, 46), Hand(3, 1, "garde", 1, 45)]
    result = statistics(build(3, 0, hands))
    assert (result.biggest.number, result.biggest.made, result.biggest.value) == (2, False, 62)


def test_a_zero_score_ends_a_streak():
    # Hand 2: garde sans, 1 bout, 76: made by 25, (25 + 25)×4 = 200, and the announced chelem
    # failed −200: u = 0, a row of zeros. Seat 0: +60, 0, +60: two runs of one.
    won = Hand(3, 0, "prise", 2, 46)
    nothing = Hand(3, 0, "garde_sans", 1, 76, chelem="announced_failed")
    sheet = build(3, 0, [won, nothing, won])
    assert sheet.rows[1].scores == (0, 0, 0)
    result = statistics(sheet)
    assert result.players[0].best_streak == 1
    assert result.streaks == (Streak(seat=0, length=1, first=1, last=1),)


def test_inputs_as_the_forms_give_them():
    # Seats as digit strings, an empty partner, empty sizes: what scoring.Hand also accepts.
    hand = Hand(5, "2", "garde", 2, Decimal("50"), partner="", poignees={"1": "simple", "3": ""})
    result = statistics(build(5, 0, [hand]))
    assert result.players[2].taken == 1
    assert [p.called for p in result.players] == [0] * 5
    assert poignees(result.players[1]) == {Poignee.SIMPLE: 1}
    assert result.players[3].poignees_shown == 0


@st.composite
def hands(draw, players):
    """A valid hand at a table of ``players``, or None for a passed deal."""
    if draw(st.booleans()) and draw(st.booleans()):
        return None
    taker = draw(st.integers(0, players - 1))
    partner = None
    if players == 5:
        partner = draw(st.sampled_from([None, *(s for s in range(5) if s != taker)]))
    bouts = draw(st.integers(0, 3))
    low, high = 4 * bouts, 91 - 4 * (3 - bouts)
    points = draw(st.integers(low, high))
    return Hand(
        players,
        taker,
        draw(st.sampled_from(list(Contract))),
        bouts,
        points,
        partner=partner,
        petit_au_bout=draw(st.sampled_from([None, "attack", "defence"])),
        poignees=draw(st.dictionaries(st.integers(0, players - 1), st.just("simple"), max_size=1)),
    )


@given(st.sampled_from([3, 4, 5]).flatmap(lambda n: st.tuples(st.just(n), st.lists(hands(n)))))
def test_counts_add_up(session):
    players, played = session
    result = statistics(build(players, 0, played))
    scored = [h for h in played if h is not None]
    petits = sum(1 for h in scored if h.petit_au_bout)
    assert result.scored == len(scored)
    assert sum(c.count for c in result.contracts) == len(scored)
    assert sum(p.taken for p in result.players) == len(scored)
    assert sum(p.called for p in result.players) == sum(h.partner is not None for h in scored)
    for p in result.players:
        assert p.made + p.lost == p.taken
        assert p.taken + p.called + p.defended == len(scored)
        assert p.petits_won + p.petits_lost == petits
        assert sum(r.taken for r in p.by_contract) == p.taken
        assert 0 <= p.best_streak <= len(scored)
    assert all(s.length == result.streak_length for s in result.streaks)
    if result.biggest:
        assert all(
            abs(result.biggest.per_defender) >= abs(r.breakdown.per_defender)
            for r in build(players, 0, played).rows
            if not r.passed
        )

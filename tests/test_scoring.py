"""The scoring engine (scoresheet/scoring.py) against the rules in RULES.md.

The worked examples of RULES.md §5 are copied here as data; the edge cases of §2 and every
rejection of §3 are tables; hypothesis checks the invariants of §2 over all valid hands.
"""

from dataclasses import replace
from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoresheet import sheet
from scoresheet.scoring import (
    Camp,
    Chelem,
    Contract,
    Hand,
    InvalidHand,
    Poignee,
    breakdown,
    score,
    validate,
    warnings,
)

# RULES.md §5: the FFT rulebook's sample sheet, 4 players, seats 0–3, in play order.
# (taker, contract, bouts, points, petit au bout, poignées, chelem, row)
FFT_SHEET = [
    (2, "garde", 2, 49, "attack", {2: "simple"}, None, (-106, -106, 318, -106)),
    (3, "garde_sans", 1, 55, "defence", {}, None, (-76, -76, -76, 228)),
    (1, "prise", 0, 49, "attack", {1: "simple"}, None, (42, -126, 42, 42)),
    (0, "garde", 3, 47, None, {2: "simple"}, None, (276, -92, -92, -92)),
    (1, "garde", 2, 87, "attack", {1: "simple"}, "announced_made", (-582, 1746, -582, -582)),
]
FFT_TOTALS = (-446, 1346, -390, -510)

# RULES.md §5, examples from the sources (taker in seat 0): (hand, row).
SOURCE_EXAMPLES = [
    pytest.param(
        Hand(4, 0, "garde", 2, 47, petit_au_bout="attack", poignees={1: "simple"}),
        (306, -102, -102, -102),
        id="4p-garde-2bouts-47",
    ),
    pytest.param(
        Hand(4, 0, "garde", 2, 38, petit_au_bout="attack", poignees={1: "simple"}),
        (-168, 56, 56, 56),
        id="4p-garde-2bouts-38",
    ),
    pytest.param(
        Hand(4, 0, "garde_sans", 3, 50, petit_au_bout="attack", poignees={0: "simple"}),
        (648, -216, -216, -216),
        id="4p-garde-sans-3bouts-50",
    ),
    pytest.param(
        Hand(4, 0, "garde_contre", 2, 39, poignees={2: "simple"}),
        (-546, 182, 182, 182),
        id="4p-garde-contre-2bouts-39",
    ),
    pytest.param(
        Hand(4, 0, "garde", 3, 91, petit_au_bout="attack", chelem="announced_made"),
        (1740, -580, -580, -580),
        id="4p-garde-3bouts-91-chelem",
    ),
    pytest.param(Hand(3, 0, "garde", 2, "44.5"), (116, -58, -58), id="3p-garde-2bouts-44.5"),
    # u = (25 + 4) × 2 = 58: garde, 2 bouts, 45 points.
    pytest.param(
        Hand(5, 0, "garde", 2, "45", partner=3),
        (116, -58, -58, 58, -58),
        id="5p-u58-partner",
    ),
    pytest.param(Hand(5, 0, "garde", 2, "45"), (232, -58, -58, -58, -58), id="5p-u58-alone"),
]

# RULES.md §2, the thresholds: (players, bouts, points, made, diff).
THRESHOLDS = [
    (3, 2, "40.5", False, 1),
    (3, 2, "41", True, 0),
    (3, 2, "41.5", True, 1),
    (5, 2, "40.5", False, 1),
    (5, 2, "41.5", True, 1),
    (4, 2, 40, False, 1),
    (4, 2, 41, True, 0),
    (4, 2, 42, True, 1),
    (3, 3, "35.5", False, 1),
    (3, 3, "36", True, 0),
    (5, 3, "36.5", True, 1),
    (4, 3, 35, False, 1),
    (4, 3, 36, True, 0),
    (3, 0, "55.5", False, 1),
    (3, 0, "56", True, 0),
    (5, 0, "56.5", True, 1),
    (4, 0, 55, False, 1),
    (4, 0, 56, True, 0),
    (3, 1, "50.5", False, 1),
    (5, 1, "51", True, 0),
    (5, 1, "51.5", True, 1),
    (4, 1, 50, False, 1),
    (4, 1, 51, True, 0),
    (3, 2, "44.5", True, 4),
    (5, 2, "37.5", False, 4),
    (4, 0, 0, False, 56),
    (4, 3, 91, True, 55),
]

# One term at a time, on a garde made by 8 (2 bouts, 49: 66) and lost by 3 (2 bouts, 38: −56):
# (announcements, u when made, u when lost).
BONUSES = [
    pytest.param({}, 66, -56, id="none"),
    pytest.param({"petit_au_bout": "attack"}, 86, -36, id="petit-attack"),
    pytest.param({"petit_au_bout": "defence"}, 46, -76, id="petit-defence"),
    pytest.param({"poignees": {0: "simple"}}, 86, -76, id="simple-by-taker"),
    pytest.param({"poignees": {1: "simple"}}, 86, -76, id="simple-by-defender"),
    pytest.param({"poignees": {2: "double"}}, 96, -86, id="double"),
    pytest.param({"poignees": {3: "triple"}}, 106, -96, id="triple"),
    pytest.param({"poignees": {0: "simple", 1: "simple"}}, 106, -96, id="two-simples"),
    pytest.param({"chelem": "announced_made"}, 466, 344, id="chelem-announced-made"),
    pytest.param({"chelem": "unannounced_made"}, 266, 144, id="chelem-unannounced-made"),
    pytest.param({"chelem": "announced_failed"}, -134, -256, id="chelem-announced-failed"),
    pytest.param({"defence_chelem": True}, -134, -256, id="defence-chelem"),
    pytest.param(
        {"defence_chelem": True, "chelem": "announced_failed"}, -334, -456, id="both-chelems"
    ),
    pytest.param(
        {"petit_au_bout": "attack", "poignees": {1: "double"}, "chelem": "unannounced_made"},
        316,
        134,
        id="all-together",
    ),
]

# The multiplier applies to the base, the difference and the petit au bout only:
# (contract, u made by 8 with petit au bout attack and a simple poignée, u lost by 3, same).
CONTRACTS = [
    ("prise", 33 + 10 + 20, -28 + 10 - 20),
    ("garde", 66 + 20 + 20, -56 + 20 - 20),
    ("garde_sans", 132 + 40 + 20, -112 + 40 - 20),
    ("garde_contre", 198 + 60 + 20, -168 + 60 - 20),
]

# RULES.md §2, who gets what: (hand, row).
SHARES = [
    pytest.param(Hand(3, 1, "prise", 2, 46), (-30, 60, -30), id="3p-taker-2u"),
    pytest.param(Hand(3, 2, "prise", 2, 36), (30, 30, -60), id="3p-lost"),
    pytest.param(Hand(4, 3, "prise", 2, 46), (-30, -30, -30, 90), id="4p-taker-3u"),
    pytest.param(Hand(4, 0, "prise", 2, 36), (-90, 30, 30, 30), id="4p-lost"),
    pytest.param(Hand(5, 4, "prise", 2, 46, partner=0), (30, -30, -30, -30, 60), id="5p-partner"),
    pytest.param(Hand(5, 4, "prise", 2, 36, partner=0), (-30, 30, 30, 30, -60), id="5p-lost"),
    pytest.param(Hand(5, 2, "prise", 2, 46), (-30, -30, 120, -30, -30), id="5p-alone"),
    pytest.param(Hand(5, 2, "prise", 2, 36), (30, 30, -120, 30, 30), id="5p-alone-lost"),
    pytest.param(Hand(5, 2, "prise", 2, 46, partner=""), (-30, -30, 120, -30, -30), id="5p-''"),
    # 0 and 91 points, and the defence chelem.
    pytest.param(Hand(4, 0, "prise", 0, 0), (-243, 81, 81, 81), id="0-points"),
    pytest.param(
        Hand(4, 0, "prise", 0, 0, defence_chelem=True), (-843, 281, 281, 281), id="defence-chelem"
    ),
    pytest.param(
        Hand(5, 0, "garde", 0, 0, partner=1, defence_chelem=True),
        (-724, -362, 362, 362, 362),
        id="5p-defence-chelem",
    ),
    pytest.param(Hand(4, 0, "prise", 3, 91), (240, -80, -80, -80), id="91-points"),
    pytest.param(
        Hand(3, 0, "prise", 3, 91, chelem="unannounced_made"), (560, -280, -280), id="91-chelem"
    ),
]

EVERYTHING_WRONG = Hand(
    4,
    7,
    "grande",
    5,
    "40,25",
    partner=1,
    petit_au_bout="nobody",
    poignees={0: "huge"},
    chelem="never",
    defence_chelem=None,
)

# RULES.md §3: (hand, the fields its problems name). The base hand, garde 2 bouts 49, is valid.
REJECTIONS = [
    pytest.param(Hand(2, 0, "garde", 2, 49), {"players"}, id="2-players"),
    pytest.param(Hand(6, 0, "garde", 2, 49), {"players"}, id="6-players"),
    pytest.param(Hand("--4", 0, "garde", 2, 49), {"players"}, id="players-not-a-number"),
    pytest.param(Hand(4, 4, "garde", 2, 49), {"taker"}, id="taker-not-seated"),
    pytest.param(Hand(4, -1, "garde", 2, 49), {"taker"}, id="taker-negative"),
    pytest.param(Hand(3, 3, "garde", 2, 49), {"taker"}, id="taker-not-seated-3p"),
    pytest.param(Hand(4, None, "garde", 2, 49), {"taker"}, id="no-taker"),
    pytest.param(Hand(4, "²", "garde", 2, 49), {"taker"}, id="taker-superscript"),
    pytest.param(Hand(5, 0, "garde", 2, 49, partner=5), {"partner"}, id="partner-not-seated"),
    pytest.param(Hand(3, 0, "garde", 2, 49, partner=1), {"partner"}, id="partner-at-3"),
    pytest.param(Hand(4, 0, "garde", 2, 49, partner=1), {"partner"}, id="partner-at-4"),
    pytest.param(Hand(5, 2, "garde", 2, 49, partner=2), {"partner"}, id="partner-is-taker"),
    pytest.param(Hand(4, 0, "garde", -1, 49), {"bouts"}, id="bouts-negative"),
    pytest.param(Hand(4, 0, "garde", 4, 49), {"bouts"}, id="4-bouts"),
    pytest.param(Hand(4, 0, "garde", "two", 49), {"bouts"}, id="bouts-not-a-number"),
    pytest.param(Hand(4, 0, "garde", 2, -1), {"points"}, id="points-negative"),
    pytest.param(Hand(4, 0, "garde", 2, 92), {"points"}, id="92-points"),
    pytest.param(Hand(3, 0, "garde", 2, "91.5"), {"points"}, id="91.5-points"),
    pytest.param(Hand(3, 0, "garde", 2, "40.25"), {"points"}, id="quarter-point"),
    pytest.param(Hand(5, 0, "garde", 2, 40.1), {"points"}, id="tenth-of-a-point"),
    pytest.param(Hand(4, 0, "garde", 2, "40.5"), {"points"}, id="half-point-at-4"),
    pytest.param(Hand(4, 0, "garde", 2, 40.5), {"points"}, id="half-point-at-4-float"),
    pytest.param(Hand(4, 0, "garde", 2, "forty"), {"points"}, id="points-not-a-number"),
    pytest.param(Hand(4, 0, "garde", 2, None), {"points"}, id="no-points"),
    pytest.param(Hand(4, 0, "garde", 2, "nan"), {"points"}, id="points-nan"),
    pytest.param(Hand(4, 0, "garde", 2, float("inf")), {"points"}, id="points-inf"),
    # At least 4 × bouts, at most 91 − 4 × (3 − bouts); each bound is legal, one step past is not.
    pytest.param(Hand(4, 0, "garde", 0, 80), {"points"}, id="0-bouts-80"),
    pytest.param(Hand(3, 0, "garde", 0, "79.5"), {"points"}, id="0-bouts-79.5"),
    pytest.param(Hand(4, 0, "garde", 1, 3), {"points"}, id="1-bout-3"),
    pytest.param(Hand(5, 0, "garde", 1, "3.5"), {"points"}, id="1-bout-3.5"),
    pytest.param(Hand(3, 0, "garde", 1, "83.5"), {"points"}, id="1-bout-83.5"),
    pytest.param(Hand(4, 0, "garde", 1, 84), {"points"}, id="1-bout-84"),
    pytest.param(Hand(3, 0, "garde", 2, "7.5"), {"points"}, id="2-bouts-7.5"),
    pytest.param(Hand(4, 0, "garde", 2, 7), {"points"}, id="2-bouts-7"),
    pytest.param(Hand(5, 0, "garde", 2, "87.5"), {"points"}, id="2-bouts-87.5"),
    pytest.param(Hand(4, 0, "garde", 2, 88), {"points"}, id="2-bouts-88"),
    pytest.param(Hand(3, 0, "garde", 3, "11.5"), {"points"}, id="3-bouts-11.5"),
    pytest.param(Hand(4, 0, "garde", 3, 11), {"points"}, id="3-bouts-11"),
    pytest.param(Hand(4, 0, "garde", 2, 49, poignees={1: "quadruple"}), {"poignees"}, id="size"),
    pytest.param(Hand(4, 0, "garde", 2, 49, poignees={1: 20}), {"poignees"}, id="size-number"),
    pytest.param(Hand(4, 0, "garde", 2, 49, poignees={4: "simple"}), {"poignees"}, id="seat"),
    pytest.param(
        Hand(4, 0, "garde", 2, 49, poignees={1: "simple", "1": "simple"}),
        {"poignees"},
        id="two-for-one-player",
    ),
    pytest.param(Hand(4, 0, "garde", 2, 49, poignees=["simple"]), {"poignees"}, id="not-a-map"),
    # More trumps shown than the 22 that exist.
    pytest.param(
        Hand(3, 0, "garde", 2, 49, poignees={0: "simple", 1: "simple"}),
        {"poignees"},
        id="3p-two-simples",
    ),
    pytest.param(
        Hand(4, 0, "garde", 2, 49, poignees={0: "simple", 1: "double"}),
        {"poignees"},
        id="4p-simple-double",
    ),
    pytest.param(
        Hand(4, 0, "garde", 2, 49, poignees={0: "simple", 1: "simple", 2: "simple"}),
        {"poignees"},
        id="4p-three-simples",
    ),
    pytest.param(
        Hand(5, 0, "garde", 2, 49, poignees={0: "double", 1: "triple"}),
        {"poignees"},
        id="5p-double-triple",
    ),
    pytest.param(
        Hand(5, 0, "garde", 2, 49, poignees={0: "simple", 1: "simple", 2: "simple"}),
        {"poignees"},
        id="5p-three-simples",
    ),
    pytest.param(Hand(4, 0, "garde_sans_le_chien", 2, 49), {"contract"}, id="contract"),
    pytest.param(Hand(4, 0, None, 2, 49), {"contract"}, id="no-contract"),
    pytest.param(Hand(4, 0, "garde", 2, 49, petit_au_bout="both"), {"petit_au_bout"}, id="petit"),
    pytest.param(Hand(4, 0, "garde", 2, 49, chelem="maybe"), {"chelem"}, id="chelem"),
    pytest.param(
        Hand(4, 0, "garde", 3, 91, chelem="announced_made", defence_chelem=True),
        {"defence_chelem"},
        id="both-camps-chelem",
    ),
    pytest.param(
        Hand(4, 0, "garde", 2, 49, defence_chelem="yes"), {"defence_chelem"}, id="not-a-bool"
    ),
    # Every problem at once, not only the first.
    pytest.param(
        EVERYTHING_WRONG,
        {
            "taker",
            "partner",
            "contract",
            "bouts",
            "points",
            "petit_au_bout",
            "poignees",
            "chelem",
            "defence_chelem",
        },
        id="everything-wrong",
    ),
    pytest.param(
        Hand(4, 0, "garde", 1, 85, poignees={0: "simple", 1: "double"}),
        {"points", "poignees"},
        id="points-and-poignees",
    ),
]

# Legal hands at the limits of §3 (the other side of each rejection above).
ACCEPTED = [
    pytest.param(Hand(4, 0, "garde", 0, 0), id="0-bouts-0"),
    pytest.param(Hand(4, 0, "garde", 0, 79), id="0-bouts-79"),
    pytest.param(Hand(4, 0, "garde", 1, 4), id="1-bout-4"),
    pytest.param(Hand(3, 0, "garde", 1, 83), id="1-bout-83"),
    pytest.param(Hand(5, 0, "garde", 2, 8), id="2-bouts-8"),
    pytest.param(Hand(4, 0, "garde", 2, 87), id="2-bouts-87"),
    pytest.param(Hand(3, 0, "garde", 3, 12), id="3-bouts-12"),
    pytest.param(Hand(4, 0, "garde", 3, 91), id="3-bouts-91"),
    pytest.param(Hand(3, 0, "garde", 2, 49, poignees={0: "triple"}), id="3p-one-triple"),
    pytest.param(
        Hand(4, 0, "garde", 2, 49, poignees={0: "simple", 1: "simple"}), id="4p-two-simples"
    ),
    pytest.param(
        Hand(5, 0, "garde", 2, 49, poignees={0: "simple", 1: "triple"}), id="5p-simple-triple"
    ),
    pytest.param(
        Hand(5, 0, "garde", 2, 49, poignees={0: "double", 1: "double"}), id="5p-two-doubles"
    ),
    pytest.param(
        Hand(4, 0, "garde", 2, 49, poignees={0: "simple", 1: None, 2: ""}), id="no-poignee"
    ),
    pytest.param(Hand(5, 0, "garde", 2, 49, partner=None), id="5p-alone"),
    pytest.param(Hand("4", "1", "garde", "2", "49"), id="digit-strings"),
    pytest.param(Hand(4, 0, "garde", 0, 0, chelem="announced_failed", defence_chelem=True)),
]

# How each field's messages begin.
LABELS = {
    "players": "Players",
    "taker": "Taker",
    "partner": "Partner",
    "contract": "Contract",
    "bouts": "Bouts",
    "points": "Points",
    "petit_au_bout": "Petit au bout",
    "poignees": "Poignée",
    "chelem": "Chelem",
    "defence_chelem": "Defence chelem",
}

# Trumps shown by a simple, double and triple poignée (RULES.md §3).
TRUMPS = {3: (13, 15, 18), 4: (10, 13, 15), 5: (8, 10, 13)}


def garde(points, **announcements):
    """4 players, seat 0 takes a garde with 2 bouts."""
    return Hand(4, 0, "garde", 2, points, **announcements)


# RULES.md §5 ---------------------------------------------------------------------------------


def fft_hand(taker, contract, bouts, points, petit, poignees, chelem):
    return Hand(
        4, taker, contract, bouts, points, petit_au_bout=petit, poignees=poignees, chelem=chelem
    )


@pytest.mark.parametrize(("number", "example"), list(enumerate(FFT_SHEET, start=1)))
def test_fft_rulebook_hand(number, example):
    *inputs, row = example
    assert score(fft_hand(*inputs)) == row


def test_fft_rulebook_sheet_totals():
    built = sheet.build(4, 0, [fft_hand(*inputs) for *inputs, _row in FFT_SHEET])
    assert [row.scores for row in built.rows] == [row for *_inputs, row in FFT_SHEET]
    assert built.totals == FFT_TOTALS
    assert all(row.balanced for row in built.rows)


@pytest.mark.parametrize(("hand", "row"), SOURCE_EXAMPLES)
def test_source_example(hand, row):
    assert score(hand) == row


# RULES.md §2 ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "bouts", "points", "made", "diff"), THRESHOLDS)
def test_threshold(players, bouts, points, made, diff):
    detail = breakdown(Hand(players, 0, "prise", bouts, points))
    assert detail.made is made
    assert detail.diff == diff
    assert detail.per_defender == (25 + diff if made else -(25 + diff))


@pytest.mark.parametrize(("announcements", "won", "lost"), BONUSES)
def test_bonus_in_won_and_lost_contract(announcements, won, lost):
    assert breakdown(garde(49, **announcements)).per_defender == won
    assert breakdown(garde(38, **announcements)).per_defender == lost


@pytest.mark.parametrize(("contract", "won", "lost"), CONTRACTS)
def test_contract_multiplier(contract, won, lost):
    extras = {"petit_au_bout": "attack", "poignees": {2: "simple"}}
    assert breakdown(Hand(4, 0, contract, 2, 49, **extras)).per_defender == won
    assert breakdown(Hand(4, 0, contract, 2, 38, **extras)).per_defender == lost


@pytest.mark.parametrize(("hand", "row"), SHARES)
def test_shares(hand, row):
    assert score(hand) == row


# breakdown() ---------------------------------------------------------------------------------


def test_breakdown_of_rulebook_example_1():
    detail = breakdown(fft_hand(*FFT_SHEET[0][:-1]))
    assert detail.players == 4
    assert detail.made is True
    assert detail.points == Decimal(49)
    assert detail.target == 41
    assert detail.diff == 8
    assert detail.base == 25
    assert detail.multiplier == 2
    assert detail.contract == 66
    assert detail.petit_au_bout == 20
    assert detail.poignees == 20
    assert detail.chelem == 0
    assert detail.defence_chelem == 0
    assert detail.per_defender == 106
    assert detail.scores == (-106, -106, 318, -106)
    assert detail.expression() == "(25 + 8) × 2 + 20 petit au bout + 20 poignée"


def test_breakdown_of_a_lost_hand():
    detail = breakdown(garde(38, petit_au_bout="attack", poignees={1: "simple"}))
    assert detail.made is False
    assert detail.diff == 3
    assert detail.contract == -56
    assert detail.petit_au_bout == 20
    assert detail.poignees == -20
    assert detail.per_defender == -56
    assert detail.expression() == "−(25 + 3) × 2 + 20 petit au bout − 20 poignée"


@pytest.mark.parametrize(
    ("hand", "expression"),
    [
        (garde(41), "(25 + 0) × 2"),
        (Hand(3, 0, "prise", 2, "40.5"), "−(25 + 1) × 1"),
        (garde(38, petit_au_bout="defence"), "−(25 + 3) × 2 − 20 petit au bout"),
        (
            Hand(4, 0, "garde", 2, 87, petit_au_bout="attack", chelem="announced_made"),
            "(25 + 46) × 2 + 20 petit au bout + 400 chelem",
        ),
        (garde(38, chelem="announced_failed"), "−(25 + 3) × 2 − 200 chelem"),
        (Hand(4, 0, "prise", 0, 0, defence_chelem=True), "−(25 + 56) × 1 − 200 chelem défense"),
    ],
)
def test_expression(hand, expression):
    assert breakdown(hand).expression() == expression


def test_breakdown_terms_add_up_to_per_defender():
    detail = breakdown(Hand(5, 1, "garde_contre", 1, "60.5", partner=4, poignees={0: "double"}))
    terms = detail.contract + detail.petit_au_bout + detail.poignees
    assert terms + detail.chelem + detail.defence_chelem == detail.per_defender
    assert detail.contract == (25 + 10) * 6


# RULES.md §3: rejections ---------------------------------------------------------------------


@pytest.mark.parametrize(("hand", "fields"), REJECTIONS)
def test_rejection(hand, fields):
    assert {problem.field for problem in validate(hand)} == fields
    with pytest.raises(InvalidHand) as raised:
        breakdown(hand)
    assert isinstance(raised.value, ValueError)
    assert {problem.field for problem in raised.value.problems} == fields
    with pytest.raises(InvalidHand):
        score(hand)
    for problem in raised.value.problems:
        assert str(problem).startswith(LABELS[problem.field])


@pytest.mark.parametrize("hand", ACCEPTED)
def test_accepted_at_the_limits(hand):
    assert validate(hand) == []
    assert sum(score(hand)) == 0


def test_everything_wrong_reports_one_problem_per_field():
    assert len(validate(EVERYTHING_WRONG)) == 9


def test_invalid_hand_message_joins_the_problems():
    with pytest.raises(InvalidHand) as raised:
        breakdown(Hand(4, 9, "garde", 2, 92))
    assert str(raised.value) == (
        "Taker: choose one of the players at the table. Points: must be between 0 and 91, not 92."
    )


def test_duplicate_poignee_names_the_seat():
    (problem,) = validate(garde(49, poignees={1: "simple", "1": "simple"}))
    assert problem.field == "poignees"
    assert problem.seat == 1


def test_problem_is_translated_before_formatting():
    french = {
        "Points: must be between 0 and 91, not %(value)s.": "Points : de 0 à 91, pas %(value)s."
    }
    (problem,) = validate(garde(92))
    assert problem.translated(french.get) == "Points : de 0 à 91, pas 92."


# Inputs accepted -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "points", [40.5, Decimal("40.5"), "40.5", "40,5", " 40,5 ", Decimal("40.50")]
)
def test_half_points_in_any_form(points):
    assert score(Hand(3, 0, "garde", 2, points)) == (-104, 52, 52)


@pytest.mark.parametrize("points", [44, 44.0, Decimal(44), Decimal("44.0"), "44", "44,0"])
def test_whole_points_in_any_form(points):
    assert score(Hand(4, 0, "garde", 2, points)) == (168, -56, -56, -56)


def test_str_enums_equal_strings():
    assert Contract.GARDE_SANS == "garde_sans"
    assert Camp.DEFENCE == "defence"
    assert Poignee.TRIPLE == "triple"
    assert Chelem.ANNOUNCED_FAILED == "announced_failed"
    with_enums = Hand(
        4,
        0,
        Contract.GARDE,
        2,
        49,
        petit_au_bout=Camp.ATTACK,
        poignees={1: Poignee.DOUBLE},
        chelem=Chelem.UNANNOUNCED_MADE,
    )
    with_strings = garde(
        49, petit_au_bout="attack", poignees={1: "double"}, chelem="unannounced_made"
    )
    assert score(with_enums) == score(with_strings) == (948, -316, -316, -316)


# warnings() ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "fields"),
    [
        pytest.param(garde(49), [], id="ordinary"),
        pytest.param(fft_hand(*FFT_SHEET[4][:-1]), [], id="chelem-with-87"),
        pytest.param(Hand(4, 0, "garde", 3, 91), ["chelem"], id="91-no-chelem"),
        pytest.param(Hand(4, 0, "garde", 3, 91, chelem="announced_made"), [], id="91-chelem"),
        pytest.param(garde(86, chelem="announced_made"), ["chelem"], id="chelem-with-86"),
        pytest.param(garde(49, chelem="unannounced_made"), ["chelem"], id="chelem-with-49"),
        pytest.param(Hand(3, 0, "garde", 2, "86.5", chelem="unannounced_made"), ["chelem"]),
        pytest.param(Hand(4, 0, "prise", 0, 0, defence_chelem=True), [], id="defence-chelem"),
        pytest.param(garde(92), [], id="invalid"),
    ],
)
def test_warnings(hand, fields):
    found = warnings(hand)
    assert [problem.field for problem in found] == fields
    for problem in found:
        assert str(problem).startswith(LABELS[problem.field] + ":")
    if fields:
        assert validate(hand) == []  # a warning never blocks a hand


# Invariants over all valid hands -------------------------------------------------------------


ANY_TABLE = st.sampled_from([3, 4, 5])


@st.composite
def valid_hands(draw, players=ANY_TABLE):
    """Any hand RULES.md §3 accepts."""
    players = draw(players)
    taker = draw(st.integers(0, players - 1))
    partner = None
    if players == 5:
        partner = draw(st.none() | st.integers(0, 4).filter(lambda seat: seat != taker))
    bouts = draw(st.integers(0, 3))
    low, high = 4 * bouts, 91 - 4 * (3 - bouts)
    if players == 4:
        points = Decimal(draw(st.integers(low, high)))
    else:
        points = Decimal(draw(st.integers(2 * low, 2 * high))) / 2
    poignees, shown = {}, 0
    for seat in draw(st.permutations(range(players))):
        fitting = [
            size
            for size, trumps in zip(Poignee, TRUMPS[players], strict=True)
            if shown + trumps <= 22
        ]
        size = draw(st.none() | st.sampled_from(fitting)) if fitting else None
        if size is not None:
            poignees[seat] = size
            shown += TRUMPS[players][list(Poignee).index(size)]
    chelem = draw(st.sampled_from([None, *Chelem]))
    made_chelem = chelem in (Chelem.ANNOUNCED_MADE, Chelem.UNANNOUNCED_MADE)
    return Hand(
        players,
        taker,
        draw(st.sampled_from(Contract)),
        bouts,
        points,
        partner=partner,
        petit_au_bout=draw(st.sampled_from([None, *Camp])),
        poignees=poignees,
        chelem=chelem,
        defence_chelem=False if made_chelem else draw(st.booleans()),
    )


def defenders(hand):
    return [seat for seat in range(hand.players) if seat not in (hand.taker, hand.partner)]


@given(valid_hands())
def test_every_row_sums_to_zero(hand):
    assert validate(hand) == []
    scores = score(hand)
    assert len(scores) == hand.players
    assert sum(scores) == 0


@given(valid_hands())
def test_all_defenders_score_the_same(hand):
    scores = score(hand)
    assert {scores[seat] for seat in defenders(hand)} == {-breakdown(hand).per_defender}


@given(valid_hands())
def test_taker_share(hand):
    scores = score(hand)
    u = -scores[defenders(hand)[0]]
    if hand.partner is not None:
        assert scores[hand.taker] == 2 * scores[hand.partner] == 2 * u
    else:
        assert scores[hand.taker] == (hand.players - 1) * u


@given(valid_hands(players=st.just(5)))
def test_five_players(hand):
    scores = score(hand)
    if hand.partner is None:
        assert scores[hand.taker] == 4 * -scores[defenders(hand)[0]]
    else:
        assert scores[hand.taker] == 2 * scores[hand.partner]


@given(valid_hands(), st.sampled_from([Decimal("0.5"), Decimal(1)]))
def test_one_more_point_never_lowers_the_taker(hand, more):
    more = Decimal(1) if hand.players == 4 else more
    richer = replace(hand, points=hand.points + more)
    if validate(richer):  # past the bound for its bouts
        return
    assert score(richer)[hand.taker] >= score(hand)[hand.taker]
    assert breakdown(richer).per_defender >= breakdown(hand).per_defender


@given(valid_hands())
def test_score_is_breakdowns_scores(hand):
    assert score(hand) == breakdown(hand).scores


@given(valid_hands())
def test_points_in_any_form_score_the_same(hand):
    expected = score(hand)
    text = str(hand.points)
    for points in (float(hand.points), text, text.replace(".", ","), f" {text} "):
        assert score(replace(hand, points=points)) == expected


SEAT_KEYS = st.one_of(st.integers(-2, 6), st.text(max_size=2), st.sampled_from(["1", "--1", "²"]))
anything = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-2, 100),
    st.floats(),
    st.decimals(),  # NaN, sNaN and infinities included
    st.text(max_size=4),
    st.sampled_from(["4", "--4", "²", "40,5", "garde", "attack", "simple", "announced_made"]),
)


@given(
    st.builds(
        Hand,
        players=st.sampled_from([3, 4, 5]) | anything,
        taker=anything,
        contract=st.sampled_from(Contract) | anything,
        bouts=anything,
        points=anything,
        partner=anything,
        petit_au_bout=anything,
        poignees=st.dictionaries(SEAT_KEYS, anything, max_size=3) | anything,
        chelem=anything,
        defence_chelem=anything,
    )
)
def test_any_input_is_scored_or_rejected_never_crashes(hand):
    problems = validate(hand)
    warnings(hand)
    if problems:
        assert all(problem.field in LABELS for problem in problems)
        with pytest.raises(InvalidHand):
            breakdown(hand)
    else:
        assert sum(score(hand)) == 0

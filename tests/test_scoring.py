"""The scoring engine (scoresheet/scoring.py) against the rules in docs/rules.md.

The worked examples of docs/rules.md §5 and §6.5 are copied here as data; the edge cases of §2
(§5.3–§5.5), every rejection of §3 and §6 and the rounding table of §6 are tables; hypothesis
checks the invariants of §2 and §6 over all valid hands, under every combination of house rules and
3 to 6 seats.
"""

import json
import math
from dataclasses import replace
from decimal import Decimal
from fractions import Fraction

import pytest
from django.utils import translation
from hypothesis import assume, given
from hypothesis import strategies as st

from scoresheet.scoring import (
    FFT,
    Camp,
    Chelem,
    Contract,
    Hand,
    InvalidHand,
    InvalidRules,
    Poignee,
    Rules,
    breakdown,
    check_rules,
    next_dealer,
    result,
    round_diff,
    score,
    validate,
    warnings,
)
from tests import scored

# docs/rules.md §5.1 (F1–F5): the FFT rulebook's sample sheet, 4 players, seats 0–3, in play order.
# (taker, contract, bouts, points, petit au bout, poignées, chelem, row)
FFT_SHEET = [
    (2, "garde", 2, 49, "attack", {2: "simple"}, None, (-106, -106, 318, -106)),
    (3, "garde_sans", 1, 55, "defence", {}, None, (-76, -76, -76, 228)),
    (1, "prise", 0, 49, "attack", {1: "simple"}, None, (42, -126, 42, 42)),
    (0, "garde", 3, 47, None, {2: "simple"}, None, (276, -92, -92, -92)),
    (1, "garde", 2, 87, "attack", {1: "simple"}, "announced_made", (-582, 1746, -582, -582)),
]
FFT_TOTALS = (-446, 1346, -390, -510)

# docs/rules.md §5.2 (S1–S8), examples from the sources (taker in seat 0): (hand, row).
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

# docs/rules.md §5.3, the thresholds: (players, bouts, points, made, diff).
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

# docs/rules.md §5.5 (W1–W13), who gets what: (hand, row).
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

# docs/rules.md §3.1 (X1–X20): (hand, the fields its problems name). The base hand, garde 2 bouts
# 49, is valid.
REJECTIONS = [
    pytest.param(Hand(2, 0, "garde", 2, 49), {"seats"}, id="2-seats"),
    pytest.param(Hand(7, 0, "garde", 2, 49), {"seats"}, id="7-seats"),
    pytest.param(Hand("--4", 0, "garde", 2, 49), {"seats"}, id="seats-not-a-number"),
    # docs/rules.md §6.4: at 6 seats the dealer sits out, which the FFT rules do not say.
    pytest.param(Hand(6, 0, "garde", 2, 49), {"dealer_sits_out"}, id="6-seats-fft"),
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
    "seats": "Seats",
    "dealer_sits_out": "Dealer sits out",
    "dealer": "Dealer",
    "miseres": "Misère",
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

# Trumps shown by a simple, double and triple poignée (docs/rules.md §3.1).
TRUMPS = {3: (13, 15, 18), 4: (10, 13, 15), 5: (8, 10, 13)}


def garde(points, **announcements):
    """4 players, seat 0 takes a garde with 2 bouts."""
    return Hand(4, 0, "garde", 2, points, **announcements)


# docs/rules.md §5
# ---------------------------------------------------------------------------------


def fft_hand(taker, contract, bouts, points, petit, poignees, chelem):
    return Hand(
        4, taker, contract, bouts, points, petit_au_bout=petit, poignees=poignees, chelem=chelem
    )


@pytest.mark.parametrize(("number", "example"), list(enumerate(FFT_SHEET, start=1)))
def test_fft_rulebook_hand(number, example):
    *inputs, row = example
    assert score(fft_hand(*inputs)) == row


def test_fft_rulebook_sheet_totals():
    built = scored.build(4, 0, [fft_hand(*inputs) for *inputs, _row in FFT_SHEET])
    assert [row.scores for row in built.rows] == [row for *_inputs, row in FFT_SHEET]
    assert built.totals == FFT_TOTALS
    assert all(row.balanced for row in built.rows)


@pytest.mark.parametrize(("hand", "row"), SOURCE_EXAMPLES)
def test_source_example(hand, row):
    assert score(hand) == row


# docs/rules.md §2
# ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "bouts", "points", "made", "diff"), THRESHOLDS)
def test_threshold(players, bouts, points, made, diff):
    detail = breakdown(Hand(players, 0, "prise", bouts, points))
    assert detail.made is made
    assert detail.diff == diff
    assert detail.per_defender == (25 + diff if made else -(25 + diff))


@pytest.mark.parametrize(("players", "bouts", "points", "made", "diff"), THRESHOLDS)
def test_result_at_the_threshold(players, bouts, points, made, diff):
    # docs/rules.md §2.1's thresholds, by the short way the exports and the printed sheet take.
    assert result(bouts, points) == (made, diff)


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


# docs/rules.md §3.1: rejections
# ---------------------------------------------------------------------


@pytest.mark.parametrize(("hand", "fields"), REJECTIONS)
def test_rejection(hand, fields):
    assert {problem.field for problem in validate(hand)} == fields
    with pytest.raises(InvalidHand) as raised:
        breakdown(hand)
    assert raised.value.problems == validate(hand)
    assert str(raised.value) == " ".join(str(problem) for problem in validate(hand))
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


def test_enums_and_strings_score_the_same():
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
    # (25 + 8) × 2 + 20 petit au bout + 30 double poignée + 200 chelem = 316 per defender.
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
        pytest.param(Hand(4, 0, "prise", 0, 4, defence_chelem=True), [], id="defence-chelem-4"),
        # docs/rules.md §3.2: unusual but legal, so a warning and never a refusal.
        pytest.param(
            Hand(4, 0, "prise", 0, 10, defence_chelem=True),
            ["defence_chelem"],
            id="defence-chelem-with-10",
        ),
        # The attack of a defence chelem may still hold the excuse, a bout worth 4.5 (docs/rules.md
        # §3): no warning up to 4.5 points, one from the next half point.
        pytest.param(
            Hand(3, 0, "prise", 1, 4, defence_chelem=True), [], id="defence-chelem-excuse-4"
        ),
        pytest.param(
            Hand(3, 0, "prise", 1, "4.5", defence_chelem=True), [], id="defence-chelem-excuse-4.5"
        ),
        pytest.param(
            Hand(5, 0, "prise", 1, "4.5", defence_chelem=True), [], id="defence-chelem-5p-4.5"
        ),
        pytest.param(
            Hand(3, 0, "prise", 1, 5, defence_chelem=True),
            ["defence_chelem"],
            id="defence-chelem-with-5",
        ),
        pytest.param(
            Hand(3, 0, "prise", 1, "5.5", defence_chelem=True),
            ["defence_chelem"],
            id="defence-chelem-with-5.5",
        ),
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
ANY_RULES = st.builds(
    Rules,
    poignees=st.sampled_from(["20-30-40", "20-40-60"]),
    rounding=st.sampled_from([1, 5, 10]),
    misere=st.sampled_from([0, 10, 20]),
    dealer_sits_out=st.booleans(),
)


@st.composite
def sessions(draw):
    """3 to 6 seats and any house rules they allow (docs/rules.md §6.4: the dealer sits out at 6
    seats, may at 5, never at 3 or 4)."""
    seats = draw(st.sampled_from([3, 4, 5, 6]))
    rules = draw(ANY_RULES)
    sits_out = {3: False, 4: False, 5: rules.dealer_sits_out, 6: True}[seats]
    return seats, replace(rules, dealer_sits_out=sits_out)


ANY_SESSION = sessions()


@st.composite
def session_hands(draw, session=ANY_SESSION):
    """(rules, hand): any hand docs/rules.md §3.1 and §6.6 accept under those rules."""
    seats, rules = draw(session)
    dealer = draw(st.integers(0, seats - 1))
    playing = [seat for seat in range(seats) if not (rules.dealer_sits_out and seat == dealer)]
    players = len(playing)
    taker = draw(st.sampled_from(playing))
    partner = None
    if players == 5:
        partner = draw(st.none() | st.sampled_from([seat for seat in playing if seat != taker]))
    bouts = draw(st.integers(0, 3))
    low, high = 4 * bouts, 91 - 4 * (3 - bouts)
    if players == 4:
        points = Decimal(draw(st.integers(low, high)))
    else:
        points = Decimal(draw(st.integers(2 * low, 2 * high))) / 2
    poignees, shown = {}, 0
    for seat in draw(st.permutations(playing)):
        fitting = [
            size
            for size, trumps in zip(Poignee, TRUMPS[players], strict=True)
            if shown + trumps <= 22
        ]
        size = draw(st.none() | st.sampled_from(fitting)) if fitting else None
        if size is not None:
            poignees[seat] = size
            shown += TRUMPS[players][list(Poignee).index(size)]
    miseres = {}
    if rules.misere:
        miseres = draw(st.dictionaries(st.sampled_from(playing), st.sampled_from([1, 2])))
    chelem = draw(st.sampled_from([None, *Chelem]))
    made_chelem = chelem in (Chelem.ANNOUNCED_MADE, Chelem.UNANNOUNCED_MADE)
    hand = Hand(
        seats,
        taker,
        draw(st.sampled_from(Contract)),
        bouts,
        points,
        partner=partner,
        petit_au_bout=draw(st.sampled_from([None, *Camp])),
        poignees=poignees,
        chelem=chelem,
        defence_chelem=False if made_chelem else draw(st.booleans()),
        # Who dealt matters only when the dealer sits out; a sheet always knows it.
        dealer=dealer if rules.dealer_sits_out else draw(st.none() | st.just(dealer)),
        miseres=miseres,
    )
    return rules, hand


def valid_hands(players=ANY_TABLE):
    """Any hand docs/rules.md §3.1 accepts under the FFT rules, at 3, 4 or 5 seats."""
    return session_hands(st.tuples(players, st.just(FFT))).map(lambda drawn: drawn[1])


def expected_row(hand, rules):
    """The row docs/rules.md §2 and §6 give, written out again from their text, for a valid
    hand."""
    sitting_out = hand.dealer if rules.dealer_sits_out else None
    playing = [seat for seat in range(hand.seats) if seat != sitting_out]
    target = {0: 56, 1: 51, 2: 41, 3: 36}[hand.bouts]
    points = Decimal(hand.points)
    made = points >= target
    diff = math.ceil(abs(points - target))
    # To the nearest multiple of the rounding, halves up.
    diff = math.floor(Fraction(diff, rules.rounding) + Fraction(1, 2)) * rules.rounding
    mult = {"prise": 1, "garde": 2, "garde_sans": 4, "garde_contre": 6}[hand.contract]
    s = 1 if made else -1
    values = {"20-30-40": (20, 30, 40), "20-40-60": (20, 40, 60)}[rules.poignees]
    poignee = dict(zip(["simple", "double", "triple"], values, strict=True))
    u = (
        s * (25 + diff) * mult
        + {None: 0, "attack": 10 * mult, "defence": -10 * mult}[hand.petit_au_bout]
        + s * sum(poignee[size] for size in hand.poignees.values())
        + {None: 0, "announced_made": 400, "unannounced_made": 200, "announced_failed": -200}[
            hand.chelem
        ]
        - (200 if hand.defence_chelem else 0)
    )
    row = dict.fromkeys(playing, -u)
    if hand.partner is None:
        row[hand.taker] = (len(playing) - 1) * u
    else:
        row[hand.taker] = 2 * u
        row[hand.partner] = u
    for seat, count in hand.miseres.items():
        for other in playing:
            if other != seat:
                row[other] -= count * rules.misere
                row[seat] += count * rules.misere
    return tuple(row.get(seat, 0) for seat in range(hand.seats))


def defenders(hand):
    return [seat for seat in range(hand.seats) if seat not in (hand.taker, hand.partner)]


@given(valid_hands())
def test_every_row_sums_to_zero(hand):
    assert validate(hand) == []
    scores = score(hand)
    assert len(scores) == hand.seats
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
        assert scores[hand.taker] == (hand.seats - 1) * u


@given(valid_hands(players=st.just(5)))
def test_five_players(hand):
    scores = score(hand)
    if hand.partner is None:
        assert scores[hand.taker] == 4 * -scores[defenders(hand)[0]]
    else:
        assert scores[hand.taker] == 2 * scores[hand.partner]


@given(valid_hands(), st.sampled_from([Decimal("0.5"), Decimal(1)]))
def test_one_more_point_never_lowers_the_taker(hand, more):
    more = Decimal(1) if hand.seats == 4 else more
    richer = replace(hand, points=hand.points + more)
    assume(not validate(richer))  # not past the bound for its bouts
    assert score(richer)[hand.taker] >= score(hand)[hand.taker]
    assert breakdown(richer).per_defender >= breakdown(hand).per_defender


@given(valid_hands())
def test_score_follows_the_rules(hand):
    assert score(hand) == expected_row(hand, FFT)


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
        seats=st.sampled_from([3, 4, 5, 6]) | anything,
        taker=anything,
        contract=st.sampled_from(Contract) | anything,
        bouts=anything,
        points=anything,
        partner=anything,
        petit_au_bout=anything,
        poignees=st.dictionaries(SEAT_KEYS, anything, max_size=3) | anything,
        chelem=anything,
        defence_chelem=anything,
        dealer=st.integers(0, 5) | anything,
        miseres=st.dictionaries(SEAT_KEYS, st.sampled_from([1, 2]) | anything, max_size=3)
        | anything,
    ),
    ANY_RULES,
)
def test_any_input_is_scored_or_rejected_never_crashes(hand, rules):
    problems = validate(hand, rules)
    warnings(hand, rules)
    if problems:
        assert all(problem.field in LABELS for problem in problems)
        with pytest.raises(InvalidHand):
            breakdown(hand, rules)
    else:
        assert sum(score(hand, rules)) == 0


# docs/rules.md §6: house rules and table sizes
# ----------------------------------------------------

# The worked examples H1–H6, seat 0 taking: (rules, hand, row).
HOUSE_EXAMPLES = [
    pytest.param(Rules(rounding=10), Hand(4, 0, "garde", 2, 49), (210, -70, -70, -70), id="H1"),
    pytest.param(Rules(rounding=5), Hand(4, 0, "prise", 0, 59), (90, -30, -30, -30), id="H2"),
    pytest.param(
        Rules(poignees="20-40-60"),
        Hand(4, 0, "garde", 2, 51, poignees={0: "triple"}),
        (390, -130, -130, -130),
        id="H3",
    ),
    pytest.param(
        Rules(misere=10),
        Hand(4, 0, "prise", 1, 60, miseres={2: 1}),
        (92, -44, -4, -44),
        id="H4",
    ),
    pytest.param(
        Rules(dealer_sits_out=True),
        Hand(6, 0, "prise", 1, 55, partner=2, dealer=5),
        (58, -29, 29, -29, -29, 0),
        id="H5",
    ),
    pytest.param(
        Rules(misere=10, dealer_sits_out=True),
        Hand(5, 0, "prise", 1, 60, miseres={2: 1}, dealer=4),
        (92, -44, -4, -44, 0),
        id="H6",
    ),
]

# docs/rules.md §6.2, the rounding table: (rounding, difference, rounded).
ROUNDING = [
    (10, 4, 0),
    (10, 5, 10),
    (10, 14, 10),
    (10, 15, 20),
    (5, 2, 0),
    (5, 3, 5),
    (5, 7, 5),
    (5, 8, 10),
    (1, 0, 0),
    (1, 7, 7),
    (10, 0, 0),
    (10, 55, 60),
    (5, 56, 55),
]

# How each rule's messages begin.
RULE_LABELS = {
    "poignees": "Poignées",
    "rounding": "Rounding",
    "misere": "Misère",
    "dealer_sits_out": "Dealer sits out",
    "rules": "Rules",
}

SITS_OUT = Rules(dealer_sits_out=True)
MISERE = Rules(misere=10)
BOTH = Rules(misere=20, dealer_sits_out=True)

# docs/rules.md §6.6 (X21–X35), refused naming the field: (rules, hand, fields). 5 seats with the
# dealer (seat 4) sitting out play as 4; 6 seats with the dealer (seat 5) sitting out play as 5.
HOUSE_REJECTIONS = [
    pytest.param(SITS_OUT, Hand(5, 4, "garde", 2, 49, dealer=4), {"taker"}, id="taker-sits-out"),
    pytest.param(
        SITS_OUT,
        Hand(6, 0, "garde", 2, 49, partner=5, dealer=5),
        {"partner"},
        id="partner-sits-out",
    ),
    pytest.param(
        SITS_OUT,
        Hand(5, 0, "garde", 2, 49, poignees={4: "simple"}, dealer=4),
        {"poignees"},
        id="poignee-sits-out",
    ),
    pytest.param(
        BOTH,
        Hand(6, 0, "garde", 2, 49, miseres={5: 1}, dealer=5),
        {"miseres"},
        id="misere-sits-out",
    ),
    pytest.param(
        BOTH,
        Hand(5, 0, "garde", 2, 49, miseres={"4": 2}, dealer=4),
        {"miseres"},
        id="misere-sits-out-digits",
    ),
    pytest.param(MISERE, Hand(4, 0, "garde", 2, 49, miseres={1: 0}), {"miseres"}, id="0-miseres"),
    pytest.param(MISERE, Hand(4, 0, "garde", 2, 49, miseres={1: 3}), {"miseres"}, id="3-miseres"),
    pytest.param(MISERE, Hand(4, 0, "garde", 2, 49, miseres={1: -1}), {"miseres"}, id="-1"),
    pytest.param(MISERE, Hand(4, 0, "garde", 2, 49, miseres={1: True}), {"miseres"}, id="bool"),
    pytest.param(MISERE, Hand(4, 0, "garde", 2, 49, miseres={1: "two"}), {"miseres"}, id="two"),
    pytest.param(MISERE, Hand(4, 0, "garde", 2, 49, miseres={1: 1.5}), {"miseres"}, id="1.5"),
    pytest.param(MISERE, Hand(4, 0, "garde", 2, 49, miseres={4: 1}), {"miseres"}, id="seat"),
    pytest.param(MISERE, Hand(4, 0, "garde", 2, 49, miseres=[1]), {"miseres"}, id="not-a-map"),
    pytest.param(
        MISERE,
        Hand(4, 0, "garde", 2, 49, miseres={1: 1, "1": 2}),
        {"miseres"},
        id="two-entries-for-one-player",
    ),
    pytest.param(FFT, Hand(4, 0, "garde", 2, 49, miseres={2: 1}), {"miseres"}, id="misere-off"),
    pytest.param(
        Rules(rounding=10),
        Hand(4, 0, "garde", 2, 49, miseres={0: 2}),
        {"miseres"},
        id="misere-off-house",
    ),
    # Who sits out must be known, and be a seat.
    pytest.param(SITS_OUT, Hand(5, 0, "garde", 2, 49), {"dealer"}, id="no-dealer"),
    pytest.param(SITS_OUT, Hand(5, 0, "garde", 2, 49, dealer=5), {"dealer"}, id="dealer-seat"),
    pytest.param(SITS_OUT, Hand(6, 0, "garde", 2, 49, dealer="x"), {"dealer"}, id="dealer-text"),
    # The others play under the rules of their number: 4 at 5 seats.
    pytest.param(
        SITS_OUT,
        Hand(5, 0, "garde", 2, 49, partner=1, dealer=4),
        {"partner"},
        id="no-partner-when-4-play",
    ),
    pytest.param(
        SITS_OUT,
        Hand(5, 0, "garde", 2, "49.5", dealer=4),
        {"points"},
        id="no-half-point-when-4-play",
    ),
    pytest.param(
        SITS_OUT,
        Hand(5, 0, "garde", 2, 49, poignees={0: "simple", 1: "double"}, dealer=4),
        {"poignees"},
        id="4-play-thresholds",
    ),
    # 6 seats, and the dealer sitting out at 3 or 4 seats.
    pytest.param(FFT, Hand(6, 0, "garde", 2, 49, dealer=5), {"dealer_sits_out"}, id="6-seats"),
    pytest.param(SITS_OUT, Hand(3, 0, "garde", 2, 49, dealer=2), {"dealer_sits_out"}, id="3"),
    pytest.param(SITS_OUT, Hand(4, 0, "garde", 2, 49, dealer=3), {"dealer_sits_out"}, id="4"),
    pytest.param(SITS_OUT, Hand(7, 0, "garde", 2, 49, dealer=3), {"seats"}, id="7-seats"),
]

# Legal under the house rules, next to the refusals above: (rules, hand).
HOUSE_ACCEPTED = [
    pytest.param(
        SITS_OUT, Hand(5, 0, "garde", 2, 49, poignees={0: "simple", 1: "simple"}, dealer=4)
    ),
    pytest.param(SITS_OUT, Hand(6, 0, "garde", 2, "49.5", partner=4, dealer=5), id="6-seats"),
    pytest.param(FFT, Hand(5, 0, "garde", 2, 49, poignees={0: "simple", 1: "double"})),
    pytest.param(MISERE, Hand(4, 0, "garde", 2, 49, miseres={1: 2, 2: "1", 3: None, 0: ""})),
    pytest.param(FFT, Hand(4, 0, "garde", 2, 49, miseres={1: None, 2: ""}), id="empty-miseres"),
    # Who dealt is ignored when the dealer plays.
    pytest.param(FFT, Hand(4, 3, "garde", 2, 49, dealer=3, poignees={3: "simple"})),
    pytest.param(MISERE, Hand(5, 4, "garde", 2, 49, dealer=9, miseres={4: 1})),
]


@pytest.mark.parametrize(("rules", "hand", "row"), HOUSE_EXAMPLES)
def test_house_rules_example(rules, hand, row):
    assert score(hand, rules) == row
    assert validate(hand, rules) == []


def test_h4_misere_is_outside_the_plain_row():
    detail = breakdown(Hand(4, 0, "prise", 1, 60, miseres={2: 1}), MISERE)
    # docs/rules.md H4: the plain row is +102, −34, −34, −34; the misère adds +30 to seat 2 and −10
    # to each other.
    assert detail.per_defender == 34
    assert detail.miseres == (-10, -10, 30, -10)
    assert detail.misere_counts == (0, 0, 1, 0)
    assert tuple(s - m for s, m in zip(detail.scores, detail.miseres, strict=True)) == (
        102,
        -34,
        -34,
        -34,
    )


@pytest.mark.parametrize(("rules", "misere"), [(MISERE, 10), (Rules(misere=20), 20)])
@pytest.mark.parametrize(
    ("points", "plain"),
    [
        (60, (612, -204, -204, -204)),  # made by 9: (25 + 9) × 6 = 204 per defender
        (30, (-828, 276, 276, 276)),  # lost by 21: (25 + 21) × 6 = 276 per defender
    ],
    ids=["made", "lost"],
)
def test_misere_is_not_multiplied_and_ignores_the_result(rules, misere, points, plain):
    hand = Hand(4, 0, "garde_contre", 1, points, miseres={1: 2, 3: 1})
    # Seat 1: 2 misères from each of its 3 others; seat 3: 1 from each of its 3 others.
    extra = (-3 * misere, 6 * misere - misere, -3 * misere, 3 * misere - 2 * misere)
    assert score(hand, rules) == tuple(a + b for a, b in zip(plain, extra, strict=True))


def test_sitting_out_seat_pays_no_misere():
    detail = breakdown(Hand(6, 1, "prise", 1, 60, miseres={0: 1}, dealer=3), BOTH)
    # 5 play: seat 0 receives 20 from each of the 4 others in the hand, not from seat 3.
    assert detail.miseres == (80, -20, -20, 0, -20, -20)
    assert detail.scores[3] == 0
    assert detail.sitting_out == 3
    assert (detail.seats, detail.players) == (6, 5)


@pytest.mark.parametrize(("rules", "hand", "fields"), HOUSE_REJECTIONS)
def test_house_rules_rejection(rules, hand, fields):
    problems = validate(hand, rules)
    assert {problem.field for problem in problems} == fields
    for problem in problems:
        assert str(problem).startswith(LABELS[problem.field])
    with pytest.raises(InvalidHand) as raised:
        score(hand, rules)
    assert raised.value.problems == problems


@pytest.mark.parametrize(("rules", "hand"), HOUSE_ACCEPTED)
def test_house_rules_accepted(rules, hand):
    assert validate(hand, rules) == []
    assert sum(score(hand, rules)) == 0


def test_role_refused_to_the_sitting_out_seat_names_the_seat():
    hand = Hand(5, 0, "garde", 2, 49, poignees={4: "simple"}, miseres={4: 1}, dealer=4)
    problems = validate(hand, BOTH)
    assert [(p.field, p.seat) for p in problems] == [("poignees", 4), ("miseres", 4)]
    assert str(problems[0]) == "Poignée: the dealer sits out this hand, so shows no poignée."
    assert str(problems[1]) == "Misère: the dealer sits out this hand, so announces no misère."


def test_misere_count_message_names_the_count():
    (problem,) = validate(Hand(4, 0, "garde", 2, 49, miseres={2: 3}), MISERE)
    assert (problem.field, problem.seat) == ("miseres", 2)
    assert str(problem) == "Misère: a player announces 1 or 2 misères, not 3."


@pytest.mark.parametrize(
    ("seats", "rules", "accepted"),
    [
        (3, FFT, True),
        (4, FFT, False),
        (5, FFT, True),
        (5, SITS_OUT, False),  # 4 play
        (6, SITS_OUT, True),  # 5 play
    ],
)
def test_half_point_step_follows_the_players_in_the_hand(seats, rules, accepted):
    hand = Hand(seats, 0, "prise", 2, "40.5", dealer=seats - 1)
    fields = [problem.field for problem in validate(hand, rules)]
    assert fields == ([] if accepted else ["points"])
    if accepted:
        # docs/rules.md §2.1: 40.5 with 2 bouts is lost by 1.
        detail = breakdown(hand, rules)
        assert (detail.made, detail.diff, detail.per_defender) == (False, 1, -26)


# Rounding ------------------------------------------------------------------------------------


@pytest.mark.parametrize(("rounding", "diff", "expected"), ROUNDING)
def test_rounding_table(rounding, diff, expected):
    assert round_diff(diff, rounding) == expected


@pytest.mark.parametrize(
    ("bouts", "points", "made", "diff", "rounded", "u"),
    [
        (2, 45, True, 4, 0, 25),
        (2, 46, True, 5, 10, 35),
        (2, 55, True, 14, 10, 35),
        (2, 56, True, 15, 20, 45),
        # Lost by 4 rounds to 0: still lost, the 25 still paid by the taker.
        (2, 37, False, 4, 0, -25),
        (2, 36, False, 5, 10, -35),
        (0, 0, False, 56, 60, -85),
        (3, 91, True, 55, 60, 85),
    ],
)
def test_rounding_to_10_in_a_hand(bouts, points, made, diff, rounded, u):
    detail = breakdown(Hand(4, 0, "prise", bouts, points), Rules(rounding=10))
    assert (detail.made, detail.diff, detail.rounded_diff, detail.per_defender) == (
        made,
        diff,
        rounded,
        u,
    )


def test_rounding_comes_after_the_half_point_step():
    # 3 players, 2 bouts: 43.5 is made by 2.5, so by 3 (§2), then 5 with rounding 5 (§6).
    detail = breakdown(Hand(3, 0, "prise", 2, "43.5"), Rules(rounding=5))
    assert (detail.diff, detail.rounded_diff) == (3, 5)
    assert detail.scores == (60, -30, -30)


@pytest.mark.parametrize(
    ("rules", "hand", "expression", "miseres"),
    [
        (Rules(rounding=10), Hand(4, 0, "garde", 2, 49), "(25 + 8 → 10) × 2", ""),
        (Rules(rounding=10), Hand(4, 0, "garde", 2, 51), "(25 + 10) × 2", ""),
        (
            Rules(rounding=5, poignees="20-40-60"),
            Hand(4, 0, "prise", 2, 38, poignees={1: "double"}),
            "−(25 + 3 → 5) × 1 − 40 poignée",
            "",
        ),
        (MISERE, Hand(4, 0, "prise", 1, 60, miseres={2: 1}), "(25 + 9) × 1", "10 misère × 3 (2)"),
        (
            BOTH,
            Hand(6, 0, "prise", 1, 60, miseres={1: 2, 4: 1}, dealer=5),
            "(25 + 9) × 1",
            "40 misère × 4 (1), 20 misère × 4 (4)",
        ),
    ],
)
def test_house_rules_expression(rules, hand, expression, miseres):
    detail = breakdown(hand, rules)
    assert detail.expression() == expression
    assert detail.misere_expression() == miseres


def test_misere_expression_with_names():
    detail = breakdown(Hand(4, 0, "prise", 1, 60, miseres={2: 1}), MISERE)
    assert detail.misere_expression(["Ana", "Ben", "Chloé", "Dan"]) == "10 misère × 3 (Chloé)"


def test_fft_hand_has_no_misere_expression():
    detail = breakdown(fft_hand(*FFT_SHEET[0][:-1]))
    assert detail.misere_expression() == ""
    assert detail.miseres == (0, 0, 0, 0)
    assert detail.sitting_out is None
    assert detail.rounded_diff == detail.diff == 8


# Rules -----------------------------------------------------------------------------------------


def test_fft_is_the_default():
    assert Rules() == FFT
    assert FFT.is_fft
    assert FFT.to_data() == {
        "poignees": "20-30-40",
        "rounding": 1,
        "misere": 0,
        "dealer_sits_out": False,
    }
    assert FFT.describe() == []
    assert dict(FFT.poignee_values) == {"simple": 20, "double": 30, "triple": 40}


@pytest.mark.parametrize(
    ("rules", "words"),
    [
        (Rules(poignees="20-40-60"), ["Poignées 20/40/60"]),
        (Rules(rounding=5), ["Differences rounded to 5"]),
        (Rules(rounding=10), ["Differences rounded to 10"]),
        (Rules(misere=10), ["Misère 10"]),
        (Rules(misere=20), ["Misère 20"]),
        (SITS_OUT, ["Dealer sits out"]),
        (
            Rules(poignees="20-40-60", rounding=10, misere=20, dealer_sits_out=True),
            ["Poignées 20/40/60", "Differences rounded to 10", "Misère 20", "Dealer sits out"],
        ),
    ],
)
def test_house_rules_are_named(rules, words):
    assert not rules.is_fft
    assert rules.describe() == words
    # As a sheet shows them: one line, a no-break space before each "·".
    assert rules.in_words() == "\u00a0· ".join(words)


def test_the_fft_rules_are_named_fft_in_every_language():
    assert FFT.in_words() == "FFT"
    assert FFT.in_words(lambda words: "?") == "FFT"


@pytest.mark.parametrize("language", ["fr", "es"])
def test_house_rule_names_are_translated(language):
    rules = Rules(poignees="20-40-60", rounding=10, misere=20, dealer_sits_out=True)
    with translation.override(language):
        named = [translation.gettext(words) for words in rules.describe()]
    # Game terms stay French; the rest is translated.
    assert named[0] == "Poignées 20/40/60"
    assert named[2] == "Misère 20"
    assert named[1] != "Differences rounded to 10"
    assert named[3] != "Dealer sits out"


def test_poignee_values_follow_the_rules():
    assert dict(Rules(poignees="20-40-60").poignee_values) == {
        "simple": 20,
        "double": 40,
        "triple": 60,
    }


@pytest.mark.parametrize(
    ("rules", "seats", "players"),
    [
        (FFT, 3, 3),
        (FFT, 4, 4),
        (FFT, 5, 5),
        (SITS_OUT, 5, 4),
        (SITS_OUT, 6, 5),
    ],
)
def test_players_in_a_hand(rules, seats, players):
    assert rules.players(seats) == players
    assert check_rules(rules, seats) == []


@pytest.mark.parametrize(
    ("rules", "seats", "field"),
    [
        (FFT, 6, "dealer_sits_out"),
        (Rules(misere=10), 6, "dealer_sits_out"),
        (SITS_OUT, 3, "dealer_sits_out"),
        (SITS_OUT, 4, "dealer_sits_out"),
        (FFT, 2, "seats"),
        (FFT, 7, "seats"),
        (SITS_OUT, 7, "seats"),
        (FFT, "six", "seats"),
        (FFT, True, "seats"),
    ],
)
def test_check_rules_refuses(rules, seats, field):
    (problem,) = check_rules(rules, seats)
    assert problem.field == field
    assert str(problem).startswith(LABELS[field] + ":")


def test_check_rules_messages():
    (six,) = check_rules(FFT, 6)
    assert str(six) == "Dealer sits out: at 6 seats the dealer always sits out, so it must be on."
    (four,) = check_rules(SITS_OUT, 4)
    assert (
        str(four) == "Dealer sits out: only at 5 or 6 seats; at 4 seats everyone plays every hand."
    )


@pytest.mark.parametrize(
    ("data", "rules"),
    [
        ({}, FFT),
        ({"rounding": 10}, Rules(rounding=10)),
        ({"poignees": "20-40-60", "misere": 20}, Rules(poignees="20-40-60", misere=20)),
        ({"dealer_sits_out": True}, SITS_OUT),
        (
            {"poignees": "20-30-40", "rounding": 5, "misere": 10, "dealer_sits_out": False},
            Rules(rounding=5, misere=10),
        ),
    ],
)
def test_rules_from_data(data, rules):
    assert Rules.from_data(data) == rules


@pytest.mark.parametrize(
    ("data", "fields"),
    [
        pytest.param({"poignees": "20-30-50"}, ["poignees"], id="poignees-value"),
        pytest.param({"poignees": 20}, ["poignees"], id="poignees-type"),
        pytest.param({"rounding": 2}, ["rounding"], id="rounding-2"),
        pytest.param({"rounding": 0}, ["rounding"], id="rounding-0"),
        pytest.param({"rounding": True}, ["rounding"], id="rounding-bool"),
        pytest.param({"rounding": "10"}, ["rounding"], id="rounding-text"),
        pytest.param({"rounding": 10.0}, ["rounding"], id="rounding-float"),
        pytest.param({"misere": 15}, ["misere"], id="misere-15"),
        pytest.param({"misere": False}, ["misere"], id="misere-bool"),
        pytest.param({"misere": None}, ["misere"], id="misere-none"),
        pytest.param({"dealer_sits_out": 1}, ["dealer_sits_out"], id="sits-out-1"),
        pytest.param({"dealer_sits_out": "yes"}, ["dealer_sits_out"], id="sits-out-text"),
        pytest.param({"chelem": 500}, ["rules"], id="unknown-rule"),
        pytest.param({1: 10}, ["rules"], id="key-not-text"),
        pytest.param(
            {"rounding": 3, "misere": 5, "petit": 20},
            ["rounding", "misere", "rules"],
            id="every-problem",
        ),
        pytest.param(None, ["rules"], id="none"),
        pytest.param(["rounding", 10], ["rules"], id="list"),
        pytest.param("FFT", ["rules"], id="text"),
    ],
)
def test_rules_from_data_refuses(data, fields):
    with pytest.raises(InvalidRules) as raised:
        Rules.from_data(data)
    assert [problem.field for problem in raised.value.problems] == fields
    for problem in raised.value.problems:
        assert str(problem).startswith(RULE_LABELS[problem.field] + ":")


def test_unknown_rule_is_named():
    with pytest.raises(InvalidRules) as raised:
        Rules.from_data({"petit": 20})
    assert str(raised.value) == "Rules: there is no rule “petit”."


@pytest.mark.parametrize(
    "fields",
    [{"rounding": 7}, {"misere": 5}, {"poignees": "10-20-30"}, {"dealer_sits_out": None}],
)
def test_rules_built_directly_are_checked_too(fields):
    with pytest.raises(InvalidRules) as raised:
        Rules(**fields)
    assert [problem.field for problem in raised.value.problems] == list(fields)


@pytest.mark.parametrize(
    ("dealer", "seats", "following"), [(0, 4, 1), (3, 4, 0), (4, 5, 0), (2, 6, 3), (5, 6, 0)]
)
def test_next_dealer(dealer, seats, following):
    assert next_dealer(dealer, seats) == following


# docs/rules.md §6 invariants, over every rule combination and 3 to 6 seats -----------------------


@given(session_hands())
def test_house_rules_rows_sum_to_zero(drawn):
    rules, hand = drawn
    assert validate(hand, rules) == []
    scores = score(hand, rules)
    assert len(scores) == hand.seats
    assert sum(scores) == 0


@given(session_hands())
def test_house_rules_follow_the_rules(drawn):
    rules, hand = drawn
    assert score(hand, rules) == expected_row(hand, rules)


@given(session_hands())
def test_sitting_out_seat_scores_zero(drawn):
    rules, hand = drawn
    detail = breakdown(hand, rules)
    if rules.dealer_sits_out:
        assert detail.sitting_out == hand.dealer
        assert detail.scores[hand.dealer] == 0
        assert detail.miseres[hand.dealer] == 0
        assert detail.players == hand.seats - 1
    else:
        assert detail.sitting_out is None
        assert detail.players == hand.seats


@given(session_hands())
def test_rounding_never_flips_made_or_lost(drawn):
    rules, hand = drawn
    detail = breakdown(hand, rules)
    target = {0: 56, 1: 51, 2: 41, 3: 36}[hand.bouts]
    assert detail.made is (Decimal(hand.points) >= target)
    assert (detail.contract > 0) is detail.made
    assert detail.rounded_diff % rules.rounding == 0
    assert abs(detail.rounded_diff - detail.diff) * 2 <= rules.rounding


@given(session_hands())
def test_miseres_sum_to_zero_and_stay_outside_u(drawn):
    rules, hand = drawn
    detail = breakdown(hand, rules)
    assert sum(detail.miseres) == 0
    plain = breakdown(replace(hand, miseres={}), rules)
    assert detail.per_defender == plain.per_defender
    assert detail.scores == tuple(s + m for s, m in zip(plain.scores, detail.miseres, strict=True))


@given(valid_hands(), st.integers(0, 4))
def test_fft_scores_as_before(hand, dealer):
    expected = expected_row(hand, FFT)
    assert score(hand) == score(hand, FFT) == score(hand, Rules()) == expected
    # Who dealt changes nothing when the dealer plays.
    assert score(replace(hand, dealer=dealer % hand.seats)) == expected


@given(ANY_RULES)
def test_rules_round_trip_and_hash(rules):
    data = rules.to_data()
    assert Rules.from_data(data) == rules
    assert Rules.from_data(json.loads(json.dumps(data))) == rules
    assert hash(Rules.from_data(data)) == hash(rules)
    assert {rules: "session"}[Rules(**data)] == "session"
    assert rules.is_fft is (rules == FFT)
    assert rules.is_fft is (rules.describe() == [])


@given(session_hands())
def test_result_is_the_breakdowns(drawn):
    """The exports' "made / lost by N" (scoring.result, from bouts and points alone) is what the
    whole breakdown says, under any house rules and at any table."""
    rules, hand = drawn
    detail = breakdown(hand, rules)
    assert result(hand.bouts, hand.points) == (detail.made, detail.diff)

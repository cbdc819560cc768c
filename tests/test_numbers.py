"""Numbers as the app writes them (scoresheet/numbers.py): the sign always written, the true
minus sign (U+2212), the class of a score's sign, the width class of a column of totals, card
points without a useless ".0"."""

from decimal import Decimal

import pytest

from scoresheet import numbers

MINUS = "\u2212"


@pytest.mark.parametrize(
    ("value", "signed", "minus", "sign"),
    [
        (318, "+318", "318", "positive"),
        (-106, f"{MINUS}106", f"{MINUS}106", "negative"),
        (0, "0", "0", "zero"),
        (1, "+1", "1", "positive"),
    ],
)
def test_a_score_is_written_with_a_true_minus_sign(value, signed, minus, sign):
    assert numbers.signed(value) == signed
    assert numbers.minus(value) == minus
    assert numbers.sign_class(value) == sign
    assert "-" not in numbers.signed(value) + numbers.minus(value)


def test_a_number_written_in_a_language_gets_its_true_minus():
    assert numbers.true_minus("-17,5") == f"{MINUS}17,5"
    assert numbers.true_minus("17.5") == "17.5"


@pytest.mark.parametrize(
    ("values", "expected"),
    [
        ([], "chars-4"),
        ([0, 5], "chars-4"),
        ([318, -106, -106, -106], "chars-4"),
        ([1000, -999], "chars-5"),
        ([-12000, 500], "chars-6"),
        ([132180, -114720], "chars-7"),
        ([10**12], "chars-9"),
    ],
)
def test_the_width_class_fits_the_widest_number_as_written(values, expected):
    assert numbers.width_class(values) == expected


@pytest.mark.parametrize(
    ("points", "separator", "expected"),
    [
        (Decimal(49), ".", "49"),
        (Decimal("49.0"), ",", "49"),
        (Decimal("40.5"), ".", "40.5"),
        (Decimal("40.5"), ",", "40,5"),
        (Decimal("40.50"), ",", "40,5"),
        (Decimal("1E+1"), ".", "10"),
        (Decimal("0.5"), ",", "0,5"),
        (91, ".", "91"),
    ],
)
def test_card_points_have_no_useless_decimal(points, separator, expected):
    assert numbers.card_points_text(points, separator) == expected


# Reading: the one reader of a number a browser sends.


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("0", 0),
        ("7", 7),
        ("007", 7),
        ("999999999", 999_999_999),
        ("1234567890", None),  # ten digits: more than a column holds
        ("", None),
        ("²", None),  # isdigit() says yes, int() says no
        ("١٢", None),  # Arabic-Indic digits: int() reads 12
        ("１２", None),  # fullwidth digits: int() reads 12
        ("+1", None),
        ("-1", None),
        (" 1", None),
        ("1 ", None),
        ("1_0", None),  # int() reads 10
        ("1.0", None),
        ("1e3", None),
        ("9" * 5000, None),  # int() refuses over 4,300 digits
        (None, None),
        (7, None),  # text only
    ],
)
def test_a_number_is_read_from_ascii_digits_only(text, expected):
    assert numbers.read(text) == expected


def test_a_row_id_is_read_with_up_to_18_digits():
    assert numbers.read("9" * 18, numbers.ID_DIGITS) == 10**18 - 1
    assert numbers.read("9" * 19, numbers.ID_DIGITS) is None
    assert numbers.read("9" * 18) is None
    # Both bounds fit the columns they are compared with: 32-bit and 64-bit integers.
    assert 10**numbers.DIGITS - 1 < 2**31
    assert 10**numbers.ID_DIGITS - 1 < 2**63


# One rounding for every percentage and average the app shows: a half goes away from zero, as a
# person rounds (Python's round() takes it to the even neighbour: round(12.5) == 12).
@pytest.mark.parametrize(
    ("part", "whole", "places", "expected"),
    [
        (100, 8, 0, 13),  # 1 of 8 in percent: 12.5 → 13
        (300, 8, 0, 38),  # 37.5 → 38
        (100, 3, 0, 33),  # 33.33… → 33
        (200, 3, 0, 67),  # 66.66… → 67
        (-25, 2, 0, -13),  # −12.5 → −13, away from zero
        (5, 4, 1, 1.3),  # 1.25 → 1.3 (round(1.25, 1) is 1.2)
        (9, 8, 1, 1.1),  # 1.125 → 1.1
        (-525, 8, 1, -65.6),  # −65.625 → −65.6
        (1, 40, 1, 0.0),  # 0.025 → 0.0
        (3, 40, 1, 0.1),  # 0.075 → 0.1
        (7, 0, 0, None),  # nothing to average over
    ],
)
def test_ratio_rounds_a_half_up(part, whole, places, expected):
    assert numbers.ratio(part, whole, places) == expected


def test_percent_and_rounded():
    assert numbers.percent(1, 8) == 13
    assert numbers.percent(0, 0) is None
    assert numbers.rounded(0.25, 1) == 0.3
    assert numbers.rounded(-0.25, 1) == -0.3
    assert numbers.rounded(2.5) == 3
    assert isinstance(numbers.rounded(2.5), int)

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

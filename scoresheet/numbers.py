"""Numbers as the app writes and reads them, the one place that says how, below every page,
row, chart and picture that shows one: a score with its sign always written (+318, −106, 0), the
true minus sign (U+2212, never a hyphen), the class a score's sign is shown with, the width class
that fits a column of totals, card points without a useless ".0", and the one rounding of every
percentage and average the app shows (``rounded``, ``ratio``, ``percent``: half up, 12.5 % is
13 %). Pure Python, as the chart that uses it: the language's decimal separator is given by the
caller.

And the one reader of a whole number a browser sends as text (a seat in a field's name, a
dealer, a roster player, a revision, a page): ``read``. Every form and view reads one with it,
and so does ``scoring`` (a seat given as text), so that "²", "١٢", "+1", " 1", "1_0" or 5,000
digits, which Python's ``int()`` takes or fails on in its own ways, are no number anywhere.
"""

from __future__ import annotations

from collections.abc import Iterable
from decimal import ROUND_HALF_UP, Decimal

MINUS = "\u2212"
# The most digits ``read`` takes: below 2**31, so that every integer column of either database
# holds what it reads. A row's id (a BigAutoField) has up to 18: below 2**63.
DIGITS = 9
ID_DIGITS = 18
# The totals bar's classes run from chars-4 (or fewer characters) to chars-9 (or more).
NARROWEST, WIDEST = 4, 9


def signed(value: int) -> str:
    """+318, −106, 0: a score with its sign always written, with a true minus sign."""
    if value > 0:
        return f"+{value}"
    return minus(value)


def minus(value: int) -> str:
    """−42 with a true minus sign, 106 with no sign."""
    return f"{MINUS}{-value}" if value < 0 else str(value)


def true_minus(text: str) -> str:
    """A number already written (in the page's language) with its minus sign made true."""
    return MINUS + text[1:] if text.startswith("-") else text


def sign_class(value: int) -> str:
    """The class a score is shown with: positive, negative or zero."""
    return "positive" if value > 0 else "negative" if value < 0 else "zero"


def width_class(values: Iterable[int]) -> str:
    """The class that fits the widest of ``values`` as ``signed`` writes it (+318: 4
    characters), so that app.css sizes the numbers to their column: chars-4 to chars-9."""
    widest = max((len(signed(value)) for value in values), default=1)
    return f"chars-{min(max(widest, NARROWEST), WIDEST)}"


def card_points_text(points: Decimal | int | str, decimal_separator: str = ".") -> str:
    """Card points as a page writes them: 49, 40.5 (40,5 with a decimal comma)."""
    points = Decimal(points)
    if points == points.to_integral():
        return str(points.quantize(Decimal(1)))
    return format(points.normalize(), "f").replace(".", decimal_separator)


def read(text: object, digits: int = DIGITS) -> int | None:
    """A whole number from text a browser (or a file) sends: 1 to ``digits`` ASCII digits and
    nothing else (no sign, space, underscore or another script's digits); None otherwise."""
    if not (isinstance(text, str) and 0 < len(text) <= digits):
        return None
    return int(text) if text.isascii() and text.isdigit() else None


def rounded(value: Decimal | int | float, places: int = 0) -> int | float:
    """``value`` to ``places`` decimals, a half away from zero (12.5 → 13, −0.25 → −0.3):
    as a person rounds, the same on every page and in every file. An int for whole numbers,
    else a float that holds the rounded decimal (12.4), for the pages and spreadsheets."""
    step = Decimal(1).scaleb(-places)
    exact = (value if isinstance(value, Decimal) else Decimal(value)).quantize(
        step, rounding=ROUND_HALF_UP
    )
    return int(exact) if places == 0 else float(exact)


def ratio(part: int | float, whole: int | float, places: int = 0) -> int | float | None:
    """``part / whole`` rounded as ``rounded`` does, the division exact (no float on the way);
    None when ``whole`` is 0 (no hand to average over)."""
    if not whole:
        return None
    return rounded(Decimal(part) / Decimal(whole), places)


def percent(part: int, whole: int) -> int | None:
    """``part`` in percent of ``whole``, to the unit: 1 of 8 is 13 (12.5, half up)."""
    return ratio(100 * part, whole)

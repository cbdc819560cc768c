"""The printed sheet (feuille de marque): every hand's line, read from what is stored a chunk
at a time, so that printing a long session never holds it whole, and written as the page's
table rows in Python (``Markup``), at a few microseconds a line: the template language took
most of the two seconds a 10,000-hand session's page took.

A line is what the paper shows: the hand's number, who dealt, who took (and called, at 5),
the contract with its bouts and points, the result (``scoring.result``: no breakdown), and each
seat's score as stored, with the running total after it, added up as the lines go by.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from decimal import Decimal

from django.utils import formats
from django.utils.html import escape
from django.utils.translation import gettext, ngettext

from scoresheet import json_rows, numbers, scoring, tally
from scoresheet.models import Contract, Sheet

# Hands read and rendered at a time.
CHUNK = 500
COLUMNS = (
    "number",
    "dealer",
    "passed",
    "taker",
    "partner",
    "contract",
    "bouts",
    "points",
    "scores",
)
CONTRACT_LABELS = dict(Contract.choices)


@dataclass(frozen=True)
class Cell:
    """A seat's score in the hand and its running total after it; ``out`` when the dealer sat
    the hand out."""

    score: int
    total: int
    out: bool


@dataclass(frozen=True)
class Line:
    number: int
    dealer: int
    passed: bool
    taker: int | None
    partner: int | None
    # The taker called themselves: 5 play and no partner was called.
    alone: bool
    contract: str
    bouts: int | None
    points: Decimal | None
    made: bool | None
    diff: int | None
    cells: tuple[Cell, ...]


def line(values: tuple, totals: tuple[int, ...], rules: scoring.Rules, seats: int) -> Line:
    """A hand's printed line from its ``COLUMNS`` as stored, and the running totals after it."""
    number, dealer, passed, taker, partner, contract, bouts, points, scores = values
    out = dealer if rules.dealer_sits_out and not passed else None
    made, diff = (None, None) if passed else scoring.result(bouts, points)
    return Line(
        number=number,
        dealer=dealer,
        passed=passed,
        taker=taker,
        partner=partner,
        alone=not passed and partner is None and rules.players(seats) == 5,
        contract=CONTRACT_LABELS.get(contract, ""),
        bouts=bouts,
        points=points,
        made=made,
        diff=diff,
        cells=tuple(
            Cell(score, total, seat == out)
            for seat, (score, total) in enumerate(zip(scores, totals, strict=True))
        ),
    )


def chunks(sheet: Sheet, names: list[str], rules: scoring.Rules) -> Iterator[list[Line]]:
    """The sheet's lines in play order, ``CHUNK`` at a time, from one query read in chunks."""
    seats = len(names)
    chunk: list[Line] = []
    totals = (0,) * seats
    for values in json_rows.read(sheet.numbered_hands(), COLUMNS, CHUNK):
        totals = tally.add(totals, values[-1])
        chunk.append(line(values, totals, rules, seats))
        if len(chunk) == CHUNK:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


class Markup:
    """The printed sheet's rows as HTML, in the active language: the words translated once,
    each name escaped once."""

    def __init__(self, names: list[str]):
        self.names = [escape(name) for name in names]
        self.passed = escape(gettext("Everyone passed"))
        self.alone = escape(gettext("alone"))
        self.separator = formats.get_format("DECIMAL_SEPARATOR")
        self.bouts = {
            bouts: ngettext("%(bouts)s bout", "%(bouts)s bouts", bouts) % {"bouts": bouts}
            for bouts in range(4)
        }
        self.points = gettext("%(points)s pts")
        self.made, self.lost = gettext("made by %(diff)s"), gettext("lost by %(diff)s")
        self.signed: dict[int, str] = {}

    def name(self, seat: int | None) -> str:
        try:
            return self.names[int(seat)]
        except (IndexError, TypeError, ValueError):
            return ""

    def sign(self, value: int) -> str:
        found = self.signed.get(value)
        if found is None:
            found = self.signed[value] = escape(numbers.signed(value))
        return found

    def rows(self, lines: list[Line]) -> str:
        """The lines as the table's rows."""
        return "".join(self.row(line) for line in lines)

    def row(self, line: Line) -> str:
        passed = ' class="passed"' if line.passed else ""
        head = (
            f'\n<tr{passed}><th scope="row" class="number">'
            f"{line.number}</th><td>{self.name(line.dealer)}</td>"
        )
        if line.passed:
            what = f'<td colspan="3" class="what">{self.passed}</td>'
        else:
            taker = self.name(line.taker)
            if line.partner is not None:
                taker += f" → {self.name(line.partner)}"
            elif line.alone:
                taker += f" ({self.alone})"
            points = self.points % {
                "points": escape(numbers.card_points_text(line.points, self.separator))
            }
            result = (self.made if line.made else self.lost) % {"diff": line.diff}
            what = (
                f"<td>{taker}</td><td>{escape(line.contract)}<span class="
                f'"contract-detail">{self.bouts[line.bouts]} · {points}</span></td>'
                f'<td class="result">{result}</td>'
            )
        cells = "".join(
            f'<td class="seat"><span class="score">'
            f"{'—' if cell.out else self.sign(cell.score)}</span>"
            f'<span class="running">{self.sign(cell.total)}</span></td>'
            for cell in line.cells
        )
        return f"{head}{what}{cells}</tr>"

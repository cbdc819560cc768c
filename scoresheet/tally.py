"""A sheet's tally: stored hands into rows and running totals (docs/rules.md §4), in one pass; pure
Python."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from scoresheet import scoring


@dataclass(frozen=True)
class Row:
    """One line of the sheet. ``hand`` and ``breakdown`` are None for a passed deal."""

    number: int
    dealer: int
    hand: scoring.Hand | None
    breakdown: scoring.Breakdown | None
    scores: tuple[int, ...]

    @property
    def passed(self) -> bool:
        return self.hand is None

    @property
    def balanced(self) -> bool:
        """docs/rules.md §4: every row sums to zero."""
        return sum(self.scores) == 0


@dataclass(frozen=True)
class Standing:
    seat: int
    total: int
    rank: int


@dataclass(frozen=True)
class Tally:
    """Rows and the state after the last; ``rows`` may hold only the latest (see views)."""

    seats: int
    rows: tuple[Row, ...]
    totals: tuple[int, ...]
    next_dealer: int
    # How many hands the sheet holds, whether or not ``rows`` shows them all.
    count: int

    @property
    def standings(self) -> tuple[Standing, ...]:
        """Each seat's total and rank (1 = leading; equal totals share a rank), in seat order."""
        return tuple(
            Standing(seat, total, 1 + sum(other > total for other in self.totals))
            for seat, total in enumerate(self.totals)
        )

    @property
    def leaders(self) -> tuple[int, ...]:
        """The seats with the best total, once a hand has been scored."""
        if not any(self.totals):
            return ()
        best = max(self.totals)
        return tuple(seat for seat, total in enumerate(self.totals) if total == best)


def dealer(first_dealer: int, number: int, seats: int) -> int:
    """Who deals hand ``number`` (from 1): the deal moves on after every hand, passed or not."""
    return (first_dealer + number - 1) % seats


def row(
    seats: int,
    number: int,
    dealt_by: int,
    hand: scoring.Hand | None,
    rules: scoring.Rules = scoring.FFT,
) -> Row:
    """Hand ``number``, dealt by seat ``dealt_by``, scored under ``rules``: its breakdown and
    scores (all 0 for a passed deal)."""
    detail = scoring.breakdown(hand, rules) if hand is not None else None
    scores = detail.scores if detail else (0,) * seats
    return Row(number, dealt_by, hand, detail, scores)


def add(totals: tuple[int, ...], scores: Iterable[int]) -> tuple[int, ...]:
    """The running totals once a row with these scores is added."""
    return tuple(t + s for t, s in zip(totals, scores, strict=True))


def replay(
    seats: int,
    dealt: Iterable[tuple[int, scoring.Hand | None]],
    rules: scoring.Rules = scoring.FFT,
) -> Iterator[tuple[Row, tuple[int, ...]]]:
    """Each hand's row, in play order, from (dealer, hand) pairs (None is a passed deal), with
    the running totals after it: one at a time, so a long sheet can stream."""
    totals = (0,) * seats
    for number, (dealt_by, hand) in enumerate(dealt, start=1):
        scored = row(seats, number, dealt_by, hand, rules)
        totals = add(totals, scored.scores)
        yield scored, totals

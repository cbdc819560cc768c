"""Stored hands into sheet rows and running totals (RULES.md §4), in one pass; pure Python."""

from __future__ import annotations

from collections.abc import Iterable
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
        """RULES.md §4: every row sums to zero."""
        return sum(self.scores) == 0


@dataclass(frozen=True)
class Standing:
    seat: int
    total: int
    rank: int


@dataclass(frozen=True)
class Sheet:
    """Rows (all of them, or the ones a caller continued with) and the state after the last."""

    players: int
    rows: tuple[Row, ...]
    totals: tuple[int, ...]
    next_dealer: int
    # How many hands the sheet holds, counting the ones before ``rows`` when continued.
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


def dealer(first_dealer: int, number: int, players: int) -> int:
    """Who deals hand ``number`` (from 1): the deal moves on after every hand, passed or not."""
    return (first_dealer + number - 1) % players


def build(
    players: int,
    first_dealer: int,
    hands: Iterable[scoring.Hand | None],
    first_number: int = 1,
    totals: tuple[int, ...] | None = None,
) -> Sheet:
    """Score every hand in play order (None is a passed deal) and keep the running totals.

    ``first_number`` and ``totals`` let a caller continue a sheet from a known point.
    """
    running = list(totals or (0,) * players)
    rows = []
    number = first_number - 1
    for number, hand in enumerate(hands, start=first_number):
        if hand is None:
            detail, scores = None, (0,) * players
        else:
            detail = scoring.breakdown(hand)
            scores = detail.scores
        running = [total + score for total, score in zip(running, scores, strict=True)]
        rows.append(Row(number, dealer(first_dealer, number, players), hand, detail, scores))
    return Sheet(
        players=players,
        rows=tuple(rows),
        totals=tuple(running),
        next_dealer=dealer(first_dealer, number + 1, players),
        count=number,
    )

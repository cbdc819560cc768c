"""A sheet's tally: stored hands into rows and running totals (docs/rules.md §4), in one pass; pure
Python."""

from __future__ import annotations

import operator
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field

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


def add(totals: Sequence[int], scores: Sequence[int]) -> tuple[int, ...]:
    """The running totals once a row with these scores is added."""
    if len(totals) != len(scores):
        raise ValueError(f"{len(scores)} scores for {len(totals)} totals")
    return tuple(map(operator.add, totals, scores))


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


def before(totals: Sequence[int], rows: Sequence[Sequence[int]]) -> list[tuple[int, ...]]:
    """The running totals after each of ``rows`` (their scores, in play order), given the
    totals after the last of them: a page's latest rows from the sheet's totals, backwards."""
    found = [tuple(totals)]
    for scores in reversed(rows[1:]):
        found.append(tuple(t - s for t, s in zip(found[-1], scores, strict=True)))
    found.reverse()
    return found if rows else []


def running(start: Sequence[int], rows: Iterable[Sequence[int]]) -> Iterator[tuple[int, ...]]:
    """The running totals after each of ``rows`` (their scores, in play order), from the
    totals ``start`` before the first."""
    totals = tuple(start)
    for scores in rows:
        totals = add(totals, scores)
        yield totals


# At most this many checkpoints: a sheet's stored running totals weigh the same at 100 hands
# and at 100,000 (a few kilobytes).
CHECKPOINTS = 128


@dataclass
class Checkpoints:
    """Each seat's running total after every ``every``-th hand (hands ``every``, ``2·every``…),
    stored with the sheet: what the chart draws and where a page of earlier hands starts
    counting, at the same cost at any length of session. ``every`` is a power of two that
    doubles when there would be more than ``CHECKPOINTS``, so that every checkpoint kept is
    still one; a new hand adds at most one, a corrected hand moves those after it, a deleted
    one needs the scores of the hands just after the checkpoints it moves (``deleted``)."""

    every: int = 1
    totals: list[list[int]] = field(default_factory=list)

    def to_data(self) -> dict:
        return {"every": self.every, "totals": self.totals}

    @classmethod
    def from_data(cls, data: dict) -> Checkpoints:
        if not data:
            return cls()
        return cls(data["every"], [list(totals) for totals in data["totals"]])

    @classmethod
    def of(cls, rows: Iterable[Sequence[int]], seats: int) -> Checkpoints:
        """The checkpoints of a sheet whose rows have these scores, in play order."""
        checkpoints = cls()
        for count, totals in enumerate(running((0,) * seats, rows), start=1):
            checkpoints.added(count, totals)
        return checkpoints

    def numbers(self) -> range:
        """The hand numbers after which a total is kept."""
        return range(self.every, self.every * len(self.totals) + 1, self.every)

    def at(self, number: int, seats: int) -> tuple[int, tuple[int, ...]]:
        """The latest checkpoint at or before hand ``number``: (its hand number, its totals);
        (0, zeros) before the first."""
        kept = min(number // self.every, len(self.totals))
        if not kept:
            return 0, (0,) * seats
        return kept * self.every, tuple(self.totals[kept - 1])

    def added(self, count: int, totals: Sequence[int]) -> None:
        """Hand ``count`` was added last, the running totals after it being ``totals``."""
        if count % self.every or count // self.every != len(self.totals) + 1:
            return
        self.totals.append(list(totals))
        if len(self.totals) > CHECKPOINTS:
            self.every *= 2
            self.totals = self.totals[1::2]

    def corrected(self, number: int, change: Sequence[int]) -> None:
        """Hand ``number``'s scores moved by ``change`` (new minus old): every checkpoint at or
        after it moves with them."""
        for index in range(max(0, -(-number // self.every) - 1), len(self.totals)):
            self.totals[index] = [t + c for t, c in zip(self.totals[index], change, strict=True)]

    def after_deleted(self, number: int, count: int) -> list[int]:
        """The hands (numbered before the deletion) whose scores ``deleted`` needs when hand
        ``number`` of ``count`` is deleted: the one just after each checkpoint it moves."""
        return [kept + 1 for kept in self.numbers() if kept >= number and kept < count]

    def deleted(
        self, number: int, count: int, scores: Sequence[int], after: dict[int, Sequence[int]]
    ) -> None:
        """Hand ``number`` of ``count``, which scored ``scores``, was deleted, the later ones
        renumbered: the checkpoint after hand ``kept`` is now the total after what was hand
        ``kept + 1`` (whose scores ``after`` gives, by that old number), less the deleted
        hand's; the last goes when no hand is left to hold it."""
        kept = [
            [t + a - s for t, a, s in zip(totals, after[end + 1], scores, strict=True)]
            if end >= number
            else totals
            for end, totals in zip(self.numbers(), self.totals, strict=True)
            if end < count
        ]
        self.totals = kept

    @property
    def sparse(self) -> bool:
        """Too few left to draw a long session well, since many hands were deleted: the
        caller counts them again (``of``)."""
        return self.every > 1 and len(self.totals) < CHECKPOINTS // 4

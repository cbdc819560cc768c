"""Whole sheets scored in memory, for the tests: the engine's rows and totals for a list of
hands dealt in turn, and their statistics in one pass (the app itself scores hand by hand as
they are written, ``tally.replay``, and keeps its statistics with ``stats.Counters``)."""

from collections.abc import Iterable, Iterator

from scoresheet import scoring
from scoresheet.stats import Counters, Statistics
from scoresheet.tally import Row, Tally, dealer, replay


def scored_rows(
    seats: int, first_dealer: int, hands: Iterable[scoring.Hand | None]
) -> Iterator[tuple[Row, tuple[int, ...]]]:
    """``replay`` for hands dealt in turn from ``first_dealer``."""
    dealt = (
        (dealer(first_dealer, number, seats), hand) for number, hand in enumerate(hands, start=1)
    )
    return replay(seats, dealt)


def build(seats: int, first_dealer: int, hands: Iterable[scoring.Hand | None]) -> Tally:
    """Score every hand in play order (None is a passed deal) and keep the running totals."""
    rows, totals = [], (0,) * seats
    for scored, totals in scored_rows(seats, first_dealer, hands):  # noqa: B007
        rows.append(scored)
    return Tally(
        seats=seats,
        rows=tuple(rows),
        totals=totals,
        next_dealer=dealer(first_dealer, len(rows) + 1, seats),
        count=len(rows),
    )


def statistics(sheet: Tally) -> Statistics:
    """Every statistic of a scored session (``build``), in one pass over its rows."""
    counters = Counters(sheet.seats)
    for row in sheet.rows:
        counters.add(row)
    return counters.statistics(sheet.totals)

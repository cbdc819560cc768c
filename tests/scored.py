"""Whole sheets scored in memory, for the tests: the engine's rows and totals for a list of
hands dealt in turn, and their statistics in one pass (the app itself scores hand by hand as
they are written, ``sheet.replay``, and keeps its statistics with ``stats.Counters``)."""

from collections.abc import Iterable, Iterator

from scoresheet import scoring
from scoresheet.sheet import Row, Sheet, dealer, replay
from scoresheet.stats import Counters, Statistics


def scored_rows(
    players: int, first_dealer: int, hands: Iterable[scoring.Hand | None]
) -> Iterator[tuple[Row, tuple[int, ...]]]:
    """``replay`` for hands dealt in turn from ``first_dealer``."""
    dealt = (
        (dealer(first_dealer, number, players), hand) for number, hand in enumerate(hands, start=1)
    )
    return replay(players, dealt)


def build(players: int, first_dealer: int, hands: Iterable[scoring.Hand | None]) -> Sheet:
    """Score every hand in play order (None is a passed deal) and keep the running totals."""
    rows, totals = [], (0,) * players
    for scored, totals in scored_rows(players, first_dealer, hands):  # noqa: B007
        rows.append(scored)
    return Sheet(
        players=players,
        rows=tuple(rows),
        totals=totals,
        next_dealer=dealer(first_dealer, len(rows) + 1, players),
        count=len(rows),
    )


def statistics(sheet: Sheet) -> Statistics:
    """Every statistic of a scored session (``build``), in one pass over its rows."""
    counters = Counters(sheet.players)
    for row in sheet.rows:
        counters.add(row)
    return counters.statistics(sheet.totals)

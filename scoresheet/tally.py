"""A sheet's hand count and totals, remembered per revision so that saving a hand does not
re-read the whole sheet.

Scores are never stored: they are computed from the stored inputs whenever shown. A sheet's
``revision`` changes in the same transaction as every change to its hands, and what is kept
here is keyed by (sheet, revision): an entry only ever describes the hands it was computed
from, so it cannot go stale. It lives in this process's memory (the "tally" cache): a miss
(another worker, a restart, the first save after a correction) recomputes from the hands.
"""

from dataclasses import dataclass

from django.core.cache import caches
from django.db import transaction

from scoresheet import sheet as sheets


@dataclass(frozen=True)
class Tally:
    count: int
    totals: tuple[int, ...]

    def after(self, scores: tuple[int, ...]) -> "Tally":
        """The tally once one more hand with these scores is added."""
        return Tally(
            self.count + 1, tuple(t + s for t, s in zip(self.totals, scores, strict=True))
        )


def _key(sheet) -> str:
    # The token, not the primary key: a key a database could hand out again is never reused.
    return f"tally:{sheet.token}:{sheet.revision}"


def of_hands(sheet, players: int) -> Tally:
    """Computed from the stored hands, as the sheet page computes it."""
    hands = [hand.to_scoring(players) for hand in sheet.hands.all()]
    scored = sheets.build(players, sheet.first_dealer, hands)
    return Tally(scored.count, scored.totals)


def current(sheet, players: int) -> Tally:
    """The tally at ``sheet.revision``; call it with the sheet locked (select_for_update)."""
    found = caches["tally"].get(_key(sheet))
    if found is None:
        found = of_hands(sheet, players)
        keep(sheet, found)
    return found


def keep(sheet, tally: Tally) -> None:
    """Remember the tally at ``sheet.revision``, once (and only if) the transaction commits."""
    transaction.on_commit(lambda: caches["tally"].set(_key(sheet), tally, timeout=6 * 3600))

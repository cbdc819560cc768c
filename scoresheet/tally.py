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


def current(sheet) -> Tally:
    """The tally at ``sheet.revision``; call it with the sheet locked (select_for_update)."""
    found = caches["tally"].get(_key(sheet))
    if found is None:
        _names, _hands, scored = sheet.load()
        found = Tally(scored.count, scored.totals)
        keep(sheet, found)
    return found


def keep(sheet, tally: Tally) -> None:
    """Remember the tally at ``sheet.revision``, once (and only if) the transaction commits."""
    transaction.on_commit(lambda: caches["tally"].set(_key(sheet), tally, timeout=6 * 3600))
